"""The leaderboard's polls, answered before Flask when nothing changed.

Every phone at every table asks for ``/games/<id>/board?lang=<xx>`` every 3 seconds with
the ETag it holds, and nearly every answer is 304. Through Flask a 304 costs the
session cookie's signature, the locale, the request hooks and the response's: most of a
millisecond, which at 1,000 tables (2,000 polls a second) is the whole server. This WSGI
layer answers those polls itself: the game's version (store.game_version, cached for a
second and forgotten on this process's own writes) and the language in the address (the
one the page was rendered in, see ``games.board``) are all a 304 needs. Anything else,
and any poll whose tag is out of date, goes on to Flask as before: a new board, a 404, a
stranger's Host refused with 400.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import parse_qs

from flask import Flask

from companion import store
from companion.web.headers import CONTENT_SECURITY_POLICY, HEADERS
from companion.web.i18n import LANGUAGES
from companion.web.links import host_allowed, trusted_hosts

BOARD = re.compile(r"/games/([A-Za-z0-9_-]{1,64})/board")

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def board_tag(game_id: str, version: int, lang: str) -> str:
    """The leaderboard's entity tag (unquoted) at ``version`` in ``lang``: a copy held in
    one language is never "not modified" in another."""
    return f"{game_id}-{version}-{lang}"


class QuickNotModified:
    """WSGI middleware: a board poll still current gets its 304 here (with the headers
    every answer carries); every other request goes to ``wsgi_app``."""

    def __init__(self, app: Flask, wsgi_app: WSGIApp) -> None:
        self.app = app
        self.wsgi_app = wsgi_app
        self.policy = app.config.get("CONTENT_SECURITY_POLICY") or CONTENT_SECURITY_POLICY

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        answer = self._not_modified(environ)
        if answer is None:
            return self.wsgi_app(environ, start_response)
        start_response("304 Not Modified", answer)
        return []

    def _not_modified(self, environ: dict[str, Any]) -> list[tuple[str, str]] | None:
        """The 304's headers, or None when Flask must answer."""
        held = environ.get("HTTP_IF_NONE_MATCH")
        if not held or environ.get("REQUEST_METHOD") != "GET":
            return None
        match = BOARD.fullmatch(environ.get("PATH_INFO", ""))
        if match is None:
            return None
        lang = parse_qs(environ.get("QUERY_STRING", "")).get("lang", [""])[-1]
        if lang not in LANGUAGES:
            return None  # an address without the language: Flask works it out
        host = environ.get("HTTP_HOST") or environ.get("SERVER_NAME", "")
        if not host_allowed(host, trusted_hosts(self.app.config)):
            return None  # Flask refuses it (400)
        game_id = match[1]
        with self.app.app_context():
            version = store.game_version(game_id)
        if version is None:
            return None
        tag = f'"{board_tag(game_id, version, lang)}"'
        if tag not in (t.strip().removeprefix("W/") for t in held.split(",")):
            return None
        return [
            ("ETag", tag),
            ("Cache-Control", "no-cache"),
            *HEADERS.items(),
            ("Content-Security-Policy", self.policy),
        ]
