"""Reads of one statement that need no transaction: a poll's game version, the games
changed since the last look, a view another process kept.

On a server database a transaction costs two more round trips than its statement
(``BEGIN`` before it, ``ROLLBACK`` when the connection goes back to the pool); at 2,000
polls a second those were most of what the workers asked PostgreSQL, and each round trip
is a wait in a busy worker. One statement alone sees one consistent snapshot anyway. A
request whose session already holds a connection reads through it instead: a request
holds one connection at a time (one taken while another is held can leave every
connection of the pool waiting for a second one).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Row
from sqlalchemy.sql import Executable

from companion.extensions import db


def read_alone(statement: Executable) -> Sequence[Row[Any]]:
    """The rows of ``statement``, read outside any transaction (see the module)."""
    if db.session.registry.has() and db.session().in_transaction():
        return db.session.execute(statement).all()
    with db.engine.connect() as conn:
        return conn.execution_options(isolation_level="AUTOCOMMIT").execute(statement).all()
