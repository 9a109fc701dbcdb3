"""Every page runs under the Content-Security-Policy with nothing refused: no inline
script, no script or style from elsewhere, nothing the browser blocks."""

from __future__ import annotations

from tests.browser.phone import PHONE
from tests.browser.test_i18n_flow import round_one_closed


def test_no_page_breaks_the_content_security_policy(live_server, browser) -> None:
    game = round_one_closed(live_server)
    token, gid = game["edit_token"], game["id"]
    context = browser.new_context(**PHONE)
    page = context.new_page()
    refused: list[str] = []
    page.on(
        "console",
        lambda message: (
            refused.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    for path in (
        "/",
        f"/games/{gid}/edit/{token}",
        f"/games/{gid}",
        f"/games/{gid}/rounds/1",
        f"/games/{gid}/rounds/2",
        "/words?word=greys",
        "/judge",
        "/score",
        "/solitaire",
        "/rules",
    ):
        answer = page.goto(live_server + path)
        assert answer is not None and answer.ok, path
        assert "script-src 'self'" in answer.headers["content-security-policy"]
        page.wait_for_load_state("load")
    assert page.evaluate("typeof window._") == "function"  # the scripts did run
    context.close()
    assert refused == []
