"""The variants on a phone: the new-game page at 390 and 320 px, the round plan menu (the
short game's boxes, Junior's rules set where the person sees them), a handicap per seat,
and the leaderboard's handicap row; nothing scrolls sideways."""

from __future__ import annotations

import re

import pytest

from tests.browser.phone import PHONE

pytestmark = pytest.mark.browser

SIZES = {"390": (390, 844), "320": (320, 640)}
SMALLEST = 44


def phone_at(browser, size: str):
    width, height = SIZES[size]
    context = browser.new_context(**{**PHONE, "viewport": {"width": width, "height": height}})
    return context, context.new_page()


def no_sideways_scroll(page, width: int) -> None:
    scrolled = page.evaluate("document.documentElement.scrollWidth")
    assert scrolled <= width, f"the page is {scrolled}px wide at {width} px: it scrolls sideways"


def big_enough(page, selector: str) -> None:
    """Every shown element of ``selector`` is at least 44 px tall and inside the screen."""
    width = page.viewport_size["width"]
    found = page.locator(selector)
    assert found.count() > 0, selector
    for i in range(found.count()):
        box = found.nth(i).bounding_box()
        assert box is not None, f"{selector} #{i} is not shown"
        assert box["height"] >= SMALLEST, (selector, i, box)
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, (selector, i, box)


@pytest.mark.parametrize("size", ["390", "320"])
def test_junior_on_the_new_game_page_and_a_handicap_on_the_board(
    live_server, browser, screenshot, size
) -> None:
    context, page = phone_at(browser, size)
    try:
        width = SIZES[size][0]
        page.goto(live_server + "/games/new")
        page.wait_for_load_state("load")  # the page's scripts are running

        # The short game's boxes only while a short game is chosen.
        short = page.locator("#rules-hands-short")
        assert short.is_hidden()
        page.select_option("#rules-hands", "short")
        assert short.is_visible()
        assert page.input_value("#rules-hands_first") == "10"
        assert page.input_value("#rules-hands_last") == "6"
        big_enough(page, "#rules-hands_first, #rules-hands_last")
        no_sideways_scroll(page, width)

        # A seat's handicap box shows once it has a name.
        assert page.locator("#players-0-handicap").is_hidden()
        for seat, name in enumerate(["Ann", "Ben", "Cy"]):
            page.fill(f"#players-{seat}-name", name)
        assert page.locator("#players-0-handicap").is_visible()
        assert page.locator("#players-3-handicap").is_hidden()  # seat 4: no name
        page.fill("#players-1-handicap", "15")
        big_enough(page, "#players-0-handicap, #players-1-handicap, #players-2-handicap")

        # Moving Ben up takes his handicap along.
        page.locator(".seat-row").nth(1).locator(".move-up").tap()
        assert page.input_value("#players-0-name") == "Ben"
        assert page.input_value("#players-0-handicap") == "15"
        assert page.input_value("#players-1-handicap") == ""
        page.locator(".seat-row").nth(0).locator(".move-down").tap()
        assert page.input_value("#players-1-handicap") == "15"

        # Junior: the plan, and the rules it sets, marked where they are.
        assert page.input_value("#rules-min_word") == "cards"
        assert page.is_checked("#rules-leftover_penalty")
        assert not page.is_checked("#rules-proper_nouns")
        page.select_option("#rules-hands", "junior")
        assert short.is_hidden()
        assert page.input_value("#rules-min_word") == "one_card"
        assert page.is_checked("#rules-proper_nouns")
        assert not page.is_checked("#rules-leftover_penalty")
        lexicons = page.locator("#rules-lexicon option").evaluate_all(
            "options => options.map(o => o.value)"
        )
        expected = "common" if "common" in lexicons else "standard"
        assert page.input_value("#rules-lexicon") == expected
        note = page.locator("#rules-hands-note")
        assert "you can still change them" in note.inner_text()
        assert page.locator(".preset-set").count() >= 3
        # ... and the person can still change them.
        page.locator("#rules-leftover_penalty").check()
        no_sideways_scroll(page, width)
        page.locator("#rules-hands").scroll_into_view_if_needed()
        screenshot(page, f"variants-new-game-junior-{size}")
        page.emulate_media(color_scheme="dark")  # a dark room: the marks still stand out
        screenshot(page, f"variants-new-game-junior-{size}-dark")
        page.emulate_media(color_scheme="light")

        page.locator("button[type=submit]").tap()
        page.wait_for_url(re.compile(r"/games/[\w-]+\?created=1$"))
        game_url = page.url.split("?")[0]
        game_id = game_url.rsplit("/", 1)[1]
        rules = page.request.get(f"{live_server}/api/v1/games/{game_id}").json()
        assert rules["rules"]["hands"] == [2, 3, 4, 5, 6, 7]
        assert rules["rules"]["min_word"] == "one_card"
        assert rules["rules"]["proper_nouns"] is True
        assert rules["rules"]["leftover_penalty"] is True  # changed back by hand
        assert [p["handicap"] for p in rules["players"]] == [0, 15, 0]
        assert "2 cards" in page.locator(".next").inner_text()

        # Round 1 (2 cards) entered and closed through the API, with the edit link's token.
        edit = page.locator("#edit-link").get_attribute("href") or ""
        token = edit.rsplit("/", 1)[1]
        auth = {"Authorization": f"Bearer {token}"}
        players = [
            {"name": "Ann", "words": ["a-t"], "unused": [], "went_out": True},
            {"name": "Ben", "words": [], "unused": ["z", "q"]},
            {"name": "Cy", "words": ["o-x"], "unused": []},
        ]
        base = f"{live_server}/api/v1/games/{game_id}/rounds/1"
        entered = page.request.put(base, data={"players": players}, headers=auth)
        assert entered.status == 200, entered.text()
        assert page.request.post(f"{base}/close", data={}, headers=auth).status == 200

        page.goto(game_url)
        row = page.locator(".handicap-row")
        assert row.is_visible()
        assert row.locator("th").inner_text() == "Handicap"
        assert row.locator("td").all_inner_texts() == ["0", "15", "0"]
        # Ann AT 5; Ben 15 - 29 floored to 0 for the round: 15; Cy OX 14 + longest... tied
        # with Ann at 2 letters: nobody; most words tied: nobody.
        totals = dict(
            zip(
                page.locator("#board .leaderboard .who").all_inner_texts(),
                page.locator("#board .leaderboard .total").all_inner_texts(),
                strict=True,
            )
        )
        assert totals == {"Ben": "15", "Cy": "14", "Ann": "5"}
        no_sideways_scroll(page, width)
        page.locator(".rounds-table").scroll_into_view_if_needed()
        screenshot(page, f"variants-board-handicap-{size}")
    finally:
        context.close()


def test_the_short_game_boxes_and_a_refusal_by_its_box(live_server, browser, screenshot) -> None:
    context, page = phone_at(browser, "390")
    try:
        page.goto(live_server + "/games/new")
        page.wait_for_load_state("load")
        page.fill("#players-0-name", "Ann")
        page.fill("#players-1-name", "Ben")
        page.select_option("#rules-hands", "short")
        page.fill("#rules-hands_first", "11")
        with page.expect_navigation():
            page.locator("button[type=submit]").tap()
        error = page.locator("#rules-hands_first-error")
        assert error.is_visible()  # the refused box stays in sight
        assert "not 11" in error.inner_text()
        assert page.input_value("#rules-hands") == "short"
        no_sideways_scroll(page, 390)
        error.scroll_into_view_if_needed()
        screenshot(page, "variants-new-game-short-refused-390")
    finally:
        context.close()
