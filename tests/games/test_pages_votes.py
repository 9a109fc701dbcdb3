"""The table vote through the round page (challenge_ruling majority or unanimous): every
seat's phone sees the challenge with the dictionary's advice and votes on it; the result
is applied when the vote is decided, and the scorekeeper decides a stalled vote.

Each phone is a test client that took its seat on the game's page (CSRF off); the
scorekeeper's phone opened the edit link and holds no seat.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Sequence

import pytest
from flask import Flask
from flask.testing import FlaskClient
from markupsafe import escape
from sqlalchemy import select

from companion.store.db import db
from companion.store.models import Challenge
from companion.web import messages

MAJORITY = {"challenge_ruling": "majority"}


def text(resp) -> str:
    """The page's words as a person reads them: no tags, entities decoded, runs of white
    space as one space."""
    words = re.sub(r"<[^>]*>", "", resp.get_data(as_text=True))
    return re.sub(r"\s+", " ", html.unescape(words))


def shows(resp, status: int, code: str, **params: object) -> str:
    """A page with ``status`` showing the refusal ``code`` with ``params``; its HTML."""
    page = resp.get_data(as_text=True)
    assert resp.status_code == status, (resp.status_code, page[:300])
    assert str(escape(messages.render(code, params))) in page, messages.render(code, params)
    return page


def hand(name: str, words: Sequence[str], unused: Sequence[str] = (), out: bool = False) -> dict:
    return {"name": name, "words": list(words), "unused": list(unused), "went_out": out}


ROUND_1 = [
    hand("Ann", ["c-a-t"], out=True),  # CAT 8+2+3 = 13
    hand("Ben", ["k-i-m"]),  # KIM 8+2+5 = 15: a proper noun, the dictionary says
    hand("Cy", ["o-x"], ["b"]),  # OX 2+12 = 14, B 8 left over: 6
]
DEE = hand("Dee", ["d-o-g"])  # DOG 5+2+6 = 13


def take(client: FlaskClient, game_id: str, seat: int) -> None:
    """Tap a name on the game's page, then "I am ..." on the page that asks."""
    assert client.get(f"/games/{game_id}/seats/{seat}").status_code == 200
    resp = client.post(f"/games/{game_id}/seats/{seat}")
    assert resp.status_code == 302, resp.get_data(as_text=True)


def vote(client: FlaskClient, game_id: str, seat: int, n: int, choice: str):
    """Tap "Legal" or "Not legal" (``choice``: legal, illegal) on challenge ``n``: the
    button's value, sent with the page's vote form (its seat)."""
    data = {"vote": f"{n}:{choice}", "seat": str(seat)}
    return client.post(f"/games/{game_id}/rounds/1/vote", data=data)


def ballot(page: str) -> list[tuple[str, str]]:
    """The list of votes of an open vote on a page: (name, what it says)."""
    page = re.sub(r"\s+", " ", page)
    found = re.findall(
        r'"vote \w+" data-seat="\d"><span class="seat-name">(\w+) .*?vote-what">([^<]*)<', page
    )
    return [(name, what.strip()) for name, what in found]


def scores(game) -> list[int]:
    return [p["score"] for p in game.round(1)["result"]["players"]]


def stored(app: Flask) -> list[tuple]:
    """Each challenge row: number, legal, decided_by, reason code, the votes (seat, legal)."""
    with app.app_context():
        return [
            (c.number, c.legal, c.decided_by, c.reason_code, [(v.seat, v.legal) for v in c.votes])
            for c in db.session.scalars(select(Challenge).order_by(Challenge.id))
        ]


@pytest.fixture
def table(app: Flask, new_game) -> Callable[..., tuple]:
    """``table(names, rules)``: a game whose every player took a seat on a phone of their
    own, round 1 entered, and the scorekeeper's phone (edit link, no seat) challenging
    Ben's KIM for Ann. Returns the game, the scorekeeper's phone and the seats' phones."""

    def make(names: Sequence[str] = ("Ann", "Ben", "Cy"), rules: dict = MAJORITY) -> tuple:
        game = new_game(players=names, rules=rules)
        keeper = app.test_client()
        assert keeper.get(f"/games/{game.id}/edit/{game.token}").status_code == 302
        phones = [app.test_client() for _ in names]
        for seat, client in enumerate(phones):
            take(client, game.id, seat)
        game.enter(1, [*ROUND_1, DEE][: len(names)])
        resp = keeper.post(f"/games/{game.id}/rounds/1/challenges", data={"by": "0", "word": "1:0"})
        assert resp.status_code == 302, resp.get_data(as_text=True)
        return game, keeper, phones

    return make


def test_three_phones_vote_a_word_off_by_majority(app, table):
    game, keeper, (ann, ben, cy) = table()
    before = scores(game)
    assert before == [13, 15, 6]  # the word stands while the table votes
    assert stored(app) == [(1, False, "pending", "proper_noun", [])]

    # Every phone sees the vote, the word's cards and the dictionary's advice.
    for seat, client in enumerate((ann, ben, cy)):
        page = client.get(f"/games/{game.id}/rounds/1").get_data(as_text=True)
        seen = text(client.get(f"/games/{game.id}/rounds/1"))
        assert "Ann challenged Ben's word: the table votes." in seen
        assert '<a href="#challenge-1">The table votes on KIM: is it legal?</a>' in page
        assert "Dictionary: not legal — proper noun" in seen
        assert re.search(r'class="card">K<sub>8</sub>.*I<sub>2</sub>.*M<sub>5</sub>', page)
        assert re.findall(r'vote-what">(\w+)<', page) == ["waiting"] * 3
        assert 'data-if-form="vote-form">' in page  # this phone's buttons, shown
        assert 'value="1:legal">Legal</button>' in page
        assert 'value="1:illegal">Not legal</button>' in page
        assert f'<input type="hidden" name="seat" value="{seat}">' in page
        assert 'id="vote-form"' in page and 'id="decide-form"' not in page
        assert 'data-if-form="decide-form" hidden' in page  # no scorekeeper here
        # its own seat marked in the list of votes
        mine = re.findall(r'class="vote waiting" data-seat="(\d)">.*?data-mine( hidden)?>', page)
        assert mine == [(str(s), "" if s == seat else " hidden") for s in range(3)]

    # Ann votes "not legal": one vote of three, nothing changes yet.
    resp = vote(ann, game.id, 0, 1, "illegal")
    assert resp.status_code == 302
    assert resp.headers["Location"].endswith(f"/games/{game.id}/rounds/1#challenges")
    page = ann.get(resp.headers["Location"])
    assert "Your vote on KIM is in: not legal." in text(page)
    assert ballot(page.get_data(as_text=True)) == [
        ("Ann", "voted not legal"),
        ("Ben", "waiting"),
        ("Cy", "waiting"),
    ]
    assert scores(game) == before
    # Ben votes "legal" for his own word, as at a table: 1 to 1, still open.
    vote(ben, game.id, 1, 1, "legal")
    assert scores(game) == before
    assert stored(app) == [(1, False, "pending", "proper_noun", [(0, False), (1, True)])]
    assert "Tied" not in text(cy.get(f"/games/{game.id}/rounds/1"))  # Cy has still to vote

    # Cy votes "not legal": 2 of 3, decided; KIM is struck, Ben pays its 15 points.
    resp = vote(cy, game.id, 2, 1, "illegal")
    page = text(cy.get(resp.headers["Location"]))
    assert "KIM is not legal: it is struck." in page
    assert scores(game) == [23, 0, 6]  # Ben: -15 - 15, floored at 0; CAT now the longest
    assert stored(app) == [(1, False, "vote", "vote_illegal", [(0, False), (1, True), (2, False)])]
    for client in (ann, ben, cy, keeper):
        page = text(client.get(f"/games/{game.id}/rounds/1"))
        assert "Ann challenged Ben's KIM: not legal (the table voted it not legal, 2 to 1)." in page
        assert "Ben loses the word: its 15 points count against them." in page
        assert "Dictionary: not legal — proper noun. Votes: Ann not legal · Ben legal · " in page
        assert "KIM — struck, counts as unused" in page
        assert "the table votes" not in page and 'form="vote-form"' not in page
        assert "The table votes on" not in page


def test_a_vote_can_be_changed_while_open(app, table):
    game, _, (ann, ben, cy) = table()
    vote(ann, game.id, 0, 1, "illegal")
    vote(ann, game.id, 0, 1, "legal")
    assert stored(app) == [(1, False, "pending", "proper_noun", [(0, True)])]
    vote(ben, game.id, 1, 1, "legal")  # 2 of 3 legal: decided, Ann pays 15
    assert stored(app) == [(1, True, "vote", "vote_legal", [(0, True), (1, True)])]
    assert scores(game) == [0, 15, 6]
    page = text(cy.get(f"/games/{game.id}/rounds/1"))
    assert "Ann challenged Ben's KIM: legal (the table voted it legal, 2 to 0)." in page
    assert "Ann pays 15." in page


def test_the_live_part_is_every_phones(app, table):
    """The polled part holds nothing of one phone: no CSRF token, no seat, no form."""
    game, keeper, (ann, *_) = table()
    vote(ann, game.id, 0, 1, "illegal")
    seen = [c.get(f"/games/{game.id}/rounds/1/live?lang=en") for c in (ann, keeper)]
    assert seen[0].get_data() == seen[1].get_data()
    live = seen[0].get_data(as_text=True)
    assert "csrf_token" not in live and 'name="seat"' not in live and "<form" not in live
    assert 'data-if-form="vote-form" hidden' in live
    assert 'data-if-form="decide-form" hidden' in live
    assert 'form="vote-form" name="vote" value="1:illegal"' in live
    assert ballot(live) == [("Ann", "voted not legal"), ("Ben", "waiting"), ("Cy", "waiting")]


def test_a_vote_on_a_closed_round_is_refused(app, table, rows):
    game, keeper, (ann, ben, cy) = table()
    vote(ann, game.id, 0, 1, "illegal")
    vote(cy, game.id, 2, 1, "illegal")
    resp = keeper.post(f"/games/{game.id}/rounds/1/close")
    assert resp.status_code == 302, resp.get_data(as_text=True)
    before = rows()
    page = shows(vote(ben, game.id, 1, 1, "legal"), 422, "round_closed", number=1)
    assert 'role="alert"' in page
    assert rows() == before


def test_closing_while_the_table_votes_is_refused(app, table, rows):
    game, keeper, (ann, *_) = table()
    vote(ann, game.id, 0, 1, "illegal")
    before = rows()
    resp = keeper.post(f"/games/{game.id}/rounds/1/close")
    shows(resp, 422, "vote_open", number=1, words=["KIM"])
    assert rows() == before
    assert not game.round(1)["closed"]


def test_a_phone_without_a_seat_cannot_vote(app, table, rows):
    game, keeper, _ = table()
    viewer = app.test_client()
    page = viewer.get(f"/games/{game.id}/rounds/1").get_data(as_text=True)
    assert 'id="vote-form"' not in page and 'data-if-form="vote-form" hidden' in page
    before = rows()
    for client in (viewer, keeper):  # the scorekeeper holds no seat here: it decides instead
        shows(vote(client, game.id, 0, 1, "illegal"), 403, "vote_not_seated")
    assert rows() == before
    assert (
        viewer.post("/games/no-such-game/rounds/1/vote", data={"vote": "1:legal"}).status_code
        == 404
    )


def test_refused_votes_show_on_the_round_page(app, table, rows):
    game, keeper, (ann, ben, cy) = table()
    before = rows()
    shows(vote(ann, game.id, 1, 1, "illegal"), 403, "vote_other_seat", seat=1, name="Ben")
    shows(vote(ann, game.id, 0, 7, "illegal"), 404, "no_such_challenge", number=1, n=7)
    for bad in ("1:maybe", "x:legal", ""):
        resp = ann.post(f"/games/{game.id}/rounds/1/vote", data={"vote": bad, "seat": "0"})
        page = shows(resp, 400, "legal_flag")
        assert 'id="form-error"' in page
    assert rows() == before
    vote(ann, game.id, 0, 1, "illegal")
    vote(cy, game.id, 2, 1, "illegal")
    before = rows()
    shows(vote(ben, game.id, 1, 1, "legal"), 422, "vote_decided", n=1, word="KIM")
    resp = keeper.post(f"/games/{game.id}/rounds/1/challenges/1/decide", data={"legal": "legal"})
    shows(resp, 422, "vote_decided", n=1, word="KIM")
    assert rows() == before


def test_the_scorekeeper_decides_a_stalled_vote(app, table, rows):
    game, keeper, (ann, ben, cy, dee) = table(("Ann", "Ben", "Cy", "Dee"))
    assert scores(game) == [13, 15, 6, 13]
    page = keeper.get(f"/games/{game.id}/rounds/1").get_data(as_text=True)
    assert 'id="decide-form"' in page and 'id="vote-form"' not in page
    assert 'data-if-form="decide-form">' in page  # the scorekeeper's buttons, shown
    assert "/rounds/1/challenges/1/decide" in page and "Decide: not legal" in page
    vote(ann, game.id, 0, 1, "illegal")
    vote(ben, game.id, 1, 1, "legal")
    vote(cy, game.id, 2, 1, "legal")
    resp = vote(dee, game.id, 3, 1, "illegal")
    assert "Tied: the scorekeeper decides." in text(dee.get(resp.headers["Location"]))
    assert scores(game) == [13, 15, 6, 13]  # 2 to 2: nothing decided
    assert game.round(1)["result"]["challenges"][0]["stalled"] is True

    # Not a seat's phone's to decide; and a decision is legal or not legal.
    before = rows()
    url = f"/games/{game.id}/rounds/1/challenges/1/decide"
    shows(ann.post(url, data={"legal": "illegal"}), 403, "edit_link_needed")
    shows(keeper.post(url, data={"legal": "yes"}), 400, "legal_flag")
    shows(
        keeper.post(f"/games/{game.id}/rounds/1/challenges/4/decide", data={"legal": "legal"}),
        404,
        "no_such_challenge",
        number=1,
        n=4,
    )
    assert rows() == before

    resp = keeper.post(url, data={"legal": "legal"})
    assert resp.headers["Location"].endswith(f"/games/{game.id}/rounds/1#challenges")
    page = text(keeper.get(resp.headers["Location"]))
    assert "KIM is legal: Ann pays." in page
    assert (
        "Ann challenged Ben's KIM: legal (the scorekeeper decided; the vote stood 2 legal,"
        " 2 not legal)." in page
    )
    assert "Votes: Ann not legal · Ben legal · Cy legal · Dee not legal." in page
    assert scores(game) == [0, 15, 6, 13]  # Ann: 13 - 15, floored at 0
    assert stored(app) == [
        (1, True, "scorekeeper", "table_legal", [(0, False), (1, True), (2, True), (3, False)])
    ]
    # Decided: the round closes.
    assert keeper.post(f"/games/{game.id}/rounds/1/close").status_code == 302
    assert game.round(1)["closed"]


def test_unanimous_one_not_legal_decides(app, table):
    game, _, (ann, ben, cy) = table(rules={"challenge_ruling": "unanimous"})
    vote(ben, game.id, 1, 1, "legal")
    assert scores(game) == [13, 15, 6]
    resp = vote(cy, game.id, 2, 1, "illegal")
    assert "KIM is not legal: it is struck." in text(cy.get(resp.headers["Location"]))
    assert stored(app) == [(1, False, "vote", "vote_illegal", [(1, True), (2, False)])]
    assert "the table voted it not legal, 1 to 1" in text(ann.get(f"/games/{game.id}/rounds/1"))
