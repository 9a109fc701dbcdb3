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


def _read_whole(path: Path) -> mmap.mmap | bytes:
    """The bytes of the file at ``path``, in a mapping of their own (anonymous memory, not
    the file's) when there are any: a list's table or index then gives its memory back to
    the system whole when it is dropped, where ``bytes`` of tens of megabytes would leave
    it in the allocator's heap (glibc's raises its mmap threshold to the size of each
    block freed), so each edit of a group's big list grew the process."""
    with path.open("rb") as file:
        size = os.fstat(file.fileno()).st_size
        if size == 0:
            return b""
        data = mmap.mmap(-1, size)
        if file.readinto(data) != size:
            raise OSError(0, "the file changed while it was read")
        return data
