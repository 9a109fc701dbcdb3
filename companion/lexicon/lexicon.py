"""A loaded lexicon: verdicts with reasons, frequencies, and close words."""

from __future__ import annotations

from collections.abc import Iterator
from string import ascii_lowercase

from companion.game.challenges import Verdict
from companion.lexicon.cache import KIND_STEP
from companion.lexicon.reasons import KIND_REASON, Kind, Reason

_VERDICTS = {kind: Verdict(kind is Kind.WORD, str(reason)) for kind, reason in KIND_REASON.items()}
NOT_IN_DICTIONARY = Verdict(False, str(Reason.NOT_IN_DICTIONARY))
NOT_LETTERS = Verdict(False, str(Reason.NOT_LETTERS))
TOO_SHORT = Verdict(False, str(Reason.TOO_SHORT))

COMMON, RARE = 4.0, 2.5
"""Zipf thresholds: 4 and up is about once per 100,000 words of running English."""


def frequency_band(zipf: float | None) -> str:
    """How a page shows a frequency: common, uncommon or rare. It never decides legality."""
    if zipf is None or zipf < RARE:
        return "rare"
    return "common" if zipf >= COMMON else "uncommon"


class Lexicon:
    """One word list, loaded: ``{word: kind * 1000 + Zipf * 100}``."""

    def __init__(self, name: str, title: str, entries: dict[str, int]) -> None:
        self.name = name
        self.title = title
        self._entries = entries

    def __len__(self) -> int:
        return sum(1 for _ in self.words())

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and self.verdict(word).legal

    def verdict(self, word: str) -> Verdict:
        """Legal or not, and why. Case is ignored; the word is the letters on the cards."""
        key = word.strip().lower()
        if not (key.isascii() and key.isalpha()):
            return NOT_LETTERS
        if len(key) < 2:
            return TOO_SHORT
        code = self._entries.get(key)
        if code is None:
            return NOT_IN_DICTIONARY
        return _VERDICTS[Kind(code // KIND_STEP)]

    def kind(self, word: str) -> Kind | None:
        """What the list holds ``word`` as, if anything."""
        code = self._entries.get(word.strip().lower())
        return None if code is None else Kind(code // KIND_STEP)

    def frequency(self, word: str) -> float | None:
        """The Zipf frequency recorded for ``word`` when the list was built, if known."""
        code = self._entries.get(word.strip().lower())
        if code is None or code % KIND_STEP == 0:
            return None
        return (code % KIND_STEP) / 100

    def words(self) -> Iterator[str]:
        """Every legal word of the list."""
        lowest, highest = Kind.WORD * KIND_STEP, (Kind.WORD + 1) * KIND_STEP
        return (w for w, code in self._entries.items() if lowest <= code < highest)

    def close_words(self, word: str, limit: int = 3) -> list[str]:
        """Up to ``limit`` legal words one edit away (two for short lists), most common first."""
        key = word.strip().lower()
        if not (key.isascii() and key.isalpha()) or len(key) > 20:
            return []
        near = _edits(key)
        found = self._most_common({w for w in near if w != key and w in self})
        if len(found) < limit and len(key) <= 10:
            far = {w for e in near for w in _edits(e) if w != key and w in self}
            found += self._most_common(far - set(found))
        return found[:limit]

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
