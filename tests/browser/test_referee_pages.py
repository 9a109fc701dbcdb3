"""The referee's pages in a phone-sized Chromium: check a word, and the word judge."""

from __future__ import annotations

import re

import pytest

from tests.browser.phone import PHONE

pytestmark = pytest.mark.browser


def test_check_a_word_gives_a_big_verdict_with_reason(live_server, phone, screenshot, fits_phone):
    """STEVE: not legal, a proper noun, with close legal words and its card spelling."""
    page = phone
    page.goto(live_server + "/words")
    page.fill("#word", "Steve")
    page.locator("button[type=submit]").tap()
    verdict = page.locator("#verdict")
    verdict.wait_for()
    page.wait_for_load_state()  # and its stylesheet: colours are read below
    assert page.locator(".verdict-big").inner_text() == "Not legal"
    assert page.locator(".verdict-reason").inner_text() == "Proper noun"
    suggestions = page.locator(".suggestions a").all_inner_texts()
    assert 1 <= len(suggestions) <= 3 and "STOVE" in suggestions
    assert page.locator(".spellings li").count() == 1
    assert "21" in page.locator(".spellings li").inner_text()
    red = verdict.evaluate("e => getComputedStyle(e).backgroundColor")
    assert red == "rgb(176, 0, 32)"
    fits_phone(page)
    screenshot(page, "check-word-steve")

    # A did-you-mean tap checks that word: legal, green, common, two spellings for QU words.
    page.locator(".suggestions a", has_text="STOVE").tap()
    page.wait_for_url(re.compile(r"word=stove"))
    assert page.locator(".verdict-big").inner_text() == "Legal"
    assert page.locator(".verdict-reason").inner_text() == "In dictionary"
    assert page.locator(".band").inner_text().startswith(("Common", "Uncommon"))


def test_check_a_word_remembers_the_lexicon(live_server, phone):
    """TWAS is legal only in the word-game list (ENABLE's plural of "twa"; standard calls it
    a contraction); once picked, the list stays picked on the next visit."""
    page = phone
    page.goto(live_server + "/words?word=twas")
    assert page.locator(".verdict-big").inner_text() == "Not legal"
    page.select_option("#lexicon", "wordgame")
    page.locator("button[type=submit]").tap()
    page.wait_for_url(re.compile(r"lexicon=wordgame"))
    assert page.locator(".verdict-big").inner_text() == "Legal"
    page.goto(live_server + "/words")
    assert page.input_value("#lexicon") == "wordgame"
    page.goto(live_server + "/judge")
    assert page.input_value("#lexicon") == "wordgame"


def test_word_judge_shows_red_then_clears_itself(live_server, phone, screenshot, fits_phone):
    """A play with one bad word: a full-screen red verdict that doesn't name the word."""
    page = phone
    page.clock.install()
    page.goto(live_server + "/judge")
    page.select_option("#lexicon", "standard")
    page.fill("#words", "quiz top\nsteve")
    page.select_option("#second", "wordgame")
    page.locator("button[type=submit]").tap()
    judged = page.locator("#judge-screen")
    judged.wait_for()
    page.wait_for_load_state()  # and its stylesheet: colours are read below
    assert "unacceptable" in (judged.get_attribute("class") or "")
    assert page.locator(".judge-big").inner_text() == "Not acceptable"
    text = judged.inner_text().lower()
    assert "steve" not in text and "quiz" not in text
    box = judged.bounding_box()
    assert box and box["width"] >= 390 and box["height"] >= 844  # fills the phone's screen
    assert judged.evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(176, 0, 32)"
    fits_phone(page)
    screenshot(page, "judge-red")

    page.clock.run_for(10_500)
    assert page.locator("#judge-screen").count() == 0
    assert page.input_value("#words") == ""


def test_word_judge_green_and_tap_to_clear(live_server, phone, screenshot):
    """A legal play: full-screen green; a tap clears it at once for the next play."""
    page = phone
    page.goto(live_server + "/judge")
    page.select_option("#lexicon", "standard")
    page.fill("#words", "quiz top cat")
    page.locator("button[type=submit]").tap()
    judged = page.locator("#judge-screen")
    judged.wait_for()
    page.wait_for_load_state()  # and its stylesheet: colours are read below
    assert page.locator(".judge-big").inner_text() == "Acceptable"
    assert judged.evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(11, 110, 79)"
    screenshot(page, "judge-green")
    judged.tap()
    assert page.locator("#judge-screen").count() == 0


@pytest.mark.parametrize(
    ("width", "scheme", "lang"), [(320, "light", "en"), (390, "dark", "en"), (320, "light", "lt")]
)
def test_a_british_spelling_is_legal_with_its_definition(
    live_server, browser, screenshot, fits_phone, width, scheme, lang
):
    """GREYS (refused before en_GB joined the standard list), defined as a form of GREY."""
    context = browser.new_context(
        **{**PHONE, "viewport": {"width": width, "height": 720}}, color_scheme=scheme
    )
    page = context.new_page()
    page.goto(f"{live_server}/language/{lang}?next=/words%3Fword%3Dgreys")
    page.wait_for_load_state()
    assert page.locator(".verdict-big").inner_text() in {"Legal", "Leistinas"}
    definition = page.locator(".definition")
    assert "WordNet 3.0" in definition.locator(".definition-source").inner_text()
    text = definition.inner_text().replace(".", " ")
    assert "GREYS" in text and " GREY " in text
    fits_phone(page)
    screenshot(page, f"check-word-greys-{width}-{scheme}-{lang}")
    context.close()
