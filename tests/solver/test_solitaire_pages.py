"""The solitaire pages: start, words by pile number, reveals, refusals, undo, edit rights,
the hint and the lost banner."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import store
from companion.game.solitaire import practice_deck
from companion.models import Solitaire

OPENING = "t o p a th e r s"
"""Piles 1-8: T O P A TH E R S. TOP (1 2 3) and PAT are words, SR (8 7) is not."""


def start(
    client: FlaskClient,
    face_up: str = OPENING,
    lexicon: str = "standard",
    min_word: str = "cards",
    practice: bool = False,
) -> str:
    """Start a game from the page's form; the id of the new game."""
    data = {"face_up": face_up, "min_word": min_word, "lexicon": lexicon}
    data["practice" if practice else "cards"] = "1"
    response = client.post("/solitaire", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)
    found = re.fullmatch(r".*/solitaire/([\w-]+)", response.headers["Location"])
    assert found, response.headers["Location"]
    return found.group(1)


def stored(app: Flask, game_id: str) -> Solitaire:
    with app.app_context():
        row = store.get_solitaire(game_id)
        store.db.session.expunge(row)
        return row


def page(client: FlaskClient, game_id: str, query: str = "") -> str:
    response = client.get(f"/solitaire/{game_id}{query}")
    assert response.status_code == 200
    return html.unescape(response.get_data(as_text=True))


def used(text: str) -> int:
    found = re.search(r'data-used="(\d+)"', text)
    assert found
    return int(found.group(1))


def piles(text: str) -> list[tuple[str, int]]:
    """Each pile's face-up card as the page names it, and how many cards are under it."""
    found = re.findall(r'aria-label="Pile (\d+): ([^,"]+), (\d+) face down"', text)
    assert [int(n) for n, _, _ in found] == list(range(1, 9))
    return [(card, int(down)) for _, card, down in found]


def to_reveal(text: str) -> list[int]:
    """The piles (1-8) the page asks to turn up a card on."""
    return [int(p) + 1 for p in re.findall(r'<select name="card" id="card-(\d+)"', text)]


def flashes(text: str) -> list[tuple[str, str]]:
    return re.findall(r'<div class="flash (\w+)" role="\w+">(.*?)</div>', text)


def post(client: FlaskClient, game_id: str, kind: str, **fields: str) -> str:
    """POST a step; the page it redirects to."""
    response = client.post(f"/solitaire/{game_id}/{kind}", data=fields)
    assert response.status_code == 302, response.status_code
    return page(client, game_id)


@pytest.fixture
def tiny(app: Flask) -> str:
    """A group's own list that makes no word from OPENING."""
    folder = Path(app.config["LEXICON_DIR"])
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "tiny.txt").write_text("quiz\nzax\njinx\n", encoding="utf-8")
    return "tiny"


# --- starting ---------------------------------------------------------------------------------


def test_a_game_starts_from_the_eight_face_up_cards(client: FlaskClient, app: Flask) -> None:
    game_id = start(client, "A th e R qu s i n")
    row = stored(app, game_id)
    assert row.face_up == ["a", "th", "e", "r", "qu", "s", "i", "n"]
    assert row.practice_seed is None
    assert row.steps == []
    assert (row.min_word, row.lexicon) == ("cards", "standard")
    text = page(client, game_id)
    assert used(text) == 0
    assert "0 of 48" in text
    assert piles(text) == [(c, 5) for c in ("A", "TH", "E", "R", "QU", "S", "I", "N")]
    assert 'id="word-form"' in text
    assert to_reveal(text) == []


@pytest.mark.parametrize(
    ("face_up", "message"),
    [
        ("a th e r qu s i", "Enter the 8 face-up cards, one per pile."),
        ("a th e r qu s i zz", "'zz' is not a Quiddler card; cards are the letters a-z and qu"),
        ("z z z r qu s i n", "The deck has only 2 Z cards; 3 are entered."),
    ],
)
def test_a_start_with_wrong_cards_is_refused(
    client: FlaskClient, app: Flask, face_up: str, message: str
) -> None:
    response = client.post(
        "/solitaire",
        data={"face_up": face_up, "min_word": "cards", "lexicon": "standard", "cards": "1"},
    )
    assert response.status_code == 422
    text = html.unescape(response.get_data(as_text=True))
    found = re.search(r'id="form-error"><strong>Not started.</strong> (.*?)</div>', text)
    assert found and found.group(1).startswith(message)
    with app.app_context():
        assert store.db.session.query(Solitaire).count() == 0


def test_a_start_with_an_unknown_dictionary_is_refused(client: FlaskClient, app: Flask) -> None:
    response = client.post(
        "/solitaire",
        data={"face_up": OPENING, "min_word": "cards", "lexicon": "klingon", "cards": "1"},
    )
    assert response.status_code == 422
    with app.app_context():
        assert store.db.session.query(Solitaire).count() == 0


def test_practice_deals_from_a_stored_shuffled_deck(
    client: FlaskClient, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store.secrets, "randbelow", lambda _n: 7)
    game_id = start(client, "", practice=True)
    row = stored(app, game_id)
    assert row.practice_seed == 7
    deck = practice_deck(7)
    assert row.face_up == [deck[6 * i].name for i in range(8)]
    text = page(client, game_id)
    assert "practice</span>" in text
    assert piles(text) == [(deck[6 * i].name.upper(), 5) for i in range(8)]

    hint = re.search(
        r'id="hint">Hint: <strong>(\w+)</strong> from piles ([\d, ]+)\.',
        page(client, game_id, "?hint=1"),
    )
    assert hint, "the practice deal has a word"
    numbers = hint.group(2).split(", ")
    text = post(client, game_id, "word", piles=" ".join(numbers))
    assert used(text) == len(numbers)
    assert to_reveal(text) == [], "practice turns the next cards up by itself"
    assert 'id="word-form"' in text
    up = piles(text)
    for n in map(int, numbers):
        assert up[n - 1] == (deck[6 * (n - 1) + 1].name.upper(), 4)
    steps = stored(app, game_id).steps
    assert [s["kind"] for s in steps] == ["word"] + ["reveal"] * len(numbers)

    text = post(client, game_id, "undo")
    assert used(text) == 0
    assert stored(app, game_id).steps == []
    assert piles(text) == [(deck[6 * i].name.upper(), 5) for i in range(8)]


# --- playing ----------------------------------------------------------------------------------


def test_a_word_by_pile_numbers_then_the_cards_turned_up(client: FlaskClient, app: Flask) -> None:
    game_id = start(client)
    text = post(client, game_id, "word", piles="1 2 3")
    assert ("ok", "TOP: well done.") in flashes(text)
    assert used(text) == 3
    assert "1 word · 11 points" in text
    assert to_reveal(text) == [1, 2, 3]
    assert 'id="word-form"' not in text, "no word until the new cards are entered"
    assert piles(text)[:4] == [("turn up a card", 5)] * 3 + [("A", 5)]

    text = post(client, game_id, "reveal", piles="1", card="x")
    assert to_reveal(text) == [2, 3]
    assert piles(text)[0] == ("X", 4)
    assert stored(app, game_id).steps == [
        {"kind": "word", "piles": [0, 1, 2]},
        {"kind": "reveal", "piles": [0], "card": "x"},
    ]
    post(client, game_id, "reveal", piles="2", card="o")
    text = post(client, game_id, "reveal", piles="3", card="e")
    assert to_reveal(text) == []
    assert 'id="word-form"' in text
    assert used(text) == 3


def test_a_word_with_a_card_still_face_down_is_refused(client: FlaskClient, app: Flask) -> None:
    game_id = start(client)
    post(client, game_id, "word", piles="1 2 3")
    before = stored(app, game_id).steps
    text = post(client, game_id, "word", piles="4 1")
    assert ("error", "First turn up the next card of pile 1, 2, 3 and enter it.") in flashes(text)
    assert used(text) == 3
    assert stored(app, game_id).steps == before


def test_a_refused_word_shows_why_and_changes_nothing(client: FlaskClient, app: Flask) -> None:
    game_id = start(client)
    for numbers, message in [
        ("8 7", "SR is not a legal word"),
        ("1 1", "Each pile gives one card: only its face-up card can be used."),
        ("4", "A word needs at least two cards."),
        ("", "Tap the face-up cards of the word, in order."),
        ("1 9", "There are 8 piles, numbered 1 to 8."),
    ]:
        text = post(client, game_id, "word", piles=numbers)
        errors = [m for kind, m in flashes(text) if kind == "error"]
        assert len(errors) == 1 and errors[0].startswith(message), (numbers, errors)
        assert used(text) == 0
        assert stored(app, game_id).steps == []


def test_a_reveal_the_table_does_not_ask_for_is_refused(client: FlaskClient, app: Flask) -> None:
    game_id = start(client, "z z p a th e r s")
    text = post(client, game_id, "reveal", piles="4", card="e")
    assert ("error", "Pile 4 has nothing to turn up.") in flashes(text)
    post(client, game_id, "word", piles="3 4")  # PA
    text = post(client, game_id, "reveal", piles="3", card="z")
    assert ("error", "The deck has only 2 Z cards; 3 are entered.") in flashes(text)
    text = post(client, game_id, "reveal", piles="3", card="zz")
    assert any(m.startswith("'zz' is not a Quiddler card") for _, m in flashes(text))
    assert to_reveal(text) == [3, 4]
    assert len(stored(app, game_id).steps) == 1


def test_undo_takes_back_the_last_step(client: FlaskClient, app: Flask) -> None:
    game_id = start(client)
    text = post(client, game_id, "undo")
    assert ("error", "There is nothing to undo.") in flashes(text)
    post(client, game_id, "word", piles="1 2 3")
    post(client, game_id, "reveal", piles="1", card="x")
    text = post(client, game_id, "undo")
    assert to_reveal(text) == [1, 2, 3]
    assert stored(app, game_id).steps == [{"kind": "word", "piles": [0, 1, 2]}]
    text = post(client, game_id, "undo")
    assert used(text) == 0
    assert stored(app, game_id).steps == []
    assert piles(text) == [(c.upper(), 5) for c in OPENING.split()]
    assert 'id="undo"' not in text


def test_without_the_edit_link_the_game_can_only_be_watched(
    client: FlaskClient, app: Flask
) -> None:
    game_id = start(client)
    post(client, game_id, "word", piles="1 2 3")
    before = stored(app, game_id).steps
    other = app.test_client()
    for kind, fields in [
        ("word", {"piles": "4 5"}),
        ("reveal", {"piles": "1", "card": "x"}),
        ("refill", {"piles": "1 2"}),
        ("undo", {}),
    ]:
        assert other.post(f"/solitaire/{game_id}/{kind}", data=fields).status_code == 403
    assert stored(app, game_id).steps == before
    text = page(other, game_id)
    assert used(text) == 3
    assert "View only" in text
    assert 'id="reveal"' not in text and 'id="undo"' not in text


def test_an_unknown_game_is_not_found(client: FlaskClient) -> None:
    assert client.get("/solitaire/nothing-here").status_code == 404
    assert client.post("/solitaire/nothing-here/word", data={"piles": "1 2"}).status_code == 404


# --- hint and loss ----------------------------------------------------------------------------


def test_the_hint_is_a_legal_word_of_face_up_cards(client: FlaskClient, app: Flask) -> None:
    game_id = start(client)
    assert 'id="hint"' not in page(client, game_id)
    text = page(client, game_id, "?hint=1")
    found = re.search(r'id="hint">Hint: <strong>(\w+)</strong> from piles ([\d, ]+)\.', text)
    assert found
    word, numbers = found.group(1), [int(n) for n in found.group(2).split(", ")]
    assert len(set(numbers)) == len(numbers) >= 2
    cards = [c for c, _ in piles(text)]
    assert "".join(cards[n - 1] for n in numbers) == word
    with app.app_context():
        assert app.extensions["lexicons"].get("standard").verdict(word.lower()).legal
    text = post(client, game_id, "word", piles=" ".join(map(str, numbers)))
    assert (("ok", f"{word}: well done.")) in flashes(text)


def test_face_up_cards_that_make_no_word_show_the_game_lost(
    client: FlaskClient, app: Flask, tiny: str
) -> None:
    lost = start(client, lexicon=tiny)
    text = page(client, lost)
    assert 'id="lost"' in text
    assert "the game is lost" in text
    assert 'id="hint-button"' not in text
    assert 'id="hint"' not in page(client, lost, "?hint=1")
    assert stored(app, lost).lexicon == "tiny"

    playable = start(client)
    text = page(client, playable)
    assert 'id="lost"' not in text
    assert 'id="hint-button"' in text


def test_the_lost_banner_comes_when_the_last_word_leaves_none(
    client: FlaskClient, tiny: str
) -> None:
    """ZAX takes the only X: JINX can't be made any more, and no word is left."""
    game_id = start(client, "z a x q i n k j", lexicon=tiny)
    text = page(client, game_id)
    assert 'id="lost"' not in text
    post(client, game_id, "word", piles="1 2 3")  # ZAX
    for pile, card in [("1", "b"), ("2", "v"), ("3", "w")]:
        text = post(client, game_id, "reveal", piles=pile, card=card)
    assert 'id="lost"' in text
    text = post(client, game_id, "undo")
    assert 'id="lost"' not in text


# --- the two-letter rule ----------------------------------------------------------------------


def test_a_lone_in_is_a_word_in_a_two_letter_game(client: FlaskClient, app: Flask) -> None:
    game_id = start(client, "in o p a th e r s", min_word="letters")
    response = client.post(f"/solitaire/{game_id}/word", data={"piles": "1"})
    assert response.status_code == 302
    text = page(client, game_id)
    assert ("ok", "IN: well done.") in flashes(text)
    assert used(text) == 1


def test_a_lone_in_is_no_word_in_a_two_card_game(client: FlaskClient, app: Flask) -> None:
    game_id = start(client, "in o p a th e r s")
    text = post(client, game_id, "word", piles="1")
    assert ("error", "A word needs at least two cards.") in flashes(text)
    assert stored(app, game_id).steps == []
