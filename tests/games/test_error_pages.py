"""The error page of a game's page offers the way back to that game first, then the start."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from flask import Flask
from flask.testing import FlaskClient


class Buttons(HTMLParser):
    """The error page's ways out: (text, href) of each ``<a class="button">`` in <main>."""

    def __init__(self, page: str) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, str]] = []
        self._main = False
        self._open: list[str] | None = None
        self._href = ""
        self.feed(page)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        given = dict(attrs)
        if tag == "main":
            self._main = True
        elif tag == "a" and self._main and "button" in (given.get("class") or "").split():
            self._open, self._href = [], given.get("href") or ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self._open is not None:
            self.found.append((" ".join("".join(self._open).split()), self._href))
            self._open = None

    def handle_data(self, data: str) -> None:
        if self._open is not None:
            self._open.append(data)


def ways_out(resp) -> list[tuple[str, str]]:
    return Buttons(resp.get_data(as_text=True)).found


def start_solitaire(client: FlaskClient) -> str:
    """A solitaire game started from the page's form (this client holds its edit right)."""
    resp = client.post(
        "/solitaire",
        data={
            "face_up": "t o p a th e r s",
            "min_word": "cards",
            "lexicon": "standard",
            "cards": "1",
        },
    )
    assert resp.status_code == 302, resp.get_data(as_text=True)
    found = re.fullmatch(r".*/solitaire/([\w-]+)", resp.headers["Location"])
    assert found
    return found.group(1)


START = ("Back to the start", "/")


def test_a_view_only_phone_saving_a_round_is_offered_the_game(app: Flask, new_game) -> None:
    game = new_game()
    viewer = app.test_client()
    resp = viewer.post(f"/games/{game.id}/rounds/1", data={"version": "0"})
    assert resp.status_code == 403
    assert ways_out(resp) == [("Back to the game", f"/games/{game.id}"), START]


@pytest.mark.parametrize(
    ("method", "tail", "status"),
    [
        ("get", "/rounds/99", 404),  # a round the game has not
        ("post", "/rounds/1/close", 403),
        ("post", "/house-words", 403),
        ("get", "/edit/not-the-token", 403),
        ("get", "/nothing-here", 404),  # no such page, but the game is there
        ("delete", "/rounds/1", 405),
    ],
)
def test_every_page_of_a_game_leads_back_to_it(
    app: Flask, new_game, method: str, tail: str, status: int
) -> None:
    game = new_game()
    resp = getattr(app.test_client(), method)(f"/games/{game.id}{tail}")
    assert resp.status_code == status
    assert ways_out(resp) == [("Back to the game", f"/games/{game.id}"), START]


@pytest.mark.parametrize(
    "path", ["/games/no-such-game", "/games/no-such-game/rounds/1", "/games/new/x", "/nowhere"]
)
def test_without_a_game_only_the_start_is_offered(client: FlaskClient, path: str) -> None:
    resp = client.get(path)
    assert resp.status_code == 404
    assert ways_out(resp) == [START]


def test_a_solitaire_step_without_the_edit_right_leads_back_to_the_solitaire_game(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start_solitaire(client)
    resp = app.test_client().post(f"/solitaire/{game_id}/word", data={"piles": "1 2 3"})
    assert resp.status_code == 403
    assert ways_out(resp) == [("Back to the game", f"/solitaire/{game_id}"), START]


def test_an_unknown_solitaire_game_offers_only_the_start(client: FlaskClient) -> None:
    resp = client.post("/solitaire/no-such-game/word", data={"piles": "1 2 3"})
    assert resp.status_code == 404
    assert ways_out(resp) == [START]


def test_the_api_still_answers_json(app: Flask, new_game) -> None:
    game = new_game()
    resp = app.test_client().post(f"/api/v1/games/{game.id}/rounds/1/close", json={})
    assert resp.status_code == 403
    assert resp.get_json()["code"] == "edit_link_needed"
