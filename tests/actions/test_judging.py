"""Who rules on a word (``companion.actions.judging``): a game's house words first, then its
lexicon; a missing lexicon as a refusal that lists those there are; the definition shown
beside a ruling; the best-play index with a game's house words."""

from __future__ import annotations

import pytest
from flask import Flask

from companion.actions import judging
from companion.game.challenges import TABLE_ILLEGAL, TABLE_LEGAL, Verdict
from companion.game.errors import RuleError
from companion.game.rules import Rules
from companion.game.solver import build_index
from companion.lexicon import LexiconStore
from companion.lexicon.definitions import Definitions

LEXICONS = ["standard", "wordgame", "common"]


def test_a_lexicon_by_name_or_a_refusal_naming_those_there_are(lexicons: LexiconStore) -> None:
    assert judging.lexicon(lexicons, "standard").verdict("ox") == Verdict(True, "in_dictionary")
    assert lexicons.knows("wordgame")
    assert not lexicons.knows("klingon")
    with pytest.raises(RuleError) as caught:
        judging.lexicon(lexicons, "k" * 50, "rules.lexicon")
    error = caught.value
    assert (error.code, error.where, error.params) == (
        "unknown_lexicon",
        "rules.lexicon",
        {"name": "k" * 40, "names": LEXICONS},
    )


def test_a_games_judge_asks_its_house_words_first(lexicons: LexiconStore) -> None:
    judge = judging.game_judge(lexicons, Rules(), {"zax": True, "ox": False})
    assert judge("zax") == Verdict(True, "house_word")  # not in the standard list
    assert judge(" ZAX ") == Verdict(True, "house_word")
    assert judge("ox") == Verdict(False, "banned_house_word")  # in it
    assert judge("dog") == Verdict(True, "in_dictionary")
    assert judge("steve") == Verdict(False, "proper_noun")
    assert judge("sr") == Verdict(False, "abbreviation")


def test_a_games_judge_loads_its_lexicon_only_when_a_word_needs_it(
    lexicons: LexiconStore,
) -> None:
    """A game whose own list is gone still rules on its house words; any other word is
    refused at the game's lexicon rule."""
    judge = judging.game_judge(lexicons, Rules(lexicon="family"), {"zax": True})
    assert judge("zax") == Verdict(True, "house_word")
    with pytest.raises(RuleError) as caught:
        judge("dog")
    error = caught.value
    assert (error.code, error.where, error.params) == (
        "unknown_lexicon",
        "rules.lexicon",
        {"name": "family", "names": LEXICONS},
    )


@pytest.fixture
def definitions(app: Flask) -> Definitions:
    found: Definitions = app.extensions["definitions"]
    return found


def test_no_definition_beside_a_refusal(lexicons: LexiconStore, definitions: Definitions) -> None:
    """What the reader sees beside a ruling is the dictionary's definition of a word the
    referee accepts; none beside a word it refused, for any reason (WordNet defines
    "min", refused as an abbreviation), nor beside the table's refusal of such a word.
    The table's refusal of a word its lexicon accepts keeps the definition."""
    assert definitions.lookup("dog") is not None and definitions.lookup("min") is not None
    standard = judging.lazy_judge(lexicons, "standard", "rules.lexicon")
    assert not standard("min").legal
    for word, legal, reason, judge in [
        ("dog", True, "in_dictionary", None),
        ("dog", True, "house_word", None),
        ("dog", True, TABLE_LEGAL, None),
        ("dog", False, TABLE_ILLEGAL, standard),  # the table refused a dictionary word
    ]:
        shown = judging.definition(definitions, word, legal, reason, judge)
        assert shown is not None and shown == definitions.lookup(word), (word, reason)
    for word, legal, reason, judge in [
        ("min", False, "abbreviation", None),
        ("steve", False, "proper_noun", None),
        ("dog", False, "not_in_dictionary", None),  # a list without it: none all the same
        ("dog", False, "banned_house_word", None),
        ("min", False, TABLE_ILLEGAL, standard),  # the table refused it, and standard too
        ("dog", False, TABLE_ILLEGAL, None),  # no lexicon to go by
        ("dog", False, TABLE_ILLEGAL, judging.lazy_judge(lexicons, "gone", "rules.lexicon")),
    ]:
        assert judging.definition(definitions, word, legal, reason, judge) is None, (word, reason)


def test_the_best_play_index_takes_the_games_house_words(lexicons: LexiconStore) -> None:
    [jqx] = build_index(["jqx"])
    [act] = build_index(["act"])
    [ox] = build_index(["ox"])
    base = judging.solver_index(lexicons, "standard")
    assert (jqx in base, base[act], base[ox]) == (False, "act", "ox")
    assert judging.solver_index(lexicons, "standard", {}) is base
    house = {"jqx": True, "act": False, "ox": False}
    index = judging.solver_index(lexicons, "standard", house)
    assert index[jqx] == "jqx"
    assert index[act] == "cat", "ACT banned: its cards still make CAT, a word of the list"
    assert ox not in index
    again = judging.solver_index(lexicons, "standard", dict(house))
    assert again is not index and again.base is index.base, "an overlay on the one shared index"
    assert (jqx in base, base[act], base[ox]) == (False, "act", "ox"), "the list's own is as it was"
    with pytest.raises(RuleError) as caught:
        judging.solver_index(lexicons, "gone", {"jqx": True})
    error = caught.value
    assert (error.code, error.where, error.params) == (
        "unknown_lexicon",
        "rules.lexicon",
        {"name": "gone", "names": LEXICONS},
    )
