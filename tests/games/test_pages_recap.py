"""The end-of-game recap through the test client: the podium, the best word, the bonuses
round by round, the challenges and their rulings, the points left on the table; the
share card as SVG and PNG; the rematch button for the scorekeeper only."""

from __future__ import annotations

import html
import re
import struct
from collections.abc import Callable

from flask import Flask
from flask.testing import FlaskClient

from companion import store
from companion.actions.review import review_round
from tests.games.conftest import Stored

ROUND_1 = [
    {"name": "Ann", "words": [["c", "a", "t"]], "unused": [], "went_out": True},
    {"name": "Ben", "words": [["d", "o", "g"]], "unused": []},
    {"name": "Cy", "words": [["o", "x"]], "unused": ["m"]},
]
"""Ann CAT 13 (out), Ben DOG 13, Cy OX 14 - M 5 = 9: no bonus (ties)."""

ROUND_2 = [
    {"name": "Ann", "words": [["qu", "i", "z"]], "unused": ["m"]},
    {"name": "Ben", "words": [["t", "o", "p"]], "unused": ["a"]},
    {"name": "Cy", "words": [["j", "a", "b", "s"]], "unused": [], "went_out": True},
]
"""Ann QUIZ 25 - M 5 = 20; Ben TOP 11 - A 2 = 9; Cy JABS 26 (out). Ben challenges Cy's
JABS, a word: Ben pays 26."""


def text(resp) -> str:
    return html.unescape(resp.get_data(as_text=True))


def played(new_game: Callable[..., Stored]) -> Stored:
    game = new_game(rules={"hands": [3, 4]})
    game.enter(1, ROUND_1)
    game.close(1)
    game.enter(2, ROUND_2)
    game.challenged(2, "Ben", "Cy", 0)
    game.close(2)
    return game


def left(app: Flask, game_id: str) -> list[int]:
    """The points left on the table per seat, as the rounds' reviews have them."""
    with app.test_request_context():
        state = store.state_of(store.get_game(game_id))
        lexicons = app.extensions["lexicons"]
        sums = [0, 0, 0]
        for r in state.rounds:
            for seat, review in enumerate(review_round(lexicons, state, r)):
                sums[seat] += review.left
    return sums


def test_the_recap_shows_the_podium_best_word_bonuses_challenges_and_points_left(
    app: Flask, client: FlaskClient, new_game: Callable[..., Stored]
) -> None:
    game = played(new_game)
    resp = client.get(f"/games/{game.id}/recap")
    assert resp.status_code == 200
    page = text(resp)
    # Ann 13 + 20 = 33; Ben 13 + (9 - 26 = -17: the floor makes it 0) = 13; Cy 9 + 26 = 35.
    podium = re.findall(
        r'<li class="place [^"]+" data-player="(\w+)"><span class="rank">(\d)</span>'
        r'<span class="who">\w+</span><span class="total">(-?\d+)</span>',
        page,
    )
    assert podium == [("Cy", "1", "35"), ("Ann", "2", "33"), ("Ben", "3", "13")]
    best = re.search(r'<p class="best-word" id="best-word">(.*?)</p>', page, re.S)
    assert best is not None
    assert "<strong>JABS</strong> · 26 points · Cy (round 2)" in best[1]
    assert "Round 1: most words — nobody; longest word — nobody" in page
    assert "Round 2: most words — nobody; longest word — nobody" in page
    assert "Round 2: Ben challenged Cy's JABS: <strong>legal</strong>" in page
    players = re.findall(
        r'<li data-player="(\w+)">.*?<dd data-bonuses>([^<]+)</dd>.*?'
        r"<dd data-challenges>([^<]+)</dd>.*?<dd data-left>([^<]+)</dd>",
        page,
        re.S,
    )
    lefts = left(app, game.id)
    assert players == [
        ("Ann", "most words: 0 · longest word: 0", "0 made, 0 won", str(lefts[0])),
        ("Ben", "most words: 0 · longest word: 0", "1 made, 0 won", str(lefts[1])),
        ("Cy", "most words: 0 · longest word: 0", "0 made, 0 won", str(lefts[2])),
    ]
    assert "The game isn't over" not in page
    assert 'id="rematch"' not in page  # a viewer: no rematch
    assert f'href="/games/{game.id}/recap.png?download=1"' in page
    # A link sent in a chat previews the card (an absolute address, in this language).
    card = f"http://localhost/games/{game.id}/recap.png?lang=en"
    assert f'<meta property="og:image" content="{card}">' in page


def test_the_scorekeeper_gets_the_rematch_and_an_open_game_says_so(
    client: FlaskClient, new_game: Callable[..., Stored]
) -> None:
    game = new_game(rules={"hands": [3, 4]})
    game.enter(1, ROUND_1)
    game.close(1)
    client.get(f"/games/{game.id}/edit/{game.token}")  # the scorekeeper's phone
    page = text(client.get(f"/games/{game.id}/recap"))
    assert "The game isn't over: this is the recap of its 1 closed round so far." in page
    assert 'id="rematch"' not in page
    game.enter(2, ROUND_2)
    game.close(2)
    page = text(client.get(f"/games/{game.id}/recap"))
    assert f'action="/games/{game.id}/rematch"' in page and 'id="rematch"' in page


def png_size(body: bytes) -> tuple[int, int]:
    assert body[:8] == b"\x89PNG\r\n\x1a\n"
    assert body[12:16] == b"IHDR"
    return struct.unpack(">II", body[16:24])


def test_the_share_card_is_a_png_drawn_from_the_svg_of_the_game(
    client: FlaskClient, new_game: Callable[..., Stored]
) -> None:
    game = played(new_game)
    svg = client.get(f"/games/{game.id}/recap.svg")
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml"
    drawn = svg.get_data(as_text=True)
    assert "JABS" in drawn and ">Cy<" in drawn and ">35<" in drawn
    # The chart is the leaderboard's: the same lines.
    board = client.get(f"/games/{game.id}/board").get_data(as_text=True)
    lines = re.findall(r'<polyline points="([^"]+)"', board)
    assert lines and re.findall(r'<polyline points="([^"]+)"', drawn) == lines
    png = client.get(f"/games/{game.id}/recap.png")
    assert png.status_code == 200 and png.mimetype == "image/png"
    assert png_size(png.data) == (1200, 630)
    assert png.headers["Content-Disposition"].startswith("inline")
    saved = client.get(f"/games/{game.id}/recap.png?download=1")
    assert saved.headers["Content-Disposition"] == (
        f'attachment; filename="quiddler-{game.id}.png"'
    )
    assert saved.data == png.data


def test_a_name_is_text_on_the_card_never_markup(
    client: FlaskClient, new_game: Callable[..., Stored]
) -> None:
    game = new_game(players=["<script>x</script>", "B&B", "Cy"], rules={"hands": [3]})
    game.enter(
        1,
        [
            {"name": "<script>x</script>", "words": [["c", "a", "t"]], "unused": [],
             "went_out": True},
            {"name": "B&B", "words": [["d", "o", "g"]], "unused": []},
            {"name": "Cy", "words": [["o", "x"]], "unused": ["m"]},
        ],
    )  # fmt: skip
    game.close(1)
    drawn = client.get(f"/games/{game.id}/recap.svg").get_data(as_text=True)
    assert "<script>" not in drawn and "&lt;script&gt;" in drawn and "B&amp;B" in drawn
    assert "<script>x" not in client.get(f"/games/{game.id}/recap").get_data(as_text=True)


def test_no_recap_of_a_game_that_is_not_there(client: FlaskClient) -> None:
    for tail in ("recap", "recap.svg", "recap.png"):
        assert client.get(f"/games/nosuchgame/{tail}").status_code == 404
