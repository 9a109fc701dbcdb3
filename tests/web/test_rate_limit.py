"""New games are limited per client address: a script can't fill the server with them."""

from __future__ import annotations

from flask import Flask

from companion import create_app, upgrade_database
from companion.web.extensions import limiter


def test_game_creation_stops_at_the_limit_and_stores_nothing_more(app: Flask, tmp_path) -> None:  # type: ignore[no-untyped-def]
    config = {k: v for k, v in app.config.items() if k != "SQLALCHEMY_DATABASE_URI"}
    config.update(
        DATABASE_URL=f"sqlite:///{tmp_path / 'limited.sqlite3'}",
        RATELIMIT_ENABLED=True,
        GAME_CREATION_LIMIT="3 per minute",
    )
    limited = create_app(config)
    upgrade_database(limited)
    limiter.reset()
    client = limited.test_client()
    body = {"players": ["Ann", "Ben"]}
    made = [client.post("/api/v1/games", json=body).status_code for _ in range(3)]
    assert made == [201, 201, 201]
    refused = client.post("/api/v1/games", json=body)
    assert refused.status_code == 429
    assert refused.get_json()["code"] == "too_many_requests"
    assert "wait a minute" in refused.get_json()["error"]
    page = client.post("/games/new", data={})
    assert page.status_code == 429  # the page's form counts the same games
    other = limited.test_client()
    answer = other.post("/api/v1/games", json=body, environ_base={"REMOTE_ADDR": "10.1.2.3"})
    assert answer.status_code == 201  # per address
    with limited.app_context():
        from companion.store.db import db
        from companion.store.models import Game

        assert db.session.query(Game).count() == 4


def limited_app(app: Flask, tmp_path, **limits: str) -> Flask:  # type: ignore[no-untyped-def]
    """An app of its own with rate limits on, as configured by ``limits``."""
    config = {k: v for k, v in app.config.items() if k != "SQLALCHEMY_DATABASE_URI"}
    config.update(
        DATABASE_URL=f"sqlite:///{tmp_path / 'limited.sqlite3'}", RATELIMIT_ENABLED=True, **limits
    )
    made = create_app(config)
    upgrade_database(made)
    limiter.reset()
    return made


def test_word_lookups_share_one_limit_across_api_and_pages(app: Flask, tmp_path) -> None:  # type: ignore[no-untyped-def]
    limited = limited_app(app, tmp_path, WORD_LOOKUP_LIMIT="4 per minute")
    client = limited.test_client()
    assert client.get("/api/v1/words/quiz").status_code == 200
    assert client.post("/api/v1/judge", json={"words": ["quiz"]}).status_code == 200
    assert client.get("/words?word=quiz").status_code == 200
    assert client.get("/judge").status_code == 200  # the empty form is not a lookup
    assert client.post("/api/v1/score", json={"players": []}).status_code != 429
    refused = client.get("/api/v1/words/quiz")
    assert refused.status_code == 429
    assert refused.get_json()["code"] == "too_many_requests"
    assert client.get("/words?word=quiz").status_code == 429
    assert client.get("/judge").status_code == 200
    # Another client address has its own count; the solver has its own limit.
    other = {"REMOTE_ADDR": "10.9.8.7"}
    assert client.get("/api/v1/words/quiz", environ_base=other).status_code == 200
    best = client.post("/api/v1/best", json={"cards": ["QU", "I", "Z"]})
    assert best.status_code == 200, best.get_json()


def test_the_solver_stops_at_its_limit(app: Flask, tmp_path) -> None:  # type: ignore[no-untyped-def]
    limited = limited_app(app, tmp_path, SOLVER_LIMIT="2 per minute")
    client = limited.test_client()
    hand = {"cards": ["C", "A", "T", "S"]}
    assert [client.post("/api/v1/best", json=hand).status_code for _ in range(3)] == [200, 200, 429]


def test_behind_a_trusted_proxy_the_limit_counts_each_phone(app: Flask, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """With ``TRUSTED_PROXIES = 1`` the client's address is the proxy's X-Forwarded-For;
    without it that header is ignored (a client could write any address there)."""
    body = {"players": ["Ann", "Ben"]}
    trusting = limited_app(app, tmp_path, GAME_CREATION_LIMIT="1 per minute", TRUSTED_PROXIES="1")
    client = trusting.test_client()
    phone = {"X-Forwarded-For": "203.0.113.5"}
    assert client.post("/api/v1/games", json=body, headers=phone).status_code == 201
    assert client.post("/api/v1/games", json=body, headers=phone).status_code == 429
    other = {"X-Forwarded-For": "203.0.113.6"}
    assert client.post("/api/v1/games", json=body, headers=other).status_code == 201

    plain = limited_app(app, tmp_path / "plain", GAME_CREATION_LIMIT="1 per minute")
    client = plain.test_client()
    assert client.post("/api/v1/games", json=body, headers=phone).status_code == 201
    assert client.post("/api/v1/games", json=body, headers=other).status_code == 429
