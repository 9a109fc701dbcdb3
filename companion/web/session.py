"""The session cookie: Flask's signed cookie, marked Secure whenever the request came
over HTTPS (directly, or through a proxy ``TRUSTED_PROXIES`` vouches for), not only
when ``PUBLIC_URL`` says https."""

from __future__ import annotations

from flask import Flask, request
from flask.sessions import SecureCookieSessionInterface


class SessionCookie(SecureCookieSessionInterface):
    """Secure when configured so or when this request is HTTPS; SameSite comes from
    ``SESSION_COOKIE_SAMESITE`` (Lax: not sent with another site's forms or frames)."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or request.is_secure
