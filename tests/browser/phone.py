"""The phone the browser tests and the browser benchmark use, and Chromium's flags.

Plain values and one pure function, shared by ``conftest.py`` and
``benchmarks/seat_entry.py`` (which has no pytest).
"""

from __future__ import annotations

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]

UNSEEN_FEATURES = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "WebUIOmniboxFullPopup")
"""Headless Chromium still preloads the address bar's popup, a WebUI page with a renderer of
its own, in every window: more CPU than the pages under test. Nobody sees it."""


def playwright_features(command_line: list[str]) -> list[str]:
    """The features Playwright disables, read off a browser's command line."""
    given = [a for a in command_line if a.startswith("--disable-features=")]
    return [f for f in given[-1].split("=", 1)[1].split(",") if f] if given else []


def disable_features(features: list[str]) -> list[str]:
    """``--disable-features`` with Playwright's ``features`` and ``UNSEEN_FEATURES``: Chromium
    keeps only the last ``--disable-features`` it is given, so ours must repeat Playwright's."""
    return ["--disable-features=" + ",".join(dict.fromkeys([*features, *UNSEEN_FEATURES]))]
