"""``GET /favicon.ico``: the app's icon where browsers look for it without being told.

The icon is ``static/icon.svg``; ``static/favicon.ico`` is the same drawing at 16, 32
and 48 px, made once with Pillow (the same shapes drawn at 4x and scaled down), for the
browsers and home screens that want a bitmap.
"""

from __future__ import annotations

from flask import Blueprint, Response, current_app, send_from_directory

bp = Blueprint("icon", __name__)

ICON_MAX_AGE = 30 * 24 * 3600
"""Seconds a browser keeps the icon: it changes about never, and every page asks for it."""


@bp.get("/favicon.ico")
def favicon() -> Response:
    """The icon, kept by the browser for a month."""
    return send_from_directory(
        current_app.static_folder or "static",
        "favicon.ico",
        mimetype="image/vnd.microsoft.icon",
        max_age=ICON_MAX_AGE,
    )
