"""The app installed on a phone: a valid manifest with its icons, a service worker that keeps
the app shell and a game's last pages for when the network is gone (never while it is there),
and serves the new build after a deploy; and the screen kept on while a game's page is open,
with a setting to turn that off."""

from __future__ import annotations

import re
import shutil
import struct
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import expect
from werkzeug.serving import make_server

from companion import create_app
from tests.browser.phone import PHONE
from tests.browser.test_offline import call, game_at_round_eight

pytestmark = pytest.mark.browser

STYLE = Path(__file__).resolve().parents[2] / "companion" / "static" / "style.css"


def png_size(data: bytes) -> tuple[int, int]:
    """A PNG's width and height, from its header."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_the_manifest_makes_the_app_installable(live_server, phone) -> None:
    phone.goto(live_server + "/rules")
    href = phone.locator("link[rel=manifest]").get_attribute("href")
    assert href == "/manifest.webmanifest"
    answer = phone.request.get(live_server + href)
    assert answer.ok
    assert answer.headers["content-type"].startswith("application/manifest+json")
    manifest = answer.json()
    assert manifest["name"] == "Quiddler Companion"
    assert manifest["short_name"] == "Quiddler"
    assert manifest["start_url"] == "/"
    assert manifest["display"] == "standalone"
    brand = re.search(r"--brand: (#[0-9a-f]{6})", STYLE.read_text())
    paper = re.search(r"--paper: (#[0-9a-f]{3,6})", STYLE.read_text())
    assert brand and manifest["theme_color"] == brand[1]
    assert paper and manifest["background_color"] in (paper[1], "#ffffff")
    theme = phone.locator("meta[name=theme-color]").get_attribute("content")
    assert theme == manifest["theme_color"]
    seen = set()
    for icon in manifest["icons"]:
        image = phone.request.get(live_server + icon["src"])
        assert image.ok and image.headers["content-type"] == "image/png"
        width, height = png_size(image.body())
        assert icon["sizes"] == f"{width}x{height}"
        seen.add((icon["sizes"], icon["purpose"]))
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= seen


def test_the_worker_is_served_from_the_root_and_never_kept(live_server, phone) -> None:
    answer = phone.request.get(live_server + "/sw.js")
    assert answer.ok
    assert answer.headers["content-type"].startswith("text/javascript")
    assert answer.headers["cache-control"] == "no-cache"
    build = re.search(r'var BUILD = "(\w+)";', answer.text())
    assert build is not None
    phone.goto(live_server + "/rules")
    css = phone.locator("link[rel=stylesheet]").first.get_attribute("href")
    assert css.endswith(f"?v={build[1]}")  # the worker belongs to the build the pages name


LOOKS = {
    "caches": "() => caches.keys().then(k => k.join())",
    "asked": "() => window.wake.asked",
    "released": "() => window.wake.released",
}


def until(page, look: str, wanted: object) -> bool:
    """Whether what the page sees (``LOOKS[look]``) comes to be ``wanted`` within 30 s,
    looked at in the page every 50 ms (a state the page shows, no sleep in the test)."""
    seen = page.evaluate(
        f"""async (wanted) => {{
          const look = {LOOKS[look]};
          const end = Date.now() + 30000;
          let seen = await look();
          while (seen !== wanted && Date.now() < end) {{
            await new Promise(r => setTimeout(r, 50));
            seen = await look();
          }}
          return seen;
        }}""",
        wanted,
    )
    return seen == wanted


def worker_ready(page) -> str:
    """The page's service worker once it is active: its address."""
    return page.evaluate("navigator.serviceWorker.ready.then(r => r.active.scriptURL)")


def test_the_worker_serves_the_rules_and_a_game_offline(live_server, browser) -> None:
    game = game_at_round_eight(live_server)
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        page.goto(game["view_url"])
        assert worker_ready(page) == live_server + "/sw.js"
        round_page = f"{live_server}/games/{game['id']}/rounds/8"
        page.goto(round_page)  # under the worker now: kept as it was seen
        expect(page.locator("#round-live")).to_contain_text("Hands in: 0 of 3")
        seen_tag = page.locator("#round-live").get_attribute("data-etag")
        page.goto(game["view_url"])
        expect(page.locator("h1")).to_have_text("Ann · Ben · Cy")
        kept = page.evaluate(
            "caches.keys().then(n => caches.open(n[0])).then(c => c.keys())"
            ".then(r => r.map(q => new URL(q.url).pathname))"
        )
        assert f"/games/{game['id']}" in kept and "/rules" in kept
        assert f"/games/{game['id']}/rounds/8" in kept
        assert not [k for k in kept if k.startswith("/api/") or k.endswith("/live")]
        context.set_offline(True)
        rules = page.goto(live_server + "/rules")
        assert rules is not None and rules.ok
        expect(page.locator("h1")).to_be_visible()
        # Chromium 150 keeps navigator.onLine true in a document the worker served after
        # the context went offline, until the emulation is set again (a real phone's
        # onLine follows its network): set it again, as the network would say.
        context.set_offline(False)
        context.set_offline(True)
        expect(page.locator("#offline-banner")).to_be_visible()
        page.goto(game["view_url"])
        expect(page.locator("h1")).to_have_text("Ann · Ben · Cy")
        page.goto(round_page)
        assert page.locator("#round-live").get_attribute("data-etag") == seen_tag  # as kept
        context.set_offline(False)
        # Online again: the page comes from the server, never from what was kept.
        call(
            live_server,
            "PUT",
            f"/api/v1/games/{game['id']}/rounds/8/seats/0",
            {"words": ["c-a-t"], "unused": list("abcdefg")},
            game["edit_token"],
        )
        page.goto(round_page)
        # (read before any poll: the page as served, not as the live part updates it)
        assert page.locator("#round-live").get_attribute("data-etag") != seen_tag
        expect(page.locator("#round-live")).to_contain_text("Hands in: 1 of 3")
    finally:
        context.close()


@contextmanager
def serving(apps: dict[str, object]) -> Iterator[int]:
    """``apps["now"]`` on a free loopback port until the block ends; setting ``apps["now"]``
    to another app is a deploy at the same address. (Not a second server on the port the
    first let go: between the two, another process's connection may take it.)"""

    def now(environ, start_response):
        return apps["now"](environ, start_response)

    server = make_server("127.0.0.1", 0, now, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_port
    finally:
        server.shutdown()
        server.server_close()


def test_after_a_deploy_the_worker_serves_the_new_build(
    browser, tmp_path, lexicon_cache, template_database
) -> None:
    """The same address served by one build, then by the next (the process restarted with
    other files, simulated by another build id): the phone gets the new pages at once, the
    new worker takes over and the old build's caches are gone."""
    shutil.copyfile(template_database, tmp_path / "deploy.sqlite3")
    config = {
        "SECRET_KEY": "deploy",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'deploy.sqlite3'}",
        "LEXICON_DIR": str(tmp_path / "lexicons"),
        "LEXICON_CACHE_DIR": str(lexicon_cache),
        "RATELIMIT_ENABLED": False,
    }
    old, new = create_app(config), create_app(config)
    new.config["BUILD"] = "next000001"
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        apps = {"now": old}
        with serving(apps) as port:
            base = f"http://127.0.0.1:{port}"
            page.goto(base + "/rules")
            worker_ready(page)
            assert page.evaluate("caches.keys()") == [f"quiddler-{old.config['BUILD']}"]
            apps["now"] = new  # the deploy: the same address, the next build
            page.goto(base + "/rules")  # online: the new build's page, at once
            css = page.locator("link[rel=stylesheet]").first.get_attribute("href")
            assert css.endswith("?v=next000001")
            assert until(page, "caches", "quiddler-next000001")
            context.set_offline(True)
            offline = page.goto(base + "/rules")
            assert offline is not None and offline.ok
            css = page.locator("link[rel=stylesheet]").first.get_attribute("href")
            assert css.endswith("?v=next000001")  # the new build's page, kept by the new worker
            assert page.evaluate("getComputedStyle(document.body).margin") == "0px"  # styled
            context.set_offline(False)
    finally:
        context.close()


WAKE_LOCK_SPY = """
window.wake = { asked: 0, released: 0 };
(() => {
  const real = navigator.wakeLock ? navigator.wakeLock.request.bind(navigator.wakeLock) : null;
  function sentinel() {  // what a phone's browser answers (headless Chromium may refuse)
    const s = new EventTarget();
    s.released = false;
    s.type = "screen";
    s.release = () => {
      s.released = true;
      s.dispatchEvent(new Event("release"));
      return Promise.resolve();
    };
    return s;
  }
  const spy = { request(type) {
    window.wake.asked += 1;
    const asked = real ? real(type).catch(() => sentinel()) : Promise.resolve(sentinel());
    return asked.then(s => {
      const release = s.release.bind(s);
      s.release = () => { window.wake.released += 1; return release(); };
      return s;
    });
  } };
  Object.defineProperty(Navigator.prototype, "wakeLock", { get: () => spy, configurable: true });
})();
"""


def test_the_screen_is_kept_on_on_a_game_page_unless_turned_off(live_server, browser) -> None:
    game = game_at_round_eight(live_server)
    context = browser.new_context(**PHONE)
    context.add_init_script(WAKE_LOCK_SPY)
    try:
        page = context.new_page()
        page.goto(live_server + "/rules")  # not a game's page: the screen behaves as usual
        expect(page.locator("h1")).to_be_visible()
        assert page.evaluate("window.wake.asked") == 0
        assert page.locator("#wake-toggle").count() == 0
        page.goto(game["view_url"])
        toggle = page.get_by_label("Keep the screen on while this page is open")
        expect(toggle).to_be_checked()
        assert until(page, "asked", 1)
        toggle.tap()
        expect(toggle).not_to_be_checked()
        assert until(page, "released", 1)
        page.goto(f"{live_server}/games/{game['id']}/rounds/8")  # remembered by the phone
        expect(page.get_by_label("Keep the screen on while this page is open")).not_to_be_checked()
        page.locator("main").tap()
        assert page.evaluate("window.wake.asked") == 0
        page.get_by_label("Keep the screen on while this page is open").tap()
        assert until(page, "asked", 1)
    finally:
        context.close()


def test_the_screen_is_let_go_after_ten_idle_minutes(live_server, browser) -> None:
    """Nobody touched the phone for ten minutes: the screen may go dark as usual; the next
    touch keeps it on again. (The page's clock is Playwright's, moved on by hand.)"""
    game = game_at_round_eight(live_server)
    context = browser.new_context(**PHONE)
    context.add_init_script(WAKE_LOCK_SPY)
    try:
        page = context.new_page()
        page.clock.install()
        page.goto(game["view_url"])
        expect(page.get_by_label("Keep the screen on while this page is open")).to_be_checked()
        assert until(page, "asked", 1)
        page.clock.fast_forward("09:00")
        assert page.evaluate("window.wake.released") == 0  # nine minutes: still on
        page.clock.fast_forward("02:00")
        assert until(page, "released", 1)
        page.locator("h1").tap()
        assert until(page, "asked", 2)
    finally:
        context.close()
