"""Every page runs under the Content-Security-Policy with nothing refused: no inline
script, no script or style from elsewhere, nothing the browser blocks."""

from __future__ import annotations

from tests.browser.phone import PHONE
from tests.browser.test_i18n_flow import call


def test_no_page_breaks_the_content_security_policy(live_server, browser) -> None:  # type: ignore[no-untyped-def]
    game = call(live_server, "POST", "/api/v1/games", {"players": ["Ann", "Ben", "Cy"]})
    token, gid = game["edit_token"], game["id"]
    hands = [
        {"name": "Ann", "words": ["c-a-t"], "unused": [], "went_out": True},
        {"name": "Ben", "words": ["d-o-g"], "unused": []},
        {"name": "Cy", "words": ["o-x"], "unused": ["m"]},
    ]
    call(live_server, "PUT", f"/api/v1/games/{gid}/rounds/1", {"players": hands}, token)
    call(live_server, "POST", f"/api/v1/games/{gid}/rounds/1/close", None, token)
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
