"""`python -m companion.commands.solve` as a user runs it: a fresh process, no web stack loaded.

The command line is timed against other solvers process by process, so what it imports
is part of what it answers: no Flask, Jinja, SQLAlchemy or WTForms, and, while the
index file is current, not even the code that builds the word lists.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WEB_STACK = ("flask", "flask_babel", "flask_sqlalchemy", "flask_migrate", "flask_wtf")
WEB_STACK += ("jinja2", "sqlalchemy", "alembic", "wtforms", "werkzeug", "babel")
HAND = "qu a th i e r s t o n".split()
STANDARD_PLAY = [
    f"{'QU·A':24}   11",
    f"{'E·T':24}    5",
    f"{'I·S':24}    5",
    f"{'N·TH':24}   14",
    f"{'O·R':24}    7",
    "points: 42  (goes out)",
]


def solve(
    *args: str, cache: Path, lists: Path, importtime: bool = False
) -> subprocess.CompletedProcess[str]:
    """Run the command line in a fresh interpreter on this checkout's code."""
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "LEXICON_CACHE_DIR": str(cache),
        "LEXICON_DIR": str(lists),
    }
    command = [sys.executable, *(["-X", "importtime"] if importtime else []), "-m"]
    return subprocess.run(
        [*command, "companion.commands.solve", *args],
        cwd=lists.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def imported(stderr: str) -> set[str]:
    """The modules ``-X importtime`` reports, by their full names."""
    return {
        line.rsplit("|", 1)[1].strip()
        for line in stderr.splitlines()
        if line.startswith("import time:") and "|" in line
    }


@pytest.fixture
def lists(tmp_path: Path) -> Path:
    folder = tmp_path / "lexicons"
    folder.mkdir()
    return folder


@pytest.fixture
def words(tmp_path: Path) -> Path:
    path = tmp_path / "words.txt"
    path.write_text("Quiz\nquit\nthe\nthin\nto\nat\nis\n", encoding="utf-8")
    return path


def test_a_word_list_given(words: Path, lists: Path, tmp_path: Path) -> None:
    done = solve("--words", str(words), "qu", "i", "z", "th", "e", "m", cache=tmp_path, lists=lists)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        f"{'TH·E':24}   11",
        f"{'QU·I·Z':24}   25",
        "unused: M (-5)",
        "points: 31",
    ]


def test_a_word_list_is_kept_by_its_content(words: Path, lists: Path, tmp_path: Path) -> None:
    """The first run builds its index into the cache; the next reads it; an edit builds anew."""
    hand = ("qu", "i", "z", "th", "e", "m")
    cache = tmp_path / "cache"
    first = solve("--words", str(words), *hand, cache=cache, lists=lists)
    kept = sorted(cache.glob("words-*.idx"))
    assert first.returncode == 0 and len(kept) == 1
    again = solve("--words", str(words), *hand, cache=cache, lists=lists, importtime=True)
    assert again.stdout == first.stdout
    assert "companion.game.solver" in imported(again.stderr)
    assert sorted(cache.glob("words-*.idx")) == kept  # read, not written again
    words.write_text("quiz\nthem\n", encoding="utf-8")
    edited = solve("--words", str(words), *hand, cache=cache, lists=lists)
    assert edited.stdout.splitlines()[-1] == "points: 41  (goes out)"  # QU·I·Z, TH·E·M
    assert len(list(cache.glob("words-*.idx"))) == 2


def test_the_standard_lexicon(lexicon_cache: Path, lists: Path) -> None:
    done = solve(*HAND, cache=lexicon_cache, lists=lists)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == STANDARD_PLAY


def test_the_standard_lexicon_with_the_discard(lexicon_cache: Path, lists: Path) -> None:
    done = solve(
        "--discard", *"cl er in th a e i o s t x".split(), cache=lexicon_cache, lists=lists
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-2:] == ["discard: A", "points: 57  (goes out)"]


def test_no_web_stack_is_loaded(lexicon_cache: Path, lists: Path, words: Path) -> None:
    """Neither with the standard lexicon nor with a list given; and the second run, once
    the store has vouched for the index file, loads no list builder either."""
    for args in (HAND, ["--words", str(words), *HAND], HAND):
        done = solve(*args, cache=lexicon_cache, lists=lists, importtime=True)
        assert done.returncode == 0, done.stderr
        modules = imported(done.stderr)
        assert "companion.game.solver" in modules  # (companion.commands.solve runs as __main__)
        loaded = sorted(m for m in modules if m.split(".")[0] in WEB_STACK)
        assert not loaded, f"{args[0]}: {loaded}"
        assert "companion.serve.factory" not in modules and "companion.web.messages" not in modules
    assert not {"companion.lexicon.store", "spylls", "importlib.metadata"} & modules


def test_a_bad_card_is_refused_in_english(lexicon_cache: Path, lists: Path) -> None:
    done = solve("qu", "zz", "a", cache=lexicon_cache, lists=lists, importtime=True)
    assert done.returncode == 2
    assert done.stdout == ""
    said = [line for line in done.stderr.splitlines() if not line.startswith("import time:")]
    assert said == [
        "error: 'zz' is not a Quiddler card; cards are the letters a-z and qu, in, er, cl, th."
    ]
    assert not {m for m in imported(done.stderr) if m.split(".")[0] in WEB_STACK}


def test_too_many_cards_and_a_missing_list(lexicon_cache: Path, lists: Path) -> None:
    done = solve(*["a"] * 12, cache=lexicon_cache, lists=lists)
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "error: A hand holds at most 11 cards (10 and the drawn card); this has 12."
    )
    done = solve("--words", str(lists / "missing.txt"), "a", "t", cache=lexicon_cache, lists=lists)
    assert done.returncode == 2
    assert done.stderr.startswith("error: cannot read the word list")
