"""A server strangers share: what every answer carries, the session cookie's flags,
spreadsheet-safe exports, and bodies over the limit refused unread."""

from __future__ import annotations

import contextlib
import html
import socket
import threading
from pathlib import Path

import pytest
import waitress
from flask import Flask
from flask.testing import FlaskClient

from companion import create_app, upgrade_database
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
    proxied_app = create_app(
        apart(app, TRUSTED_PROXIES="1", ALLOWED_HOSTS="quiddler.example.org")
    )
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


def test_a_body_over_the_limit_is_refused_unread_by_waitress(app: Flask) -> None:
    """The production server answers 413 before reading a 4 MiB body, as serve.py sets it."""
    port = free_port()
    server = waitress.create_server(
        app, host="127.0.0.1", port=port, max_request_body_size=app.config["MAX_CONTENT_LENGTH"]
    )
    def serve() -> None:
        with contextlib.suppress(OSError):  # closed under its loop when the test ends
            server.run()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        size = 4 * 1024 * 1024
        with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
            conn.sendall(
                b"POST /api/v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: application/json\r\n" + f"Content-Length: {size}\r\n\r\n".encode()
            )
            conn.sendall(b"{" + b" " * 1024)  # the first KiB only: the answer comes anyway
            answer = conn.recv(4096)
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    finally:
        server.close()
        thread.join(5)


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
    [("1", None, True), ("true", None, True), ("0", "https://quiddler.example", False),
     (None, "https://quiddler.example", True), (None, None, False)],
)
def test_session_cookie_secure_from_the_environment_is_a_flag(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, environment: str | None,
    public_url: str | None, secure: bool,
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
