"""Shared fixtures: an app on a temporary instance folder, and its test client."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy
from flask import Flask
from flask.testing import FlaskClient

from companion import create_app


@pytest.fixture(scope="session")
def lexicon_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One lexicon cache folder per test process: the real lists are built once, then loaded."""
    return tmp_path_factory.mktemp("lexicon-cache")


def database_url(tmp_path: Path) -> str:
    """A fresh SQLite file per test, or, with TEST_DATABASE_URL set (e.g. a PostgreSQL
    URL), that database emptied first: the same suite runs on any SQLAlchemy database."""
    url = os.environ.get("TEST_DATABASE_URL")
    if not url:
        return f"sqlite:///{tmp_path / 'test.sqlite3'}"
    engine = sqlalchemy.create_engine(url)
    with engine.begin() as conn:
        meta = sqlalchemy.MetaData()
        meta.reflect(conn)
        meta.drop_all(conn)
    engine.dispose()
    return url


@pytest.fixture
def app(tmp_path: Path, lexicon_cache: Path) -> Iterator[Flask]:
    """The real app with its database in a temporary folder; CSRF off for the test client."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
            "DATABASE_URL": database_url(tmp_path),
            "LEXICON_DIR": str(tmp_path / "lexicons"),
            "LEXICON_CACHE_DIR": str(lexicon_cache),
            "AUTO_MIGRATE": True,
        }
    )
    yield app
    with app.app_context():  # close pooled connections (a server database keeps them open)
        from companion.extensions import db

        db.engine.dispose()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()
