"""Tap targets on a phone: every small link of the leaderboard, the exports, the QR codes'
captions, the crumbs and the home page is at least 44x44 CSS px at 390 px wide, and nothing
scrolls sideways at 320 px."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

SMALLEST = 44
"""The least width and height of a tap target, in CSS px (WCAG 2.5.5, Apple's guidelines)."""


def closed_game(page, live_server: str) -> str:
    """A three-player game made through the API with rounds 1 and 2 closed, its edit link
    followed in ``page``'s context (the page isn't drawn); the game page's address."""
    made = page.request.post(
        f"{live_server}/api/v1/games", data={"players": ["Ann", "Ben", "Cy"], "first_dealer": 0}
    )
    assert made.status == 201, made.text()
    game = made.json()
    auth = {"Authorization": f"Bearer {game['edit_token']}"}
    rounds = {
        1: [(["c-a-t"], [], True), (["d-o-g"], [], False), (["o-x"], ["m"], False)],
        2: [([["qu", "i", "z"]], ["m"], False), (["t-o-p"], ["a"], False), (["j-a-b-s"], [], True)],
    }
    for number, hands in rounds.items():
        players = [
            {"name": name, "words": words, "unused": unused, "went_out": out}
            for name, (words, unused, out) in zip(("Ann", "Ben", "Cy"), hands, strict=True)
        ]
        base = f"{live_server}/api/v1/games/{game['id']}/rounds/{number}"
        entered = page.request.put(base, data={"players": players}, headers=auth)
        assert entered.status == 200, entered.text()
        closed = page.request.post(f"{base}/close", data={}, headers=auth)
        assert closed.status == 200, closed.text()
    followed = page.request.get(game["edit_url"])  # the edit right, in the phone's cookies
    assert followed.url == f"{live_server}/games/{game['id']}", followed.url
    return followed.url


def too_small(page, selector: str) -> list[str]:
    """The elements of ``selector`` smaller than ``SMALLEST`` either way, with their size."""
    found = page.locator(selector)
    assert found.count() > 0, f"no {selector} on the page"
    small = []
    for i in range(found.count()):
        box = found.nth(i).bounding_box()
        assert box is not None, f"{selector} #{i} is not shown"
        if box["width"] < SMALLEST or box["height"] < SMALLEST:
            text = found.nth(i).inner_text()
            small.append(f"{selector} {text!r}: {box['width']:.0f}x{box['height']:.0f}")
    return small


def sideways(page) -> int:
    """How wide the page is (more than the viewport: it scrolls sideways)."""
    return page.evaluate("document.documentElement.scrollWidth")


def test_small_links_are_big_enough_to_tap(live_server, phone) -> None:
    page = phone
    game_url = closed_game(page, live_server)
    page.goto(game_url)
    assert page.locator(".rounds-table tbody th a").count() == 2
    small = too_small(page, ".rounds-table tbody th a")
    small += too_small(page, ".exports a")
    small += too_small(page, "details.scorekeeper > summary")
    small += too_small(page, "#view-link")
    page.goto(game_url + "/rounds/1")
    small += too_small(page, ".crumbs a")
    assert page.locator(".crumbs a").first.inner_text() == "← Leaderboard"
    page.goto(live_server + "/score")  # a checkbox and its words: one target, its label
    small += too_small(page, "label.field.check:visible")
    page.goto(live_server + "/")
    small += too_small(page, ".brand")
    small += too_small(page, ".quick-links a")
    assert small == []
    page.goto(game_url + "/rounds/1")
    page.locator(".crumbs a").first.tap()
    page.wait_for_url(game_url)


@pytest.mark.parametrize("width", [390, 320])
def test_nothing_scrolls_sideways(live_server, phone, screenshot, width: int) -> None:
    page = phone
    game_url = closed_game(page, live_server)
    page.set_viewport_size({"width": width, "height": 844})
    pages = {
        "game": game_url,
        "round": game_url + "/rounds/1",
        "error": game_url + "/rounds/1/close",  # a GET of a POST route: 405, its error page
    }
    for name, url in pages.items():
        page.goto(url)
        if name == "game":
            page.locator("summary", has_text="Show the scorekeeper link").tap()
            assert page.locator("#edit-link").is_visible()
        assert sideways(page) <= width, f"the {name} page is {sideways(page)}px wide at {width}"
        screenshot(page, f"tap-targets-{name}-{width}")
