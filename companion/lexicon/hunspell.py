"""Every form a Hunspell dictionary accepts, by expanding its affix rules once.

spylls reads the .aff and .dic files (its own parser, so we follow Hunspell's
format exactly); the expansion of stems with their prefix and suffix flags,
including prefix+suffix cross products, is done here.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import spylls
from spylls.hunspell import Dictionary
from spylls.hunspell.data.dic import Word

EN_US = Path(spylls.__file__).parent / "hunspell" / "data" / "en" / "en_US"
"""The en_US dictionary (SCOWL) that the spylls package ships."""


def load(path: Path = EN_US) -> Dictionary:
    """The parsed dictionary (path without the .aff/.dic suffix)."""
    return Dictionary.from_files(str(path))


def forms(dictionary: Dictionary) -> Iterator[str]:
    """Every word form the dictionary accepts as written (case kept, may repeat).

    en_US gives some single letters affix flags as a trick for short words (``i/SU``
    makes "is" and "us"); their longer forms are junk ("hing", "conj"), and every
    real one is an entry of its own, so from a one-letter stem only forms of up to
    two letters are kept.
    """
    for word in dictionary.dic.words:
        if len(word.stem) == 1:
            yield from (f for f in _expand(dictionary, word) if len(f) <= 2)
        else:
            yield from _expand(dictionary, word)


def _expand(dictionary: Dictionary, word: Word) -> Iterator[str]:
    """The stem and its prefixed, suffixed and cross-product forms."""
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
