"""The leaderboard's polls, answered before Flask when the board is known.

Every phone at every table asks for ``/games/<id>/board?lang=<xx>`` every 3 seconds with
the ETag it holds, and nearly every answer is 304. Through Flask a 304 costs the
session cookie's signature, the locale, the request hooks and the response's: most of a
millisecond, which at 1,000 tables (2,000 polls a second) is the whole server. This WSGI
layer answers those polls itself: the game's version (store.game_version, cached for a
second and forgotten on this process's own writes; from the app's ``versions.Watch``
alone, without an app context, while no look is due) and the language in the address (the
one the page was rendered in, see ``games.board``) are all a 304 needs. After a save, the
table's phones all ask for the new board: when it is already rendered (kept in this
process, or by the save among the shared views: ``Rendered.shared_copy``), this layer
answers the 200 too, with what Flask's ``games.board`` would send. Anything else (a board to
render, a 404, a stranger's Host refused with 400) goes on to Flask as before.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import parse_qs

from flask import Flask
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.exceptions import HTTPException
from werkzeug.http import parse_etags
from werkzeug.routing import RequestRedirect

from companion import store, versions
from companion.web import rendered
from companion.web.headers import CONTENT_SECURITY_POLICY, HEADERS
from companion.web.i18n import LANGUAGES
from companion.web.links import host_allowed, trusted_hosts
from companion.web.present import etag

KEPT_PATHS = 20_000
"""Board paths whose game is kept, per process (more than 1,000 tables' worth)."""

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


class QuickNotModified:
    """WSGI middleware: a board poll gets its 304, or the board already rendered, here (with
    the headers every answer carries); every other request goes to ``wsgi_app``."""

    def __init__(self, app: Flask, wsgi_app: WSGIApp) -> None:
        self.app = app
        self.wsgi_app = wsgi_app
        self.policy = app.config.get("CONTENT_SECURITY_POLICY") or CONTENT_SECURITY_POLICY
        self.urls = app.url_map.bind("localhost")  # the app's own routes: one address to know
        self._boards: dict[str, str] = {}  # path -> game id, for the paths of boards
        self._watch: versions.Watch | None = None  # the app's, once a poll asked it

    def _board_of(self, path: str) -> str | None:
        """The game whose board ``path`` asks for, by the app's routes; else None. Kept
        per path (the same few thousand boards are asked for again every 3 seconds, and
        matching a path against every route is a tenth of a poll's time)."""
        if path in self._boards:
            return self._boards[path]
        try:
            endpoint, values = self.urls.match(path, "GET")
        except (HTTPException, RequestRedirect):
            return None
        game_id = str(values["game_id"]) if endpoint == "games.board" else None
        if game_id is not None:
            if len(self._boards) >= KEPT_PATHS:
                self._boards.clear()  # a flood of made-up addresses: start again
            self._boards[path] = game_id
        return game_id

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        answer = self._answer(environ)
        if answer is None:
            return self.wsgi_app(environ, start_response)
        status, headers, body = answer
        start_response(status, headers)
        return [body] if body else []

    def _answer(self, environ: dict[str, Any]) -> tuple[str, list[tuple[str, str]], bytes] | None:
        """The status, headers and body of a board poll answered here, or None when Flask
        must answer."""
        if environ.get("REQUEST_METHOD") != "GET":
            return None
        game_id = self._board_of(environ.get("PATH_INFO", ""))
        if game_id is None:
            return None
        lang = parse_qs(environ.get("QUERY_STRING", "")).get("lang", [""])[-1]
        if lang not in LANGUAGES:
            return None  # an address without the language: Flask works it out
        host = environ.get("HTTP_HOST") or environ.get("SERVER_NAME", "")
        if not host_allowed(host, trusted_hosts(self.app.config)):
            return None  # Flask refuses it (400)
        version = self._watch.remembered(game_id) if self._watch else None
        if version is None:  # the database may be needed: through the app
            try:
                with self.app.app_context():
                    self._watch = versions.watch()
                    version = store.game_version(game_id)
            except SQLAlchemyError:
                return None  # Flask answers (503 when every connection stayed taken), logged
        if version is None:
            return None
        tag = etag(game_id, version, lang)
        headers = [
            ("ETag", f'"{tag}"'),
            ("Cache-Control", "no-cache"),
            *HEADERS.items(),
            ("Content-Security-Policy", self.policy),
        ]
        held = environ.get("HTTP_IF_NONE_MATCH")
        if held and parse_etags(held).contains_weak(tag):
            return "304 Not Modified", headers, b""
        body = self._board(game_id, version, lang)
        if body is None:
            return None  # to render: Flask does
        data = body.encode()
        return (
            "200 OK",
            [
                ("Content-Type", "text/html; charset=utf-8"),
                ("Content-Length", str(len(data))),
                *headers,
            ],
            data,
        )

    def _board(self, game_id: str, version: int, lang: str) -> str | None:
        """The board of ``game_id`` at ``version`` in ``lang`` if it is rendered already:
        kept in this process, or among the shared views (one row read); else None."""
        key, shared = rendered.board_at(game_id, version, lang)
        body = rendered.pages.get(key)
        if body is None and self.app.config.get("SHARE_RENDERED"):
            try:
                with self.app.app_context():
                    body = rendered.pages.shared_copy(key, shared)
            except SQLAlchemyError:
                return None  # Flask answers, logged
        return body
