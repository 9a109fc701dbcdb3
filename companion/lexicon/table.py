"""A read-only sorted word table kept as three flat buffers, searched in place.

A built lexicon holds a quarter of a million words. As a ``dict`` that is tens
of megabytes of string objects and a second or so of construction; here it is
the words' bytes joined by newlines, one 32-bit offset per word and one 16-bit
code per word, which load with one read (and no copy) and are searched by
bisection. A
lookup costs a few microseconds; nothing is built per word until asked for.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Iterator
from itertools import accumulate


class WordTable:
    """``{word: code}`` for sorted ASCII words, without a dict.

    Loaded from a cache file, the table is views into the file's one ``bytes``: no
    copy of the words, the offsets or the codes, so the memory it holds is that one
    block, given back whole when the table goes.
    """

    __slots__ = ("__weakref__", "_base", "_codes", "_data", "_size", "_starts")

    def __init__(
        self,
        data: bytes,
        starts: array[int] | memoryview[int],
        codes: array[int] | memoryview[int],
        base: int = 0,
        size: int | None = None,
    ) -> None:
        size = len(data) - base if size is None else size
        if len(starts) != len(codes) + 1 or (len(codes) and starts[-1] != size + 1):
            raise ValueError("table buffers disagree")
        self._data = data
        self._base = base
        self._size = size
        self._starts = starts
        self._codes = codes

    @classmethod
    def build(cls, entries: dict[str, int]) -> WordTable:
        """The table of ``entries`` (words of ASCII letters, codes below 65,536)."""
        words = sorted(entries)
        blob = "\n".join(words).encode("ascii")
        starts = array("I", accumulate((len(w) + 1 for w in words), initial=0))
        return cls(blob, starts, array("H", map(entries.__getitem__, words)))

    @property
    def _blob(self) -> bytes:
        return self._data[self._base : self._base + self._size]

    def to_bytes(self) -> bytes:
        """The three buffers, little-endian, with their sizes in front."""
        starts, codes = array("I", self._starts), array("H", self._codes)
        if sys.byteorder != "little":
            starts.byteswap()
            codes.byteswap()
        return (
            self._size.to_bytes(8, "little")
            + len(self._codes).to_bytes(8, "little")
            + self._blob
            + starts.tobytes()
            + codes.tobytes()
        )

    @classmethod
    def from_bytes(cls, body: bytes | memoryview) -> WordTable:
        """The table ``to_bytes`` wrote, as views into ``body`` (a ``bytes``, or a
        memoryview of the end of one); ValueError if the sizes don't add up."""
        view = memoryview(body)
        whole = view.obj if isinstance(view.obj, bytes) else b""
        offset = len(whole) - len(view)  # a view of the end of a file's bytes (framed.read)
        if offset < 0 or whole[offset : offset + 16] != view[:16]:
            whole, offset = bytes(view), 0  # any other view: one copy
        size = int.from_bytes(view[:8], "little")
        count = int.from_bytes(view[8:16], "little")
        end_blob = 16 + size
        end_starts = end_blob + 4 * (count + 1)
        if len(view) != end_starts + 2 * count:
            raise ValueError("table sizes disagree")
        if sys.byteorder == "little":
            starts: array[int] | memoryview[int] = view[end_blob:end_starts].cast("I")
            codes: array[int] | memoryview[int] = view[end_starts:].cast("H")
        else:
            starts, codes = array("I", bytes(view[end_blob:end_starts])), array("H")
            codes.frombytes(view[end_starts:])
            starts.byteswap()
            codes.byteswap()
        return cls(whole, starts, codes, base=offset + 16, size=size)

    def __len__(self) -> int:
        return len(self._codes)

    def __eq__(self, other: object) -> bool:
        """Equal to a table or a mapping that holds the same words with the same codes."""
        if isinstance(other, WordTable):
            return self._blob == other._blob and list(self._codes) == list(other._codes)
        if isinstance(other, dict):
            return len(other) == len(self) and all(other.get(w) == c for w, c in self.items())
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mypy: None can't replace object's method

    def _word(self, i: int) -> bytes:
        base = self._base
        return self._data[base + self._starts[i] : base + self._starts[i + 1] - 1]

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
        base = self._base
        text = self._data[base + self._starts[lo] : base + self._starts[hi] - 1].decode("ascii")
        return list(zip(text.split("\n"), self._codes[lo:hi], strict=True))
