"""The production start (gunicorn.conf.py) on PostgreSQL: 4 workers come up on an empty
database (the master migrates once, before any worker), every worker serves, a write
through one server process reaches a viewer of another within the documented second,
and a body over the limit is refused unstored."""

from __future__ import annotations

import json
import socket
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psutil
import sqlalchemy

MIGRATIONS = Path(__file__).resolve().parent.parent.parent / "companion/store/migrations/versions"
HEAD = max(path.name[:4] for path in MIGRATIONS.glob("[0-9][0-9][0-9][0-9]_*.py"))
"""The newest migration's revision, which a start on an empty database reaches."""

SEEN_WITHIN = 3.0
"""Seconds a save may take to reach a viewer of another server: the documented second,
and slack for a loaded CI machine (a bound on the wait, not a figure under test)."""

NEW_GAME = json.dumps({"players": ["Ann", "Ben", "Cy", "Di"]}).encode()
JSON = {"Content-Type": "application/json"}


def games_stored(url: str) -> int:
    engine = sqlalchemy.create_engine(url)
    try:
        with engine.connect() as conn:
            return conn.execute(sqlalchemy.text("SELECT count(*) FROM game")).scalar_one()
    finally:
        engine.dispose()


def loaded(pid: int, library: str) -> bool:
    """Whether process ``pid`` has a shared library whose path names ``library`` mapped."""
    return any(library in m.path for m in psutil.Process(pid).memory_maps(grouped=True))


def test_four_workers_come_up_on_an_empty_database(empty_database, gunicorn):
    server = gunicorn(empty_database, workers=4)
    assert server.process.poll() is None, server.text()
    assert server.serving() == 4, server.text()
    workers = psutil.Process(server.process.pid).children()
    assert len(workers) == 4 and all(w.is_running() for w in workers)
    # The master migrated the empty database, once, before the first worker booted.
    log = server.text()
    assert log.count("Database at revision") == 1
    assert f"Database at revision {HEAD} (upgraded from an empty database)" in log
    assert log.index("Database at revision") < log.index("Booting worker")
    for _ in range(20):  # new connections, spread over the workers
        status, _, body = server.get("/health")
        assert (status, json.loads(body)) == (200, {"status": "ok"})
    status, body = server.request("POST", "/api/v1/games", NEW_GAME, JSON)
    assert status == 201, body
    assert games_stored(empty_database) == 1
    assert len(psutil.Process(server.process.pid).children()) == 4  # none died meanwhile
    # The master prepared in a child process: it never loaded the database driver, so
    # no worker inherits a connection (or a driver's state) from it; each loads its own.
    assert not loaded(server.process.pid, "psycopg")
    assert all(loaded(w.pid, "psycopg") for w in workers)


def test_a_save_through_one_server_reaches_a_viewer_of_another(empty_database, gunicorn):
    """Two server processes on one database (as two workers are): the viewer's poll on
    the second sees a save made through the first (within the documented second), and
    until then keeps getting 304 for what it holds."""
    saver = gunicorn(empty_database, workers=1)
    viewer = gunicorn(empty_database, workers=1)
    assert saver.serving() == 1 and viewer.serving() == 1, saver.text() + viewer.text()
    status, body = saver.request("POST", "/api/v1/games", NEW_GAME, JSON)
    assert status == 201, body
    made = json.loads(body)
    board = f"/games/{made['id']}/board?lang=en"
    status, headers, _ = viewer.get(board)
    assert status == 200
    tag = headers["ETag"]
    assert viewer.get(board, {"If-None-Match": tag})[0] == 304

    hands = {
        "players": [
            {"name": "Ann", "words": [["C", "A", "T"]], "unused": [], "went_out": True},
            {"name": "Ben", "words": [["O", "X"]], "unused": ["E"]},
            {"name": "Cy", "words": [], "unused": ["Q", "U", "Z"]},
            {"name": "Di", "words": [["A", "T"]], "unused": ["E"]},
        ]
    }
    auth = {**JSON, "Authorization": f"Bearer {made['edit_token']}"}
    status, body = saver.request(
        "PUT", f"/api/v1/games/{made['id']}/rounds/1", json.dumps(hands).encode(), auth
    )
    assert status == 200, body
    saved = time.monotonic()
    while True:
        status, headers, body = viewer.get(board, {"If-None-Match": tag})
        waited = time.monotonic() - saved
        if status == 200 or waited > SEEN_WITHIN:
            break
        assert status == 304
        time.sleep(0.05)
    assert status == 200, f"not seen after {waited:.1f} s"
    assert headers["ETag"].startswith(f'"{made["id"]}-2-en')  # version 2, in English


def test_a_body_over_the_limit_is_refused_unstored_by_gunicorn(empty_database, gunicorn):
    """A 4 MiB game: 413 from its Content-Length, nothing stored."""
    server = gunicorn(empty_database, workers=1)
    assert server.serving() == 1, server.text()
    size = 4 * 1024 * 1024
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as conn:
        conn.sendall(
            b"POST /api/v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\n" + f"Content-Length: {size}\r\n\r\n".encode()
        )
        conn.sendall(b'{"players": ["' + b"A" * 1024)  # the first KiB only
        answer = conn.recv(4096)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert games_stored(empty_database) == 0


def test_two_servers_share_the_rate_limit_through_redis(empty_database, redis_url, gunicorn):
    """The production store of the limits: what one server process counted, another
    sees (in memory, each worker would allow the limit again)."""
    shared = {
        "RATELIMIT_ENABLED": "1",
        "RATELIMIT_STORAGE_URI": redis_url,
        "GAME_CREATION_LIMIT": "3 per minute",
    }
    one = gunicorn(empty_database, workers=1, **shared)
    two = gunicorn(empty_database, workers=1, **shared)
    assert one.serving() == 1 and two.serving() == 1, one.text() + two.text()
    made = [
        server.request("POST", "/api/v1/games", NEW_GAME, JSON)[0] for server in (one, two, one)
    ]
    assert made == [201, 201, 201]
    status, body = two.request("POST", "/api/v1/games", NEW_GAME, JSON)
    assert status == 429, body
    assert json.loads(body)["code"] == "too_many_new_games"
    assert games_stored(empty_database) == 3


def server_allows(url: str) -> tuple[int, int]:
    """The server's ``max_connections`` and the slots it keeps back (superusers' and, from
    PostgreSQL 16, ``reserved_connections``)."""
    engine = sqlalchemy.create_engine(url)
    try:
        with engine.connect() as conn:
            return conn.execute(
                sqlalchemy.text(
                    "SELECT current_setting('max_connections')::int,"
                    " current_setting('superuser_reserved_connections')::int"
                    " + coalesce(current_setting('reserved_connections', true), '0')::int"
                )
            ).one()
    finally:
        engine.dispose()


def connections_to(url: str) -> int:
    """The connections other than this one open to ``url``'s database now."""
    engine = sqlalchemy.create_engine(url)
    try:
        with engine.connect() as conn:
            return conn.execute(
                sqlalchemy.text(
                    "SELECT count(*) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
            ).scalar_one()
    finally:
        engine.dispose()


def test_a_start_that_would_ask_for_more_connections_than_allowed_is_refused(
    empty_database, gunicorn
):
    """Workers x pool over what PostgreSQL allows its clients: the start stops before any
    worker, saying so and what to change (before: it came up, and under load PostgreSQL
    refused "too many clients", each a failed request). Over DATABASE_MAX_CONNECTIONS:
    refused by the master before it even prepares."""
    limit, reserved = server_allows(empty_database)
    pool = limit // 2 + 1  # 2 workers of it: more than the server has
    server = gunicorn(
        empty_database,
        workers=2,
        wait=60,
        DATABASE_POOL_SIZE=str(pool),
        DATABASE_MAX_CONNECTIONS=str(4 * limit),
    )
    assert server.process.wait(30) != 0, server.text()
    log = server.text()
    assert (
        f"Refusing to start: 2 workers x {pool} = {2 * pool} database connections; the "
        f"server allows {limit - reserved} (max_connections {limit}, {reserved} reserved): "
        f"set DATABASE_MAX_CONNECTIONS to {limit - reserved} or less"
    ) in log
    assert "Booting worker" not in log and server.serving() == 0

    server = gunicorn(empty_database, workers=4, wait=60, DATABASE_MAX_CONNECTIONS="3")
    assert server.process.wait(30) != 0, server.text()
    log = server.text()
    assert (
        "Error: Refusing to start: 4 workers need a database connection each, and "
        "DATABASE_MAX_CONNECTIONS=3"
    ) in log
    assert "Database at revision" not in log and "Booting worker" not in log


def test_the_workers_pools_are_worked_out_from_the_total(empty_database, gunicorn):
    """3 workers of 4 threads within DATABASE_MAX_CONNECTIONS=6: 2 connections each,
    said at start, and no more open however many requests come at once."""
    server = gunicorn(empty_database, workers=3, THREADS="4", DATABASE_MAX_CONNECTIONS="6")
    assert server.serving() == 3, server.text()
    log = server.text()
    assert "Database pool: 2 connections per worker, 6 in all" in log
    assert "Each worker has 2 database connections for its 4 threads" in log
    assert "3 workers x 2 = 6 database connections; the server allows" in log
    status, body = server.request("POST", "/api/v1/games", NEW_GAME, JSON)
    assert status == 201, body
    path = f"/api/v1/games/{json.loads(body)['id']}"
    with ThreadPoolExecutor(24) as phones:
        answers = list(phones.map(lambda _: server.get(path)[0], range(96)))
    assert answers == [200] * 96
    assert connections_to(empty_database) <= 6
