"""The compact on-disk form of a built lexicon, checked before it is trusted.

Layout: a magic line, one JSON header line (the build key, the count and the
SHA-256 of the body), then the body: a ``WordTable`` (a marisa-trie of the
words, and one unsigned 16-bit number per word, ``kind * 1000 + Zipf frequency *
100``). Loading it is one read and one hash, the trie read where it lies in the
file's bytes: milliseconds, where expanding Hunspell takes seconds, no object per
word and no copy.

A file whose key differs (another package version, another list) or whose
hash does not match (a torn write, a corrupt disk) is refused, and the
caller rebuilds it. Files are written to a temporary name and renamed, so a
reader never sees half a file.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from companion.lexicon import framed
from companion.lexicon.table import WordTable

MAGIC = b"quiddler-lexicon 2\n"
KIND_STEP = 1000


class CacheInvalid(Exception):
    """The cache file is missing, stale or corrupt; rebuild it."""


def encode(kind: int, zipf: float) -> int:
    """One entry's stored number: its kind and its frequency to two decimals."""
    return kind * KIND_STEP + min(max(round(zipf * 100), 0), KIND_STEP - 1)


def write(path: Path, key: str, entries: dict[str, int]) -> None:
    """Store ``entries`` under ``key`` atomically, as a ``WordTable``."""
    table = WordTable.build(entries)
    _write(path, key, len(table), table.to_bytes())


def read(path: Path, key: str) -> WordTable:
    """The table stored at ``path``, if it was built under ``key`` and is intact."""
    header, body = _read(path, key)
    try:
        table = WordTable.from_bytes(body)
    except ValueError as exc:
        raise CacheInvalid(f"corrupt: {exc}") from None
    if len(table) != header.get("count"):
        raise CacheInvalid("corrupt: counts differ")
    return table


def _write(path: Path, key: str, count: int, body: bytes) -> None:
    """Write ``body`` with its header (key, count, SHA-256), atomically."""
    header = {"key": key, "count": count, "sha256": hashlib.sha256(body).hexdigest()}
    framed.write(path, MAGIC, header, body)


def _read(path: Path, key: str) -> tuple[dict[str, object], memoryview]:
    """The header and body of a cache file, refused unless its key and checksum match."""
    header, body = framed.read(path, MAGIC, CacheInvalid, limit=4096)
    if header.get("key") != key:
        raise CacheInvalid("built from other sources")
    if hashlib.sha256(body).hexdigest() != header.get("sha256"):
        raise CacheInvalid("corrupt: checksum differs")
    return header, body


def write_pairs(path: Path, key: str, pairs: dict[str, str]) -> None:
    """Store a ``{str: str}`` table (the solver's index) under ``key``, checked like the rest."""
    text = "\n".join(f"{k}\t{v}" for k, v in sorted(pairs.items())).encode("utf-8")
    _write(path, key, len(pairs), text)


def read_pairs(path: Path, key: str) -> dict[str, str]:
    """The table stored at ``path`` by ``write_pairs``, if built under ``key`` and intact."""
    header, body = _read(path, key)
    try:
        lines = bytes(body).decode("utf-8").split("\n") if body else []
        pairs = dict(line.split("\t", 1) for line in lines)
    except (UnicodeDecodeError, ValueError) as exc:
        raise CacheInvalid(f"unreadable: {exc}") from None
    if len(pairs) != header.get("count"):
        raise CacheInvalid("corrupt: counts differ")
    return pairs
