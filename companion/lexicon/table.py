"""A read-only ``{word: code}`` table: a marisa-trie of the words and one code per word.

A built lexicon holds a third of a million words. As a ``dict`` that is tens of
megabytes of string objects and a second or so of construction. Here the words are
a MARISA trie (``marisa-trie``, C++), which holds them in about 0.9 MiB and looks
one up in a couple of microseconds; the trie numbers its words, and the codes are an
array of unsigned 16-bit numbers in that order. Nothing is built per word until asked
for. The trie is made in label order, so its words come out sorted. Loaded from a
cache file, the trie and the codes are read in place from the file's bytes.
"""

from __future__ import annotations

import sys
from array import array
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import islice

import marisa_trie

FEW = 16
"""Words under a prefix that an anagram search reads and checks rather than walks."""


class WordTable:
    """``{word: code}`` for words (codes below 65,536), in a trie and an array."""

    __slots__ = ("__weakref__", "_body", "_codes", "_trie")

    def __init__(
        self, trie: marisa_trie.Trie, codes: Sequence[int], body: memoryview | None = None
    ) -> None:
        if len(codes) != len(trie):
            raise ValueError("table sizes disagree")
        self._trie = trie
        self._codes = codes
        self._body = body  # the bytes a loaded trie reads in place: kept while it lives

    @classmethod
    def build(cls, entries: dict[str, int]) -> WordTable:
        """The table of ``entries``."""
        trie = marisa_trie.Trie(entries, order=marisa_trie.LABEL_ORDER)
        numbers = list(map(trie.key_id, entries))  # each word's number, in entries' order
        values = list(entries.values())
        in_order = sorted(range(len(numbers)), key=numbers.__getitem__)
        return cls(trie, array("H", map(values.__getitem__, in_order)))

    def to_bytes(self) -> bytes:
        """The trie's bytes with their size in front, then the codes, little-endian."""
        trie: bytes = self._trie.tobytes()
        codes = array("H", self._codes)
        if sys.byteorder != "little":
            codes.byteswap()
        return len(trie).to_bytes(8, "little") + trie + codes.tobytes()

    @classmethod
    def from_bytes(cls, body: bytes | memoryview) -> WordTable:
        """The table ``to_bytes`` wrote, read in place: the trie and the codes are views
        of ``body``'s bytes (copied first only if they could change); ValueError if it
        is not a table. No copy, so a list's memory is its file's, given back whole."""
        view = memoryview(body)
        if not view.readonly:
            view = memoryview(bytes(view))
        size = int.from_bytes(view[:8], "little")
        if len(view) < 8 + size or (len(view) - 8 - size) % 2:
            raise ValueError("table sizes disagree")
        trie = marisa_trie.Trie()
        try:
            trie.map(view[8 : 8 + size])
        except Exception as exc:  # marisa's own errors: a damaged trie
            raise ValueError(f"not a trie: {exc}") from None
        codes: Sequence[int] = view[8 + size :].cast("H")
        if sys.byteorder != "little":
            swapped = array("H", bytes(view[8 + size :]))
            swapped.byteswap()
            codes = swapped
        return cls(trie, codes, view)

    def __len__(self) -> int:
        return len(self._codes)

    def codes(self) -> Sequence[int]:
        """Every entry's stored number, in the trie's order (no word read)."""
        return self._codes

    def __eq__(self, other: object) -> bool:
        """Equal to a table or a mapping that holds the same words with the same codes."""
        if isinstance(other, WordTable | dict):
            return len(other) == len(self) and all(other.get(w) == c for w, c in self.items())
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def get(self, word: str) -> int | None:
        """The code of ``word``, or None if the table doesn't hold it."""
        if "\0" in word:  # marisa's get() would look up what comes before it
            return None
        try:
            number = self._trie.get(word)
        except UnicodeEncodeError:  # a lone surrogate: no word of a list
            return None
        return None if number is None else self._codes[number]

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and self.get(word) is not None

    def items(self) -> Iterator[tuple[str, int]]:
        """Every ``(word, code)``, in sorted order."""
        return self._pairs("")

    def starting_with(self, prefix: str) -> list[tuple[str, int]]:
        """The ``(word, code)`` pairs whose word starts with ``prefix``, in sorted order."""
        return list(self._pairs(prefix))

    def anagrams(self, letters: str) -> list[tuple[str, int]]:
        """The ``(word, code)`` pairs whose word is made of exactly ``letters`` in any
        order, in sorted order.

        A walk of the trie along the prefixes some word has, spending the letters: where a
        prefix has only a few words under it, those are read and checked instead of
        walked further. So a word's anagrams cost well under a millisecond for most words
        and tens of milliseconds for the longest, never a pass over the whole table."""
        if not (letters.isascii() and letters.isalpha()):
            return []
        left, size, wanted = Counter(letters), len(letters), sorted(letters)
        trie = self._trie
        found: list[str] = []

        def walk(prefix: str) -> None:
            under = list(islice(trie.iterkeys(prefix), FEW))
            if len(under) < FEW:
                found.extend(w for w in under if len(w) == size and sorted(w) == wanted)
            elif len(prefix) == size:
                if prefix in trie:
                    found.append(prefix)
            else:
                for letter in sorted(left):
                    if left[letter]:
                        left[letter] -= 1
                        walk(prefix + letter)
                        left[letter] += 1

        walk("")
        codes = self._codes
        return [(word, codes[trie[word]]) for word in sorted(found)]

    def _pairs(self, prefix: str) -> Iterator[tuple[str, int]]:
        codes = self._codes
        return ((word, codes[number]) for word, number in self._trie.iteritems(prefix))
