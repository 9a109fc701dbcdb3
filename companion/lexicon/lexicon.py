"""A loaded lexicon: verdicts with reasons, frequencies, and close words."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import lru_cache
from string import ascii_lowercase

from rapidfuzz.distance import OSA
from rapidfuzz.process import extract

from companion.game.challenges import Verdict
from companion.lexicon.cache import KIND_STEP
from companion.lexicon.reasons import KIND_REASON, Kind, Reason
from companion.lexicon.table import WordTable

_VERDICTS = {kind: Verdict(kind is Kind.WORD, str(reason)) for kind, reason in KIND_REASON.items()}
NOT_IN_DICTIONARY = Verdict(False, str(Reason.NOT_IN_DICTIONARY))
NOT_LETTERS = Verdict(False, str(Reason.NOT_LETTERS))
TOO_SHORT = Verdict(False, str(Reason.TOO_SHORT))
UNLISTED = 0
"""The kind number of an entry kept only for its frequency: not in the list at all."""

COMMON, RARE = 4.0, 2.5
"""Zipf thresholds: 4 and up is about once per 100,000 words of running English."""
KEPT_ANAGRAMS = 4096
"""Anagram searches a loaded list keeps (a few words each)."""
LONGEST = 20
"""Longer strings get no close words: no word of the lists is that long but a few."""


def frequency_band(zipf: float | None) -> str:
    """How a page shows a frequency: common, uncommon or rare. It never decides legality."""
    if zipf is None or zipf < RARE:
        return "rare"
    return "common" if zipf >= COMMON else "uncommon"


class Lexicon:
    """One word list, loaded: ``{word: kind * 1000 + Zipf * 100}`` in a ``WordTable``.

    Besides its entries, the table holds the frequency of English words the list
    doesn't have (kind 0), so a refused "colour" in a list without it still shows
    how common it is.
    """

    def __init__(self, name: str, title: str, entries: WordTable | Mapping[str, int]) -> None:
        self.name = name
        self.title = title
        self._table = entries if isinstance(entries, WordTable) else WordTable.build(dict(entries))
        self._near = lru_cache(maxsize=None)(self._starting_with)
        self._anagrams = lru_cache(maxsize=KEPT_ANAGRAMS)(self._made_of)

    def __len__(self) -> int:
        return sum(1 for _ in self.words())

    @property
    def table(self) -> WordTable:
        """The list's entries as loaded (read-only)."""
        return self._table

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and self.verdict(word).legal

    def _code(self, word: str) -> int | None:
        return self._table.get(word.strip().lower())

    def verdict(self, word: str) -> Verdict:
        """Legal or not, and why. Case is ignored; the word is the letters on the cards."""
        key = word.strip().lower()
        if not (key.isascii() and key.isalpha()):
            return NOT_LETTERS
        if len(key) < 2:
            return TOO_SHORT
        code = self._table.get(key)
        if code is None or code // KIND_STEP == UNLISTED:
            return NOT_IN_DICTIONARY
        return _VERDICTS[Kind(code // KIND_STEP)]

    def kind(self, word: str) -> Kind | None:
        """What the list holds ``word`` as, if anything."""
        code = self._code(word)
        if code is None or code // KIND_STEP == UNLISTED:
            return None
        return Kind(code // KIND_STEP)

    def frequency(self, word: str) -> float | None:
        """The Zipf frequency of ``word`` in English, recorded when the list was built,
        whether the list holds the word or not; None if it is too rare to be known."""
        code = self._code(word)
        if code is None or code % KIND_STEP == 0:
            return None
        return (code % KIND_STEP) / 100

    def entries(self) -> Iterator[tuple[str, Kind]]:
        """Every entry of the list with its kind (not the frequency-only ones)."""
        for word, code in self._table.items():
            if code // KIND_STEP != UNLISTED:
                yield word, Kind(code // KIND_STEP)

    def word_count(self) -> int:
        """How many legal words the list holds, counted from the stored numbers alone."""
        low = Kind.WORD * KIND_STEP
        return sum(1 for code in self._table.codes() if low <= code < low + KIND_STEP)

    def words(self) -> Iterator[str]:
        """Every legal word of the list."""
        return (w for w, code in self._table.items() if code // KIND_STEP == Kind.WORD)

    def anagrams(self, word: str) -> tuple[str, ...]:
        """The legal words made of the letters of ``word`` in any order (``word`` too, if
        it is one), in sorted order: what stands in for a banned house word in the
        best-play index (``house``). The last few thousand asked are kept."""
        return self._anagrams("".join(sorted(word.strip().lower())))

    def _made_of(self, letters: str) -> tuple[str, ...]:
        table = self._table.anagrams(letters)
        return tuple(w for w, code in table if code // KIND_STEP == Kind.WORD)

    def close_words(self, word: str, limit: int = 3) -> list[str]:
        """Up to ``limit`` legal words close to ``word``, nearest and then most common first.

        Every word one edit away (a letter left out, added, changed, or two swapped)
        is found, and, for words of three letters or more, every word two edits away
        that keeps the first letter, where people rarely slip. The edits at the first
        letter are looked up one by one; the rest is one pass of a C++ edit distance
        over the words of that first letter and about that length. So a long
        non-word costs a few milliseconds, not the hundred thousand lookups of every
        string two edits away.
        """
        key = word.strip().lower()
        if not (key.isascii() and key.isalpha()) or len(key) > LONGEST:
            return []
        most = 1 if len(key) < 3 else 2
        near: dict[str, int] = {w: 1 for w in _first_letter_edits(key) if self._is_word(w)}
        words, sizes = self._near(key[0])
        choices = [w for w, n in zip(words, sizes, strict=True) if abs(n - len(key)) <= most]
        for found, distance, _ in extract(
            key, choices, scorer=OSA.distance, score_cutoff=most, limit=None
        ):
            near[found] = min(distance, near.get(found, most))
        near.pop(key, None)
        ranked = sorted(near, key=lambda w: (near[w], -(self.frequency(w) or 0), w))
        return ranked[:limit]

    def _is_word(self, word: str) -> bool:
        code = self._table.get(word)
        return code is not None and code // KIND_STEP == Kind.WORD

    def _starting_with(self, letter: str) -> tuple[list[str], list[int]]:
        """The legal words that start with ``letter``, and their lengths."""
        words = [w for w, c in self._table.starting_with(letter) if c // KIND_STEP == Kind.WORD]
        return words, [len(w) for w in words]


def _first_letter_edits(word: str) -> set[str]:
    """The strings one edit away from ``word`` that change its first letter."""
    out = {word[1:], *(c + word for c in ascii_lowercase)}
    out.update(c + word[1:] for c in ascii_lowercase)
    if len(word) > 1:
        out.add(word[1] + word[0] + word[2:])
    out.discard("")
    return out
