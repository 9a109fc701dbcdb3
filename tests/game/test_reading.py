"""The card logic of a photo read (game/reading.py): indices to cards, the printed value as
a check, a card's two indices joined, the deck's copies, and rows to words."""

from __future__ import annotations

import math
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.game.deck import BY_NAME
from companion.game.reading import Sighting, identify, letters_of, reading, value_of

W, H = 250.0, 350.0


def seen(
    letters: str,
    value: str = "",
    *,
    card: int,
    x: float,
    y: float,
    score: float = 0.97,
    angle: float = 0.0,
) -> Sighting:
    box = (int(x - W / 2), int(y - H / 2), int(W), int(H))
    return Sighting(letters, value, score, card, x, y, W, H, angle, box)


def row(text: list[tuple[str, str]], *, y: float, start: int, x0: float = 200.0) -> list[Sighting]:
    """A row of cards side by side (a small gap), each read at both corners."""
    out = []
    for i, (letters, value) in enumerate(text):
        x = x0 + i * (W + 20)
        out += [seen(letters, value, card=start + i, x=x, y=y)] * 2
    return out


@pytest.mark.parametrize(
    ("letters", "value", "card", "sure"),
    [
        ("Q", "15", "q", True),
        ("QU", "9", "qu", True),
        ("O", "15", "q", False),  # a Q's tail lost: the value says Q
        ("0", "2", "o", True),  # a zero read for an O, and its value agrees
        ("F6", "", "f", True),  # letter and value read as one line
        ("TH", "", "th", False),  # no value, no second index: not sure alone
        ("IN", "7", "in", True),
        ("N", "7", "in", False),  # the I lost: IN's value
        ("E", "6", "f", False),
        ("CL", "10", "cl", True),
    ],
)
def test_an_index_names_its_card_and_the_value_checks_it(
    letters: str, value: str, card: str, sure: bool
) -> None:
    found = identify(letters, value, 0.95)
    assert found is not None
    assert (found[0].name, found[1]) == (card, sure)


@pytest.mark.parametrize("letters", ["", "HELLO", "??", "7", "·", "艺"])
def test_what_names_no_card_is_no_card(letters: str) -> None:
    assert identify(letters, "", 0.99) is None


def test_a_faint_reading_is_no_card() -> None:
    assert identify("A", "", 0.1) is None


def test_letters_and_values_are_read_as_cards_print_them() -> None:
    assert [letters_of(t) for t in ("Qu", "1N", "T H", "0", "A.")] == ["qu", "in", "th", "o", "a"]
    assert [value_of(t) for t in ("15", "1S", "O2", "7", "16", "", "x")] == [
        15, 15, 2, 7, None, None, None
    ]  # fmt: skip


def test_two_rows_are_two_words_and_a_card_set_apart_is_left_over() -> None:
    sightings = row([("QU", "9"), ("I", "2"), ("Z", "14")], y=300, start=0)
    sightings += [seen("M", "5", card=9, x=200 + 4 * (W + 20), y=300)]  # a card's gap apart
    sightings += row([("C", "8"), ("A", "2"), ("T", "3")], y=750, start=10)
    found = reading(sightings)
    assert found.words == (("qu", "i", "z"), ("c", "a", "t"))
    assert found.unused == ("m",)
    assert [c.card for c in found.cards] == ["qu", "i", "z", "m", "c", "a", "t"]
    assert all(c.sure for c in found.cards)


def test_the_rows_follow_a_turned_layout() -> None:
    """The whole layout turned 30 degrees: rows are read along it, not across the picture."""
    turn = math.radians(30)
    sightings = []
    for r, word in enumerate([["t", "o", "p"], ["a", "x"]]):
        for i, letter in enumerate(word):
            x, y = i * (W + 20), r * (H + 80)
            px = 800 + x * math.cos(turn) - y * math.sin(turn)
            py = 400 + x * math.sin(turn) + y * math.cos(turn)
            value = str(BY_NAME[letter].value)
            sightings.append(seen(letter.upper(), value, card=r * 10 + i, x=px, y=py, angle=30))
    assert reading(sightings).words == (("t", "o", "p"), ("a", "x"))


def test_two_indices_that_disagree_leave_the_card_to_check() -> None:
    found = reading([seen("P", "6", card=0, x=100, y=100), seen("R", "", card=0, x=100, y=100)])
    assert [(c.card, c.sure) for c in found.cards] == [("p", False)]


def test_never_more_copies_than_the_deck_holds() -> None:
    """Three Zs read where the deck holds two: the least certain is dropped."""
    sightings = row([("Z", "14"), ("Z", "14")], y=300, start=0)
    sightings.append(seen("Z", "", card=7, x=900, y=300, score=0.91))
    found = reading(sightings)
    assert Counter(c.card for c in found.cards) == {"z": 2}
    assert all(c.sure for c in found.cards)


letters = st.sampled_from(sorted(BY_NAME))


@given(
    st.lists(
        st.tuples(
            letters,
            st.booleans(),
            st.floats(0, 2000),
            st.floats(0, 2000),
            st.floats(0.0, 1.0),
            st.integers(0, 30),
        ),
        max_size=40,
    )
)
def test_every_card_read_is_in_one_word_or_left_over_within_the_deck(data) -> None:
    sightings = [
        seen(name.upper(), str(BY_NAME[name].value) if valued else "", card=c, x=x, y=y, score=s)
        for name, valued, x, y, s, c in data
    ]
    found = reading(sightings)
    laid = [c for word in found.words for c in word] + list(found.unused)
    assert Counter(laid) == Counter(c.card for c in found.cards)
    assert len(found.cards) <= len({s.card for s in sightings})
    for name, count in Counter(c.card for c in found.cards).items():
        assert count <= BY_NAME[name].copies
