"""POST /api/v1/best and `python -m companion.commands.solve`: the best play of a hand, and
refusals."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.commands.solve import main
from companion.game.deck import BY_NAME
from companion.game.solver import best_play
from companion.web import messages


def best(client: FlaskClient, body: object, status: int = 200) -> dict[str, object]:
    response = client.post("/api/v1/best", json=body)
    assert response.status_code == status, response.get_data(as_text=True)
    found = response.get_json()
    assert isinstance(found, dict)
    return found


def refused(
    client: FlaskClient, body: object, status: int, where: str, code: str, **params: object
) -> str:
    """The refusal of ``body``: its status, ``where``, ``code`` and params; its sentence."""
    found = best(client, body, status)
    assert set(found) == {"error", "where", "code", "params"}, found
    assert (found["where"], found["code"]) == (where, code), found
    assert found["error"] == messages.render(code, found["params"]), found
    for key, value in params.items():
        assert found["params"].get(key) == value, (key, found)
    return found["error"]


@pytest.fixture
def club(app: Flask) -> Path:
    """The group's own list "club" in the app's lexicons folder."""
    folder = Path(app.config["LEXICON_DIR"])
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "club.txt"
    path.write_text("quiz\nqi\nzax\n", encoding="utf-8")
    return path


# --- answers ----------------------------------------------------------------------------------


def test_quiz_and_an_unused_m_with_the_standard_lexicon(client: FlaskClient) -> None:
    assert best(client, {"cards": ["qu", "i", "z", "m"]}) == {
        "words": [["qu", "i", "z"]],
        "unused": ["m"],
        "discard": None,
        "points": 20,
        "goes_out": False,
    }


def test_the_cards_on_the_table_decide_the_spelling(client: FlaskClient) -> None:
    assert best(client, {"cards": ["t", "h", "e"]}) == {
        "words": [["t", "h", "e"]],
        "unused": [],
        "discard": None,
        "points": 12,
        "goes_out": True,
    }
    assert best(client, {"cards": ["e", "th"]})["words"] == [["th", "e"]]
    assert best(client, {"cards": ["e", "th"]})["points"] == 11


def test_the_discard_of_the_drawn_card_lets_the_hand_go_out(client: FlaskClient) -> None:
    assert best(client, {"cards": ["q", "u", "i", "z", "x"], "discard": True}) == {
        "words": [["q", "u", "i", "z"]],
        "unused": [],
        "discard": "x",
        "points": 35,
        "goes_out": True,
    }


def test_eleven_cards_with_the_discard(client: FlaskClient) -> None:
    """10 cards and the drawn one: every card but one in words, 45 (the most possible)."""
    cards = ["t", "o", "p", "s", "th", "e", "in", "g", "a", "m", "e"]
    found = best(client, {"cards": cards, "discard": True})
    assert found == {
        "words": [["e", "t"], ["p", "e"], ["th", "in", "g", "s"], ["m", "o"]],
        "unused": [],
        "discard": "a",
        "points": 45,
        "goes_out": True,
    }
    without = best(client, {"cards": cards})
    assert without["discard"] is None
    assert sum(len(w) for w in without["words"]) + len(without["unused"]) == 11


def test_the_two_letter_house_rule_makes_a_lone_in_a_word(client: FlaskClient) -> None:
    assert best(client, {"cards": ["in"]}) == {
        "words": [],
        "unused": ["in"],
        "discard": None,
        "points": -7,
        "goes_out": False,
    }
    assert best(client, {"cards": ["in"], "rules": {"min_word": "letters"}}) == {
        "words": [["in"]],
        "unused": [],
        "discard": None,
        "points": 7,
        "goes_out": True,
    }


def test_a_groups_own_list_is_used_by_name(client: FlaskClient, club: Path) -> None:
    assert best(client, {"cards": ["q", "i", "z", "a", "x"], "rules": {"lexicon": "club"}}) == {
        "words": [["z", "a", "x"], ["q", "i"]],
        "unused": [],
        "discard": None,
        "points": 45,
        "goes_out": True,
    }
    assert best(client, {"cards": ["t", "h", "e"], "rules": {"lexicon": "club"}}) == {
        "words": [],
        "unused": ["t", "h", "e"],
        "discard": None,
        "points": -12,
        "goes_out": False,
    }


def test_the_api_answers_what_the_solver_answers(client: FlaskClient, app: Flask) -> None:
    cards = ["qu", "a", "c", "k", "e", "r", "s", "t", "o", "n"]
    found = best(client, {"cards": cards})
    with app.app_context():
        index = app.extensions["lexicons"].solver_index("standard")
    assert found == best_play([BY_NAME[c] for c in cards], index).as_dict()


def test_the_discard_is_the_card_that_costs_most_to_keep(client: FlaskClient) -> None:
    assert best(client, {"cards": ["x", "z", "o", "n"], "discard": True}) == {
        "words": [["o", "x"]],
        "unused": ["n"],
        "discard": "z",
        "points": 9,
        "goes_out": False,
    }


# --- refusals ---------------------------------------------------------------------------------


def test_cards_must_be_a_list(client: FlaskClient) -> None:
    refused(client, {"cards": "quiz"}, 400, "cards", "hand_cards")


def test_a_card_that_is_not_a_quiddler_card(client: FlaskClient) -> None:
    refused(client, {"cards": ["qu", "zz"]}, 422, "cards[1]", "not_a_card", card="zz")


def test_twelve_cards_are_too_many(client: FlaskClient) -> None:
    refused(client, {"cards": ["a"] * 12}, 422, "cards", "hand_too_big", count=12, most=11)


def test_an_empty_hand(client: FlaskClient) -> None:
    refused(client, {"cards": []}, 422, "cards", "no_cards", most=11)


def test_more_copies_than_the_deck(client: FlaskClient) -> None:
    message = refused(
        client, {"cards": ["z", "z", "z"]}, 422, "cards", "deck_copies", card="z", copies=2
    )
    assert "{" not in message, message  # every number of the sentence filled in


def test_discard_must_be_true_or_false(client: FlaskClient) -> None:
    refused(client, {"cards": ["a", "t"], "discard": "yes"}, 400, "discard", "discard_flag")


def test_an_unknown_lexicon(client: FlaskClient, club: Path) -> None:
    refused(
        client,
        {"cards": ["a", "t"], "rules": {"lexicon": "klingon"}},
        422,
        "rules.lexicon",
        "unknown_lexicon",
        name="klingon",
        names=["standard", "wordgame", "common", "club"],
    )


def test_an_unknown_min_word_rule(client: FlaskClient) -> None:
    refused(
        client,
        {"cards": ["a", "t"], "rules": {"min_word": "one"}},
        422,
        "rules.min_word",
        "choice_unknown",
        choices=["cards", "letters", "one_card"],
    )


def test_an_unknown_field(client: FlaskClient) -> None:
    refused(
        client,
        {"cards": ["a", "t"], "hand": ["a"]},
        400,
        "hand",
        "unknown_field",
        field="hand",
        keys=["cards", "discard", "rules"],
    )


def test_a_body_that_is_not_json(client: FlaskClient) -> None:
    response = client.post("/api/v1/best", data="cards: a t", content_type="application/json")
    assert response.status_code == 400
    assert (response.get_json()["where"], response.get_json()["code"]) == ("", "bad_json")


# --- the command line -------------------------------------------------------------------------


@pytest.fixture
def words(tmp_path: Path) -> Path:
    path = tmp_path / "words.txt"
    path.write_text("Quiz\nin\nthe\n", encoding="utf-8")
    return path


def test_cli_prints_the_words_unused_cards_and_points(
    words: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--words", str(words), "qu", "i", "z", "m"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"{'QU·I·Z':24}   25",
        "unused: M (-5)",
        "points: 20",
    ]


def test_cli_with_the_discard(words: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--words", str(words), "--discard", "q", "u", "i", "z", "x"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"{'Q·U·I·Z':24}   35",
        "discard: X",
        "points: 35  (goes out)",
    ]


def test_cli_with_the_two_letter_rule(words: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--words", str(words), "in"]) == 0
    assert capsys.readouterr().out.splitlines() == ["unused: IN (-7)", "points: -7"]
    assert main(["--words", str(words), "--min-word", "letters", "in"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"{'IN':24}    7",
        "points: 7  (goes out)",
    ]


def test_cli_refuses_a_bad_card_and_a_missing_list(
    words: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--words", str(words), "qu", "zz"]) == 2
    said = messages.render("not_a_card", {"card": "zz"})
    assert capsys.readouterr().err.startswith(f"error: {said}")
    assert main(["--words", str(tmp_path / "missing.txt"), "a", "t"]) == 2
    assert capsys.readouterr().err.startswith("error: cannot read the word list")
    assert main(["--words", str(words)] + ["a"] * 12) == 2
    said = messages.render("hand_too_big", {"count": 12, "most": 11})
    assert capsys.readouterr().err.startswith(f"error: {said}")
