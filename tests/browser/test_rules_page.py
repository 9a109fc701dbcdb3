"""The rules page at 320 px in each language: nothing scrolls sideways, not even the deck's
table, whose headings stay whole words; and opened from a game, its house rules below the
rules."""

from __future__ import annotations

import pytest

from tests.browser.phone import PHONE

pytestmark = pytest.mark.browser

NARROW = {**PHONE, "viewport": {"width": 320, "height": 640}}
HEADINGS = {
    "en": "How to play Quiddler",
    "lt": "Kaip žaisti Quiddler",
    "hu": "Így játszd a Quiddlert",
    "cs": "Jak hrát Quiddler",
}


def no_sideways_scroll(page, width: int) -> None:
    """Neither the page nor any element in it is wider than the screen."""
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    widest = page.evaluate(
        "Math.max(...[...document.querySelectorAll('main *')]"
        ".map(e => e.getBoundingClientRect().right))"
    )
    assert widest <= width, f"something in the page reaches {widest}px at {width}px"


@pytest.mark.parametrize("lang", sorted(HEADINGS))
def test_the_rules_fit_a_320_px_phone(live_server, browser, screenshot, lang):
    """Nothing scrolls sideways, and no heading of the deck's table is broken inside a word
    ("Tašk/ai") nor makes the table wider than the text."""
    context = browser.new_context(**NARROW, extra_http_headers={"Accept-Language": lang})
    try:
        page = context.new_page()
        page.goto(live_server + "/rules")
        page.wait_for_load_state()
        assert page.locator("html").get_attribute("lang") == lang
        assert page.locator("h1").inner_text() == HEADINGS[lang]
        assert page.locator("table.deck tbody th").count() == 31
        no_sideways_scroll(page, 320)
        heights = page.eval_on_selector_all(
            "table.deck thead th", "cells => cells.map(c => c.getBoundingClientRect().height)"
        )
        line = page.eval_on_selector(
            "table.deck thead th", "c => parseFloat(getComputedStyle(c).lineHeight)"
        )
        assert max(heights) < 2 * line, f"a heading wraps: {heights}"
        table = page.eval_on_selector("table.deck", "t => t.getBoundingClientRect().right")
        text = page.eval_on_selector("article", "a => a.getBoundingClientRect().right")
        assert table <= text, f"the deck's table ({table}px) is wider than the text ({text}px)"
        screenshot(page, f"rules-{lang}")
    finally:
        context.close()


def test_a_games_house_rules_fit_too(live_server, browser, screenshot):
    context = browser.new_context(**NARROW)
    try:
        created = context.request.post(
            live_server + "/api/v1/games",
            data={"players": ["Ann", "Ben"], "rules": {"two_player_bonus": "most"}},
        )
        assert created.status == 201, created.text()
        page = context.new_page()
        page.goto(live_server + f"/rules?game={created.json()['id']}")
        page.wait_for_load_state()
        assert "Most words only" in page.locator("#house-rules").inner_text()
        no_sideways_scroll(page, 320)
        screenshot(page, "rules-game")
    finally:
        context.close()


@pytest.mark.parametrize("lang", sorted(HEADINGS))
def test_a_games_variants_fit_too(live_server, browser, screenshot, lang):
    """The longest variant text a game can have (16 rounds listed, Junior rules, head
    starts, a vote) still fits a 320 px phone, in each language."""
    context = browser.new_context(**NARROW, extra_http_headers={"Accept-Language": lang})
    try:
        full = [*range(3, 11), *range(10, 2, -1)]
        created = context.request.post(
            live_server + "/api/v1/games",
            data={
                "players": ["Ann", "Ben", "Cy"],
                "handicap": [0, 15, 25],
                "rules": {
                    "hands": full,
                    "min_word": "one_card",
                    "proper_nouns": True,
                    "leftover_penalty": False,
                    "challenge_ruling": "unanimous",
                    "floor": "before_bonus",
                },
            },
        )
        assert created.status == 201, created.text()
        page = context.new_page()
        page.goto(live_server + f"/rules?game={created.json()['id']}")
        page.wait_for_load_state()
        assert page.locator("#variants").count() == 1 and page.locator("#vote").count() == 1
        no_sideways_scroll(page, 320)
        screenshot(page, f"rules-variants-{lang}")
    finally:
        context.close()
