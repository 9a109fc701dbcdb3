"""The frame every cache file of the lexicons shares: a magic line, a JSON header, a body.

Writing goes to a temporary file that is renamed over the old one, so a reader
never sees half a file; reading checks the magic and that the header is a JSON
object, and leaves the checksums and keys to the caller (the lexicon cache
checks SHA-256 and its key, the best-play index CRC-32 and its witness).
"""

from __future__ import annotations

import json
import mmap
import os
from pathlib import Path


def write(path: Path, magic: bytes, header: dict[str, object], body: bytes) -> None:
    """Write ``magic``, ``header`` and ``body`` to ``path`` atomically."""
    import tempfile  # only to write: loading needs none of it

    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(magic + json.dumps(header).encode() + b"\n" + body)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def read(
    path: Path, magic: bytes, refuse: type[Exception], limit: int = 65536
) -> tuple[dict[str, object], memoryview]:
    """The header and body at ``path``; ``refuse`` (the caller's exception) with the
    reason when the file is missing, not of this kind, or its header is unreadable."""
    try:
        data = _read_whole(path)
    except OSError as exc:
        raise refuse(f"cannot read {path.name}: {exc.strerror}") from None
    if data[: len(magic)] != magic:
        raise refuse(f"not a {magic.decode(errors='replace').split(' ')[0]} file")
    end = data.find(b"\n", len(magic), len(magic) + limit)
    if end < 0:
        raise refuse("no header")
    try:
        header = json.loads(data[len(magic) : end])
    except (ValueError, RecursionError) as exc:
        raise refuse(f"unreadable: {exc}") from None
    if not isinstance(header, dict):
        raise refuse("unreadable: the header is not an object")
    return header, memoryview(data).toreadonly()[end + 1 :]


MAPPED_BYTES = 8 * 1024 * 1024
"""A file this big or bigger is read into a mapping of its own (a group's big list)."""


def _read_whole(path: Path) -> mmap.mmap | bytes:
    """The bytes of the file at ``path``; a big one in a mapping of its own (anonymous
    memory, not the file's).

    A big list's table or index then gives its memory back to the system whole when it
    is dropped, where ``bytes`` of tens of megabytes would stay in the allocator's heap
    (glibc raises its mmap threshold to the size of each big block freed, up to 32 MiB):
    each edit of a group's 20 MiB list grew the process by about 30 MiB. A small file
    is read as ``bytes``, which a process that has read others before reads faster."""
    with path.open("rb") as file:
        size = os.fstat(file.fileno()).st_size
        if size < MAPPED_BYTES:
            return file.read()
        data = _anonymous(size)
        if file.readinto(data) != size:
            raise OSError(0, "the file changed while it was read")
        return data


def _anonymous(size: int) -> mmap.mmap:
    """``size`` bytes of anonymous memory, mapped for this alone (on Linux, its pages made
    at once rather than one fault at a time)."""
    if hasattr(mmap, "MAP_ANONYMOUS"):
        flags = mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | getattr(mmap, "MAP_POPULATE", 0)
        return mmap.mmap(-1, size, flags=flags)
    return mmap.mmap(-1, size)  # Windows: anonymous already
