"""The score form in a real phone-sized Chromium: a three-player round, read off the page."""

from __future__ import annotations

import pytest

from companion.web import messages

pytestmark = pytest.mark.browser


def test_three_player_round_scored_on_a_phone(live_server, phone, screenshot, fits_phone):
    """Fill the form with a thumb-sized page, CSRF on, and read every total off the page."""
    page = phone
    page.goto(live_server + "/score")
    assert page.locator("h1").inner_text() == "Score a Quiddler round"
    fits_phone(page)
    screenshot(page, "score-form")

    page.select_option("#round", "3")
    page.fill("#players-0-name", "Ann")
    page.fill("#players-0-words", "qu-i-z")
    page.fill("#players-0-unused", "m e")
    page.fill("#players-1-name", "Ben")
    page.fill("#players-1-words", "top")
    page.fill("#players-1-unused", "a s")
    page.fill("#players-2-name", "Cy")
    page.fill("#players-2-words", "steve")
    page.fill("#players-2-unused", "")
    # The seat menus of the challenge rows are labelled with the names typed.
    page.locator("details.challenges summary").tap()
    assert page.locator("#challenges-0-by option[value='1']").inner_text() == "Ann"
    page.select_option("#challenges-0-by", "1")
    page.select_option("#challenges-0-player", "3")
    page.fill("#challenges-0-word", "1")
    page.select_option("#challenges-0-ruling", "illegal")
    page.locator("button[type=submit]").tap()

    page.wait_for_selector("#result")
    page.wait_for_load_state()  # and its stylesheet: the page's width is read below
    scores = {
        name: page.locator(f"[data-player='{name}'] .score").inner_text()
        for name in ("Ann", "Ben", "Cy")
    }
    # Ann: QU·I·Z 25 - M, E 7 + longest word 10; Ben: T·O·P 11 - A, S 5;
    # Cy: S·T·E·V·E struck, 21 unused -> -21, floored to 0.
    assert scores == {"Ann": "28", "Ben": "6", "Cy": "0"}
    cy = page.locator("[data-player='Cy']")
    assert "struck" in cy.locator(".word").inner_text()
    assert cy.locator("[data-total]").inner_text() == "\N{MINUS SIGN}21"  # a minus sign, not "-"
    notes = page.locator(".challenge-note").inner_text()
    assert "Ann challenged Cy's STEVE" in notes and "not legal" in notes
    assert "Ann and Ben tie at 1 word" in page.locator(".bonus-note").first.inner_text()
    fits_phone(page)
    screenshot(page, "score-result")


def test_refused_round_keeps_what_was_typed(live_server, phone, screenshot, fits_phone):
    """A third Z is refused next to the field, and the typed words stay in the form."""
    page = phone
    page.goto(live_server + "/score")
    page.fill("#players-0-name", "Ann")
    page.fill("#players-0-words", "z-a-p")
    page.fill("#players-0-unused", "z")
    page.fill("#players-1-name", "Ben")
    page.fill("#players-1-words", "z-i-p")
    page.fill("#players-1-unused", "a")
    page.locator("button[type=submit]").tap()
    alert = page.locator("#players-1-words-error")
    alert.wait_for()
    page.wait_for_load_state()  # and its stylesheet: the page's width is read below
    said = messages.render("deck_copies", {"card": "z", "copies": 2, "count": 3})
    assert said in alert.inner_text()
    assert page.input_value("#players-1-words") == "z-i-p"
    assert page.locator("#result").count() == 0
    fits_phone(page)
    screenshot(page, "score-refused")
