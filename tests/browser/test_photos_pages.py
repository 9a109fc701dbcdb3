"""Photos of hands on a phone: the new-game page's checkbox, and the round page's "Photo"
links beside the hands that have one, at 390 and 320 px, light and dark: big enough to
tap, nothing sideways, and the photo opens."""

from __future__ import annotations

import pytest

from tests.actions.support import camera_jpeg

pytestmark = pytest.mark.browser

SMALLEST = 44


def keeping_game(page, live_server: str) -> str:
    """A game of Ann, Ben and Cy started on the new-game page with its photos kept, and
    round 1 saved from the every-hand form with photos of Ann's and Cy's hands; the round
    page's address."""
    page.goto(f"{live_server}/games/new")
    for i, name in enumerate(("Ann", "Ben", "Cy")):
        page.fill(f"#players-{i}-name", name)
    box = page.locator("#keep-photos")
    assert box.bounding_box()["height"] >= SMALLEST  # the label is the tap target
    box.click()
    assert page.locator("#keep_photos").is_checked()
    page.locator("button[type=submit].primary").click()
    page.wait_for_url("**/games/*?created=1")
    assert page.locator("#keeps-photos").is_visible()
    game_url = page.url.split("?")[0]
    round_url = f"{game_url}/rounds/1"
    page.goto(round_url)
    token = page.locator("#round-form input[name=csrf_token]").input_value()
    assert page.locator("#round-form").get_attribute("enctype") == "multipart/form-data"
    photo = {"name": "IMG_1.jpg", "mimeType": "image/jpeg", "buffer": camera_jpeg()}
    fields = {
        "csrf_token": token,
        "players-0-words": "c-a-t",
        "players-1-words": "d-o-g",
        "players-2-words": "o-x",
        "players-2-unused": "m",
        "went_out": "0",
        "players-0-photo": photo,
        "players-2-photo": {**photo, "buffer": camera_jpeg(1500, 2000)},
    }
    saved = page.request.post(round_url, multipart=fields, max_redirects=0)
    assert saved.status == 302, saved.text()[:500]
    page.goto("about:blank")  # the round page would load itself again: its round moved
    return round_url


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_photo_links_fit_a_phone_and_open_the_photo(
    live_server, phone, screenshot, scheme
) -> None:
    page = phone
    page.emulate_media(color_scheme=scheme)
    round_url = keeping_game(page, live_server)
    for width in (390, 320):
        page.set_viewport_size({"width": width, "height": 800})
        page.goto(round_url)
        links = page.locator("#breakdown a.photo-link")
        assert links.count() == 2
        for i in range(2):
            box = links.nth(i).bounding_box()
            assert box is not None and box["height"] >= SMALLEST and box["width"] >= SMALLEST
            assert box["x"] >= 0 and box["x"] + box["width"] <= width
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        screenshot(page, f"round-photos-{width}-{scheme}")
    labels = [links.nth(i).get_attribute("aria-label") for i in range(2)]
    assert labels == ["Photo of Ann's cards", "Photo of Cy's cards"]
    with page.expect_response("**/photos/2.jpg") as shown:
        links.nth(1).click()
    answer = shown.value
    assert answer.status == 200 and answer.headers["content-type"] == "image/jpeg"
    size = page.evaluate("[document.images[0].naturalWidth, document.images[0].naturalHeight]")
    assert size == [1200, 1600]
