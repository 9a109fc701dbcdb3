"""Four players enter their own hands on their own phones at once; a fifth phone, the
scorekeeper's, watches the round fill in, sees the bonus to beat, challenges a word and
closes the round; the leaderboard follows on all five. And a change made between a page
being served and its first poll shows on it too."""

from __future__ import annotations

import json
import re
import urllib.request

import pytest

from tests.browser.phone import PHONE

pytestmark = pytest.mark.browser

NAMES = ["Ann", "Ben", "Cy", "Dee"]
HANDS = {  # round 1: three cards each
    "Ann": ("c-a-t", ""),
    "Ben": ("d-o-g", ""),
    "Cy": ("o-x", "m"),
    "Dee": ("qu-a-y", ""),
}


def api_game(base: str) -> dict:
    """A four-player game made through the API: its id, edit link and view link."""
    request = urllib.request.Request(
        base + "/api/v1/games",
        data=json.dumps({"players": NAMES, "first_dealer": 0}).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request) as answer:  # the test server
        return json.load(answer)


def test_four_phones_enter_their_hands_while_the_scorekeeper_watches(
    live_server, browser, screenshot, fits_phone
) -> None:
    game = api_game(live_server)
    contexts = [browser.new_context(**PHONE) for _ in range(5)]
    try:
        *players, keeper = (c.new_page() for c in contexts)
        keeper.goto(game["edit_url"])
        assert keeper.locator(".seat-link").count() == 4  # nobody has a seat yet

        # Each player opens the view link (the QR code) and taps their name, twice.
        for name, page in zip(NAMES, players, strict=True):
            page.goto(game["view_url"])
            page.get_by_role("link", name=f"I am {name}").tap()
            assert page.locator("h1").inner_text() == f"Are you {name}?"
            page.locator("#claim").tap()
            page.wait_for_url(re.compile(r"/rounds/1$"))
            flash = page.locator(".flash")
            if flash.count():  # (the live part's reload may already have taken it away)
                assert f"This phone is {name}'s seat" in flash.inner_text()
            assert page.locator("#seat-form legend").inner_text().startswith(name)
        screenshot(players[0], "seats-claimed")
        keeper.goto(f"{live_server}/games/{game['id']}")
        assert keeper.locator(".seat-row .tag.claimed").count() == 4
        assert keeper.locator(".seat-link").count() == 0  # taken seats can't be tapped
        keeper.get_by_role("link", name="Enter round 1").tap()
        assert "Hands in: 0 of 4" in keeper.locator("#round-live").inner_text()

        # Ann and Ben save at the same moment; the scorekeeper's page follows by itself.
        def fill(name: str, page) -> None:
            words, unused = HANDS[name]
            page.fill("#words", words)
            page.fill("#unused", unused)

        for name, page in zip(NAMES[:2], players[:2], strict=True):
            fill(name, page)
        for page in players[:2]:
            page.locator("#seat-form button[type=submit]").click(no_wait_after=True)
        for page in players[:2]:
            page.wait_for_url(re.compile(r"/rounds/1#round-live$"), wait_until="domcontentloaded")
        live = keeper.locator("#round-live")
        live.get_by_text("Hands in: 2 of 4").wait_for()
        race = keeper.locator(".bonus-race").inner_text()
        assert "Longest word: 3 letters, Ann and Ben tied: as it stands, nobody gets it." in race
        assert "A tie gives the bonus to nobody" in race
        assert [s.inner_text() for s in keeper.locator(".seat-state .seat-what").all()] == [
            "✓ in",
            "✓ in",
            "entering…",
            "entering…",
        ]
        screenshot(keeper, "seats-keeper-watching")
        fits_phone(keeper)
        players[1].locator(".bonus-race").wait_for()
        # The flash says it, and the live part too (a reload of the page may take the
        # one-time flash away first, so either will do).
        players[1].get_by_text(re.compile("waiting for Cy and Dee", re.IGNORECASE)).first.wait_for()

        # Cy and Dee save together: every hand is in, the round is scored on every phone.
        for name, page in zip(NAMES[2:], players[2:], strict=True):
            fill(name, page)
        for page in players[2:]:
            page.locator("#seat-form button[type=submit]").click(no_wait_after=True)
        for page in players[2:]:
            page.wait_for_url(
                re.compile(r"/rounds/1#(round-live|breakdown)$"), wait_until="domcontentloaded"
            )
        live.get_by_text("Every hand is in").wait_for()
        # CAT 13, DOG 13, OX 14 - M 5, QUAY 15 and the longest word (four letters, QU is
        # two); one word each: most words is a tie, nobody gets it.
        scores = keeper.locator("[data-score]")
        scores.first.wait_for()
        assert [s.get_attribute("data-score") for s in scores.all()] == ["13", "13", "9", "25"]
        screenshot(players[3], "seats-dee-breakdown")

        # The scorekeeper challenges Cy's OX (the dictionary has it: Ann pays) and closes.
        keeper.select_option("#by", "0")
        keeper.select_option("#word", "2:0")
        keeper.locator(".challenge-form button[type=submit]").tap()
        keeper.wait_for_url(re.compile(r"#challenges$"))
        note = keeper.locator(".challenge-note").inner_text()
        assert "Ann challenged Cy's OX" in note and "legal" in note
        keeper.locator("#close").tap()
        keeper.wait_for_url(re.compile(rf"/games/{game['id']}$"))
        totals = [t.inner_text() for t in keeper.locator("#board-live [data-total]").all()]
        assert totals == ["25", "13", "9", "0"]  # Dee, Ben, Cy; Ann 13 - 14 floored at 0
        screenshot(keeper, "seats-keeper-leaderboard")

        # Every player's phone, still on round 1, shows the leaderboard without a reload.
        for page in players:
            standings = page.locator(".round-standings")
            standings.wait_for()
            shown = [t.inner_text() for t in standings.locator("[data-total]").all()]
            assert shown == ["25", "13", "9", "0"]
            assert page.get_by_role("link", name="Enter my hand for round 2").count() == 1
        screenshot(players[0], "seats-ann-after-close")
        for page in (*players, keeper):
            fits_phone(page)
    finally:
        for context in contexts:
            context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_seat_phone_at_320_px_in_a_bright_and_a_dark_room(
    live_server, browser, screenshot, scheme
) -> None:
    game = api_game(live_server)
    context = browser.new_context(**{**PHONE, "viewport": {"width": 320, "height": 640}})
    try:
        page = context.new_page()
        page.emulate_media(color_scheme=scheme)
        page.goto(game["view_url"])
        screenshot(page, f"seats-view-320-{scheme}")
        page.get_by_role("link", name="I am Ben").tap()
        page.locator("#claim").tap()
        page.wait_for_url(re.compile(r"/rounds/1$"))
        page.fill("#words", "o-x")
        page.fill("#unused", "z")  # OX and Z: 3 cards; no Z left for another hand now
        page.locator("#seat-form button[type=submit]").tap()
        page.wait_for_url(re.compile(r"#round-live$"))
        assert (
            "Ben's hand is saved. Waiting for Ann, Cy and Dee."
            in page.locator(".flash").inner_text()
        )
        assert "Longest word: 2 letters, Ben (OX)." in page.locator(".bonus-race").inner_text()
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 320, f"page is {width}px wide at 320 px"
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert (background == "rgb(255, 255, 255)") == (scheme == "light")
        screenshot(page, f"seats-round-320-{scheme}")
        page.goto(f"{live_server}/games/{game['id']}")
        assert page.locator(".seat-row .tag").first.inner_text() in ("this phone", "on a phone")
        screenshot(page, f"seats-game-320-{scheme}")
    finally:
        context.close()


def api(base: str, method: str, path: str, body: object | None, token: str) -> None:
    """A write through the API of the test's own server, as the scorekeeper."""
    request = urllib.request.Request(
        base + path,
        data=json.dumps(body).encode() if body is not None else None,
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
        method=method,
    )
    with urllib.request.urlopen(request) as answer:  # the test server
        assert answer.status == 200


def test_a_hand_saved_before_the_first_poll_shows_on_the_other_phone(live_server, phone) -> None:
    """Ben's hand lands after Cy's round page was served and before that page first asks
    for its live part: Cy's page shows it all the same, Cy's own seat marked."""
    game = api_game(live_server)
    phone.goto(game["view_url"])
    phone.get_by_role("link", name="I am Cy").tap()
    phone.locator("#claim").tap()
    phone.wait_for_url(re.compile(r"/rounds/1$"))
    phone.goto(game["view_url"])  # away from the round, to open it afresh below
    asked: list[str | None] = []

    def save_then_poll(route) -> None:
        if not asked:  # the page was served before this, its first poll
            api(
                live_server,
                "PUT",
                f"/api/v1/games/{game['id']}/rounds/1/seats/1",
                {"words": ["d-o-g"], "unused": []},
                game["edit_token"],
            )
        asked.append(route.request.headers.get("if-none-match"))
        route.continue_()

    phone.route(re.compile(r"/rounds/1/live\?"), save_then_poll)
    phone.goto(f"{live_server}/games/{game['id']}/rounds/1")
    live = phone.locator("#round-live")
    live.get_by_text("Hands in: 1 of 4").wait_for()
    assert asked[0] == live.get_attribute("data-etag")
    assert [s.inner_text() for s in live.locator(".seat-state .seat-what").all()] == [
        "not in yet",
        "✓ in",
        "entering…",
        "not in yet",
    ]
    # The answer is every phone's; this page marks its own seat in it.
    assert live.locator(".seat-state [data-mine]:visible").all_inner_texts() == ["this phone"]
    assert live.locator(".seat-state[data-seat='2'] [data-mine]").is_visible()
    assert phone.locator("#seat-form legend").inner_text().startswith("Cy")


def test_a_round_closed_before_the_first_poll_shows_on_the_leaderboard(live_server, phone) -> None:
    """Round 1 is closed after the game's page was served and before its first poll for
    the leaderboard: the leaderboard shows the new totals all the same."""
    game = api_game(live_server)
    polled: list[str] = []

    def close_then_poll(route) -> None:
        if not polled:  # the page was served before this, its first poll
            hands = [
                {"name": n, "words": [words], "unused": [unused] if unused else []}
                for n, (words, unused) in HANDS.items()
            ]
            rounds = f"/api/v1/games/{game['id']}/rounds/1"
            api(live_server, "PUT", rounds, {"players": hands}, game["edit_token"])
            api(live_server, "POST", f"{rounds}/close", None, game["edit_token"])
        polled.append(route.request.url)
        route.continue_()

    phone.route(re.compile(r"/board\?"), close_then_poll)
    phone.goto(game["view_url"])
    # CAT 13, DOG 13, OX 14 - M 5, QUAY 15 and the longest word: Dee first with 25.
    phone.locator("#board [data-player='Dee'] [data-total]").filter(has_text="25").wait_for()
    totals = phone.locator("#board .leaderboard [data-total]").all_inner_texts()
    assert totals == ["25", "13", "13", "9"]
