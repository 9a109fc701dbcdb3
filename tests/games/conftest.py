"""Fixtures of the stored-game tests: games made through the API, and the database as rows.

``new_game(...)`` creates a game through ``POST /api/v1/games`` and returns a ``Stored``
handle that sends the game's writes with its edit token. ``rows()`` reads every table
of the database, so a test can show that a refused request wrote nothing at all.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from companion.store.db import db
from companion.web import messages

THREE = ("Ann", "Ben", "Cy")


def table_rows(app: Flask) -> dict[str, list[tuple]]:
    """Every row of every table, sorted: the whole stored state of the app."""
    with app.app_context():
        return {
            table.name: sorted(tuple(map(repr, row)) for row in db.session.execute(table.select()))
            for table in db.metadata.sorted_tables
        }


@dataclass
class Stored:
    """A game created through the API, with its edit token."""

    client: FlaskClient
    app: Flask
    id: str
    token: str
    created: dict[str, object] = field(default_factory=dict)

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def url(self, tail: str = "") -> str:
        return f"/api/v1/games/{self.id}{tail}"

    def get(self) -> dict:
        resp = self.client.get(self.url())
        assert resp.status_code == 200, resp.get_data(as_text=True)
        return resp.get_json()

    def round(self, number: int) -> dict:
        return self.get()["rounds"][number - 1]

    def put_round(
        self,
        number: int,
        players: list[dict],
        challenges: list[dict] | None = None,
        if_match: str | None = None,
        headers: dict | None = None,
    ) -> TestResponse:
        body: dict[str, object] = {"players": players}
        if challenges is not None:
            body["challenges"] = challenges
        sent = dict(self.auth if headers is None else headers)
        if if_match is not None:
            sent["If-Match"] = if_match
        return self.client.put(self.url(f"/rounds/{number}"), json=body, headers=sent)

    def enter(self, number: int, players: list[dict], **kwargs: object) -> dict:
        """Enter a round and return it, asserting it was accepted."""
        resp = self.put_round(number, players, **kwargs)
        assert resp.status_code == 200, resp.get_data(as_text=True)
        return resp.get_json()

    def challenge(
        self, number: int, by: str, player: str, word: int, ruling: str | None = None
    ) -> TestResponse:
        body: dict[str, object] = {"by": by, "player": player, "word": word}
        if ruling is not None:
            body["ruling"] = ruling
        return self.client.post(
            self.url(f"/rounds/{number}/challenges"), json=body, headers=self.auth
        )

    def challenged(
        self, number: int, by: str, player: str, word: int, ruling: str | None = None
    ) -> dict:
        resp = self.challenge(number, by, player, word, ruling)
        assert resp.status_code == 200, resp.get_data(as_text=True)
        return resp.get_json()

    def post(self, tail: str) -> TestResponse:
        """A write without a body (close, reopen), sent as every API write is: JSON."""
        return self.client.post(self.url(tail), json={}, headers=self.auth)

    def delete(self, tail: str) -> TestResponse:
        """A DELETE with the edit token, JSON as every API write."""
        return self.client.delete(self.url(tail), json={}, headers=self.auth)

    def close(self, number: int) -> dict:
        resp = self.post(f"/rounds/{number}/close")
        assert resp.status_code == 200, resp.get_data(as_text=True)
        return resp.get_json()

    def reopen(self, number: int) -> dict:
        resp = self.post(f"/rounds/{number}/reopen")
        assert resp.status_code == 200, resp.get_data(as_text=True)
        return resp.get_json()

    def house_word(self, word: str, allowed: bool) -> dict:
        resp = self.client.put(
            self.url(f"/house-words/{word}"), json={"allowed": allowed}, headers=self.auth
        )
        assert resp.status_code == 200, resp.get_data(as_text=True)
        return resp.get_json()

    @contextmanager
    def unchanged(self) -> Iterator[None]:
        """Assert that what runs inside writes nothing: same game JSON (version too), same rows."""
        before, rows = self.get(), table_rows(self.app)
        yield
        assert self.get() == before
        assert table_rows(self.app) == rows


@pytest.fixture
def new_game(app: Flask, client: FlaskClient) -> Callable[..., Stored]:
    """Create a game through the API: ``new_game(players=..., first_dealer=..., rules=...,
    handicap=...)``."""

    def make(
        players: Sequence[str] = THREE,
        first_dealer: int = 0,
        rules: dict | None = None,
        via: FlaskClient | None = None,
        handicap: list[int] | None = None,
    ) -> Stored:
        body: dict[str, object] = {"players": list(players), "first_dealer": first_dealer}
        if rules is not None:
            body["rules"] = rules
        if handicap is not None:
            body["handicap"] = handicap
        resp = (via or client).post("/api/v1/games", json=body)
        assert resp.status_code == 201, resp.get_data(as_text=True)
        data = resp.get_json()
        return Stored(via or client, app, data["id"], data["edit_token"], data)

    return make


@pytest.fixture
def rows(app: Flask) -> Callable[[], dict[str, list[tuple]]]:
    """``rows()``: every row of every table, to compare before and after a refused write."""
    return lambda: table_rows(app)


@pytest.fixture
def refused() -> Callable[..., dict]:
    """``refused(resp, status, where, code, **params)``: an API refusal with exactly that shape.

    The body is ``{"error", "where", "code", "params"}``; its sentence is the catalog's for
    the code and the parameters sent, and each parameter given here is among those sent.
    """

    def check(resp: TestResponse, status: int, where: str, code: str, **params: object) -> dict:
        assert resp.status_code == status, resp.get_data(as_text=True)
        assert resp.is_json, resp.get_data(as_text=True)
        body = resp.get_json()
        assert set(body) >= {"error", "where", "code", "params"}, body
        assert body["code"] == code, body
        assert body["where"] == where, body
        assert body["error"] == messages.render(code, body["params"]), body
        for key, value in params.items():
            assert key in body["params"], (key, body)
            assert body["params"][key] == value, (key, body)
        return body

    return check
