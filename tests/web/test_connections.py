"""Database connections under load: a request holds one at a time, and a request that
finds every connection of its process taken (a burst) gets 503 with Retry-After, never
a 500, and changes nothing.

A worker serving many requests at once (threads) does so on a pool of
a few connections: a request that took a second connection while holding its first
could leave every connection held by a request waiting for another (seen at 1,000
tables, benchmarks/tables.py)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import sqlalchemy
from flask import Flask
from sqlalchemy import func, select

from companion import create_app, upgrade_database
from companion.serve.connections import DEFAULT_TOTAL, check_server, pool_per_worker
from companion.store.db import db
from companion.store.models import Round

FOUR = ["Ann", "Ben", "Cy", "Di"]
ROUND_ONE = {
    "players": [
        {"name": "Ann", "words": [["C", "A", "T"]], "unused": [], "went_out": True},
        {"name": "Ben", "words": [["O", "X"]], "unused": ["E"]},
        {"name": "Cy", "words": [], "unused": ["Q", "U", "Z"]},
        {"name": "Di", "words": [["A", "T"]], "unused": ["E"]},
    ]
}


def own_config(app: Flask, **changes: object) -> dict[str, object]:
    """The test app's config for an app of its own, its database and pool from
    ``changes``."""
    config = {
        k: v
        for k, v in app.config.items()
        if k not in ("SQLALCHEMY_DATABASE_URI", "SQLALCHEMY_ENGINE_OPTIONS")
    }
    return {**config, **changes}


def one_connection_app(app: Flask, tmp_path: Path) -> Flask:
    """An app of its own whose process has a single database connection (waited for half
    a second)."""
    made = create_app(
        own_config(
            app,
            DATABASE_URL=f"sqlite:///{tmp_path / 'one-connection.sqlite3'}",
            SQLALCHEMY_ENGINE_OPTIONS={"pool_size": 1, "max_overflow": 0, "pool_timeout": 0.5},
        )
    )
    upgrade_database(made)
    return made


def test_a_view_rendered_needs_one_connection(app: Flask, tmp_path: Path) -> None:
    """The board and the page, rendered and then kept, on a process's single connection."""
    single = one_connection_app(app, tmp_path)
    client = single.test_client()
    made = client.post("/api/v1/games", json={"players": FOUR}).get_json()
    game_id = made["id"]
    board = client.get(f"/games/{game_id}/board?lang=en")
    assert board.status_code == 200, board.get_data(as_text=True)
    assert "Ann" in board.get_data(as_text=True)
    page = client.get(f"/games/{game_id}", headers={"Accept-Language": "lt"})
    assert page.status_code == 200
    again = single.test_client().get(f"/games/{game_id}/board?lang=en")
    assert again.status_code == 200 and again.get_data() == board.get_data()


def test_every_connection_taken_is_503_with_retry_after_and_writes_nothing(
    app: Flask, tmp_path: Path
) -> None:
    single = one_connection_app(app, tmp_path)
    client = single.test_client()
    made = client.post("/api/v1/games", json={"players": FOUR}).get_json()
    auth = {"Authorization": f"Bearer {made['edit_token']}"}
    reader = single.test_client()
    reader.get("/language/hu?next=/")  # another phone, reading Hungarian
    with single.app_context():
        engine = db.engine
    held = engine.connect()  # another request holds the process's only connection
    try:
        saved = client.put(f"/api/v1/games/{made['id']}/rounds/1", json=ROUND_ONE, headers=auth)
        page = reader.get(f"/games/{made['id']}")
    finally:
        held.close()
    assert saved.status_code == 503
    assert saved.headers["Retry-After"] == "2"
    assert saved.get_json()["code"] == "server_busy"
    assert saved.get_json()["error"] == (
        "The server is busy; nothing was changed. Try again in a moment."
    )
    assert page.status_code == 503
    assert "A szerver foglalt; semmi sem változott." in page.get_data(as_text=True)
    with single.app_context():
        assert db.session.scalar(select(func.count()).select_from(Round)) == 0
    # Once a connection is free, the same save goes through.
    retried = client.put(f"/api/v1/games/{made['id']}/rounds/1", json=ROUND_ONE, headers=auth)
    assert retried.status_code == 200


def test_the_pool_size_is_the_connections_kept_open_and_no_more(app: Flask) -> None:
    server = create_app(
        own_config(  # builds the engine; connects to nothing yet
            app,
            DATABASE_URL="postgresql+psycopg://companion:companion@127.0.0.1:1/nowhere",
            DATABASE_POOL_SIZE="7",
        )
    )
    with server.app_context():
        pool = db.engine.pool
        assert (pool.size(), pool._max_overflow, pool._timeout) == (7, 0, 10)


@contextmanager
def refusing_database(app: Flask, tmp_path: Path) -> Iterator[str]:
    """The URL of a database that refuses every connection while the block runs: on
    PostgreSQL (``TEST_DATABASE_URL``) a migrated database of its own whose only allowed
    connection is held by another client ("too many connections", as a full server says
    "too many clients"); on SQLite a file that can't be opened."""
    url = sqlalchemy.make_url(app.config["DATABASE_URL"])
    if url.get_backend_name() != "postgresql":
        yield f"sqlite:///{tmp_path / 'no-such-folder' / 'companion.sqlite3'}"
        return
    name = f"{url.database}_refusing_{uuid.uuid4().hex[:8]}"
    admin = sqlalchemy.create_engine(url, isolation_level="AUTOCOMMIT")
    own = url.set(database=name).render_as_string(hide_password=False)
    holder = sqlalchemy.create_engine(own, poolclass=sqlalchemy.pool.NullPool)
    with admin.connect() as conn:
        conn.execute(sqlalchemy.text(f'CREATE DATABASE "{name}"'))
    try:
        migrated = create_app(own_config(app, DATABASE_URL=own))
        upgrade_database(migrated)
        with migrated.app_context():
            db.engine.dispose()
        with admin.connect() as conn:
            conn.execute(sqlalchemy.text(f'ALTER DATABASE "{name}" CONNECTION LIMIT 1'))
        with holder.connect():  # another client holds the one connection allowed
            yield own
    finally:
        holder.dispose()
        with admin.connect() as conn:
            conn.execute(sqlalchemy.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def test_a_refused_connection_is_503_with_retry_after_never_500(app: Flask, tmp_path: Path) -> None:
    """The database refuses the connection a request needs: the page (in the phone's
    language) and the API answer 503 ``server_busy`` with Retry-After, as a full pool does
    (before: 500 ``server_error``, 3 of 3)."""
    with refusing_database(app, tmp_path) as url:
        refused = create_app(own_config(app, DATABASE_URL=url, DATABASE_POOL_SIZE="2"))
        try:
            client = refused.test_client()
            made = client.post("/api/v1/games", json={"players": FOUR})
            polled = client.get("/api/v1/games/a-game-id")
            reader = refused.test_client()
            reader.get("/language/cs?next=/")
            board = reader.get("/games/a-game-id/board?lang=cs")
            page = reader.get("/games/a-game-id")
        finally:
            with refused.app_context():
                db.engine.dispose()
    for answer in (made, polled):
        assert answer.status_code == 503
        assert answer.headers["Retry-After"] == "2"
        assert answer.get_json()["code"] == "server_busy"
        assert answer.get_json()["error"] == (
            "The server is busy; nothing was changed. Try again in a moment."
        )
    for answer in (board, page):
        assert answer.status_code == 503
        assert answer.headers["Retry-After"] == "2"
        assert "Server je zaneprázdněný" in answer.get_data(as_text=True)


def test_each_worker_keeps_a_connection_per_thread_within_the_total() -> None:
    """The production start's pools: one connection per thread while the workers' fit in
    DATABASE_MAX_CONNECTIONS, fewer (the total shared out) when not, and a clear refusal
    when not even one each fits or a given pool would go over."""
    assert pool_per_worker(3, 4, DEFAULT_TOTAL) == 4  # 12: one per thread
    assert pool_per_worker(9, 4, DEFAULT_TOTAL) == 4  # an 8-core box: 36
    assert pool_per_worker(33, 4, DEFAULT_TOTAL) == 2  # a 32-core box: 66, not 132
    assert pool_per_worker(3, 4, 6) == 2
    assert pool_per_worker(80, 4, DEFAULT_TOTAL) == 1
    assert pool_per_worker(4, 4, 80, asked=20) == 20  # given, and it fits
    with pytest.raises(ValueError, match="81 workers need a database connection each"):
        pool_per_worker(81, 4, DEFAULT_TOTAL)
    with pytest.raises(ValueError, match=r"would hold 100, over DATABASE_MAX_CONNECTIONS=80"):
        pool_per_worker(5, 4, 80, asked=20)
    for wrong in ((0, 4, 80, None), (2, 0, 80, None), (2, 4, 0, None), (2, 4, 80, 0)):
        with pytest.raises(ValueError):
            pool_per_worker(*wrong)
    assert check_server(9, 4, 100, 3) == (
        "9 workers x 4 = 36 database connections; the server allows 97 "
        "(max_connections 100, 3 reserved)"
    )
    assert check_server(97, 1, 100, 3).startswith("97 workers x 1 = 97")
    with pytest.raises(ValueError, match="set DATABASE_MAX_CONNECTIONS to 97 or less"):
        check_server(33, 3, 100, 3)
