"""The database handle (Flask-SQLAlchemy) and its migrations (Flask-Migrate), bound to the
app in ``create_app``; SQLite's pragmas on every connection."""

import sqlite3
from typing import TYPE_CHECKING

from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.orm import DeclarativeBase
from sqlalchemy.pool import ConnectionPoolEntry


class Base(DeclarativeBase):
    """The declarative base of our models."""


db = SQLAlchemy(model_class=Base)
migrate = Migrate()

if TYPE_CHECKING:
    # Flask-SQLAlchemy types ``db.Model`` as a variable, which can't be a base class; it is
    # built from ``Base`` (plus its query and bind-key mixins, which the models don't use).
    Model = Base
else:
    Model = db.Model
"""The base class of the models: ``db.Model``, typed as the declarative base it extends."""


@event.listens_for(Engine, "connect")
def _sqlite_pragmas(dbapi_connection: DBAPIConnection, _record: ConnectionPoolEntry) -> None:
    """SQLite: enforce foreign keys (ON DELETE CASCADE), and write-ahead logging so the
    phones reading the leaderboard don't wait for a save, with fewer syncs per commit."""
    if isinstance(dbapi_connection, sqlite3.Connection):
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.close()
