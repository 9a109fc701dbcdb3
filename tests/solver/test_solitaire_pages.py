"""The solitaire pages: start, words by pile number, reveals, refusals, undo, edit rights,
the hint and the lost banner."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from markupsafe import escape

from companion import store
from companion.game.solitaire import practice_deck
from companion.store.models import Solitaire
from companion.web import messages

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
    found = re.findall(
        r'data-pile="(\d+)".*?<span class="pile-card[^"]*">([^<]+).*?'
        r'<span class="pile-down">(\d+) down</span>',
        text,
        flags=re.S,
    )
    assert [int(n) for n, _, _ in found] == list(range(1, 9))
    return [(card.strip(), int(down)) for _, card, down in found]


def to_reveal(text: str) -> list[int]:
    """The piles (1-8) the page asks to turn up a card on."""
    return [int(p) + 1 for p in re.findall(r'<select name="card" id="card-(\d+)"', text)]


def flashes(text: str) -> list[tuple[str, str]]:
    return re.findall(r'<div class="flash (\w+)" role="\w+">(.*?)</div>', text)


def version_of(client: FlaskClient, game_id: str) -> str | None:
    """The solitaire's version, as the step forms of its page carry it (None: no form)."""
    found = re.search(r'name="version" value="(\d+)"', page(client, game_id))
    return found.group(1) if found else None


def send(client: FlaskClient, game_id: str, kind: str, fields: dict[str, str]):
    """POST a step as the page's form does, with the version the page was loaded at."""
    data = dict(fields)
    version = version_of(client, game_id)
    if version is not None:
        data.setdefault("version", version)
    return client.post(f"/solitaire/{game_id}/{kind}", data=data)


def post(client: FlaskClient, game_id: str, kind: str, **fields: str) -> str:
    """POST a step; the page it redirects to."""
    response = send(client, game_id, kind, fields)
    assert response.status_code == 302, response.status_code
    return page(client, game_id)


def message(code: str, **params: object) -> str:
    """The catalog's sentence for a refusal, HTML-escaped as the page writes it."""
    return str(escape(messages.render(code, params)))


def refused(
    client: FlaskClient,
    game_id: str,
    kind: str,
    fields: dict[str, str],
    code: str,
    status: int = 422,
    **params: object,
) -> str:
    """POST a step that is refused: the page shown again with ``status`` and the one
    message of ``code``; the page's text."""
    response = send(client, game_id, kind, fields)
    body = response.get_data(as_text=True)
    assert response.status_code == status, (response.status_code, body[:300])
    shown = re.findall(r'id="form-error"><strong>Not done.</strong> (.*?)</div>', body)
    assert shown == [message(code, **params)], (shown, messages.render(code, params))
    return html.unescape(body)


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
    ("face_up", "code", "params"),
    [
        ("a th e r qu s i", "solitaire_face_up", {"piles": 8, "count": 7}),
        ("a th e r qu s i zz", "not_a_card", {"card": "zz"}),
        ("z z z r qu s i n", "deck_copies", {"card": "z", "copies": 2, "count": 3}),
    ],
)
def test_a_start_with_wrong_cards_is_refused(
    client: FlaskClient, app: Flask, face_up: str, code: str, params: dict
) -> None:
    response = client.post(
        "/solitaire",
        data={"face_up": face_up, "min_word": "cards", "lexicon": "standard", "cards": "1"},
    )
    assert response.status_code == 422
    text = response.get_data(as_text=True)
    found = re.search(r'id="form-error"><strong>Not started.</strong> (.*?)</div>', text)
    assert found and found.group(1) == message(code, **params)
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
    assert piles(text)[:4] == [("turn up", 5)] * 3 + [("A", 5)]

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
    text = refused(
        client, game_id, "word", {"piles": "4 1"}, "solitaire_reveal_first", piles=[1, 2, 3]
    )
    assert used(text) == 3
    assert stored(app, game_id).steps == before


def test_a_refused_word_shows_why_and_changes_nothing(client: FlaskClient, app: Flask) -> None:
    game_id = start(client)
    for numbers, code, params in [
        ("8 7", "solitaire_not_a_word", {"word": "sr", "reason": "abbreviation"}),
        ("1 1", "solitaire_pile_twice", {}),
        ("4", "word_one_card", {"card": "a", "double": False}),
        ("", "solitaire_no_piles", {}),
        ("1 9", "solitaire_no_such_pile", {"piles": 8}),
    ]:
        text = refused(client, game_id, "word", {"piles": numbers}, code, **params)
        assert [kind for kind, _ in flashes(text)] == [], "the message is the page's, once"
        assert used(text) == 0
        assert stored(app, game_id).steps == []


def test_a_reveal_the_table_does_not_ask_for_is_refused(client: FlaskClient, app: Flask) -> None:
    game_id = start(client, "z z p a th e r s")
    refused(
        client,
        game_id,
        "reveal",
        {"piles": "4", "card": "e"},
        "solitaire_nothing_to_reveal",
        pile=4,
    )
    post(client, game_id, "word", piles="3 4")  # PA
    fields = {"piles": "3", "card": "z"}
    refused(client, game_id, "reveal", fields, "deck_copies", card="z", copies=2, count=3)
    fields = {"piles": "3", "card": "zz"}
    text = refused(client, game_id, "reveal", fields, "not_a_card", card="zz")
    assert to_reveal(text) == [3, 4]
    assert len(stored(app, game_id).steps) == 1


def test_undo_takes_back_the_last_step(client: FlaskClient, app: Flask) -> None:
    game_id = start(client)
    refused(client, game_id, "undo", {}, "solitaire_nothing_to_undo")
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


def test_a_step_from_a_page_loaded_before_another_step_is_409(
    client: FlaskClient, app: Flask
) -> None:
    """Two taps (or two phones) on the same page: the second step is based on a stale
    version, so it is refused with the game as it is now, and nothing else is written."""
    game_id = start(client)
    loaded = version_of(client, game_id)
    post(client, game_id, "word", piles="1 2 3")
    before = stored(app, game_id).steps
    for kind, fields in [
        ("word", {"piles": "4 5", "version": loaded}),
        ("reveal", {"piles": "1", "card": "x", "version": loaded}),
        ("undo", {"version": loaded}),
    ]:
        text = refused(client, game_id, kind, fields, "solitaire_changed", status=409)
        assert used(text) == 3 and to_reveal(text) == [1, 2, 3], "the game as it is now"
    assert stored(app, game_id).steps == before
    assert version_of(client, game_id) != loaded
    post(client, game_id, "reveal", piles="1", card="x")  # the page's own version is fresh


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
    refused(client, game_id, "word", {"piles": "1"}, "word_one_card", card="in", double=True)
    assert stored(app, game_id).steps == []
