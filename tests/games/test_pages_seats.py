"""Seats through the pages: "I am Ben" from the game's page, each phone saving its own
hand, the clash of two phones saving one hand, the scorekeeper's release, the live part."""

from __future__ import annotations

import html
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from markupsafe import escape
from sqlalchemy import select

from companion.store.db import db
from companion.store.models import Entry, Player
from companion.web import messages


def text(resp) -> str:  # type: ignore[no-untyped-def]
    """The page as a person reads it: entities decoded, runs of white space as one space."""
    return re.sub(r"\s+", " ", html.unescape(resp.get_data(as_text=True)))


def shows(resp, status: int, code: str, **params: object) -> str:  # type: ignore[no-untyped-def]
    """A page with ``status`` showing the refusal ``code`` with ``params``; its HTML."""
    page = resp.get_data(as_text=True)
    assert resp.status_code == status, (resp.status_code, page[:300])
    assert str(escape(messages.render(code, params))) in page, messages.render(code, params)
    return page


def entries(app: Flask) -> list[tuple]:
    with app.app_context():
        return [
            (e.round.number, e.seat, e.words, e.unused, e.went_out, e.version)
            for e in db.session.scalars(select(Entry).order_by(Entry.round_id, Entry.seat))
        ]


def seat_hashes(app: Flask) -> list[str | None]:
    with app.app_context():
        return [p.seat_token_hash for p in db.session.scalars(select(Player).order_by(Player.seat))]


@pytest.fixture
def game(new_game):  # type: ignore[no-untyped-def]
    """Ann, Ben and Cy; nobody holds a seat yet."""
    return new_game()


@pytest.fixture
def phone(app: Flask):  # type: ignore[no-untyped-def]
    """A new phone: ``phone()`` is a test client with no session."""
    return app.test_client


def take(client: FlaskClient, game_id: str, seat: int) -> None:
    """Tap a name on the game's page, then "I am ..." on the page that asks."""
    assert client.get(f"/games/{game_id}/seats/{seat}").status_code == 200
    resp = client.post(f"/games/{game_id}/seats/{seat}")
    assert resp.status_code == 302, resp.get_data(as_text=True)


def seat_form(words: str, unused: str = "", went_out: bool = False, version: int | None = 0):  # type: ignore[no-untyped-def]
    data = {"words": words, "unused": unused}
    if went_out:
        data["went_out"] = "y"
    if version is not None:
        data["version"] = str(version)
    return data


def test_a_phone_takes_a_seat_from_the_game_page(app, game, phone):  # type: ignore[no-untyped-def]
    ben, other = phone(), phone()
    page = text(ben.get(f"/games/{game.id}"))
    links = re.findall(r'href="/games/[\w-]+/seats/(\d)">I am (\w+)<', page)
    assert links == [("0", "Ann"), ("1", "Ben"), ("2", "Cy")]
    asked = text(ben.get(f"/games/{game.id}/seats/1"))
    assert "Are you Ben?" in asked and 'id="claim"' in asked
    resp = ben.post(f"/games/{game.id}/seats/1")
    assert resp.headers["Location"].endswith(f"/games/{game.id}/rounds/1")  # straight to entry
    assert [h is not None for h in seat_hashes(app)] == [False, True, False]

    mine = text(ben.get(f"/games/{game.id}"))
    assert "This phone is Ben's seat" in mine
    assert "I am " not in mine  # one phone, one player
    assert 'id="enter-my-hand"' in mine
    theirs = text(other.get(f"/games/{game.id}"))
    assert re.findall(r">I am (\w+)<", theirs) == ["Ann", "Cy"]
    assert 'data-seat="1"> <span class="seat-name">Ben</span> <span class="tag claimed">' in theirs
    round_page = text(ben.get(f"/games/{game.id}/rounds/1"))
    assert 'id="seat-form"' in round_page and 'id="round-form"' not in round_page
    assert f'action="/games/{game.id}/rounds/1/seats/1"' in round_page


def test_tapping_twice_keeps_the_seat_and_its_secret(app, game, phone):  # type: ignore[no-untyped-def]
    ben = phone()
    take(ben, game.id, 1)
    before = seat_hashes(app)
    assert ben.post(f"/games/{game.id}/seats/1").status_code == 302
    assert seat_hashes(app) == before


def test_a_phone_holding_a_seat_cannot_take_another(app, game, phone, rows):  # type: ignore[no-untyped-def]
    ben = phone()
    take(ben, game.id, 1)
    before = rows()
    shows(ben.post(f"/games/{game.id}/seats/2"), 422, "seat_already_held", name="Ben")
    assert rows() == before


def test_a_seat_taken_is_refused_to_another_phone(app, game, phone, rows):  # type: ignore[no-untyped-def]
    take(phone(), game.id, 1)
    late = phone()
    assert "Ben's seat is taken" in text(late.get(f"/games/{game.id}/seats/1"))
    before = rows()
    shows(late.post(f"/games/{game.id}/seats/1"), 409, "seat_taken", name="Ben")
    assert rows() == before
    assert late.get(f"/games/{game.id}/seats/7").status_code == 404


def test_each_phone_saves_its_own_hand(app, game, phone):  # type: ignore[no-untyped-def]
    ann, ben, cy = phone(), phone(), phone()
    for seat, client in enumerate((ann, ben, cy)):
        take(client, game.id, seat)
    resp = ben.post(f"/games/{game.id}/rounds/1/seats/1", data=seat_form("d-o-g"))
    assert resp.headers["Location"].endswith("/rounds/1#round-live")
    page = text(ben.get(f"/games/{game.id}/rounds/1"))
    assert "Ben's hand is saved. Waiting for Ann and Cy." in page
    assert "Round 1 is waiting for Ann and Cy to enter their hand." in page
    assert "Longest word</strong>: 3 letters, Ben (DOG)." in page
    assert 'value="d-o-g"' in page  # the saved hand, back in the form
    assert "Save my changes" in page
    ann.post(f"/games/{game.id}/rounds/1/seats/0", data=seat_form("cat", went_out=True))
    resp = cy.post(f"/games/{game.id}/rounds/1/seats/2", data=seat_form("ox", "m"))
    assert resp.headers["Location"].endswith("/rounds/1#breakdown")  # the last hand: scored
    page = text(cy.get(f"/games/{game.id}/rounds/1"))
    assert "Cy's hand is saved. Every hand is in." in page
    assert re.findall(r'data-score="(-?\d+)"', page) == ["13", "13", "9"]
    assert entries(app) == [
        (1, 0, [["c", "a", "t"]], [], True, 1),
        (1, 1, [["d", "o", "g"]], [], False, 1),
        (1, 2, [["o", "x"]], ["m"], False, 1),
    ]


def test_a_phone_writes_only_its_own_seat(app, game, phone, rows):  # type: ignore[no-untyped-def]
    ben, watcher = phone(), phone()
    take(ben, game.id, 1)
    before = rows()
    page = text(ben.post(f"/games/{game.id}/rounds/1/seats/0", data=seat_form("cat")))
    assert messages.render("seat_not_yours", {"yours": "Ben", "name": "Ann"}) in page
    resp = watcher.post(f"/games/{game.id}/rounds/1/seats/0", data=seat_form("cat"))
    assert resp.status_code == 403
    assert f'href="/games/{game.id}"' in text(resp)  # the way back to the game
    assert rows() == before


def test_a_refused_hand_comes_back_by_its_field_as_typed(app, game, phone, rows):  # type: ignore[no-untyped-def]
    ben = phone()
    take(ben, game.id, 1)
    before = rows()
    resp = ben.post(f"/games/{game.id}/rounds/1/seats/1", data=seat_form("d-o-g", "z"))
    page = shows(resp, 422, "hand_size", player="Ben", have=4, need=3, round=1)
    assert 'value="d-o-g"' in page and 'value="z"' in page  # what was typed stays
    assert re.search(r'<legend>Ben .*?</legend>\s*<p class="error" role="alert">', page)
    resp = ben.post(f"/games/{game.id}/rounds/1/seats/1", data=seat_form("d-o-bb"))
    page = shows(resp, 422, "not_a_card", card="bb")
    assert 'id="words-error"' in page  # beside the words box
    assert rows() == before


def test_two_phones_saving_one_hand_the_later_chooses(app, client, game, phone):  # type: ignore[no-untyped-def]
    ben = phone()
    take(ben, game.id, 1)
    loaded = text(ben.get(f"/games/{game.id}/rounds/1"))
    assert 'name="version" type="hidden" value="0"' in loaded
    # Meanwhile the scorekeeper types Ben's hand on the every-hand form (others left blank).
    client.get(f"/games/{game.id}/edit/{game.token}")
    resp = client.post(
        f"/games/{game.id}/rounds/1",
        data={"players-1-words": "d-i-g", "players-1-version": "0", "went_out": ""},
    )
    assert resp.status_code == 302
    resp = ben.post(f"/games/{game.id}/rounds/1/seats/1", data=seat_form("d-o-g", version=0))
    page = shows(resp, 409, "seat_changed", name="Ben", number=1)
    assert 'value="d-o-g"' in page  # what Ben typed, still on his screen
    saved = re.search(r'id="clash".*?</div>', page, re.S)
    assert saved and re.findall(r'class="card">(\w+)<', saved[0]) == ["D", "I", "G"]
    assert 'name="version" type="hidden" value="1"' in page  # saving again keeps his
    assert entries(app) == [(1, 1, [["d", "i", "g"]], [], False, 1)]
    assert ben.post(f"/games/{game.id}/rounds/1/seats/1", data=seat_form("d-o-g", version=1))
    assert entries(app) == [(1, 1, [["d", "o", "g"]], [], False, 2)]


def test_the_scorekeeper_releases_a_lost_phones_seat(app, client, game, phone):  # type: ignore[no-untyped-def]
    lost, new = phone(), phone()
    take(lost, game.id, 1)
    client.get(f"/games/{game.id}/edit/{game.token}")
    page = text(client.get(f"/games/{game.id}"))
    assert f'action="/games/{game.id}/seats/1/release"' in page
    assert lost.post(f"/games/{game.id}/seats/1/release").status_code == 403  # not the keeper
    resp = client.post(f"/games/{game.id}/seats/1/release")
    assert resp.headers["Location"].endswith(f"/games/{game.id}#seats")
    assert "Ben's seat is free" in text(client.get(f"/games/{game.id}"))
    assert seat_hashes(app) == [None, None, None]
    assert 'id="seat-form"' not in text(lost.get(f"/games/{game.id}/rounds/1"))  # secret gone
    take(new, game.id, 1)
    assert 'id="seat-form"' in text(new.get(f"/games/{game.id}/rounds/1"))


def test_going_out_with_a_card_left_over_is_saved_with_a_warning(app, game, phone):  # type: ignore[no-untyped-def]
    cy = phone()
    take(cy, game.id, 2)
    cy.post(f"/games/{game.id}/rounds/1/seats/2", data=seat_form("ox", "m", went_out=True))
    page = text(cy.get(f"/games/{game.id}/rounds/1"))
    assert "Cy is marked as going out but still has 1 card left over: check it." in page
    assert "Cy is marked as going out but still has 1 card left over." in page  # live part
    assert entries(app) == [(1, 2, [["o", "x"]], ["m"], True, 1)]


def test_a_later_round_says_the_earlier_one_was_never_entered(game, phone):  # type: ignore[no-untyped-def]
    page = text(phone().get(f"/games/{game.id}/rounds/3"))
    assert "Round 2 hasn't been entered yet" in page
    assert "Round 2 is still open" not in page


def live_address(resp) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    """The live part's address and the ETag of what the page shows, as the round page
    gives them to its script (data-live-url, data-etag)."""
    page = resp.get_data(as_text=True)
    url = re.search(r'data-live-url="([^"]+)"', page)
    tag = re.search(r'data-etag="([^"]+)"', page)
    assert url and tag, page[:300]
    return html.unescape(url[1]), html.unescape(tag[1])


def test_the_live_part_follows_the_other_phones(app, game, phone):  # type: ignore[no-untyped-def]
    ben, watcher = phone(), phone()
    take(ben, game.id, 1)
    url, shown = live_address(watcher.get(f"/games/{game.id}/rounds/1"))
    assert url == f"/games/{game.id}/rounds/1/live?lang=en"
    first = watcher.get(url)
    assert first.status_code == 200
    assert "Hands in: 0 of 3" in text(first)
    tag = first.headers["ETag"]
    assert tag == shown  # the page shows what the first poll would bring: nothing to do
    assert watcher.get(url, headers={"If-None-Match": tag}).status_code == 304
    ben.post(f"/games/{game.id}/rounds/1/seats/1", data=seat_form("d-o-g"))
    second = watcher.get(url, headers={"If-None-Match": tag})
    assert second.status_code == 200 and second.headers["ETag"] != tag
    live = text(second)
    assert "Hands in: 1 of 3" in live and "Bonus to beat" in live


def test_a_hand_saved_before_the_first_poll_is_not_missed(game, phone):  # type: ignore[no-untyped-def]
    ben, watcher = phone(), phone()
    take(ben, game.id, 1)
    url, shown = live_address(watcher.get(f"/games/{game.id}/rounds/1"))
    ben.post(f"/games/{game.id}/rounds/1/seats/1", data=seat_form("d-o-g"))
    first = watcher.get(url, headers={"If-None-Match": shown})  # the script's first poll
    assert first.status_code == 200
    assert "Hands in: 1 of 3" in text(first)


def scored_and_challenged(client: FlaskClient, game) -> None:  # type: ignore[no-untyped-def]
    """The scorekeeper saves round 1 (CAT, DOG, OX + M) and challenges Cy's OX."""
    client.get(f"/games/{game.id}/edit/{game.token}")
    hands = {
        "players-0-words": "c-a-t",
        "players-1-words": "d-o-g",
        "players-2-words": "o-x",
        "players-2-unused": "m",
        "went_out": "",
    }
    versions = {f"players-{seat}-version": "0" for seat in range(3)}
    assert client.post(f"/games/{game.id}/rounds/1", data={**hands, **versions}).status_code == 302
    challenge = {"by": "0", "word": "2:0", "ruling": "legal"}
    assert client.post(f"/games/{game.id}/rounds/1/challenges", data=challenge).status_code == 302


def accel_first(resp) -> bool:  # type: ignore[no-untyped-def]
    """``X-Accel-Expires`` comes before ``Cache-Control``: nginx (1.22) reads them in order,
    and keeps nothing when ``no-cache`` comes first."""
    names = [name.lower() for name, _value in resp.headers.items()]
    return names.index("x-accel-expires") < names.index("cache-control")


def test_every_phone_gets_the_same_live_part(app, client, game, phone):  # type: ignore[no-untyped-def]
    """The scorekeeper, a seat's phone and a phone only watching ask for the same address
    and get the same answer, byte for byte: a cache in front may keep one for all."""
    ben, viewer = phone(), phone()
    take(ben, game.id, 1)
    scored_and_challenged(client, game)
    app.config["WTF_CSRF_ENABLED"] = True  # the pages' forms carry their tokens from here
    phones = {"keeper": client, "ben": ben, "viewer": viewer}
    pages = {name: c.get(f"/games/{game.id}/rounds/1") for name, c in phones.items()}
    addresses = {live_address(page) for page in pages.values()}
    assert len(addresses) == 1
    ((url, shown),) = addresses
    answers = {name: c.get(url) for name, c in phones.items()}
    assert len({a.get_data() for a in answers.values()}) == 1
    for answer in answers.values():
        assert answer.status_code == 200
        assert answer.headers["ETag"] == shown
        assert "Set-Cookie" not in answer.headers
        assert "Cookie" not in answer.headers.get("Vary", "")
        assert answer.headers["X-Accel-Expires"] == "1"
        assert answer.headers["Cache-Control"] == "no-cache"
        assert accel_first(answer)
    body = answers["keeper"].get_data(as_text=True)
    assert "csrf_token" not in body and "<form" not in body  # no one's forms in it
    assert "Ann challenged Cy's OX" in text(answers["keeper"])
    again = ben.get(url, headers={"If-None-Match": shown})
    assert again.status_code == 304 and again.get_data() == b""
    assert again.headers["ETag"] == shown and again.headers["X-Accel-Expires"] == "1"
    assert accel_first(again)
    assert "Set-Cookie" not in again.headers


def test_the_page_around_the_live_part_keeps_this_phones_own(app, client, game, phone):  # type: ignore[no-untyped-def]
    ben, viewer = phone(), phone()
    take(ben, game.id, 1)
    scored_and_challenged(client, game)
    app.config["WTF_CSRF_ENABLED"] = True
    keeper = client.get(f"/games/{game.id}/rounds/1").get_data(as_text=True)
    assert 'class="challenge-form" data-keep="challenges"' in keeper
    assert re.search(r'data-keep="challenge-1">\s*<input id="csrf_token"', keeper)
    assert ">Withdraw</button>" in keeper and 'id="close"' in keeper
    assert 'data-watch="open enter challenges"' in keeper
    mine = ben.get(f"/games/{game.id}/rounds/1").get_data(as_text=True)
    assert 'data-watch="open enter"' in mine and 'data-my-seat="1"' in mine
    assert "challenge-form" not in mine and ">Withdraw</button>" not in mine
    watching = viewer.get(f"/games/{game.id}/rounds/1").get_data(as_text=True)
    assert 'data-watch=""' in watching and "data-my-seat" not in watching
    assert "challenge-form" not in watching and 'id="close"' not in watching


def test_the_seat_list_marks_this_phones_seat(game, phone):  # type: ignore[no-untyped-def]
    ben, viewer = phone(), phone()
    take(ben, game.id, 1)
    seat_tag = r'data-seat="(\d)"><span class="seat-name">\w+ <span class="tag" data-mine( hidden)?'
    mine = ben.get(f"/games/{game.id}/rounds/1").get_data(as_text=True)
    assert re.findall(seat_tag, mine) == [("0", " hidden"), ("1", ""), ("2", " hidden")]
    url, _tag = live_address(ben.get(f"/games/{game.id}/rounds/1"))
    polled = ben.get(url).get_data(as_text=True)  # for every phone: the script shows Ben's
    assert re.findall(seat_tag, polled) == [("0", " hidden"), ("1", " hidden"), ("2", " hidden")]
    assert re.findall(seat_tag, viewer.get(f"/games/{game.id}/rounds/1").get_data(True)) == [
        ("0", " hidden"),
        ("1", " hidden"),
        ("2", " hidden"),
    ]


def test_a_closed_round_offers_the_seat_its_next_hand(app, client, game, phone):  # type: ignore[no-untyped-def]
    ben = phone()
    take(ben, game.id, 1)
    scored_and_challenged(client, game)
    assert client.post(f"/games/{game.id}/rounds/1/close").status_code == 302
    mine = text(ben.get(f"/games/{game.id}/rounds/1"))
    assert '">Enter my hand for round 2</a>' in mine
    url, _tag = live_address(ben.get(f"/games/{game.id}/rounds/1"))
    polled = text(ben.get(url))
    assert 'data-mine-text="Enter my hand for round 2">Round 2</a>' in polled
    assert 'data-open="0" data-enter="0" data-challenges="-"' in polled


def test_the_live_part_speaks_the_language_in_its_address(app, game, phone):  # type: ignore[no-untyped-def]
    lithuanian = phone()
    page = lithuanian.get(f"/games/{game.id}/rounds/1", headers={"Accept-Language": "lt"})
    url, shown = live_address(page)
    assert url == f"/games/{game.id}/rounds/1/live?lang=lt"
    asked = phone().get(url, headers={"Accept-Language": "hu"})  # the address decides
    assert "Įvesta rankų: 0 iš 3" in text(asked)
    assert asked.headers["ETag"] == shown and asked.headers["X-Accel-Expires"] == "1"
    assert "Accept-Language" not in asked.headers.get("Vary", "")
    english = phone().get(f"/games/{game.id}/rounds/1/live?lang=en")
    assert "Hands in: 0 of 3" in text(english) and english.headers["ETag"] != shown
    # An address without a language (a page from before): this phone's, never shared.
    bare = phone().get(f"/games/{game.id}/rounds/1/live", headers={"Accept-Language": "lt"})
    assert "Įvesta rankų: 0 iš 3" in text(bare)
    assert bare.headers["X-Accel-Expires"] == "0" and "Accept-Language" in bare.headers["Vary"]


def test_the_live_part_says_when_the_scorekeepers_forms_no_longer_fit(app, client, game):  # type: ignore[no-untyped-def]
    """Its marks: the round open and enterable; the challenges and the words they can pick
    once it is scored (the scorekeeper's page loads itself again when they change)."""
    client.get(f"/games/{game.id}/edit/{game.token}")

    def marks(number: int = 1) -> tuple[str, str, str]:
        found = re.search(
            r'data-open="(\d)" data-enter="(\d)" data-challenges="([^"]*)"',
            client.get(f"/games/{game.id}/rounds/{number}/live?lang=en").get_data(as_text=True),
        )
        assert found
        return found[1], found[2], found[3]

    assert marks() == ("1", "1", "-")
    assert marks(2) == ("1", "0", "-")  # round 1 is still open: round 2 waits
    scored_and_challenged(client, game)
    challenged = marks()
    assert challenged[:2] == ("1", "1") and challenged[2].startswith("1/")
    client.post(f"/games/{game.id}/rounds/1/challenges/1/delete")
    withdrawn = marks()
    assert withdrawn[2] == "/" + challenged[2].split("/")[1]  # the same words, no challenge

    def save_cy(words: str, unused: str, version: int) -> None:
        cy = {"players-2-words": words, "players-2-unused": unused, "went_out": ""}
        resp = client.post(f"/games/{game.id}/rounds/1", data={**cy, "players-2-version": version})
        assert resp.status_code == 302

    save_cy("o-x", "e", 1)
    assert marks()[2] == withdrawn[2]  # the same words: the challenge form still fits
    save_cy("x-o", "m", 2)
    assert marks()[2] not in (withdrawn[2], "-")  # Cy's word changed: the form is stale
    assert client.post(f"/games/{game.id}/rounds/1/close").status_code == 302
    assert marks() == ("0", "0", "-")
    assert marks(2) == ("1", "1", "-")  # a seat's page on round 2 gets its form now
