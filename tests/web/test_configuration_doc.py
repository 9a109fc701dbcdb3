"""docs/configuration.md is true: every setting it lists is one the app or its start reads,
every key the environment may set is listed, each one set in the environment reaches the
app's config (flags as flags), and the defaults it gives are the app's own."""

from __future__ import annotations

import re
from pathlib import Path

import flask
import flask_wtf
import pytest

from companion import create_app
from companion.serve.instance import ENVIRONMENT_KEYS

ROOT = Path(__file__).resolve().parent.parent.parent
DOC = (ROOT / "docs" / "configuration.md").read_text()
SOURCE = (
    "\n".join(
        p.read_text() for p in [*(ROOT / "companion").rglob("*.py"), ROOT / "gunicorn.conf.py"]
    )
    + (ROOT / "Makefile").read_text()
)


def table(heading: str) -> dict[str, list[str]]:
    """The rows of the table under ``heading``: the key, then its other cells."""
    section = DOC[DOC.index(heading) :]
    rows = re.findall(r"^\| `([A-Z_]+)` \|(.*)\|$", section.split("\n## ", 1)[0], re.M)
    return {key: [c.strip() for c in rest.split("|")] for key, rest in rows}


APP_KEYS = table("## The app")
SERVER_KEYS = table("## The server")


def test_the_tables_are_read() -> None:
    assert len(APP_KEYS) >= 20 and {"HOST", "PORT", "THREADS"} <= set(SERVER_KEYS)


LIBRARIES = "\n".join(
    p.read_text()
    for module in (flask, flask_wtf)
    for p in Path(module.__file__ or "").parent.rglob("*.py")
)
"""Where the settings of Flask and Flask-WTF themselves are read."""


@pytest.mark.parametrize("key", sorted({*APP_KEYS, *SERVER_KEYS}))
def test_every_documented_setting_is_read_by_the_code(key: str) -> None:
    found = re.search(rf"\b{key}\b", SOURCE) or re.search(rf"\b{key}\b", LIBRARIES)
    assert found, f"{key} is documented but nothing reads it"


def test_the_environment_keys_are_exactly_those_the_doc_names() -> None:
    listed = DOC[DOC.index("3. the environment") : DOC.index("4. the mapping")]
    assert set(re.findall(r"`([A-Z_]+)`", listed)) - {"ENVIRONMENT_KEYS"} == set(ENVIRONMENT_KEYS)
    for key in ENVIRONMENT_KEYS:
        assert "environment variable" in APP_KEYS[key][0], key


SAMPLES: dict[str, tuple[str, object]] = {
    "DATABASE_URL": ("sqlite:///{tmp}/elsewhere.sqlite3", "sqlite:///{tmp}/elsewhere.sqlite3"),
    "SECRET_KEY": ("from-the-environment", "from-the-environment"),
    "LEXICON_DIR": ("{tmp}/lists", "{tmp}/lists"),
    "LEXICON_CACHE_DIR": ("{tmp}/cache", "{tmp}/cache"),
    "AUTO_MIGRATE": ("0", "0"),
    "PUBLIC_URL": ("https://quiddler.example/", "https://quiddler.example/"),
    "ALLOWED_HOSTS": ("club.example", "club.example"),
    "TRUSTED_PROXIES": ("1", "1"),
    "RATELIMIT_STORAGE_URI": ("memory://", "memory://"),
    "RATELIMIT_ENABLED": ("no", False),
    "GAME_CREATION_LIMIT": ("5 per minute", "5 per minute"),
    "WORD_LOOKUP_LIMIT": ("7 per minute", "7 per minute"),
    "SOLVER_LIMIT": ("9 per minute", "9 per minute"),
    "GAME_CREATION_ADDRESS_LIMIT": ("11 per minute", "11 per minute"),
    "WORD_LOOKUP_ADDRESS_LIMIT": ("13 per minute", "13 per minute"),
    "SOLVER_ADDRESS_LIMIT": ("17 per minute", "17 per minute"),
    "SEAT_CLAIM_LIMIT": ("19 per minute", "19 per minute"),
    "PHOTO_READ_LIMIT": ("13 per minute", "13 per minute"),
    "PHOTO_READ_ADDRESS_LIMIT": ("14 per minute", "14 per minute"),
    "DATABASE_POOL_SIZE": ("7", "7"),
    "CACHE_TYPE": ("SimpleCache", "SimpleCache"),
    "CACHE_DIR": ("{tmp}/kept", "{tmp}/kept"),
    "CACHE_REDIS_URL": ("redis://127.0.0.1:6379/1", "redis://127.0.0.1:6379/1"),
    "SESSION_COOKIE_SECURE": ("true", True),
}


@pytest.mark.parametrize("key", ENVIRONMENT_KEYS)
def test_each_environment_key_reaches_the_app(
    key: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for other in ENVIRONMENT_KEYS:
        monkeypatch.delenv(other, raising=False)
    given, expected = SAMPLES[key]
    monkeypatch.setenv(key, given.format(tmp=tmp_path))
    if key != "LEXICON_DIR":
        monkeypatch.setenv("LEXICON_DIR", str(tmp_path / "lexicons"))
    if key != "DATABASE_URL":
        monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'c.sqlite3'}")
    made = create_app()
    wanted = expected.format(tmp=tmp_path) if isinstance(expected, str) else expected
    assert made.config[key] == wanted


def test_the_documented_defaults_are_the_apps(tmp_path: Path) -> None:
    made = create_app(
        {
            "DATABASE_URL": f"sqlite:///{tmp_path / 'c.sqlite3'}",
            "LEXICON_DIR": str(tmp_path / "lexicons"),
        }
    )
    documented = {key: cells[1] for key, cells in APP_KEYS.items()}
    assert documented["MAX_CONTENT_LENGTH"].startswith(str(made.config["MAX_CONTENT_LENGTH"]))
    assert documented["BOARD_POLL_MS"] == str(made.config["BOARD_POLL_MS"])
    assert documented["RATELIMIT_STORAGE_URI"].startswith(
        f"`{made.config['RATELIMIT_STORAGE_URI']}`"
    )
    assert documented["TRUSTED_PROXIES"].startswith(str(made.config["TRUSTED_PROXIES"]))
    assert documented["AUTO_MIGRATE"] == "false" and made.config["AUTO_MIGRATE"] is False
    assert documented["SESSION_REFRESH_EACH_REQUEST"].startswith("false")
    assert made.config["SESSION_REFRESH_EACH_REQUEST"] is False
    assert documented["WTF_CSRF_ENABLED"] == "true"
    from companion.web import extensions

    limits = {
        "GAME_CREATION_LIMIT": extensions.GAME_CREATION,
        "GAME_CREATION_ADDRESS_LIMIT": extensions.GAME_CREATION_ADDRESS,
        "WORD_LOOKUP_LIMIT": extensions.WORD_LOOKUPS,
        "WORD_LOOKUP_ADDRESS_LIMIT": extensions.WORD_LOOKUPS_ADDRESS,
        "SOLVER_LIMIT": extensions.SOLVER,
        "SOLVER_ADDRESS_LIMIT": extensions.SOLVER_ADDRESS,
        "SEAT_CLAIM_LIMIT": extensions.SEAT_CLAIMS,
        "PHOTO_READ_LIMIT": extensions.PHOTO_READS,
        "PHOTO_READ_ADDRESS_LIMIT": extensions.PHOTO_READS_ADDRESS,
    }
    for key, value in limits.items():
        assert documented[key].startswith(f"`{value}`"), key
    assert limits["GAME_CREATION_LIMIT"] == "30 per minute;300 per hour"
    assert made.config["SESSION_COOKIE_SECURE"] is False  # no https PUBLIC_URL
