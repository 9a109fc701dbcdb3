"""Shared fixtures: an app on a temporary instance folder, and its test client."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import create_app


@pytest.fixture(scope="session")
def lexicon_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One lexicon cache folder per test process: the real lists are built once, then loaded."""
    return tmp_path_factory.mktemp("lexicon-cache")


@pytest.fixture
def app(tmp_path: Path, lexicon_cache: Path) -> Iterator[Flask]:
    """The real app with its database in a temporary folder; CSRF off for the test client."""
    yield create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
            "DATABASE_URL": f"sqlite:///{tmp_path / 'test.sqlite3'}",
            "LEXICON_DIR": str(tmp_path / "lexicons"),
            "LEXICON_CACHE_DIR": str(lexicon_cache),
        }
    )


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()
