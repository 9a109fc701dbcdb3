"""App-wide error pages: JSON for the API, a short HTML page elsewhere."""

from __future__ import annotations

from flask import Flask, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

MESSAGES = {
    400: "The request could not be read.",
    403: "Only the edit link can change this game; ask whoever started it to share it.",
    404: "There is nothing at this address.",
    405: "This address does not take that kind of request.",
    413: "The request is too large.",
    500: "Something went wrong on our side; nothing was changed.",
}


def _wants_json() -> bool:
    return request.path.startswith("/api/")


def register(app: Flask) -> None:
    """Answer every HTTP error as JSON ``{"error", "where"}`` under /api/, as a page elsewhere."""

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):  # type: ignore[no-untyped-def]
        code = exc.code or 500
        message = MESSAGES.get(code, exc.description or exc.name)
        if code == 400 and exc.description and "CSRF" in exc.description:
            message = "The form expired or was sent from elsewhere; reload the page and try again."
        if _wants_json():
            return jsonify(error=message, where=""), code
        return render_template("error.html", code=code, message=message), code

    @app.errorhandler(Exception)
    def unexpected(exc: Exception):  # type: ignore[no-untyped-def]
        app.logger.exception("unhandled error")
        if _wants_json():
            return jsonify(error=MESSAGES[500], where=""), 500
        return render_template("error.html", code=500, message=MESSAGES[500]), 500
