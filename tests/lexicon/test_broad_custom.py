"""The broad lexicon (standard plus Webster's Second) and a group's own lists.

Broad lets a table play the old rare words (zax, qoph) without letting in names, bare
affixes or contractions written without their apostrophe. A group's own list is the
last word: what it lists (in letters) is legal, and nothing else.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion.lexicon import Lexicon, LexiconStore, UnknownLexicon, cache, sources

# Broad


@pytest.mark.labelled("common", "inflection", "name_and_word", "rare")
def test_broad_accepts_everyday_and_rare_words(broad: Lexicon, labelled_word) -> None:
    verdict = broad.verdict(labelled_word.word)
    assert (verdict.legal, verdict.reason) == (True, "in_dictionary")


@pytest.mark.parametrize("word", ["zax", "aa", "qoph", "xyst", "cwm", "syzygy", "eft"])
def test_broad_accepts_rare_words_standard_lacks(
    standard: Lexicon, broad: Lexicon, word: str
) -> None:
    assert not standard.verdict(word).legal
    assert broad.verdict(word).legal


def test_broad_keeps_every_standard_word(standard: Lexicon, broad: Lexicon) -> None:
    assert set(standard.words()) <= set(broad.words())
    assert len(broad) > len(standard) + 100_000


@pytest.mark.parametrize(
    "word", ["un", "ness", "ment", "ly", "ing", "pre", "mis", "ful", "ous", "ology"]
)
def test_broad_still_refuses_affixes(broad: Lexicon, word: str) -> None:
    verdict = broad.verdict(word)
    assert (verdict.legal, verdict.reason) == (False, "affix")


@pytest.mark.labelled("contraction")
def test_broad_still_refuses_contractions(broad: Lexicon, labelled_word) -> None:
    """The issue: broad is standard plus web2 *minus* apostrophe-less contractions."""
    assert not broad.verdict(labelled_word.word).legal, broad.verdict(labelled_word.word)


@pytest.mark.parametrize(
    "word", ["steve", "paris", "london", "texas", "chicago", "david", "microsoft", "einstein"]
)
def test_broad_still_refuses_proper_nouns(broad: Lexicon, word: str) -> None:
    verdict = broad.verdict(word)
    assert (verdict.legal, verdict.reason) == (False, "proper_noun")


def test_broad_refuses_nearly_all_labelled_proper_nouns(broad: Lexicon, labelled) -> None:
    """Web2 lists a few names in lower case as old common nouns (canada, russia): legal."""
    names = [r.word for r in labelled if r.category == "proper_noun"]
    accepted = [w for w in names if broad.verdict(w).legal]
    assert len(accepted) <= len(names) // 10, accepted


@pytest.mark.parametrize("word", ["tv", "nasa", "etc", "mph", "kg", "fbi"])
def test_broad_still_refuses_abbreviations(broad: Lexicon, word: str) -> None:
    assert broad.verdict(word).reason == "abbreviation"


@pytest.mark.parametrize("word", ["qzx", "blorf", "stevee", "zzzt", "co-op", "a"])
def test_broad_refuses_what_is_not_a_word(broad: Lexicon, word: str) -> None:
    assert not broad.verdict(word).legal


# A group's own list

HOUSE = "Zyzzyva\n\nQuokka\n  snark  \nco-op\nx\nb4\nSteve\nqi\r\n   \nWORD\n"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """An instance's lexicons folder holding house.txt."""
    path = tmp_path / "lexicons"
    path.mkdir()
    (path / "house.txt").write_text(HOUSE, encoding="utf-8")
    return path


@pytest.fixture
def store(folder: Path, tmp_path: Path) -> LexiconStore:
    """A store with its own cache folder: a custom list builds in milliseconds."""
    return LexiconStore(folder, tmp_path / "cache")


def test_the_list_is_offered_after_the_built_in_ones(store: LexiconStore) -> None:
    assert store.names() == ["standard", "broad", "house"]
    assert store.title("house") == "Your list: house"


@pytest.mark.parametrize("word", ["zyzzyva", "Quokka", "SNARK", "steve", "qi", "word"])
def test_every_listed_entry_of_letters_is_legal(store: LexiconStore, word: str) -> None:
    verdict = store.get("house").verdict(word)
    assert (verdict.legal, verdict.reason) == (True, "in_dictionary")


@pytest.mark.parametrize(
    ("word", "reason"),
    [
        ("the", "not_in_dictionary"),  # a common word, but not on the list
        ("bill", "not_in_dictionary"),
        ("co-op", "not_letters"),  # listed, but not letters
        ("coop", "not_in_dictionary"),
        ("b4", "not_letters"),
        ("x", "too_short"),  # listed, but one letter
    ],
)
def test_nothing_else_is_legal(store: LexiconStore, word: str, reason: str) -> None:
    verdict = store.get("house").verdict(word)
    assert (verdict.legal, verdict.reason) == (False, reason)


def test_the_list_holds_exactly_its_letter_entries(store: LexiconStore) -> None:
    words = sorted(store.get("house").words())
    assert words == ["qi", "quokka", "snark", "steve", "word", "zyzzyva"]


BAD_NAMES = ["Bad Name", "UPPER", "_hidden", "n" * 41, "dots.in.name"]


@pytest.mark.parametrize("name", [*BAD_NAMES, "standard", "broad"])
def test_files_with_invalid_names_are_not_offered(
    folder: Path, store: LexiconStore, name: str
) -> None:
    (folder / f"{name}.txt").write_text("zzqq\n", encoding="utf-8")
    (folder / "notes.md").write_text("zzqq\n", encoding="utf-8")
    assert store.names() == ["standard", "broad", "house"]


@pytest.mark.parametrize("name", BAD_NAMES)
def test_files_with_invalid_names_cannot_be_loaded(
    folder: Path, store: LexiconStore, name: str
) -> None:
    (folder / f"{name}.txt").write_text("zzqq\n", encoding="utf-8")
    with pytest.raises(UnknownLexicon):
        store.get(name)


def test_a_file_named_like_a_built_in_list_does_not_replace_it(
    folder: Path, lexicon_cache: Path
) -> None:
    (folder / "standard.txt").write_text("zzqq\n", encoding="utf-8")
    store = LexiconStore(folder, lexicon_cache)
    assert store.names() == ["standard", "broad", "house"]
    assert not store.get("standard").verdict("zzqq").legal
    assert store.get("standard").verdict("quiz").legal


@pytest.mark.parametrize("name", ["nope", "House", "house.txt", "../house", "", "Bad Name"])
def test_an_unknown_name_is_refused_with_the_names_on_offer(store: LexiconStore, name: str) -> None:
    with pytest.raises(UnknownLexicon) as refused:
        store.get(name)
    assert refused.value.names == ["standard", "broad", "house"]
    assert "choose one of: standard, broad, house" in str(refused.value)


def test_editing_the_list_changes_the_verdicts(
    folder: Path, store: LexiconStore, tmp_path: Path
) -> None:
    before = store.get("house")
    assert not before.verdict("the").legal
    path = tmp_path / "cache" / "house.lex"
    old = path.read_bytes()

    (folder / "house.txt").write_text(HOUSE.replace("Steve\n", "the\n"), encoding="utf-8")
    after = store.get("house")
    assert after.verdict("the").legal
    assert not after.verdict("steve").legal
    assert path.read_bytes() != old  # rebuilt under the new content's key
    assert not before.verdict("the").legal  # a lexicon already handed out stays as it was


def test_an_edit_of_the_same_size_changes_the_verdicts(folder: Path, store: LexiconStore) -> None:
    """The key must follow the content, not the file's size and timestamp."""
    path = folder / "house.txt"
    assert store.get("house").verdict("quokka").legal
    before = path.stat()
    path.write_text(HOUSE.replace("Quokka", "Quagga"), encoding="utf-8")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # e.g. copied with its times
    house = store.get("house")
    assert house.verdict("quagga").legal
    assert not house.verdict("quokka").legal


def test_restoring_the_list_restores_the_verdicts(folder: Path, store: LexiconStore) -> None:
    store.get("house")
    (folder / "house.txt").write_text("the\n", encoding="utf-8")
    assert store.get("house").verdict("the").legal
    (folder / "house.txt").write_text(HOUSE, encoding="utf-8")
    assert not store.get("house").verdict("the").legal
    assert store.get("house").verdict("steve").legal


def test_an_empty_list_offers_no_word(folder: Path, store: LexiconStore) -> None:
    (folder / "empty.txt").write_text("\n\n", encoding="utf-8")
    empty = store.get("empty")
    assert list(empty.words()) == []
    assert not empty.verdict("the").legal
    assert store.get("empty").verdict("the") == empty.verdict("the")  # its cache reads back


def test_every_list_on_offer_can_be_loaded(folder: Path, store: LexiconStore) -> None:
    """A list over the size limit is offered by names() yet refused as 'no lexicon'."""
    with (folder / "big.txt").open("wb") as big:
        os.truncate(big.fileno(), sources.MAX_CUSTOM_BYTES + 1)  # sparse: no disk used
    refused = []
    for name in store.names()[len(sources.BUILT_IN) :]:
        try:
            store.get(name)
        except UnknownLexicon as exc:
            refused.append(str(exc))
    assert refused == []


def test_a_custom_cache_is_keyed_by_content(store: LexiconStore, tmp_path: Path) -> None:
    store.get("house")
    path = tmp_path / "cache" / "house.lex"
    with pytest.raises(cache.CacheInvalid):
        cache.read(path, "custom 0000; format 1")
