"""What WordNet 3.0 says about single words, as evidence for the ``standard`` list.

WordNet's data files write each lemma as the dictionary writes it: ``brazil`` (the
nut) beside ``Brazil`` (the country), ``INC`` in capitals only. So a lemma written in
lower case somewhere is a lower-case word (issue 24: "a word the sources hold
capitalised but a dictionary also holds in lower case is a word"); one written only
in capitals is an abbreviation's evidence; one written only capitalised, a name's.
The exception lists give the irregular forms (``pled``, ``throve``, ``geese``).

The files are the ones ``definitions`` reads (found by ``definitions.find_data``);
without them every set is empty and the list is what the other sources make.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

SUFFIXES = ("noun", "verb", "adj", "adv")

# A synset line: offset, lexicographer file, part of speech, word count (hex), then
# the words and their lexical ids. Only the words are read.
_HEAD = re.compile(rb"^\d{8} \d\d [nvasr] ([0-9a-f]{2}) ", re.MULTILINE)
_LETTERS = re.compile(r"[A-Za-z]+")


@dataclass(frozen=True)
class Lemmas:
    """WordNet's single-word lemmas, in lower-case letters, sorted by how it writes them."""

    lower: frozenset[str] = frozenset()
    """Written in lower case in some synset: a word (``brazil``, ``raj``, ``koi``)."""
    capitalised: frozenset[str] = frozenset()
    """Never written in lower case, written capitalised (``Jordan``, ``Sahara``)."""
    capitals: frozenset[str] = frozenset()
    """Never written in lower case, written in capitals somewhere (``INC``, ``ESP``)."""
    forms: frozenset[str] = frozenset()
    """Irregular forms from the exception lists (``pled``, ``geese``, ``throve``)."""
    irregular_past: frozenset[str] = frozenset()
    """Verbs the exception lists give a past not spelt with -ed (``send``/``sent``,
    ``lay``/``laid``; not ``kidnap``/``kidnapped``)."""
    irregular_plural: frozenset[str] = frozenset()
    """Short nouns the exception lists give a Germanic plural (``ox``/``oxen``,
    ``goose``/``geese``; not ``radius``/``radii``). A regular form of these that only a
    word-game list holds (``oxes``, ``sended``, ``layed``) is no dictionary's."""
    short_of: dict[str, str] = field(default_factory=dict)
    """A lower-case lemma of at most four letters that begins a longer single-word
    lemma of the same synset (``min`` of ``minute``, ``sec`` of ``second``), with it."""


NONE = Lemmas()


def _changed(form: str, base: str, suffix: str) -> bool:
    """Whether an exception-list ``form`` of ``base`` is another word shape: a verb's
    past not spelt with -ed (``sent``, ``laid``, ``wrung``), a short noun's plural made
    by a vowel change or -en (``geese``, ``mice``, ``oxen``), not a Latin or Greek one."""
    if not (base.islower() and _LETTERS.fullmatch(form) and _LETTERS.fullmatch(base)):
        return False
    if suffix == "verb":
        return not form.endswith(("ed", "ing", "s"))
    if len(base) > 5 or base.endswith(("is", "en")) or form == base:
        return False
    vowel_change = len(form) == len(base) and form[0] == base[0] and form[-1] == base[-1]
    return form.endswith("en") or vowel_change


def read(folder: Path | None) -> Lemmas:
    """The lemmas of WordNet's data files in ``folder``; empty without them."""
    if folder is None:
        return NONE
    lower: set[str] = set()
    cased: set[str] = set()
    short_of: dict[str, str] = {}
    for suffix in SUFFIXES:
        path = folder / f"data.{suffix}"
        if not path.is_file():
            return NONE
        data = path.read_bytes()
        for head in _HEAD.finditer(data):
            count = int(head.group(1), 16)
            fields = data[head.end() : data.find(b"|", head.end())].split(b" ", 2 * count)
            words = [w.split(b"(")[0].decode("ascii", "replace") for w in fields[: 2 * count : 2]]
            single = [w for w in words if _LETTERS.fullmatch(w) and len(w) >= 2]
            for word in single:
                (lower if word.islower() else cased).add(word)
            for word in single:
                if word.islower() and len(word) <= 4:
                    longer = next(
                        (w for w in single if len(w) > len(word) + 1 and w.startswith(word)), None
                    )
                    if longer:
                        short_of.setdefault(word, longer)
    forms: set[str] = set()
    irregular: dict[str, set[str]] = {"verb": set(), "noun": set()}
    for suffix in SUFFIXES:
        path = folder / f"{suffix}.exc"
        if path.is_file():
            for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
                form, *bases = line.split(" ")
                if _LETTERS.fullmatch(form):
                    forms.add(form.lower())
                    if suffix in irregular:
                        irregular[suffix].update(b for b in bases if _changed(form, b, suffix))
    caps = {w.lower() for w in cased if w.isupper()} - lower
    return Lemmas(
        lower=frozenset(lower),
        capitalised=frozenset({w.lower() for w in cased} - lower - caps),
        capitals=frozenset(caps),
        forms=frozenset(forms),
        irregular_past=frozenset(irregular["verb"]),
        irregular_plural=frozenset(irregular["noun"]),
        short_of=short_of,
    )
