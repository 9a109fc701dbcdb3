"""Database connections under load: a request holds one at a time, and a request that
finds every connection of its process taken (a burst) gets 503 with Retry-After, never
a 500, and changes nothing.

A worker serving many requests at once (threads) does so on a pool of
a few connections: a request that took a second connection while holding its first
could leave every connection held by a request waiting for another (seen at 1,000
tables, benchmarks/tables.py)."""

from __future__ import annotations

from pathlib import Path

from flask import Flask
from sqlalchemy import func, select

from companion import create_app, upgrade_database
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
    made = create_app(own_config(
        app,
        DATABASE_URL=f"sqlite:///{tmp_path / 'one-connection.sqlite3'}",
        SQLALCHEMY_ENGINE_OPTIONS={"pool_size": 1, "max_overflow": 0, "pool_timeout": 0.5},
    ))
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
    server = create_app(own_config(  # builds the engine; connects to nothing yet
        app,
        DATABASE_URL="postgresql+psycopg://companion:companion@127.0.0.1:1/nowhere",
        DATABASE_POOL_SIZE="7",
    ))
    with server.app_context():
        pool = db.engine.pool
        assert (pool.size(), pool._max_overflow, pool._timeout) == (7, 0, 10)
