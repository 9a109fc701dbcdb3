"""The session cookie: Flask's signed cookie, marked Secure whenever the request came
over HTTPS (directly, or through a proxy ``TRUSTED_PROXIES`` vouches for), not only
when ``PUBLIC_URL`` says https; and every session written holds a random ``id``, the
client the rate limits count (``web/extensions.py``)."""

from __future__ import annotations

import secrets

from flask import Flask, request
from flask.sessions import SecureCookieSessionInterface, SessionMixin
from flask.wrappers import Response


class SessionCookie(SecureCookieSessionInterface):
    """Secure when configured so or when this request is HTTPS; SameSite comes from
    ``SESSION_COOKIE_SAMESITE`` (Lax: not sent with another site's forms or frames)."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or request.is_secure

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        """Write the session as Flask does, with an ``id`` added the first time it is
        written (a session that is written anyway: no answer gains a cookie for it)."""
        if session and session.modified and "id" not in session:
            session["id"] = secrets.token_urlsafe(12)
        super().save_session(app, session, response)
