"""The round form's card keyboard on phones: a hand built from card chips in few taps, the
text boxes it writes (what the server reads), the phone's own keyboard kept down, folding,
never covering the box being filled, the spellings offered for typed letters, and the
messages next to the hand."""

from __future__ import annotations

import re
from urllib.parse import parse_qs

import pytest

pytestmark = pytest.mark.browser

SIZES = {"390x844": (390, 844), "320x640": (320, 640)}
ON_SCREEN = (
    "e => { const r = e.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }"
)
POOL = "e" * 12 + "a" * 10 + "i" * 8 + "o" * 8 + "n" * 6 + "r" * 6 + "t" * 6 + "u" * 6


def phone_at(browser, size: str):
    width, height = SIZES[size]
    context = browser.new_context(
        viewport={"width": width, "height": height},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    return context, context.new_page()


def game_at_round(page, live_server: str, number: int) -> str:
    """A three-player game with edit rights in ``page``, rounds before ``number`` entered
    and closed through the API (every card left over); returns the round's page URL."""
    resp = page.request.post(live_server + "/api/v1/games", data={"players": ["Ann", "Ben", "Cy"]})
    assert resp.status == 201, resp.text()
    game = resp.json()
    # The edit rights go into this phone's session (its cookies; the page isn't drawn).
    assert page.request.get(game["edit_url"]).ok
    auth = {"Authorization": f"Bearer {game['edit_token']}"}
    api = f"{live_server}/api/v1/games/{game['id']}/rounds"
    for n in range(1, number):
        size = n + 2
        players = [
            {"name": name, "words": [], "unused": list(POOL[seat * size : (seat + 1) * size])}
            for seat, name in enumerate(["Ann", "Ben", "Cy"])
        ]
        put = page.request.put(f"{api}/{n}", data={"players": players}, headers=auth)
        assert put.status == 200, put.text()
        closed = page.request.post(f"{api}/{n}/close", data={}, headers=auth)
        assert closed.status == 200, closed.text()
    url = f"{live_server}/games/{game['id']}/rounds/{number}"
    page.goto(url)
    return url


class Taps:
    """Taps on the page, counted."""

    def __init__(self, page) -> None:
        self.page = page
        self.count = 0

    def tap(self, selector_or_locator) -> None:
        loc = (
            self.page.locator(selector_or_locator)
            if isinstance(selector_or_locator, str)
            else selector_or_locator
        )
        loc.tap()
        self.count += 1

    def cards(self, *names: str) -> None:
        for name in names:
            self.tap(f".cardpad .key[data-card='{name}']")

    def next_word(self) -> None:
        self.tap(".cardpad [data-action=space]")

    def left_over(self) -> None:
        self.tap(".cardpad [data-action=left]")


def no_sideways_scroll(page, width: int) -> None:
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"page is {scroll}px wide at {width}px: it scrolls sideways"


@pytest.mark.parametrize("size", list(SIZES))
def test_a_ten_card_hand_in_at_most_14_taps(live_server, browser, screenshot, size) -> None:
    context, page = phone_at(browser, size)
    width = SIZES[size][0]
    game_at_round(page, live_server, 8)
    assert page.locator("form.round-form").get_attribute("data-hand") == "10"
    no_sideways_scroll(page, width)

    # Ann, the first hand: the keyboard is on her words from the start. QU·I·C·K T·O·P D·E·N.
    ann = Taps(page)
    ann.cards("qu", "i", "c", "k")
    ann.next_word()
    ann.cards("t", "o", "p")
    ann.next_word()
    ann.cards("d", "e", "n")
    assert page.input_value("#players-0-words") == "qu-i-c-k t-o-p d-e-n"
    assert page.input_value("#players-0-unused") == ""
    assert page.locator("#players-0 .count").inner_text() == "10 / 10 cards"
    assert "ok" in page.locator("#players-0 .count").get_attribute("class")
    assert page.locator("#players-0 .word-chip .chip-text").all_inner_texts() == [
        "QUICK",
        "TOP",
        "DEN",
    ]
    assert ann.count == 12  # + the save below: 13

    # Ben: one tap to bring the keyboard to his hand, then TH·E·M W·A·X·E·S, Z and Y left over.
    ben = Taps(page)
    ben.tap(page.get_by_role("button", name="Tap to enter Ben's cards"))
    assert (
        page.evaluate("document.querySelector('.cardpad').previousElementSibling.id") == "players-1"
    )
    ben.cards("th", "e", "m")
    ben.next_word()
    ben.cards("w", "a", "x", "e", "s")
    ben.left_over()
    assert page.get_by_role("switch", name="Left over").get_attribute("aria-checked") == "true"
    ben.cards("z", "y")
    assert page.input_value("#players-1-words") == "th-e-m w-a-x-e-s"
    assert page.input_value("#players-1-unused") == "z y"
    assert page.locator("#players-1 .count").inner_text() == "10 / 10 cards"
    assert ben.count == 13  # + the save: 14
    assert page.locator(".cardpad-count").inner_text() == "10 / 10"

    # Cy types his cards as letters; the chips follow the boxes.
    page.fill("#players-2-words", "blog runs")
    page.fill("#players-2-unused", "v f")
    assert page.locator("#players-2 .word-chip .chip-text").all_inner_texts() == [
        "BLOG",
        "RUNS",
        "left over",
    ]
    assert page.locator("#players-2 .count").inner_text() == "10 / 10 cards"
    no_sideways_scroll(page, width)
    screenshot(page, f"card-pad-{size}")
    page.emulate_media(color_scheme="dark")
    screenshot(page, f"card-pad-{size}-dark")
    page.emulate_media(color_scheme="light")

    save = Taps(page)
    save.tap(page.get_by_role("button", name="Save round 8"))
    assert ann.count + save.count <= 14 and ben.count + save.count <= 14
    page.wait_for_url(re.compile(r"/rounds/8#breakdown$"))
    words = {
        name: [
            t.split()[0]
            for t in page.locator(
                f"#breakdown .player-result[data-player='{name}'] li.word .what"
            ).all_inner_texts()
        ]
        for name in ("Ann", "Ben", "Cy")
    }
    assert words == {
        "Ann": ["QUICK", "TOP", "DEN"],
        "Ben": ["THEM", "WAXES"],
        "Cy": ["BLOG", "RUNS"],
    }
    # The saved hand comes back in the boxes, and as closed words (every hand is in: the
    # form is folded, Close first; one tap opens it).
    page.locator("#every-hand > summary").tap()
    assert page.input_value("#players-0-words") == "qu-i-c-k t-o-p d-e-n"
    assert page.input_value("#players-1-unused") == "z y"
    assert page.locator("#players-1 .word-chip .chip-text").all_inner_texts() == [
        "THEM",
        "WAXES",
        "left over",
    ]
    context.close()


def test_the_phones_keyboard_stays_down_until_asked_for(live_server, phone, screenshot) -> None:
    page = phone
    game_at_round(page, live_server, 1)
    boxes = page.locator("form.round-form .card-input")
    assert boxes.count() == 6
    assert {boxes.nth(i).get_attribute("inputmode") for i in range(6)} == {"none"}
    page.locator("#players-0-words").tap()  # a tap on the box: no phone keyboard
    assert page.locator("#players-0-words").get_attribute("inputmode") == "none"

    typing = page.get_by_role("button", name="Type letters")
    typing.tap()
    assert typing.get_attribute("aria-pressed") == "true"
    assert {boxes.nth(i).get_attribute("inputmode") for i in range(6)} == {"text"}
    assert page.evaluate("document.activeElement.id") == "players-0-words"
    page.keyboard.type("ox")  # letters typed: the chips follow
    assert page.input_value("#players-0-words") == "ox"
    assert page.locator("#players-0 .word-chip .chip-text").all_inner_texts() == ["OX"]
    assert page.locator("#players-0 .count").inner_text() == "2 / 3 cards"
    page.locator(".cardpad .key[data-card='e']").tap()  # card keys still work
    assert page.input_value("#players-0-words") == "o-x-e"

    typing.tap()
    assert typing.get_attribute("aria-pressed") == "false"
    assert {boxes.nth(i).get_attribute("inputmode") for i in range(6)} == {"none"}


def test_the_card_keyboard_folds_and_remembers(live_server, phone, screenshot) -> None:
    page = phone
    url = game_at_round(page, live_server, 1)
    fold = page.locator(".cardpad [data-action=fold]")
    assert fold.get_attribute("aria-expanded") == "true"
    assert page.locator(".cardpad .keys").is_visible()
    fold.tap()
    assert fold.get_attribute("aria-expanded") == "false"
    assert page.locator(".cardpad .keys").is_hidden()
    assert page.locator("#players-0-words").get_attribute("inputmode") == "text"
    screenshot(page, "card-pad-folded")

    page.goto(url)  # the choice is remembered on this phone
    assert fold.get_attribute("aria-expanded") == "false"
    assert page.locator(".cardpad .keys").is_hidden()
    fold.tap()
    assert fold.get_attribute("aria-expanded") == "true"
    assert page.locator(".cardpad .keys").is_visible()
    assert page.locator("#players-0-words").get_attribute("inputmode") == "none"
    page.goto(url)
    assert page.locator(".cardpad .keys").is_visible()


def test_the_keyboard_never_covers_the_box_being_filled(live_server, browser, screenshot) -> None:
    context, page = phone_at(browser, "320x640")
    game_at_round(page, live_server, 1)
    keys = page.locator(".cardpad .key")
    assert keys.count() == 33
    for i in range(keys.count()):
        box = keys.nth(i).bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, (i, box)
    no_sideways_scroll(page, 320)
    for seat in range(3):
        for part in ("words", "unused"):
            box_id = f"players-{seat}-{part}"
            page.locator(f"#{box_id}").tap()
            assert page.evaluate("document.activeElement.id") == box_id
            pad = page.locator(".cardpad").bounding_box()
            field = page.locator(f"#{box_id}").bounding_box()
            overlap = not (
                pad["y"] >= field["y"] + field["height"] or field["y"] >= pad["y"] + pad["height"]
            )
            assert not overlap, (box_id, pad, field)
            # the tapped box is still on the screen, the keyboard right below its hand
            assert page.locator(f"#{box_id}").evaluate(ON_SCREEN), box_id
            assert (
                page.evaluate("document.querySelector('.cardpad').previousElementSibling.id")
                == f"players-{seat}"
            )
            page.locator(".cardpad .key[data-card='e']").tap()
    assert page.input_value("#players-2-unused") == "e"
    no_sideways_scroll(page, 320)
    page.locator("#players-1-words").tap()
    page.evaluate("window.scrollTo(0, document.querySelector('#players-1').offsetTop - 8)")
    screenshot(page, "card-pad-320-focus")
    context.close()


def test_a_double_letter_spelling_is_offered_first_with_its_card_count(
    live_server, phone, screenshot
) -> None:
    page = phone
    game_at_round(page, live_server, 3)  # 5 cards
    page.fill("#players-0-words", "quick")
    offers = page.locator("#players-0 .spellings-offer .offer")
    offers.first.wait_for()
    # The API sends the best value first (Q·U·I·C·K 37); the double-letter card comes first here.
    assert [" ".join(t.split()) for t in offers.all_inner_texts()] == [
        "QU·I·C·K 4 cards · 27 pts",
        "Q·U·I·C·K 5 cards · 37 pts",
    ]
    for i in range(offers.count()):
        box = offers.nth(i).bounding_box()
        assert box["height"] >= 44 and box["width"] >= 44
    assert page.locator("#players-0 .count").inner_text() == "5 / 5 cards"
    screenshot(page, "card-pad-offers")
    page.emulate_media(color_scheme="dark")
    screenshot(page, "card-pad-offers-dark")
    offers.first.tap()
    assert page.input_value("#players-0-words") == "qu-i-c-k "
    assert page.locator("#players-0 .word-chip .chip-cards .card").count() == 4
    assert page.locator("#players-0 .count").inner_text() == "4 / 5 cards"
    assert page.locator("#players-0 .spellings-offer .offer").count() == 0


def test_went_out_with_a_card_left_over_is_warned_next_to_the_hand(
    live_server, phone, screenshot
) -> None:
    page = phone
    game_at_round(page, live_server, 1)
    pad = Taps(page)
    pad.cards("o", "x")
    pad.left_over()
    pad.cards("e")
    assert page.input_value("#players-0-words") == "o-x"
    assert page.input_value("#players-0-unused") == "e"
    warning = page.locator("#players-0 .went-out-warning")
    assert warning.is_hidden()
    page.locator("#players-0 input[name=went_out]").tap()
    assert warning.is_visible()
    assert warning.get_attribute("role") == "alert"
    assert warning.inner_text() == ("Ann is marked as going out but still has 1 card left over.")
    screenshot(page, "card-pad-went-out")
    page.locator(".cardpad [data-action=back]").tap()  # the E goes: no more warning
    assert page.input_value("#players-0-unused") == ""
    assert warning.is_hidden()
    pad.cards("e")
    assert warning.is_visible()
    page.get_by_text("Nobody marked as going out").tap()
    assert warning.is_hidden()


def test_word_chips_edit_and_remove_and_the_deck_limit(live_server, phone, screenshot) -> None:
    page = phone
    game_at_round(page, live_server, 8)  # 10 cards
    pad = Taps(page)
    pad.cards("z", "a", "p")
    pad.next_word()
    pad.cards("f", "i", "x")
    pad.next_word()
    assert page.input_value("#players-0-words") == "z-a-p f-i-x "
    page.locator(".cardpad [data-action=back]").tap()  # back into FIX: its X goes
    assert page.input_value("#players-0-words") == "z-a-p f-i"
    pad.cards("x")
    pad.next_word()

    # Tap ZAP's chips: reopen it, add an S; then remove FIX.
    zap = page.locator("#players-0 .word-chip", has_text="ZAP")
    box = zap.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44
    zap.tap()
    page.get_by_role("button", name="Edit ZAP").tap()
    pad.cards("s")
    assert page.input_value("#players-0-words") == "z-a-p-s f-i-x"
    pad.next_word()
    page.locator("#players-0 .word-chip", has_text="FIX").tap()
    page.get_by_role("button", name="Remove FIX").tap()
    assert page.input_value("#players-0-words") == "z-a-p-s "
    assert page.locator("#players-0 .count").inner_text() == "4 / 10 cards"

    # A second Z is the deck's last: its key greys out; a third is warned next to Ann.
    z = page.locator(".cardpad .key[data-card='z']")
    assert "used-up" not in z.get_attribute("class")
    pad.cards("z")
    assert "used-up" in z.get_attribute("class")
    warning = page.locator("#players-0 .deck-warning")
    assert warning.is_hidden()
    pad.cards("z")
    assert warning.is_visible()
    assert "only 2 Z cards; 3 are entered" in warning.inner_text()
    assert warning.evaluate(ON_SCREEN)
    screenshot(page, "card-pad-deck-limit")
    page.locator(".cardpad [data-action=back]").tap()
    assert warning.is_hidden()


ONE_HAND = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/static/style.css"></head>
<body><main>
<form method="post" action="/one-hand-save" class="round-form" data-hand="10"
      data-spell-url="/api/v1/spell">
  <fieldset class="entry"><legend>Ben <span class="count" aria-live="polite"></span></legend>
    <div class="field"><label for="seat-words">Words</label>
      <input type="text" id="seat-words" name="seat_words" class="card-input words-input"></div>
    <div class="field"><label for="seat-left">Left over</label>
      <input type="text" id="seat-left" name="seat_unused" class="card-input unused-input"></div>
    <label class="radio"><input type="checkbox" name="went_out" value="1"> Went out first</label>
  </fieldset>
  PAD
  <button type="submit" class="primary">Save my hand</button>
</form></main>
<script src="/static/i18n.js"></script><script src="/static/round.js"></script></body></html>"""


def test_a_one_hand_form_is_filled_from_the_start(live_server, phone, screenshot) -> None:
    """The markup of the one-hand-per-phone form (no ids the script knows, a went-out
    checkbox): the keyboard is on the hand's words from the start."""
    page = phone
    round_page = page.request.get(game_at_round(page, live_server, 8)).text()
    pad = re.search(
        # (the stylesheet's address carries the build: ?v=...)
        r'<link rel="stylesheet" href="[^"]*cardpad\.css(?:\?v=\w+)?">'
        r'\s*<div class="cardpad".*?\n</div>',
        round_page,
        re.S,
    )
    assert pad is not None
    posted: list[str] = []
    page.route(
        live_server + "/one-hand",
        lambda route: route.fulfill(content_type="text/html", body=ONE_HAND.replace("PAD", pad[0])),
    )

    def save(route) -> None:
        posted.append(route.request.post_data or "")
        route.fulfill(content_type="text/html", body="<p id=saved>saved</p>")

    page.route(live_server + "/one-hand-save", save)
    page.goto(live_server + "/one-hand")
    assert page.locator("#seat-words").get_attribute("inputmode") == "none"

    taps = Taps(page)
    taps.cards("th", "e", "m")
    taps.next_word()
    taps.cards("w", "a", "x", "e", "s")
    taps.left_over()
    taps.cards("z", "y")
    assert page.locator("fieldset.entry .count").inner_text() == "10 / 10 cards"
    page.locator("input[name=went_out]").tap()  # Ben is marked as going out: warned, not stopped
    warning = page.locator("fieldset.entry .went-out-warning")
    assert warning.inner_text() == "Ben is marked as going out but still has 2 cards left over."
    screenshot(page, "card-pad-one-hand")
    taps.tap(page.get_by_role("button", name="Save my hand"))
    page.locator("#saved").wait_for()
    assert taps.count == 13  # 10 cards, next word, left over, save
    assert parse_qs(posted[0]) == {
        "seat_words": ["th-e-m w-a-x-e-s"],
        "seat_unused": ["z y"],
        "went_out": ["1"],
    }


def test_a_refused_save_comes_back_with_the_keyboard_at_the_box_at_fault(
    live_server, browser, screenshot
) -> None:
    context, page = phone_at(browser, "320x640")
    game_at_round(page, live_server, 1)
    page.fill("#players-0-words", "cat")
    page.fill("#players-1-words", "c-a-bb")
    page.fill("#players-2-unused", "x y z")
    page.get_by_role("button", name="Save round 1").tap()
    error = page.locator("#players-1-words-error")
    error.wait_for()
    page.wait_for_load_state("load")  # the page's scripts have run: the keyboard has moved
    page.wait_for_function(
        "document.querySelector('.cardpad').previousElementSibling.id === 'players-1'"
    )
    assert error.evaluate(ON_SCREEN)
    # The chip's cards are drawn by the style sheet (the chip's text is its word alone).
    face = "el => getComputedStyle(el, '::before').content"
    assert page.locator("#players-1 .card.bad").evaluate(face) == '"BB"'
    screenshot(page, "card-pad-refused")
    context.close()
