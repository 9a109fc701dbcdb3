"""The instance folder and its settings, found without Flask as ``create_app`` finds them."""

from __future__ import annotations

import sys
from pathlib import Path

import flask.sansio.scaffold
import pytest
from flask import Flask

from companion.serve import instance


def test_the_folder_is_the_apps(app: Flask) -> None:
    """In this checkout: the same folder the app's Flask found."""
    assert instance.folder() == Path(app.instance_path)


@pytest.mark.parametrize(
    ("package_path", "prefix"),
    [
        ("/home/ann/quiddler", "/usr"),  # a checkout
        ("/home/ann/quiddler", "/home/ann/quiddler/.venv"),  # a checkout, its own venv
        ("/usr/lib/python3.11/site-packages", "/usr"),  # installed to the system
        ("/srv/venv/lib/python3.11/site-packages", "/usr"),  # a virtualenv, Unix
        ("/srv/venv/Lib/site-packages", "/usr"),  # a virtualenv, Windows
        ("/srv/venv/site-packages", "/usr"),  # something else
        ("/opt/py/lib/python3.11/dist-packages", "/opt/py"),  # under the prefix
    ],
)
def test_the_folder_is_where_flask_puts_it(
    monkeypatch: pytest.MonkeyPatch, package_path: str, prefix: str
) -> None:
    """Wherever the package is imported from, the folder Flask itself would choose."""
    monkeypatch.setattr(flask.sansio.scaffold, "_find_package_path", lambda _: package_path)
    monkeypatch.setattr(sys, "prefix", prefix)
    expected = Flask("companion").instance_path
    assert instance.folder(package_path, prefix) == Path(expected)


def test_settings_read_config_py_then_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "config.py").write_text(
        "from pathlib import Path\nLEXICON_DIR = str(Path('/lists'))\nSECRET_KEY = 'k'\nlower = 1\n"
    )
    monkeypatch.delenv("LEXICON_DIR", raising=False)
    monkeypatch.setenv("LEXICON_CACHE_DIR", "/cache")
    found = instance.settings(tmp_path)
    assert found == {"LEXICON_DIR": "/lists", "SECRET_KEY": "k", "LEXICON_CACHE_DIR": "/cache"}
    monkeypatch.setenv("LEXICON_DIR", "/other")
    assert instance.settings(tmp_path)["LEXICON_DIR"] == "/other"


def test_settings_without_config_py(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for key in instance.ENVIRONMENT_KEYS:
        monkeypatch.delenv(key, raising=False)
    assert instance.settings(tmp_path / "missing") == {}


def test_the_store_is_the_apps(app: Flask) -> None:
    """The same lexicon folders as the app's store, from the same config."""
    store = instance.lexicon_store(app.config, Path(app.instance_path))
    theirs = app.extensions["lexicons"]
    assert (store.folder, store.cache_folder) == (theirs.folder, theirs.cache_folder)
    default = instance.lexicon_store({}, Path("/inst"))
    assert (default.folder, default.cache_folder) == (
        Path("/inst/lexicons"),
        Path("/inst/lexicons/cache"),
    )


def test_instance_path_in_the_environment_moves_the_instance_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server (or a test) keeps its instance folder elsewhere than beside the package:
    the app, its start's preparation and the command line all look there."""
    from companion import create_app

    monkeypatch.setenv("INSTANCE_PATH", str(tmp_path / "elsewhere"))
    assert instance.folder() == tmp_path / "elsewhere"
    made = create_app({"LEXICON_DIR": str(tmp_path / "lexicons")})
    assert made.instance_path == str(tmp_path / "elsewhere")
    database = tmp_path / "elsewhere" / "companion.sqlite3"
    assert made.config["DATABASE_URL"] == f"sqlite:///{database}"
