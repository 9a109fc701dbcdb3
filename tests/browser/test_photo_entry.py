"""A hand entered from a photo on a player's phone: the picture chosen (or taken) is shrunk
by the page, read by the server's card reader (the real one, ``POST /api/v1/cards/read``),
and its cards fill the hand's boxes and chips, the card the reader was unsure of marked;
one tap on that card and one on a key change it, and Save stores the hand as typed.
Also: Undo brings back what the boxes held, and a refusal is shown by the hand, in the
page's language."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image, ImageDraw, ImageFont

from companion.game.deck import BY_NAME
from tests.browser.phone import PHONE, call

pytestmark = pytest.mark.browser

READ = "/api/v1/cards/read"
POOL = "eeeaaaiii"  # round 1: three cards each, all left over


def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """A bold serif face, as the cards' (Pillow finds DejaVu among the system's fonts);
    Pillow's own font where there is none."""
    try:
        return ImageFont.truetype("DejaVuSerif-Bold.ttf", size)
    except OSError:
        return ImageFont.load_default(size)


def card(name: str, index: tuple[str, str] | None = None, bottom: bool = True) -> Image.Image:
    """A cream card: its big letters in the middle and its index (letters over value) in
    the top corner and, turned over, the bottom one. ``index`` is what the corner shows
    instead (a worn card), ``bottom`` False a bottom corner hidden."""
    w, h = 300, 420
    face = name[0].upper() + name[1:]
    image = Image.new("RGB", (w, h), (246, 238, 214))
    draw = ImageDraw.Draw(image)
    draw.rectangle([0, 0, w - 1, h - 1], outline=(120, 100, 60), width=3)
    draw.text(
        (w / 2, h / 2),
        face,
        font=font(150 if len(name) == 1 else 110),
        fill=(30, 30, 30),
        anchor="mm",
    )
    letters, value = index or (face, str(BY_NAME[name].value))
    corner = Image.new("RGB", (110, 100), (246, 238, 214))
    ink = ImageDraw.Draw(corner)
    ink.text((55, 28), letters, font=font(44), fill=(30, 30, 30), anchor="mm")
    ink.text((55, 76), value, font=font(34), fill=(30, 30, 30), anchor="mm")
    image.paste(corner, (8, 8))
    if bottom:
        image.paste(corner.rotate(180), (w - 118, h - 108))
    return image


def photo() -> bytes:
    """A 3000 x 2000 JPEG of a hand laid on a green table: QU I T as a word, M set apart.
    The T is worn: its corner reads I over 3 (an L's value) and its bottom corner is
    hidden, so the reader takes it for an L, unsure."""
    table = Image.new("RGB", (3000, 2000), (34, 84, 52))
    cards = [card("qu"), card("i"), card("t", index=("I", "3"), bottom=False)]
    for i, c in enumerate(cards):
        table.paste(c.resize((450, 630)), (200 + i * 480, 500))
    table.paste(card("m").resize((450, 630)), (200 + 3 * 480 + 350, 500))
    out = io.BytesIO()
    table.save(out, "JPEG", quality=90)
    return out.getvalue()


PHOTO = {"name": "hand.jpg", "mimeType": "image/jpeg"}


def seat_page(live_server: str, browser, width: int, scheme: str, name: str = "Ann"):
    """A three-player game whose round 1 is closed (through the API), and a phone of
    ``width`` px in ``scheme`` holding ``name``'s seat, at round 2 (four cards each)."""
    game = call(
        live_server, "POST", "/api/v1/games", {"players": ["Ann", "Ben", "Cy"], "first_dealer": 0}
    )
    token = game["edit_token"]
    api = f"/api/v1/games/{game['id']}/rounds/1"
    players = [
        {"name": n, "words": [], "unused": list(POOL[3 * i : 3 * i + 3])}
        for i, n in enumerate(["Ann", "Ben", "Cy"])
    ]
    call(live_server, "PUT", api, {"players": players}, token)
    call(live_server, "POST", api + "/close", {}, token)
    height = 844 if width == 390 else 640
    context = browser.new_context(
        **{**PHONE, "viewport": {"width": width, "height": height}}, color_scheme=scheme
    )
    page = context.new_page()
    page.goto(game["view_url"])
    page.get_by_role("link", name=f"I am {name}").tap()
    page.locator("#claim").tap()
    page.wait_for_url(re.compile(r"/rounds/\d+$"))
    url = f"{live_server}/games/{game['id']}/rounds/2"
    page.goto(url)
    return context, page, url


def whole(page, screenshot, name: str) -> None:
    """A screenshot of the whole page with the keyboard where it lies in the page (the
    window as tall as the page: the keyboard sticks to the window's bottom)."""
    size = page.viewport_size
    page.set_viewport_size(
        {"width": size["width"], "height": page.evaluate("document.documentElement.scrollHeight")}
    )
    screenshot(page, name)
    page.set_viewport_size(size)


@pytest.mark.parametrize(
    ("width", "scheme"), [(390, "light"), (320, "light"), (390, "dark"), (320, "dark")]
)
def test_a_hand_from_a_photo_is_checked_corrected_and_saved(
    live_server, browser, screenshot, width: int, scheme: str
) -> None:
    context, page, url = seat_page(live_server, browser, width, scheme)
    try:
        form = page.locator("#seat-form")
        take = form.locator(".photo-take")
        choose = form.locator(".photo-choose")
        assert take.is_visible() and choose.is_visible()
        assert take.inner_text().strip() == "Take a photo"
        assert choose.inner_text().strip() == "Choose a picture"
        assert take.locator("input").get_attribute("capture") == "environment"
        assert choose.locator("input").get_attribute("capture") is None
        for button in (take, choose):
            box = button.bounding_box()
            assert box["height"] >= 44 and box["width"] >= 44
        data = photo()
        reading = page.request.post(
            live_server + READ, data=data, headers={"Content-Type": "image/jpeg"}
        )
        assert reading.ok, reading.text()
        read = reading.json()
        assert read["words"] == [["qu", "i", "l"]] and read["unused"] == ["m"]
        assert [c["card"] for c in read["cards"] if not c["sure"]] == ["l"]

        # The camera's picture: shrunk, read, and in the hand's boxes and chips.
        take.locator("input").set_input_files({**PHOTO, "buffer": data})
        status = form.locator(".photo-status")
        status.filter(has_text="cards read").wait_for()
        assert (
            status.inner_text() == "4 cards read. 1 card to check: tap a marked card to change it."
        )
        words = " ".join("-".join(w) for w in read["words"])
        assert page.input_value("#words").strip() == words == "qu-i-l"
        assert page.input_value("#unused") == " ".join(read["unused"]) == "m"
        assert form.locator(".count").inner_text() == "4 / 4 cards"
        chip = form.locator(".word-chip", has_text="QUIL")
        marked = chip.locator(".card.check")
        assert marked.count() == 1 and marked.get_attribute("data-face") == "L"
        assert chip.get_attribute("aria-label").startswith("Check the card L. QUIL, 3 cards.")
        assert form.locator(".word-chip.leftover .card.check").count() == 0
        assert form.locator(".photo-undo").is_hidden()  # the boxes were empty
        assert form.locator(".photo-thumb").is_visible()
        # Save sends the small picture, under the seat's photo field, from the input used.
        sent = page.evaluate(
            """async () => {
              const input = document.querySelector("#seat-form input[name=photo]");
              const file = input.files[0];
              const bitmap = await createImageBitmap(file);
              const label = input.closest("label").className;
              return [label, file.type, file.size, bitmap.width, bitmap.height];
            }"""
        )
        assert "photo-take" in sent[0] and sent[1] == "image/jpeg"
        assert sent[2] < len(data) and (sent[3], sent[4]) == (1600, 1067)
        assert form.locator("input[type=file][name]").count() == 1
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        whole(page, screenshot, f"photo-entry-read-{width}-{scheme}")

        # One tap on the marked card, one on the T key: the card is changed, unmarked.
        marked.tap()
        picked = chip.locator(".card.picked")
        assert picked.get_attribute("data-face") == "L"
        note = form.locator(".pick-note")
        assert note.inner_text() == (
            "Changing L in QUIL: tap the right card on the keyboard, or tap the L again to keep it."
        )
        assert note.get_attribute("role") == "status"
        whole(page, screenshot, f"photo-entry-correcting-{width}-{scheme}")
        page.locator(".cardpad .key[data-card='t']").tap()
        assert page.input_value("#words").strip() == "qu-i-t"
        assert page.input_value("#unused") == "m"
        chip = form.locator(".word-chip", has_text="QUIT")
        assert (
            chip.locator(".card.check").count() == 0 and chip.locator(".card.picked").count() == 0
        )
        assert note.inner_text() == "L changed to T."
        # A card not marked: a tap opens its chip's menu, as ever; a tap on the card then
        # picks it, and a tap elsewhere leaves it as it was.
        left = form.locator(".word-chip.leftover")
        left.locator(".card").tap()
        assert form.get_by_role("button", name="Clear the cards left over").is_visible()
        assert form.locator(".card.picked").count() == 0
        left.locator(".card").tap()
        assert form.locator(".card.picked").get_attribute("data-face") == "M"
        form.locator("#words").tap()
        assert form.locator(".card.picked").count() == 0 and note.is_hidden()
        assert page.input_value("#unused") == "m"

        page.get_by_role("button", name="Save my hand").tap()
        page.wait_for_url(re.compile(r"/rounds/2#round-live$"))
        page.goto(url)
        assert page.input_value("#words") == "qu-i-t"
        assert page.input_value("#unused") == "m"
        assert page.locator("#seat-form .word-chip", has_text="QUIT").count() == 1
        assert page.locator("#seat-form .card.check").count() == 0  # saved: nothing to check
        assert page.locator(".seat-state .seat-what").first.inner_text() == "✓ in"
        whole(page, screenshot, f"photo-entry-saved-{width}-{scheme}")
    finally:
        context.close()


def test_undo_and_a_refusal_in_the_pages_language(live_server, browser, screenshot) -> None:
    context, page, _ = seat_page(live_server, browser, 390, "light", name="Ben")
    try:
        page.locator(".langs-menu summary").tap()
        page.locator(".langs-list a[lang=lt]").tap()
        page.wait_for_url(re.compile(r"/rounds/2$"))
        assert page.locator("html").get_attribute("lang") == "lt"
        form = page.locator("#seat-form")
        choose = form.locator(".photo-choose input")

        # Not a picture: the reader's refusal, in the page's language, by the hand.
        page.fill("#words", "d-o-g")
        page.fill("#unused", "e")
        junk = b"these are not the cards you are looking for"
        refused = page.request.post(
            live_server + READ, data=junk, headers={"Content-Type": "image/jpeg"}
        )
        assert refused.status == 400 and refused.json()["code"] == "not_a_picture"
        choose.set_input_files({**PHOTO, "buffer": junk})
        alert = form.locator(".photo-error")
        alert.wait_for()
        assert alert.get_attribute("role") == "alert"
        assert alert.inner_text() == refused.json()["error"]
        assert choose.evaluate("i => i.files.length") == 0  # not sent with Save
        assert (page.input_value("#words"), page.input_value("#unused")) == ("d-o-g", "e")
        keys_top = page.locator(".cardpad").evaluate("e => e.getBoundingClientRect().top")
        assert alert.evaluate("e => e.getBoundingClientRect().bottom") <= keys_top  # in view
        whole(page, screenshot, "photo-entry-refused-lt")

        # A picture read over a typed hand: Undo brings the typed hand back.
        choose.set_input_files({**PHOTO, "buffer": photo()})
        form.locator(".photo-read:not(.busy) .photo-status").wait_for()
        assert alert.is_hidden()
        assert page.input_value("#words").strip() == "qu-i-l"
        undo = form.locator(".photo-undo")
        assert undo.is_visible()
        assert form.locator(".card.check").count() == 1
        whole(page, screenshot, "photo-entry-read-lt")
        undo.tap()
        assert (page.input_value("#words").strip(), page.input_value("#unused")) == ("d-o-g", "e")
        assert form.locator(".card.check").count() == 0 and undo.is_hidden()
        assert form.locator(".word-chip", has_text="DOG").count() == 1
    finally:
        context.close()


def test_without_javascript_the_file_field_is_the_forms(live_server, browser, screenshot) -> None:
    """No script: the browser's own file field for each hand, named as the form's other
    fields of that hand, and nothing wider than a 320 px phone."""
    game = call(live_server, "POST", "/api/v1/games", {"players": ["Ann", "Ben"]})
    viewport = {"width": 320, "height": 640}
    context = browser.new_context(**{**PHONE, "viewport": viewport}, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(game["edit_url"])
        page.goto(f"{live_server}/games/{game['id']}/rounds/1?enter=all")
        for seat in (0, 1):
            hand = page.locator(f"#players-{seat}")
            field = hand.locator(f".photo-choose input[type=file][name=players-{seat}-photo]")
            assert field.is_visible()
            assert field.get_attribute("accept") == "image/jpeg,image/png,image/webp"
            assert hand.locator(".photo-take").is_hidden()  # its file would go nowhere
        assert page.evaluate("document.documentElement.scrollWidth") <= 320
        screenshot(page, "photo-entry-no-script-320")
    finally:
        context.close()


def test_a_photo_sent_without_a_network_leaves_the_hand_as_typed(live_server, browser) -> None:
    context, page, _ = seat_page(live_server, browser, 390, "light", name="Cy")
    try:
        page.fill("#words", "d-o-g")
        page.context.route("**" + READ, lambda route: route.abort("internetdisconnected"))
        choose = page.locator("#seat-form .photo-choose input")
        choose.set_input_files({**PHOTO, "buffer": photo()})
        alert = page.locator("#seat-form .photo-error")
        alert.wait_for()
        assert alert.inner_text().startswith("No connection: the photo couldn't be read.")
        assert page.input_value("#words") == "d-o-g"
        assert page.locator("#seat-form .photo-status").inner_text() == ""
        assert choose.evaluate("i => i.files.length") == 1  # still goes with Save
    finally:
        context.close()
