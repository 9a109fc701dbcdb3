"""The lexicon command line: `flask --app companion lexicon build|list`."""

from __future__ import annotations

from pathlib import Path

from flask import Flask


def test_lexicon_list_offers_builtins_and_own_lists(app: Flask, tmp_path: Path) -> None:
    """A list dropped into instance/lexicons appears by name after the built-in ones."""
    folder = Path(app.config["LEXICON_DIR"])
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "club.txt").write_text("quiz\nqi\nzax\n")
    result = app.test_cli_runner().invoke(args=["lexicon", "list"])
    assert result.exit_code == 0, result.output
    names = [line.split("\t")[0] for line in result.output.splitlines()]
    assert names == ["standard", "wordgame", "common", "club"]


def test_lexicon_build_reports_each_list(app: Flask) -> None:
    """Building a group's list prints its word count; the list then judges by its own words."""
    folder = Path(app.config["LEXICON_DIR"])
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "club.txt").write_text("quiz\nqi\nzax\n")
    result = app.test_cli_runner().invoke(args=["lexicon", "build", "club", "standard"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("club: 3 words, ready in ")
    assert lines[1].startswith("standard: ")
    with app.app_context():
        club = app.extensions["lexicons"].get("club")
        assert club.verdict("qi").legal and not club.verdict("the").legal


def test_lexicon_build_refuses_an_unknown_name(app: Flask) -> None:
    result = app.test_cli_runner().invoke(args=["lexicon", "build", "klingon"])
    assert result.exit_code == 2
    assert "There is no lexicon 'klingon'" in result.output
    assert "standard, wordgame" in result.output
