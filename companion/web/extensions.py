"""The web extensions (CSRF, translations, rate limits), created here and bound to the app
in ``create_app``; the limits each rate-limited route reads."""

from collections.abc import Callable

from flask import current_app
from flask_babel import Babel
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_wtf.csrf import CSRFProtect

csrf = CSRFProtect()
babel = Babel()
limiter = Limiter(key_func=get_remote_address)
"""Per client address (behind a proxy, the one ``TRUSTED_PROXIES`` lets ProxyFix read).
In memory by default (``RATELIMIT_STORAGE_URI``, set in ``create_app``: one process);
worker processes share a store such as Redis (docs/production.md). The URI is given as
config, not here: Flask-Limiter prefers a constructor's URI over the config's."""

GAME_CREATION = "30 per minute;300 per hour"
"""New games per client address (``GAME_CREATION_LIMIT``): a club behind one address
starts a few an evening; a script making ten thousand is stopped after thirty."""


WORD_LOOKUPS = "300 per minute"
"""Word checks, rulings and scored rounds per client address (``WORD_LOOKUP_LIMIT``):
several tables behind one café router, each asking a few a minute, stay far below."""

SOLVER = "60 per minute"
"""Best plays asked of the API per client address (``SOLVER_LIMIT``): the solver is the
dearest request the Companion answers."""


def _configured(key: str, default: str) -> Callable[[], str]:
    """The limit the config sets as ``key``, else ``default``, read when a request asks."""
    return lambda: str(current_app.config.get(key) or default)


game_creation_limit = _configured("GAME_CREATION_LIMIT", GAME_CREATION)
word_lookup_limit = _configured("WORD_LOOKUP_LIMIT", WORD_LOOKUPS)
solver_limit = _configured("SOLVER_LIMIT", SOLVER)
