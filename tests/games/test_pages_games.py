"""The stored-game pages through the test client (CSRF off): what a phone at the table sees.

The phone that created a game (or opened its edit link) may change it; any other phone
with the view link sees the leaderboard read-only and gets 403 on every change, with
nothing written.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from urllib.parse import urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient
from markupsafe import escape
from sqlalchemy import func, select

from companion.store import can_edit
from companion.store.db import db
from companion.store.models import Challenge, Entry, Game, HouseWord, Round
from companion.web import messages


def hand(
    name: str, words: Sequence[object] = (), unused: Sequence[str] = (), went_out: bool = False
) -> dict[str, object]:
    return {"name": name, "words": list(words), "unused": list(unused), "went_out": went_out}


def text(resp) -> str:
    return html.unescape(resp.get_data(as_text=True))


def message(code: str, **params: object) -> str:
    """The catalog's sentence for a refusal, HTML-escaped as the templates write it."""
    return str(escape(messages.render(code, params)))


def shows(resp, status: int, code: str, **params: object) -> str:
    """Assert ``resp`` is a page with ``status`` showing the refusal ``code``; its HTML."""
    page = resp.get_data(as_text=True)
    assert resp.status_code == status, (resp.status_code, page[:300])
    assert message(code, **params) in page, messages.render(code, params)
    return page


def new_game_form(names: Sequence[str], first_dealer: str = "1", **rules: str) -> dict:
    """The fields of the new-game form; blank seats are sent blank, as a browser does."""
    data = {f"players-{i}-name": n for i, n in enumerate(names)}
    data["first_dealer"] = first_dealer
    fields = {
        "hands": "standard",
        "hands_first": "10",
        "hands_last": "6",
        "min_word": "cards",
        "two_player_bonus": "longest",
        "bonus": "10",
        "floor": "round",
        "leftover_penalty": "y",
        "false_out_penalty": "0",
        "challenge_ruling": "dictionary",
        "lexicon": "standard",
    }
    fields.update(rules)
    data.update({f"rules-{k}": v for k, v in fields.items() if v is not None})
    return data


def round_form(
    words: Sequence[str],
    unused: Sequence[str] = ("", "", ""),
    went_out: str = "",
    versions: Sequence[int] | None = None,
) -> dict:
    """The fields of the round form: ``players-<seat>-words``/``-unused``/``-version`` (the
    version of that hand the page showed), went_out."""
    data = {}
    for seat, (w, u) in enumerate(zip(words, unused, strict=True)):
        data[f"players-{seat}-words"] = w
        data[f"players-{seat}-unused"] = u
        if versions is not None:
            data[f"players-{seat}-version"] = str(versions[seat])
    data["went_out"] = went_out
    return data


# Round 1 (3 cards): Ann CAT 8+2+3 = 13 (out); Ben DOG 5+2+6 = 13; Cy OX 2+12 = 14 - M 5 = 9.
ROUND_1 = round_form(["cat", "d-o-g", "ox"], ["", "", "m"], went_out="0")


def entries(app: Flask) -> list[tuple]:
    with app.app_context():
        return [
            (e.round.number, e.seat, e.words, e.unused, e.went_out)
            for e in db.session.scalars(select(Entry).order_by(Entry.round_id, Entry.seat))
        ]


def challenges(app: Flask) -> list[tuple]:
    with app.app_context():
        return [
            (c.number, c.by_seat, c.player_seat, c.word, c.legal, c.decided_by, c.reason_code)
            for c in db.session.scalars(select(Challenge).order_by(Challenge.number))
        ]


def house_words(app: Flask) -> list[tuple]:
    with app.app_context():
        return [
            (h.word, h.allowed)
            for h in db.session.scalars(select(HouseWord).order_by(HouseWord.word))
        ]


@pytest.fixture
def editor(new_game, client):
    """A game made through the API, and ``client`` holding its edit right (edit link opened)."""
    game = new_game()
    resp = client.get(f"/games/{game.id}/edit/{game.token}")
    assert resp.status_code == 302
    return game


@pytest.fixture
def viewer(app: Flask) -> FlaskClient:
    """Another phone: no session, only the view link."""
    return app.test_client()


# --- the list and a new game -------------------------------------------------------------


def test_home_lists_games_most_recently_changed_first(client, new_game):
    assert "No games yet" in text(client.get("/"))
    first = new_game(players=["Ann", "Ben"])
    second = new_game(players=["Dora", "Eve", "Finn"])
    assert "Ann, Ben" not in text(client.get("/"))  # made through the API: not opened here
    for game in (first, second):
        client.get(f"/games/{game.id}")  # opened with its view link
    page = text(client.get("/"))
    assert page.index("Dora, Eve, Finn") < page.index("Ann, Ben")
    assert f'href="/games/{first.id}"' in page
    assert page.count("Round 1 of 8") == 2
    first.house_word("zax", True)  # a change moves a game to the top
    page = text(client.get("/"))
    assert page.index("Ann, Ben") < page.index("Dora, Eve, Finn")


def test_a_second_browser_sees_nothing_of_the_first_ones_games(app, client, new_game):
    """On a server many tables share, the home page lists no stranger's game or link."""
    game = new_game(players=["Ann", "Ben"])
    client.get(f"/games/{game.id}")
    assert "Ann, Ben" in text(client.get("/"))
    stranger = app.test_client()
    page = text(stranger.get("/"))
    assert "Ann, Ben" not in page and game.id not in page
    assert "No games yet" in page


def test_new_game_form_creates_the_game_and_keeps_the_edit_right(app, client):
    assert client.get("/games/new").status_code == 200
    # Seat 2 left blank: the players are Ann, Cy, Dan, and Cy (typed in seat 3) deals first.
    resp = client.post(
        "/games/new",
        data=new_game_form(
            ["Ann", "", " Cy ", "Dan"],
            first_dealer="3",
            min_word="letters",
            two_player_bonus="most",
            bonus="15",
            false_out_penalty="3",
        ),
    )
    assert resp.status_code == 302
    location = urlsplit(resp.headers["Location"])
    game_id = location.path.removeprefix("/games/")
    assert location.query == "created=1"
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert [(p.seat, p.name) for p in game.players] == [(0, "Ann"), (1, "Cy"), (2, "Dan")]
        assert game.first_dealer == 1
        assert game.rules == {
            "hands": [3, 4, 5, 6, 7, 8, 9, 10],
            "min_word": "letters",
            "two_player_bonus": "most",
            "bonus": 15,
            "floor": "round",
            "leftover_penalty": True,
            "false_out_penalty": 3,
            "challenge_ruling": "dictionary",
            "proper_nouns": False,
            "lexicon": "standard",
        }
        assert [p.handicap for p in game.players] == [0, 0, 0]
        token_hash = game.edit_token_hash

    page = client.get(f"{location.path}?{location.query}")
    assert page.status_code == 200
    body = text(page)
    assert "Game started" in body
    assert "You can change this game on this phone." in body
    view_link = re.search(r'<a href="([^"]+)" id="view-link">', body)[1]
    edit_link = re.search(r'<a href="([^"]+)" id="edit-link">', body)[1]
    assert urlsplit(view_link).path == f"/games/{game_id}"
    token = urlsplit(edit_link).path.removeprefix(f"/games/{game_id}/edit/")
    assert can_edit(Game(edit_token_hash=token_hash), token)
    assert len(re.findall(r'<div class="qr-code"><svg', body)) == 2  # view and edit QR codes
    assert "Cy</strong> deals" in body  # "Next: round 1 (3 cards) · Cy deals"
    assert "15 points" in body  # the house rules are shown
    assert f"/games/{game_id}/rounds/1" in body  # "Enter round 1"


@pytest.mark.parametrize(
    ("names", "first_dealer", "rules", "refusal"),
    [
        (["Ann", "ann"], "1", {}, ("name_twice", {"name": "ann"})),
        (["Ann"], "1", {}, ("player_count", {"count": 1, "least": 2, "most": 8})),
        (["Ann", "Ben"], "5", {}, ("first_dealer_named", {})),
        (["Ann", "B" * 41], "1", {}, ("name_too_long", {"seat": 2, "most": 40})),
        (["Ann", "Ben"], "1", {"bonus": "lots"}, "Type a whole number."),  # the form's own
        (["Ann", "Ben"], "1", {"bonus": "-5"}, ("points_range", {"most": 1000})),
        (
            ["Ann", "Ben"],
            "1",
            {"lexicon": "klingon"},
            ("unknown_lexicon", {"name": "klingon", "names": ["standard", "wordgame", "common"]}),
        ),
    ],
)
def test_new_game_form_refuses_bad_input_and_keeps_the_names(
    app, client, rows, names, first_dealer, rules, refusal
):
    before = rows()
    resp = client.post("/games/new", data=new_game_form(names, first_dealer, **rules))
    assert resp.status_code == 422
    body = text(resp)
    assert "Not started." in body
    if isinstance(refusal, str):
        assert refusal in body
    else:
        code, params = refusal
        shows(resp, 422, code, **params)
    for name in names:
        assert f'value="{name}"' in body
    assert rows() == before
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Game)) == 0


# --- view link and edit link -------------------------------------------------------------


def test_view_link_is_read_only(app, client, editor, viewer):
    client.post(f"/games/{editor.id}/rounds/1", data=ROUND_1)
    page = text(viewer.get(f"/games/{editor.id}"))
    assert "View only: tap your name below to enter your own hand, or open the edit link" in page
    assert 'id="edit-link"' not in page
    assert "Enter round" not in page
    assert "house-word-form" not in page
    assert 'id="board"' in page and 'data-player="Ann"' in page

    round_page = text(viewer.get(f"/games/{editor.id}/rounds/1"))
    assert 'id="round-form"' not in round_page
    assert 'id="close"' not in round_page
    assert "challenge-form" not in round_page
    assert 'data-score="13"' in round_page  # the breakdown is there to read


def test_view_link_changes_nothing(app, client, editor, viewer, rows):
    client.post(f"/games/{editor.id}/rounds/1", data=ROUND_1)
    client.post(f"/games/{editor.id}/rounds/1/challenges", data={"by": "1", "word": "2:0"})
    client.post(f"/games/{editor.id}/house-words", data={"word": "zax", "allowed": "allow"})
    base = f"/games/{editor.id}"
    posts = [
        (f"{base}/rounds/1", round_form(["c-a-t", "d-i-g", "ox"], ["", "", "m"])),
        (f"{base}/rounds/1/challenges", {"by": "0", "word": "1:0", "ruling": "illegal"}),
        (f"{base}/rounds/1/challenges/1/delete", {}),
        (f"{base}/rounds/1/close", {}),
        (f"{base}/rounds/1/reopen", {}),
        (f"{base}/house-words", {"word": "qi", "allowed": "allow"}),
        (f"{base}/house-words/zax/delete", {}),
    ]
    before, game = rows(), editor.get()
    for url, data in posts:
        resp = viewer.post(url, data=data)
        assert resp.status_code == 403, url
        shows(resp, 403, "edit_link_needed")
    assert rows() == before
    assert editor.get() == game


def test_edit_link_gives_the_edit_right(app, editor, viewer):
    assert viewer.post(f"/games/{editor.id}/rounds/1", data=ROUND_1).status_code == 403
    wrong = viewer.get(f"/games/{editor.id}/edit/{editor.token}x")
    assert wrong.status_code == 403
    assert viewer.post(f"/games/{editor.id}/rounds/1", data=ROUND_1).status_code == 403
    assert viewer.get(f"/games/{editor.id}/edit/not-a-token").status_code == 403
    assert viewer.get(f"/games/no-such-game/edit/{editor.token}").status_code == 404

    resp = viewer.get(f"/games/{editor.id}/edit/{editor.token}")
    assert resp.status_code == 302
    assert urlsplit(resp.headers["Location"]).path == f"/games/{editor.id}"
    page = text(viewer.get(f"/games/{editor.id}"))
    assert "You can change this game on this phone." in page
    assert 'id="edit-link"' in page
    assert viewer.post(f"/games/{editor.id}/rounds/1", data=ROUND_1).status_code == 302
    assert len(entries(app)) == 3


def test_edit_right_is_per_game(new_game, client, editor):
    other = new_game(players=["Dora", "Eve"])
    resp = client.post(f"/games/{other.id}/rounds/1/close")
    assert resp.status_code == 403
    assert other.get()["version"] == 1


# --- the round page ----------------------------------------------------------------------


def test_round_page_saves_the_round(app, client, editor):
    page = text(client.get(f"/games/{editor.id}/rounds/1"))
    assert 'id="round-form"' in page
    assert "Nothing entered yet." not in page
    assert 'name="players-0-version" type="hidden" value="0"' in page

    resp = client.post(
        f"/games/{editor.id}/rounds/1",
        data=round_form(["cat", "d-o-g", "ox"], ["", "", "m"], went_out="0"),
    )
    assert resp.status_code == 302
    assert resp.headers["Location"].endswith(f"/games/{editor.id}/rounds/1#breakdown")
    assert entries(app) == [
        (1, 0, [["c", "a", "t"]], [], True),
        (1, 1, [["d", "o", "g"]], [], False),
        (1, 2, [["o", "x"]], ["m"], False),
    ]
    page = text(client.get(f"/games/{editor.id}/rounds/1"))
    assert "Round 1 saved." in page
    assert re.findall(r'data-score="(-?\d+)"', page) == ["13", "13", "9"]  # 13; 13; 14 - 5
    assert 'value="c-a-t"' in page  # the saved cards, back in the form
    assert 'name="players-2-version" type="hidden" value="1"' in page
    assert 'value="0" checked' in page  # Ann went out


def test_round_page_words_typed_as_cards(app, client, editor):
    # Round 1 needs round 1 closed first for round 2: QU-I-Z typed with dashes, TH-E as a pair.
    client.post(f"/games/{editor.id}/rounds/1", data=ROUND_1)
    client.post(f"/games/{editor.id}/rounds/1/close")
    resp = client.post(
        f"/games/{editor.id}/rounds/2",
        data=round_form(["qu-i-z", "th-e, at", "jabs"], ["m", "", ""], went_out="2"),
    )
    assert resp.status_code == 302
    assert entries(app)[3:] == [
        (2, 0, [["qu", "i", "z"]], ["m"], False),
        (2, 1, [["th", "e"], ["a", "t"]], [], False),
        (2, 2, [["j", "a", "b", "s"]], [], True),
    ]
    page = text(client.get(f"/games/{editor.id}/rounds/2"))
    # Ann 25 - 5 = 20; Ben THE 11 + AT 5 + 10 most words = 26; Cy JABS 13+2+8+3 = 26
    # (QUIZ and JABS tie at 4 letters: no longest-word bonus).
    assert re.findall(r'data-score="(-?\d+)"', page) == ["20", "26", "26"]


def test_round_page_rule_violation_is_422_next_to_the_field(app, client, editor, rows):
    before = rows()
    data = round_form(["cat", "d-o-g e", "ox"], ["", "", "m"], went_out="0")
    resp = client.post(f"/games/{editor.id}/rounds/1", data=data)
    shows(resp, 422, "word_one_card", player="Ben", card="e", double=False)
    page = text(resp)
    assert "Not saved." in page
    said = message("word_one_card", player="Ben", card="e", double=False)
    assert re.search(
        r'<p class="error" id="players-1-words-error" role="alert">' + re.escape(said),
        resp.get_data(as_text=True),
    )
    assert 'value="d-o-g e"' in page  # the typed text is kept
    assert 'value="0" checked' in page
    assert rows() == before

    data = round_form(["cat", "d-o-g", "ox"], ["", "e", "m"])  # Ben holds 4 cards
    page = shows(
        client.post(f"/games/{editor.id}/rounds/1", data=data),
        422,
        "hand_size",
        player="Ben",
        have=4,
        round=1,
        need=3,
    )
    said = message("hand_size", player="Ben", have=4, round=1, need=3)
    assert re.search(
        r'<fieldset class="entry has-error" id="players-1" data-seat="1">\s*'
        r'<legend>Ben <span class="count" aria-live="polite"></span></legend>\s*'
        r'<p class="error" role="alert">' + re.escape(said),
        page,
    )
    assert rows() == before

    data = round_form(["cat", "d-o-g", "o-x"], ["", "", "ñ"])
    resp = client.post(f"/games/{editor.id}/rounds/1", data=data)
    shows(resp, 422, "not_a_card", card="ñ")
    assert 'value="ñ"' in text(resp)
    assert rows() == before


def test_round_page_stale_hand_is_409_keeping_what_was_typed(app, client, editor, rows):
    assert client.post(f"/games/{editor.id}/rounds/1", data=ROUND_1).status_code == 302
    before = rows()
    # Loaded before the save: every hand at version 0. Ann's hand moved since: a clash.
    stale = round_form(["c-a-t", "d-i-g", "a-x"], ["", "", "m"], versions=(0, 0, 0))
    resp = client.post(f"/games/{editor.id}/rounds/1", data=stale)
    shows(resp, 409, "seat_changed", number=1, seat=0, name="Ann")
    page = text(resp)
    assert 'value="d-i-g"' in page  # what was typed stays on screen
    assert 'id="clash"' in page and "Saved from another phone" in page  # beside the saved
    assert 'name="players-0-version" type="hidden" value="1"' in page  # saving again wins
    assert rows() == before

    fresh = round_form(["c-a-t", "d-i-g", "a-x"], ["", "", "m"], versions=(1, 1, 1))
    assert client.post(f"/games/{editor.id}/rounds/1", data=fresh).status_code == 302
    assert [e[2] for e in entries(app)] == [[["c", "a", "t"]], [["d", "i", "g"]], [["a", "x"]]]


def test_round_page_blank_hands_stay_for_their_phones(app, client, editor, rows):
    # Only Cy has no phone: the scorekeeper types Cy's hand alone; Ann and Ben stay empty.
    resp = client.post(
        f"/games/{editor.id}/rounds/1", data=round_form(["", "", "ox"], ["", "", "m"])
    )
    assert resp.status_code == 302
    assert resp.headers["Location"].endswith(f"/games/{editor.id}/rounds/1#round-live")
    assert entries(app) == [(1, 2, [["o", "x"]], ["m"], False)]
    page = text(client.get(f"/games/{editor.id}/rounds/1"))
    assert "Round 1 saved. Waiting for Ann and Ben." in page
    assert "data-score=" not in page  # not scored until every hand is in
    before = rows()
    shows(
        client.post(f"/games/{editor.id}/rounds/1", data=round_form(["", "", ""])),
        422,
        "hands_blank",
    )
    assert rows() == before


def test_round_page_resave_keeps_the_challenges_of_unchanged_words(app, client, editor):
    client.post(f"/games/{editor.id}/rounds/1", data=ROUND_1)
    client.post(f"/games/{editor.id}/rounds/1/challenges", data={"by": "1", "word": "2:0"})
    assert challenges(app) == [(1, 1, 2, 0, True, "dictionary", "in_dictionary")]
    # Ben's DOG was really DIG: Cy's OX is unchanged, so Ben's challenge of it stands.
    resp = client.post(
        f"/games/{editor.id}/rounds/1",
        data=round_form(["cat", "d-i-g", "ox"], ["", "", "m"], went_out="0"),
    )
    assert resp.status_code == 302
    assert [c[1:] for c in challenges(app)] == [(1, 2, 0, True, "dictionary", "in_dictionary")]
    page = text(client.get(f"/games/{editor.id}/rounds/1"))
    assert re.findall(r'data-score="(-?\d+)"', page) == ["13", "0", "9"]  # Ben 13 - 14 -> 0
    # Cy's word was AX, not OX: the challenge of OX no longer applies and is dropped.
    resp = client.post(
        f"/games/{editor.id}/rounds/1",
        data=round_form(["cat", "d-i-g", "ax"], ["", "", "m"], went_out="0"),
    )
    assert resp.status_code == 302
    assert challenges(app) == []
    page = text(client.get(f"/games/{editor.id}/rounds/1"))
    assert "The challenge of OX was dropped: that word is no longer entered." in page
    assert re.findall(r'data-score="(-?\d+)"', page) == ["13", "13", "9"]


def test_round_page_fills_in_the_hands_of_the_seats_already_in(app, client, editor):
    """While the players' phones are entering their hands, the scorekeeper's form shows
    the hands already in (a save of it keeps them), not an empty form replacing them."""
    auth = {"Authorization": f"Bearer {editor.token}"}
    for seat, body in (
        (0, {"words": ["c-a-t"], "went_out": True}),
        (2, {"words": ["o-x"], "unused": ["m"]}),
    ):
        url = f"/api/v1/games/{editor.id}/rounds/1/seats/{seat}"
        resp = client.put(url, json=body, headers=auth)
        assert resp.status_code == 200, resp.get_data(as_text=True)
    page = text(client.get(f"/games/{editor.id}/rounds/1"))
    found = re.findall(r'name="players-(\d)-(words|unused)"[^>]*value="([^"]*)"', page)
    assert found == [
        ("0", "words", "c-a-t"),
        ("0", "unused", ""),
        ("1", "words", ""),
        ("1", "unused", ""),
        ("2", "words", "o-x"),
        ("2", "unused", "m"),
    ]
    assert 'value="0" checked' in page  # Ann went out
    assert 'name="players-0-version" type="hidden" value="1"' in page  # each hand's own
    assert 'name="players-1-version" type="hidden" value="0"' in page
    assert "Round 1 is waiting for Ben to enter their hand." in page
    # A phone with only the view link sees that too, and the round as open on the board.
    viewer = app.test_client()
    seen = text(viewer.get(f"/games/{editor.id}/rounds/1"))
    assert "Round 1 is waiting for Ben to enter their hand." in seen
    assert "Nothing entered yet." not in seen
    board = text(viewer.get(f"/games/{editor.id}"))
    assert re.findall(r'class="round-link ([a-z]*)"', board)[:2] == ["open", ""]

    resp = client.post(
        f"/games/{editor.id}/rounds/1",
        data=round_form(["c-a-t", "d-o-g", "o-x"], ["", "", "m"], went_out="0", versions=(1, 0, 1)),
    )
    assert resp.status_code == 302
    assert entries(app) == [
        (1, 0, [["c", "a", "t"]], [], True),
        (1, 1, [["d", "o", "g"]], [], False),
        (1, 2, [["o", "x"]], ["m"], False),
    ]


def test_round_page_refuses_round_2_while_round_1_is_open(client, editor, rows):
    client.post(f"/games/{editor.id}/rounds/1", data=ROUND_1)
    page = text(client.get(f"/games/{editor.id}/rounds/2"))
    assert "Round 1 is still open: close it before entering this round." in page
    assert 'id="round-form"' not in page
    before = rows()
    resp = client.post(
        f"/games/{editor.id}/rounds/2", data=round_form(["qu-i-z", "t-o-p", "jabs"], ["m", "a", ""])
    )
    shows(resp, 422, "previous_round_open", previous=1, number=2)
    assert rows() == before


def test_round_page_unknown_round_is_404(client, editor):
    assert client.get(f"/games/{editor.id}/rounds/9").status_code == 404
    assert client.get("/games/no-such-game/rounds/1").status_code == 404


def test_challenge_and_withdraw_from_the_round_page(app, client, editor, rows):
    client.post(f"/games/{editor.id}/rounds/1", data=ROUND_1)
    # Ben (seat 1) challenges Cy's (seat 2) first word, OX; the dictionary decides.
    resp = client.post(
        f"/games/{editor.id}/rounds/1/challenges", data={"by": "1", "word": "2:0", "ruling": ""}
    )
    assert resp.status_code == 302
    assert resp.headers["Location"].endswith(f"/games/{editor.id}/rounds/1#challenges")
    assert challenges(app) == [(1, 1, 2, 0, True, "dictionary", "in_dictionary")]
    page = text(client.get(f"/games/{editor.id}/rounds/1"))
    assert "Ben challenged Cy's OX:" in page
    assert "Ben pays 14." in page
    assert re.findall(r'data-score="(-?\d+)"', page) == ["13", "0", "9"]  # Ben 13 - 14 -> 0

    # The table rules Ann's CAT not legal.
    client.post(
        f"/games/{editor.id}/rounds/1/challenges",
        data={"by": "2", "word": "0:0", "ruling": "illegal"},
    )
    assert challenges(app)[1] == (2, 2, 0, 0, False, "table", "table_illegal")
    page = text(client.get(f"/games/{editor.id}/rounds/1"))
    assert "Ann loses the word: its 13 points count against them." in page

    # Refused challenges show the round page again with the message, and write nothing.
    before = rows()
    for data, code, params in [
        ({"by": "2", "word": "2:0"}, "challenge_own_word", {"player": "Cy"}),
        ({"by": "0", "word": "2:0"}, "challenge_twice", {"player": "Cy", "word": "ox"}),
        ({"by": "0", "word": "1:3"}, "challenge_no_word", {"player": "Ben", "count": 1}),
        ({"by": "0", "word": "7:0"}, "challenge_pick", {}),
        ({"by": "", "word": "1:0"}, "challenge_pick", {}),
    ]:
        resp = client.post(f"/games/{editor.id}/rounds/1/challenges", data=data)
        page = shows(resp, 422, code, **params)
        assert 'id="challenge-error"' in page, data
        assert rows() == before

    resp = client.post(f"/games/{editor.id}/rounds/1/challenges/1/delete")
    assert resp.status_code == 302
    assert [c[0] for c in challenges(app)] == [2]
    assert "Challenge withdrawn." in text(client.get(f"/games/{editor.id}/rounds/1"))
    before = rows()
    resp = client.post(f"/games/{editor.id}/rounds/1/challenges/1/delete")
    shows(resp, 404, "no_such_challenge", number=1, n=1)
    assert rows() == before


def test_a_ruling_shows_the_words_definition_but_not_a_names(client, editor):
    # Ann's FT (the standard list: an abbreviation; WordNet: a foot), Ben's DOG.
    played = round_form(["f-t", "d-o-g", "ox"], ["a", "", "m"], went_out="1")
    assert client.post(f"/games/{editor.id}/rounds/1", data=played).status_code == 302
    client.post(f"/games/{editor.id}/rounds/1/challenges", data={"by": "1", "word": "0:0"})
    client.post(f"/games/{editor.id}/rounds/1/challenges", data={"by": "2", "word": "1:0"})
    page = text(client.get(f"/games/{editor.id}/rounds/1"))
    notes = re.findall(r'<li class="challenge-note"[^>]*>(.*?)</li>', page, re.S)
    assert len(notes) == 2
    assert "Ben challenged Ann's FT" in notes[0] and "not legal" in notes[0]
    assert "definition" not in notes[0] and "inches" not in notes[0]
    assert "Cy challenged Ben's DOG" in notes[1]
    assert "Definition (WordNet 3.0)" in notes[1]
    assert "a member of the genus Canis" in notes[1]


def test_close_and_reopen_from_the_pages(app, client, editor, rows):
    before = rows()
    resp = client.post(f"/games/{editor.id}/rounds/1/close")
    shows(resp, 422, "round_empty", number=1)
    assert rows() == before

    client.post(f"/games/{editor.id}/rounds/1", data=ROUND_1)
    resp = client.post(f"/games/{editor.id}/rounds/1/close")
    assert resp.status_code == 302
    assert urlsplit(resp.headers["Location"]).path == f"/games/{editor.id}"
    page = text(client.get(f"/games/{editor.id}"))
    assert "Round 1 closed." in page
    assert re.findall(r'data-total="(-?\d+)"', page) == ["13", "13", "9"]
    assert 'data-round="1" data-player="Cy">9<' in page
    with app.app_context():
        assert db.session.scalar(select(Round.closed)) is True

    round_page = text(client.get(f"/games/{editor.id}/rounds/1"))
    assert 'id="reopen"' in round_page and 'id="round-form"' not in round_page
    resp = client.post(f"/games/{editor.id}/rounds/1/reopen")
    assert resp.status_code == 302
    assert urlsplit(resp.headers["Location"]).path == f"/games/{editor.id}/rounds/1"
    assert "Round 1 reopened" in text(client.get(f"/games/{editor.id}/rounds/1"))
    with app.app_context():
        assert db.session.scalar(select(Round.closed)) is False
    page = text(client.get(f"/games/{editor.id}"))
    assert re.findall(r'data-total="(-?\d+)"', page) == ["0", "0", "0"]

    before = rows()
    resp = client.post(f"/games/{editor.id}/rounds/1/reopen")
    shows(resp, 422, "round_not_closed", number=1)
    assert rows() == before


def test_board_fragment_answers_304_until_a_change(client, editor):
    resp = client.get(f"/games/{editor.id}/board")
    assert resp.status_code == 200
    tag = resp.headers["ETag"]
    # the game's version, in this phone's language, in this build
    assert tag == f'"{editor.id}-1-en-{editor.app.config["BUILD"]}"'
    assert resp.headers["Cache-Control"] == "no-cache"
    assert 'data-version="1"' in text(resp)

    again = client.get(f"/games/{editor.id}/board", headers={"If-None-Match": tag})
    assert again.status_code == 304
    assert again.get_data() == b""
    client.get(f"/games/{editor.id}")  # reading the game changes nothing
    assert (
        client.get(f"/games/{editor.id}/board", headers={"If-None-Match": tag}).status_code == 304
    )

    client.post(f"/games/{editor.id}/rounds/1", data=ROUND_1)
    client.post(f"/games/{editor.id}/rounds/1/close")
    changed = client.get(f"/games/{editor.id}/board", headers={"If-None-Match": tag})
    assert changed.status_code == 200
    assert changed.headers["ETag"] == f'"{editor.id}-3-en-{editor.app.config["BUILD"]}"'
    assert re.findall(r'data-total="(-?\d+)"', text(changed)) == ["13", "13", "9"]
    assert (
        client.get(
            f"/games/{editor.id}/board", headers={"If-None-Match": changed.headers["ETag"]}
        ).status_code
        == 304
    )
    assert client.get("/games/no-such-game/board").status_code == 404


def test_the_board_in_a_language_is_one_answer_for_every_phone(app, client, editor, viewer):
    """What a phone polls can come from a shared cache (nginx's micro-cache, keyed by the
    address): the scorekeeper's phone and a plain viewer get the same bytes and ETag, no
    cookie is set or varied on, and the answer is marked as shareable for a second."""
    client.post(f"/games/{editor.id}/rounds/1", data=ROUND_1)
    answers = [c.get(f"/games/{editor.id}/board?lang=hu") for c in (client, viewer)]
    for resp in answers:
        assert resp.status_code == 200
        assert resp.headers["X-Accel-Expires"] == "1"
        assert resp.headers["Cache-Control"] == "no-cache"
        assert "Set-Cookie" not in resp.headers
        assert "Cookie" not in resp.headers.get("Vary", "")
        assert "csrf" not in text(resp)
    assert answers[0].get_data() == answers[1].get_data()
    assert answers[0].headers["ETag"] == answers[1].headers["ETag"]
    # Without the language in the address the answer follows the phone: never shared.
    own = viewer.get(f"/games/{editor.id}/board", headers={"Accept-Language": "cs"})
    assert own.headers["X-Accel-Expires"] == "0"
    assert "Cookie" in own.headers["Vary"] and "Accept-Language" in own.headers["Vary"]


def test_the_page_tells_its_script_how_often_to_ask_for_the_board(app, client, editor, viewer):
    assert 'data-poll-ms="3000"' in text(client.get(f"/games/{editor.id}"))
    app.config["BOARD_POLL_MS"] = 500
    assert 'data-poll-ms="500"' in text(client.get(f"/games/{editor.id}"))
    assert 'data-poll-ms="500"' in text(viewer.get(f"/games/{editor.id}"))


def test_house_words_from_the_game_page(app, client, editor, rows):
    resp = client.post(f"/games/{editor.id}/house-words", data={"word": "Zax", "allowed": "allow"})
    assert resp.status_code == 302
    assert resp.headers["Location"].endswith(f"/games/{editor.id}#house-words")
    client.post(f"/games/{editor.id}/house-words", data={"word": "cat", "allowed": "ban"})
    assert house_words(app) == [("cat", False), ("zax", True)]
    page = text(client.get(f"/games/{editor.id}"))
    assert re.search(r'<span class="hw-word">CAT</span> <span class="tag bad">banned</span>', page)
    assert re.search(r'<span class="hw-word">ZAX</span> <span class="tag ok">allowed</span>', page)

    before = rows()
    for word in ("x", "ice cream"):
        resp = client.post(
            f"/games/{editor.id}/house-words", data={"word": word, "allowed": "allow"}
        )
        shows(resp, 422, "house_word_letters", least=2, most=40)
        assert rows() == before
    resp = client.post(f"/games/{editor.id}/house-words", data={"word": "", "allowed": "allow"})
    assert resp.status_code == 422  # the form's own check: refused like the others
    assert "Type the word." in text(resp)
    assert rows() == before

    resp = client.post(f"/games/{editor.id}/house-words/zax/delete")
    assert resp.status_code == 302
    assert house_words(app) == [("cat", False)]
    page = text(client.get(f"/games/{editor.id}"))
    assert "ZAX is no longer a house word." in page
    assert '<span class="hw-word">ZAX</span>' not in page
    assert '<span class="hw-word">CAT</span>' in page
    before = rows()
    resp = client.post(f"/games/{editor.id}/house-words/zax/delete")
    shows(resp, 404, "no_such_house_word", word="zax")
    assert rows() == before


def test_round_page_flags_words_the_dictionary_does_not_know(client, editor):
    # XAZ is not in the standard lexicon; CAT and OX are.
    client.post(
        f"/games/{editor.id}/rounds/1", data=round_form(["cat", "x-a-z", "ox"], ["", "", "m"])
    )
    page = text(client.get(f"/games/{editor.id}/rounds/1"))
    flags = re.findall(r'<span class="flag"[^>]*>⚑ ([^<]+)</span>', page)
    assert flags == ["not in dictionary: challenge?"]
    assert re.search(r"XAZ <span class=\"flag\"", page)

    # House words change the flags: XAZ allowed, CAT banned.
    client.post(f"/games/{editor.id}/house-words", data={"word": "xaz", "allowed": "allow"})
    client.post(f"/games/{editor.id}/house-words", data={"word": "cat", "allowed": "ban"})
    page = text(client.get(f"/games/{editor.id}/rounds/1"))
    assert re.findall(r'<span class="flag"[^>]*>⚑ ([^<]+)</span>', page) == [
        "banned house word: challenge?"
    ]
    assert re.search(r"CAT <span class=\"flag\"", page)


def test_finished_game_shows_the_winners(client, editor):
    # Round n: Ann CAT 13 and Ben DOG 13, each with n-1 leftovers worth 2 (E, I); Cy OX 14
    # with M 5 and n-1 A worth 2. One word each, CAT and DOG tie for the longest: no bonus.
    for n in range(1, 9):
        editor.enter(
            n,
            [
                hand("Ann", ["c-a-t"], ["e"] * (n - 1)),
                hand("Ben", ["d-o-g"], ["i"] * (n - 1)),
                hand("Cy", ["o-x"], ["m", *["a"] * (n - 1)]),
            ],
        )
        editor.close(n)
    page = text(client.get(f"/games/{editor.id}/board"))
    assert "Winners, sharing the win" in page
    assert "Ann & Ben" in page
    # Ann and Ben: 13+11+9+7+5+3+1+0 = 49 (round 8: 13 - 14 -> 0); Cy: 9+7+5+3+1+0+0+0 = 25.
    assert re.findall(r'data-total="(-?\d+)"', page) == ["49", "49", "25"]
    assert "Next: round" not in page
