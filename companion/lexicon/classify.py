"""The small, documented rule set that sorts dictionary entries into kinds.

Hunspell is case-aware, and that gives most reasons for free:

- an entry written in lower case is a **word**;
- an entry whose letters are all capitals (``TV``, ``NASA``, plural ``DVDs``), or a
  capitalised one with no vowel (``Mr``, ``Dr``, ``St``), is an **abbreviation**; any
  other capitalised entry (``Steve``, ``Paris``, ``McDonald``) is a **proper noun**,
  and so is its possessive (``Steve's``);
- an entry with an apostrophe that is not a possessive (``don't``, ``I'm``,
  ``that's``) makes its letters without the apostrophe (``dont``, ``im``,
  ``thats``) a **contraction**; a capitalised possessive is a name (``Steve's``)
  or an abbreviation (``CEO's``).

Spell-checkers also list lower-case abbreviations as plain words (``qty``,
``hwy``, ``etc``, ``cm``). No hand-kept list catches them; the lists' own
evidence does (``Evidence``):

1. a two-letter entry is a word only if it is one of ``TWO_LETTER_WORDS``, the
   two-letter words of the North American word-game list (ENABLE's, and qi, za,
   ok and ew, added since); ``cm``, ``kg``, ``vs`` are abbreviations. Those words are
   words in every lexicon, even where the dictionaries write them only as ``AA``
   or ``Jo``: every one of them is a headword of Merriam-Webster or Collins;
2. the word-game list (ENABLE), which leaves abbreviations, names and
   contractions out by design, vouches for an entry: what it holds is a word
   (``hmm``, ``nth``, ``mix``);
3. an entry with no vowel (a, e, i, o, u, y) is an abbreviation (``mph``, ``bldg``);
4. a Roman numeral (``xiv``, ``clxii``) is an abbreviation;
5. an entry that no list inflects (no plural, tense or other affix flag in any
   of them, and no affix of another entry makes it) and has at most five
   letters is an abbreviation when it looks like one to the lists: it has no
   a, e, i, o or u (``qty``, ``hwy``, ``pkg``), the lists also write it
   capitalised or in capitals (``Mgr``, ``ASAP``), or it ends in two letters that
   no inflected word ends in (``etc``, ``liq``, ``govt``). Short uninflected
   words that look like words (``eek``, ``meh``, ``uni``) stay words.

One rule looks past the dictionaries, at the frequency list (wordfreq): a
string of three letters or more with no vowel that neither dictionary lists but
that English text uses (``thx``, ``mgmt``, ``brb``) is an abbreviation too; a
string nobody writes (``qzx``) is simply not in the dictionary.

Prefixes and suffixes that are not words on their own (``un``, ``ness``) are
listed in ``AFFIXES``, joined at build time by the affixes of the Hunspell
affix files and by the combining forms the lists' words show (``combining_forms``:
``milli``, ``thermo``, ``xeno``); they are refused with their own reason, but never
where a list holds the string as a word. Where a string is several things (``us`` and
``US``, ``bill`` and ``Bill``), the word wins: names that are also words are
legal.
"""

from __future__ import annotations

import re
from collections.abc import Set
from dataclasses import dataclass

from companion.lexicon.reasons import Kind


@dataclass(frozen=True)
class Evidence:
    """What the lists say about their entries beyond the entries themselves."""

    vouched: frozenset[str] = frozenset()
    """The word-game list's words: no abbreviations, names or contractions among them."""
    uninflected: frozenset[str] = frozenset()
    """Lower-case entries that no list inflects."""
    capitals: frozenset[str] = frozenset()
    """The letters, in lower case, of every entry some list writes with a capital."""
    endings: frozenset[str] = frozenset()
    """The last two letters of every lower-case entry that some list inflects."""


NO_EVIDENCE = Evidence()
SHORT = 5
"""Rule 5 looks at uninflected entries this short."""

TWO_LETTER_WORDS = frozenset(
    """
aa ab ad ae ag ah ai al am an ar as at aw ax ay ba be bi bo by da de do ed ef eh el em en
er es et ew ex fa fe gi go ha he hi hm ho id if in is it jo ka ki la li lo ma me mi mm mo mu
my na ne no nu od oe of oh oi ok om on op or os ow ox oy pa pe pi po qi re sh si so ta te
ti to uh um un up us ut we wo xi xu ya ye yo za
""".split()
)
"""The two-letter words of the North American word-game list (NWL2020)."""

CONTRACTED_IS = frozenset(
    """
he here how it let she that there what when where who why
""".split()
)
"""Words whose ``'s`` is "is" or "us", not a possessive: ``that's`` makes ``thats`` a
contraction (``its`` and ``lets`` stay words: they are words in lower case too)."""

_PERSONS = frozenset("i you he she it we they".split())
_QUESTIONS = frozenset("what who where when why how which".split())
_POINTING = frozenset("this that there here these those".split())
_ANYONE = frozenset(
    "somebody someone something everybody everyone everything nobody nothing".split()
)
_MODALS = frozenset("could should would might must couldnt shouldnt wouldnt mightnt mustnt".split())
CONTRACTION_HOSTS: dict[str, frozenset[str]] = {
    "ll": _PERSONS | _QUESTIONS | _POINTING | _ANYONE,
    "d": _PERSONS | _QUESTIONS | _POINTING | _ANYONE,
    "ve": frozenset("i you we they there".split()) | _QUESTIONS | _MODALS,
    "re": frozenset("you we they there these those".split()) | _QUESTIONS,
}
"""The words that take ``'ll``, ``'d``, ``'ve`` and ``'re`` (will/would/had, have,
are), by ending: the lists write some of them (``who'll``, ``how'd``) and leave out
others a table plays just the same (``how'll``, ``what've``, ``nothing'll``)."""


def contractions() -> set[str]:
    """Every host's contraction without its apostrophe (``howll``, ``whatve``); where
    the letters are also a word (``hell``, ``shed``, ``were``), the word wins."""
    return {host + ending for ending, hosts in CONTRACTION_HOSTS.items() for host in hosts}


AFFIXES = frozenset(
    """
un re de dis non pre mis anti sub co inter trans ness ment ful ous ism ist ity ize ise able
ible tion sion ship hood ward wise esque ette ling ology ly ing ed est ers ies ive ion ieth
ance ence ation ic ial eous ious ative ency ancy ish
""".split()
)

_ROMAN = re.compile(r"m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})")
_VOWELS = frozenset("aeiouy")
_PLAIN_VOWELS = frozenset("aeiou")


def is_lowercase_abbreviation(word: str, evidence: Evidence = NO_EVIDENCE) -> bool:
    """Whether a lower-case dictionary entry is really an abbreviation (rules 1-5 above)."""
    if len(word) == 2:
        return word not in TWO_LETTER_WORDS
    if word in evidence.vouched or (drawn_out(word) and len(set(word)) > 1):
        return False  # "hmmm" draws a word out; "www" is one letter three times
    if not _VOWELS.intersection(word) or _ROMAN.fullmatch(word):
        return True
    if word in evidence.uninflected and len(word) <= SHORT:
        return (
            not _PLAIN_VOWELS.intersection(word)
            or word in evidence.capitals
            or word[-2:] not in evidence.endings
        )
    return False


def classify(entry: str, evidence: Evidence = NO_EVIDENCE) -> tuple[str, Kind] | None:
    """The lower-case key and kind of one dictionary form, or None to leave it out."""
    if "'" in entry:
        letters = entry.replace("'", "")
        if not (letters.isascii() and letters.isalpha()) or len(letters) < 2:
            return None
        stem = entry[:-2]
        if entry.endswith("'s") and stem.lower() not in CONTRACTED_IS:
            if not entry[0].isupper():  # a word's possessive: nothing new
                return None
            return letters.lower(), capitalised_kind(stem)
        return letters.lower(), Kind.CONTRACTION
    if not (entry.isascii() and entry.isalpha()) or len(entry) < 2:
        return None
    key = entry.lower()
    if entry.islower():
        return key, Kind.ABBREVIATION if is_lowercase_abbreviation(key, evidence) else Kind.WORD
    return key, capitalised_kind(singular(entry))


def prefixes(words: set[str], listed: Set[str], bare: Set[str]) -> set[str]:
    """Strings that begin many words as a prefix before another word of the list, in one
    pass over the words:

    - combining forms no list holds: four letters or more ending in a, i or o, each
      starting at least ``FORMS`` words made of it and another word (``thermostat``,
      ``thermonuclear``: ``milli``, ``thermo``, ``xeno``);
    - strings the dictionaries list ``bare``, never inflected (``multi``, ``intra``,
      ``socio``): listed for compounds like "multi-user", they are prefixes, not words;
      those of the combining forms' shape need ``FORMS`` such words, any other
      ``BARE_FORMS``.
    """
    counts: dict[str, int] = {}
    get = counts.get
    for word in words:
        for cut in range(3, min(8, len(word) - 3)):
            head = word[:cut]
            if (head in bare or (cut >= 4 and head[-1] in "aio")) and word[cut:] in words:
                counts[head] = get(head, 0) + 1
    found = set()
    for head, n in counts.items():
        shaped = len(head) >= 4 and head[-1] in "aio"
        if head in bare:
            if n >= (FORMS if shaped else BARE_FORMS):
                found.add(head)
        elif n >= FORMS and head not in listed:
            found.add(head)
    return found


BARE_FORMS = 40
"""How many words a bare-listed prefix of another shape must begin ("bes", "enc" begin
30-odd: bestow, enclose)."""

FORMS = 12
"""How many words a combining form must begin (fewer, and word-starts like "indivi" pass)."""

IN_USE = 1.5
"""A Zipf frequency this high means English text uses the string (about once in
thirty million words)."""


def unlisted_kind(word: str, zipf: float) -> Kind | None:
    """The kind of a string the dictionaries don't list, from its frequency alone:
    an abbreviation if it has no vowel and is in use, else nothing (nor for one letter
    again and again: "qqq", "zzz" are typed, not abbreviated)."""
    if drawn_out(word):
        return None
    if len(set(word)) >= 2 and len(word) >= 3 and zipf >= IN_USE and not _VOWELS & set(word):
        return Kind.ABBREVIATION
    return None


_DRAWN_OUT = re.compile(r"(.)\1\1")


def drawn_out(word: str) -> bool:
    """Whether a letter is typed three times running to draw a word out (``hmmm``,
    ``shhh``, ``pffft``): judged as a word if a list holds it so, never an abbreviation."""
    return _DRAWN_OUT.search(word) is not None


def singular(entry: str) -> str:
    """A capitalised entry without its plural s (``DVDs`` -> ``DVD``); short ones kept."""
    return entry[:-1] if entry.endswith("s") and len(entry) > 2 else entry


def capitalised_kind(stem: str) -> Kind:
    """A capitalised entry's kind: in capitals or without a vowel, an abbreviation."""
    if stem.isupper() or not _VOWELS.intersection(stem.lower()):
        return Kind.ABBREVIATION
    return Kind.PROPER_NOUN


def merge(into: dict[str, Kind], key: str, kind: Kind) -> None:
    """Record ``kind`` for ``key`` unless it already has a stronger one (a word beats a name)."""
    known = into.get(key)
    if known is None or kind < known:
        into[key] = kind
