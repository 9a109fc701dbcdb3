"""The small, documented rule set that sorts dictionary entries into kinds.

Hunspell is case-aware, and that gives most reasons for free:

- an entry written in lower case is a **word**;
- an entry whose letters are all capitals (``TV``, ``NASA``, plural ``DVDs``) is an
  **abbreviation**; any other capitalised entry (``Steve``, ``Paris``,
  ``McDonald``) is a **proper noun**, and so is its possessive (``Steve's``);
- an entry with an apostrophe that is not a possessive (``don't``, ``I'm``,
  ``that's``) makes its letters without the apostrophe (``dont``, ``im``,
  ``thats``) a **contraction**; a capitalised possessive is a name (``Steve's``)
  or an abbreviation (``CEO's``).

Spell-checkers also list lower-case abbreviations as plain words, mostly
short ones. Four rules catch them:

1. a two-letter entry is a word only if it is in ``TWO_LETTER_WORDS`` (the
   two-letter words of the North American tournament list); ``cm``, ``kg``, ``vs``
   are abbreviations;
2. an entry of three or more letters with no vowel (a, e, i, o, u, y) is an
   abbreviation (``mph``, ``bldg``) unless it is in ``VOWELLESS_WORDS`` (``hmm``,
   ``psst``, ``nth``);
3. a Roman numeral (``xiv``, ``clxii``) is an abbreviation unless it is also a
   word (``mix``, ``mi``, ``xi``);
4. ``ABBREVIATIONS`` lists the remaining ones (``etc``, ``approx``, ``dept``), and
   the capitalised ones Hunspell would otherwise make names (``Mr``, ``Dr``, ``Feb``).

Prefixes and suffixes that are not words on their own (``un``, ``ness``) are
listed in ``AFFIXES``, joined at build time by the affixes of the Hunspell
affix file; they are refused with their own reason. Where a string is several
things (``us`` and ``US``, ``bill`` and ``Bill``), the word wins: names that are
also words are legal.
"""

from __future__ import annotations

import re

from companion.lexicon.reasons import Kind

TWO_LETTER_WORDS = frozenset(
    """
aa ab ad ae ag ah ai al am an ar as at aw ax ay ba be bi bo by da de do ed ef eh el em en
er es et ex fa fe gi go ha he hi hm ho id if in is it jo ka ki la li lo ma me mi mm mo mu
my na ne no nu od oe of oh oi ok om on op or os ow ox oy pa pe pi po qi re sh si so ta te
ti to uh um un up us ut we wo xi xu ya ye yo za
""".split()
)

VOWELLESS_WORDS = frozenset(
    """
brr brrr crwth crwths cwm cwms hmm mm nth pfft phpht pht psst sh shh tsk tsks tsktsk zzz
""".split()
)

ROMAN_LOOKALIKES = frozenset(
    """
civil civic di dill did dim li lid livid mi mic mid midi mil mild mill mimic mix vivid vim
villi xi
""".split()
)

ABBREVIATIONS = frozenset(
    """
approx appt apr aug asst attn aka asap blvd capt cf co corp dec dept dr esp etc feb fwd
govt inc jan jr jul jun lieut ltd misc mr mrs ms nov oct phd pkg pp sr sq st supt
vol vs
""".split()
)
"""Abbreviations however the dictionary writes them (``etc``, ``Mr``, ``Feb``)."""

CONTRACTED_IS = frozenset(
    """
he here how it let she that there what when where who why
""".split()
)
"""Words whose ``'s`` is "is" or "us", not a possessive: ``that's`` makes ``thats`` a
contraction (``its`` and ``lets`` stay words: they are words in lower case too)."""

AFFIXES = frozenset(
    """
un re de dis non pre mis anti sub co inter trans ness ment ful ous ism ist ity ize ise able
ible tion sion ship hood ward wise esque ette ling ology ly ing ed est ers ies ive ion ieth
ance ence ation ic ial eous ious ative ency ancy ish
""".split()
)

_ROMAN = re.compile(r"m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})")
_VOWELS = frozenset("aeiouy")


def is_lowercase_abbreviation(word: str) -> bool:
    """Whether a lower-case dictionary entry is really an abbreviation (rules 1-4 above)."""
    if len(word) == 2:
        return word not in TWO_LETTER_WORDS
    if word in ABBREVIATIONS:
        return True
    if not _VOWELS.intersection(word):
        return word not in VOWELLESS_WORDS
    return bool(_ROMAN.fullmatch(word)) and word not in ROMAN_LOOKALIKES


def classify(entry: str) -> tuple[str, Kind] | None:
    """The lower-case key and kind of one dictionary form, or None to leave it out."""
    if "'" in entry:
        letters = entry.replace("'", "")
        if not (letters.isascii() and letters.isalpha()) or len(letters) < 2:
            return None
        stem = entry[:-2]
        if entry.endswith("'s") and stem.lower() not in CONTRACTED_IS:
            if not entry[0].isupper():  # a word's possessive: nothing new
                return None
            abbreviated = stem.isupper() or stem.lower() in ABBREVIATIONS
            return letters.lower(), Kind.ABBREVIATION if abbreviated else Kind.PROPER_NOUN
        return letters.lower(), Kind.CONTRACTION
    if not (entry.isascii() and entry.isalpha()) or len(entry) < 2:
        return None
    key = entry.lower()
    if entry.islower():
        return key, Kind.ABBREVIATION if is_lowercase_abbreviation(key) else Kind.WORD
    stem = entry[:-1] if entry.endswith("s") and len(entry) > 2 else entry
    if stem.isupper() or key in ABBREVIATIONS:
        return key, Kind.ABBREVIATION
    return key, Kind.PROPER_NOUN


def merge(into: dict[str, Kind], key: str, kind: Kind) -> None:
    """Record ``kind`` for ``key`` unless it already has a stronger one (a word beats a name)."""
    known = into.get(key)
    if known is None or kind < known:
        into[key] = kind
