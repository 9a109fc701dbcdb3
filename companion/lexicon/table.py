"""A read-only sorted word table kept as three flat buffers, searched in place.

A built lexicon holds a quarter of a million words. As a ``dict`` that is tens
of megabytes of string objects and a second or so of construction; here it is
the words' bytes joined by newlines, one 32-bit offset per word and one 16-bit
code per word, which load with one read and are searched by bisection. A
lookup costs a few microseconds; nothing is built per word until asked for.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Iterator
from itertools import accumulate


class WordTable:
    """``{word: code}`` for sorted ASCII words, without a dict."""

    __slots__ = ("__weakref__", "_blob", "_codes", "_starts")

    def __init__(self, blob: bytes, starts: array, codes: array) -> None:
        if len(starts) != len(codes) + 1 or (codes and starts[-1] != len(blob) + 1):
            raise ValueError("table buffers disagree")
        self._blob = blob
        self._starts = starts
        self._codes = codes

    @classmethod
    def build(cls, entries: dict[str, int]) -> WordTable:
        """The table of ``entries`` (words of ASCII letters, codes below 65,536)."""
        words = sorted(entries)
        blob = "\n".join(words).encode("ascii")
        starts = array("I", accumulate((len(w) + 1 for w in words), initial=0))
        return cls(blob, starts, array("H", map(entries.__getitem__, words)))

    def to_bytes(self) -> bytes:
        """The three buffers, little-endian, with their sizes in front."""
        starts, codes = array("I", self._starts), array("H", self._codes)
        if sys.byteorder != "little":
            starts.byteswap()
            codes.byteswap()
        return (
            len(self._blob).to_bytes(8, "little")
            + len(self._codes).to_bytes(8, "little")
            + self._blob
            + starts.tobytes()
            + codes.tobytes()
        )

    @classmethod
    def from_bytes(cls, data: bytes | memoryview) -> WordTable:
        """The table ``to_bytes`` wrote; ValueError if the sizes don't add up."""
        size = int.from_bytes(data[:8], "little")
        count = int.from_bytes(data[8:16], "little")
        end_blob = 16 + size
        end_starts = end_blob + 4 * (count + 1)
        if len(data) != end_starts + 2 * count:
            raise ValueError("table sizes disagree")
        starts, codes = array("I"), array("H")
        starts.frombytes(data[end_blob:end_starts])
        codes.frombytes(data[end_starts:])
        if sys.byteorder != "little":
            starts.byteswap()
            codes.byteswap()
        return cls(bytes(data[16:end_blob]), starts, codes)

    def __len__(self) -> int:
        return len(self._codes)

    def __eq__(self, other: object) -> bool:
        """Equal to a table or a mapping that holds the same words with the same codes."""
        if isinstance(other, WordTable):
            return (self._blob, self._codes) == (other._blob, other._codes)
        if isinstance(other, dict):
            return len(other) == len(self) and all(other.get(w) == c for w, c in self.items())
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def _word(self, i: int) -> bytes:
        return self._blob[self._starts[i] : self._starts[i + 1] - 1]

    def _left(self, key: bytes) -> int:
        """The index of the first word not below ``key``."""
        lo, hi = 0, len(self._codes)
        word = self._word
        while lo < hi:
            mid = (lo + hi) // 2
            if word(mid) < key:
                lo = mid + 1
            else:
                hi = mid
        return lo

    def get(self, word: str) -> int | None:
        """The code of ``word``, or None if the table doesn't hold it."""
        try:
            key = word.encode("ascii")
        except UnicodeEncodeError:
            return None
        i = self._left(key)
        if i < len(self._codes) and self._word(i) == key:
            return self._codes[i]
        return None

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and self.get(word) is not None

    def items(self) -> Iterator[tuple[str, int]]:
        """Every ``(word, code)``, in sorted order."""
        if not self._codes:
            return iter(())
        return zip(self._blob.decode("ascii").split("\n"), self._codes, strict=True)

    def starting_with(self, prefix: str) -> list[tuple[str, int]]:
        """The ``(word, code)`` pairs whose word starts with ``prefix``, in sorted order."""
        key = prefix.encode("ascii")
        lo = self._left(key)
        hi = self._left(key + b"\x7f")
        if lo >= hi:
            return []
        text = self._blob[self._starts[lo] : self._starts[hi] - 1].decode("ascii")
        return list(zip(text.split("\n"), self._codes[lo:hi], strict=True))
