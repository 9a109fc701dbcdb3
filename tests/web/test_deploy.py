"""Nothing outlives a deploy: a release whose template changed, started again on the same
database, serves the new page at once. The phone's ETag from the old build is not "not
modified", and the static files' addresses change with the build.

The release is a copy of the package and its templates in a temporary folder (never the
checkout), served by the real start (``python -m companion.serve``: waitress).
"""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def request(
    port: int, method: str, path: str, body: object = None, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], str]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    payload = json.dumps(body) if body is not None else None
    sent = {"Content-Type": "application/json"} if payload else {}
    connection.request(method, path, payload, {**sent, **(headers or {})})
    answer = connection.getresponse()
    text = answer.read().decode()
    connection.close()
    return answer.status, {k.lower(): v for k, v in answer.getheaders()}, text


@contextmanager
def served(release: Path, lexicon_cache: Path, database: Path) -> Iterator[int]:
    """The release in ``release`` served by its own start, until the block ends."""
    port = free_port()
    env = {
        **os.environ,
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "DATABASE_URL": f"sqlite:///{database}",
        "SECRET_KEY": "deploy-test",
        "LEXICON_DIR": str(release / "lexicons"),
        "LEXICON_CACHE_DIR": str(lexicon_cache),
        "PYTHONPATH": str(release),
    }
    log = (release / "server.log").open("ab")
    process = subprocess.Popen(
        [sys.executable, "-m", "companion.serve"], cwd=release, env=env, stdout=log, stderr=log
    )
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                if request(port, "GET", "/health")[0] == 200:
                    break
            except OSError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail((release / "server.log").read_text()[-3000:])
            time.sleep(0.1)  # polling a starting server's port, not a wait on a page
        yield port
    finally:
        process.terminate()
        process.wait(20)
        log.close()


def test_a_changed_template_is_served_at_once_after_a_restart(
    tmp_path: Path, lexicon_cache: Path
) -> None:
    release = tmp_path / "release"
    shutil.copytree(
        ROOT / "companion", release / "companion", ignore=shutil.ignore_patterns("__pycache__")
    )
    shutil.copytree(ROOT / "templates", release / "templates")
    database = tmp_path / "companion.sqlite3"

    with served(release, lexicon_cache, database) as port:
        status, _, created = request(port, "POST", "/api/v1/games", {"players": ["Ann", "Ben"]})
        assert status == 201
        game = json.loads(created)["id"]
        status, headers, old_board = request(port, "GET", f"/games/{game}/board?lang=en")
        assert status == 200
        old_tag = headers["etag"]
        status, _, _ = request(
            port, "GET", f"/games/{game}/board?lang=en", headers={"If-None-Match": old_tag}
        )
        assert status == 304  # the same build: nothing changed
        old_page = request(port, "GET", f"/games/{game}")[2]

    board = release / "templates" / "_board.html"
    board.write_text(
        board.read_text().replace('<div id="board"', '<div id="board" data-release="two"', 1)
    )

    with served(release, lexicon_cache, database) as port:
        status, headers, new_board = request(
            port, "GET", f"/games/{game}/board?lang=en", headers={"If-None-Match": old_tag}
        )
        assert status == 200  # the game did not change, the build did
        assert 'data-release="two"' in new_board and "data-release" not in old_board
        assert headers["etag"] != old_tag
        new_page = request(port, "GET", f"/games/{game}")[2]

    old_static = set(re.findall(r"/static/[\w.]+\?v=(\w+)", old_page))
    new_static = set(re.findall(r"/static/[\w.]+\?v=(\w+)", new_page))
    assert len(old_static) == len(new_static) == 1 and old_static != new_static
