"""Building one list never holds up the lists already loaded, and a superseded build goes.

A group's 20 MiB list takes seconds to build; before, every lexicon request of the
server waited for it, and each edit of the list kept the old build in memory.
"""

from __future__ import annotations

import gc
import threading
import weakref
from pathlib import Path

import pytest

from companion.lexicon import LexiconStore, sources
from companion.lexicon import store as store_module


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
    assert big.verdict("paris").reason == "proper_noun"  # standard's reasons, as ever
