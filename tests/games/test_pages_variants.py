"""The variants through the pages (CSRF off): a round plan, Junior, handicaps and the zero
floor on the running total, chosen in the new-game form, stored, and shown on the game's
pages and in its exports; refusals by the box they are about."""

from __future__ import annotations

import csv
import html
import io
import json
import re
from collections.abc import Sequence
from urllib.parse import urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from companion.game.rules import JUNIOR_RULES, PLANS
from companion.store.db import db
from companion.store.models import Game
from tests.games.test_pages_games import message, new_game_form
from tests.web.test_page import defaults as score_defaults
from tests.web.test_page import field_error as score_field_error
from tests.web.test_page import page_of as score_page

EN = "\u2013"  # the en dash between a plan's sizes


def text(resp) -> str:
    return html.unescape(resp.get_data(as_text=True))


def form(
    names: Sequence[str], handicap: Sequence[str] = (), first_dealer: str = "1", **rules: str
) -> dict[str, str]:
    """The new-game form as a browser sends it, with a handicap box per seat."""
    data = new_game_form(names, first_dealer, **rules)
    data.update({f"players-{i}-handicap": h for i, h in enumerate(handicap)})
    return data


def created(app: Flask, client: FlaskClient, data: dict[str, str]) -> tuple[str, Game]:
    """Post the form; the new game's id and its stored row (players loaded)."""
    resp = client.post("/games/new", data=data)
    assert resp.status_code == 302, text(resp)[:2000]
    game_id = urlsplit(resp.headers["Location"]).path.removeprefix("/games/")
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert game is not None
        game.players  # noqa: B018  (loaded before the session ends)
        db.session.expunge(game)
    return game_id, game


def edit_token(client: FlaskClient, game_id: str) -> str:
    """The edit token of a game this client created, read off its edit link."""
    page = text(client.get(f"/games/{game_id}"))
    link = re.search(r'<a href="([^"]+)" id="edit-link">', page)
    assert link is not None
    return urlsplit(link[1]).path.removeprefix(f"/games/{game_id}/edit/")


def games_stored(app: Flask) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(Game)) or 0


def error_by(page: str, box: str) -> str:
    """The message shown right under the box ``box`` (its ``<id>-error``), and the box is
    marked invalid."""
    found = re.search(rf'id="{re.escape(box)}-error"[^>]*>([^<]*)<', page)
    assert found is not None, f"no message by #{box}"
    tag = re.search(rf'<(?:input|select)[^>]*id="{re.escape(box)}"[^>]*>', page)
    assert tag is not None and 'aria-invalid="true"' in tag[0], f"#{box} is not marked"
    return html.unescape(found[1]).strip()


# --- round plans ---------------------------------------------------------------------------


def test_the_new_game_page_offers_the_round_plans(client: FlaskClient) -> None:
    page = text(client.get("/games/new"))
    menu = re.search(r'<select[^>]*id="rules-hands".*?</select>', page, re.S)
    assert menu is not None
    options = re.findall(r'<option[^>]*value="(\w+)"[^>]*>([^<]*)</option>', menu[0])
    assert options == [
        ("standard", f"Standard: 3{EN}10 (8 rounds)"),
        ("full", f"Full game: 3{EN}10, 10{EN}3 (16 rounds)"),
        ("short", "Short game: you choose"),
        ("junior", f"Junior: 2{EN}7 (6 rounds)"),
    ]
    assert re.search(r'<option selected value="standard"|<option[^>]*selected[^>]*standard', page)
    for box in ("rules-hands_first", "rules-hands_last"):
        tag = re.search(rf'<input[^>]*id="{box}"[^>]*>', page)
        assert tag is not None and 'type="number"' in tag[0]
    for seat in range(8):
        tag = re.search(rf'<input[^>]*id="players-{seat}-handicap"[^>]*>', page)
        assert tag is not None and 'aria-describedby="handicap-hint"' in tag[0]
    assert "head start in points" in page


def test_a_full_game_is_stored_as_sixteen_hands(app: Flask, client: FlaskClient) -> None:
    game_id, game = created(app, client, form(["Ann", "Ben"], hands="full"))
    assert game.rules["hands"] == [3, 4, 5, 6, 7, 8, 9, 10, 10, 9, 8, 7, 6, 5, 4, 3]
    page = text(client.get(f"/games/{game_id}"))
    assert f"Rounds: 16; cards: 3{EN}10, 10{EN}3" in page  # the house rules table
    assert len(re.findall(r'class="round-link ', page)) == 16
    assert "Round 1 of 16" in text(client.get("/"))
    round_12 = text(client.get(f"/games/{game_id}/rounds/12"))
    assert "<strong>7 cards</strong> each" in round_12


def test_a_short_game_counts_down_from_the_first_hand_to_the_last(
    app: Flask, client: FlaskClient
) -> None:
    data = form(["Ann", "Ben"], hands="short", hands_first="10", hands_last="6")
    game_id, game = created(app, client, data)
    assert game.rules["hands"] == [10, 9, 8, 7, 6]
    page = text(client.get(f"/games/{game_id}"))
    assert "Next: round 1 (10 cards)" in page
    assert f"Rounds: 5; cards: 10{EN}6" in page
    assert len(re.findall(r'class="round-link ', page)) == 5


def test_the_short_boxes_are_read_only_for_a_short_game(app: Flask, client: FlaskClient) -> None:
    data = form(["Ann", "Ben"], hands="standard", hands_first="11", hands_last="abc")
    _, game = created(app, client, data)  # not a short game: the boxes aren't read
    assert game.rules["hands"] == list(PLANS["standard"])


@pytest.mark.parametrize(
    ("first", "last", "box", "size"),
    [("11", "6", "rules-hands_first", 11), ("6", "11", "rules-hands_last", 11),
     ("1", "5", "rules-hands_first", 1), ("5", "100000000", "rules-hands_last", 100000000)],
)  # fmt: skip
def test_a_hand_size_no_round_can_deal_is_refused_by_its_box(
    app: Flask, client: FlaskClient, first: str, last: str, box: str, size: int
) -> None:
    data = form(["Ann", "Ben"], hands="short", hands_first=first, hands_last=last)
    resp = client.post("/games/new", data=data)
    assert resp.status_code == 422
    page = resp.get_data(as_text=True)
    assert error_by(page, box) == html.unescape(message("hands_size", size=size, least=2, most=10))
    assert f'value="{first}"' in page and f'value="{last}"' in page  # kept as typed
    assert games_stored(app) == 0


def test_a_short_hand_that_is_not_a_number_is_refused_by_its_box(
    app: Flask, client: FlaskClient
) -> None:
    data = form(["Ann", "Ben"], hands="short", hands_first="ten", hands_last="6")
    resp = client.post("/games/new", data=data)
    assert resp.status_code == 422
    assert error_by(resp.get_data(as_text=True), "rules-hands_first") == "Type a whole number."
    assert games_stored(app) == 0


def test_junior_stores_its_plan_and_the_rules_its_fields_carry(
    app: Flask, client: FlaskClient
) -> None:
    # What the page's script sets when Junior is chosen (the server sets only the hands).
    data = form(
        ["Ann", "Ben", "Cy"], hands="junior", min_word="one_card", proper_nouns="y",
        leftover_penalty=None,
    )  # fmt: skip
    game_id, game = created(app, client, data)
    assert game.rules["hands"] == [2, 3, 4, 5, 6, 7]
    for rule, value in JUNIOR_RULES.items():
        assert game.rules[rule] == value, rule
    page = text(client.get(f"/games/{game_id}"))
    assert f"Rounds: 6; cards: 2{EN}7" in page
    assert "1 card" in page  # minimum word
    assert "Next: round 1 (2 cards)" in page


def test_junior_in_the_menu_sets_only_the_hands(app: Flask, client: FlaskClient) -> None:
    _, game = created(app, client, form(["Ann", "Ben"], hands="junior"))
    assert game.rules["hands"] == [2, 3, 4, 5, 6, 7]
    assert game.rules["min_word"] == "cards"
    assert game.rules["leftover_penalty"] is True
    assert game.rules["proper_nouns"] is False


def test_the_menu_carries_what_junior_sets_for_the_script(client: FlaskClient) -> None:
    page = client.get("/games/new").get_data(as_text=True)
    tag = re.search(r'<select[^>]*id="rules-hands"[^>]*>', page)
    assert tag is not None
    junior = re.search(r'data-junior="([^"]*)"', tag[0])
    assert junior is not None
    assert json.loads(html.unescape(junior[1])) == {
        "min_word": "one_card",
        "proper_nouns": True,
        "leftover_penalty": False,
        "lexicon": "common",
    }


# --- handicaps -----------------------------------------------------------------------------

# Round 1 (3 cards): Ann CAT 13 (out); Ben DOG 13; Cy OX 14 - M 5 = 9.
ROUND_1 = [
    {"name": "Ann", "words": ["cat"], "unused": [], "went_out": True},
    {"name": "Ben", "words": ["d-o-g"], "unused": []},
    {"name": "Cy", "words": ["ox"], "unused": ["m"]},
]


def test_handicaps_are_stored_per_seat_and_open_the_rounds_table(
    app: Flask, client: FlaskClient
) -> None:
    # Seat 2 is blank: its handicap goes with it; a blank box is 0.
    data = form(["Ann", "", "Ben", "Cy"], handicap=["", "7", "15", "0"])
    game_id, game = created(app, client, data)
    assert [(p.name, p.handicap) for p in game.players] == [("Ann", 0), ("Ben", 15), ("Cy", 0)]

    page = text(client.get(f"/games/{game_id}"))
    row = re.search(r'<tr class="handicap-row">(.*?)</tr>', page, re.S)
    assert row is not None and "Handicap" in row[1]
    assert re.findall(r'data-handicap="(\d+)" data-player="(\w+)"', row[1]) == [
        ("0", "Ann"), ("15", "Ben"), ("0", "Cy"),
    ]  # fmt: skip
    assert re.findall(r'data-total="(-?\d+)"', page) == ["15", "0", "0"]  # Ben leads

    token = edit_token(client, game_id)
    auth = {"Authorization": f"Bearer {token}"}
    put = client.put(f"/api/v1/games/{game_id}/rounds/1", json={"players": ROUND_1}, headers=auth)
    assert put.status_code == 200, put.get_data(as_text=True)
    # Ann and Ben tie on words and letters: no bonus.
    close = client.post(f"/api/v1/games/{game_id}/rounds/1/close", json={}, headers=auth)
    assert close.status_code == 200, close.get_data(as_text=True)

    page = text(client.get(f"/games/{game_id}"))
    board = page[page.index('id="board"') :]
    players = re.findall(r'<li data-player="(\w+)"><span class="rank">(\d)</span>', board)
    assert players == [("Ben", "1"), ("Ann", "2"), ("Cy", "3")]
    assert re.findall(r'data-total="(-?\d+)"', board)[:3] == ["28", "13", "9"]
    table = re.search(r'<table class="rounds-table">(.*?)</table>', board, re.S)
    assert table is not None
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", table[1], re.S)
    assert "Handicap" in rows[1] and ">1</a>" in rows[2]  # after the header: handicap, round 1
    assert re.findall(r'data-round="1" data-player="\w+">(\d+)', rows[2]) == ["13", "13", "9"]
    game_json = client.get(f"/api/v1/games/{game_id}").get_json()
    assert [(p["handicap"], p["total"]) for p in game_json["players"]] == [
        (0, 13), (15, 28), (0, 9),
    ]  # fmt: skip


def test_no_handicap_no_handicap_row(app: Flask, client: FlaskClient) -> None:
    game_id, _ = created(app, client, form(["Ann", "Ben"], handicap=["", "0"]))
    page = text(client.get(f"/games/{game_id}"))
    assert "handicap-row" not in page
    assert "rounds-table" not in page  # nothing closed, nothing to show


@pytest.mark.parametrize(
    ("typed", "shown"),
    [("-5", message("points_range", most=1000)), ("1001", message("points_range", most=1000)),
     ("abc", "Type a whole number."), ("2.5", "Type a whole number.")],
)  # fmt: skip
def test_a_handicap_out_of_range_is_refused_by_its_box(
    app: Flask, client: FlaskClient, typed: str, shown: str
) -> None:
    # Seat 1 blank: Ben (the second seat typed, seat 3) is players[1] to the game.
    data = form(["Ann", "", "Ben"], handicap=["", "", typed])
    resp = client.post("/games/new", data=data)
    assert resp.status_code == 422
    page = resp.get_data(as_text=True)
    assert error_by(page, "players-2-handicap") == html.unescape(shown)
    assert f'value="{typed}"' in page or typed == "abc"
    assert games_stored(app) == 0


def test_a_refused_name_is_shown_by_the_row_it_was_typed_in(
    app: Flask, client: FlaskClient
) -> None:
    # Seat 2 blank: the second "Ann" is the game's players[2], typed in row 3.
    resp = client.post("/games/new", data=form(["Ben", "", "Ann", "ann"]))
    assert resp.status_code == 422
    page = resp.get_data(as_text=True)
    assert error_by(page, "players-3-name") == html.unescape(message("name_twice", name="ann"))


# --- the zero floor on the running total, with a handicap: the CSV's running_total ----------


def test_csv_running_total_starts_at_the_handicap_and_never_stays_below_zero(
    app: Flask, client: FlaskClient
) -> None:
    data = form(["Ann", "Ben"], handicap=["5", ""], floor="total")
    game_id, game = created(app, client, data)
    assert game.rules["floor"] == "total"
    auth = {"Authorization": f"Bearer {edit_token(client, game_id)}"}

    def play(number: int, players: list[dict], close: bool = True) -> None:
        url = f"/api/v1/games/{game_id}/rounds/{number}"
        resp = client.put(url, json={"players": players}, headers=auth)
        assert resp.status_code == 200, resp.get_data(as_text=True)
        if close:
            assert client.post(url + "/close", json={}, headers=auth).status_code == 200

    # Round 1 (3 cards): Ann Z Q X left over, -41: 5 - 41 stays at 0. Ben CAT 13 + longest 10.
    play(1, [
        {"name": "Ann", "words": [], "unused": ["z", "q", "x"]},
        {"name": "Ben", "words": ["cat"], "unused": [], "went_out": True},
    ])  # fmt: skip
    # Round 2 (4 cards): Ann DOG 13 - M 5 + longest 10 = 18; Ben Z Q X M left over, -46:
    # 23 - 46 stays at 0.
    play(2, [
        {"name": "Ann", "words": ["d-o-g"], "unused": ["m"]},
        {"name": "Ben", "words": [], "unused": ["z", "q", "x", "m"]},
    ])  # fmt: skip
    # Round 3 (5 cards), entered and open: its rows show the total so far. Ann TOPS 14 - A 2
    # + longest 10 = 22; Ben CAT 13 - E S 5 = 8.
    play(3, [
        {"name": "Ann", "words": ["t-o-p-s"], "unused": ["a"], "went_out": False},
        {"name": "Ben", "words": ["c-a-t"], "unused": ["e", "s"]},
    ], close=False)  # fmt: skip

    table = list(csv.DictReader(io.StringIO(client.get(f"/games/{game_id}/export.csv").text)))
    assert [
        (r["round"], r["player"], r["total"], r["score"], r["running_total"], r["closed"])
        for r in table
    ] == [
        ("1", "Ann", "-41", "-41", "0", "yes"),
        ("1", "Ben", "23", "23", "23", "yes"),
        ("2", "Ann", "18", "18", "18", "yes"),
        ("2", "Ben", "-46", "-46", "0", "yes"),
        ("3", "Ann", "22", "22", "18", "no"),
        ("3", "Ben", "8", "8", "0", "no"),
    ]
    page = text(client.get(f"/games/{game_id}"))
    assert re.findall(r'data-total="(-?\d+)"', page)[:2] == ["18", "0"]
    assert re.findall(r'data-handicap="(\d+)"', page) == ["5", "0"]
    # The chart follows the same running totals: Ann's line ends at 18, Ben's at 0.
    lines = re.findall(r'<polyline points="([^"]+)"', page)
    assert len(lines) == 2 and all(len(line.split()) == 3 for line in lines)
    ys = [[float(p.split(",")[1]) for p in line.split()] for line in lines]
    assert ys[1][0] == ys[1][2] and ys[0][1] == ys[1][2]  # Ben 0 at start and end; Ann 0 after 1


# --- the score page: any plan's rounds, the plan chosen in the same form -------------------


def score_form(**fields: str) -> dict[str, str]:
    """The score page's form as a browser sends it untouched, with ``fields`` changed."""
    form = score_defaults()
    form.update(fields)
    return form


SEVEN_EACH = {
    "players-0-name": "Ann", "players-0-words": "c-a-t d-o-g", "players-0-unused": "m",
    "players-0-went_out": "y",
    "players-1-name": "Ben", "players-1-words": "o-x", "players-1-unused": "a e i s t",
}  # fmt: skip
"""Two hands of 7 cards: Ann CAT DOG 26 - M 5 = 21; Ben OX 14 - (2+2+2+3+3) = 2."""


def test_the_score_page_offers_every_round_a_plan_can_have(client: FlaskClient) -> None:
    page = client.get("/score").get_data(as_text=True)
    menu = re.search(r'<select[^>]*id="round".*?</select>', page, re.S)
    assert menu is not None
    assert re.findall(r'value="(\d*)"', menu[0]) == ["", *(str(n) for n in range(1, 21))]
    assert re.search(r'<select[^>]*id="rules-hands"', page)


def test_round_12_of_a_full_game_deals_7_cards(client: FlaskClient) -> None:
    resp = client.post(
        "/score", data=score_form(round="12", **{"rules-hands": "full"}, **SEVEN_EACH)
    )
    assert resp.status_code == 200, resp.get_data(as_text=True)[:500]
    # Two players: the longest word bonus only, Ann's (3 letters to 2): 26 - 5 + 10.
    assert score_page(resp).scores() == {"Ann": 31, "Ben": 2}


def test_a_round_the_plan_lacks_is_refused_by_the_round_menu(client: FlaskClient) -> None:
    resp = client.post("/score", data=score_form(round="12", **SEVEN_EACH))  # standard: 8
    assert resp.status_code == 422
    assert score_field_error(score_page(resp), "round") == html.unescape(
        message("no_such_round", number=12, rounds=8)
    )


def test_hands_of_the_wrong_size_for_the_plans_round_are_refused(client: FlaskClient) -> None:
    three = {
        "players-0-name": "Ann", "players-0-words": "c-a-t", "players-0-went_out": "y",
        "players-1-name": "Ben", "players-1-words": "d-o-g",
    }  # fmt: skip
    resp = client.post("/score", data=score_form(round="12", **{"rules-hands": "full"}, **three))
    assert resp.status_code == 422
    assert html.unescape(
        message("hand_size", player="Ann", have=3, need=7, round=12)
    ) in html.unescape(resp.get_data(as_text=True))


def test_a_short_game_hand_no_round_deals_is_refused_by_its_box_on_the_score_page(
    client: FlaskClient,
) -> None:
    fields = {"rules-hands": "short", "rules-hands_first": "11", "rules-hands_last": "6"}
    resp = client.post("/score", data=score_form(**fields, **SEVEN_EACH))
    assert resp.status_code == 422
    assert score_field_error(score_page(resp), "rules-hands_first") == html.unescape(
        message("hands_size", size=11, least=2, most=10)
    )


def test_junior_rules_on_the_score_page_leave_leftovers_out(client: FlaskClient) -> None:
    form = score_form(round="6", **{"rules-hands": "junior", "rules-min_word": "one_card"})
    del form["rules-leftover_penalty"]  # unticked: not sent
    resp = client.post("/score", data={**form, **SEVEN_EACH})
    assert resp.status_code == 200, resp.get_data(as_text=True)[:500]
    page = score_page(resp)
    assert page.scores() == {"Ann": 36, "Ben": 14}  # 26 + longest word 10; 14
    assert "Left over (not counted)" in page.player_result("Ann").text


def test_solitaire_offers_no_junior_minimum_word(client: FlaskClient) -> None:
    page = client.get("/solitaire").get_data(as_text=True)
    offered = re.findall(r'<input[^>]*name="min_word"[^>]*>', page)
    assert [re.search(r'value="(\w+)"', tag)[1] for tag in offered] == ["cards", "letters"]
    assert all('type="radio"' in tag for tag in offered)
    assert "one_card" not in page
