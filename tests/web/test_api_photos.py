"""POST /api/v1/cards/read: a photo of cards in, the cards, words and left-over cards out;
every kind of bad body refused with its code, and nothing stored either way."""

from __future__ import annotations

import io

import pytest
from flask import Flask
from flask.testing import FlaskClient
from PIL import Image

from companion.store.models import Game
from companion.vision.photo import MOST_BYTES
from tests.vision.support import hand_photo
from tests.web.test_api_cards_spell import refused

URL = "/api/v1/cards/read"


@pytest.fixture(scope="module")
def quiz() -> bytes:
    """QU I Z laid in a row, M set apart, on green felt (a JPEG, as a phone sends it)."""
    return hand_photo([["qu", "i", "z"]], ["m"], seed=1, background="felt")


def read(client: FlaskClient, body: bytes, kind: str = "image/jpeg"):
    return client.post(URL, data=body, content_type=kind)


def converted(jpeg: bytes, form: str, **save: object) -> bytes:
    out = io.BytesIO()
    Image.open(io.BytesIO(jpeg)).save(out, format=form, **save)
    return out.getvalue()


def test_a_photo_is_read_into_cards_words_and_cards_left_over(
    app: Flask, client: FlaskClient, quiz: bytes
) -> None:
    resp = read(client, quiz)
    assert resp.status_code == 200, resp.get_data(as_text=True)
    body = resp.get_json()
    assert set(body) == {"cards", "words", "unused"}
    assert body["words"] == [["qu", "i", "z"]]
    assert body["unused"] == ["m"]
    assert [(c["card"], c["sure"]) for c in body["cards"]] == [
        ("qu", True), ("i", True), ("z", True), ("m", True)
    ]  # fmt: skip
    width, height = Image.open(io.BytesIO(quiz)).size
    for card in body["cards"]:
        x, y, w, h = card["box"]
        assert 0 <= x < x + w <= width and 0 <= y < y + h <= height, card
    with app.app_context():
        assert Game.query.count() == 0  # nothing stored


@pytest.mark.parametrize(("form", "kind"), [("PNG", "image/png"), ("WEBP", "image/webp")])
def test_png_and_webp_read_as_the_jpeg_does(
    client: FlaskClient, quiz: bytes, form: str, kind: str
) -> None:
    body = read(client, converted(quiz, form, quality=95), kind).get_json()
    assert (body["words"], body["unused"]) == ([["qu", "i", "z"]], ["m"])


def test_a_photo_held_sideways_is_turned_by_its_orientation_tag(
    client: FlaskClient, quiz: bytes
) -> None:
    """The pixels stored turned a quarter, as a phone's camera does, with the tag that
    says so: read upright, and the boxes are in the upright picture's pixels."""
    image = Image.open(io.BytesIO(quiz))
    sideways = image.transpose(Image.Transpose.ROTATE_90)  # a quarter turn left
    exif = Image.Exif()
    exif[0x0112] = 6  # orientation: turn 90 degrees clockwise to show
    out = io.BytesIO()
    sideways.save(out, format="JPEG", quality=92, exif=exif)
    body = read(client, out.getvalue()).get_json()
    assert (body["words"], body["unused"]) == ([["qu", "i", "z"]], ["m"])
    assert all(c["box"][0] + c["box"][2] <= image.width for c in body["cards"])


def test_a_photo_of_no_cards_reads_nothing(client: FlaskClient) -> None:
    out = io.BytesIO()
    Image.new("RGB", (800, 600), (40, 110, 60)).save(out, format="JPEG")
    assert read(client, out.getvalue()).get_json() == {"cards": [], "words": [], "unused": []}


@pytest.mark.parametrize("kind", ["text/plain", "application/json", "image/gif", ""])
def test_a_body_not_sent_as_a_picture_is_refused(client: FlaskClient, quiz: bytes, kind) -> None:
    resp = client.post(URL, data=quiz, headers={"Content-Type": kind} if kind else {})
    refused(resp, 415, "", "photo_content_type", types=["image/jpeg", "image/png", "image/webp"])


@pytest.mark.parametrize(
    "body",
    [b"not a picture at all", b"\xff\xd8\xff\xe0broken jpeg", b"GIF89a\x01\x00\x01\x00"],
)
def test_what_is_no_picture_is_refused(client: FlaskClient, body: bytes) -> None:
    refused(read(client, body), 400, "photo", "not_a_picture")


def test_a_cut_off_photo_is_refused(client: FlaskClient, quiz: bytes) -> None:
    refused(read(client, quiz[: len(quiz) // 2]), 400, "photo", "not_a_picture")


def test_an_empty_body_is_refused(client: FlaskClient) -> None:
    refused(read(client, b""), 400, "photo", "photo_missing")


def test_a_file_over_the_limit_is_refused_unread(client: FlaskClient) -> None:
    refused(read(client, b"\xff" * (MOST_BYTES + 1)), 413, "file", "file_too_large", most=12)


def test_a_picture_of_too_many_pixels_is_refused(client: FlaskClient) -> None:
    """A small file that would decode to 64 megapixels: refused before it is decoded."""
    out = io.BytesIO()
    Image.new("1", (8000, 8000)).save(out, format="PNG")
    assert len(out.getvalue()) < MOST_BYTES
    refused(read(client, out.getvalue(), "image/png"), 422, "photo", "photo_too_large", most=12)


def test_the_refusal_speaks_the_phones_language(client: FlaskClient) -> None:
    client.get("/language/lt?next=/")
    body = read(client, b"nothing").get_json()
    assert body["code"] == "not_a_picture"
    assert body["error"].startswith("Šis failas nėra nuotrauka")


def test_only_post_reads(client: FlaskClient) -> None:
    assert client.get(URL).status_code == 405
