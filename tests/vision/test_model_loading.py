"""The OCR model costs nothing until a photo is read: starting the app and serving its
pages imports neither ONNX Runtime, nor RapidOCR, nor OpenCV (``make run`` starts as
fast as before)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

PROBE = """
import json, sys
from companion import create_app, upgrade_database
app = create_app({"DATABASE_URL": sys.argv[1], "TESTING": True})
upgrade_database(app)
client = app.test_client()
statuses = [client.get(url).status_code for url in ("/", "/games/new", "/rules")]
from companion.vision import model
print(json.dumps({
    "statuses": statuses,
    "loaded": model.loaded(),
    "modules": sorted(m for m in ("onnxruntime", "rapidocr", "cv2") if m in sys.modules),
}))
"""


def test_the_app_starts_and_serves_pages_without_the_model(tmp_path: Path) -> None:
    env = {**os.environ, "INSTANCE_PATH": str(tmp_path / "instance")}
    env.pop("DATABASE_URL", None)
    run = subprocess.run(
        [sys.executable, "-c", PROBE, f"sqlite:///{tmp_path / 'probe.sqlite3'}"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    found = json.loads(run.stdout.strip().splitlines()[-1])
    assert found == {"statuses": [200, 200, 200], "loaded": False, "modules": []}
