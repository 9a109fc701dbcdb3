"""Errors mapped once: every refusal and HTTP error, for the API and for the pages.

Under ``/api/`` a refusal is JSON ``{"error", "where", "code", "params"}`` with its
status (RuleError 422, ShapeError 400, Forbidden 403, NotFound 404, Conflict 409).
A page that declares how it shows itself again (``@shows_refusals(render)``) is
rendered again with the message next to the field it names and what the person
typed still in the form; any other page gets the error page with the message.
No view catches refusals of its own, and nothing answers 500 for one. The error page
of a game's page offers the way back to that game first.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from flask import (
    Flask,
    Response,
    abort,
    current_app,
    jsonify,
    make_response,
    render_template,
    request,
    url_for,
)
from flask_limiter import RateLimitExceeded
from sqlalchemy.exc import OperationalError, SQLAlchemyError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from werkzeug.exceptions import BadHost, HTTPException, MethodNotAllowed

from companion import store
from companion.game.errors import Refusal
from companion.store.db import db
from companion.web import messages
from companion.web.extensions import too_many

HTTP_CODES = {
    400: "bad_request",
    403: "edit_link_needed",
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
    429: "too_many_requests",
    500: "server_error",
    503: "server_busy",
}

BUSY_RETRY_S = 2
"""Seconds a request refused for want of a database connection is asked to wait
(Retry-After)."""

F = TypeVar("F", bound=Callable[..., Any])

MIB = 1024 * 1024


@dataclass(frozen=True)
class Shown:
    """A refusal as a page shows it: the message, and the form field it belongs to."""

    message: str
    where: str = ""
    field: str = ""

    @classmethod
    def of(cls, exc: Refusal, field: str | None = None) -> Shown:
        """``exc`` rendered; ``field`` is the id of the form field (default: its path)."""
        where = messages.writable(exc.where)  # a JSON path may name a key of the request
        return cls(messages.text(exc), where, where if field is None else messages.writable(field))


def field_id(where: str) -> str:
    """The form field id of a request path: ``players[1].words`` -> ``players-1-words``."""
    return re.sub(r"\[(\d+)\]", r"-\1", where).replace(".", "-")


def shows_refusals(render: Callable[..., Response | str]) -> Callable[[F], F]:
    """Declare how a page shows itself again after a refusal: ``render(exc, **view_args)``."""

    def mark(view: F) -> F:
        view.__dict__["refusal_page"] = render  # a function attribute, read by _refused
        return view

    return mark


def wants_json() -> bool:
    """Whether the request is the API's (JSON) rather than a page's."""
    return request.path.startswith("/api/")


def _jsonable(value: object) -> object:
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    return str(value)


def refusal_json(exc: Refusal) -> dict[str, object]:
    """The API's error body for ``exc``."""
    return {
        "error": messages.text(exc),
        "where": exc.where,
        "code": exc.code,
        "params": {k: _jsonable(v) for k, v in exc.params.items()},
    }


SHOWN_ON_THE_PAGE = (400, 409, 422)
"""Refusals a page shows on itself again; others (403, 404) get the error page."""


def _refused(exc: Refusal, on_the_page: bool = True) -> Response:
    db.session.rollback()  # a refused write leaves nothing behind in this session
    if wants_json():
        return make_response(jsonify(refusal_json(exc)), exc.status)
    view = current_app.view_functions.get(request.endpoint or "")
    render = getattr(view, "refusal_page", None)
    if render is not None and on_the_page and exc.status in SHOWN_ON_THE_PAGE:
        try:
            page = render(exc, **(request.view_args or {}))
        except Refusal as again:  # the page itself can't be shown (its game is gone...)
            return _error_page(again)
        return make_response(page, exc.status, {"Cache-Control": "no-store"})
    return _error_page(exc)


GAME_PATH = re.compile(r"/(games|solitaire)/([^/]+)")
"""The start of every page's path that belongs to a game or a solitaire game."""


def game_page_of(path: str) -> str | None:
    """The page of the game (or solitaire game) ``path`` belongs to, if that game exists
    and it is not the failing page itself: the way back from an error on one of its pages."""
    found = GAME_PATH.match(path)
    if not found:
        return None
    kind, game_id = found.groups()
    try:
        if kind == "games":
            store.game_version(game_id)  # NotFound for "new" too: no game has that id
            back = url_for("games.view", game_id=game_id)
        else:
            store.get_solitaire(game_id)
            back = url_for("solitaire.show", game_id=game_id)
    except (Refusal, SQLAlchemyError):  # no such game, or the database is what failed
        db.session.rollback()
        return None
    return None if back == request.script_root + path else back


def _error_page(exc: Refusal) -> Response:
    db.session.rollback()
    page = None
    if not isinstance(request.routing_exception, BadHost):
        # No way back looked up when the database is what failed: it would wait for it again.
        back = None if exc.status == 503 else game_page_of(request.path)
        try:
            page = render_template("error.html", code=exc.status, error=Shown.of(exc), back=back)
        except Exception:  # the page itself failed: the plain one, not a server's bare 500
            current_app.logger.exception("the error page failed")
    if page is None:
        # Or a Host no URL can be bound to (``a..b``, a label over 63 characters): the page
        # without a link, which needs no address built.
        page = render_template("error_plain.html", code=exc.status, error=Shown.of(exc))
    return make_response(page, exc.status, {"Cache-Control": "no-store"})


def _http_error(exc: HTTPException) -> Response:
    if isinstance(exc, RateLimitExceeded):  # says what was limited, and when to try again
        refusal = too_many(exc)
        response = _refused(refusal, on_the_page=False)
        response.headers["Retry-After"] = str(refusal.params["retry_after"])
        return response
    status = exc.code or 500
    limit = _file_limit() if status == 413 else None
    if limit is not None:  # a file over its page's limit: say how big one may be
        refusal = Refusal("file_too_large", "file", most=limit // MIB)
        refusal.status = 413
        return _refused(refusal, on_the_page=False)
    code = HTTP_CODES.get(status, "bad_request")
    if status == 400 and exc.description and "CSRF" in exc.description:
        code = "form_expired"
    response = _status(code, status)
    if isinstance(exc, MethodNotAllowed) and exc.valid_methods:
        response.headers["Allow"] = ", ".join(exc.valid_methods)
    return response


def _status(code: str, status: int) -> Response:
    """Refusal ``code`` answered with HTTP ``status``: JSON, or the error page."""
    refusal = Refusal(code)
    refusal.status = status
    return _refused(refusal, on_the_page=False)


def _unexpected(exc: Exception) -> Response:
    current_app.logger.exception("unhandled error")
    return _status("server_error", 500)


def _busy(exc: PoolTimeout | OperationalError) -> Response:
    """The database could not serve this request: every connection of this process
    stayed taken for the pool's whole wait (a burst), or the database refused one
    (PostgreSQL's "too many clients"), broke one off (a restart) or gave up on the
    statement (an OperationalError): 503 with Retry-After, nothing written (the request's
    work is rolled back), not a 500."""
    current_app.logger.warning("no database connection: %s", exc)
    response = _status("server_busy", 503)
    response.headers["Retry-After"] = str(BUSY_RETRY_S)
    return response


def takes_file(limit: int) -> Callable[[F], F]:
    """Declare a page whose form sends a file (the import of a backup): its body may be
    ``limit`` bytes, above the app's ``MAX_CONTENT_LENGTH``; a bigger one is refused
    with ``file_too_large`` (413) before it is read."""

    def mark(view: F) -> F:
        view.__dict__["file_limit"] = limit  # a function attribute, read below
        return view

    return mark


def file_limits(app: Flask) -> list[int]:
    """The body limits of the app's pages that take a file (what a server in front of the
    app must read of their bodies)."""
    found = (getattr(view, "file_limit", None) for view in app.view_functions.values())
    return [limit for limit in found if isinstance(limit, int)]


def _file_limit() -> int | None:
    """The body limit of this request's page, when it takes a file (``takes_file``)."""
    view = current_app.view_functions.get(request.endpoint or "")
    limit = getattr(view, "file_limit", None)
    return limit if isinstance(limit, int) else None


def refuse_unreadable_forms() -> None:
    """What no page's form sends is a bad request, before anything reads its fields: a
    JSON body (Flask-WTF would read it as the form, values of any type), a file (but
    to a page that takes one), a field name that can't be read (a part name holding a
    line break comes out as None)."""
    if wants_json() or request.method not in ("POST", "PUT", "PATCH", "DELETE"):
        return
    limit = _file_limit()
    if limit is not None:
        request.max_content_length = limit  # read nothing of a bigger body: 413
    files = request.files and limit is None
    if request.is_json or files or any(not isinstance(k, str) for k in request.form):
        abort(400)  # the error page: the page itself would read the form again


def register(app: Flask) -> None:
    """Install the handlers: refusals, HTTP errors, and the last resort."""
    app.register_error_handler(Refusal, _refused)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(PoolTimeout, _busy)
    app.register_error_handler(OperationalError, _busy)
    app.register_error_handler(Exception, _unexpected)
