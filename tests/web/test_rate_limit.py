"""New games are limited per client address: a script can't fill the server with them."""

from __future__ import annotations

from flask import Flask

from companion import create_app, upgrade_database
from companion.extensions import limiter


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
        from companion.extensions import db
        from companion.models import Game

        assert db.session.query(Game).count() == 4
