"""Round plans: the presets, a short game, how a plan reads, and a round checked by it."""

from __future__ import annotations

import pytest

from companion.game.deck import card
from companion.game.errors import RuleError
from companion.game.parse import parse_rules
from companion.game.play import Hand, Play
from companion.game.rules import PLANS, Rules, plan, plan_label
from companion.game.scoring import score_round


def test_the_presets() -> None:
    assert PLANS["standard"] == tuple(range(3, 11)) == Rules().hands
    assert PLANS["full"] == (3, 4, 5, 6, 7, 8, 9, 10, 10, 9, 8, 7, 6, 5, 4, 3)
    assert PLANS["junior"] == (2, 3, 4, 5, 6, 7)
    assert plan(10, 6) == (10, 9, 8, 7, 6) and plan(4, 4) == (4,)


@pytest.mark.parametrize(
    ("hands", "label"),
    [
        (PLANS["standard"], "3\u201310"),
        (PLANS["full"], "3\u201310, 10\u20133"),
        (PLANS["junior"], "2\u20137"),
        ((10, 9, 8, 7, 6), "10\u20136"),
        ((3, 5, 7), "3, 5, 7"),
        ((5,), "5"),
    ],
)
def test_a_plan_reads_as_its_runs(hands: tuple[int, ...], label: str) -> None:
    assert plan_label(hands) == label


def test_the_shape_of_a_game_follows_its_plan() -> None:
    rules = parse_rules({"hands": list(PLANS["full"])})
    assert (rules.rounds, rules.hand_size(9), rules.hand_size(16)) == (16, 10, 3)
    assert (rules.smallest_hand, rules.largest_hand) == (3, 10)
    assert list(rules.round_numbers()) == list(range(1, 17))


def hands_of(*sizes: int) -> tuple[Hand, ...]:
    letters = "etaoinsrd"
    return tuple(
        Hand(f"P{i}", (), tuple(card(letters[k], "") for k in range(n)))
        for i, n in enumerate(sizes)
    )


def test_a_round_without_its_number_is_checked_against_the_plans_sizes() -> None:
    rules = Rules(hands=(2, 3, 4))
    score_round(Play(hands_of(2, 2)), rules)  # 2 cards: a size the plan deals
    with pytest.raises(RuleError) as refused:
        score_round(Play(hands_of(5, 5)), rules)
    assert (refused.value.code, refused.value.params["least"], refused.value.params["most"]) == (
        "hand_size_range",
        2,
        4,
    )
    with pytest.raises(RuleError) as refused:
        score_round(Play(hands_of(3, 3), round_number=3), rules)
    assert (refused.value.code, refused.value.params["need"]) == ("hand_size", 4)
