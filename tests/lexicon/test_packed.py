"""The packed best-play index: what is read back is what was built, a bad file is never
trusted, and the command line trusts a file without its key only while its witness holds."""

from __future__ import annotations

import json
import os
import zlib
from pathlib import Path

import pytest

from companion.game.solver import best_play, build_index, parse_hand
from companion.lexicon import LexiconStore, packed, store

WORDS = ["quiz", "the", "then", "act", "cat", "in", "thin", "naïve", "zo"]


@pytest.fixture
def small(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    index = build_index(WORDS)
    path = tmp_path / "small.idx"
    packed.write(path, "k", index, vouch=True)
    return path, index


def header_of(path: Path) -> dict[str, object]:
    return json.loads(path.read_bytes().split(b"\n")[1])


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.suffix == ".tmp")


# Read back what was written


def test_the_index_reads_back_as_built(small: tuple[Path, dict[str, str]]) -> None:
    path, index = small
    loaded = packed.read(path, "k")
    assert dict(loaded.items()) == index
    assert loaded == index  # as a Mapping
    assert len(loaded) == len(index) and sorted(loaded) == sorted(index)
    assert set(loaded.keys()) == set(index)
    for key, word in index.items():
        assert key in loaded and loaded[key] == word
    assert "ZZZ" not in loaded and loaded.get("ZZZ") is None
    with pytest.raises(KeyError):
        loaded["ZZZ"]
    assert loaded.words() == [index[k] for k in sorted(index)]


def test_the_solver_plays_the_same_as_with_the_dict(small: tuple[Path, dict[str, str]]) -> None:
    path, index = small
    loaded = packed.read(path, "k")
    for hand in ("qu i z", "th e n", "c a t", "t h i n", "in th e n", "in"):
        cards = parse_hand(hand.split())
        assert best_play(cards, loaded) == best_play(cards, index)
        assert best_play(cards, loaded, "letters") == best_play(cards, index, "letters")


STRANGE = [
    "",
    "\n",
    "A\nB",
    "é",
    "ÁB",
    "\ud800",
    "A\x00",
    "AAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    "~~",
    " ",
    "@",
    "`",
]


def test_keys_not_in_the_index_are_not_found(tmp_path: Path) -> None:
    """Every key of a full table is found, and no other: in a bucket, across buckets,
    before the first and past the last character, one character long or many."""
    index = {"A": "a", "AB": "ab", "ABC": "abc", "B": "b", "BA": "ba", "^_": "x", "_": "y"}
    index |= {"C" * n: f"c{n}" for n in range(2, 9)}
    packed.write(tmp_path / "t.idx", "k", index)
    loaded = packed.read(tmp_path / "t.idx", "k")
    assert {k: loaded[k] for k in index} == index
    probes = [*STRANGE, "AA", "ABB", "AC", "BB", "C", "CCCCCCCCC", "^", "__", "BAA", "AB\n"]
    for key in probes:
        assert key not in loaded, key
        assert loaded.get(key) is None, key
    assert 7 not in loaded and None not in loaded


def test_an_empty_index_round_trips(tmp_path: Path) -> None:
    packed.write(tmp_path / "empty.idx", "k", {})
    loaded = packed.read(tmp_path / "empty.idx", "k")
    assert len(loaded) == 0 and dict(loaded.items()) == {} and "A" not in loaded


def test_writing_leaves_no_temporary_file(small: tuple[Path, dict[str, str]]) -> None:
    assert leftovers(small[0].parent) == []


# Corrupt and stale files are refused


def restate(field: str, change: object):
    def corrupt(data: bytes) -> bytes:
        magic, header, body = data.split(b"\n", 2)
        fields = json.loads(header)
        fields[field] = change(fields[field]) if callable(change) else change
        return b"\n".join([magic, json.dumps(fields).encode(), body])

    return corrupt


def flip(data: bytes) -> bytes:
    middle = len(data) - 40
    return data[:middle] + bytes([data[middle] ^ 0x01]) + data[middle + 1 :]


def not_a_trie(data: bytes) -> bytes:
    """The trie's first bytes overwritten, and the checksum made to match: a file a
    faulty writer could leave, which only the trie's own check catches."""
    magic, header, body = data.split(b"\n", 2)
    body = b"\0" * 16 + body[16:]
    fields = {**json.loads(header), "crc32": zlib.crc32(body)}
    return b"\n".join([magic, json.dumps(fields).encode(), body])


CORRUPTIONS = {
    "flipped bit": flip,
    "truncated by a byte": lambda d: d[:-1],
    "empty": lambda d: b"",
    "wrong magic": lambda d: d.replace(b"index 2\n", b"index 9\n", 1),
    "the former layout": lambda d: d.replace(b"index 2\n", b"index 1\n", 1),
    "a lexicon cache": lambda d: b"quiddler-lexicon 1\n" + d.split(b"\n", 1)[1],
    "header not json": lambda d: packed.MAGIC + b"{key: 1}\n" + d.split(b"\n", 2)[2],
    "header not an object": lambda d: packed.MAGIC + b"[1]\n" + d.split(b"\n", 2)[2],
    "header too deep": lambda d: packed.MAGIC + b"[" * 3000 + b"\n",
    "wrong count": restate("count", lambda n: n + 1),
    "sizes not numbers": restate("trie_bytes", "12"),
    "negative size": restate("word_bytes", -1),
    "sizes moved": restate("trie_bytes", lambda n: n - 1),
    "words moved": restate("word_bytes", lambda n: n - 4),
    "not a trie, checksum right": not_a_trie,
}


@pytest.mark.parametrize("corrupt", CORRUPTIONS.values(), ids=CORRUPTIONS.keys())
def test_a_corrupt_index_is_refused(small: tuple[Path, dict[str, str]], corrupt) -> None:
    path, _ = small
    path.write_bytes(corrupt(path.read_bytes()))
    with pytest.raises(packed.Stale):
        packed.read(path, "k")
    assert packed.read_current(path) is None


def test_a_missing_index_is_refused(tmp_path: Path) -> None:
    with pytest.raises(packed.Stale):
        packed.read(tmp_path / "none.idx", "k")
    assert packed.read_current(tmp_path / "none.idx") is None


def test_another_key_is_refused(small: tuple[Path, dict[str, str]]) -> None:
    with pytest.raises(packed.Stale, match="other sources"):
        packed.read(small[0], "another key")


# The witness


def test_the_witness_is_trusted_only_while_it_holds(
    small: tuple[Path, dict[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    path, index = small
    found = packed.read_current(path)
    assert found is not None and dict(found.items()) == index
    monkeypatch.setattr(packed, "witness", lambda: "a package was upgraded")
    assert packed.read_current(path) is None
    packed.read(path, "k", vouch=True)  # the store checked it with its key
    assert header_of(path)["witness"] == "a package was upgraded"
    assert packed.read_current(path) is not None
    assert leftovers(path.parent) == []


def test_an_index_written_without_vouching_is_never_current(tmp_path: Path) -> None:
    path = tmp_path / "house.idx"
    packed.write(path, "k", build_index(WORDS))
    assert header_of(path)["witness"] is None
    assert packed.read_current(path) is None
    packed.read(path, "k")  # read without vouching: still not current
    assert packed.read_current(path) is None


def test_the_witness_follows_the_packages_and_the_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder of distributions counts by its time of change (installing, upgrading or
    removing a package there changes it); a folder of code only does not count; the
    lexicon code counts file by file."""
    before = packed.witness()
    assert packed.witness() == before
    site = tmp_path / "site"
    (site / "quiddler_extra-1.0.dist-info").mkdir(parents=True)
    monkeypatch.syspath_prepend(str(site))
    with_site = packed.witness()
    assert with_site != before
    (site / "quiddler_extra-1.0.dist-info").rename(site / "quiddler_extra-1.1.dist-info")
    os.utime(site, ns=(0, site.stat().st_mtime_ns + 1))  # however coarse the clock
    upgraded = packed.witness()
    assert upgraded != with_site

    code = tmp_path / "code"
    code.mkdir()
    monkeypatch.syspath_prepend(str(code))
    (code / "module.py").write_text("", encoding="utf-8")
    assert packed.witness() == upgraded

    lexicon_code = tmp_path / "lexicon"
    lexicon_code.mkdir()
    (lexicon_code / "store.py").write_text("FORMAT = 2\n", encoding="utf-8")
    monkeypatch.setattr(packed, "__file__", str(lexicon_code / "packed.py"))
    ours = packed.witness()
    assert ours != upgraded
    (lexicon_code / "store.py").write_text("FORMAT = 3\n", encoding="utf-8")
    assert packed.witness() != ours  # edited (its size or its time of change)


# The store


def test_the_store_keeps_the_standard_index_packed(lexicon_cache: Path) -> None:
    found = LexiconStore(lexicon_cache / "lists", lexicon_cache).solver_index("standard")
    assert isinstance(found, packed.PackedIndex)
    assert len(found) > 100_000
    play = best_play(parse_hand("qu i z m".split()), found)
    assert [[str(c) for c in w] for w in play.words] == [["QU", "I", "Z"]]
    header = header_of(packed.index_path(lexicon_cache, "standard"))
    assert str(header["key"]).startswith(f"solver {store.SOLVER_FORMAT}; standard; format ")
    from_bytes = packed.read(packed.index_path(lexicon_cache, "standard"), header["key"])
    assert (
        dict(from_bytes.items())
        == {k: from_bytes[k] for k in found}
        == {k: found[k] for k in found}
    )


def test_the_store_rebuilds_a_corrupt_index(tmp_path: Path, small_cache: Path) -> None:
    folder = tmp_path / "lexicons"
    folder.mkdir()
    (folder / "club.txt").write_text("quiz\nthe\nthin\n", encoding="utf-8")
    club = LexiconStore(folder, small_cache)  # (built upon the small standard list)
    path = packed.index_path(small_cache, "club")
    path.write_bytes(b"quiddler-solver-index 1\n{}\n")
    index = club.solver_index("club")
    assert dict(index.items()) == build_index(["quiz", "the", "thin"])
    assert packed.read_current(path) is None  # a group's list: never trusted by its witness
    assert leftovers(path.parent) == []
