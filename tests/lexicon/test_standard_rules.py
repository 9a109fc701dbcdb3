"""The rules that make ``standard`` a general dictionary (issue 24), on the real list and on
small inputs: what a table types and what the referee must say of it."""

from __future__ import annotations

import pytest

from companion.lexicon import Lexicon, classify, sources, wordnet
from companion.lexicon.reasons import Kind


@pytest.mark.parametrize(
    ("word", "reason"),
    [
        # British spellings of en_US's forms that only en_GB's affix rules make
        ("marginalised", "in_dictionary"),
        ("prioritised", "in_dictionary"),
        ("snorkelling", "in_dictionary"),
        ("fertilisers", "in_dictionary"),
        # plurals en_US leaves off its countable nouns (hen/M), which text uses
        ("hens", "in_dictionary"),
        ("discs", "in_dictionary"),
        ("cones", "in_dictionary"),
        # plurals of uncountable nouns, and forms WordNet gives another shape
        ("informations", "not_in_dictionary"),
        ("equipments", "not_in_dictionary"),
        ("layed", "not_in_dictionary"),
        ("sended", "not_in_dictionary"),
        ("wringed", "not_in_dictionary"),
        ("oxes", "not_in_dictionary"),
        ("campi", "not_in_dictionary"),
        ("mongeese", "not_in_dictionary"),
        ("setted", "not_in_dictionary"),
        ("targetted", "not_in_dictionary"),
        # the right shapes of the same words stay words
        ("laid", "in_dictionary"),
        ("oxen", "in_dictionary"),
        ("campuses", "in_dictionary"),
        ("overseed", "in_dictionary"),
        # contractions no list writes; where the letters are a word, the word wins
        ("howll", "contraction"),
        ("whatve", "contraction"),
        ("nothingll", "contraction"),
        ("hell", "in_dictionary"),
        ("shed", "in_dictionary"),
        ("were", "in_dictionary"),
        # a name's possessive is a name; a word's reads as a misspelt plural
        ("steves", "proper_noun"),
        ("churchs", "not_in_dictionary"),
        # prefixes listed bare for compounds
        ("multi", "affix"),
        ("intra", "affix"),
        ("cyber", "in_dictionary"),
        # a letter typed three times: drawn out, or one letter again and again
        ("hmmm", "not_in_dictionary"),
        ("www", "abbreviation"),
        # lower-case senses of names
        ("brazil", "in_dictionary"),
        ("joe", "in_dictionary"),
        ("london", "proper_noun"),
    ],
)
def test_standard_rules_like_a_dictionary(standard: Lexicon, word: str, reason: str) -> None:
    assert standard.verdict(word).reason == reason, word


def test_british_spellings_are_found_by_their_us_forms() -> None:
    us = {"marginalized", "snorkeling", "colorful", "center", "analyzed"}
    assert sources.british_spelling("marginalised", us)
    assert sources.british_spelling("snorkelling", us)
    assert sources.british_spelling("colourful", us)
    assert sources.british_spelling("centre", us)
    assert sources.british_spelling("analysed", us)
    assert not sources.british_spelling("setted", us | {"set", "seted"})
    assert not sources.british_spelling("targetted", us | {"target", "targeted"})


def test_invented_forms_on_small_inputs() -> None:
    lemmas = wordnet.Lemmas(
        irregular_past=frozenset({"send", "lay", "set"}), irregular_plural=frozenset({"ox"})
    )
    listed = {"overseeds"}
    spelled = {"campuses", "mongooses"}
    invented = ["sended", "layed", "setted", "oxes", "campi", "mongeese"]
    kept = ["spined", "overseed", "foxes", "tumuli", "kidnaped"]
    assert [w for w in invented if not sources.invented_form(w, lemmas, listed, spelled)] == []
    assert [w for w in kept if sources.invented_form(w, lemmas, listed, spelled)] == []


def test_a_plural_is_uncountable_only_if_text_shuns_it() -> None:
    lower = {"information", "hen"}  # en_US: neither with a plural
    zipf = {"information": 5.4, "informations": 2.7, "hen": 3.6, "hens": 3.2}
    assert sources.invented_plural("informations", lower, zipf)
    assert not sources.invented_plural("hens", lower, zipf)
    assert sources.invented_plural("hens", lower, {})  # no frequencies: every such plural


def test_contractions_generated_are_host_and_ending() -> None:
    made = classify.contractions()
    assert {"howll", "whatve", "theyre", "nothingll", "shouldve"} <= made
    assert "itve" not in made and "thisre" not in made  # no host takes these


def test_prefixes_counts_compounds_of_a_bare_prefix() -> None:
    words = {f"multi{w}" for w in ("media", "player", "level", "storey")} | {
        "media",
        "player",
        "level",
        "storey",
    }
    found = classify.prefixes(words, listed={"media"}, bare={"multi"})
    assert found == set()  # four compounds: too few to call "multi" a prefix
    many = (
        words
        | {f"multi{w}" for w in [f"word{i:02}" for i in range(40)]}
        | {f"word{i:02}" for i in range(40)}
    )
    assert classify.prefixes(many, listed=set(), bare={"multi"}) == {"multi"}


def test_kinds_of_the_reviewed_list_are_the_referees() -> None:
    assert sources.REVIEWED_KINDS["not_word"] is None
    assert set(sources.REVIEWED_KINDS.values()) - {None} == set(Kind)
