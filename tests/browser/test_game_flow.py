"""A three-player game through the pages on phones: two rounds, a challenge, a reopen,
and the leaderboard on a second phone that follows without a reload."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser


def enter(page, seat: int, words: str, unused: str) -> None:
    page.fill(f"#players-{seat}-words", words)
    page.fill(f"#players-{seat}-unused", unused)


def test_two_rounds_with_a_challenge_and_a_reopen(
    live_server, browser, phone, screenshot, fits_phone
) -> None:
    page = phone
    page.goto(live_server + "/")
    page.get_by_role("link", name="Start a new game").tap()
    page.wait_for_url(re.compile(r"/games/new$"))
    page.wait_for_load_state("load")  # the form's script is running: it follows the names
    for seat, name in enumerate(["Ann", "Ben", "Cy"]):
        page.fill(f"#players-{seat}-name", name)
    assert page.locator(".two-player-only").is_hidden()  # three players: both bonuses
    assert page.locator("#first_dealer option").all_inner_texts()[:4] == [
        "Ann",
        "Ben",
        "Cy",
        "Seat 4 (empty)",
    ]
    page.select_option("#first_dealer", "1")
    fits_phone(page)
    screenshot(page, "game-new")
    page.locator("button[type=submit]").tap()
    page.wait_for_url(re.compile(r"/games/[\w-]+\?created=1$"))
    view_url = page.locator("#view-link").get_attribute("href")
    # The view QR is there to scan; the scorekeeper's link and QR wait behind a tap.
    assert page.locator("#view-link").is_visible()
    edit_link = page.locator("#edit-link")
    assert edit_link.count() == 1 and edit_link.is_hidden()
    assert page.locator(".qr-code svg").count() == 2
    assert page.locator(".qr-code svg:visible").count() == 1
    page.locator("summary", has_text="Show the scorekeeper link").tap()
    assert edit_link.is_visible()
    assert re.search(r"/games/[\w-]+/edit/[\w-]+$", edit_link.get_attribute("href") or "")
    assert page.locator(".qr-code svg:visible").count() == 2
    assert "Ann deals" in page.locator(".next").inner_text()
    screenshot(page, "game-created")

    # A second phone opens the view link: read-only, and it follows the game by itself.
    watcher_context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    watcher = watcher_context.new_page()
    watcher.goto(view_url)
    assert "View only" in watcher.locator("main").inner_text()
    assert watcher.locator("[data-total]").all_inner_texts() == ["0", "0", "0"]

    # Round 1 (3 cards each), with the card keyboard for Ann's word.
    page.get_by_role("link", name="Enter round 1").tap()
    assert "3 cards each" in page.locator(".round-facts").inner_text()
    assert "Ann deals" in page.locator(".round-facts").inner_text()
    page.locator("#players-0-words").tap()
    for card in ("c", "a", "t"):
        page.locator(f".key[data-card='{card}']").tap()
    assert page.input_value("#players-0-words") == "c-a-t"
    assert page.locator("#players-0 .count").inner_text() == "3 / 3 cards"
    enter(page, 1, "", "z z q")  # Ben laid nothing down
    enter(page, 2, "xaz", "")
    page.locator("#players-2-words").tap()
    assert page.locator("#deck-warning").is_visible()  # a third Z: only 2 in the deck
    enter(page, 1, "", "x y q")
    assert page.locator("#deck-warning").is_hidden()
    fits_phone(page)
    screenshot(page, "round-entry")
    page.get_by_role("button", name="Save round 1").tap()
    page.wait_for_url(re.compile(r"/rounds/1#breakdown$"))
    assert (
        "dictionary" in page.locator(".flagged .flag").inner_text()
        or "challenge?" in page.locator(".flagged .flag").inner_text()
    )

    # Ann challenges Cy's XAZ; the standard dictionary strikes it.
    page.select_option("#by", "0")
    page.select_option("#word", "2:0")
    page.get_by_role("button", name="Challenge").tap()
    page.wait_for_url(re.compile(r"#challenges$"))
    note = page.locator(".challenge-note").inner_text()
    assert "Ann challenged Cy's XAZ" in note and "not legal" in note
    scores = {
        n: page.locator(f"[data-player='{n}'] .score").inner_text() for n in ("Ann", "Ben", "Cy")
    }
    # Ann: C·A·T 13 + most words 10 + longest 10 = 33; Ben: -(12+4+15) -> 0; Cy: XAZ struck -> 0.
    assert scores == {"Ann": "33", "Ben": "0", "Cy": "0"}
    screenshot(page, "round-challenged")
    page.get_by_role("button", name="Close round 1").tap()
    page.wait_for_url(re.compile(r"/games/[\w-]+$"))
    assert page.locator("[data-player='Ann'] [data-total]").first.inner_text() == "33"

    # The watching phone shows the new totals without a reload.
    watcher.locator("#board [data-player='Ann'] [data-total]").filter(has_text="33").wait_for()
    assert "Ben deals" in watcher.locator(".next").inner_text()

    # Round 2 (4 cards). Ben plays QU·I·Z + E; then a mistake is found in round 1.
    page.get_by_role("link", name="Enter round 2").tap()
    enter(page, 0, "top", "e")
    enter(page, 1, "quiz", "")
    offers = page.locator("#players-1-words ~ .spellings-offer .offer")
    offers.first.wait_for()
    # The spelling with the double-letter card first, each with its card count.
    assert [" ".join(t.split()) for t in offers.all_inner_texts()] == [
        "QU·I·Z 3 cards · 25 pts",
        "Q·U·I·Z 4 cards · 35 pts",
    ]
    offers.first.tap()
    assert page.input_value("#players-1-words") == "qu-i-z "
    enter(page, 1, "qu-i-z", "e")
    enter(page, 2, "dog", "s")
    page.get_by_role("button", name="Save round 2").tap()
    page.wait_for_url(re.compile(r"/rounds/2#breakdown$"))
    page.get_by_role("button", name="Close round 2").tap()
    page.wait_for_url(re.compile(r"/games/[\w-]+$"))

    # A mistake found later: Cy had played Z·A·P, not Z·A·X. Reopen round 1 and fix it.
    page.goto(page.url + "/rounds/1")
    page.get_by_role("button", name="Reopen round 1").tap()
    assert "reopened" in page.locator(".flash").inner_text()
    assert page.locator("#review").count() == 0  # no best play while the round is open
    page.get_by_role("button", name="Withdraw").tap()
    page.fill("#players-2-words", "z-a-p")
    page.get_by_role("button", name="Save round 1").tap()
    page.wait_for_url(re.compile(r"/rounds/1#breakdown$"))
    page.get_by_role("button", name="Close round 1").tap()
    page.wait_for_url(re.compile(r"/games/[\w-]+$"))
    # Round 1: Ann 13, Ben 0, Cy Z·A·P 22, longest word tie (3 letters), most words tie -> no bonus.
    # Round 2: Ann T·O·P 11 - E 2 = 9; Ben QU·I·Z 25 - E 2 + longest 10 = 33;
    # Cy D·O·G 13 - S 3 = 10.
    totals = {
        n: page.locator(f"#board [data-player='{n}'] [data-total]").first.inner_text()
        for n in ("Ann", "Ben", "Cy")
    }
    assert totals == {"Ann": "22", "Ben": "33", "Cy": "32"}
    watcher.locator("#board [data-player='Cy'] [data-total]").filter(has_text="32").wait_for()
    assert watcher.locator("#board .leaderboard li .who").first.inner_text() == "Ben"
    fits_phone(watcher)
    screenshot(watcher, "leaderboard-viewer")

    # Round review, once closed: the best play each hand allowed and the points left behind.
    watcher.goto(view_url + "/rounds/2")
    left = {
        n: watcher.locator(f".review-player[data-player='{n}'] [data-left]").get_attribute(
            "data-left"
        )
        for n in ("Ann", "Ben", "Cy")
    }
    # Ann T,O,P,E: POET/TOPE 13 vs 9 played; Ben QU·I·Z + E: 23, as played; Cy DOGS 16 vs 10.
    assert left == {"Ann": "4", "Ben": "0", "Cy": "6"}
    fits_phone(watcher)
    screenshot(watcher, "round-review")
    watcher_context.close()
