"""Fixtures of the word referee tests: the real word lists, and a small one.

Building a list from its sources takes seconds (standard about 5 s, wordgame 2 s more);
the stores here and the app of tests/conftest.py share its session ``lexicon_cache``
(under xdist, filled with the lists one worker built for the whole run), and loaded
lists are kept for the life of the process, so each list is built once.

The tests of a group's own lists (building, caching, locking) build them upon
``small_cache``: a standard list of a few entries (``small_standard.tsv``) stored under
the real one's key, so that each of those builds takes milliseconds, not a second.

Tests that ask for ``labelled_word`` run once per row of ``labelled_words.tsv``;
``@pytest.mark.labelled("common", ...)`` picks the categories.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import pytest

from companion.lexicon import Lexicon, LexiconStore, cache
from companion.lexicon.lexicon import UNLISTED
from companion.lexicon.reasons import Kind

LABELLED = Path(__file__).with_name("labelled_words.tsv")
SMALL_STANDARD = Path(__file__).with_name("small_standard.tsv")


class Row(NamedTuple):
    """One labelled word: its category and the reason the standard lexicon should give."""

    word: str
    category: str
    reason: str


def read_labelled(path: Path = LABELLED) -> list[Row]:
    """The rows of the labelled set, without comments and the header line."""
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("# "):
            continue
        word, category, reason = line.split("\t")
        if (word, category) != ("word", "category"):
            rows.append(Row(word, category, reason))
    return rows


ROWS = read_labelled()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "labelled(*categories): run once per labelled word of these categories"
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "labelled_word" not in metafunc.fixturenames:
        return
    marker = metafunc.definition.get_closest_marker("labelled")
    categories = marker.args if marker else ()
    rows = [r for r in ROWS if not categories or r.category in categories]
    metafunc.parametrize("labelled_word", rows, ids=[f"{r.category}:{r.word}" for r in rows])


@pytest.fixture(scope="session")
def labelled() -> list[Row]:
    """The whole labelled set."""
    return ROWS


@pytest.fixture(scope="session")
def lexicons(tmp_path_factory: pytest.TempPathFactory, lexicon_cache: Path) -> LexiconStore:
    """A store with no lists of its own, sharing the session cache."""
    return LexiconStore(tmp_path_factory.mktemp("instance") / "lexicons", lexicon_cache)


@pytest.fixture(scope="session")
def standard(lexicons: LexiconStore) -> Lexicon:
    return lexicons.get("standard")


@pytest.fixture(scope="session")
def wordgame(lexicons: LexiconStore) -> Lexicon:
    return lexicons.get("wordgame")


def small_standard() -> dict[str, int]:
    """The entries of ``small_standard.tsv`` as a cache stores them (kind and frequency)."""
    entries = {}
    for line in SMALL_STANDARD.read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("# ") or line.startswith("word\t"):
            continue
        word, kind, zipf = line.split("\t")
        code = UNLISTED if kind == "unlisted" else Kind[kind.upper()]
        entries[word] = cache.encode(code, float(zipf))
    return entries


def put_small_standard(folder: Path) -> Path:
    """Store the small standard list in the cache folder ``folder`` under the key a store
    gives the real one now (its format and package versions): a store reading that
    folder takes it for the real list, and builds a group's own list upon it."""
    key, _ = LexiconStore(folder / "lists", folder)._recipe("standard")
    path = folder / "standard.lex"
    cache.write(path, key, small_standard())
    return path


@pytest.fixture
def small_cache(tmp_path: Path) -> Path:
    """A cache folder ``cache/`` of this test holding the small standard list only."""
    folder = tmp_path / "cache"
    put_small_standard(folder)
    return folder
