"""Finding, building and caching lexicons by name, for the app and the command line.

A store is bound to an instance folder: the group's own lists are
``lexicons/NAME.txt`` there, the caches ``lexicons/cache/NAME.lex``. Loaded
lexicons are kept for the life of the process and shared by every store that
points at the same cache file, so the app, its tests and the CLI load each
list once.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from companion.game.solver import build_index
from companion.lexicon import cache, packed, sources
from companion.lexicon.lexicon import Lexicon
from companion.lexicon.reasons import Kind

FORMAT = 2
"""Bump when the rules of classify.py or the cache layout change: every cache rebuilds."""

_loaded: dict[tuple[Path, str], Lexicon] = {}
_indexes: dict[tuple[Path, str], dict[str, str]] = {}
SOLVER_FORMAT = 2
"""Bump when the solver's index changes: every index rebuilds."""
_lock = threading.RLock()  # building broad loads standard inside the lock


class UnknownLexicon(LookupError):
    """No lexicon of that name; ``names`` lists the ones there are."""

    def __init__(self, name: str, names: list[str]) -> None:
        super().__init__(f"There is no lexicon '{name[:40]}'; choose one of: {', '.join(names)}.")
        self.names = names


@dataclass(frozen=True)
class Built:
    """What ``build`` did for one lexicon, for the command line to print."""

    name: str
    words: int
    seconds: float
    path: Path


class LexiconStore:
    """The lexicons an instance offers: standard, broad and the group's own lists."""

    def __init__(self, folder: Path, cache_folder: Path | None = None) -> None:
        self.folder = Path(folder)
        self.cache_folder = Path(cache_folder) if cache_folder else self.folder / "cache"
        self._sources: str | None = None
        self._digests: dict[Path, tuple[tuple[int, int, int], str]] = {}

    def names(self) -> list[str]:
        """Every lexicon name on offer, built-in ones first."""
        return [*sources.BUILT_IN, *sources.custom_names(self.folder)]

    def title(self, name: str) -> str:
        """A lexicon's name as pages show it."""
        return sources.BUILT_IN.get(name) or sources.OWN_TITLE.format(name=name)

    def get(self, name: str) -> Lexicon:
        """The lexicon called ``name``, loaded from its cache, built first if need be."""
        key, build = self._recipe(name)
        path = self.cache_folder / f"{name}.lex"
        with _lock:
            found = _loaded.get((path, key))
            if found is None:
                found = Lexicon(name, self.title(name), self._entries(path, key, build))
                _loaded[(path, key)] = found
            return found

    def solver_index(self, name: str) -> Mapping[str, str]:
        """The best-play index of lexicon ``name`` (card multiset -> word), cached beside it
        in the packed form (``packed``), which loads in milliseconds."""
        key, _ = self._recipe(name)
        key = f"solver {SOLVER_FORMAT}; {key}"
        path = packed.index_path(self.cache_folder, name)
        with _lock:
            found = _indexes.get((path, key))
            if found is None:
                built_in = name in sources.BUILT_IN  # its key is code and versions only
                try:
                    found = packed.read(path, key, vouch=built_in)
                except packed.Stale:
                    lexicon = self.get(name)
                    common_first = sorted(
                        lexicon.words(), key=lambda w: (-(lexicon.frequency(w) or 0), w)
                    )
                    packed.write(path, key, build_index(common_first), vouch=built_in)
                    found = packed.read(path, key)
                _indexes[(path, key)] = found
            return found

    def build(self, name: str, force: bool = False) -> Built:
        """Build (or with ``force`` rebuild) the cache of ``name`` now."""
        key, build = self._recipe(name)
        path = self.cache_folder / f"{name}.lex"
        start = time.perf_counter()
        with _lock:
            if force:
                path.unlink(missing_ok=True)
                _loaded.pop((path, key), None)
            entries = self._entries(path, key, build)
            _loaded[(path, key)] = Lexicon(name, self.title(name), entries)
        count = sum(1 for code in entries.values() if code // cache.KIND_STEP == Kind.WORD)
        return Built(name, count, time.perf_counter() - start, path)

    def _entries(
        self, path: Path, key: str, build: Callable[[], dict[str, Kind]]
    ) -> dict[str, int]:
        try:
            return cache.read(path, key)
        except cache.CacheInvalid:
            entries = with_frequencies(build())
            cache.write(path, key, entries)
            return entries

    def _recipe(self, name: str) -> tuple[str, Callable[[], dict[str, Kind]]]:
        """The cache key of ``name`` (its sources and their versions) and how to build it."""
        if self._sources is None:  # package versions can't change under a running process
            self._sources = (
                f"format {FORMAT}; spylls {sources.version('spylls')}; english-words "
                f"{sources.version('english-words')}; wordfreq {sources.version('wordfreq')}"
            )
        if name == sources.STANDARD:
            return f"standard; {self._sources}", sources.standard
        if name == sources.BROAD:
            return f"broad; {self._sources}", lambda: sources.broad(self._kinds(sources.STANDARD))
        path = sources.custom_path(self.folder, name)
        if path is None:
            raise UnknownLexicon(name, self.names())
        return f"custom {self._digest(path)}; {self._sources}", lambda: sources.custom(path)

    def _digest(self, path: Path) -> str:
        """The SHA-256 of a group's list, hashed again only when the file changes."""
        stat = path.stat()
        if stat.st_size > sources.MAX_CUSTOM_BYTES:
            raise UnknownLexicon(path.stem, self.names())
        signature = (
            stat.st_mtime_ns,
            stat.st_ctime_ns,
            stat.st_size,
        )  # ctime: no utime() hides an edit
        known = self._digests.get(path)
        if known is None or known[0] != signature:
            known = (signature, hashlib.sha256(path.read_bytes()).hexdigest())
            self._digests[path] = known
        return known[1]

    def _kinds(self, name: str) -> dict[str, Kind]:
        lexicon = self.get(name)
        return {w: k for w in lexicon._entries if (k := lexicon.kind(w)) is not None}


def with_frequencies(kinds: dict[str, Kind]) -> dict[str, int]:
    """Each entry's kind with its Zipf frequency in English, looked up once at build time."""
    from wordfreq import zipf_frequency

    return {word: cache.encode(kind, zipf_frequency(word, "en")) for word, kind in kinds.items()}
