"""Each phone reads the pages in its own language: ``lang`` from its choice on the switch,
else ``Accept-Language``, else English; and no page kept for one language (the viewers'
game page, the board, the round's live part, their ETags) is served to a phone in another.

The catalogs may still be empty, so a page's language shows in its ``lang`` attribute, in
its scripts' catalog and in its lists of people (the locale's pattern: "Ben and Cy",
"Ben ir Cy", "Ben és Cy", "Ben a Cy").
"""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.games.conftest import new_game  # noqa: F401  (the fixture)

WAITING = {
    "en": "Ben and Cy",
    "lt": "Ben ir Cy",
    "hu": "Ben és Cy",
    "cs": "Ben a\u00a0Cy",  # a no-break space after the one-letter word
}
"""Ann's hand is in: who the others wait for, listed by each language's pattern."""


def lang_of(page: str) -> str:
    found = re.search(r'<html lang="([^"]+)"', page)
    assert found, page[:200]
    return found.group(1)


def asking(lang: str) -> dict[str, str]:
    return {"Accept-Language": lang}


@pytest.fixture
def waiting_game(app: Flask, new_game):  # noqa: F811
    """Ann, Ben and Cy; Ann's phone took her seat and saved her round-1 hand."""
    game = new_game()
    ann = app.test_client()
    assert ann.post(f"/games/{game.id}/seats/0").status_code == 302
    saved = ann.post(
        f"/games/{game.id}/rounds/1/seats/0", data={"words": "cat", "unused": "", "version": "0"}
    )
    assert saved.status_code == 302, saved.get_data(as_text=True)
    return game


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("lt", "lt"),
        ("hu-HU,hu;q=0.9,en;q=0.5", "hu"),
        ("cs", "cs"),
        ("en-GB", "en"),
        ("de-DE,fr;q=0.8", "en"),  # none we speak: English
        ("", "en"),
    ],
)
def test_the_page_language_follows_accept_language(client: FlaskClient, header: str, lang: str):
    page = client.get("/", headers=asking(header)).get_data(as_text=True)
    assert lang_of(page) == lang
    assert f'"lang": "{lang}"' in page  # the scripts' catalog is in that language too
    assert 'aria-current="true">' + {
        "en": "English", "lt": "Lietuvių", "hu": "Magyar", "cs": "Čeština"
    }[lang] in page  # fmt: skip


def test_the_switch_sets_the_language_goes_back_and_is_remembered(
    client: FlaskClient,
    new_game,  # noqa: F811
) -> None:
    game = new_game()
    resp = client.get(f"/language/hu?next=/games/{game.id}", headers=asking("lt"))
    assert resp.status_code == 302
    assert resp.headers["Location"] == f"/games/{game.id}"
    page = client.get(f"/games/{game.id}", headers=asking("lt")).get_data(as_text=True)
    assert lang_of(page) == "hu"  # the choice wins over Accept-Language
    assert lang_of(client.get("/", headers=asking("cs")).get_data(as_text=True)) == "hu"
    # each link of the switch comes back to the page it is on
    assert f'href="/language/lt?next=/games/{game.id}"' in page
    client.get("/language/en?next=/")
    assert lang_of(client.get("/", headers=asking("lt")).get_data(as_text=True)) == "en"


@pytest.mark.parametrize(
    "target",
    [
        "https://evil.example/",
        "//evil.example/games",
        "/\\evil.example",
        "",
        "javascript:x",
        # What a browser normalises into //evil.example: tabs, line breaks, spaces, controls.
        "/\t/evil.example",
        "/\n/evil.example",
        "/\r/evil.example",
        "/ /evil.example",
        "\t//evil.example",
        "/\x00/evil.example",
        "/\x7f/evil.example",
        "/\u3000/evil.example",
        "/\u2028/evil.example",
        "http:/evil.example",
    ],
)
def test_the_switch_never_goes_to_another_site(client: FlaskClient, target: str) -> None:
    resp = client.get("/language/cs", query_string={"next": target})
    assert resp.status_code == 302
    assert resp.headers["Location"] == "/"
    assert lang_of(client.get("/").get_data(as_text=True)) == "cs"


@pytest.mark.parametrize(
    "raw", ["/%09/evil.example", "/%0a/x", "/%0d%0aSet-Cookie:x=1", "%09//e.x"]
)
def test_an_escaped_control_character_in_next_goes_home(client: FlaskClient, raw: str) -> None:
    """The address as a phone's browser sends it: no other site, and never a 500."""
    resp = client.get(f"/language/en?next={raw}")
    assert resp.status_code == 302
    assert resp.headers["Location"] == "/"


def test_an_unknown_language_is_404(client: FlaskClient) -> None:
    assert client.get("/language/xx?next=/").status_code == 404
    assert lang_of(client.get("/").get_data(as_text=True)) == "en"


def test_the_viewers_game_page_is_kept_per_language(app: Flask, waiting_game) -> None:
    url = f"/games/{waiting_game.id}"
    for lang in ("lt", "hu", "en", "cs", "lt"):  # one game version, four phones
        page = app.test_client().get(url, headers=asking(lang)).get_data(as_text=True)
        assert lang_of(page) == lang
        assert WAITING[lang] in page
        for other, names in WAITING.items():
            if other != lang:
                assert names not in page, (lang, other)
    chosen = app.test_client()
    chosen.get(f"/language/hu?next={url}")
    page = chosen.get(url, headers=asking("lt")).get_data(as_text=True)
    assert lang_of(page) == "hu" and WAITING["hu"] in page


def test_the_board_and_its_etag_are_per_language(app: Flask, waiting_game) -> None:
    url = f"/games/{waiting_game.id}/board"
    lt, hu = app.test_client(), app.test_client()
    first = lt.get(url, headers=asking("lt"))
    assert first.status_code == 200 and WAITING["lt"] in first.get_data(as_text=True)
    tag = first.headers["ETag"]
    assert "Accept-Language" in first.headers.get("Vary", "")
    assert lt.get(url, headers={**asking("lt"), "If-None-Match": tag}).status_code == 304
    other = hu.get(url, headers={**asking("hu"), "If-None-Match": tag})
    assert other.status_code == 200, "a board kept in Lithuanian answered a Hungarian phone"
    assert other.headers["ETag"] != tag
    body = other.get_data(as_text=True)
    assert WAITING["hu"] in body and WAITING["lt"] not in body
    # a phone that switches language gets the board again, in its new language
    lt.get(f"/language/cs?next=/games/{waiting_game.id}")
    switched = lt.get(url, headers={**asking("lt"), "If-None-Match": tag})
    assert switched.status_code == 200 and WAITING["cs"] in switched.get_data(as_text=True)


def test_the_round_live_part_and_its_etag_are_per_language(app: Flask, waiting_game) -> None:
    url = f"/games/{waiting_game.id}/rounds/1/live"
    phone = app.test_client()
    first = phone.get(url, headers=asking("lt"))
    assert first.status_code == 200
    assert WAITING["lt"] in first.get_data(as_text=True)
    tag = first.headers["ETag"]
    assert "Accept-Language" in first.headers.get("Vary", "")
    assert phone.get(url, headers={**asking("lt"), "If-None-Match": tag}).status_code == 304
    other = app.test_client().get(url, headers={**asking("cs"), "If-None-Match": tag})
    assert other.status_code == 200
    assert other.headers["ETag"] != tag
    assert WAITING["cs"] in other.get_data(as_text=True)


def test_english_pages_read_as_before(app: Flask, waiting_game) -> None:
    """Marking the words changed nothing a person reads in English."""
    viewer = app.test_client()
    page = viewer.get(f"/games/{waiting_game.id}").get_data(as_text=True)
    text = re.sub(r"\s+", " ", page)
    assert "View only: tap your name below to enter your own hand, or open the edit link" in text
    assert "Round 1: waiting for Ben and Cy to enter their hand." in text
    assert "Next: round 1 (3 cards) · <strong>Ann</strong> deals" in text
    assert f'href="/rules?game={waiting_game.id}"' in text and ">Rules</a>" in text
    live = viewer.get(f"/games/{waiting_game.id}/rounds/1").get_data(as_text=True)
    text = re.sub(r"\s+", " ", live)
    assert "<strong>3 cards</strong> each · <strong>Ann</strong> deals" in text
    assert "Round 1 is waiting for Ben and Cy to enter their hand." in text
    assert "<strong>Longest word</strong>: 3 letters, Ann (CAT)." in text
    assert "<strong>Most words</strong>: 1 word, Ann." in text
    assert "beat it to win 10 points. So far from Ann." in text
    assert f'href="/rules?game={waiting_game.id}"' in text


def test_home_dates_are_machine_readable_utc_and_in_the_locale(
    client: FlaskClient, waiting_game
) -> None:
    client.get(f"/games/{waiting_game.id}")  # opened here: the home page lists it
    page = client.get("/").get_data(as_text=True)
    found = re.search(
        r'<time datetime="(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)" data-local>([^<]+)</time>', page
    )
    assert found, page
    assert found.group(2).endswith(" UTC")
    assert re.match(r"[A-Z][a-z]{2} \d{1,2}, \d{4}", found.group(2)), found.group(2)
    hu = client.get("/", headers=asking("hu")).get_data(as_text=True)
    shown = re.search(r"<time [^>]*>([^<]+)</time>", hu)
    assert shown and re.match(r"\d{4}\. [a-zá]+\.? \d{1,2}\.", shown.group(1)), shown
