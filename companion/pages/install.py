"""The app as an installed phone app: ``/manifest.webmanifest`` (name, colours, icons) and
``/sw.js``, the service worker (static/sw.js with its build and the app shell's addresses),
served from the site's root so that its scope is every page.

The icons are static/icon.svg drawn at 192 and 512 px, and at 512 px on a full square of the
app's colour with the card scaled to 72 %, its corners inside the middle circle of 80 % (the
"maskable" safe zone a home screen crops to a circle or a rounded square). They were made
once with Chromium: Playwright's screenshot of each SVG at its size, transparent outside the
card (the maskable one opaque).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from flask import Blueprint, Response, current_app, url_for

bp = Blueprint("install", __name__)

STATIC = Path(__file__).resolve().parent.parent / "static"
THEME = "#1d3557"
"""The top bar's colour (style.css ``--brand``), the phone's status bar in the app."""
BACKGROUND = "#ffffff"
"""The page's colour (style.css ``--paper``), the splash screen's."""
ICONS = (
    ("icon-192.png", "192x192", "any"),
    ("icon-512.png", "512x512", "any"),
    ("icon-maskable-512.png", "512x512", "maskable"),
)


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """The web app manifest: the browser offers to install the app from it."""
    body = {
        "name": "Quiddler Companion",
        "short_name": "Quiddler",
        "id": "/",
        "start_url": url_for("games.home"),
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME,
        "background_color": BACKGROUND,
        "icons": [
            {
                "src": url_for("static", filename=name),
                "sizes": sizes,
                "type": "image/png",
                "purpose": purpose,
            }
            for name, sizes, purpose in ICONS
        ],
    }
    response = Response(json.dumps(body, indent=1), mimetype="application/manifest+json")
    response.headers["Cache-Control"] = "no-cache"
    return response


@cache
def shell_files() -> tuple[str, ...]:
    """The static files of the app shell (styles, scripts, icons), listed once per process:
    a deploy starts new processes."""
    return tuple(
        sorted(
            p.name
            for p in STATIC.iterdir()
            if p.suffix in (".css", ".js", ".svg", ".png") and p.name != "sw.js"
        )
    )


@cache
def worker_source() -> str:
    """static/sw.js, read once per process."""
    return (STATIC / "sw.js").read_text(encoding="utf-8")


def shell() -> list[str]:
    """What the worker keeps at install: the styles, scripts and icons at this build's
    addresses, and the rules page (readable at a table with no network)."""
    names = shell_files()
    return [url_for("static", filename=name) for name in names] + [url_for("rules.show")]


@bp.get("/sw.js")
def worker() -> Response:
    """The service worker for this build; asked again by the browser on each visit
    (no-cache), so a deploy's worker replaces the old one."""
    build = json.dumps(current_app.config["BUILD"])
    head = f"var BUILD = {build};\nvar SHELL = {json.dumps(shell())};\n"
    body = head + worker_source()
    response = Response(body, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Service-Worker-Allowed"] = "/"
    return response
