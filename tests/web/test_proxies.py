"""Behind a reverse proxy (``TRUSTED_PROXIES``): a client's own forwarded headers never
change a view kept for the others, and ``make run``'s waitress reads the proxy's
X-Forwarded-For, -Proto and -Host itself (its own trusted-proxy settings), so the rate
limits count each phone and the cookie is Secure over HTTPS, as docs/configuration.md
says. The production start's nginx is tested in tests/serving/test_behind_nginx.py."""

from __future__ import annotations

import http.client
import json
import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from flask import Flask

from companion import create_app
from companion.store.db import db

ROOT = Path(__file__).resolve().parent.parent.parent

HOSTILE = {
    "X-Forwarded-Prefix": "//evil.example",
    "X-Forwarded-Host": "evil.example",
    "X-Forwarded-Proto": "https",
    "X-Forwarded-Port": "8443",
}
"""What one client behind the proxy writes itself (a proxy that passes them on)."""


def round_links(page: str) -> list[str]:
    """The addresses of the links to the game's rounds in ``page``."""
    return re.findall(r'href="([^"]*/rounds/\d+)"', page)


def test_a_client_s_forwarded_headers_never_reach_another_s_board(app: Flask) -> None:
    """One request with a hostile prefix and host is answered with links of its own
    making; the board and the game page every other phone gets next link this site's
    rounds only (before: 5 of 5 later boards linked to //evil.example)."""
    config = {k: v for k, v in app.config.items() if k != "SQLALCHEMY_DATABASE_URI"}
    proxied = create_app({**config, "TRUSTED_PROXIES": "1", "ALLOWED_HOSTS": "*"})
    try:
        hostile = proxied.test_client()
        made = hostile.post("/api/v1/games", json={"players": ["Ann", "Ben"]})
        assert made.status_code == 201, made.get_json()
        game = made.get_json()["id"]
        board, page = f"/games/{game}/board?lang=en", f"/games/{game}"
        for path in (board, page):  # the hostile client's own answers come first
            answer = hostile.get(path, headers=HOSTILE)
            assert answer.status_code == 200
            assert round_links(answer.get_data(as_text=True))[0].startswith("//evil.example/")
        for _ in range(3):
            phone = proxied.test_client()
            for path in (board, page):
                seen = phone.get(path).get_data(as_text=True)
                links = round_links(seen)
                assert links[:3] == [f"/games/{game}/rounds/{n}" for n in (1, 2, 3)]
                assert "evil.example" not in seen
    finally:
        with proxied.app_context():
            db.engine.dispose()


# --- make run: waitress ------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def request(
    port: int, method: str, path: str, headers: dict[str, str], body: object = None
) -> tuple[int, http.client.HTTPMessage, str]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    try:
        payload = json.dumps(body) if body is not None else None
        sent = {"Content-Type": "application/json"} if payload else {}
        connection.request(method, path, payload, {**sent, **headers})
        answer = connection.getresponse()
        return answer.status, answer.headers, answer.read().decode()
    finally:
        connection.close()


@contextmanager
def make_run(tmp_path: Path, lexicon_cache: Path, **settings: str) -> Iterator[int]:
    """``make run``'s start (``python -m companion.serve``: waitress) on a port of its
    own, with ``settings`` in its environment, until the block ends: its port."""
    port = free_port()
    env = {
        **os.environ,
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "DATABASE_URL": f"sqlite:///{tmp_path / 'companion.sqlite3'}",
        "SECRET_KEY": "proxy-test",
        "INSTANCE_PATH": str(tmp_path / "instance"),
        "LEXICON_DIR": str(tmp_path / "lexicons"),
        "LEXICON_CACHE_DIR": str(lexicon_cache),
        "PYTHONPATH": str(ROOT),
        **settings,
    }
    log_path = tmp_path / "server.log"
    with log_path.open("ab") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "companion.serve"],
            cwd=tmp_path,
            env=env,
            stdout=log,
            stderr=log,
        )
        try:
            deadline = time.monotonic() + 120
            while True:
                try:
                    if request(port, "GET", "/health", {})[0] == 200:
                        break
                except OSError:
                    pass
                if process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(log_path.read_text()[-3000:])
                time.sleep(0.1)  # polling a starting server's port, not a wait on a page
            yield port
        finally:
            process.terminate()
            process.wait(20)


def test_make_run_behind_a_proxy_reads_its_forwarded_headers(
    tmp_path: Path, lexicon_cache: Path
) -> None:
    """waitress behind ``TRUSTED_PROXIES=1``: each phone's X-Forwarded-For is its own rate
    limit's bucket, X-Forwarded-Proto https makes the cookie Secure, X-Forwarded-Host names
    the links; X-Forwarded-Prefix is read by no one (before: waitress removed the first
    three and the app read only the prefix)."""
    settings = {
        "TRUSTED_PROXIES": "1",
        "ALLOWED_HOSTS": "quiddler.example.org",
        "RATELIMIT_ENABLED": "1",
        "GAME_CREATION_LIMIT": "1 per minute",
    }
    players = {"players": ["Ann", "Ben"]}
    proxy = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "quiddler.example.org"}
    with make_run(tmp_path, lexicon_cache, **settings) as port:
        ann = {**proxy, "X-Forwarded-For": "203.0.113.5"}
        status, _, body = request(port, "POST", "/api/v1/games", ann, players)
        assert status == 201, body
        game = json.loads(body)
        assert game["view_url"] == f"https://quiddler.example.org/games/{game['id']}"
        status, _, body = request(port, "POST", "/api/v1/games", ann, players)
        assert status == 429 and json.loads(body)["code"] == "too_many_new_games"
        ben = {**proxy, "X-Forwarded-For": "203.0.113.6"}  # another phone behind the proxy
        status, _, body = request(port, "POST", "/api/v1/games", ben, players)
        assert status == 201, body

        status, headers, _ = request(port, "GET", "/language/lt?next=/", ann)
        assert status == 302
        cookie = headers["Set-Cookie"]
        assert "session=" in cookie and "Secure" in cookie
        status, headers, _ = request(port, "GET", "/language/lt?next=/", {})  # plain HTTP
        assert status == 302 and "Secure" not in headers["Set-Cookie"]

        board = f"/games/{game['id']}/board?lang=en"
        hostile = {**ann, "X-Forwarded-Prefix": "//evil.example"}
        for headers_sent in (hostile, {}):
            status, _, page = request(port, "GET", board, headers_sent)
            assert status == 200
            assert round_links(page)[:2] == [f"/games/{game['id']}/rounds/{n}" for n in (1, 2)]
            assert "evil" not in page


def test_make_run_without_proxies_reads_no_forwarded_header(
    tmp_path: Path, lexicon_cache: Path
) -> None:
    """``TRUSTED_PROXIES`` unset: a client's X-Forwarded-* changes nothing (one bucket for
    the address the connection came from, no Secure cookie over plain HTTP)."""
    settings = {"RATELIMIT_ENABLED": "1", "GAME_CREATION_LIMIT": "1 per minute"}
    players = {"players": ["Ann", "Ben"]}
    with make_run(tmp_path, lexicon_cache, **settings) as port:
        forged = {"X-Forwarded-For": "203.0.113.5", "X-Forwarded-Proto": "https"}
        status, _, body = request(port, "POST", "/api/v1/games", forged, players)
        assert status == 201, body
        assert json.loads(body)["view_url"].startswith(f"http://127.0.0.1:{port}/games/")
        other = {"X-Forwarded-For": "203.0.113.6"}
        assert request(port, "POST", "/api/v1/games", other, players)[0] == 429
        status, headers, _ = request(port, "GET", "/language/lt?next=/", forged)
        assert status == 302 and "Secure" not in headers["Set-Cookie"]
