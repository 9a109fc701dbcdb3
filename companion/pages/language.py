"""The language switch on every page: the phone keeps its choice in its session."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from flask import Blueprint, abort, redirect, request, session
from werkzeug.wrappers import Response as BaseResponse

from companion.web.i18n import LANGUAGES

bp = Blueprint("language", __name__)


def _back(target: str | None) -> str:
    """Where to go back to: a path of this site only (never another site's address).

    Judged as a browser reads it: browsers drop tabs and line breaks from an address and
    read a backslash as a slash, so a slash, a tab and ``/evil.example`` would take the
    phone to ``//evil.example``. Any control character, space or backslash sends it home.
    """
    if not target or any(c.isspace() or c < " " or c == "\x7f" or c == "\\" for c in target):
        return "/"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return "/"
    return _without_lang(target)


def _without_lang(target: str) -> str:
    """``target`` without its ``?lang=`` (a shared link's language), which would otherwise
    outrank the language just chosen on the page it goes back to."""
    parts = urlsplit(target)
    query = parse_qsl(parts.query, keep_blank_values=True)
    if not any(name == "lang" for name, _value in query):
        return target
    kept = urlencode([(name, value) for name, value in query if name != "lang"])
    return urlunsplit(("", "", parts.path, kept, parts.fragment))


@bp.get("/language/<code>")
def choose(code: str) -> BaseResponse:
    """Speak ``code`` on this phone from now on, and go back to the page it was on."""
    if code not in LANGUAGES:
        abort(404)
    session["lang"] = code
    session.permanent = True
    return redirect(_back(request.args.get("next")))
