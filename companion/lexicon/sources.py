"""Where each lexicon's words come from, turned into ``{word: Kind}`` tables."""

from __future__ import annotations

import re
from importlib import metadata
from pathlib import Path

from companion.game.marks import N_
from companion.lexicon import classify, hunspell
from companion.lexicon.reasons import Kind

STANDARD, BROAD = "standard", "broad"
BUILT_IN = {
    STANDARD: N_("Standard (Hunspell en_US)"),
    BROAD: N_("Broad (+ Webster's Second)"),
}
"""The built-in lexicons' titles as pages show them (English; translated where shown)."""
OWN_TITLE = N_("Your list: {name}")
"""The title of a group's own list."""
NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
"""What a group's own list may be called: instance/lexicons/NAME.txt."""

MAX_CUSTOM_BYTES = 20 * 1024 * 1024


def version(package: str) -> str:
    """The installed version of ``package``; part of each cache key."""
    return metadata.version(package)


def standard() -> dict[str, Kind]:
    """The en_US Hunspell forms sorted into words, names, abbreviations and so on."""
    dictionary = hunspell.load()
    table: dict[str, Kind] = {}
    for form in hunspell.forms(dictionary):
        found = classify.classify(form)
        if found:
            classify.merge(table, *found)
    for affix in classify.AFFIXES | hunspell.affixes(dictionary):
        classify.merge(table, affix, Kind.AFFIX)
    return table


def broad(standard_table: dict[str, Kind]) -> dict[str, Kind]:
    """Standard plus Webster's Second lower-case entries, without affixes and contractions."""
    from english_words import get_english_words_set

    table = dict(standard_table)
    for word in get_english_words_set(["web2"], lower=False, alpha=True):
        if not (word.islower() and word.isascii() and len(word) >= 2):
            continue
        if standard_table.get(word) in (Kind.AFFIX, Kind.CONTRACTION) or word in classify.AFFIXES:
            continue  # "un", "ness", "dont": not words even if the old list has them
        kind = Kind.ABBREVIATION if classify.is_lowercase_abbreviation(word) else Kind.WORD
        classify.merge(table, word, kind)
    return table


def custom(path: Path) -> dict[str, Kind]:
    """A group's own list, one word per line: every entry made of letters is a word."""
    table: dict[str, Kind] = {}
    with path.open(encoding="utf-8", errors="replace") as lines:
        for line in lines:
            word = line.strip().lower()
            if word.isascii() and word.isalpha() and len(word) >= 2:
                table[word] = Kind.WORD
    return table


def custom_path(folder: Path, name: str) -> Path | None:
    """The file of the group's own list called ``name``, if there is one."""
    if name in BUILT_IN or not NAME.match(name):
        return None
    path = folder / f"{name}.txt"
    return path if path.is_file() else None


def custom_names(folder: Path) -> list[str]:
    """The names of the group's own lists in ``folder``."""
    if not folder.is_dir():
        return []
    return sorted(
        p.stem
        for p in folder.glob("*.txt")
        if NAME.match(p.stem) and p.stem not in BUILT_IN and p.stat().st_size <= MAX_CUSTOM_BYTES
    )
