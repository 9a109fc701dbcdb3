"""The one exception type of the rules: a message a player can act on, and where."""

from __future__ import annotations


class RuleError(ValueError):
    """Input that breaks a rule of Quiddler (HTTP 422 at the API).

    ``where`` is the path of the offending field in the request, for example
    ``players[1].words[0][2]``; the API returns it and the forms use it to put
    the message next to the field.
    """

    status = 422

    def __init__(self, message: str, where: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.where = where


class ShapeError(RuleError):
    """Input of the wrong shape or type (HTTP 400): not a rule, a malformed request."""

    status = 400
