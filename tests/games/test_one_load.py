"""A write through the pages loads its game once: the action's load, under its lock (the
page doesn't load it first to check the right: the action checks it), and the page it
answers with comes from the state that write produced."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

from flask import Flask
from sqlalchemy import event

from companion.store.db import db


@contextmanager
def game_loads(app: Flask) -> Iterator[list[str]]:
    """The statements that read the ``game`` row itself, while the block runs."""
    seen: list[str] = []

    def record(_conn, _cursor, statement: str, *_args: object) -> None:  # type: ignore[no-untyped-def]
        if re.match(r"\s*SELECT\b.*\bFROM game\b", statement, re.S):
            seen.append(statement)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", record)


def test_claiming_a_seat_loads_the_game_once(app, new_game):  # type: ignore[no-untyped-def]
    game = new_game()
    phone = app.test_client()
    with game_loads(app) as loads:
        claimed = phone.post(f"/games/{game.id}/seats/1")
    assert claimed.status_code == 302
    assert claimed.headers["Location"].endswith(f"/games/{game.id}/rounds/1")
    assert len(loads) == 1
    assert [s["entered"] for s in game.round(1)["seats"]] == [False, False, False]
    assert game.get()["players"][1]["name"] == "Ben"
    # Tapped twice: still this phone's seat, nothing written, still one load.
    before = game.get()["version"]
    with game_loads(app) as loads:
        again = phone.post(f"/games/{game.id}/seats/1")
    assert again.status_code == 302 and len(loads) == 1
    assert game.get()["version"] == before
    # Another seat from the same phone is refused, and changes nothing.
    refused = phone.post(f"/games/{game.id}/seats/2")
    assert refused.status_code == 422
    assert game.get()["version"] == before


def test_releasing_a_seat_loads_the_game_once(app, new_game):  # type: ignore[no-untyped-def]
    game = new_game()
    ben = app.test_client()
    assert ben.post(f"/games/{game.id}/seats/1").status_code == 302
    keeper = app.test_client()
    assert keeper.get(f"/games/{game.id}/edit/{game.token}").status_code == 302
    with game_loads(app) as loads:
        released = keeper.post(f"/games/{game.id}/seats/1/release")
    assert released.status_code == 302 and len(loads) == 1
    # Without the edit right: 403, and the seat stays Ben's.
    stranger = app.test_client()
    assert stranger.post(f"/games/{game.id}/seats/0/release").status_code == 403
    assert ben.post(f"/games/{game.id}/seats/1").status_code == 302  # free again: his


def test_a_house_word_from_the_scorekeepers_page_loads_the_game_once(app, new_game):  # type: ignore[no-untyped-def]
    game = new_game()
    keeper = app.test_client()
    assert keeper.get(f"/games/{game.id}/edit/{game.token}").status_code == 302
    with game_loads(app) as loads:
        added = keeper.post(
            f"/games/{game.id}/house-words", data={"word": "zyx", "allowed": "allow"}
        )
    assert added.status_code == 302 and len(loads) == 1
    assert game.get()["house_words"] == [{"word": "zyx", "allowed": True}]
    # A viewer is refused before the form is read; an unknown game is 404 first.
    viewer = app.test_client()
    refused = viewer.post(f"/games/{game.id}/house-words", data={"word": "", "allowed": "x"})
    assert refused.status_code == 403
    assert viewer.post("/games/no-such-game/house-words", data={"word": "a"}).status_code == 404
    assert game.get()["house_words"] == [{"word": "zyx", "allowed": True}]


def test_a_seat_saved_from_its_phone_loads_the_game_once(app, new_game):  # type: ignore[no-untyped-def]
    game = new_game()
    ben = app.test_client()
    assert ben.post(f"/games/{game.id}/seats/1").status_code == 302
    with game_loads(app) as loads:
        saved = ben.post(
            f"/games/{game.id}/rounds/1/seats/1",
            data={"words": "t-o-p", "unused": "", "version": "0"},
        )
    assert saved.status_code == 302, saved.get_data(as_text=True)[:300]
    assert len(loads) == 1
    assert [s["entered"] for s in game.round(1)["seats"]] == [False, True, False]
    # Another seat's hand from Ben's phone is refused and changes nothing.
    refused = ben.post(
        f"/games/{game.id}/rounds/1/seats/2", data={"words": "c-a-t", "unused": "", "version": "0"}
    )
    assert refused.status_code == 403
    assert [s["entered"] for s in game.round(1)["seats"]] == [False, True, False]
