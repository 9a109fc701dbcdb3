"""Refusals as data: a stable ``code``, its parameters, and the field they concern.

Nothing here holds a sentence. The words a person reads are rendered from the
code and the parameters at the edge (the catalog ``companion/web/refusals.py``,
rendered by ``companion/web/messages.py``), in the reader's language; the API sends
the code as it is, so a script can rely on it.
"""

from __future__ import annotations


class Refusal(Exception):
    """Something the Companion won't do, and why: ``code``, ``params`` and ``where``.

    ``where`` is the path of the offending field in the request, for example
    ``players[1].words[0][2]``; the API returns it and the pages use it to put
    the message next to the field. ``status`` is the HTTP status it maps to.
    """

    status = 400

    def __init__(self, code: str, where: str = "", **params: object) -> None:
        super().__init__(code)
        self.code = code
        self.where = where
        self.params = params

    def __str__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"{self.code}({shown})" + (f" at {self.where}" if self.where else "")


class RuleError(Refusal):
    """Input that breaks a rule of Quiddler (HTTP 422)."""

    status = 422


class ShapeError(RuleError):
    """Input of the wrong shape or type (HTTP 400): not a rule, a malformed request."""

    status = 400


class NotFound(Refusal):
    """No such game, round, challenge or house word (HTTP 404)."""

    status = 404


class Forbidden(Refusal):
    """A change without the right to make it (HTTP 403)."""

    status = 403


class Conflict(Refusal):
    """What the request was based on changed meanwhile, on another phone (HTTP 409)."""

    status = 409


class UnsupportedMedia(Refusal):
    """A body that isn't declared as JSON (HTTP 415): another site's page can send
    text/plain without asking, JSON only after the browser's preflight."""

    status = 415
