"""Everything within the thumb's reach, on the first screen of a phone (390x844 and
320x640), in every language: the whole card keyboard, whose hand it is (a 20-character
name, whole) and Save while a hand is entered, and the saved message where the phone
lands; Close once every hand is in; the view QR right after "Start the game"; the winner
after the last round. Checked with the elements' boxes against the screen. And the
challenge menus, which start on "Choose…" and never offer a self-challenge, and the big
board, which follows the game as the leaderboard does."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.phone import PHONE, call

pytestmark = pytest.mark.browser

NAMES = ["Aiste", "Bálint", "Čeněk", "Maximiliana Kovácsné"]  # the last: 20 characters
LONG = 3
LOCALES = {"en": "en-GB", "lt": "lt-LT", "hu": "hu-HU", "cs": "cs-CZ"}
SIZES = {"390x844": (390, 844), "320x640": (320, 640)}
CASES = [(lang, size) for lang in LOCALES for size in SIZES]
IDS = [f"{lang}-{size}" for lang, size in CASES]
POOL = "eaionrtu" * 5  # never more of a letter than the deck holds, 4 hands of 10

ON_SCREEN = """e => { const r = e.getBoundingClientRect();
  return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth
    && r.width > 0 && r.height > 0; }"""


def made_game(base: str, closed: int = 0, entered: int = 0) -> dict:
    """A game of NAMES: rounds 1..``closed`` entered and closed, the next ``entered``
    entered only (every card left over but a two-card word each)."""
    game = call(base, "POST", "/api/v1/games", {"players": NAMES, "first_dealer": 0})
    for number in range(1, closed + entered + 1):
        size = number + 2
        players = [
            {"name": name, "words": [list(POOL[:2])], "unused": list(POOL[2 + seat : size + seat])}
            for seat, name in enumerate(NAMES)
        ]
        rounds = f"/api/v1/games/{game['id']}/rounds/{number}"
        call(base, "PUT", rounds, {"players": players}, game["edit_token"])
        if number <= closed:
            call(base, "POST", f"{rounds}/close", {}, game["edit_token"])
    return game


@pytest.fixture(scope="module")
def last_round(live_server) -> dict:
    """One game for the module's scorekeeper pages: rounds 1-7 closed, round 8 entered."""
    return made_game(live_server, closed=7, entered=1)


def phone_in(browser, lang: str, size: str, scheme: str = "light"):
    width, height = SIZES[size]
    context = browser.new_context(
        **{**PHONE, "viewport": {"width": width, "height": height}},
        locale=LOCALES[lang],
        color_scheme=scheme,
    )
    return context, context.new_page()


def on_screen(locator) -> bool:
    return locator.evaluate(ON_SCREEN)


@pytest.mark.parametrize(("lang", "size"), CASES, ids=IDS)
def test_the_card_keyboard_whose_hand_and_save_are_on_the_first_screen(
    live_server, browser, screenshot, lang, size
) -> None:
    game = made_game(live_server)
    context, page = phone_in(browser, lang, size)
    try:
        page.goto(f"{live_server}/games/{game['id']}/seats/{LONG}")
        page.locator("#claim").tap()
        page.wait_for_url(re.compile(r"/rounds/1$"))
        page.wait_for_load_state("load")  # round.js has laid out the keyboard
        keys = page.locator(".cardpad .key")
        assert keys.count() == 33  # 31 cards, delete, next word
        for i in range(keys.count()):
            box = keys.nth(i).bounding_box()
            assert on_screen(keys.nth(i)), (i, box)
            assert box["width"] >= 44 and box["height"] >= 44, (i, box)
        who = page.locator(".cardpad-who")
        assert who.inner_text() == NAMES[LONG]
        assert on_screen(who)
        assert who.evaluate(
            "e => e.scrollWidth <= e.clientWidth && e.scrollHeight <= e.clientHeight"
        )
        save = page.locator("#seat-form button[type=submit]")
        assert on_screen(save)
        # The claim's message is on the screen, and so is the hand being built.
        assert on_screen(page.locator(".flash").first)
        assert on_screen(page.locator("#seat-form .hand-chips"))
        assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size][0]
        screenshot(page, f"first-screen-seat-{lang}-{size}")

        for card in ("c", "a", "t"):
            page.locator(f".cardpad .key[data-card='{card}']").tap()
        expect(page.locator("#seat-form .chip-text").first).to_have_text("CAT")
        assert on_screen(page.locator("#seat-form .hand-chips"))  # above the keys
        save.tap()
        page.wait_for_url(re.compile(r"#round-live$"))
        saved = page.locator(".flash[role=status]")
        expect(saved.first).to_contain_text(NAMES[LONG])
        page.wait_for_load_state("load")
        assert on_screen(saved.first)  # where the phone landed, not far above it
        screenshot(page, f"first-screen-saved-{lang}-{size}")
    finally:
        context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_seat_page_in_a_dark_room(live_server, browser, screenshot, size) -> None:
    game = made_game(live_server)
    context, page = phone_in(browser, "hu", size, "dark")
    try:
        page.goto(f"{live_server}/games/{game['id']}/seats/{LONG}")
        page.locator("#claim").tap()
        page.wait_for_url(re.compile(r"/rounds/1$"))
        page.wait_for_load_state("load")
        assert on_screen(page.locator(".cardpad .key").last)
        assert on_screen(page.locator("#seat-form button[type=submit]"))
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background != "rgb(255, 255, 255)"
        screenshot(page, f"first-screen-seat-dark-{size}")
    finally:
        context.close()


@pytest.mark.parametrize(("lang", "size"), CASES, ids=IDS)
def test_close_is_on_the_first_screen_once_every_hand_is_in(
    live_server, browser, screenshot, last_round, lang, size
) -> None:
    context, page = phone_in(browser, lang, size)
    try:
        page.goto(last_round["edit_url"])
        page.goto(f"{live_server}/games/{last_round['id']}/rounds/8")
        close = page.locator("#close")
        assert on_screen(close)
        assert page.locator("#every-hand").get_attribute("open") is None  # folded: done
        assert page.locator("#breakdown [data-score]").count() == 4  # below, not gone
        screenshot(page, f"first-screen-close-{lang}-{size}")
    finally:
        context.close()


@pytest.mark.parametrize(("lang", "size"), CASES, ids=IDS)
def test_the_view_qr_is_on_the_first_screen_after_starting_a_game(
    live_server, browser, screenshot, lang, size
) -> None:
    context, page = phone_in(browser, lang, size)
    try:
        page.goto(live_server + "/games/new")
        page.wait_for_load_state("load")
        for seat, name in enumerate(NAMES):
            page.fill(f"#players-{seat}-name", name)
        page.locator("button[type=submit]").tap()
        page.wait_for_url(re.compile(r"/games/[\w-]+\?created=1$"))
        assert on_screen(page.locator(".qr-code").first)
        screenshot(page, f"first-screen-qr-{lang}-{size}")
    finally:
        context.close()


@pytest.mark.parametrize(("lang", "size"), CASES, ids=IDS)
def test_the_winner_is_on_the_first_screen_after_the_last_round(
    live_server, browser, screenshot, lang, size
) -> None:
    game = made_game(live_server, closed=7, entered=1)
    context, page = phone_in(browser, lang, size)
    try:
        page.goto(game["edit_url"])
        page.goto(f"{live_server}/games/{game['id']}/rounds/8")
        page.locator("#close").tap()
        page.wait_for_url(re.compile(rf"/games/{game['id']}$"))
        winner = page.locator(".winner")
        expect(winner).to_be_visible()
        assert on_screen(winner)
        assert on_screen(page.locator(".flash[role=status]").first)  # "Round 8 closed"
        screenshot(page, f"first-screen-winner-{lang}-{size}")
    finally:
        context.close()


def test_the_challenge_menus_start_on_choose_and_never_offer_a_self_challenge(
    live_server, browser, screenshot, last_round
) -> None:
    context, page = phone_in(browser, "en", "320x640")
    try:
        page.goto(last_round["edit_url"])
        page.goto(f"{live_server}/games/{last_round['id']}/rounds/8")
        page.wait_for_load_state("load")
        by, word = page.locator("#by"), page.locator("#word")
        assert by.input_value() == "" and word.input_value() == ""
        assert by.locator("option:checked").inner_text() == "Choose…"
        by.select_option(label="Aiste")
        offered = [o for o in word.locator("option:not([disabled])").all_inner_texts()]
        assert offered[0] == "Choose…"
        assert offered[1:] and not any(o.startswith("Aiste:") for o in offered[1:])
        word.select_option(index=2)  # Bálint's word (Aiste's first is left out)
        assert word.locator("option:checked").inner_text().startswith("Bálint:")
        assert by.locator("option[value='1']").is_disabled()  # Bálint can't challenge it
        screenshot(page, "first-screen-challenge-form")
    finally:
        context.close()


def test_the_big_board_follows_the_game_in_large_type(live_server, browser, screenshot) -> None:
    game = made_game(live_server, closed=1, entered=0)
    context, page = phone_in(browser, "lt", "390x844")
    try:
        page.goto(f"{live_server}/games/{game['id']}")
        page.locator("#big-board-link").tap()
        page.wait_for_url(re.compile(rf"/games/{game['id']}/big$"))
        names = page.locator(".big-board .leaderboard .who")
        expect(names).to_have_count(4)
        assert float(names.first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 28
        total = page.locator(".big-board .leaderboard .total").first
        assert float(total.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 40
        assert on_screen(page.locator(".big-board .leaderboard li").last)
        before = total.inner_text()
        # Round 2 closed from another phone: the big board follows without a reload.
        size = 4
        players = [{"name": n, "words": [list(POOL[:size])], "unused": []} for n in NAMES]
        rounds = f"/api/v1/games/{game['id']}/rounds/2"
        call(live_server, "PUT", rounds, {"players": players}, game["edit_token"])
        call(live_server, "POST", f"{rounds}/close", {}, game["edit_token"])
        expect(total).not_to_have_text(before)
        screenshot(page, "first-screen-big-board")
    finally:
        context.close()


def test_a_refused_hand_shows_its_message_above_the_keyboard(
    live_server, browser, screenshot
) -> None:
    game = made_game(live_server)
    context, page = phone_in(browser, "cs", "320x640")
    try:
        page.goto(f"{live_server}/games/{game['id']}/seats/{LONG}")
        page.locator("#claim").tap()
        page.wait_for_url(re.compile(r"/rounds/1$"))
        page.fill("#words", "c-a-bb")  # no BB card
        page.locator("#seat-form button[type=submit]").tap()
        alert = page.locator("#form-error")
        expect(alert).to_be_visible()
        page.wait_for_load_state("load")  # the page's scripts have placed it
        pad_top = page.locator(".cardpad").evaluate("e => e.getBoundingClientRect().top")
        assert on_screen(alert)
        assert alert.evaluate("e => e.getBoundingClientRect().bottom") <= pad_top
        screenshot(page, "first-screen-refused-cs-320x640")
    finally:
        context.close()
