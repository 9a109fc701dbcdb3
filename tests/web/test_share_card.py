"""The end-of-game share card: its SVG (escaped names, cut long ones, any letters, the
leaderboard's own chart) and its PNG (1200x630, not blank, kept for the same SVG)."""

from __future__ import annotations

import re
import struct
import zlib
from pathlib import Path
from xml.etree import ElementTree

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.web import sharecard
from companion.web.charts import running_totals_chart
from companion.web.sharecard import CardLabels, ShareCard, card_png, card_svg

SCREENSHOTS = Path(__file__).resolve().parent.parent / "browser" / "screenshots"
"""Where the browser tests save their pictures for people to look at (git-ignored)."""

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
SVG = "{http://www.w3.org/2000/svg}"
LABELS = CardLabels(best_word="Best word", points="46 points", chart="Running totals")
LONG = "Žydrūnė Šaltinytė-Čepulionienė Vaitkevič"  # 40 characters


def sample(
    names: tuple[str, ...] = ("Ąžuolas", "Gabija", "Jiří Řezníček", "Ödön Győző"),
    podium: tuple[tuple[int, str, int], ...] | None = None,
) -> ShareCard:
    """A finished four-player game of three rounds."""
    totals = [[0, 12, 30, 61], [0, 20, 33, 52], [0, 5, 25, 52], [0, 9, 14, 27]][: len(names)]
    standings = sorted(
        ((line[-1], name) for line, name in zip(totals, names, strict=True)), reverse=True
    )
    ranked = [(1 + sum(t > total for t, _ in standings), name, total) for total, name in standings]
    return ShareCard(
        title="Quiddler Companion",
        date_line="Sunday 6 December 2026",
        podium=podium if podium is not None else sharecard.podium(ranked),
        chart=running_totals_chart(list(names), totals),
        best_word=("QUIZZED", 46, names[0]),
        labels=LABELS,
    )


def png_size(png: bytes) -> tuple[int, int]:
    """Width and height from the PNG's IHDR chunk (right after the signature)."""
    assert png[12:16] == b"IHDR"
    width, height = struct.unpack(">II", png[16:24])
    return width, height


def png_rows(png: bytes) -> list[bytes]:
    """The raw scanlines (filter byte first) of an 8-bit PNG, inflated from its IDAT chunks."""
    pos, data = 8, b""
    while pos < len(png):
        (length,) = struct.unpack(">I", png[pos : pos + 4])
        kind = png[pos + 4 : pos + 8]
        if kind == b"IDAT":
            data += png[pos + 8 : pos + 8 + length]
        pos += 12 + length
    width, height = png_size(png)
    raw = zlib.decompress(data)
    stride = len(raw) // height
    assert stride > width  # a filter byte, then at least a byte per pixel
    return [raw[i * stride : (i + 1) * stride] for i in range(height)]


def texts(svg: str) -> list[str]:
    """Every text of the card (tspans joined), as an XML parser reads it."""
    root = ElementTree.fromstring(svg)
    return ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]


def test_card_png_is_1200_by_630_and_saved_to_look_at(
    app: Flask, pytestconfig: pytest.Config
) -> None:
    with app.test_request_context("/"):
        svg = card_svg(sample())
    png = card_png(svg)
    assert png.startswith(PNG_SIGNATURE)
    assert png_size(png) == (1200, 630)
    if not pytestconfig.getoption("no_screenshots"):
        SCREENSHOTS.mkdir(exist_ok=True)
        (SCREENSHOTS / "share-card.png").write_bytes(png)
        (SCREENSHOTS / "share-card.svg").write_text(svg, encoding="utf-8")


def test_card_png_is_drawn_not_blank(app: Flask) -> None:
    with app.test_request_context("/"):
        png = card_png(card_svg(sample()))
    rows = png_rows(png)
    # The title's row (y about 80) holds more than one colour; every row is not the same.
    assert len(set(rows[80][1:])) > 2
    assert len({row[1:] for row in rows}) > 100


def test_different_podiums_give_different_pngs_and_the_same_svg_the_same(app: Flask) -> None:
    with app.test_request_context("/"):
        one = card_svg(sample())
        other = card_svg(sample(podium=((1, "Ben", 80), (2, "Ann", 70), (3, "Cy", 5))))
    assert card_png(one) != card_png(other)
    assert card_png(one) is card_png(one)  # kept: the same SVG is not drawn twice


def test_names_are_text_never_markup(app: Flask) -> None:
    evil = '<script>alert("x")</script>'
    with app.test_request_context("/"):
        svg = card_svg(sample(names=(evil, "Tom & Jerry", "Ann", "Ben")))
    assert "<script" not in svg
    assert "&lt;script&gt;" in svg and "Tom &amp; Jerry" in svg
    found = texts(svg)  # well-formed XML, and the names read back as they were typed
    assert "Tom & Jerry" in found
    assert any(t.startswith("<script>alert(") for t in found)


def test_a_40_character_name_is_cut_with_an_ellipsis(app: Flask) -> None:
    assert len(LONG) == 40
    with app.test_request_context("/"):
        svg = card_svg(sample(names=(LONG, "Gabija", "Ann", "Ben")))
    found = texts(svg)
    assert LONG not in found
    cut = [t for t in found if t.endswith("…") and LONG.startswith(t[:-1])]
    assert cut and all(len(t) <= sharecard.NAME_CHARS for t in cut)


def test_shown_never_parts_a_letter_from_its_accent() -> None:
    decomposed = "Ie\u0307va " * 8  # "Ieva" with e and a combining dot above: NFC makes ė
    assert sharecard.shown(decomposed, 6) == "Iėva…"
    assert sharecard.shown("a\u0307" * 10, 4).count("\u0307") in (0, 3)
    assert sharecard.shown("Ann\x00\x1b", 10) == "Ann"  # no control characters in XML


def test_lithuanian_hungarian_and_czech_letters_survive(app: Flask) -> None:
    names = ("Ąžuolas Čiurlionis", "Ödön Győző", "Jiří Řezníček", "Ūla Šėmaitė")
    with app.test_request_context("/"):
        svg = card_svg(sample(names=names))
    found = texts(svg)
    for name in names:
        assert name in found  # in the podium or the legend (short enough for both)
    assert "ąčęėįšųūž őű ěřůý" in "".join(texts(card_svg_in(app, "ąčęėįšųūž őű ěřůý")))


def card_svg_in(app: Flask, name: str) -> str:
    with app.test_request_context("/"):
        return card_svg(sample(names=(name, "Ann", "Ben", "Cy")))


def test_podium_keeps_the_top_three_ranks_and_shares_ties() -> None:
    standings = [(1, "Ann", 50), (1, "Ben", 50), (3, "Cy", 40), (4, "Dan", 10)]
    assert sharecard.podium(standings) == ((1, "Ann", 50), (1, "Ben", 50), (3, "Cy", 40))


def test_tied_ranks_are_shown_shared(app: Flask) -> None:
    podium = ((1, "Ann", 50), (1, "Ben", 50), (3, "Cy", 40))
    with app.test_request_context("/"):
        svg = card_svg(sample(podium=podium))
    assert re.findall(r'class="place" data-rank="(\d)"', svg) == ["1", "1", "3"]


def test_no_best_word_leaves_its_box_out(app: Flask) -> None:
    card = sample()
    with app.test_request_context("/"):
        svg = card_svg(ShareCard(card.title, card.date_line, card.podium, card.chart, None, LABELS))
    assert "best-word" not in svg and "QUIZZED" not in svg


def test_card_labels_follow_the_plural() -> None:
    assert sharecard.card_labels(1).points == "1 point"
    assert sharecard.card_labels(46).points == "46 points"
    assert sharecard.card_labels(None).points == ""


def hand(name: str, words: list[str], unused: tuple[str, ...] = ()) -> dict[str, object]:
    return {"name": name, "words": words, "unused": list(unused), "went_out": False}


def test_card_chart_is_the_leaderboards(app: Flask, client: FlaskClient) -> None:
    from companion import store

    names = ["Ąžuolas", "Ben"]
    resp = client.post("/api/v1/games", json={"players": names, "first_dealer": 0})
    assert resp.status_code == 201, resp.get_data(as_text=True)
    game = resp.get_json()
    auth = {"Authorization": f"Bearer {game['edit_token']}"}
    url = f"/api/v1/games/{game['id']}"
    rounds = [
        [hand("Ąžuolas", ["c-a-t"]), hand("Ben", ["d-o-g"])],  # round 1 deals 3
        [hand("Ąžuolas", ["o-x"], ("e", "i")), hand("Ben", ["c-a-t"], ("i",))],
    ]
    for number, players in enumerate(rounds, 1):
        put = client.put(f"{url}/rounds/{number}", json={"players": players}, headers=auth)
        assert put.status_code == 200, put.get_data(as_text=True)
        closed = client.post(f"{url}/rounds/{number}/close", json={}, headers=auth)
        assert closed.status_code == 200, closed.get_data(as_text=True)
    page = client.get(f"/games/{game['id']}").get_data(as_text=True)
    board = re.findall(r"<polyline [^>]*/>", page)
    assert len(board) == 2

    with app.test_request_context("/"):
        state = store.state_of(store.get_game(game["id"]))
        chart = running_totals_chart(list(state.names), state.running())
        card = ShareCard("Quiddler Companion", "today", ((1, "Ben", 1),), chart, None, LABELS)
        svg = card_svg(card)
    assert re.findall(r"<polyline [^>]*/>", svg) == board
    ticks = re.compile(r'<text [^>]*class="tick">[^<]*</text>')
    assert ticks.findall(svg) == ticks.findall(page)
