"""Shared fixtures: an app on a temporary instance folder, and its test client."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import create_app


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    """The real app with its database in a temporary folder; CSRF off for the test client."""
    yield create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
            "DATABASE_URL": f"sqlite:///{tmp_path / 'test.sqlite3'}",
        }
    )


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()
