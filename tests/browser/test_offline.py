"""Nothing a phone typed is lost: a hand half typed comes back after a reload, a Save made
offline is kept on the phone as "not sent yet" and sent once the network is back (once,
through the same per-hand check: a hand saved meanwhile from another phone is a clash, not
overwritten), and every page says when the phone is offline."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.phone import PHONE, call
from tests.browser.test_card_pad import POOL, Taps

pytestmark = pytest.mark.browser

NAMES = ["Ann", "Ben", "Cy"]
ROUND = 8  # ten cards each


def game_at_round_eight(base: str) -> dict:
    """A three-player game whose rounds 1 to 7 are entered and closed (every card left over)."""
    game = call(base, "POST", "/api/v1/games", {"players": NAMES, "first_dealer": 0})
    rounds = f"/api/v1/games/{game['id']}/rounds"
    for n in range(1, ROUND):
        size = n + 2
        players = [
            {"name": name, "words": [], "unused": list(POOL[seat * size : (seat + 1) * size])}
            for seat, name in enumerate(NAMES)
        ]
        call(base, "PUT", f"{rounds}/{n}", {"players": players}, game["edit_token"])
        call(base, "POST", f"{rounds}/{n}/close", {}, game["edit_token"])
    return game


def take_seat(page, game: dict, name: str) -> None:
    """This phone becomes ``name``'s seat and opens round 8 with its form."""
    page.goto(game["view_url"])
    page.get_by_role("link", name=f"I am {name}").tap()
    page.locator("#claim").tap()
    page.wait_for_url(re.compile(rf"/rounds/{ROUND}$"))
    expect(page.locator("#seat-form .cardpad")).to_be_visible()


def saved_words(context, base: str, game: dict) -> tuple[str, str]:
    """Ben's hand as stored, read back from the scorekeeper's form on another page."""
    keeper = context.browser.new_context(**PHONE).new_page()
    try:
        keeper.goto(game["edit_url"])
        keeper.goto(f"{base}/games/{game['id']}/rounds/{ROUND}")
        return (
            keeper.locator("#players-1 .words-input").input_value(),
            keeper.locator("#players-1 .unused-input").input_value(),
        )
    finally:
        keeper.context.close()


def test_a_reload_halfway_brings_the_hand_back(live_server, browser, screenshot) -> None:
    game = game_at_round_eight(live_server)
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        take_seat(page, game, "Ben")
        taps = Taps(page)
        taps.cards("th", "e", "m")
        taps.next_word()
        taps.cards("w", "a")  # halfway through WAXES: the phone reloads (or the tab crashed)
        page.reload()
        note = page.locator("#seat-form .draft-note")
        expect(note).to_contain_text("Your unsaved hand was brought back.")
        assert page.locator("#words").input_value() == "th-e-m w-a"
        expect(page.locator("#seat-form .count")).to_have_text("5 / 10 cards")
        screenshot(page, "offline-draft-restored")
        taps.cards("x", "e", "s")  # the open word goes on where it was left
        taps.left_over()
        taps.cards("z", "y")
        taps.tap(page.get_by_role("button", name="Save my hand"))
        page.wait_for_url(re.compile(r"#round-live$"))
        expect(page.locator(".flash")).to_contain_text("Ben's hand is saved")
        print(f"\ntaps to finish a 10-card hand with a reload halfway: {taps.count}")
        assert taps.count == 13  # 10 cards, next word, left over, save: none typed twice
        assert page.locator("#seat-form .draft-note").count() == 0  # saved: the draft is gone
        assert page.evaluate("Object.keys(localStorage).filter(k => k.includes('draft'))") == []
        assert saved_words(context, live_server, game) == ("th-e-m w-a-x-e-s", "z y")
    finally:
        context.close()


def test_a_draft_is_discarded_on_request(live_server, browser) -> None:
    game = game_at_round_eight(live_server)
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        take_seat(page, game, "Cy")
        Taps(page).cards("o", "x")
        page.reload()
        page.get_by_role("button", name="Discard it").tap()
        expect(page.locator("#seat-form .draft-note")).to_have_count(0)
        assert page.locator("#words").input_value() == ""
        expect(page.locator("#seat-form .count")).to_have_text("0 / 10 cards")
        page.reload()
        expect(page.locator("#seat-form .cardpad")).to_be_visible()
        assert page.locator("#seat-form .draft-note").count() == 0
    finally:
        context.close()


def test_a_draft_is_offered_not_applied_once_the_hand_was_saved_elsewhere(
    live_server, browser
) -> None:
    game = game_at_round_eight(live_server)
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        take_seat(page, game, "Ben")
        Taps(page).cards("o", "x")
        page.goto(game["view_url"])  # away; meanwhile the scorekeeper saves Ben's hand
        call(
            live_server,
            "PUT",
            f"/api/v1/games/{game['id']}/rounds/{ROUND}/seats/1",
            {"words": ["d-o-g"], "unused": list("abcdefg")},
            game["edit_token"],
        )
        page.goto(f"{live_server}/games/{game['id']}/rounds/{ROUND}")
        note = page.locator("#seat-form .draft-note")
        expect(note).to_contain_text("saved again from elsewhere")
        expect(note).to_contain_text("O-X")
        assert page.locator("#words").input_value() == "d-o-g"  # what is saved, untouched
        note.get_by_role("button", name="Use mine").tap()
        assert page.locator("#words").input_value() == "o-x"
        expect(page.locator("#seat-form .count")).to_have_text("2 / 10 cards")
    finally:
        context.close()


class Posts:
    """The hand's POSTs the server answered, counted: the page's own, or, when its service
    worker answers the page, the worker's fetch on its behalf (Playwright sees both for one
    POST then). A POST the network lost (right as the phone comes back online, the worker
    may still be offline for a moment) reached no server: it is tried again, not counted."""

    def __init__(self, page) -> None:
        self.requests: list = []
        page.context.on(
            "request",
            lambda r: (
                self.requests.append(r) if r.method == "POST" and "/seats/" in r.url else None
            ),
        )

    def __len__(self) -> int:
        def answered(request) -> bool:
            answer = request.response()
            if request.service_worker is not None:
                return answer is not None
            return answer is not None and not answer.from_service_worker

        return sum(1 for r in self.requests if answered(r))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, list) and len(self) == len(other)


def posts_of(page) -> Posts:
    """The hand's POSTs ``page``'s phone sends from now on."""
    return Posts(page)


def type_ben_hand(page) -> Taps:
    taps = Taps(page)
    taps.cards("th", "e", "m")
    taps.next_word()
    taps.cards("w", "a", "x", "e", "s")
    taps.left_over()
    taps.cards("z", "y")
    return taps


def test_a_save_made_offline_is_sent_when_the_phone_is_back(
    live_server, browser, screenshot
) -> None:
    game = game_at_round_eight(live_server)
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        take_seat(page, game, "Ben")
        sent = posts_of(page)
        taps = type_ben_hand(page)
        context.set_offline(True)
        expect(page.locator("#offline-banner")).to_be_visible()
        taps.tap(page.get_by_role("button", name="Save my hand"))
        pending = page.locator("#seat-form .outbox-note")
        expect(pending).to_have_text(
            "Not sent yet: your hand will be sent when this phone is back online."
        )
        assert sent == []
        screenshot(page, "offline-not-sent-yet")
        context.set_offline(False)
        page.wait_for_url(re.compile(r"#round-live$"))
        expect(page.locator(".flash")).to_contain_text("Ben's hand is saved")
        print(f"\ntaps to get a 10-card hand saved with the phone offline at Save: {taps.count}")
        assert taps.count == 13  # nothing typed again after the network came back
        assert len(sent) == 1
        expect(page.locator("#seat-form .outbox-note")).to_be_hidden()
        assert saved_words(context, live_server, game) == ("th-e-m w-a-x-e-s", "z y")
        page.reload()  # nothing left to send: still one POST
        expect(page.locator("#seat-form .cardpad")).to_be_visible()
        assert len(sent) == 1
    finally:
        context.close()


def test_an_offline_save_meeting_a_hand_saved_elsewhere_is_a_clash(
    live_server, browser, screenshot
) -> None:
    game = game_at_round_eight(live_server)
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        take_seat(page, game, "Ben")
        sent = posts_of(page)
        taps = type_ben_hand(page)
        context.set_offline(True)
        taps.tap(page.get_by_role("button", name="Save my hand"))
        expect(page.locator("#seat-form .outbox-note")).to_be_visible()
        # Meanwhile Ben's hand is saved from another phone (the scorekeeper's).
        call(
            live_server,
            "PUT",
            f"/api/v1/games/{game['id']}/rounds/{ROUND}/seats/1",
            {"words": ["d-o-g"], "unused": list("abcdefg")},
            game["edit_token"],
        )
        context.set_offline(False)
        clash = page.locator("#clash")
        expect(clash).to_contain_text("Saved from another phone:")
        assert page.locator("#words").input_value() == "th-e-m w-a-x-e-s"  # what this phone typed
        assert len(sent) == 1
        screenshot(page, "offline-clash")
        assert saved_words(context, live_server, game) == ("d-o-g", "a b c d e f g")
        page.get_by_role("link", name="Keep what is saved").tap()
        page.wait_for_url(re.compile(rf"/rounds/{ROUND}$"))
        assert page.locator("#words").input_value() == "d-o-g"
        assert page.locator("#seat-form .draft-note").count() == 0  # the person chose
        assert len(sent) == 1
    finally:
        context.close()


def test_the_offline_banner_and_the_stale_board(live_server, browser, screenshot) -> None:
    game = game_at_round_eight(live_server)
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        page.goto(game["view_url"])
        banner = page.locator("#offline-banner")
        expect(banner).to_be_hidden()
        context.set_offline(True)
        expect(banner).to_have_text("You are offline: what you see may be old.")
        expect(banner).to_have_attribute("role", "status")
        expect(page.locator(".stale-note")).to_be_visible()  # the board's polls fail
        expect(page.locator("[data-live-url][data-stale]")).to_have_count(1)
        screenshot(page, "offline-banner")
        context.set_offline(False)
        expect(banner).to_be_hidden()
        expect(page.locator(".stale-note")).to_have_count(0)  # a poll was answered again
        expect(page.locator("[data-live-url][data-stale]")).to_have_count(0)
    finally:
        context.close()


def test_a_save_the_network_loses_comes_back_as_not_sent(live_server, browser) -> None:
    """The phone thinks it is online but the Save never reaches the server (the table's
    laptop is away): the service worker brings the phone back to its form, the hand kept
    as not sent yet, and it is tried again a little later by itself."""
    game = game_at_round_eight(live_server)
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        take_seat(page, game, "Ben")
        page.evaluate("navigator.serviceWorker.ready.then(r => r.active.state)")
        page.reload()  # under the worker now
        lost: list[str] = []

        def lose(route) -> None:
            if route.request.method == "POST":
                lost.append(route.request.url)
                route.abort("internetdisconnected")
            else:
                route.continue_()

        context.route(re.compile(r"/rounds/8/seats/1$"), lose)
        type_ben_hand(page).tap(page.get_by_role("button", name="Save my hand"))
        pending = page.locator("#seat-form .outbox-note")
        expect(pending).to_have_text(
            "Not sent yet: your hand will be sent when this phone is back online."
        )
        assert len(lost) == 1
        assert page.locator("#words").input_value() == "th-e-m w-a-x-e-s"
        assert not page.url.endswith("#not-sent")
        context.unroute(re.compile(r"/rounds/8/seats/1$"))  # the laptop is back
        page.wait_for_url(re.compile(r"#round-live$"))  # tried again by itself
        expect(page.locator(".flash")).to_contain_text("Ben's hand is saved")
        assert saved_words(context, live_server, game) == ("th-e-m w-a-x-e-s", "z y")
    finally:
        context.close()


def test_the_scorekeepers_form_keeps_each_hand_it_was_typing(
    live_server, browser, screenshot
) -> None:
    """The every-hand form keeps a draft per hand too: after a reload (in a dark room) both
    hands typed are back, with who went out."""
    game = game_at_round_eight(live_server)
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        page.emulate_media(color_scheme="dark")
        page.goto(game["edit_url"])
        page.goto(f"{live_server}/games/{game['id']}/rounds/{ROUND}")
        page.fill("#players-0-words", "c-a-t")
        page.fill("#players-2-unused", "q z")
        page.locator("#players-2 input[name=went_out]").check()
        page.reload()
        expect(page.locator("#players-0 .draft-note")).to_contain_text(
            "Your unsaved hand was brought back."
        )
        expect(page.locator("#players-2 .draft-note")).to_be_visible()
        assert page.locator("#players-1 .draft-note").count() == 0  # nothing typed there
        assert page.locator("#players-0-words").input_value() == "c-a-t"
        assert page.locator("#players-2-unused").input_value() == "q z"
        expect(page.locator("#players-2 input[name=went_out]")).to_be_checked()
        screenshot(page, "offline-keeper-drafts-dark")
        page.locator("#players-2 .draft-discard").tap()
        assert page.locator("#players-2-unused").input_value() == ""
        expect(page.locator("#players-2 input[name=went_out]")).not_to_be_checked()
        assert page.locator("#players-0-words").input_value() == "c-a-t"
    finally:
        context.close()


def test_a_page_older_than_its_form_sends_the_hand_with_a_fresh_token(live_server, browser) -> None:
    """A page left open longer than its form's token lives (WTF_CSRF_TIME_LIMIT, an hour):
    Save keeps the hand, the page loads itself again and sends it with the new page's
    token. (The page is made old by its own words: a form whose token lives a minute.)"""
    game = game_at_round_eight(live_server)
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        take_seat(page, game, "Ben")
        round_page = page.url

        def aged(route) -> None:
            body = route.fetch().text()
            body = body.replace('data-form-max-age="3600"', 'data-form-max-age="60"')
            route.fulfill(body=body, content_type="text/html")

        page.route(round_page, aged, times=1)
        page.reload()
        expect(page.locator("#seat-form .cardpad")).to_be_visible()
        sent = posts_of(page)
        taps = type_ben_hand(page)
        taps.tap(page.get_by_role("button", name="Save my hand"))
        page.wait_for_url(re.compile(r"#round-live$"))
        expect(page.locator(".flash")).to_contain_text("Ben's hand is saved")
        assert len(sent) == 1
        assert saved_words(context, live_server, game) == ("th-e-m w-a-x-e-s", "z y")
    finally:
        context.close()


def test_a_refused_token_says_so_and_the_hand_comes_back(live_server, browser) -> None:
    """A token the server refuses anyway (the session changed): its page says what to do,
    and the hand typed is back on the form."""
    game = game_at_round_eight(live_server)
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        take_seat(page, game, "Ben")
        type_ben_hand(page)
        page.evaluate("document.querySelector('#seat-form [name=csrf_token]').value = 'stale'")
        page.get_by_role("button", name="Save my hand").tap()
        expect(page.locator("h1")).to_have_text(
            "The form expired or was sent from elsewhere; reload the page and try again."
        )
        page.go_back()
        expect(page.locator("#seat-form .draft-note")).to_contain_text(
            "Your unsaved hand was brought back."
        )
        assert page.locator("#words").input_value() == "th-e-m w-a-x-e-s"
        assert page.locator("#unused").input_value() == "z y"
        expect(page.locator("#seat-form .outbox-note")).to_be_hidden()  # answered: not resent
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["hu", "lt", "cs"])
def test_the_offered_draft_at_320_px_in_each_language(live_server, browser, screenshot, lang):
    """The longest of the notes, with its two buttons, on the narrowest phone: translated,
    nothing sideways."""
    game = game_at_round_eight(live_server)
    context = browser.new_context(
        **{**PHONE, "viewport": {"width": 320, "height": 640}}, locale=lang
    )
    try:
        page = context.new_page()
        page.goto(game["view_url"])
        page.locator(".seat-link").nth(1).tap()  # Ben's, in any language
        page.locator("#claim").tap()
        page.wait_for_url(re.compile(rf"/rounds/{ROUND}$"))
        Taps(page).cards("o", "x")
        call(
            live_server,
            "PUT",
            f"/api/v1/games/{game['id']}/rounds/{ROUND}/seats/1",
            {"words": ["d-o-g"], "unused": list("abcdefg")},
            game["edit_token"],
        )
        page.reload()
        note = page.locator("#seat-form .draft-note")
        expect(note).to_contain_text("O-X")
        assert "saved again" not in note.inner_text()  # in the phone's language
        assert page.evaluate("document.documentElement.scrollWidth") <= 320
        for button in note.locator("button").all():
            box = button.bounding_box()
            assert box is not None and box["height"] >= 44 and box["x"] + box["width"] <= 320
        screenshot(page, f"offline-draft-offered-320-{lang}")
    finally:
        context.close()
