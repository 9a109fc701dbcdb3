"""The table votes on a challenge (challenge_ruling "majority"): three players on their own
phones, a fourth phone the scorekeeper's. The scorekeeper challenges Ben's KIM; every
seat's phone shows the vote with the dictionary's advice by itself (polling, no reload);
two phones vote "not legal"; every phone then shows KIM struck and the new scores."""

from __future__ import annotations

import re

import pytest

from tests.browser.phone import PHONE, call

pytestmark = pytest.mark.browser

NAMES = ["Ann", "Ben", "Cy"]
HANDS = {  # round 1: three cards each
    "Ann": ("c-a-t", "", True),  # CAT 13, out
    "Ben": ("k-i-m", "", False),  # KIM 15: a proper noun, says the dictionary
    "Cy": ("o-x", "b", False),  # OX 14 - B 8 = 6
}


def majority_game(base: str) -> dict:
    body = {"players": NAMES, "first_dealer": 0, "rules": {"challenge_ruling": "majority"}}
    return call(base, "POST", "/api/v1/games", body)


def take_seat(page, game: dict, name: str) -> None:
    page.goto(game["view_url"])
    page.get_by_role("link", name=f"I am {name}").tap()
    page.locator("#claim").tap()
    page.wait_for_url(re.compile(r"/rounds/1$"))


def test_three_phones_vote_a_challenged_word_off(live_server, browser, screenshot, fits_phone):
    game = majority_game(live_server)
    contexts = [browser.new_context(**PHONE) for _ in range(4)]
    try:
        *players, keeper = (c.new_page() for c in contexts)
        keeper.goto(game["edit_url"])
        for name, page in zip(NAMES, players, strict=True):
            take_seat(page, game, name)
        for name, page in zip(NAMES, players, strict=True):
            words, unused, out = HANDS[name]
            page.fill("#words", words)
            page.fill("#unused", unused)
            if out:
                page.check("#went_out")
            page.locator("#seat-form button[type=submit]").click()
            page.wait_for_url(re.compile(r"/rounds/1#(round-live|breakdown)$"))
        for page in players:
            page.locator("#seat-status-title").filter(has_text="Every hand is in").wait_for()
            # Marked: a page loaded again would lose it (the vote must come by polling).
            page.evaluate("window.stillHere = true")

        keeper.goto(f"{live_server}/games/{game['id']}/rounds/1")
        keeper.select_option("#by", "0")
        keeper.select_option("#word", "1:0")
        keeper.locator(".challenge-form button[type=submit]").tap()
        keeper.wait_for_url(re.compile(r"#challenges$"))
        assert keeper.locator(".vote-open .decide button").count() == 2  # the scorekeeper's

        # Every seat's phone shows the vote with the advice, by itself.
        for page in players:
            ballot = page.locator(".challenge-note.vote-open")
            ballot.wait_for()
            assert "Ann challenged Ben's word: the table votes." in ballot.inner_text()
            assert "Dictionary: not legal — proper noun" in ballot.inner_text()
            assert ballot.locator(".vote-what").all_inner_texts() == ["waiting"] * 3
            buttons = ballot.locator(".vote-buttons:not(.decide) button")
            buttons.first.wait_for()  # shown: this page holds a vote form
            assert buttons.all_inner_texts() == ["Legal", "Not legal"]
            for box in (buttons.nth(0).bounding_box(), buttons.nth(1).bounding_box()):
                assert box is not None and box["height"] >= 44
            assert ballot.locator(".decide").is_hidden()  # not a scorekeeper's phone
            assert page.evaluate("window.stillHere === true")
            said = page.locator("#live-news").text_content() or ""
            assert "The table votes on KIM: is it legal?" in said  # to a screen reader
        ann, ben, cy = players

        # Ann votes "not legal": back on the round page, her vote shown on Ben's phone.
        ann.locator(".vote-buttons").get_by_role("button", name="Not legal").tap()
        ann.wait_for_url(re.compile(r"#challenges$"))
        assert "Your vote on KIM is in: not legal." in ann.locator(".flash").inner_text()
        ben.locator(".vote.illegal[data-seat='0']").wait_for()
        assert ben.locator(".vote[data-seat='1'] [data-mine]").is_visible()  # his own line
        assert ben.locator("[data-score]").evaluate_all("s => s.map(e => e.dataset.score)") == [
            "13",
            "15",
            "6",
        ]  # nothing applied while the table votes
        screenshot(ben, "vote-open-phone")
        fits_phone(ben)

        # Cy votes "not legal" too: 2 of 3, decided on every phone.
        cy.locator(".vote-buttons").get_by_role("button", name="Not legal").tap()
        cy.wait_for_url(re.compile(r"#challenges$"))
        for page in (*players, keeper):
            note = page.locator("#challenges .challenge-note")
            note.filter(has_text="the table voted it not legal, 2 to 0").wait_for()
            assert "Votes: Ann not legal · Cy not legal." in note.inner_text()
            struck = page.locator("[data-player='Ben'] .word.struck")
            assert "KIM" in struck.inner_text()
            scores = page.locator("[data-score]").evaluate_all("s => s.map(e => e.dataset.score)")
            assert scores == ["23", "0", "6"]  # KIM lost: CAT the longest word now
            assert page.locator(".vote-buttons").count() == 0
            fits_phone(page)
        assert ben.evaluate("window.stillHere === true")  # Ben's phone followed by itself
        screenshot(ben, "vote-decided-phone")

        # Decided: the round closes, and every phone follows (its page loads itself again:
        # waited for here, so no phone is closed in the middle of loading).
        keeper.locator("#close").tap()
        keeper.wait_for_url(re.compile(rf"/games/{game['id']}$"))
        for page in players:
            page.locator(".round-standings").wait_for()
            page.wait_for_load_state()
    finally:
        for context in contexts:
            context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_vote_at_320_px_in_a_bright_and_a_dark_room(
    live_server, browser, screenshot, scheme
) -> None:
    game = majority_game(live_server)
    token = game["edit_token"]
    hands = [
        {"name": n, "words": [w], "unused": [u] if u else [], "went_out": out}
        for n, (w, u, out) in HANDS.items()
    ]
    call(live_server, "PUT", f"/api/v1/games/{game['id']}/rounds/1", {"players": hands}, token)
    body = {"by": "Cy", "player": "Ben", "word": 0}
    call(live_server, "POST", f"/api/v1/games/{game['id']}/rounds/1/challenges", body, token)
    context = browser.new_context(**{**PHONE, "viewport": {"width": 320, "height": 640}})
    try:
        page = context.new_page()
        page.emulate_media(color_scheme=scheme)
        take_seat(page, game, "Ben")
        ballot = page.locator(".challenge-note.vote-open")
        ballot.scroll_into_view_if_needed()
        for button in ballot.locator(".vote-buttons:not(.decide) button").all():
            box = button.bounding_box()
            assert box is not None and box["height"] >= 44 and box["width"] >= 44
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 320, f"page is {width}px wide at 320 px"
        screenshot(page, f"vote-320-{scheme}")
        ballot.get_by_role("button", name="Legal", exact=True).tap()
        page.wait_for_url(re.compile(r"#challenges$"))
        assert page.locator(".vote.legal[data-seat='1'] .vote-what").inner_text() == "voted legal"
    finally:
        context.close()
