"""The session cookie holds no token in clear (issue 12): the edit token and a seat's
secret are kept sealed, yet the scorekeeper's page still shows the edit link; a value
altered, moved or sealed under another key gives no right; a cookie written before
tokens were sealed (tokens in clear) gives no right."""

from __future__ import annotations

import hashlib
import html
import json
import secrets
from typing import Any

import pytest
from flask import Flask, session
from flask.testing import FlaskClient
from sqlalchemy import select

from companion.pages.games import qr_svg
from companion.store.db import db
from companion.store.models import Player
from companion.web import access
from companion.web.sealed import Keys, seal, unseal


def cookie(client: FlaskClient) -> str:
    """The session cookie as the browser holds it."""
    found = client.get_cookie("session")
    assert found is not None
    return found.value


def decoded(app: Flask, client: FlaskClient) -> dict[str, Any]:
    """What anyone who sees the cookie can read in it (no key needed to decode it; the
    app's serializer also checks the signature)."""
    return app.session_interface.get_signing_serializer(app).loads(cookie(client))


def seat_secret(app: Flask, client: FlaskClient, game_id: str) -> str:
    """The clear secret of the seat ``client`` holds, unsealed with the app's key; its hash
    is the one stored, so it is that seat's secret."""
    with app.test_request_context():
        secret = unseal("seats", game_id, decoded(app, client)["seats"][game_id])
    assert secret is not None
    with app.app_context():
        stored = db.session.scalars(select(Player.seat_token_hash)).all()
    assert hashlib.sha256(secret.encode()).hexdigest() in stored
    return secret


@pytest.fixture
def scorekeeper(new_game, client):
    """A game made through the API; ``client`` opened its edit link and took Ben's seat
    (and read the one-time message that says so)."""
    game = new_game()
    assert client.get(f"/games/{game.id}/edit/{game.token}").status_code == 302
    claimed = client.post(f"/games/{game.id}/seats/1")
    assert claimed.status_code == 302
    assert client.get(claimed.headers["Location"]).status_code == 200
    return game


def page_of(client: FlaskClient, game_id: str) -> str:
    """The game's page as this browser gets it, entities decoded."""
    return html.unescape(client.get(f"/games/{game_id}").get_data(as_text=True))


def allow_word(client: FlaskClient, game_id: str) -> int:
    """Try an edit action (allowing a house word); its status."""
    data = {"word": "zax", "allowed": "allow"}
    return client.post(f"/games/{game_id}/house-words", data=data).status_code


def save_hand(client: FlaskClient, game_id: str) -> int:
    """Try saving Ben's hand of round 1 as his seat; its status."""
    data = {"words": "d-o-g", "version": "0"}
    return client.post(f"/games/{game_id}/rounds/1/seats/1", data=data).status_code


def holds_no_right(client: FlaskClient, game_id: str) -> None:
    """This browser neither keeps score of ``game_id`` nor holds Ben's seat in it: its
    page shows no edit link and no seat of its own, and both kinds of write get 403."""
    page = page_of(client, game_id)
    assert 'id="edit-link"' not in page and "it enters Ben's own hand" not in page
    assert allow_word(client, game_id) == 403
    assert save_hand(client, game_id) == 403


def test_the_cookie_holds_neither_the_edit_token_nor_the_seat_secret(app, client, scorekeeper):
    secret = seat_secret(app, client, scorekeeper.id)
    data = decoded(app, client)
    assert set(data["edit"]) == set(data["seats"]) == {scorekeeper.id}
    readable = json.dumps(data) + repr(data)
    raw = cookie(client)
    for token in (scorekeeper.token, secret):
        assert token not in readable
        assert token not in raw
    for value in (data["edit"][scorekeeper.id], data["seats"][scorekeeper.id]):
        assert len(value) == 55  # AES-SIV: the 16-byte IV, a mark and the token's 24 bytes


def test_the_scorekeepers_page_still_shows_the_edit_link(app, client, scorekeeper):
    page = client.get(f"/games/{scorekeeper.id}").get_data(as_text=True)
    edit = f"http://localhost/games/{scorekeeper.id}/edit/{scorekeeper.token}"
    assert f'id="edit-link">{edit}<' in page
    with app.test_request_context():
        assert qr_svg(edit) in page  # the QR code says the same
    assert "seat: it enters Ben's own hand" in html.unescape(page)
    assert allow_word(client, scorekeeper.id) == 302


def test_the_seat_secret_still_saves_the_seats_hand(new_game, app):
    game = new_game()
    ben = app.test_client()
    assert ben.post(f"/games/{game.id}/seats/1").status_code == 302
    assert save_hand(ben, game.id) == 302
    assert [s["entered"] for s in game.round(1)["seats"]] == [False, True, False]


def test_an_altered_sealed_value_gives_no_right(app, client, scorekeeper, rows):
    data = decoded(app, client)
    before = rows()
    for kind in ("edit", "seats"):
        value = data[kind][scorekeeper.id]
        flipped = value[:5] + ("A" if value[5] != "A" else "B") + value[6:]
        with client.session_transaction() as sess:  # signed again with the app's own key
            sess[kind] = {scorekeeper.id: flipped}
    holds_no_right(client, scorekeeper.id)
    assert rows() == before


def test_a_value_sealed_for_another_game_kind_or_key_gives_no_right(
    app, client, scorekeeper, new_game, rows
):
    other = new_game(players=["Dora", "Eve"])
    assert client.get(f"/games/{other.id}/edit/{other.token}").status_code == 302
    data = decoded(app, client)
    with app.test_request_context():
        foreign = seal("edit", scorekeeper.id, scorekeeper.token, Keys.of("another key"))
    before = rows()
    for edit in (
        {scorekeeper.id: data["edit"][other.id]},  # another game's value
        {scorekeeper.id: data["seats"][scorekeeper.id]},  # a seat's value as an edit right
        {scorekeeper.id: foreign},  # sealed under another key, in a cookie signed right
    ):
        with client.session_transaction() as sess:
            sess["edit"] = edit
        assert allow_word(client, scorekeeper.id) == 403
        assert 'id="edit-link"' not in page_of(client, scorekeeper.id)
    assert rows() == before


def test_a_cookie_signed_with_another_key_gives_no_right(app, client, scorekeeper, rows):
    data = decoded(app, client)
    other = Flask("elsewhere")
    other.secret_key = "another key"
    forged = other.session_interface.get_signing_serializer(other).dumps(data)
    client.set_cookie("session", forged)
    before = rows()
    holds_no_right(client, scorekeeper.id)
    assert rows() == before


def test_a_cookie_from_before_sealing_gives_no_right(app, client, scorekeeper, rows):
    """Tokens kept in clear, as the app wrote them two builds ago: read as no right (the
    edit link opens the game again), and nothing breaks."""
    secret = seat_secret(app, client, scorekeeper.id)
    with client.session_transaction() as sess:
        sess["edit"] = {scorekeeper.id: scorekeeper.token}
        sess["seats"] = {scorekeeper.id: secret}
    before = rows()
    holds_no_right(client, scorekeeper.id)
    assert rows() == before
    assert client.get("/").status_code == 200


# --- what fits in the cookie -------------------------------------------------------------


def new_id() -> str:
    return secrets.token_urlsafe(16)


def cookie_length(app: Flask) -> int:
    return len(app.session_interface.get_signing_serializer(app).dumps(dict(session)))


def test_twenty_games_scored_and_played_here_fit(app):
    ids = [new_id() for _ in range(access.KEPT + 5)]
    tokens = {g: (secrets.token_urlsafe(24), secrets.token_urlsafe(24)) for g in ids}
    with app.test_request_context():
        for g in ids:
            access.remember(g, tokens[g][0])
            access.remember_seat(g, tokens[g][1])
        session["csrf_token"] = secrets.token_hex(20)
        assert cookie_length(app) < 4000
        kept = ids[-access.KEPT :]
        assert access.games_here() == set(kept)
        assert [access.held_token(g) for g in kept] == [tokens[g][0] for g in kept]
        assert [access.held_seat_token(g) for g in kept] == [tokens[g][1] for g in kept]


def test_a_full_cookie_gives_way_oldest_first_and_never_outgrows_its_budget(app):
    edits, seats, seen = [], [], []
    with app.test_request_context():
        for _ in range(access.KEPT + 10):
            edits.append((new_id(), secrets.token_urlsafe(24)))
            seats.append((new_id(), secrets.token_urlsafe(24)))
            seen.append(new_id())
            access.remember(*edits[-1])
            access.remember_seat(*seats[-1])
            access.remember_seen(seen[-1])
            assert cookie_length(app) <= access.COOKIE_BUDGET
        held_edits = [g for g, t in edits if access.held_token(g) == t]
        held_seats = [g for g, t in seats if access.held_seat_token(g) == t]
        # The newest of each list are kept, the oldest gave way; rights before games seen.
        assert held_edits == [g for g, _ in edits[-len(held_edits) :]]
        assert held_seats == [g for g, _ in seats[-len(held_seats) :]]
        assert min(len(held_edits), len(held_seats)) >= access.KEPT
        assert set(held_edits) | set(held_seats) <= access.games_here()
