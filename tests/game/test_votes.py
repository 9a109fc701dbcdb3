"""The table's vote on a challenge: when it is decided, and how an open one scores."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.game.challenges import PENDING, Ruling, Verdict, stalled, tally, vote_ruling
from companion.game.deck import card
from companion.game.play import Challenge, Hand, Play
from companion.game.rules import Rules
from companion.game.scoring import score_round


@pytest.mark.parametrize(
    ("votes", "seats", "mode", "outcome"),
    [
        ([False], 3, "majority", None),
        ([False, False], 3, "majority", False),
        ([True, True], 3, "majority", True),
        ([True, False], 3, "majority", None),
        ([True, False, True], 3, "majority", True),
        ([True, True], 4, "majority", None),
        ([True, True, False, False], 4, "majority", None),
        ([True, True, True], 4, "majority", True),
        ([True, True], 3, "unanimous", None),
        ([True, True, True], 3, "unanimous", True),
        ([True, False], 3, "unanimous", False),
        ([False], 8, "unanimous", False),
    ],
)
def test_a_vote_is_decided_once_no_vote_to_come_could_change_it(
    votes: list[bool], seats: int, mode: str, outcome: bool | None
) -> None:
    assert tally(votes, seats, mode) is outcome


def test_a_tie_with_everyone_voted_is_stalled() -> None:
    assert stalled([True, True, False, False], 4, "majority")
    assert not stalled([True, True, False], 4, "majority")  # one vote still to come
    assert not stalled([True, True, True], 3, "majority")  # decided


@given(st.integers(2, 8), st.data())
def test_a_decided_vote_stays_decided_whatever_the_others_vote(seats: int, data) -> None:
    """Whatever the seats still to vote do, a decided outcome never changes."""
    mode = data.draw(st.sampled_from(["majority", "unanimous"]))
    votes = data.draw(st.lists(st.booleans(), max_size=seats))
    outcome = tally(votes, seats, mode)
    rest = data.draw(
        st.lists(st.booleans(), min_size=seats - len(votes), max_size=seats - len(votes))
    )
    final = tally(votes + rest, seats, mode)
    if outcome is not None:
        assert final is outcome
    if mode == "unanimous":
        assert final is all(votes + rest)


def word(*names: str) -> tuple:
    return tuple(card(n, "") for n in names)


PLAY = (
    Hand("Ann", (word("m", "a", "r", "y"),)),
    Hand("Ben", (word("d", "o", "g"),), (card("q", ""),)),
)


def test_an_open_vote_changes_no_score_until_it_is_decided() -> None:
    rules = Rules(hands=(4,), challenge_ruling="majority", bonus=0)
    advice = Verdict(False, "proper_noun")
    open_vote = Challenge(
        "Ben", "Ann", 0, recorded=Ruling(False, PENDING, "proper_noun"), advice=advice,
        votes=(("Ben", False),),
    )  # fmt: skip
    result = score_round(Play(PLAY, (open_vote,)), rules)
    assert [p.score for p in result.players] == [16, 0]  # MARY stands; Ben 13 - 15
    ruled = result.challenges[0].as_dict()
    assert (ruled["decided"], ruled["legal"], ruled["charged_to"]) == (False, None, None)
    assert ruled["advice"] == {"legal": False, "reason": "proper_noun", "code": "proper_noun"}
    assert ruled["votes"] == {"Ben": False}

    decided = Challenge(
        "Ben", "Ann", 0, recorded=vote_ruling(False), advice=advice,
        votes=(("Ann", True), ("Ben", False), ("Cy", False)),
    )  # fmt: skip
    result = score_round(Play(PLAY, (decided,)), rules)
    assert [p.score for p in result.players] == [0, 0]  # MARY struck: Ann -16 -> 0
    ruled = result.challenges[0].as_dict()
    assert (ruled["legal"], ruled["decided_by"], ruled["code"]) == (False, "vote", "vote_illegal")


def test_a_challenge_put_to_the_vote_asks_the_judge_only_for_advice() -> None:
    rules = Rules(hands=(4,), challenge_ruling="unanimous", bonus=0)
    play = Play(PLAY, (Challenge("Ben", "Ann", 0),))
    result = score_round(play, rules, lambda w: Verdict(False, "proper_noun"))
    assert result.challenges[0].pending
    assert [p.score for p in result.players] == [16, 0]
    dictionary = score_round(
        play, Rules(hands=(4,), bonus=0), lambda w: Verdict(False, "proper_noun")
    )
    assert [p.score for p in dictionary.players] == [0, 0]
