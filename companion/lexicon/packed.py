"""The best-play index on disk, in a form a fresh process loads in milliseconds.

The index maps each card multiset key to a word (``companion.game.solver.build_index``).
Layout: a magic line, one JSON header line (the build key, the sizes, the CRC-32 of
the body and a ``witness``), then the body, in three parts:

- a marisa-trie of the keys (``marisa-trie``, C++), which numbers them;
- their words in the trie's numbering, each followed by a newline;
- where each word starts (``count + 1`` unsigned 32-bit numbers).

So a key is found by one walk of the trie in C++, about a microsecond: the solver
asks as fast as it did a ``dict`` of the keys, which the app no longer makes (it cost
a worker about 90 ms and 25 MiB). Loading reads the file and checks its CRC; the
trie and the words are read where they lie in its bytes: no copy, no object per key
or word.

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

import marisa_trie

from companion.lexicon import framed

MAGIC = b"quiddler-solver-index 2\n"


class Stale(Exception):
    """The index file is missing, stale or corrupt; rebuild it."""


def index_path(cache_folder: Path, name: str) -> Path:
    """Where the best-play index of lexicon ``name`` is kept."""
    return cache_folder / f"{name}.idx"


class PackedIndex(Mapping[str, str]):
    """``{card multiset key: word}`` as read from its file, each word decoded when asked.

    A key (ASCII: the cards' codes) is looked up in the trie. ``items()`` decodes every
    word in one go, to copy the whole index (``dict(index.items())``).
    """

    __slots__ = ("__weakref__", "_trie", "_word_at", "_words")

    def __init__(self, parts: _Parts) -> None:
        self._trie, self._words, self._word_at = parts

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and key.isascii() and key in self._trie

    def __getitem__(self, key: str) -> str:
        # (marisa's get() would look up what comes before a NUL; ``in`` would not)
        number = self._trie.get(key) if key in self else None
        if number is None:
            raise KeyError(key)
        return str(self._words[self._word_at[number] : self._word_at[number + 1] - 1], "utf-8")

    def __iter__(self) -> Iterator[str]:
        keys: Iterator[str] = self._trie.iterkeys()
        return keys

    def __len__(self) -> int:
        return len(self._trie)

    def keys(self) -> KeysView[str]:
        """The keys, as a set-like view: what the solver tests each sub-multiset of a
        hand against."""
        return _Keys(self)

    def items(self) -> _Items:
        return _Items(self)

    def words(self) -> list[str]:
        """Every word, in the order of the sorted keys."""
        by_number = str(self._words, "utf-8").split("\n")
        return [by_number[number] for _, number in self._trie.iteritems()]


_Parts = tuple[marisa_trie.Trie, memoryview, Sequence[int]]


class _Keys(KeysView[str]):
    """The keys of a ``PackedIndex``, each looked up in its trie."""

    _mapping: PackedIndex

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and key.isascii() and key in self._mapping._trie


class _Items(ItemsView[str, str]):
    """The pairs of a ``PackedIndex``, every word decoded in one go."""

    _mapping: PackedIndex

    def __iter__(self) -> Iterator[tuple[str, str]]:
        index = self._mapping
        return zip(index._trie.iterkeys(), index.words(), strict=True)


def write(path: Path, key: str, index: Mapping[str, str], vouch: bool = False) -> None:
    """Store ``index`` under ``key`` atomically; with ``vouch``, with this process's
    witness (for a built-in list only: a group's list can change with no witness)."""
    trie = marisa_trie.Trie(index, order=marisa_trie.LABEL_ORDER)
    words: list[bytes] = [b""] * len(trie)
    for k, number in trie.iteritems():
        words[number] = index[k].encode("utf-8") + b"\n"
    word_at = array("I", [0])
    for word in words:
        word_at.append(word_at[-1] + len(word))
    if sys.byteorder != "little":
        word_at.byteswap()
    trie_bytes, words_block = trie.tobytes(), b"".join(words)
    sizes = {"count": len(trie), "trie_bytes": len(trie_bytes), "word_bytes": len(words_block)}
    _write(path, {"key": key, **sizes}, trie_bytes + words_block + word_at.tobytes(), vouch)


def read(path: Path, key: str, vouch: bool = False) -> PackedIndex:
    """The index stored at ``path``, if it was built under ``key`` and is intact.

    With ``vouch``, the file is written again with this process's witness if it holds
    another, so that ``read_current`` trusts it from now on (not if the folder is
    read-only: the command line then asks the store, as before)."""
    header, body = _read(path)
    if header.get("key") != key:
        raise Stale("built from other sources")
    index = PackedIndex(_parts(header, body))
    if vouch and header.get("witness") != witness():
        with contextlib.suppress(OSError):
            _write(path, header, bytes(body), vouch)
    return index


def read_current(path: Path, key: str | None = None) -> PackedIndex | None:
    """The index stored at ``path`` if it is intact and its witness is this process's:
    no package or lexicon code changed since the store last checked it with its key
    (and, if ``key`` is given, built under that key). ``None`` otherwise: ask the store
    (``LexiconStore.solver_index``)."""
    try:
        header, body = _read(path)
        if header.get("witness") != witness() or key not in (None, header.get("key")):
            return None
        return PackedIndex(_parts(header, body))
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
    sizes = [header.get(f) for f in ("count", "trie_bytes", "word_bytes")]
    numbers = [n for n in sizes if isinstance(n, int) and not isinstance(n, bool) and n >= 0]
    if len(numbers) != len(sizes):
        raise Stale("corrupt: no sizes")
    count, trie_bytes, word_bytes = numbers
    if len(body) != trie_bytes + word_bytes + 4 * (count + 1):
        raise Stale("corrupt: sizes differ")
    trie = marisa_trie.Trie()
    try:
        trie.map(body[:trie_bytes])  # read in place: the index keeps ``words``, of the same bytes
    except Exception:  # marisa's own errors: not a trie
        raise Stale("corrupt: not a trie") from None
    words = body[trie_bytes : trie_bytes + word_bytes]  # a view: nothing copied
    word_at: Sequence[int]
    if sys.byteorder == "little":
        word_at = body[trie_bytes + word_bytes :].cast("I")
    else:
        word_at = array("I", bytes(body[trie_bytes + word_bytes :]))
        word_at.byteswap()
    if len(trie) != count or word_at[0] != 0 or word_at[-1] != word_bytes:
        raise Stale("corrupt: counts differ")
    return trie, words, word_at


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
