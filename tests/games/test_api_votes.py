"""The table vote through the API: ``PUT .../challenges/<k>/votes/<seat>`` with a seat's
secret (or the edit token) and ``POST .../challenges/<k>/decide`` with the edit token.

Every refusal is checked for its exact shape (status, ``where``, code, params) and for
writing nothing: the game's JSON and every row of the database are the same after it.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from flask import Flask
from sqlalchemy import select
from werkzeug.test import TestResponse

from companion.store.db import db
from companion.store.models import Vote


def hand(name: str, words: Sequence[str], unused: Sequence[str] = (), out: bool = False) -> dict:
    return {"name": name, "words": list(words), "unused": list(unused), "went_out": out}


ROUND_1 = [
    hand("Ann", ["c-a-t"], out=True),  # CAT 13
    hand("Ben", ["k-i-m"]),  # KIM 15: a proper noun, the dictionary says
    hand("Cy", ["o-x"], ["b"]),  # OX 14, B 8 left over: 6
]


def claim(game, seat: int) -> str:
    """Claim seat ``seat`` from the view link; its secret."""
    resp = game.client.post(game.url(f"/seats/{seat}/claim"), json={})
    assert resp.status_code == 201, resp.get_data(as_text=True)
    return resp.get_json()["seat_token"]


def put_vote(game, seat: int, body: object, token: str | None, n: int = 1) -> TestResponse:
    headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
    url = game.url(f"/rounds/1/challenges/{n}/votes/{seat}")
    return game.client.put(url, json=body, headers=headers)


def voted(game, seat: int, legal: bool, token: str, n: int = 1) -> dict:
    resp = put_vote(game, seat, {"legal": legal}, token, n)
    assert resp.status_code == 200, resp.get_data(as_text=True)
    return resp.get_json()


def decide(game, body: object, token: str | None, n: int = 1) -> TestResponse:
    headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
    return game.client.post(
        game.url(f"/rounds/1/challenges/{n}/decide"), json=body, headers=headers
    )


def scores(round_json: dict) -> list[int]:
    return [p["score"] for p in round_json["result"]["players"]]


def vote_rows(app: Flask) -> list[tuple[int, int, bool]]:
    """Every stored vote: the challenge's number, the seat, legal."""
    with app.app_context():
        return [
            (v.challenge.number, v.seat, v.legal)
            for v in db.session.scalars(select(Vote).order_by(Vote.challenge_id, Vote.seat))
        ]


@pytest.fixture
def table(new_game):
    """``table(mode, players)``: a game settling challenges by ``mode``, every seat
    claimed, round 1 entered and Ann challenging Ben's KIM (pending). Returns the game
    and the seats' secrets."""

    def make(mode: str = "majority", players: Sequence[str] = ("Ann", "Ben", "Cy")):
        game = new_game(players=players, rules={"challenge_ruling": mode})
        tokens = [claim(game, seat) for seat in range(len(players))]
        extra = [hand("Dee", ["d-o-g"])] if len(players) == 4 else []
        game.enter(1, [*ROUND_1, *extra])
        game.challenged(1, "Ann", "Ben", 0)
        return game, tokens

    return make


def test_a_challenge_put_to_the_vote_waits_with_the_advice(table):
    game, _ = table()
    challenge = game.round(1)["result"]["challenges"][0]
    assert challenge == {
        **challenge,
        "n": 1,
        "decided": False,
        "legal": None,
        "decided_by": None,
        "reason": None,
        "code": None,
        "charged_to": None,
        "advice": {"legal": False, "reason": "proper noun", "code": "proper_noun"},
        "votes": {},
        "stalled": False,
    }
    assert scores(game.round(1)) == [13, 15, 6]


def test_majority_is_decided_by_two_of_three(app, table):
    game, (ann, ben, cy) = table()
    first = voted(game, 0, False, ann)
    assert first["challenge"]["decided"] is False and first["challenge"]["stalled"] is False
    assert first["challenge"]["votes"] == {"Ann": False}
    assert scores(first) == [13, 15, 6]  # nothing applied while open
    second = voted(game, 1, True, ben)
    assert second["challenge"]["votes"] == {"Ann": False, "Ben": True}
    assert scores(second) == [13, 15, 6]
    third = voted(game, 2, False, cy)
    assert third["challenge"] == {
        **third["challenge"],
        "decided": True,
        "legal": False,
        "decided_by": "vote",
        "code": "vote_illegal",
        "reason": "the table voted it not legal",
        "charged_to": "Ben",
        "votes": {"Ann": False, "Ben": True, "Cy": False},
        "advice": {"legal": False, "reason": "proper noun", "code": "proper_noun"},
    }
    assert "stalled" not in third["challenge"]
    assert scores(third) == [23, 0, 6]  # KIM struck; CAT the longest word now
    # Kept in the round's JSON, and as rows.
    assert game.round(1)["result"]["challenges"][0] == third["challenge"]
    assert vote_rows(app) == [(1, 0, False), (1, 1, True), (1, 2, False)]


def test_unanimous_is_decided_by_one_not_legal(app, table):
    game, (_, ben, cy) = table("unanimous")
    assert scores(voted(game, 1, True, ben)) == [13, 15, 6]
    done = voted(game, 2, False, cy)
    assert done["challenge"]["decided"] is True and done["challenge"]["legal"] is False
    assert done["challenge"]["votes"] == {"Ben": True, "Cy": False}
    assert vote_rows(app) == [(1, 1, True), (1, 2, False)]


def test_unanimous_legal_needs_every_seat(app, table):
    game, tokens = table("unanimous")
    for seat in (0, 1):
        assert voted(game, seat, True, tokens[seat])["challenge"]["decided"] is False
    done = voted(game, 2, True, tokens[2])
    assert done["challenge"]["legal"] is True and done["challenge"]["charged_to"] == "Ann"
    assert scores(done) == [0, 15, 6]


def test_a_vote_changes_while_open_and_the_edit_token_votes_any_seat(app, table):
    game, (ann, _, _) = table()
    voted(game, 0, False, ann)
    voted(game, 0, True, ann)
    assert vote_rows(app) == [(1, 0, True)]
    done = voted(game, 2, True, game.token)  # the scorekeeper, for Cy's seat
    assert done["challenge"]["decided_by"] == "vote" and done["challenge"]["legal"] is True
    assert vote_rows(app) == [(1, 0, True), (1, 2, True)]


def test_the_scorekeeper_decides_a_stalled_vote(app, table, refused):
    game, tokens = table(players=("Ann", "Ben", "Cy", "Dee"))
    for seat, legal in enumerate((False, True, True, False)):
        last = voted(game, seat, legal, tokens[seat])
    assert last["challenge"]["decided"] is False and last["challenge"]["stalled"] is True
    assert game.round(1)["result"]["challenges"][0]["stalled"] is True
    with game.unchanged():
        refused(decide(game, {"legal": False}, tokens[0]), 403, "", "edit_link_needed")
    resp = decide(game, {"legal": False}, game.token)
    assert resp.status_code == 200, resp.get_data(as_text=True)
    challenge = resp.get_json()["challenge"]
    assert challenge["decided_by"] == "scorekeeper" and challenge["code"] == "table_illegal"
    assert challenge["votes"] == {"Ann": False, "Ben": True, "Cy": True, "Dee": False}
    assert vote_rows(app) == [(1, 0, False), (1, 1, True), (1, 2, True), (1, 3, False)]


def test_refused_votes_change_nothing(app, table, refused):
    game, (ann, ben, cy) = table()
    voted(game, 0, False, ann)
    with game.unchanged():
        refused(put_vote(game, 1, {"legal": True}, None), 403, "", "vote_not_seated")
        refused(put_vote(game, 1, {"legal": True}, "not-a-token"), 403, "", "vote_not_seated")
        refused(
            put_vote(game, 1, {"legal": True}, ann), 403, "", "vote_other_seat", seat=1, name="Ben"
        )
        for seat in (3, -1):
            refused(put_vote(game, seat, {"legal": True}, game.token), 404, "", "no_such_seat")
        refused(
            put_vote(game, 1, {"legal": True}, ben, n=9),
            404,
            "",
            "no_such_challenge",
            number=1,
            n=9,
        )
        for body in ({"legal": "yes"}, {"legal": 1}, {}, {"legal": None}):
            refused(put_vote(game, 1, body, ben), 400, "legal", "legal_flag")
        refused(decide(game, {"legal": "no"}, game.token), 400, "legal", "legal_flag")
        refused(decide(game, {"legal": True}, game.token, n=9), 404, "", "no_such_challenge")
        # closing while the table still votes
        refused(game.post("/rounds/1/close"), 422, "round", "vote_open", number=1, words=["KIM"])
    voted(game, 2, False, cy)  # decided
    with game.unchanged():
        refused(put_vote(game, 1, {"legal": True}, ben), 422, "", "vote_decided", n=1, word="KIM")
        refused(decide(game, {"legal": True}, game.token), 422, "", "vote_decided", n=1)
    game.close(1)
    with game.unchanged():
        refused(put_vote(game, 1, {"legal": True}, ben), 422, "round", "round_closed", number=1)
        refused(decide(game, {"legal": True}, game.token), 422, "round", "round_closed")
    assert vote_rows(app) == [(1, 0, False), (1, 2, False)]


def test_a_game_without_a_vote_refuses_votes(table, new_game, refused):
    """A challenge the dictionary decided is no vote: nothing to vote on."""
    game = new_game()
    game.enter(1, ROUND_1)
    game.challenged(1, "Ann", "Ben", 0)
    with game.unchanged():
        refused(put_vote(game, 1, {"legal": True}, game.token), 422, "", "vote_decided", word="KIM")
