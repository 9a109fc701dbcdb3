"""The best-play index on disk, in a form a fresh process loads in milliseconds.

The index maps each card multiset key to a word (``companion.game.solver.build_index``).
Layout: a magic line, one JSON header line (the build key, the sizes, the CRC-32 of
the body and a ``witness``), then the body, in four parts:

- the sorted keys, each after a newline, and a last newline;
- their words in the same order, each followed by a newline;
- where each key and each word starts (twice ``count + 1`` unsigned 32-bit numbers);
- a hash table of the keys: ``slots`` numbers, a power of two at least twice the
  count, each 0 or a key's number plus one, placed by the CRC-32 of the key (the next
  free slot on a collision).

So a key is found by hashing it and comparing it with a slot's key or two, a
microsecond; a fresh process that solves one hand reads the file, checks its CRC and
makes nothing more (``eager=False``). The app, which solves many, also makes a ``dict`` of
the keys once, for lookups as fast as they get (the dict holds only strings and
``None``: the garbage collector skips it).

A file whose key differs or whose hash does not match is refused (``Stale``) and the
store rebuilds it. Files are written to a temporary name and renamed, so a reader
never sees half a file.

The key names the sources' package versions, and finding those (``importlib.metadata``,
and the modules that build the lists) costs a fresh process far more than the load.
So the header also keeps a ``witness``: the stat of the lexicon code and of each folder
on ``sys.path`` that holds installed distributions. While the witness is
unchanged, no package was installed, removed or upgraded and no lexicon code was
edited, so the key the store would compute is the one the file was checked against:
``read_current`` trusts it without the key. That holds for a built-in list, whose key
is made of code and package versions only; the store refreshes the witness whenever it
checks a file with the key (``vouch``).
"""

from __future__ import annotations

import contextlib
import os
import sys
from array import array
from collections.abc import ItemsView, Iterator, KeysView, Mapping, Sequence
from pathlib import Path
from zlib import crc32

from companion.lexicon import framed

MAGIC = b"quiddler-solver-index 1\n"


class Stale(Exception):
    """The index file is missing, stale or corrupt; rebuild it."""


def index_path(cache_folder: Path, name: str) -> Path:
    """Where the best-play index of lexicon ``name`` is kept."""
    return cache_folder / f"{name}.idx"


class PackedIndex(Mapping[str, str]):
    """``{card multiset key: word}`` as read from its file, each word decoded when asked.

    Eager (for the app): ``key in index`` and ``index.keys()`` are a ``dict`` of the keys,
    as fast as the solver can ask. Not eager (for one hand in a fresh process): a key is
    looked up in the file's hash table, and nothing is made at load. ``items()`` decodes
    every word in one go, to copy the whole index (``dict(index.items())``).
    """

    __slots__ = ("_block", "_count", "_key_at", "_keys", "_mask", "_slots", "_word_at", "_words")

    def __init__(self, parts: _Parts, eager: bool) -> None:
        self._block, self._words, self._key_at, self._word_at, self._slots = parts
        self._count, self._mask = len(self._key_at) - 1, len(self._slots) - 1
        self._keys: dict[str, None] | None = None
        if eager:
            self._keys = dict.fromkeys(self._decoded_keys())

    def _decoded_keys(self) -> list[str]:
        return str(self._block[1:-1], "ascii").split("\n") if self._count else []

    def _number(self, key: object) -> int:
        """The number of ``key`` in the sorted keys, or -1."""
        if not isinstance(key, str) or not key.isascii():
            return -1
        wanted = key.encode("ascii")
        block, key_at, slots, mask = self._block, self._key_at, self._slots, self._mask
        slot = crc32(wanted) & mask
        while found := slots[slot]:
            if block[key_at[found - 1] : key_at[found] - 1] == wanted:
                return found - 1
            slot = (slot + 1) & mask
        return -1

    def __contains__(self, key: object) -> bool:
        if self._keys is not None:
            return key in self._keys
        return self._number(key) >= 0

    def __getitem__(self, key: str) -> str:
        i = self._number(key)
        if i < 0:
            raise KeyError(key)
        return str(self._words[self._word_at[i] : self._word_at[i + 1] - 1], "utf-8")

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys if self._keys is not None else self._decoded_keys())

    def __len__(self) -> int:
        return self._count

    def keys(self) -> KeysView[str]:
        """The keys, as a set-like view: what the solver tests each sub-multiset of a
        hand against (a dict's own view when eager: a test in C)."""
        return self._keys.keys() if self._keys is not None else _Keys(self)

    def items(self) -> _Items:
        return _Items(self)

    def words(self) -> list[str]:
        """Every word, in the order of the sorted keys."""
        return str(self._words, "utf-8").split("\n")[:-1]


_Parts = tuple[memoryview, memoryview, Sequence[int], Sequence[int], Sequence[int]]


class _Keys(KeysView[str]):
    """The keys of a ``PackedIndex`` that is not eager, each looked up in its table."""

    _mapping: PackedIndex

    def __contains__(self, key: object) -> bool:
        return self._mapping._number(key) >= 0


class _Items(ItemsView[str, str]):
    """The pairs of a ``PackedIndex``, every word decoded in one go."""

    _mapping: PackedIndex

    def __iter__(self) -> Iterator[tuple[str, str]]:
        index = self._mapping
        return zip(index._decoded_keys(), index.words(), strict=True)


def write(path: Path, key: str, index: Mapping[str, str], vouch: bool = False) -> None:
    """Store ``index`` under ``key`` atomically; with ``vouch``, with this process's
    witness (for a built-in list only: a group's list can change with no witness)."""
    keys = sorted(index)
    if not all(k and k.isascii() and "\n" not in k for k in keys):
        raise ValueError("index keys are non-empty ASCII without newlines")
    encoded = [k.encode("ascii") for k in keys]
    words = [index[k].encode("utf-8") + b"\n" for k in keys]
    key_at, word_at = array("I", [1]), array("I", [0])
    for k, word in zip(encoded, words, strict=True):
        key_at.append(key_at[-1] + len(k) + 1)
        word_at.append(word_at[-1] + len(word))
    slots = array("I", bytes(4 * _slots_for(len(keys))))
    mask = len(slots) - 1
    for number, k in enumerate(encoded, 1):
        slot = crc32(k) & mask
        while slots[slot]:
            slot = (slot + 1) & mask
        slots[slot] = number
    tables = [key_at, word_at, slots]
    if sys.byteorder != "little":
        for table in tables:
            table.byteswap()
    block = b"\n" + b"".join(k + b"\n" for k in encoded)
    words_block = b"".join(words)
    sizes = {"count": len(keys), "key_bytes": len(block), "word_bytes": len(words_block)}
    body = block + words_block + b"".join(t.tobytes() for t in tables)
    _write(path, {"key": key, **sizes, "slots": len(slots)}, body, vouch)


def _slots_for(count: int) -> int:
    """The size of the hash table for ``count`` keys: a power of two, at most half full."""
    return 1 << max(3, (2 * count).bit_length())


def read(path: Path, key: str, vouch: bool = False, eager: bool = True) -> PackedIndex:
    """The index stored at ``path``, if it was built under ``key`` and is intact.

    With ``vouch``, the file is written again with this process's witness if it holds
    another, so that ``read_current`` trusts it from now on (not if the folder is
    read-only: the command line then asks the store, as before)."""
    header, body = _read(path)
    if header.get("key") != key:
        raise Stale("built from other sources")
    index = PackedIndex(_parts(header, body), eager)
    if vouch and header.get("witness") != witness():
        with contextlib.suppress(OSError):
            _write(path, header, bytes(body), vouch)
    return index


def read_current(path: Path, eager: bool = False, key: str | None = None) -> PackedIndex | None:
    """The index stored at ``path`` if it is intact and its witness is this process's:
    no package or lexicon code changed since the store last checked it with its key
    (and, if ``key`` is given, built under that key). ``None`` otherwise: ask the store
    (``LexiconStore.solver_index``). Not eager unless asked: for the few lookups of one
    hand."""
    try:
        header, body = _read(path)
        if header.get("witness") != witness() or key not in (None, header.get("key")):
            return None
        return PackedIndex(_parts(header, body), eager)
    except Stale:
        return None


def witness() -> str:
    """What a built-in list's key is made of, by stat alone, as text: the files of the
    lexicon code (size and time of change), and each folder of ``sys.path`` that holds
    distributions (installing, removing or upgrading a package changes its time). No
    folder of code only (a checkout, the standard library) is in it, so every way of
    starting the Companion from one installation agrees."""
    parts = []
    here = os.path.dirname(os.path.abspath(__file__))
    for name in sorted(os.listdir(here)):
        if name.endswith(".py"):
            stat = os.stat(os.path.join(here, name))
            parts.append(f"{name} {stat.st_size} {stat.st_mtime_ns}")
    seen = set()
    for entry in sys.path:
        folder = os.path.abspath(entry or ".")
        if folder in seen:
            continue
        seen.add(folder)
        try:
            names = os.listdir(folder)
        except OSError:  # a zip file, a missing folder
            continue
        if any(n.endswith((".dist-info", ".egg-info")) for n in names):
            parts.append(f"{folder} {os.stat(folder).st_mtime_ns}")
    return "\n".join(parts)


def _parts(header: dict[str, object], body: memoryview) -> _Parts:
    """The parts of an index body, checked against the sizes its header gives."""
    fields = [header.get(f) for f in ("count", "key_bytes", "word_bytes", "slots")]
    sizes = [n for n in fields if isinstance(n, int) and not isinstance(n, bool) and n >= 0]
    if len(sizes) != len(fields):
        raise Stale("corrupt: no sizes")
    count, key_bytes, word_bytes, slots = sizes
    if slots != _slots_for(count) or len(body) != key_bytes + word_bytes + 4 * (
        2 * (count + 1) + slots
    ):
        raise Stale("corrupt: sizes differ")
    # Views into the file's bytes, nothing copied (the numbers are little-endian).
    block = body[:key_bytes]
    words = body[key_bytes : key_bytes + word_bytes]
    tables: list[Sequence[int]] = []
    at = key_bytes + word_bytes
    for length in (count + 1, count + 1, slots):
        part = body[at : at + 4 * length]
        if sys.byteorder == "little":
            tables.append(part.cast("I"))
        else:
            swapped = array("I", bytes(part))
            swapped.byteswap()
            tables.append(swapped)
        at += 4 * length
    key_at, word_at, slot_table = tables
    checks = (
        bytes(block[:1]) == b"\n" and key_at[0] == 1 and key_at[-1] == key_bytes,
        word_at[0] == 0 and word_at[-1] == word_bytes,
    )
    if not all(checks):
        raise Stale("corrupt: counts differ")
    return block, words, key_at, word_at, slot_table


def _write(path: Path, header: dict[str, object], body: bytes, vouch: bool) -> None:
    """Write ``body`` with its header (its checksum, and the witness if ``vouch``),
    atomically."""
    checks = {"crc32": crc32(body), "witness": witness() if vouch else None}
    framed.write(path, MAGIC, {**header, **checks}, body)


def _read(path: Path) -> tuple[dict[str, object], memoryview]:
    """The header and body of an index file, refused unless its checksum matches."""
    header, body = framed.read(path, MAGIC, Stale)
    if crc32(body) != header.get("crc32"):
        raise Stale("corrupt: checksum differs")
    return header, body
