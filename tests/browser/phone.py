"""The phone the browser tests and the browser benchmark use, and Chromium's flags.

Plain values, one pure function and the API call that sets games up, shared by
``conftest.py``, the browser tests and ``benchmarks/`` (which have no pytest).
"""

from __future__ import annotations

import json
import urllib.request

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


def call(base: str, method: str, path: str, body: object = None, token: str = "") -> dict:
    """One JSON call to the API of the local server at ``base`` (the scorekeeper's token when
    given): how the tests and benchmarks set a game up before a phone opens it."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, headers=headers, method=method)
    with urllib.request.urlopen(request) as answer:  # the local server
        return json.loads(answer.read() or b"{}")
