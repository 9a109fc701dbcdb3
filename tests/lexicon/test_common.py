"""The ``common`` list: standard's words that English text uses often, for family tables.

A child at the table plays "graze" or "astute" and it counts; "cenotaph", "zax" and a
swear word don't; a name or an abbreviation is refused with standard's own reason.
"""

from __future__ import annotations

import pytest

from companion.lexicon import Lexicon, LexiconStore, sources


@pytest.fixture(scope="module")
def common(lexicons: LexiconStore) -> Lexicon:
    return lexicons.get("common")


def test_it_is_offered_with_the_built_in_lists(lexicons: LexiconStore) -> None:
    assert lexicons.names()[:3] == ["standard", "wordgame", "common"]
    assert lexicons.title("common") == "Common words (family tables)"


@pytest.mark.parametrize("word", ["cat", "house", "quiz", "the", "ox", "graze", "astute", "thin"])
def test_everyday_words_are_legal(common: Lexicon, word: str) -> None:
    verdict = common.verdict(word)
    assert (verdict.legal, verdict.reason) == (True, "in_dictionary")


@pytest.mark.parametrize("word", ["cenotaph", "zax", "qoph", "xyst", "sinuous"])
def test_rare_dictionary_words_are_not_in_it(common: Lexicon, standard: Lexicon, word: str) -> None:
    assert standard.verdict(word).legal
    assert (common.verdict(word).legal, common.verdict(word).reason) == (
        False,
        "not_in_dictionary",
    )


def test_no_word_of_the_profanity_list_is_legal(common: Lexicon) -> None:
    rude = sources.offensive_words()
    assert len(rude) > 300
    assert not rude & set(common.words())


@pytest.mark.parametrize(
    ("word", "reason"),
    [("london", "proper_noun"), ("nasa", "abbreviation"), ("dont", "contraction")],
)
def test_what_standard_refuses_keeps_its_reason(common: Lexicon, word: str, reason: str) -> None:
    assert (common.verdict(word).legal, common.verdict(word).reason) == (False, reason)


def test_every_word_is_a_frequent_standard_word(common: Lexicon, standard: Lexicon) -> None:
    words = set(common.words())
    assert 15_000 < len(words) < 40_000
    assert words <= set(standard.words())
    assert min(standard.frequency(w) or 0 for w in words) >= sources.COMMON_ZIPF
