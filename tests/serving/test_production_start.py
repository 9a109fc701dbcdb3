"""The production start (gunicorn.conf.py) on PostgreSQL: 4 workers come up on an empty
database (the master migrates once, before any worker), every worker serves, a write
through one server process reaches a viewer of another within the documented second,
and a body over the limit is refused unstored."""

from __future__ import annotations

import json
import socket
import time
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
    assert json.loads(body)["code"] == "too_many_requests"
    assert games_stored(empty_database) == 3
