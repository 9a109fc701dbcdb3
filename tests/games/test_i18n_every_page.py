"""Every page in every language: the ``lang`` attribute follows the phone, and no English
sentence of the English page is left in the Lithuanian, Hungarian or Czech one (the
game's words, card names and player names aside, and what the page marks as English:
WordNet's definitions)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from flask import Flask

from tests.games.test_pages_games import new_game_form, round_form

LANGS = ("en", "lt", "hu", "cs")
NAMES = ("Ann", "Ben", "Cy")
KEPT = {
    "Quiddler Companion",  # the app's name
    "English",  # the switch names each language in itself
    "Lietuvių",
    "Magyar",
    "Čeština",
}
"""Texts that are the same in every language on purpose."""


class Text(HTMLParser):
    """The text a person reads: text nodes (scripts, styles and SVG aside) and the
    attributes read out or shown (title, aria-label, placeholder, alt, value of buttons)."""

    SKIP = frozenset({"script", "style", "svg", "code"})

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.SKIP:
            self._skipping += 1
        for name, value in attrs:
            if value and name in ("title", "aria-label", "placeholder", "alt"):
                self.parts.append(value)
            if value and name == "value" and tag == "button":
                self.parts.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIP and self._skipping:
            self._skipping -= 1

    def handle_data(self, data: str) -> None:
        if not self._skipping and data.strip():
            self.parts.append(" ".join(data.split()))


MARKED_ENGLISH = re.compile(r'<(?!html\b)([a-z]+)\b[^>]*\blang="en"[^>]*>.*?</\1>', re.S)
"""An element the page itself marks as English in any language (a definition: WordNet is
English), e.g. ``<span class="gloss" lang="en">...</span>``."""


def read(page: str) -> list[str]:
    parser = Text()
    parser.feed(MARKED_ENGLISH.sub(" ", page))
    return parser.parts


def sentence(text: str) -> bool:
    """Whether ``text`` is UI words: two or more words of three letters or more, once the
    player names, the game's words (capitals), card spellings, numbers, links and the
    app's name are taken out."""
    if text in KEPT:
        return False
    text = re.sub(r"https?://\S+|Quiddler Companion|Quiddler", " ", text)  # addresses, the name
    words = re.findall(r"[A-Za-z]{3,}", text)
    words = [w for w in words if w not in NAMES and not w.isupper()]
    return len(words) >= 2


@pytest.fixture
def pages(app: Flask, new_game, client):
    """Every page with what it shows at its fullest: (name, client, path)."""
    game = new_game(players=list(NAMES))
    game.enter(
        1,
        [
            {"name": "Ann", "words": ["c-a-t"], "unused": [], "went_out": True},
            {"name": "Ben", "words": ["d-o-g"], "unused": []},
            {"name": "Cy", "words": ["o-x"], "unused": ["m"]},
        ],
    )
    game.challenge(1, "Ann", "Cy", 0)
    closed = new_game(players=list(NAMES))
    closed.enter(
        1,
        [
            {"name": "Ann", "words": ["c-a-t"], "unused": [], "went_out": True},
            {"name": "Ben", "words": ["d-o-g"], "unused": []},
            {"name": "Cy", "words": ["o-x"], "unused": ["m"]},
        ],
    )
    closed.close(1)
    editor = app.test_client()
    editor.get(f"/games/{game.id}/edit/{game.token}")
    seated = app.test_client()
    seated.post(f"/games/{game.id}/seats/1")
    keeper = app.test_client()
    keeper.get(f"/games/{closed.id}/edit/{closed.token}")
    viewer = app.test_client()
    # A table of the three, its finished one-round game (started and played on the pages).
    host = app.test_client()
    made = host.post(
        "/tables/new",
        data={"name": "Sundays", **{f"members-{i}-name": n for i, n in enumerate(NAMES)}},
    )
    table = made.headers["Location"].split("/tables/")[1].split("?")[0]
    form = new_game_form(list(NAMES), hands="short", hands_first="3", hands_last="3")
    started = host.post("/games/new", data={**form, "table": table})
    played = started.headers["Location"].split("/games/")[1].split("?")[0]
    host.post(
        f"/games/{played}/rounds/1", data=round_form(["cat", "d-o-g", "ox"], ["", "", "m"], "0")
    )
    assert host.post(f"/games/{played}/rounds/1/close").status_code == 302
    member = re.search(r"/players/(\d+)", host.get(f"/tables/{table}").get_data(as_text=True))
    assert member is not None
    return [
        ("home", viewer, "/"),
        ("new game", viewer, "/games/new"),
        ("score", viewer, "/score"),
        ("words", viewer, "/words?words=quiz+zzq"),
        ("judge", viewer, "/judge"),
        ("solitaire", viewer, "/solitaire"),
        ("rules", viewer, "/rules"),
        ("rules of a game", viewer, f"/rules?game={game.id}"),
        ("game, viewer", viewer, f"/games/{game.id}"),
        ("game, scorekeeper", editor, f"/games/{game.id}"),
        ("game, seat", seated, f"/games/{game.id}"),
        ("claim a seat", viewer, f"/games/{game.id}/seats/2"),
        ("round with a challenge", editor, f"/games/{game.id}/rounds/1"),
        ("round, seat form", seated, f"/games/{game.id}/rounds/1"),
        ("round closed, best play", keeper, f"/games/{closed.id}/rounds/1"),
        ("round 2, every hand", keeper, f"/games/{closed.id}/rounds/2?enter=all"),
        ("round 3, not yet", viewer, f"/games/{closed.id}/rounds/3"),
        ("not found", viewer, "/games/nope"),
        ("new table", viewer, "/tables/new"),
        ("table, scorekeeper", host, f"/tables/{table}"),
        ("table, viewer", viewer, f"/tables/{table}"),
        ("a player's records", viewer, f"/tables/{table}/players/{member[1]}"),
        ("new game of a table", host, f"/games/new?table={table}"),
        ("finished game of a table", host, f"/games/{played}"),
        ("recap", host, f"/games/{played}/recap"),
        ("recap of a game not over", viewer, f"/games/{closed.id}/recap"),
        ("import a table", viewer, "/tables/import"),
    ]


@pytest.mark.parametrize("lang", LANGS[1:])
def test_every_page_speaks_the_phones_language(pages, lang: str) -> None:
    left: dict[str, list[str]] = {}
    for name, client, path in pages:
        renders = {}
        for shown in ("en", lang):
            resp = client.get(path, headers={"Accept-Language": shown})
            wanted = 404 if name == "not found" else 200
            assert resp.status_code == wanted, (name, shown, resp.status_code)
            page = resp.get_data(as_text=True)
            assert f'<html lang="{shown}">' in page, (name, shown)
            renders[shown] = read(page)
        english = {t for t in renders["en"] if sentence(t)}
        assert english, f"{name}: no English sentence found to compare"
        still = sorted(english & set(renders[lang]))
        if still:
            left[name] = still
    assert not left, f"English left in the {lang} pages:\n" + "\n".join(
        f"{page}: {texts[:6]}" for page, texts in left.items()
    )
