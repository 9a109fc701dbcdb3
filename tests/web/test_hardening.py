"""A server strangers share: what every answer carries, the session cookie's flags,
spreadsheet-safe exports, and bodies over the limit refused unread."""

from __future__ import annotations

import contextlib
import html
import json
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import waitress
from flask import Flask
from flask.testing import FlaskClient

from companion import create_app, upgrade_database
from companion.serve.start import body_limit
from companion.web.spreadsheet import spreadsheet_safe


@pytest.mark.parametrize("path", ["/", "/words?word=quiz", "/api/v1/cards", "/nowhere"])
def test_every_answer_carries_the_safety_headers(client: FlaskClient, path: str) -> None:
    headers = client.get(path).headers
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin"
    policy = headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert "unsafe-inline" not in policy.split("script-src", 1)[1].split(";", 1)[0]


def apart(app: Flask, **changes: object) -> dict[str, object]:
    """The test app's config with ``changes``, for an app of its own: a database in memory
    (no second connection to the test's file) and no session-cookie flag decided yet."""
    config = {
        k: v
        for k, v in app.config.items()
        if k not in ("SESSION_COOKIE_SECURE", "SQLALCHEMY_DATABASE_URI")
    }
    return {**config, "DATABASE_URL": "sqlite://", **changes}


def session_cookie(client: FlaskClient) -> str:
    """The Set-Cookie header of a page that writes the session (a language chosen)."""
    answer = client.get("/language/lt?next=/")
    cookies = [v for k, v in answer.headers.items() if k == "Set-Cookie" and "session=" in v]
    assert cookies, answer.headers
    return cookies[0]


def test_the_session_cookie_is_same_site_lax_and_http_only(client: FlaskClient) -> None:
    cookie = session_cookie(client)
    assert "SameSite=Lax" in cookie and "HttpOnly" in cookie
    assert "Secure" not in cookie  # served over plain HTTP on the table's network


def test_over_https_the_session_cookie_is_secure(app: Flask) -> None:
    https = create_app(apart(app, PUBLIC_URL="https://quiddler.example.org/"))
    assert "Secure" in session_cookie(https.test_client())


def test_behind_a_trusted_proxy_an_https_request_gets_a_secure_cookie(app: Flask) -> None:
    """``TRUSTED_PROXIES = 1``: the proxy's X-Forwarded-Proto says the phone used HTTPS.
    Without it the header is anyone's to write, and ignored."""
    forwarded = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "quiddler.example.org"}
    proxied_app = create_app(apart(app, TRUSTED_PROXIES="1", ALLOWED_HOSTS="quiddler.example.org"))
    upgrade_database(proxied_app)  # its own database, in memory
    proxied = proxied_app.test_client()
    answer = proxied.get("/language/lt?next=/", headers=forwarded)
    assert "Secure" in answer.headers["Set-Cookie"]
    made = proxied.post("/api/v1/games", json={"players": ["Ann", "Ben"]}, headers=forwarded)
    assert made.status_code == 201, made.get_json()
    assert made.get_json()["view_url"].startswith("https://quiddler.example.org/games/")
    direct = create_app(apart(app)).test_client()
    answer = direct.get("/language/lt?next=/", headers=forwarded)
    assert "Secure" not in answer.headers["Set-Cookie"]


def test_a_wrong_number_of_proxies_fails_at_start(app: Flask) -> None:
    for wrong in ("two", "-1"):
        with pytest.raises(ValueError, match="TRUSTED_PROXIES"):
            create_app(apart(app, TRUSTED_PROXIES=wrong))


@pytest.mark.parametrize(
    ("cell", "safe"),
    [
        ("=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"),
        ("+1+1", "'+1+1"),
        ("-x", "'-x"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"),
        ("-5", "-5"),
        ("-12.5", "-12.5"),
        (-5, -5),
        ("Ann", "Ann"),
        ("q-u-i-z", "q-u-i-z"),
    ],
)
def test_cells_that_look_like_formulas_are_neutralised(cell: object, safe: object) -> None:
    assert spreadsheet_safe(cell) == safe


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def waitress_serving(app: Flask) -> Iterator[int]:
    """``app`` served by waitress on a free loopback port, with the start's body limit."""
    port = free_port()
    server = waitress.create_server(
        app, host="127.0.0.1", port=port, max_request_body_size=body_limit(app)
    )

    def serve() -> None:
        with contextlib.suppress(OSError):  # closed under its loop when the test ends
            server.run()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield port
    finally:
        server.close()
        thread.join(5)


def posted(port: int, size: int, sent: int) -> bytes:
    """The answer to a game's POST announcing a body of ``size`` bytes, ``sent`` of them sent."""
    request = (
        (
            b"POST /api/v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
            b"Content-Type: application/json\r\n" + f"Content-Length: {size}\r\n\r\n".encode()
        )
        + b"{"
        + b" " * (sent - 1)
    )
    # Head and body in one write: a server that answers after the head and closes with
    # bytes still unread resets the connection, and the reset can overtake its answer.
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        with contextlib.suppress(OSError):  # refused before the rest: the peer may close
            conn.sendall(request)
        answer = b""
        with contextlib.suppress(ConnectionResetError):  # closed after its answer
            while chunk := conn.recv(65536):
                answer += chunk
    return answer


def test_a_body_over_the_limit_is_refused_by_the_app_with_its_headers(app: Flask) -> None:
    """Over ``MAX_CONTENT_LENGTH`` (256 KiB) but within what waitress reads: the app's 413,
    in its words and with its headers (waitress's own 413 carries none of them)."""
    size = app.config["MAX_CONTENT_LENGTH"] + 1024
    assert size < body_limit(app)
    with waitress_serving(app) as port:
        answer = posted(port, size, size)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413"), head
    assert b"\r\nX-Frame-Options: DENY" in head
    assert b"\r\nContent-Security-Policy: " in head
    assert b"\r\nX-Content-Type-Options: nosniff" in head
    assert json.loads(body)["code"] == "too_large"


def test_a_body_far_over_the_limit_is_refused_unread_by_waitress(app: Flask) -> None:
    """Over what waitress reads (``body_limit``): 413 before the body is read."""
    size = 4 * body_limit(app)
    with waitress_serving(app) as port:
        answer = posted(port, size, 1024)  # the first KiB only: the answer comes anyway
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]


BAD_HOSTS = ["a..b", "a" * 64 + ".example", "", "a\x00b", "a..b:5000", ".", "[::1"]
"""Host values no URL can be built for, or none the app answers to."""


@pytest.mark.parametrize("host", BAD_HOSTS, ids=repr)
@pytest.mark.parametrize("star", [False, True])
def test_a_host_no_address_can_be_built_for_is_a_plain_400(
    app: Flask, host: str, star: bool
) -> None:
    """``Host: a..b`` (an empty label) or a label over 63 characters: the URL map can't be
    bound, so the error page must build no address; a 400 with every safety header,
    answered to ``ALLOWED_HOSTS = "*"`` too (no Host, or an unreadable one, names none)."""
    client = create_app(apart(app, ALLOWED_HOSTS="*")).test_client() if star else app.test_client()
    for path in ("/", "/games/new", "/api/v1/cards"):
        answer = client.get(path, headers={"Host": host})
        assert answer.status_code == 400, (path, answer.get_data(as_text=True)[:300])
        assert answer.headers["X-Frame-Options"] == "DENY"
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        assert "frame-ancestors 'none'" in answer.headers["Content-Security-Policy"]
        if path.startswith("/api/"):
            assert answer.get_json()["code"] in ("untrusted_host", "bad_request")


def test_a_stranger_host_gets_400_and_no_link(client: FlaskClient) -> None:
    """``Host: evil.example`` would give links and QR codes to evil.example."""
    answer = client.post(
        "/api/v1/games", json={"players": ["Ann", "Ben"]}, headers={"Host": "evil.example"}
    )
    assert answer.status_code == 400
    assert answer.get_json()["code"] == "untrusted_host"
    assert "http://evil.example" not in answer.get_data(as_text=True)
    page = client.get("/", headers={"Host": "evil.example"})
    assert page.status_code == 400
    assert "doesn't answer to the address evil.example" in html.unescape(
        page.get_data(as_text=True)
    )


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1:5000", "[::1]:5000"])
def test_this_computer_is_always_answered(client: FlaskClient, host: str) -> None:
    assert client.get("/", headers={"Host": host}).status_code == 200


def test_the_announced_and_configured_hosts_are_answered(app: Flask) -> None:
    config = apart(
        app,
        ALLOWED_HOSTS="club.example, .cafe.example",
        PUBLIC_URL="https://quiddler.example.org/",
        LAN_URL="http://192.168.1.20:5000/",
    )
    client = create_app(config).test_client()
    for host in ("quiddler.example.org", "192.168.1.20:5000", "club.example", "a.cafe.example"):
        assert client.get("/api/v1/cards", headers={"Host": host}).status_code == 200, host
    assert client.get("/api/v1/cards", headers={"Host": "evil.example"}).status_code == 400


def test_a_star_answers_every_host(app: Flask) -> None:
    client = create_app(apart(app, ALLOWED_HOSTS="*")).test_client()
    assert client.get("/api/v1/cards", headers={"Host": "anything.example"}).status_code == 200


@pytest.mark.parametrize(
    ("environment", "public_url", "secure"),
    [
        ("1", None, True),
        ("true", None, True),
        ("0", "https://quiddler.example", False),
        (None, "https://quiddler.example", True),
        (None, None, False),
    ],
)
def test_session_cookie_secure_from_the_environment_is_a_flag(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    environment: str | None,
    public_url: str | None,
    secure: bool,
) -> None:
    """``SESSION_COOKIE_SECURE=1`` in the environment turns the Secure flag on (it used to
    turn it off); unset, an https ``PUBLIC_URL`` decides."""
    if environment is None:
        monkeypatch.delenv("SESSION_COOKIE_SECURE", raising=False)
    else:
        monkeypatch.setenv("SESSION_COOKIE_SECURE", environment)
    config: dict[str, object] = {"DATABASE_URL": f"sqlite:///{tmp_path / 'c.sqlite3'}"}
    if public_url:
        config["PUBLIC_URL"] = public_url
    config["LEXICON_DIR"] = str(tmp_path / "lexicons")
    assert create_app(config).config["SESSION_COOKIE_SECURE"] is secure
