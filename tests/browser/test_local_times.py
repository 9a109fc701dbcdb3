"""The phone's own language and time: the home page's dates rewritten in the phone's time
zone and the page's language (times.js), and the language switch in the header at 320 px."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import expect

from tests.browser.phone import PHONE

pytestmark = pytest.mark.browser

SMALLEST = 44
"""The least width and height of a tap target, in CSS px."""


def made_game(page, live_server: str) -> str:
    """A new game through the API, opened on this phone (so its home page lists it); its id."""
    made = page.request.post(
        f"{live_server}/api/v1/games", data={"players": ["Ann", "Ben"], "first_dealer": 0}
    )
    assert made.status == 201, made.text()
    game_id = made.json()["id"]
    page.goto(f"{live_server}/games/{game_id}")
    return game_id


def spaces(text: str) -> str:
    """Intl's narrow and no-break spaces as plain ones."""
    return re.sub(r"[\s\u202f\u00a0]+", " ", text).strip()


@pytest.mark.parametrize(
    ("locale", "zone", "lang"),
    [("en-US", "America/New_York", "en"), ("hu-HU", "Asia/Tokyo", "hu")],
)
def test_home_shows_when_each_game_changed_in_the_phones_time_zone(
    browser, live_server, locale: str, zone: str, lang: str
) -> None:
    context = browser.new_context(**PHONE, locale=locale, timezone_id=zone)
    try:
        page = context.new_page()
        game_id = made_game(page, live_server)
        page.goto(live_server + "/")
        assert page.locator("html").get_attribute("lang") == lang
        when = page.locator(f'a[href="/games/{game_id}"] time[data-local]')
        iso = when.get_attribute("datetime")
        assert iso is not None and re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", iso), iso
        utc = datetime.strptime(iso, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
        local = utc.astimezone(ZoneInfo(zone))
        expect(when).not_to_contain_text("UTC")  # the phone's script has rewritten it
        shown = spaces(when.inner_text())
        expected = page.evaluate(
            "([iso, lang, zone]) => new Intl.DateTimeFormat(lang, "
            "{dateStyle: 'medium', timeStyle: 'short', timeZone: zone}).format(new Date(iso))",
            [iso, lang, zone],
        )
        assert shown == spaces(expected)
        if lang == "en":  # e.g. "Dec 1, 2026, 7:44 AM": New York's clock, not UTC's
            hour = local.hour % 12 or 12
            assert shown == (
                f"{local:%b} {local.day}, {local.year}, {hour}:{local:%M} {local:%p}"
            ), shown
        else:  # e.g. "2026. dec. 1. 21:44": Tokyo's clock, Hungarian month names
            assert f"{local.hour}:{local:%M}" in shown, shown
            assert f"{local.year}." in shown, shown
            month = ["jan.", "febr.", "márc.", "ápr.", "máj.", "jún.", "júl.", "aug.", "szept.",
                     "okt.", "nov.", "dec."][local.month - 1]  # fmt: skip
            assert month in shown, shown
    finally:
        context.close()


def test_without_intl_the_server_time_in_utc_stays(browser, live_server) -> None:
    context = browser.new_context(**PHONE, locale="en-GB", timezone_id="Asia/Tokyo")
    context.add_init_script("delete window.Intl;")
    try:
        page = context.new_page()
        game_id = made_game(page, live_server)
        page.goto(live_server + "/")
        page.wait_for_load_state("load")
        shown = page.locator(f'a[href="/games/{game_id}"] time[data-local]').inner_text()
        assert shown.endswith(" UTC"), shown
    finally:
        context.close()


def test_the_language_switch_fits_a_small_phone(browser, live_server, screenshot) -> None:
    context = browser.new_context(**{**PHONE, "viewport": {"width": 320, "height": 640}})
    try:
        page = context.new_page()
        game_id = made_game(page, live_server)
        for lang in ("en", "hu", "lt", "cs"):
            page.goto(f"{live_server}/language/{lang}?next=/games/{game_id}")
            page.wait_for_url(f"{live_server}/games/{game_id}")
            header = page.locator("header.bar").bounding_box()
            assert header is not None
            # the brand and the switch on one row, the main links in two (three when longer
            # words need it): never the four or five rows the switch on its own row made
            assert header["height"] <= 220, f"the header is {header['height']:.0f}px tall ({lang})"
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 320, f"the page is {width}px wide at 320 ({lang})"
        summary = page.locator(".langs summary")
        box = summary.bounding_box()
        assert box is not None and box["width"] >= SMALLEST and box["height"] >= SMALLEST, box
        assert page.locator(".langs-list a").first.is_hidden()
        summary.tap()
        links = page.locator(".langs-list a")
        assert links.count() == 4
        for i in range(4):
            link = links.nth(i).bounding_box()
            assert link is not None, i
            assert link["width"] >= SMALLEST and link["height"] >= SMALLEST, link
            assert link["x"] >= 0 and link["x"] + link["width"] <= 320, link
        screenshot(page, "language-switch-320-open")
        page.locator('.langs-list a[lang="hu"]').tap()
        # The page was already at this address: wait for the Hungarian page itself, and
        # for its stylesheet (the short name shows once the narrow layout applies).
        expect(page.locator("html")).to_have_attribute("lang", "hu")
        page.wait_for_load_state("load")
        # "HU" as shown ("Magyar" on a wider screen), not the text of the hidden name
        expect(page.locator(".langs summary")).to_have_text("HU", use_inner_text=True)
        assert page.locator(".langs summary abbr").get_attribute("title") == "Magyar"
        rules = page.locator("#rules-link")
        box = rules.bounding_box()
        assert box is not None and box["height"] >= SMALLEST and box["width"] >= SMALLEST, box
        rules.tap()
        page.wait_for_url(f"{live_server}/rules?game={game_id}")
    finally:
        context.close()
