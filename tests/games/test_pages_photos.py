"""Photos of hands through the pages: the new-game form's "Keep a photo of each hand", the
seat form and the every-hand form sending a photo with a hand (multipart), the photo
shown to whoever has the game's link, a refused file keeping what was typed, and the
photos deleted with the game."""

from __future__ import annotations

import html
import io
import re
from urllib.parse import urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient
from markupsafe import escape
from sqlalchemy import select

from companion.store.db import db
from companion.store.models import Entry, Game, RoundPhoto
from companion.web import messages
from tests.actions.support import assert_kept_photo, camera_jpeg
from tests.games.conftest import table_rows
from tests.games.test_pages_games import ROUND_1, new_game_form, round_form


def text(resp) -> str:
    return html.unescape(resp.get_data(as_text=True))


def stored_photos(app: Flask) -> list[tuple]:
    """(game, round, seat, size, bytes) of every photo stored."""
    with app.app_context():
        return [
            (p.game_id, p.round_number, p.seat, p.size, p.jpeg)
            for p in db.session.scalars(
                select(RoundPhoto).order_by(RoundPhoto.round_number, RoundPhoto.seat)
            )
        ]


def entries(app: Flask) -> list[tuple]:
    with app.app_context():
        return [(e.seat, e.words) for e in db.session.scalars(select(Entry).order_by(Entry.seat))]


def start(client: FlaskClient, keep: bool = True) -> str:
    """Ann, Ben and Cy from the new-game page (this client keeps the edit right)."""
    form = new_game_form(["Ann", "Ben", "Cy"])
    if keep:
        form["keep_photos"] = "y"
    resp = client.post("/games/new", data=form)
    assert resp.status_code == 302, resp.get_data(as_text=True)[:500]
    return urlsplit(resp.headers["Location"]).path.removeprefix("/games/")


def take(client: FlaskClient, game_id: str, seat: int) -> None:
    resp = client.post(f"/games/{game_id}/seats/{seat}")
    assert resp.status_code == 302, resp.get_data(as_text=True)


def picture(data: bytes, name: str = "IMG_0001.jpg") -> tuple[io.BytesIO, str, str]:
    """A file field's value as the test client sends it."""
    return (io.BytesIO(data), name, "image/jpeg")


def save_round_with_photo(client: FlaskClient, game_id: str, seat: int) -> None:
    """The scorekeeper saves round 1, with a camera's photo for one hand."""
    resp = client.post(
        f"/games/{game_id}/rounds/1",
        data={**ROUND_1, f"players-{seat}-photo": picture(camera_jpeg())},
        content_type="multipart/form-data",
    )
    assert resp.status_code == 302


@pytest.fixture
def phone(app: Flask):
    return app.test_client


def test_the_new_game_form_keeps_photos_when_asked_and_says_so(app, client):
    form = text(client.get("/games/new"))
    assert 'name="keep_photos" type="checkbox"' in form and "Keep a photo of each hand" in form
    kept, plain = start(client), start(client, keep=False)
    with app.app_context():
        assert db.session.get(Game, kept).keep_photos is True
        assert db.session.get(Game, plain).keep_photos is False
    assert 'id="keeps-photos"' in text(client.get(f"/games/{kept}"))
    assert 'id="keeps-photos"' not in text(client.get(f"/games/{plain}"))


def test_a_phone_sends_its_hands_photo_and_everyone_with_the_link_sees_it(app, client, phone):
    gid = start(client)
    ben, viewer = phone(), phone()
    take(ben, gid, 1)
    form = text(ben.get(f"/games/{gid}/rounds/1"))
    assert re.search(r'<form[^>]*id="seat-form"[^>]*enctype="multipart/form-data"', form)
    resp = ben.post(
        f"/games/{gid}/rounds/1/seats/1",
        data={"words": "d-o-g", "version": "0", "photo": picture(camera_jpeg(3000, 2000))},
        content_type="multipart/form-data",
    )
    assert resp.status_code == 302, resp.get_data(as_text=True)[:500]
    [(game, number, seat, size, jpeg)] = stored_photos(app)
    assert (game, number, seat, size) == (gid, 1, 1, len(jpeg))
    assert assert_kept_photo(jpeg) == (1600, 1067)
    assert entries(app) == [(1, [["d", "o", "g"]])]

    url = f"/games/{gid}/rounds/1/photos/1.jpg"
    page = text(viewer.get(f"/games/{gid}/rounds/1"))  # the view link alone
    assert f'class="photo-link" href="{url}" aria-label="Photo of Ben\'s cards"' in page
    assert page.count('class="photo-link"') == 1
    shown = viewer.get(url)
    assert shown.status_code == 200 and shown.get_data() == jpeg
    assert shown.headers["Content-Type"] == "image/jpeg"
    assert shown.headers["Cache-Control"].startswith("private")
    assert shown.headers["X-Content-Type-Options"] == "nosniff"
    again = viewer.get(url, headers={"If-None-Match": shown.headers["ETag"]})
    assert again.status_code == 304
    live = text(viewer.get(f"/games/{gid}/rounds/1/live"))
    assert f'href="{url}"' in live  # the part every phone polls shows it too


@pytest.mark.parametrize(
    "path",
    [
        "/games/{gid}/rounds/1/photos/0.jpg",  # no photo of that hand
        "/games/{gid}/rounds/2/photos/1.jpg",  # nor of that round
        "/games/{gid}/rounds/99/photos/1.jpg",
        "/games/nosuchgame/rounds/1/photos/1.jpg",  # a stranger guessing
        "/games/{plain}/rounds/1/photos/1.jpg",  # a game that keeps none
    ],
)
def test_no_photo_is_not_found(app, client, phone, path):
    gid, plain = start(client), start(client, keep=False)
    for game in (gid, plain):
        save_round_with_photo(client, game, seat=1)
    assert len(stored_photos(app)) == 1
    resp = phone().get(path.format(gid=gid, plain=plain))
    assert resp.status_code == 404
    assert resp.headers["Content-Type"].startswith("text/html")


def test_a_file_that_is_no_picture_refuses_the_hand_and_keeps_what_was_typed(app, client, phone):
    gid = start(client)
    ben = phone()
    take(ben, gid, 1)
    before = table_rows(app)
    resp = ben.post(
        f"/games/{gid}/rounds/1/seats/1",
        data={"words": "d-o-g", "version": "0", "photo": picture(b"%PDF-1.4", "hand.pdf")},
        content_type="multipart/form-data",
    )
    page = resp.get_data(as_text=True)
    assert resp.status_code == 400, page[:500]
    message = str(escape(messages.render("not_a_picture")))
    assert f'<p class="error" id="photo-error" role="alert">{message}</p>' in page
    assert 'value="d-o-g"' in page  # the typed hand, still in its box
    assert table_rows(app) == before  # neither the hand nor the photo


def test_the_every_hand_form_keeps_a_photo_for_each_of_two_hands(app, client):
    gid = start(client)
    form = text(client.get(f"/games/{gid}/rounds/1"))
    assert re.search(r'<form[^>]*id="round-form"[^>]*enctype="multipart/form-data"', form)
    resp = client.post(
        f"/games/{gid}/rounds/1",
        data={
            **round_form(["cat", "d-o-g", "ox"], ["", "", "m"], went_out="0"),
            "players-0-photo": picture(camera_jpeg(3000, 2000)),
            "players-1-photo": (io.BytesIO(b""), "", "application/octet-stream"),  # none chosen
            "players-2-photo": picture(camera_jpeg(2000, 3000)),
        },
        content_type="multipart/form-data",
    )
    assert resp.status_code == 302, resp.get_data(as_text=True)[:500]
    stored = stored_photos(app)
    assert [(n, s) for _, n, s, _, _ in stored] == [(1, 0), (1, 2)]
    assert [assert_kept_photo(p[4]) for p in stored] == [(1600, 1067), (1067, 1600)]
    page = text(client.get(f"/games/{gid}/rounds/1"))  # every hand in: beside the breakdown
    assert re.findall(r'class="photo-link" href="[^"]+/photos/(\d)\.jpg"', page) == ["0", "2"]


def test_the_every_hand_form_refuses_a_non_picture_by_its_hand(app, client):
    gid = start(client)
    before = table_rows(app)
    resp = client.post(
        f"/games/{gid}/rounds/1",
        data={
            **round_form(["cat", "d-o-g", "ox"], ["", "", "m"], went_out="0"),
            "players-0-photo": picture(camera_jpeg()),
            "players-1-photo": picture(b"just some text", "notes.txt"),
        },
        content_type="multipart/form-data",
    )
    page = resp.get_data(as_text=True)
    assert resp.status_code == 400, page[:500]
    message = str(escape(messages.render("not_a_picture")))
    assert f'id="players-1-photo-error" role="alert">{message}</p>' in page
    assert 'value="d-o-g"' in page and 'value="cat"' in page
    assert table_rows(app) == before


def test_a_game_that_keeps_no_photos_saves_the_hand_and_ignores_the_file(app, client, phone):
    gid = start(client, keep=False)
    ben = phone()
    take(ben, gid, 1)
    resp = ben.post(
        f"/games/{gid}/rounds/1/seats/1",
        data={"words": "d-o-g", "version": "0", "photo": picture(b"not even a picture")},
        content_type="multipart/form-data",
    )
    assert resp.status_code == 302
    assert entries(app) == [(1, [["d", "o", "g"]])]
    assert stored_photos(app) == []


def test_a_body_over_the_seat_forms_limit_is_refused_unread(app, client, phone):
    gid = start(client)
    ben = phone()
    take(ben, gid, 1)
    before = table_rows(app)
    resp = ben.post(
        f"/games/{gid}/rounds/1/seats/1",
        data={"words": "d-o-g", "version": "0", "photo": picture(b"\0" * (13 * 1024 * 1024))},
        content_type="multipart/form-data",
    )
    assert resp.status_code == 413
    assert str(escape(messages.render("file_too_large", {"most": 12}))) in text(resp)
    assert table_rows(app) == before


def test_deleting_the_game_deletes_its_photos(app, client):
    gid, other = start(client), start(client)
    for game in (gid, other):
        save_round_with_photo(client, game, seat=2)
    assert len(stored_photos(app)) == 2
    resp = client.post(f"/games/{gid}/delete", data={"confirm": "yes"})
    assert resp.status_code == 302
    assert [p[0] for p in stored_photos(app)] == [other]
    assert client.get(f"/games/{gid}/rounds/1/photos/2.jpg").status_code == 404


def test_a_tables_next_game_offers_to_keep_photos_as_its_latest_did(app, client):
    resp = client.post(
        "/tables/new", data={"name": "Sunday", "members-0-name": "Ann", "members-1-name": "Ben"}
    )
    assert resp.status_code in (302, 303), resp.get_data(as_text=True)[:500]
    table = urlsplit(resp.headers["Location"]).path.removeprefix("/tables/")
    first = text(client.get(f"/games/new?table={table}"))
    assert re.search(
        r'<input id="keep_photos" name="keep_photos" type="checkbox" value="y">', first
    )
    form = {**new_game_form(["Ann", "Ben"]), "table": table, "keep_photos": "y"}
    assert client.post("/games/new", data=form).status_code == 302
    second = text(client.get(f"/games/new?table={table}"))
    assert re.search(r'<input checked id="keep_photos" name="keep_photos" type="checkbox"', second)
