"""The deck of rules.md: 31 kinds, 118 cards, each value and count as printed."""

from __future__ import annotations

import pytest

from companion.game.deck import (
    BY_NAME,
    CARDS,
    DECK_SIZE,
    DOUBLE_LETTER_CARDS,
    card,
    letter_count,
    over_deck,
    text,
    value,
)
from companion.game.errors import RuleError, ShapeError

# The table of rules.md, copied by hand: (card, value, copies).
RULE_BOOK_TABLE = [
    ("A", 2, 10), ("B", 8, 2), ("C", 8, 2), ("D", 5, 4), ("E", 2, 12),
    ("F", 6, 2), ("G", 6, 4), ("H", 7, 2), ("I", 2, 8), ("J", 13, 2),
    ("K", 8, 2), ("L", 3, 4), ("M", 5, 2), ("N", 5, 6), ("O", 2, 8),
    ("P", 6, 2), ("Q", 15, 2), ("R", 5, 6), ("S", 3, 4), ("T", 3, 6),
    ("U", 4, 6), ("V", 11, 2), ("W", 10, 2), ("X", 12, 2), ("Y", 4, 4),
    ("Z", 14, 2), ("QU", 9, 2), ("IN", 7, 2), ("ER", 7, 2), ("CL", 10, 2),
    ("TH", 9, 2),
]  # fmt: skip


def test_thirty_one_kinds():
    """The deck has 31 kinds of card: a..z and the five double-letter cards."""
    assert len(CARDS) == 31
    assert len(BY_NAME) == 31
    assert sorted(BY_NAME) == sorted(name.lower() for name, _, _ in RULE_BOOK_TABLE)


def test_one_hundred_eighteen_cards():
    """118 cards in all."""
    assert DECK_SIZE == 118
    assert sum(c.copies for c in CARDS) == 118


@pytest.mark.parametrize(("name", "points", "copies"), RULE_BOOK_TABLE)
def test_every_card_matches_the_rule_book(name, points, copies):
    """Each card has the value and the number of copies of the rules.md table."""
    c = BY_NAME[name.lower()]
    assert c.name == name.lower()
    assert c.value == points
    assert c.copies == copies
    assert str(c) == name


def test_double_letter_cards_carry_two_letters():
    """QU, IN, ER, CL, TH are one card each carrying two letters; the rest carry one."""
    assert sorted(c.name for c in DOUBLE_LETTER_CARDS) == ["cl", "er", "in", "qu", "th"]
    for c in CARDS:
        assert c.letters == (2 if c in DOUBLE_LETTER_CARDS else 1), c


def test_seed_checks_of_the_rule_book():
    """top = 11, quiz as QU·I·Z = 25, an unused M = 5, steve = 21."""
    assert value(card(n) for n in "top") == 11
    assert value([card("qu"), card("i"), card("z")]) == 25
    assert card("m").value == 5
    assert value(card(n) for n in "steve") == 21


def test_letter_count_and_text_of_a_word():
    """QU·I·Z is three cards, four letters, and spells "quiz"."""
    quiz = (card("qu"), card("i"), card("z"))
    assert letter_count(quiz) == 4
    assert text(quiz) == "quiz"


@pytest.mark.parametrize("raw", ["qu", "QU", "Qu", " qu ", "\tqU\n"])
def test_card_ignores_case_and_surrounding_spaces(raw):
    """card() reads a name whatever its case and surrounding spaces."""
    assert card(raw) is BY_NAME["qu"]


@pytest.mark.parametrize("raw", ["", " ", "aa", "q u", "ch", "1", "é", "quu"])
def test_card_refuses_unknown_names(raw):
    """A name that is not one of the 31 cards is a rule error (not a shape error)."""
    with pytest.raises(RuleError) as caught:
        card(raw)
    assert not isinstance(caught.value, ShapeError)
    assert caught.value.code == "not_a_card"


def test_over_deck_names_the_first_card_over_its_copies():
    """Two Z are fine; the third Z is the card over the deck."""
    z = card("z")
    assert over_deck([z, z]) is None
    assert over_deck([card("a")] * 10) is None
    assert over_deck([z, card("a"), z, z]) is z
    assert over_deck([card("a")] * 11) is card("a")
