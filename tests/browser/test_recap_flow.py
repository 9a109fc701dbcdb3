"""The end of a game on a phone: a table's game finished, its recap opened from the game
page, the share card shown and downloadable, the rematch tapped from the recap; then the
table's page and a player's records. At 390 and 320 px, light and dark, nothing scrolls
sideways. Screenshots: the recap, the table page, a player's records, the share card."""

from __future__ import annotations

import pytest

from tests.browser.conftest import SCREENSHOTS
from tests.browser.test_tap_targets import sideways, too_small

pytestmark = pytest.mark.browser

HANDS = [
    {"name": "Ann", "words": ["qu-i-z"], "unused": [], "went_out": True},
    {"name": "Ben", "words": ["d-o-g"], "unused": []},
    {"name": "Cy", "words": ["o-x"], "unused": ["m"]},
]
"""One round of three cards: Ann QUIZ 25 (out) and the longest word (+10), Ben DOG 13,
Cy OX 14 - M 5 = 9."""


def finished_game(page, live_server: str) -> tuple[str, str]:
    """A table of Ann, Ben and Cy started through its form, a one-round game of it started
    and played to its end; the table's and the game's addresses."""
    page.goto(f"{live_server}/tables/new")
    page.fill("#name", "Ąžuolų šeima")
    for i, name in enumerate(["Ann", "Ben", "Cy"]):
        page.fill(f"#members-{i}-name", name)
    page.locator("button", has_text="Start the table").tap()
    page.wait_for_url("**/tables/*?created=1")
    table_url = page.url.removesuffix("?created=1")
    page.goto(table_url)
    page.locator("#new-table-game").tap()
    page.wait_for_url("**/games/new?table=*")
    page.select_option("#rules-hands", "short")
    page.fill("#rules-hands_first", "3")
    page.fill("#rules-hands_last", "3")
    page.locator("button", has_text="Start the game").tap()
    page.wait_for_url("**/games/*?created=1")
    game_url = page.url.removesuffix("?created=1")
    token = str(page.locator("#edit-link").get_attribute("href")).rsplit("/", 1)[1]
    api = game_url.replace("/games/", "/api/v1/games/") + "/rounds/1"
    auth = {"Authorization": f"Bearer {token}"}
    assert page.request.put(api, data={"players": HANDS}, headers=auth).status == 200
    assert page.request.post(api + "/close", data={}, headers=auth).status == 200
    return table_url, game_url


def test_finish_open_the_recap_and_rematch(live_server, phone, screenshot) -> None:
    page = phone
    table_url, game_url = finished_game(page, live_server)
    page.goto(game_url)
    page.locator("#recap-link").tap()
    page.wait_for_url(game_url + "/recap")
    places = page.locator("#podium li").all_inner_texts()
    assert [p.split() for p in places] == [["1", "Ann", "35"], ["2", "Ben", "13"], ["3", "Cy", "9"]]
    assert "QUIZ" in page.locator("#best-word").inner_text()
    assert page.locator("#recap-table").inner_text() == "Ąžuolų šeima"
    card = page.locator(".card-preview")
    card.scroll_into_view_if_needed()
    page.wait_for_function("document.querySelector('.card-preview').naturalWidth > 0")
    assert card.evaluate("img => [img.naturalWidth, img.naturalHeight]") == [1200, 630]
    assert sideways(page) <= 390
    assert too_small(page, "#download-card, #rematch, #back-to-game, #print-recap") == []
    screenshot(page, "recap-390")
    with page.expect_download() as got:
        page.locator("#download-card").tap()
    saved = got.value
    assert saved.suggested_filename.endswith(".png")
    if screenshot.__name__ != "_no_screenshot":
        SCREENSHOTS.mkdir(exist_ok=True)
        saved.save_as(str(SCREENSHOTS / "recap-share-card.png"))
    page.locator("#rematch").tap()
    page.wait_for_url("**/games/*?created=1")
    rematch_url = page.url.removesuffix("?created=1")
    assert rematch_url != game_url
    assert page.locator("#table-link").inner_text() == "Table: Ąžuolų šeima"
    page.goto(table_url)
    assert page.locator(".game-list li").count() == 2
    assert sideways(page) <= 390
    screenshot(page, "recap-table-page-390")
    page.locator("#records h4 a", has_text="Ann").first.tap()
    page.wait_for_url("**/players/*")
    best = page.locator(".cards").first.locator(".card").all_inner_texts()
    assert [c.split()[0] for c in best] == ["QU9", "I2", "Z14"] or [
        c.splitlines()[0] for c in best
    ] == ["QU", "I", "Z"]
    assert sideways(page) <= 390
    screenshot(page, "recap-player-records-390")


@pytest.mark.parametrize("width", [390, 320])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_recap_fits_a_phone(live_server, browser, screenshot, width, scheme) -> None:
    from tests.browser.phone import PHONE

    context = browser.new_context(
        **{**PHONE, "viewport": {"width": width, "height": 844}}, color_scheme=scheme
    )
    page = context.new_page()
    try:
        _, game_url = finished_game(page, live_server)
        page.goto(game_url + "/recap")
        page.wait_for_function("document.querySelector('.card-preview').naturalWidth > 0")
        assert sideways(page) <= width, f"the recap is {sideways(page)}px wide"
        assert too_small(page, "#download-card, #rematch, #back-to-game") == []
        screenshot(page, f"recap-{width}-{scheme}")
    finally:
        context.close()
