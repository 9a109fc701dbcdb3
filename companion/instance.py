"""The instance folder: created on first run, with a random secret key kept in it."""

from __future__ import annotations

import secrets
from pathlib import Path


def ensure_instance(path: Path) -> Path:
    """Create ``path`` and its ``config.py`` with a fresh random ``SECRET_KEY`` if missing."""
    path.mkdir(parents=True, exist_ok=True)
    config = path / "config.py"
    if not config.exists():
        config.write_text(
            "# Made on first run; keep it secret. Delete it to get a new key.\n"
            f"SECRET_KEY = {secrets.token_hex(32)!r}\n"
        )
        config.chmod(0o600)
    return config
