"""The tables' pages on a phone: a table started from its form (CSRF on), a game started
from it and finished, the rematch; at 390 and 320 px nothing scrolls sideways, the
buttons and links are big enough to tap, in light and dark mode."""

from __future__ import annotations

import pytest

from tests.browser.test_tap_targets import sideways, too_small

pytestmark = pytest.mark.browser


def start_table(page, live_server: str) -> str:
    """A table of three started through its form, with a fourth person under "More
    rows"; the table page's address."""
    page.goto(f"{live_server}/tables/new")
    page.fill("#name", "Sunday family")
    for i, name in enumerate(["Ann", "Ben", "Cy"]):
        page.fill(f"#members-{i}-name", name)
    page.locator("summary", has_text="More rows").tap()
    page.fill("#members-9-name", "Dora")
    page.locator("#alternate_bonus").check()
    page.locator("button", has_text="Start the table").tap()
    page.wait_for_url("**/tables/*?created=1")
    assert page.locator("#edit-link").is_visible()
    return page.url.removesuffix("?created=1")


def test_a_table_its_game_and_the_rematch(live_server, phone, screenshot) -> None:
    page = phone
    table_url = start_table(page, live_server)
    page.goto(table_url)
    assert page.locator(".table-people").inner_text() == "Ann, Ben, Cy, Dora"
    page.locator("#new-table-game").tap()
    page.wait_for_url("**/games/new?table=*")
    assert page.input_value("#players-3-name") == "Dora"
    page.fill("#players-2-name", "")
    page.fill("#players-3-name", "")  # Ann and Ben play
    page.select_option("#rules-hands", "short")
    page.fill("#rules-hands_first", "3")
    page.fill("#rules-hands_last", "3")
    page.locator("button", has_text="Start the game").tap()
    page.wait_for_url("**/games/*?created=1")
    game_url = page.url.removesuffix("?created=1")
    assert page.locator("#table-link").inner_text() == "Table: Sunday family"
    token = str(page.locator("#edit-link").get_attribute("href")).rsplit("/", 1)[1]
    api = game_url.replace("/games/", "/api/v1/games/") + "/rounds/1"
    auth = {"Authorization": f"Bearer {token}"}
    hands = [
        {"name": "Ann", "words": ["c-a-t"], "unused": [], "went_out": True},
        {"name": "Ben", "words": ["d-o-g"], "unused": []},
    ]
    assert page.request.put(api, data={"players": hands}, headers=auth).status == 200
    assert page.request.post(api + "/close", data={}, headers=auth).status == 200
    page.goto(game_url)
    page.locator("#rematch").tap()
    page.wait_for_url("**/games/*?created=1")
    assert page.url.removesuffix("?created=1") != game_url
    page.goto(table_url)
    assert page.locator(".game-list li").count() == 2
    assert page.locator("#records .player-records").count() == 4
    assert too_small(page, "#records h4 a") == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "tables-records-390")


@pytest.mark.parametrize("width", [390, 320])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_tables_pages_fit_a_phone(live_server, browser, screenshot, width, scheme) -> None:
    from tests.browser.phone import PHONE

    context = browser.new_context(
        **{**PHONE, "viewport": {"width": width, "height": 844}}, color_scheme=scheme
    )
    page = context.new_page()
    try:
        table_url = start_table(page, live_server)
        pages = {
            "new": f"{live_server}/tables/new",
            "created": table_url + "?created=1",
            "table": table_url,
            "game": f"{live_server}/games/new?table={table_url.rsplit('/', 1)[1]}",
        }
        small: list[str] = []
        for name, url in pages.items():
            page.goto(url)
            assert sideways(page) <= width, f"the {name} page is {sideways(page)}px wide"
            screenshot(page, f"tables-{name}-{width}-{scheme}")
            if name == "table":
                small += too_small(page, ".put-away button")
                small += too_small(page, "#new-table-game")
                small += too_small(page, ".game-list a, details.scorekeeper > summary")
            if name == "new":
                small += too_small(page, ".more-rows > summary")
                small += too_small(page, "label.field.check:visible, .field.check")
        page.goto(table_url)
        page.locator(".put-away button.danger").tap()  # the page that asks to confirm
        page.wait_for_url(table_url + "/delete")
        assert page.locator("h1").inner_text() == "Delete the table Sunday family?"
        assert sideways(page) <= width, f"the confirm page is {sideways(page)}px wide"
        small += too_small(page, ".confirm-form button, a.button")
        screenshot(page, f"tables-confirm-{width}-{scheme}")
        assert small == []
    finally:
        context.close()
