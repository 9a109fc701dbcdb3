"""The database handle (Flask-SQLAlchemy) and its migrations (Flask-Migrate), bound to the
app in ``create_app``; SQLite's pragmas on every connection."""

import sqlite3

from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    """The declarative base of our models."""


db = SQLAlchemy(model_class=Base)
migrate = Migrate()

@event.listens_for(Engine, "connect")
def _sqlite_pragmas(dbapi_connection, _record) -> None:  # type: ignore[no-untyped-def]
    """SQLite: enforce foreign keys (ON DELETE CASCADE), and write-ahead logging so the
    phones reading the leaderboard don't wait for a save, with fewer syncs per commit."""
    if isinstance(dbapi_connection, sqlite3.Connection):
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.close()
