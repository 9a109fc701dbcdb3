"""A live server on a loopback port and Debian's Chromium driven by Playwright at phone size.

No browser is downloaded: Playwright launches the system's ``chromium``. On CI
(``REQUIRE_BROWSER=1``) a missing Chromium is an error, elsewhere a skip.
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from companion import create_app
from tests.browser.phone import CHROMIUM_FLAGS, PHONE, disable_features, playwright_features

SCREENSHOTS = Path(__file__).parent / "screenshots"


def disable_features_flag(pw, executable: str, cache) -> list[str]:
    """``--disable-features`` with Playwright's own list and ours (``phone.disable_features``).
    That list is read off a first browser's command line once per Playwright version (kept
    in pytest's cache); empty if it can't be read."""
    from importlib.metadata import version

    from playwright.sync_api import Error

    key = f"quiddler/chromium-disable-features/{version('playwright')}"
    features = cache.get(key, None) if cache is not None else None
    if features is None:
        probe = pw.chromium.launch(
            executable_path=executable, args=[*CHROMIUM_FLAGS, "--enable-automation"]
        )
        try:
            line = probe.new_browser_cdp_session().send("Browser.getBrowserCommandLine")
        except Error:
            return []
        finally:
            probe.close()
        features = playwright_features(line["arguments"])
        if not features:
            return []
        if cache is not None:
            cache.set(key, features)
    return disable_features(features)


BOARD_POLL_MS = 300
"""The leaderboard pages ask for the board this often (the app's default is 3 s), so a
test waiting for a watching phone to catch up waits a fraction of a second."""


@pytest.fixture(scope="session")
def live_server(
    tmp_path_factory: pytest.TempPathFactory, lexicon_cache: Path, template_database: Path
) -> Iterator[str]:
    """The real app, CSRF on, served by a thread on a free loopback port."""
    folder = tmp_path_factory.mktemp("live")
    shutil.copyfile(template_database, folder / "live.sqlite3")
    app = create_app(
        {
            "SECRET_KEY": "browser-tests",
            "AUTO_MIGRATE": False,
            "DATABASE_URL": f"sqlite:///{folder / 'live.sqlite3'}",
            "LEXICON_DIR": str(folder / "lexicons"),
            "LEXICON_CACHE_DIR": str(lexicon_cache),
            "BOARD_POLL_MS": BOARD_POLL_MS,
        }
    )
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


@pytest.fixture(scope="session")
def browser(pytestconfig: pytest.Config) -> Iterator[object]:
    """Headless Chromium from the system; skipped (or failed on CI) when it is missing."""
    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    if executable is None:
        if os.environ.get("REQUIRE_BROWSER") or os.environ.get("CI"):
            pytest.fail("Chromium is not installed (apt-get install chromium)")
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import expect, sync_playwright

    # A check of what the page shows waits as long as an action does (Playwright's 30 s,
    # not expect's 5 s): a busy machine makes a page slow, never wrong.
    expect.set_options(timeout=30_000)
    with sync_playwright() as pw:
        cache = getattr(pytestconfig, "cache", None)  # none with -p no:cacheprovider
        flags = [*CHROMIUM_FLAGS, *disable_features_flag(pw, executable, cache)]
        browser = pw.chromium.launch(executable_path=executable, args=flags)
        yield browser
        browser.close()


@pytest.fixture
def phone(browser):
    """A fresh phone-sized, touch-enabled page."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    yield page
    context.close()


def _screenshot(page, name: str) -> None:
    """Save a full-page screenshot for people to look at (git-ignored), one image pixel
    per CSS pixel: the whole page as the phone lays it out, at a quarter of the device's
    pixels (2x), which the browser encodes three times faster (a long page at 2x costs it
    nearly half a second of CPU)."""
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True, scale="css")


def _no_screenshot(page, name: str) -> None:
    """With ``--no-screenshots``: nothing."""


def _assert_fits_phone(page) -> None:
    """Nothing scrolls sideways at 390 px."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"page is {width}px wide: it scrolls sideways on a phone"


@pytest.fixture
def screenshot(pytestconfig: pytest.Config):
    """``screenshot(page, name)`` saves the page under tests/browser/screenshots/ (unless
    the run was given ``--no-screenshots``), for a person to open and look at."""
    return _no_screenshot if pytestconfig.getoption("no_screenshots") else _screenshot


@pytest.fixture
def fits_phone():
    """``fits_phone(page)`` fails when the page scrolls sideways at 390 px."""
    return _assert_fits_phone
