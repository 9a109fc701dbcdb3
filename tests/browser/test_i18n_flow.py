"""Two phones in two languages at one table, and every page in every language at 390 px.

A phone in Lithuanian and one in Hungarian each enter their own hand of the same round
and read the same leaderboard, each in its own language; then every page is opened in
every language, with a screenshot and no sideways scrolling (Hungarian words are long).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.browser.phone import PHONE, call

pytestmark = pytest.mark.browser

LOCALES = {"en": "en-GB", "lt": "lt-LT", "hu": "hu-HU", "cs": "cs-CZ"}


def round_one_closed(base: str) -> dict:
    """A game of Ann, Ben and Cy made through the API, its round 1 entered and closed
    (CAT, DOG, OX and M): the create answer."""
    game = call(base, "POST", "/api/v1/games", {"players": ["Ann", "Ben", "Cy"]})
    token, rounds = game["edit_token"], f"/api/v1/games/{game['id']}/rounds"
    hands = [
        {"name": "Ann", "words": ["c-a-t"], "unused": [], "went_out": True},
        {"name": "Ben", "words": ["d-o-g"], "unused": []},
        {"name": "Cy", "words": ["o-x"], "unused": ["m"]},
    ]
    call(base, "PUT", f"{rounds}/1", {"players": hands}, token)
    call(base, "POST", f"{rounds}/1/close", None, token)
    return game


def goto_while_it_reloads(page, url: str) -> None:
    """Open ``url`` on a page that may be reloading itself (its round was just closed on
    another phone, so its live part reloads it): a navigation it aborts is tried again."""
    for attempt in range(3):
        try:
            page.goto(url)
            return
        except PlaywrightError as exc:
            if "ERR_ABORTED" not in str(exc) or attempt == 2:
                raise


def test_a_lithuanian_and_a_hungarian_phone_play_the_same_round(
    live_server, browser, screenshot, fits_phone
) -> None:
    game = call(live_server, "POST", "/api/v1/games", {"players": ["Ann", "Ben"]})
    phones = {}
    try:
        for lang in ("lt", "hu"):
            context = browser.new_context(**PHONE, locale=LOCALES[lang])
            phones[lang] = context.new_page()
        ann, ben = phones["lt"], phones["hu"]
        ben.goto(game["edit_url"])  # the Hungarian phone keeps the score, and plays Ben
        for page, seat in ((ann, 0), (ben, 1)):
            page.goto(f"{live_server}/games/{game['id']}/seats/{seat}")
            page.locator("#claim").tap()
            page.wait_for_url(re.compile(r"/rounds/1$"))
        assert ann.locator("html").get_attribute("lang") == "lt"
        assert ben.locator("html").get_attribute("lang") == "hu"
        ann.fill("#words", "c-a-t")
        ben.fill("#words", "d-o-g")
        for page in (ann, ben):
            page.locator("#seat-form button[type=submit]").click(no_wait_after=True)
        for page in (ann, ben):
            page.wait_for_url(
                re.compile(r"#(round-live|breakdown)$"), wait_until="domcontentloaded"
            )
        ben.locator("#close").wait_for()
        screenshot(ann, "i18n-lt-round-entered")
        screenshot(ben, "i18n-hu-round-entered")
        ben.locator("#close").tap()
        ben.wait_for_url(re.compile(rf"/games/{game['id']}$"))
        # Ann's round page sees the round closed on Ben's phone and reloads itself into
        # the closed round; only then does she open the leaderboard (a reload still on
        # its way could otherwise take her back to the round after her own navigation).
        ann.locator("h1 .tag.closed").wait_for()
        goto_while_it_reloads(ann, f"{live_server}/games/{game['id']}")
        boards = {}
        for lang, page in phones.items():
            totals = page.locator("#board-live [data-total]").all_inner_texts()
            boards[lang] = totals
            fits_phone(page)
            screenshot(page, f"i18n-{lang}-leaderboard")
        # CAT 13 and DOG 13, one word each: no bonus (two players: longest word, a tie).
        assert boards["lt"] == boards["hu"] == ["13", "13"]
        heading = {lang: page.locator("#board-title").inner_text() for lang, page in phones.items()}
        assert heading["lt"] != heading["hu"] and "Leaderboard" not in heading.values()
    finally:
        for page in phones.values():
            page.context.close()


def test_every_page_in_every_language_fits_a_phone(live_server, browser, screenshot) -> None:
    game = round_one_closed(live_server)
    token = game["edit_token"]
    call(
        live_server,
        "PUT",
        f"/api/v1/games/{game['id']}/rounds/2/seats/2",
        {"words": ["o-x"], "unused": ["m", "z"]},
        token,
    )
    paths = {
        "home": "/",
        "new-game": "/games/new",
        "game": f"/games/{game['id']}",
        "round-closed": f"/games/{game['id']}/rounds/1",
        "round-open": f"/games/{game['id']}/rounds/2",
        "seat-claim": f"/games/{game['id']}/seats/0",
        "rules": f"/rules?game={game['id']}",
        "score": "/score",
        "words": "/words?words=quiz+zzq",
        "judge": "/judge",
        "solitaire": "/solitaire",
        "not-found": "/games/nope",
    }
    wide = []
    for lang, locale in LOCALES.items():
        context = browser.new_context(**{**PHONE, "device_scale_factor": 1}, locale=locale)
        page = context.new_page()
        # The scorekeeper's phone (the edit link's cookie; the page isn't drawn): the
        # fullest pages.
        assert context.request.get(game["edit_url"]).ok
        for name, path in paths.items():
            page.goto(live_server + path)
            shown, width, keeper = page.evaluate(  # one call: no selector engine needed
                "[document.documentElement.getAttribute('lang'),"
                " document.documentElement.scrollWidth,"
                " document.querySelectorAll('details.scorekeeper').length]"
            )
            assert shown == lang, (name, lang)
            assert name != "game" or keeper == 1, f"not the scorekeeper's phone ({lang})"
            if width > 390:
                wide.append((lang, name, width))
            screenshot(page, f"i18n-{lang}-{name}")
        context.close()
    assert not wide, f"pages that scroll sideways at 390 px: {wide}"
