"""Messages as data: every refusal code the app can raise has its message, every reason
code its words, and the docs' tables are the ones the code makes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.commands import docs
from companion.game.errors import Conflict, RuleError
from companion.lexicon.reasons import Reason
from companion.web import messages, refusals

ROOT = Path(__file__).resolve().parents[2]
RAISED = re.compile(
    r"(?:Refusal|RuleError|ShapeError|NotFound|Forbidden|Conflict|UnsupportedMedia|_status|transaction)"
    r"\(\s*\"([a-z_]+)\""
)


def codes_in_the_code() -> set[str]:
    """Every code passed to a refusal anywhere in companion/."""
    found: set[str] = set()
    for path in (ROOT / "companion").rglob("*.py"):
        found |= set(RAISED.findall(path.read_text(encoding="utf-8")))
    for mapped in ("errors.py", "extensions.py"):  # HTTP errors' codes, the limits' codes
        text = (ROOT / "companion/web" / mapped).read_text()
        found |= set(text.split('"')[1::2]) & set(refusals.REFUSALS)
    return found


def test_the_scan_finds_the_codes() -> None:
    found = codes_in_the_code()
    assert {"hand_size", "deck_copies", "round_changed", "no_such_game"} <= found
    assert len(found) > 80


@pytest.mark.parametrize("code", sorted(codes_in_the_code()))
def test_every_code_raised_has_a_message(code: str) -> None:
    assert code in refusals.REFUSALS


def test_every_message_is_used() -> None:
    unused = set(refusals.REFUSALS) - codes_in_the_code()
    assert not unused, f"messages no code raises: {sorted(unused)}"


def test_every_reason_has_words() -> None:
    assert {str(r) for r in Reason} | {
        "table_legal",
        "table_illegal",
        "vote_legal",
        "vote_illegal",
        "proper_noun_allowed",
    } == set(refusals.REASONS)


def test_a_message_is_rendered_from_the_parameters() -> None:
    exc = RuleError("hand_size", "players[1]", player="Ben", have=2, need=3, round=1)
    assert messages.text(exc) == (
        "Ben has 2 cards in words and unused, but round 1 deals 3: every card must be entered once."
    )


def test_plural_forms_follow_the_count() -> None:
    one = messages.render("challenge_no_word", {"player": "Ann", "count": 1})
    two = messages.render("challenge_no_word", {"player": "Ann", "count": 2})
    assert one.endswith("laid down 1 word.") and two.endswith("laid down 2 words.")
    assert "1 copy of the Z card" in messages.render(
        "deck_copies", {"card": "z", "copies": 1, "count": 2}
    )


def test_lists_cards_and_words_are_written_for_people() -> None:
    text = messages.render("not_a_player", {"name": "Dan", "names": ["Ann", "Ben"]})
    assert text == "'Dan' is not a player of this game (Ann, Ben)."
    assert "QUIZ" in messages.render("challenge_twice", {"player": "Ann", "word": "quiz"})


def test_a_missing_parameter_still_says_something() -> None:
    assert messages.text(Conflict("round_changed")).startswith("Round {number}")


def test_an_unknown_code_falls_back_to_a_generic_message() -> None:
    assert messages.render("no_such_code") == refusals.REFUSALS["bad_request"]


@pytest.mark.parametrize("file", sorted(docs.TABLES))
def test_the_docs_tables_are_made_from_the_code(file: str) -> None:
    name, make = docs.TABLES[file]
    text = (ROOT / "docs" / file).read_text(encoding="utf-8")
    assert docs.marked(text, name, make()) == text, "run: python -m companion.commands.docs"


@pytest.mark.parametrize("names", [[], ["Ann"], ["Ann", "Ben"], ["Ann", "Ben", "Cy", "Dan"]])
def test_the_plain_english_lists_people_as_the_pages_do(names: list[str]) -> None:
    """Outside a request the pages write English; the catalog's own English is the same."""
    assert refusals.english_list(names) == messages.people(names)


@pytest.mark.parametrize("code", sorted(refusals.REFUSALS))
def test_the_plain_english_is_the_pages_english(code: str) -> None:
    """Without Flask or Babel (the command line), every message reads as on the pages."""
    params = {
        "card": "qu",
        "count": 1,
        "copies": 2,
        "holders": ["Ann", "Ben", "Cy"],
        "names": ["Ann", "Ben"],
        "player": "Ann",
        "reason": "proper_noun",
        "seats": 4,
        "double": True,
    }
    assert refusals.render(code, params) == messages.render(code, params)
    assert refusals.text(RuleError(code)) == messages.text(RuleError(code))
