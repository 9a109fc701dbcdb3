"""In a real browser: a Slovak phone reads the pages in Czech, a shared link's ``?lang=``
shows its language, and the scripts write numbers as the page's language does (the minus
sign and the decimal comma of ``formatNumber``, static/i18n.js)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.phone import PHONE

pytestmark = pytest.mark.browser

MINUS = "\N{MINUS SIGN}"


def test_a_slovak_phone_reads_czech_and_its_numbers(live_server, browser):
    context = browser.new_context(**PHONE, extra_http_headers={"Accept-Language": "sk-SK,sk"})
    try:
        page = context.new_page()
        page.goto(live_server + "/rules")
        expect(page.locator("h1")).to_have_text("Jak hrát Quiddler")
        assert page.evaluate("document.documentElement.lang") == "cs"
        assert page.evaluate("formatNumber(-24)") == f"{MINUS}24"
        assert page.evaluate("formatNumber(4.71, 2)") == "4,71"
        assert page.evaluate("formatNumber(11)") == "11"
    finally:
        context.close()


@pytest.mark.parametrize(("lang", "zipf"), [("en", "4.71"), ("lt", "4,71"), ("hu", "4,71")])
def test_a_shared_link_with_lang_reads_in_that_language(live_server, browser, lang, zipf):
    context = browser.new_context(**PHONE, extra_http_headers={"Accept-Language": "cs"})
    try:
        page = context.new_page()
        page.goto(f"{live_server}/rules?lang={lang}")
        expect(page.locator("html")).to_have_attribute("lang", lang)
        assert page.evaluate("formatNumber(4.71, 2)") == zipf
        assert page.evaluate("formatNumber(-3)") == f"{MINUS}3"
        page.goto(f"{live_server}/rules")  # the link's language was for that page only
        expect(page.locator("html")).to_have_attribute("lang", "cs")
    finally:
        context.close()
