"""The word-game lexicon (ENABLE united with standard) and a group's own lists.

Word game lets a table play the word-game words (qi, za, zax, qoph) without letting
in names, abbreviations or contractions written without their apostrophe. A group's
own list is the last word: what it lists in lower case is legal, a capitalised line
is a name, and a string it doesn't hold keeps the reason standard gives it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion.lexicon import Lexicon, LexiconStore, UnknownLexicon, cache, classify, sources

# Word game


@pytest.mark.labelled("common", "inflection", "name_and_word")
def test_wordgame_accepts_everyday_words(wordgame: Lexicon, labelled_word) -> None:
    verdict = wordgame.verdict(labelled_word.word)
    assert (verdict.legal, verdict.reason) == (True, "in_dictionary")


@pytest.mark.parametrize("word", ["zax", "qat", "qoph", "xyst", "cwm", "zyzzyva", "quokka"])
def test_both_accept_the_dictionary_words_of_the_word_game_list(
    standard: Lexicon, wordgame: Lexicon, word: str
) -> None:
    """Merriam-Webster lists them all: standard takes the word-game list's words too."""
    assert standard.verdict(word).legal
    assert wordgame.verdict(word).legal


@pytest.mark.parametrize(
    ("word", "reason"),
    [
        ("informations", "not_in_dictionary"),  # no dictionary gives a plural of these
        ("furnitures", "not_in_dictionary"),
        ("luggages", "not_in_dictionary"),
        ("twas", "contraction"),  # 'twas, though ENABLE has the plural of twa
    ],
)
def test_wordgame_alone_accepts_what_only_the_word_game_list_holds(
    standard: Lexicon, wordgame: Lexicon, word: str, reason: str
) -> None:
    assert (standard.verdict(word).legal, standard.verdict(word).reason) == (False, reason)
    assert wordgame.verdict(word).legal


@pytest.mark.parametrize("word", ["qi", "za", "xu", "jo", "aa", "oe", "ka", "ok"])
def test_two_letter_words_count_in_both(standard: Lexicon, wordgame: Lexicon, word: str) -> None:
    assert standard.verdict(word).legal
    assert wordgame.verdict(word).legal


def test_wordgame_keeps_every_standard_word(
    standard: Lexicon, wordgame: Lexicon, enable: frozenset[str]
) -> None:
    extra = set(wordgame.words()) - set(standard.words())
    assert set(standard.words()) <= set(wordgame.words())
    assert extra and extra <= enable | classify.TWO_LETTER_WORDS  # ENABLE's, nothing else


def test_broad_is_retired_into_wordgame(lexicons: LexiconStore, wordgame: Lexicon) -> None:
    """A game stored with "broad" keeps working: it plays with the word-game list."""
    assert "broad" not in lexicons.names()
    assert lexicons.get("broad") is wordgame
    assert lexicons.title("broad") == lexicons.title("wordgame")
    assert not lexicons.get("broad").verdict("untill").legal  # Webster's Second junk is gone
    assert lexicons.get("broad").verdict("canada").reason == "proper_noun"


@pytest.mark.parametrize("word", ["ment", "ly", "ing", "ful", "ous"])
def test_wordgame_still_refuses_affixes(wordgame: Lexicon, word: str) -> None:
    verdict = wordgame.verdict(word)
    assert (verdict.legal, verdict.reason) == (False, "affix")


@pytest.mark.parametrize("word", ["ness", "un", "ism", "mis", "ology"])
def test_the_affix_rule_never_refuses_a_word_the_list_holds(wordgame: Lexicon, word: str) -> None:
    assert wordgame.verdict(word).legal  # ENABLE: a headland, "one", a doctrine...


@pytest.fixture(scope="module")
def enable() -> frozenset[str]:
    """The ENABLE list, read once for the module (reading it takes a tenth of a second)."""
    return sources.enable_words()


@pytest.mark.labelled("contraction")
def test_wordgame_still_refuses_contractions(
    wordgame: Lexicon, enable: frozenset[str], labelled_word
) -> None:
    """Unless ENABLE holds the letters as a word of their own ("theres", "heres")."""
    word = labelled_word.word
    assert wordgame.verdict(word).legal is (word in enable), word


@pytest.mark.parametrize(
    "word", ["steve", "london", "chicago", "david", "microsoft", "moscow", "tokyo", "dublin"]
)
def test_wordgame_still_refuses_proper_nouns(wordgame: Lexicon, word: str) -> None:
    verdict = wordgame.verdict(word)
    assert (verdict.legal, verdict.reason) == (False, "proper_noun")


@pytest.mark.parametrize("word", ["tv", "nasa", "etc", "mph", "kg", "fbi", "qty", "hwy"])
def test_wordgame_still_refuses_abbreviations(wordgame: Lexicon, word: str) -> None:
    assert wordgame.verdict(word).reason == "abbreviation"


@pytest.mark.parametrize("word", ["paris", "texas", "einstein", "berlin"])
def test_names_that_enable_holds_as_words_count(
    standard: Lexicon, wordgame: Lexicon, word: str
) -> None:
    """A herb, a steamboat's deck, a unit of light, a carriage: lower-case senses, so words."""
    assert standard.verdict(word).legal
    assert wordgame.verdict(word).legal


@pytest.mark.parametrize("word", ["qzx", "blorf", "stevee", "zzzt", "co-op", "a", "untill"])
def test_wordgame_refuses_what_is_not_a_word(wordgame: Lexicon, word: str) -> None:
    assert not wordgame.verdict(word).legal


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
def store(folder: Path, small_cache: Path) -> LexiconStore:
    """A store with its own cache folder, given the standard list a custom one builds on
    (the small one: a custom list then builds in milliseconds)."""
    return LexiconStore(folder, small_cache)


def test_the_list_is_offered_after_the_built_in_ones(store: LexiconStore) -> None:
    assert store.names() == ["standard", "wordgame", "common", "house"]
    assert store.title("house") == "Your list: house"


@pytest.mark.parametrize("word", ["snark", "SNARK", "qi", "Qi"])
def test_every_lower_case_entry_of_letters_is_legal(store: LexiconStore, word: str) -> None:
    verdict = store.get("house").verdict(word)
    assert (verdict.legal, verdict.reason) == (True, "in_dictionary")


@pytest.mark.parametrize(
    ("word", "reason"),
    [
        ("zyzzyva", "proper_noun"),
        ("quokka", "proper_noun"),
        ("steve", "proper_noun"),
        ("word", "abbreviation"),
    ],
)
def test_a_capitalised_line_is_a_name_not_a_word(
    store: LexiconStore, word: str, reason: str
) -> None:
    """House lists "Zyzzyva", "Quokka", "Steve" and "WORD": names and an abbreviation."""
    verdict = store.get("house").verdict(word)
    assert (verdict.legal, verdict.reason) == (False, reason)


@pytest.mark.parametrize(
    ("word", "reason"),
    [
        ("london", "proper_noun"),
        ("nasa", "abbreviation"),
        ("dont", "contraction"),
        ("ment", "affix"),
    ],
)
def test_a_refusal_borrows_the_standard_reason(store: LexiconStore, word: str, reason: str) -> None:
    verdict = store.get("house").verdict(word)
    assert (verdict.legal, verdict.reason) == (False, reason)


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
    assert words == ["qi", "snark"]


BAD_NAMES = ["Bad Name", "UPPER", "_hidden", "n" * 41, "dots.in.name"]


@pytest.mark.parametrize("name", [*BAD_NAMES, "standard", "wordgame", "broad"])
def test_files_with_invalid_names_are_not_offered(
    folder: Path, store: LexiconStore, name: str
) -> None:
    (folder / f"{name}.txt").write_text("zzqq\n", encoding="utf-8")
    (folder / "notes.md").write_text("zzqq\n", encoding="utf-8")
    assert store.names() == ["standard", "wordgame", "common", "house"]


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
    assert store.names() == ["standard", "wordgame", "common", "house"]
    assert not store.get("standard").verdict("zzqq").legal
    assert store.get("standard").verdict("quiz").legal


@pytest.mark.parametrize("name", ["nope", "House", "house.txt", "../house", "", "Bad Name"])
def test_an_unknown_name_is_refused_with_the_names_on_offer(store: LexiconStore, name: str) -> None:
    with pytest.raises(UnknownLexicon) as refused:
        store.get(name)
    assert refused.value.names == ["standard", "wordgame", "common", "house"]
    assert "choose one of: standard, wordgame, common, house" in str(refused.value)


def test_editing_the_list_changes_the_verdicts(
    folder: Path, store: LexiconStore, tmp_path: Path
) -> None:
    before = store.get("house")
    assert not before.verdict("the").legal
    path = tmp_path / "cache" / "house.lex"
    old = path.read_bytes()

    (folder / "house.txt").write_text(HOUSE.replace("snark", "the"), encoding="utf-8")
    after = store.get("house")
    assert after.verdict("the").legal
    assert not after.verdict("snark").legal
    assert path.read_bytes() != old  # rebuilt under the new content's key
    assert not before.verdict("the").legal  # a lexicon already handed out stays as it was


def test_an_edit_of_the_same_size_changes_the_verdicts(folder: Path, store: LexiconStore) -> None:
    """The key must follow the content, not the file's size and timestamp."""
    path = folder / "house.txt"
    assert store.get("house").verdict("snark").legal
    before = path.stat()
    path.write_text(HOUSE.replace("snark", "snack"), encoding="utf-8")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # e.g. copied with its times
    house = store.get("house")
    assert house.verdict("snack").legal
    assert not house.verdict("snark").legal


def test_restoring_the_list_restores_the_verdicts(folder: Path, store: LexiconStore) -> None:
    store.get("house")
    (folder / "house.txt").write_text("the\n", encoding="utf-8")
    assert store.get("house").verdict("the").legal
    (folder / "house.txt").write_text(HOUSE, encoding="utf-8")
    assert not store.get("house").verdict("the").legal
    assert store.get("house").verdict("snark").legal


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
