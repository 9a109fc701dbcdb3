"""A game's house words over the shared best-play index, without a copy of it.

Every game of a lexicon reads the one best-play index of that lexicon (``packed``); a
game with house words reads it through a ``HouseIndex``, which holds only what those
words change:

- an allowed word's card multisets that the lexicon has no word for, with that word;
- each multiset whose word in the index is a banned word, with the word that stands in
  for it: the first, in alphabetical order, of the lexicon's other words with the same
  cards (ban ``cat`` and ``act`` still stands), else the first allowed house word with
  them, else none (the multiset is no word any more).

So the memory a game costs is a few entries per house word, and a page of it costs
what its own house words cost, however many other games there are. The word that
stands in for a banned one is looked for only when a hand holds its cards (the
solver asks for the multiset), so a ban costs nothing until then.

The answers are those of the index with the house words put in and taken out (what the
app built before, a copy of the whole index per game); where two allowed house words
share cards the lexicon has no word for, the first in alphabetical order is shown.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, KeysView, Mapping, Sequence

from companion.game.solver import build_index

_OURS = object()
"""What ``dict.get`` gives for a multiset the house words don't change."""
_PENDING = ""
"""A banned word's multiset whose stand-in is not looked for yet (no word is empty)."""


class HouseIndex(Mapping[str, str]):
    """``{card multiset key: word}``: the shared index ``base`` as a game's house words
    change it. ``anagrams(word)`` gives the lexicon's words made of the same letters, in
    alphabetical order (``Lexicon.anagrams``)."""

    __slots__ = ("__weakref__", "_anagrams", "_banned", "_base", "_changed", "_fills", "_from")

    def __init__(
        self,
        base: Mapping[str, str],
        house_words: Mapping[str, bool],
        anagrams: Callable[[str], Sequence[str]],
    ) -> None:
        self._base = base
        self._anagrams = anagrams
        self._banned = frozenset(w for w, allowed in house_words.items() if not allowed)
        self._changed: dict[str, str | None] = {}
        self._from: dict[str, str] = {}  # a pending multiset: the banned word it was
        self._fills: dict[str, str] = {}  # a pending multiset: the allowed word, if none other
        for word in sorted(self._banned):
            for key in build_index([word]):
                if key not in self._changed and base.get(key) in self._banned:
                    self._changed[key], self._from[key] = _PENDING, word
        for word in sorted(w for w, allowed in house_words.items() if allowed):
            for key in build_index([word]):
                if self._changed.get(key) == _PENDING:
                    self._fills.setdefault(key, word)
                elif key not in self._changed and key not in base:
                    self._changed[key] = word

    @property
    def base(self) -> Mapping[str, str]:
        """The shared index underneath."""
        return self._base

    @property
    def changes(self) -> int:
        """How many multisets the house words change (what this game holds of its own)."""
        return len(self._changed)

    def _word(self, key: str) -> str | None:
        """The word of a multiset the house words change (``None``: no word)."""
        word = self._changed[key]
        if word == _PENDING:
            word = self._stand_in(key)
            self._changed[key] = word
        return word

    def _stand_in(self, key: str) -> str | None:
        """The word that stands in for a banned one: another of the lexicon with the same
        cards, else an allowed house word with them, else none."""
        for word in self._anagrams(self._from[key]):
            if word not in self._banned and key in build_index([word]):
                return word
        return self._fills.get(key)

    def __getitem__(self, key: str) -> str:
        if key in self._changed:
            word = self._word(key)
            if word is None:
                raise KeyError(key)
            return word
        return self._base[key]

    def __contains__(self, key: object) -> bool:
        return key in self.keys()

    def __iter__(self) -> Iterator[str]:
        changed = {key: self._word(key) for key in list(self._changed)}
        yield from (key for key in self._base if key not in changed)
        yield from (key for key, word in changed.items() if word is not None)

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def keys(self) -> KeysView[str]:
        """The keys, as a set-like view: what the solver tests each sub-multiset of a
        hand against (the shared index's own test where the house words change nothing)."""
        return _Keys(self)


class _Keys(KeysView[str]):
    """The keys of a ``HouseIndex``."""

    _mapping: HouseIndex

    def __init__(self, mapping: HouseIndex) -> None:
        super().__init__(mapping)
        self._changed = mapping._changed
        self._base_keys = mapping._base.keys()

    def __contains__(self, key: object) -> bool:
        word = self._changed.get(key, _OURS)  # type: ignore[call-overload]
        if word is _OURS:
            return key in self._base_keys
        if word == _PENDING:
            word = self._mapping._word(key)  # type: ignore[arg-type]
        return word is not None
