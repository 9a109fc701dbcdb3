"""The headers every answer carries, so a page of ours can't be framed, sniffed or
leaked to another site, and runs only the scripts we serve.

The pages have no inline script (the translations' catalog is a JSON data block,
which no browser runs); the leaderboard's chart sets colours in ``style``
attributes, hence ``'unsafe-inline'`` for styles only.
"""

from __future__ import annotations

from flask import Flask, Response

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; object-src 'none'; base-uri 'self'; form-action 'self'; "
    "frame-ancestors 'none'"
)
HEADERS = {
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


def register(app: Flask) -> None:
    """Add the headers to every answer (``CONTENT_SECURITY_POLICY`` may replace ours)."""
    policy = app.config.get("CONTENT_SECURITY_POLICY") or CONTENT_SECURITY_POLICY

    @app.after_request
    def secure(response: Response) -> Response:
        for name, value in HEADERS.items():
            response.headers.setdefault(name, value)
        response.headers.setdefault("Content-Security-Policy", policy)
        return response
