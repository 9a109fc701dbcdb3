"""A lone read (a poll's version, the changed games, a kept view) runs outside any
transaction, so a server database is asked one statement and no BEGIN/ROLLBACK around
it; inside a request whose session holds a connection, it uses that connection."""

from __future__ import annotations

from flask import Flask
from sqlalchemy import event, select, text

from companion.extensions import db
from companion.lone_reads import read_alone
from companion.models import Game


def autocommit(dbapi_connection: object) -> bool:
    """Whether the driver's connection runs each statement alone (psycopg, sqlite3)."""
    if type(dbapi_connection).__module__.startswith("psycopg"):
        return bool(dbapi_connection.autocommit)  # type: ignore[attr-defined]
    return dbapi_connection.isolation_level is None  # type: ignore[attr-defined]


def test_a_lone_read_runs_outside_a_transaction(app: Flask, new_game) -> None:  # type: ignore[no-untyped-def]
    game = new_game()
    seen: list[tuple[bool, object]] = []

    def note(conn, cursor, statement, *args):  # type: ignore[no-untyped-def]
        dbapi = conn.connection.dbapi_connection
        seen.append((autocommit(dbapi), type(dbapi).__module__))

    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", note)
        try:
            rows = read_alone(select(Game.version).where(Game.id == game.id))
            assert [tuple(r) for r in rows] == [(1,)]
            assert [alone for alone, _ in seen] == [True], seen
            # The connection went back as it was: the next transaction is a transaction.
            with db.engine.connect() as conn:
                conn.execute(text("SELECT 1"))
                assert not autocommit(conn.connection.dbapi_connection)
        finally:
            event.remove(db.engine, "before_cursor_execute", note)


def test_inside_a_transaction_a_lone_read_uses_the_session_connection(app: Flask, new_game) -> None:  # type: ignore[no-untyped-def]
    game = new_game()
    with app.app_context():
        db.session.execute(select(Game.id)).all()  # the request's session holds a connection
        held = db.session.connection().connection.dbapi_connection
        seen: list[object] = []

        def note(conn, cursor, statement, *args):  # type: ignore[no-untyped-def]
            seen.append(conn.connection.dbapi_connection)

        event.listen(db.engine, "before_cursor_execute", note)
        try:
            rows = read_alone(select(Game.version).where(Game.id == game.id))
        finally:
            event.remove(db.engine, "before_cursor_execute", note)
        assert [tuple(r) for r in rows] == [(1,)]
        assert seen == [held]  # no second connection taken
        db.session.rollback()
