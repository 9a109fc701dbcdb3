"""Building one list never holds up the lists already loaded, and a superseded build goes.

A group's 20 MiB list takes seconds to build; before, every lexicon request of the
server waited for it, and each edit of the list kept the old build in memory (and,
until issue 22, built the list's best-play index in the server process).
"""

from __future__ import annotations

import gc
import threading
import weakref
from pathlib import Path

import pytest

from companion.actions import judging
from companion.game.deck import text
from companion.game.solver import best_play, parse_hand
from companion.lexicon import LexiconStore, sources
from companion.lexicon import store as store_module
from companion.lexicon.packed import PackedIndex


@pytest.fixture
def store(tmp_path: Path, small_cache: Path) -> LexiconStore:
    """A store of its own with the small standard list, and a group's list "slow"."""
    folder = tmp_path / "lexicons"
    folder.mkdir()
    (folder / "slow.txt").write_text("snark\n", encoding="utf-8")
    return LexiconStore(folder, small_cache)


def test_lookups_go_on_while_another_list_is_built(
    store: LexiconStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    standard = store.get("standard")
    building, release = threading.Event(), threading.Event()
    real = sources.custom

    def held(path: Path, table: dict) -> dict:
        building.set()
        assert release.wait(60), "the test never let the build finish"
        return real(path, table)

    monkeypatch.setattr(sources, "custom", held)
    builder = threading.Thread(target=lambda: store.get("slow"))
    builder.start()
    try:
        assert building.wait(60)
        answers: list[object] = []
        reader = threading.Thread(target=lambda: answers.append(store.get("standard")))
        reader.start()
        reader.join(30)  # were it made to wait for the build, it would still be waiting
        assert answers == [standard], "a lookup in a loaded list waited for another's build"
        assert store.get("standard").verdict("quiz").legal
    finally:
        release.set()
        builder.join(60)
    assert store.get("slow").verdict("snark").legal


def test_two_requests_for_one_list_build_it_once(
    store: LexiconStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[Path] = []
    real = sources.custom

    def counted(path: Path, table: dict) -> dict:
        calls.append(path)
        return real(path, table)

    monkeypatch.setattr(sources, "custom", counted)
    got: list[object] = []
    threads = [threading.Thread(target=lambda: got.append(store.get("slow"))) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert len(calls) == 1
    assert len(got) == 6 and all(lexicon is got[0] for lexicon in got)


def test_an_edited_list_releases_its_old_build(store: LexiconStore) -> None:
    first = store.get("slow")
    gone = weakref.ref(first)
    table = weakref.ref(first.table)
    del first
    (store.folder / "slow.txt").write_text("snack\n", encoding="utf-8")
    second = store.get("slow")
    assert second.verdict("snack").legal and not second.verdict("snark").legal
    gc.collect()
    assert gone() is None and table() is None, "the superseded build is still held"


def test_a_big_list_is_built_in_a_child_process(
    store: LexiconStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its build's memory goes back with the child; this process only reads the cache."""
    words = [
        f"zq{n:07d}".translate(str.maketrans("0123456789", "abcdefghij")) for n in range(120_000)
    ]
    (store.folder / "big.txt").write_text("\n".join(["snark", *words]) + "\n", encoding="utf-8")
    assert (store.folder / "big.txt").stat().st_size >= store_module.CHILD_BUILD_BYTES
    here: list[Path] = []
    monkeypatch.setattr(sources, "custom", lambda path, table: here.append(path) or {})
    big = store.get("big")
    assert here == []  # not built in this process
    assert big.verdict("snark").legal and big.verdict(words[-1].upper()).legal
    assert big.verdict("london").reason == "proper_noun"  # standard's reasons, as ever


def test_a_big_lists_index_is_built_in_a_child_process_and_an_edit_releases_it(
    store: LexiconStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The best-play index of a big list is built where its table is, in a child process
    (its build needs many times the memory of the index); when the group edits the list,
    nothing in this process keeps the old index, nor any game's view of it."""
    words = [
        f"zq{n:07d}".translate(str.maketrans("0123456789", "abcdefghij")) for n in range(120_000)
    ]
    big = store.folder / "big.txt"
    big.write_text("\n".join(["snark", *words]) + "\n", encoding="utf-8")
    assert big.stat().st_size >= store_module.CHILD_BUILD_BYTES
    here: list[int] = []
    real = store_module.build_index
    monkeypatch.setattr(store_module, "build_index", lambda w: here.append(1) or real(w))
    hand = parse_hand("s n a r k".split())

    first = store.solver_index("big")
    assert here == []  # not built in this process
    assert [text(w) for w in best_play(hand, first).words] == ["snark"]
    (old_key,) = (k for k in first if first[k] == "snark")
    game = judging.solver_index(store, "big", {"snack": True, "zqaaaaaaa": False})
    assert [text(w) for w in best_play(hand, game).words] == ["snark"]
    gone = weakref.ref(first)
    del first, game

    big.write_text("\n".join(["snack", *words]) + "\n", encoding="utf-8")
    second = store.solver_index("big")
    game = judging.solver_index(store, "big", {"snark": False, "qi": True})
    assert here == []
    assert [text(w) for w in best_play(parse_hand("s n a c k".split()), game).words] == ["snack"]
    assert old_key not in second and old_key not in game
    gc.collect()
    assert gone() is None, "the superseded index is still held"
    assert holding(old_key, "snark") == [], "a copy of the superseded index is still held"


def holding(key: str, word: str) -> list[object]:
    """Every index or dict of this process that maps ``key`` to ``word``: the collector's
    objects and what they hold (a dict of strings alone is not the collector's)."""
    found = []
    for held in gc.get_objects():
        for candidate in (held, *gc.get_referents(held)):
            if isinstance(candidate, dict | PackedIndex) and candidate.get(key) == word:
                found.append(candidate)
    return found
