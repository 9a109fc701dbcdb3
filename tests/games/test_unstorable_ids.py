"""A game id no game can have (a NUL, too long, other characters) is the 404 of an unknown
game on every route that takes one, pages and API, before anything is asked of the
database: PostgreSQL refuses text holding a NUL, which was a 500 there."""

from __future__ import annotations

import html
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event

from companion import create_app
from companion.store.db import db
from companion.web import messages

ODD_IDS = ["\x00", "a\x00b", "x" * 33, "a.b", "ü", "a b", "\x00" * 40]
"""Ids of no shape a stored game's id has (``secrets.token_urlsafe``, up to 32 characters)."""

OTHER_VALUES = {
    "number": 1,
    "n": 1,
    "seat": 0,
    "word": "qi",
    "token": "x",
    "action": "close",
    "kind": "word",
    "change": "archive",
    "member_id": 1,
}
"""What the routes' other parts are given (a new part fails here until it is named)."""


def game_routes(part: str = "game_id") -> list[tuple[str, str]]:
    """Every (endpoint, method) whose address holds a game id (or ``part``), from the
    app's URL map."""
    app = create_app({"DATABASE_URL": "sqlite://", "SECRET_KEY": "routes"})
    return sorted(
        (rule.endpoint, method)
        for rule in app.url_map.iter_rules()
        if part in rule.arguments
        for method in (rule.methods or set()) - {"HEAD", "OPTIONS"}
    )


ROUTES = game_routes()
TABLE_ROUTES = game_routes("group_id")


def test_the_routes_are_the_pages_and_the_api() -> None:
    assert len(ROUTES) >= 29  # the API's close and reopen are one route
    assert {endpoint.split(".")[0] for endpoint, _ in ROUTES} >= {
        "api",
        "games",
        "rounds",
        "seats",
        "solitaire",
    }


@contextmanager
def no_queries(app: Flask) -> Iterator[list[str]]:
    """The SQL statements sent to the database meanwhile."""
    sent: list[str] = []

    def note(conn: object, cursor: object, statement: str, *args: object) -> None:
        sent.append(statement)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", note)
    try:
        yield sent
    finally:
        event.remove(engine, "before_cursor_execute", note)


@pytest.mark.parametrize("odd", ODD_IDS, ids=repr)
@pytest.mark.parametrize(("endpoint", "method"), ROUTES)
def test_an_id_no_game_can_have_is_not_found_before_any_query(
    app: Flask, client: FlaskClient, endpoint: str, method: str, odd: str
) -> None:
    with app.test_request_context():
        adapter = app.url_map.bind("localhost")
        rule = next(r for r in app.url_map.iter_rules(endpoint))
        values = {k: OTHER_VALUES[k] for k in rule.arguments if k != "game_id"}
        path = adapter.build(endpoint, {"game_id": odd, **values}, method=method)
    api = path.startswith("/api/")
    with no_queries(app) as sent:
        answer = client.open(
            path,
            method=method,
            json={} if api and method != "GET" else None,
            headers={"Authorization": "Bearer x"},
        )
    assert answer.status_code == 404, (path, answer.get_data(as_text=True)[:300])
    assert sent == [], path
    code = "no_such_solitaire" if endpoint.startswith("solitaire.") else "no_such_game"
    if api:
        assert answer.get_json()["code"] == code
    else:
        assert messages.render(code) in html.unescape(answer.get_data(as_text=True))
    assert answer.headers["X-Frame-Options"] == "DENY"


@pytest.mark.parametrize("odd", ["\x00", "a\x00b", "x" * 33])
def test_an_odd_game_in_a_query_is_no_game(client: FlaskClient, odd: str) -> None:
    """``?game=`` of the words API and the rules page: no such game, never a 500."""
    words = client.get("/api/v1/words/qi", query_string={"game": odd})
    assert words.status_code == 422
    assert words.get_json()["code"] == "no_such_game_for_words"
    rules = client.get("/rules", query_string={"game": odd})
    assert rules.status_code == 200  # the rules alone, as for a mistyped link


@pytest.mark.parametrize("odd", ODD_IDS, ids=repr)
@pytest.mark.parametrize(("endpoint", "method"), TABLE_ROUTES)
def test_an_id_no_table_can_have_is_not_found_before_any_query(
    app: Flask, client: FlaskClient, endpoint: str, method: str, odd: str
) -> None:
    assert len(TABLE_ROUTES) >= 8
    with app.test_request_context():
        adapter = app.url_map.bind("localhost")
        rule = next(r for r in app.url_map.iter_rules(endpoint))
        values = {k: OTHER_VALUES[k] for k in rule.arguments if k != "group_id"}
        path = adapter.build(endpoint, {"group_id": odd, **values}, method=method)
    with no_queries(app) as sent:
        answer = client.open(path, method=method)
    assert answer.status_code == 404, (path, answer.get_data(as_text=True)[:300])
    assert sent == [], path
    assert messages.render("no_such_table") in html.unescape(answer.get_data(as_text=True))
