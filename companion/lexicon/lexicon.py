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
        self._near = lru_cache(maxsize=8)(self._starting_with)

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

    def words(self) -> Iterator[str]:
        """Every legal word of the list."""
        return (w for w, code in self._table.items() if code // KIND_STEP == Kind.WORD)

    def close_words(self, word: str, limit: int = 3) -> list[str]:
        """Up to ``limit`` legal words close to ``word``, nearest and then most common first.

        Every word one edit away (a letter left out, added, changed, or two swapped)
        is found; two edits away, only words that keep the first letter, which is
        where people rarely slip. So a long non-word costs a few milliseconds, not
        the hundred thousand lookups of every string two edits away.
        """
        key = word.strip().lower()
        if not (key.isascii() and key.isalpha()) or len(key) > LONGEST:
            return []
        one = {w for w in _edits(key) if w != key and self._is_word(w)}
        found = self._most_common(one)
        if len(found) < limit and len(key) >= 3:
            words, sizes = self._near(key[0])
            lo, hi = len(key) - 2, len(key) + 2
            choices = [w for w, n in zip(words, sizes, strict=True) if lo <= n <= hi]
            two = {
                w
                for w, _, _ in extract(
                    key, choices, scorer=OSA.distance, score_cutoff=2, limit=None
                )
            }
            found += self._most_common(two - one - {key})
        return found[:limit]

    def _is_word(self, word: str) -> bool:
        code = self._table.get(word)
        return code is not None and code // KIND_STEP == Kind.WORD

    def _starting_with(self, letter: str) -> tuple[list[str], list[int]]:
        """The legal words that start with ``letter``, and their lengths."""
        words = [w for w, c in self._table.starting_with(letter) if c // KIND_STEP == Kind.WORD]
        return words, [len(w) for w in words]

    def _most_common(self, words: set[str]) -> list[str]:
        return sorted(words, key=lambda w: (-(self.frequency(w) or 0), w))


def _edits(word: str) -> set[str]:
    """Strings one deletion, swap, replacement or insertion away from ``word``."""
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    deletes = {a + b[1:] for a, b in splits if b}
    swaps = {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
    replaces = {a + c + b[1:] for a, b in splits if b for c in ascii_lowercase}
    inserts = {a + c + b for a, b in splits for c in ascii_lowercase}
    return deletes | swaps | replaces | inserts
