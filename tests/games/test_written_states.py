"""The scored state a write keeps for the views (``store.transaction``, computed from the
rows in its session before the commit) is the state the database then holds: after
every kind of write, the state kept equals the game read back and scored afresh."""

from __future__ import annotations

import pytest
from flask import Flask

from companion import store
from companion.extensions import db

ROUND_1 = [
    {"name": "Ann", "words": [["C", "A", "T"]], "unused": [], "went_out": True},
    {"name": "Ben", "words": [["QU", "I", "Z"]], "unused": []},
    {"name": "Cy", "words": [["O", "X"]], "unused": ["E"]},
]


def kept_matches_fresh(app: Flask, game_id: str) -> int:
    """Assert that the state kept for the game's version (by the write that made it) is
    the state scored from its rows read again; return that version."""
    with app.app_context():
        version = store.game_version(game_id)
        assert version is not None
        kept = store._states.get(store._state_key(game_id, version))
        assert kept is not None, "the write kept no state"
        db.session.expire_all()
        fresh = store.state_of(store.get_game(game_id))
    assert kept == fresh
    return version


@pytest.fixture
def game(new_game):  # type: ignore[no-untyped-def]
    return new_game()


def test_every_kind_of_write_keeps_the_state_it_stored(app, client, game):
    """With shared views (the writes keep their games' boards): a round saved, challenged
    (ruled by the table, withdrawn, by the lexicon), closed, reopened and closed again, a
    house word allowed and forgotten, a seat claimed, its hand saved, the seat released:
    each write's kept state is the stored one."""
    app.config["SHARE_RENDERED"] = True
    steps = [
        lambda: game.put_round(1, ROUND_1),
        lambda: game.challenge(1, "Ben", "Ann", 0, ruling="illegal"),
        lambda: client.delete(game.url("/rounds/1/challenges/1"), headers=game.auth),
        lambda: game.challenge(1, "Ann", "Ben", 0),
        lambda: game.post("/rounds/1/close"),
        lambda: game.post("/rounds/1/reopen"),
        lambda: game.post("/rounds/1/close"),
        lambda: client.put(game.url("/house-words/zzz"), json={"allowed": True}, headers=game.auth),
        lambda: client.delete(game.url("/house-words/zzz"), headers=game.auth),
        lambda: client.post(game.url("/seats/1/claim")),
        lambda: client.put(
            game.url("/rounds/2/seats/1"),
            json={"words": [["C", "A", "T"]], "unused": ["E"]},
            headers=game.auth,
        ),
        lambda: client.delete(game.url("/seats/1/claim"), headers=game.auth),
    ]
    seen = []
    for step in steps:
        answer = step()
        assert answer.status_code in (200, 201), answer.get_data(True)
        seen.append(kept_matches_fresh(app, game.id))
    assert seen == sorted(set(seen))  # every step wrote a new version


def test_one_process_scores_nothing_in_the_write(app, game):
    """Without shared views (SQLite, ``make run``), a write computes no state while it
    holds the database's lock: the first view scores the game."""
    app.config["SHARE_RENDERED"] = False
    assert game.put_round(1, ROUND_1).status_code == 200
    with app.app_context():
        version = store.game_version(game.id)
        assert version is not None
        assert store._states.get(store._state_key(game.id, version)) is None
