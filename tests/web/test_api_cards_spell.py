"""GET /api/v1/cards and POST /api/v1/spell: the deck and the card spellings of some letters."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from companion.web import messages

# The deck table of rules.md: card -> (value, copies).
DECK = {
    "a": (2, 10), "b": (8, 2), "c": (8, 2), "d": (5, 4), "e": (2, 12), "f": (6, 2),
    "g": (6, 4), "h": (7, 2), "i": (2, 8), "j": (13, 2), "k": (8, 2), "l": (3, 4),
    "m": (5, 2), "n": (5, 6), "o": (2, 8), "p": (6, 2), "q": (15, 2), "r": (5, 6),
    "s": (3, 4), "t": (3, 6), "u": (4, 6), "v": (11, 2), "w": (10, 2), "x": (12, 2),
    "y": (4, 4), "z": (14, 2), "qu": (9, 2), "in": (7, 2), "er": (7, 2), "cl": (10, 2),
    "th": (9, 2),
}  # fmt: skip


def refused(resp, status: int, where: str, code: str, **params: object) -> dict:
    """Assert a refusal: status, body exactly {"error", "where", "code", "params"}, the field,
    the code, these params, and the catalog's sentence for them."""
    assert resp.status_code == status, resp.get_data(as_text=True)
    assert resp.is_json
    body = resp.get_json()
    assert set(body) == {"error", "where", "code", "params"}, body
    assert (body["where"], body["code"]) == (where, code), body
    assert body["error"] == messages.render(code, body["params"]), body
    for key, value in params.items():
        assert body["params"].get(key) == value, (key, body)
    return body


def spell(client: FlaskClient, letters: object):
    return client.post("/api/v1/spell", json={"letters": letters})


# --- GET /api/v1/cards -------------------------------------------------------------


def test_cards_lists_all_31_kinds_with_the_documented_fields(client: FlaskClient) -> None:
    resp = client.get("/api/v1/cards")
    assert resp.status_code == 200
    assert resp.is_json
    cards = resp.get_json()
    assert isinstance(cards, list)
    assert len(cards) == 31
    for entry in cards:
        assert list(entry) == ["card", "value", "copies", "letters"]
    names = [c["card"] for c in cards]
    assert len(set(names)) == 31
    assert all(n == n.lower() for n in names)


def test_cards_total_118_copies(client: FlaskClient) -> None:
    cards = client.get("/api/v1/cards").get_json()
    assert sum(c["copies"] for c in cards) == 118


def test_cards_qu_is_one_card_of_two_letters(client: FlaskClient) -> None:
    cards = {c["card"]: c for c in client.get("/api/v1/cards").get_json()}
    assert cards["qu"] == {"card": "qu", "value": 9, "copies": 2, "letters": 2}


def test_cards_match_the_rule_book_table(client: FlaskClient) -> None:
    cards = client.get("/api/v1/cards").get_json()
    got = {c["card"]: (c["value"], c["copies"]) for c in cards}
    assert got == DECK
    for c in cards:
        assert c["letters"] == len(c["card"])
        assert c["letters"] == (2 if c["card"] in {"qu", "in", "er", "cl", "th"} else 1)


# --- POST /api/v1/spell ------------------------------------------------------------


def test_spell_quiz_gives_both_spellings_best_first(client: FlaskClient) -> None:
    resp = spell(client, "quiz")
    assert resp.status_code == 200
    assert resp.get_json() == {
        "spellings": [
            {"cards": ["q", "u", "i", "z"], "value": 35},
            {"cards": ["qu", "i", "z"], "value": 25},
        ]
    }


def test_spell_thin_gives_four_spellings(client: FlaskClient) -> None:
    resp = spell(client, "thin")
    assert resp.status_code == 200
    assert resp.get_json() == {
        "spellings": [
            {"cards": ["t", "h", "in"], "value": 17},
            {"cards": ["t", "h", "i", "n"], "value": 17},
            {"cards": ["th", "in"], "value": 16},
            {"cards": ["th", "i", "n"], "value": 16},
        ]
    }


def test_spell_the_matches_the_rule_book(client: FlaskClient) -> None:
    # rules.md: `the` is T·H·E (12) or TH·E (11).
    assert spell(client, "the").get_json()["spellings"] == [
        {"cards": ["t", "h", "e"], "value": 12},
        {"cards": ["th", "e"], "value": 11},
    ]


def test_spell_ignores_case_and_answers_in_lower_case(client: FlaskClient) -> None:
    assert spell(client, "QuIZ").get_json() == spell(client, "quiz").get_json()


def test_spell_never_needs_more_copies_than_the_deck_has(client: FlaskClient) -> None:
    # Only 2 Z: "jazz" has its one spelling; a third Z can't be laid down.
    assert spell(client, "jazz").get_json() == {
        "spellings": [{"cards": ["j", "a", "z", "z"], "value": 43}]
    }
    resp = spell(client, "pizzazz")
    assert resp.status_code == 200
    assert resp.get_json() == {"spellings": []}


def test_spell_not_json_is_400(client: FlaskClient) -> None:
    resp = client.post("/api/v1/spell", data=b"{letters: quiz", content_type="application/json")
    refused(resp, 400, "", "bad_json")


def test_spell_body_not_an_object_is_400(client: FlaskClient) -> None:
    refused(client.post("/api/v1/spell", json=["quiz"]), 400, "", "not_an_object", keys=["letters"])
    refused(client.post("/api/v1/spell", json="quiz"), 400, "", "not_an_object", keys=["letters"])


@pytest.mark.parametrize("letters", [None, 7, ["q", "u"], {"l": "quiz"}, True])
def test_spell_letters_not_a_string_is_400(client: FlaskClient, letters: object) -> None:
    refused(spell(client, letters), 400, "letters", "letters_text")


def test_spell_letters_missing_is_400(client: FlaskClient) -> None:
    refused(client.post("/api/v1/spell", json={}), 400, "letters", "letters_text")


def test_spell_unknown_field_is_400(client: FlaskClient) -> None:
    resp = client.post("/api/v1/spell", json={"letters": "quiz", "lexicon": "big"})
    refused(resp, 400, "lexicon", "unknown_field", field="lexicon", keys=["letters"])


@pytest.mark.parametrize("letters", ["qu1z", "qu-iz", "qu iz", "quíz", "top!"])
def test_spell_non_letters_is_422(client: FlaskClient, letters: str) -> None:
    refused(spell(client, letters), 422, "letters", "not_letters", text=letters)


@pytest.mark.parametrize("letters", ["", "   "])
def test_spell_empty_is_422(client: FlaskClient, letters: str) -> None:
    refused(spell(client, letters), 422, "letters", "no_letters")


def test_spell_too_long_is_422(client: FlaskClient) -> None:
    # 11 cards (a hand of 10 and the card drawn) hold at most 22 letters.
    refused(
        spell(client, "thin" * 5 + "the"), 422, "letters", "too_many_letters", count=23, most=22
    )


def test_spell_22_letters_is_answered(client: FlaskClient) -> None:
    letters = "abcdefghijklmnopqrstuv"
    resp = spell(client, letters)
    assert resp.status_code == 200
    assert resp.get_json() == {
        "spellings": [{"cards": list(letters), "value": sum(DECK[c][0] for c in letters)}]
    }


def test_spell_look_alike_letters_are_not_letters(client: FlaskClient) -> None:
    """BUG: /spell lower-cases before its ASCII check, so the Kelvin sign (U+212A), which
    lower-cases to "k", is spelled as the K card, while /score refuses it as a card."""
    refused(spell(client, "\u212aid"), 422, "letters", "not_letters", text="\u212aid")
