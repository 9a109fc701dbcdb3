"""What the pages put first, read from their HTML: the challenge menus start on "Choose…"
(never on a self-challenge), Close comes right after who is in, the every-hand form folds
once every hand is in, the view QR comes first after "Start the game", the winner first
once the game is over, and the big board shows the same polled board part."""

from __future__ import annotations

import html
import re

import pytest

ROUND_1 = {  # Ann CAT, Ben DOG, Cy OX and M left over; Ann went out
    "players-0-words": "cat",
    "players-0-unused": "",
    "players-1-words": "d-o-g",
    "players-1-unused": "",
    "players-2-words": "ox",
    "players-2-unused": "m",
    "went_out": "0",
}


@pytest.fixture
def editor(new_game, client):
    """A three-player game, ``client`` holding its edit right, round 1 saved (every hand in)."""
    game = new_game()
    assert client.get(f"/games/{game.id}/edit/{game.token}").status_code == 302
    assert client.post(f"/games/{game.id}/rounds/1", data=ROUND_1).status_code == 302
    return game


def page(client, url: str) -> str:
    resp = client.get(url)
    assert resp.status_code == 200, resp.status_code
    return html.unescape(resp.get_data(as_text=True))


def menu(page_html: str, name: str) -> list[tuple[str, str, bool]]:
    """The options of the select ``name``: (value, label, selected)."""
    select = re.search(rf'<select[^>]*name="{name}"[^>]*>(.*?)</select>', page_html, re.S)
    assert select is not None, name
    return [
        (value, label.strip(), "selected" in attrs)
        for attrs, value, label in re.findall(
            r'<option([^>]*?value="([^"]*)"[^>]*)>(.*?)</option>', select[1], re.S
        )
    ]


def test_the_challenge_menus_start_on_choose_never_on_a_self_challenge(client, editor):
    round_page = page(client, f"/games/{editor.id}/rounds/1")
    by, word = menu(round_page, "by"), menu(round_page, "word")
    assert by[0] == ("", "Choose…", False) and word[0] == ("", "Choose…", False)
    assert not any(selected for *_, selected in by + word)  # the browser shows the first
    assert [label for _, label, _ in by[1:]] == ["Ann", "Ben", "Cy"]
    assert [value for value, _, _ in word[1:]] == ["0:0", "1:0", "2:0"]
    assert 'src="/static/challenge.js' in round_page or "challenge.js" in round_page


def test_a_challenge_sent_as_the_menus_start_is_refused_and_writes_nothing(client, editor, rows):
    before = rows()
    resp = client.post(f"/games/{editor.id}/rounds/1/challenges", data={"by": "", "word": ""})
    assert resp.status_code == 422
    assert "Pick the challenger and the word." in html.unescape(resp.get_data(as_text=True))
    # and a self-challenge posted anyway: refused by the action, nothing written
    resp = client.post(f"/games/{editor.id}/rounds/1/challenges", data={"by": "0", "word": "0:0"})
    assert resp.status_code == 422
    assert "Ann can't challenge their own word" in html.unescape(resp.get_data(as_text=True))
    assert rows() == before


def test_once_every_hand_is_in_close_comes_first_and_the_form_folds(client, editor):
    round_page = page(client, f"/games/{editor.id}/rounds/1")
    every_hand = re.search(r'<details class="every-hand" id="every-hand"([^>]*)>', round_page)
    assert every_hand is not None and "open" not in every_hand[1]
    status = round_page.index('id="seat-status-title"')
    close = round_page.index('id="close"')
    assert status < close < round_page.index('id="breakdown"') < round_page.index('id="challenges"')
    # the hands in, as one line of this round's scores (bonuses tied: nobody gets them)
    scores = re.search(r'<p class="round-scores">(.*?)</p>', round_page, re.S)
    assert scores is not None
    assert re.sub(r"<[^>]+>", "", scores[1]).split(" · ") == ["Ann 13", "Ben 13", "Cy 9"]


def test_a_reopened_round_lands_at_its_hands(client, editor):
    client.post(f"/games/{editor.id}/rounds/1/close")
    resp = client.post(f"/games/{editor.id}/rounds/1/reopen")
    assert resp.status_code == 302
    assert resp.headers["Location"].endswith(f"/games/{editor.id}/rounds/1#every-hand")


def test_the_view_qr_comes_first_after_starting_a_game(client, new_game):
    game = new_game()
    client.get(f"/games/{game.id}/edit/{game.token}")
    started = page(client, f"/games/{game.id}?created=1")
    qr = started.index('class="qr-code"')
    assert started.index('id="share-title"') < qr < started.index('id="seats-title"')
    assert qr < started.index('id="board-title"')
    later = page(client, f"/games/{game.id}")
    assert later.index('id="board-title"') < later.index('class="qr-code"')


def test_the_winner_comes_first_once_the_game_is_over(client, new_game):
    game = new_game()
    client.get(f"/games/{game.id}/edit/{game.token}")
    pool = "eaionrtu" * 4  # never more of a letter than the deck holds
    for number in range(1, 9):  # every card left over, but Ann's: she lays down a word
        size = number + 2
        game.enter(
            number,
            [
                {"name": "Ann", "words": [list(pool[:size])], "unused": []},
                *({"name": n, "words": [], "unused": list(pool[:size])} for n in ("Ben", "Cy")),
            ],
        )
        game.close(number)
    over = page(client, f"/games/{game.id}")
    winner = over.index('class="winner"')
    assert over.index('class="game-title"') < winner < over.index('id="seats-title"')
    assert "Ann" in over[winner : over.index("</div>", winner)]


def test_the_big_board_polls_the_same_board_as_the_game_page(client, editor):
    big = page(client, f"/games/{editor.id}/big")
    game_page = page(client, f"/games/{editor.id}")
    polled = re.compile(r'data-live-url="([^"]*/board\?lang=en)"')
    assert polled.findall(big) == polled.findall(game_page) == [f"/games/{editor.id}/board?lang=en"]
    assert 'class="big-board"' in big and 'class="leaderboard"' in big
    assert f'href="/games/{editor.id}/big"' in game_page
    assert client.get("/games/no-such-game/big").status_code == 404
