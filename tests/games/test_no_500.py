"""Single requests that once answered 500: each now gets a clear refusal and changes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import create_app
from companion.web import messages

PLAYS = [
    {"name": "Ann", "words": ["t-o-p"]},
    {"name": "Ben", "words": ["d-o-g"]},
    {"name": "Cy", "words": ["c-a-t"]},
]


def test_a_lone_surrogate_in_a_player_name_is_refused(client: FlaskClient, rows) -> None:
    before = rows()
    resp = client.post(
        "/api/v1/games",
        data='{"players": ["\\ud800", "Ben"]}',
        content_type="application/json",
    )
    assert resp.status_code == 422
    assert resp.get_json()["code"] == "name_unprintable"
    assert resp.get_json()["where"] == "players[0]"
    assert rows() == before


@pytest.mark.parametrize("header", ['"²"', '"' + "9" * 5000 + '"', 'W/"1"', '"-1"'])
def test_an_unreadable_if_match_is_a_400(new_game, header: str) -> None:
    game = new_game()
    with game.unchanged():
        resp = game.put_round(1, PLAYS, if_match=header)
    assert resp.status_code == 400
    assert (resp.get_json()["code"], resp.get_json()["where"]) == ("if_match", "If-Match")


def test_a_form_part_named_with_a_line_break_is_a_400(tmp_path: Path, lexicon_cache: Path) -> None:
    app = create_app(
        {
            "SECRET_KEY": "csrf-on",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
            "LEXICON_DIR": str(tmp_path / "lexicons"),
            "LEXICON_CACHE_DIR": str(lexicon_cache),
            "AUTO_MIGRATE": True,
        }
    )
    body = b'--XX\r\nContent-Disposition: form-data; name="a\r\nb"\r\n\r\nv\r\n--XX--\r\n'
    client = app.test_client()
    for url in ("/games/new", "/score", "/solitaire", "/judge"):
        resp = client.post(url, data=body, content_type="multipart/form-data; boundary=XX")
        assert resp.status_code == 400, url
        assert messages.render("bad_request") in resp.get_data(as_text=True)


def _editing(client: FlaskClient, game) -> None:
    """This browser opens the edit link once, as a phone at the table does."""
    assert client.get(f"/games/{game.id}/edit/{game.token}").status_code == 302


@pytest.mark.parametrize("word", ["²:0", "0:" + "9" * 5000, "9" * 5000 + ":0", "0:", ":", "x"])
def test_the_page_challenge_form_refuses_a_word_it_cant_read(
    client: FlaskClient, new_game, rows, word: str
) -> None:
    game = new_game()
    game.enter(1, PLAYS)
    _editing(client, game)
    before = rows()
    resp = client.post(f"/games/{game.id}/rounds/1/challenges", data={"word": word, "by": "1"})
    assert resp.status_code == 422
    assert messages.render("challenge_pick") in resp.get_data(as_text=True)
    assert rows() == before


@pytest.mark.parametrize("number", [0, 9])
def test_the_page_challenge_form_of_a_round_there_is_not(
    client: FlaskClient, new_game, rows, number: int
) -> None:
    game = new_game()
    _editing(client, game)
    before = rows()
    resp = client.post(
        f"/games/{game.id}/rounds/{number}/challenges", data={"word": "1:0", "by": "0"}
    )
    assert resp.status_code == 404
    assert rows() == before


def test_a_round_number_of_5000_digits_is_not_found(client: FlaskClient, new_game) -> None:
    game = new_game()
    _editing(client, game)
    assert client.get(f"/games/{game.id}/rounds/{'9' * 5000}").status_code == 404
    resp = client.put(f"/api/v1/games/{game.id}/rounds/{'9' * 5000}", json={}, headers=game.auth)
    assert resp.status_code == 404


def test_a_solitaire_pile_number_of_5000_digits_is_refused(client: FlaskClient, rows) -> None:
    resp = client.post(
        "/solitaire", data={"practice": "1", "min_word": "cards", "lexicon": "standard"}
    )
    assert resp.status_code == 302
    url = resp.headers["Location"]
    before = rows()
    resp = client.post(f"{url}/word", data={"piles": "5" * 5000})
    assert resp.status_code == 422
    assert messages.render("solitaire_no_such_pile", {"piles": 8}) in resp.get_data(as_text=True)
    assert rows() == before


def test_a_game_whose_own_word_list_was_removed_still_shows(
    app: Flask, client: FlaskClient, new_game
) -> None:
    folder = Path(app.config["LEXICON_DIR"])
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "family.txt").write_text("top\ndog\ncat\nox\n")
    game = new_game(rules={"lexicon": "family"})
    game.enter(1, PLAYS)
    _editing(client, game)
    resp = client.post(
        "/solitaire", data={"practice": "1", "min_word": "cards", "lexicon": "family"}
    )
    solitaire_url = resp.headers["Location"]
    (folder / "family.txt").unlink()

    page = client.get(f"/games/{game.id}/rounds/1")
    assert page.status_code == 200
    assert "is no longer on this server" in page.get_data(as_text=True)
    assert client.get(f"/games/{game.id}").status_code == 200
    page = client.get(solitaire_url)
    assert page.status_code == 200
    assert "is no longer on this server" in page.get_data(as_text=True)
    # A challenge the dictionary would decide is refused with the reason, not a 500.
    resp = game.challenge(1, "Ann", "Ben", 0)
    assert resp.status_code == 422
    assert (resp.get_json()["code"], resp.get_json()["params"]["name"]) == (
        "unknown_lexicon",
        "family",
    )
