"""The web extensions (CSRF, translations, rate limits), created here and bound to the app
in ``create_app``; the limits each rate-limited route reads, and whom each one counts.

A venue's phones share one address (80 behind one home router): a limit per address
would make them one bucket, and one client could block the others. So each limit
counts per **client**, the browser's session (the random id its signed session cookie
carries) or, for a client without one (a script), its address; and a looser
**ceiling per address** bounds a client that drops its cookie to start afresh. Seat
claims count per client and per **game**: no address is involved at all.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from flask import current_app, request, session
from flask_babel import Babel
from flask_limiter import Limiter, RateLimitExceeded
from flask_limiter.util import get_remote_address
from flask_wtf.csrf import CSRFProtect

from companion.game.errors import Refusal

F = TypeVar("F", bound=Callable[..., Any])


def address_key() -> str:
    """The client's address (behind a proxy, the one ``TRUSTED_PROXIES`` lets ProxyFix
    read)."""
    return f"address:{get_remote_address()}"


def client_key() -> str:
    """The client: its session's id (``web/session.py`` gives every session written one),
    else its address."""
    ident = session.get("id")
    return f"session:{ident}" if isinstance(ident, str) and ident else address_key()


def game_key() -> str:
    """The game of the request's address."""
    return f"game:{(request.view_args or {}).get('game_id', '')}"


csrf = CSRFProtect()
babel = Babel()
limiter = Limiter(key_func=client_key)
"""In memory by default (``RATELIMIT_STORAGE_URI``, set in ``create_app``: one process);
worker processes share a store such as Redis (docs/production.md). The URI is given as
config, not here: Flask-Limiter prefers a constructor's URI over the config's."""

GAME_CREATION = "30 per minute;300 per hour"
"""New games per client (``GAME_CREATION_LIMIT``): a scorekeeper starts one an evening
or a few; a script making ten thousand is stopped after thirty."""
GAME_CREATION_ADDRESS = "120 per minute;1200 per hour"
"""New games per address (``GAME_CREATION_ADDRESS_LIMIT``): a venue's twenty tables
starting at once, and solitaire games besides, stay far below."""

WORD_LOOKUPS = "120 per minute"
"""Word checks, rulings and scored rounds per client (``WORD_LOOKUP_LIMIT``): a person
checks a few a minute."""
WORD_LOOKUPS_ADDRESS = "1200 per minute"
"""The same per address (``WORD_LOOKUP_ADDRESS_LIMIT``): 80 phones checking several a
minute each, and one client at its limit, stay below."""

SOLVER = "60 per minute"
"""Best plays asked of the API per client (``SOLVER_LIMIT``): the solver is the dearest
request the Companion answers."""
SOLVER_ADDRESS = "300 per minute"
"""The same per address (``SOLVER_ADDRESS_LIMIT``)."""

SEAT_CLAIMS = "20 per minute"
"""Seat claims (API and page) per client and per game (``SEAT_CLAIM_LIMIT``): a table
of eight claims its seats once, and again after a release now and then; a script that
takes every seat again and again is stopped."""

PHOTO_READS = "20 per minute"
"""Photos read per client (``PHOTO_READ_LIMIT``): a player snaps a hand a round, a few
times when the light is poor; each read takes the server about a second of one core."""
PHOTO_READS_ADDRESS = "120 per minute"
"""The same per address (``PHOTO_READ_ADDRESS_LIMIT``): a room of tables on one Wi-Fi."""


def _configured(key: str, default: str) -> Callable[[], str]:
    def limit() -> str:
        return str(current_app.config.get(key) or default)

    limit.__name__ = key.lower()
    return limit


game_creation_limit = _configured("GAME_CREATION_LIMIT", GAME_CREATION)
game_creation_address_limit = _configured("GAME_CREATION_ADDRESS_LIMIT", GAME_CREATION_ADDRESS)
word_lookup_limit = _configured("WORD_LOOKUP_LIMIT", WORD_LOOKUPS)
word_lookup_address_limit = _configured("WORD_LOOKUP_ADDRESS_LIMIT", WORD_LOOKUPS_ADDRESS)
solver_limit = _configured("SOLVER_LIMIT", SOLVER)
solver_address_limit = _configured("SOLVER_ADDRESS_LIMIT", SOLVER_ADDRESS)
seat_claim_limit = _configured("SEAT_CLAIM_LIMIT", SEAT_CLAIMS)
photo_read_limit = _configured("PHOTO_READ_LIMIT", PHOTO_READS)
photo_read_address_limit = _configured("PHOTO_READ_ADDRESS_LIMIT", PHOTO_READS_ADDRESS)


@dataclass(frozen=True)
class Scope:
    """What one kind of limit counts: its refusal code, its limit per client, and its
    second bound, per address or per game."""

    code: str
    per_client: Callable[[], str]
    bound: Callable[[], str]
    bound_key: Callable[[], str]
    per: str  # whom the bound counts: "address" or "game"


SCOPES = {
    "new-games": Scope(
        "too_many_new_games",
        game_creation_limit,
        game_creation_address_limit,
        address_key,
        "address",
    ),
    "word-lookups": Scope(
        "too_many_word_checks",
        word_lookup_limit,
        word_lookup_address_limit,
        address_key,
        "address",
    ),
    "solver": Scope(
        "too_many_best_plays", solver_limit, solver_address_limit, address_key, "address"
    ),
    "photo-reads": Scope(
        "too_many_photo_reads",
        photo_read_limit,
        photo_read_address_limit,
        address_key,
        "address",
    ),
    "seat-claims": Scope(
        "too_many_seat_claims", seat_claim_limit, seat_claim_limit, game_key, "game"
    ),
}
"""Every limited kind of request, by its Flask-Limiter scope."""


def limited(scope: str, methods: list[str] | None = None) -> Callable[[F], F]:
    """Limit a route as ``SCOPES[scope]`` says: per client, then its bound (``methods``:
    only these methods count). The client's limit is checked first: a client refused
    at its own limit uses up nothing of the shared bound."""
    kind = SCOPES[scope]
    per_client = limiter.shared_limit(kind.per_client, scope=scope, methods=methods)
    bound = limiter.shared_limit(
        kind.bound, scope=f"{scope}/{kind.per}", key_func=kind.bound_key, methods=methods
    )

    def wrap(view: F) -> F:
        return bound(per_client(view))  # type: ignore[return-value]

    return wrap


def too_many(exc: RateLimitExceeded) -> Refusal:
    """The refusal of a request over a limit: what was limited (its code), how many it
    allows (``count``) in how many seconds (``seconds``), whom it counts (``per``:
    client, address or game), and in how many seconds to try again (``retry_after``,
    also the Retry-After header)."""
    scope = exc.limit.scope if isinstance(exc.limit.scope, str) else ""
    name, _, bound = scope.partition("/")
    kind = SCOPES.get(name)
    item = exc.limit.limit
    breached = limiter.current_limit
    reset = breached.reset_at if breached is not None else time.time() + item.get_expiry()
    refusal = Refusal(
        kind.code if kind else "too_many_requests",
        "",
        count=item.amount,
        seconds=item.get_expiry(),
        per=bound or "client",
        retry_after=max(1, int(reset - time.time())),
    )
    refusal.status = 429
    return refusal
