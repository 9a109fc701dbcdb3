"""The best-play index on disk, in a form a fresh process loads in milliseconds.

The index maps each card multiset key to a word (``companion.game.solver.build_index``).
Layout: a magic line, one JSON header line (the build key, the count, the SHA-256 of
the body and a ``witness``), then the body: the sorted keys joined by newlines, their
words in the same order joined by newlines, and the offset of each word (unsigned
32-bit, little-endian). Loading it is one read, one hash, one split of the keys and
one ``frozenset``: the words stay bytes until one is asked for, by a binary search.

A file whose key differs or whose hash does not match is refused (``Stale``) and the
store rebuilds it. Files are written to a temporary name and renamed, so a reader
never sees half a file.

The key names the sources' package versions, and finding those (``importlib.metadata``,
and the modules that build the lists) costs a fresh process far more than the load.
So the header also keeps a ``witness``: a digest of the stat of the lexicon code and of
each folder on ``sys.path`` that holds installed distributions. While the witness is
unchanged, no package was installed, removed or upgraded and no lexicon code was
edited, so the key the store would compute is the one the file was checked against:
``read_current`` trusts it without the key. That holds for a built-in list, whose key
is made of code and package versions only; the store refreshes the witness whenever it
checks a file with the key (``vouch``).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
from array import array
from bisect import bisect_left
from collections.abc import ItemsView, Iterator, Mapping
from pathlib import Path

MAGIC = b"quiddler-solver-index 1\n"


class Stale(Exception):
    """The index file is missing, stale or corrupt; rebuild it."""


def index_path(cache_folder: Path, name: str) -> Path:
    """Where the best-play index of lexicon ``name`` is kept."""
    return cache_folder / f"{name}.idx"


class PackedIndex(Mapping[str, str]):
    """``{card multiset key: word}`` read from its file, the words decoded when asked.

    ``key in index`` and ``index.keys()`` are a ``frozenset`` (as fast as a dict's);
    ``index[key]`` is a binary search in the sorted keys. ``items()`` decodes every word
    once, for copying the whole index (``dict(index.items())``).
    """

    __slots__ = ("_keys", "_sorted", "_starts", "_words")

    def __init__(self, keys: list[str], words: bytes, starts: array[int]) -> None:
        self._sorted = keys
        self._keys = frozenset(keys)
        self._words = words
        self._starts = starts

    def __contains__(self, key: object) -> bool:
        return key in self._keys

    def __getitem__(self, key: str) -> str:
        if key not in self._keys:
            raise KeyError(key)
        i = bisect_left(self._sorted, key)
        return self._words[self._starts[i] : self._starts[i + 1] - 1].decode("utf-8")

    def __iter__(self) -> Iterator[str]:
        return iter(self._sorted)

    def __len__(self) -> int:
        return len(self._sorted)

    def keys(self) -> frozenset[str]:  # type: ignore[override]
        """The keys, as a set: what the solver tests each sub-multiset of a hand against."""
        return self._keys

    def items(self) -> _Items:  # type: ignore[override]
        return _Items(self)

    def words(self) -> list[str]:
        """Every word, in the order of the sorted keys."""
        return self._words.decode("utf-8").split("\n")[:-1] if self._sorted else []


class _Items(ItemsView[str, str]):
    """The pairs of a ``PackedIndex``, every word decoded in one go."""

    _mapping: PackedIndex

    def __iter__(self) -> Iterator[tuple[str, str]]:
        return zip(self._mapping._sorted, self._mapping.words(), strict=True)


def write(path: Path, key: str, index: Mapping[str, str], vouch: bool = False) -> None:
    """Store ``index`` under ``key`` atomically; with ``vouch``, with this process's
    witness (for a built-in list only: a group's list can change with no witness)."""
    keys = sorted(index)
    words = [index[k].encode("utf-8") + b"\n" for k in keys]
    starts = array("I", [0])
    for word in words:
        starts.append(starts[-1] + len(word))
    if sys.byteorder != "little":
        starts.byteswap()
    keys_block, words_block = "\n".join(keys).encode("ascii"), b"".join(words)
    sizes = {"count": len(keys), "key_bytes": len(keys_block), "word_bytes": len(words_block)}
    body = keys_block + words_block + starts.tobytes()
    _write(path, {"key": key, **sizes}, body, vouch)


def read(path: Path, key: str, vouch: bool = False) -> PackedIndex:
    """The index stored at ``path``, if it was built under ``key`` and is intact.

    With ``vouch``, the file is written again with this process's witness if it holds
    another, so that ``read_current`` trusts it from now on (not if the folder is
    read-only: the command line then asks the store, as before)."""
    header, body = _read(path)
    if header.get("key") != key:
        raise Stale("built from other sources")
    index = _index(header, body)
    if vouch and header.get("witness") != witness():
        with contextlib.suppress(OSError):
            _write(path, header, bytes(body), vouch)
    return index


def read_current(path: Path) -> PackedIndex | None:
    """The index stored at ``path`` if it is intact and its witness is this process's:
    no package or lexicon code changed since the store last checked it with its key.
    ``None`` otherwise: ask the store (``LexiconStore.solver_index``)."""
    try:
        header, body = _read(path)
        if header.get("witness") != witness():
            return None
        return _index(header, body)
    except Stale:
        return None


def witness() -> str:
    """A digest of what a built-in list's key is made of, by stat alone: the files of the
    lexicon code, and each folder of ``sys.path`` that holds distributions (installing,
    removing or upgrading a package changes its folder). No folder of code only (a
    checkout, the standard library) is in it, so every way of starting the Companion
    from one installation agrees."""
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
    return hashlib.sha256("\n".join(parts).encode("utf-8", "surrogateescape")).hexdigest()


def _index(header: dict[str, object], body: memoryview) -> PackedIndex:
    count, key_bytes, word_bytes = (header.get(f) for f in ("count", "key_bytes", "word_bytes"))
    if not (isinstance(count, int) and isinstance(key_bytes, int) and isinstance(word_bytes, int)):
        raise Stale("corrupt: no sizes")
    if min(count, key_bytes, word_bytes) < 0 or key_bytes + word_bytes + 4 * (count + 1) != len(
        body
    ):
        raise Stale("corrupt: sizes differ")
    try:
        keys = bytes(body[:key_bytes]).decode("ascii").split("\n") if count else []
    except UnicodeDecodeError as exc:
        raise Stale(f"unreadable: {exc}") from None
    starts = array("I")
    starts.frombytes(body[key_bytes + word_bytes :])
    if sys.byteorder != "little":
        starts.byteswap()
    if len(keys) != count or starts[0] != 0 or starts[-1] != word_bytes:
        raise Stale("corrupt: counts differ")
    return PackedIndex(keys, bytes(body[key_bytes : key_bytes + word_bytes]), starts)


def _write(path: Path, header: dict[str, object], body: bytes, vouch: bool) -> None:
    """Write ``body`` with its header (its checksum, and the witness if ``vouch``) to a
    temporary file, then rename it over ``path``."""
    import tempfile  # only to write: loading needs none of it

    checks = {"sha256": hashlib.sha256(body).hexdigest(), "witness": witness() if vouch else None}
    header = {**header, **checks}
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(MAGIC + json.dumps(header).encode() + b"\n" + body)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _read(path: Path) -> tuple[dict[str, object], memoryview]:
    """The header and body of an index file, refused unless its checksum matches."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise Stale(f"cannot read {path.name}: {exc.strerror}") from None
    if not data.startswith(MAGIC):
        raise Stale("not a best-play index")
    end = data.find(b"\n", len(MAGIC), len(MAGIC) + 4096)
    if end < 0:
        raise Stale("no header")
    try:
        header = json.loads(data[len(MAGIC) : end])
    except (ValueError, RecursionError) as exc:
        raise Stale(f"unreadable: {exc}") from None
    if not isinstance(header, dict):
        raise Stale("unreadable: the header is not an object")
    body = memoryview(data)[end + 1 :]
    if hashlib.sha256(body).hexdigest() != header.get("sha256"):
        raise Stale("corrupt: checksum differs")
    return header, body
