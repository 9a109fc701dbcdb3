"""Card spellings: every way a string of letters can be laid down with the real deck."""

from __future__ import annotations

import pytest

from companion.game.deck import value
from companion.game.errors import RuleError
from companion.game.spelling import spellings


def names(found):
    """Spellings as lists of upper-case card names, with their values."""
    return [([str(c) for c in w], value(w)) for w in found]


def test_quiz_spelled_two_ways_best_value_first():
    """quiz is Q·U·I·Z (35) then QU·I·Z (25), in that order."""
    assert names(spellings("quiz")) == [(["Q", "U", "I", "Z"], 35), (["QU", "I", "Z"], 25)]


def test_thin_has_exactly_four_spellings():
    """thin: T·H·I·N, TH·I·N, T·H·IN, TH·IN; equal values put fewer cards first."""
    assert names(spellings("thin")) == [
        (["T", "H", "IN"], 17),
        (["T", "H", "I", "N"], 17),
        (["TH", "IN"], 16),
        (["TH", "I", "N"], 16),
    ]


def test_the_is_twelve_or_eleven():
    """the is T·H·E (12) or TH·E (11)."""
    assert names(spellings("the")) == [(["T", "H", "E"], 12), (["TH", "E"], 11)]


def test_case_and_spaces_are_ignored():
    """Letters are read whatever their case and surrounding spaces."""
    assert spellings("  QuIz ") == spellings("quiz")


def test_no_spelling_needs_more_copies_than_the_deck_has():
    """zzz needs three Z and the deck has two: no spelling, and no error."""
    assert spellings("zzz") == []


def test_pizza_has_one_spelling():
    """pizza uses both Z cards: P·I·Z·Z·A, 6+2+14+14+2 = 38."""
    assert names(spellings("pizza")) == [(["P", "I", "Z", "Z", "A"], 38)]


def test_deck_limits_apply_to_double_cards_too():
    """ththth: only two TH and two H exist, so each spelling has the H of TH from a card.

    T is 6 copies, H 2, TH 2: three "th" need three H-carrying cards among
    two H and two TH, giving 2 H + 1 TH (3 ways) or 1 H + 2 TH (3 ways).
    """
    found = spellings("ththth")
    assert len(found) == 6
    for w in found:
        assert sum(c.name == "h" for c in w) <= 2
        assert sum(c.name == "th" for c in w) <= 2


def test_eleven_a_cannot_be_spelled():
    """The deck holds ten A: ten can be spelled, eleven can't."""
    assert len(spellings("a" * 10)) == 1
    assert spellings("a" * 11) == []


@pytest.mark.parametrize("raw", ["", "   ", "qu1z", "top!", "t-o-p", "two words", "é"])
def test_non_letters_and_empty_are_refused_at_letters(raw):
    """Empty input or anything but the letters a-z is a RuleError at "letters"."""
    with pytest.raises(RuleError) as caught:
        spellings(raw)
    assert caught.value.where == "letters"


def test_more_than_twenty_two_letters_are_refused():
    """Eleven cards hold at most 22 letters: 23 are refused, at "letters"."""
    assert len(spellings("a" * 10 + "e" * 12)) == 1  # 22 letters: every A and E of the deck
    with pytest.raises(RuleError) as caught:
        spellings("a" * 23)
    assert caught.value.where == "letters"
    assert caught.value.code == "too_many_letters"
    assert (caught.value.params["count"], caught.value.params["most"]) == (23, 22)


def test_spellings_of_the_longest_string_stay_few():
    """The worst 22-letter string of double-letter pairs gives at most 2^11 spellings."""
    assert len(spellings("thclquiner" * 2 + "th")) <= 2**11
