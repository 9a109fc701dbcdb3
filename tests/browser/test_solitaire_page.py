"""Solitaire on a phone: tap face-up cards into a word, turn up the next cards, undo."""

from __future__ import annotations

import re

import pytest

from companion.web import messages

pytestmark = pytest.mark.browser


def test_solitaire_with_the_cards(live_server, phone, screenshot, fits_phone):
    """Eight face-up cards typed in; THE from piles 2 and 3; the Companion asks for the
    next card of those piles; a face-down card can't be used; undo takes a step back."""
    page = phone
    page.goto(live_server + "/solitaire")
    page.fill("#face_up", "a th e r qu s i n")
    page.get_by_role("button", name="Play with my cards").tap()
    page.wait_for_url(re.compile(r"/solitaire/[\w-]+$"))
    assert page.locator("#used").inner_text() == "0 of 48"
    fits_phone(page)
    screenshot(page, "solitaire-start")

    page.locator(".pile[data-pile='2']").tap()
    page.locator(".pile[data-pile='3']").tap()
    assert page.locator("#word-preview").inner_text() == "TH·E"
    assert page.input_value("#piles-input") == "2 3"
    with page.expect_navigation():
        page.get_by_role("button", name="Make the word").tap()
    assert "THE: well done." in page.locator(".flash").inner_text()
    assert page.locator("#used").inner_text() == "2 of 48"
    asks = page.locator("#reveal .reveal-form")
    assert asks.count() == 2
    assert page.locator(".pile[data-pile='2']").is_disabled()  # nothing face up there now
    screenshot(page, "solitaire-reveal")

    page.select_option("#card-1", "o")
    with page.expect_navigation():
        page.locator("#reveal .reveal-form").first.get_by_role("button", name="Turned up").tap()
    page.select_option("#card-2", "t")
    with page.expect_navigation():
        page.get_by_role("button", name="Turned up").tap()
    assert "O" in page.locator(".pile[data-pile='2'] .pile-card").inner_text()
    assert page.locator(".pile[data-pile='2'] .pile-down").inner_text() == "4 down"

    # TO (piles 3, 2) is a word; first a refusal: pile numbers typed for a word that
    # isn't legal change nothing (the page is shown again with the message).
    page.fill("#piles-input", "8 7")
    with page.expect_navigation():
        page.get_by_role("button", name="Make the word").tap()
    said = messages.render("solitaire_not_a_word", {"word": "ni", "reason": "proper_noun"})
    assert said in page.locator("#form-error").inner_text()
    assert page.locator("#used").inner_text() == "2 of 48"

    with page.expect_navigation():
        page.get_by_role("button", name="Undo the last step").tap()
    assert page.locator(".pile[data-pile='3'] .pile-card").inner_text() == "turn up"
    fits_phone(page)


def test_practice_plays_a_hinted_word_and_undoes_it(live_server, phone, screenshot):
    """Practice deals a virtual deck: the hint's word, tapped in, is accepted and the
    Companion turns up the next cards itself; undo puts everything back."""
    page = phone
    for _ in range(10):  # about one deal in a hundred has no word at all (no hint): deal again
        page.goto(live_server + "/solitaire")
        page.get_by_role("button", name="Practise with a shuffled virtual deck").tap()
        page.wait_for_url(re.compile(r"/solitaire/[\w-]+$"))
        if page.locator("#lost").count() == 0:
            break
    before = page.locator(".pile .pile-card").all_inner_texts()
    with page.expect_navigation():
        page.locator("#hint-button").tap()
    hint = page.locator("#hint").inner_text()
    piles = re.findall(r"\d+", hint.split("from piles")[1])
    for p in piles:
        page.locator(f".pile[data-pile='{p}']").tap()
    with page.expect_navigation():
        page.get_by_role("button", name="Make the word").tap()
    assert page.locator("#used").inner_text() == f"{len(piles)} of 48"
    assert page.locator("#reveal").count() == 0  # revealed by the Companion
    screenshot(page, "solitaire-practice")
    with page.expect_navigation():
        page.get_by_role("button", name="Undo the last step").tap()
    assert page.locator("#used").inner_text() == "0 of 48"
    assert page.locator(".pile .pile-card").all_inner_texts() == before
