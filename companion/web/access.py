"""Who may change a game from a browser: the edit link, opened once, is kept in the session,
and so is the secret of a seat this browser took.

Each is kept sealed (``companion.web.sealed``), never in clear: the session cookie is
signed, not encrypted, and anyone who sees it can read it. The functions below give the
clear token back to the pages and actions, which check it as before."""

from __future__ import annotations

import re

from flask import session

from companion import store
from companion.game.errors import Forbidden
from companion.models import Game, Solitaire
from companion.web.sealed import seal, unseal

KEPT = 30
"""Edit rights kept per browser (most recent games): a few dozen fit in the cookie."""

CLEAR_TOKEN = re.compile(r"[A-Za-z0-9_-]{32}")
"""What a token kept in clear looks like (``store.new_secret``): the cookies written
before tokens were sealed hold them so. A sealed token is longer."""


def _kept(kind: str) -> dict[str, str]:
    """The entries kept under ``kind`` ("edit", "seats"): game id to sealed token.

    An entry still in clear (a cookie from before tokens were sealed) is sealed here and
    the session written again, so the right keeps working and the clear token leaves the
    cookie with this request's answer."""
    kept = session.get(kind)
    if not isinstance(kept, dict):
        return {}
    entries = {k: v for k, v in kept.items() if isinstance(k, str) and isinstance(v, str)}
    clear = {
        k: v for k, v in entries.items() if CLEAR_TOKEN.fullmatch(v) and unseal(kind, k, v) is None
    }
    if clear:
        entries.update({k: seal(kind, k, v) for k, v in clear.items()})
        session[kind] = entries
    return entries


def _keep(kind: str, game_id: str, token: str) -> None:
    """Keep ``token`` sealed for ``game_id`` under ``kind`` ("edit", "seats") in the
    session cookie: the most recent games only."""
    kept = {k: v for k, v in _kept(kind).items() if k != game_id}
    kept[game_id] = seal(kind, game_id, token)
    session[kind] = dict(list(kept.items())[-KEPT:])
    session.permanent = True


def _held(kind: str, game_id: str) -> str | None:
    """The token kept under ``kind`` for ``game_id``, unsealed but unchecked (the action
    checks it); None when none is kept or its seal does not hold."""
    game_id = game_id[:64]
    sealed = _kept(kind).get(game_id)
    return unseal(kind, game_id, sealed) if sealed else None


def remember(game_id: str, token: str) -> None:
    """Keep the right to edit ``game_id`` in this browser."""
    _keep("edit", game_id, token)


def held_token(game_id: str) -> str | None:
    """The edit token this browser holds for ``game_id``, unchecked (the action checks it)."""
    return _held("edit", game_id)


def token_for(game: Game | Solitaire) -> str | None:
    """This browser's edit token for ``game``, if it holds a valid one."""
    token = held_token(game.id)
    return token if store.can_edit(game, token) else None


def require_edit(game: Game | Solitaire) -> str:
    """The edit token this browser holds for ``game``, or Forbidden: the view link shows
    everything but changes nothing (checked before a form is read; the action checks
    again under its lock)."""
    token = token_for(game)
    if token is None:
        raise Forbidden("edit_link_needed")
    return token


def remember_seen(game_id: str) -> None:
    """Keep ``game_id`` among the games this browser opened, for its home page (the most
    recent ones; the session is written only when the game is new to it)."""
    seen = session.get("seen")
    seen = [g for g in seen if isinstance(g, str)] if isinstance(seen, list) else []
    if game_id not in seen:
        session["seen"] = [*seen, game_id][-KEPT:]
        session.permanent = True


def games_here() -> set[str]:
    """The games this browser started, opened, or holds a seat of: its home page's list."""
    found: set[str] = set()
    for kind in ("edit", "seats"):
        found.update(_kept(kind))
    seen = session.get("seen")
    if isinstance(seen, list):
        found.update(g for g in seen if isinstance(g, str))
    return found


def remember_seat(game_id: str, token: str) -> None:
    """Keep the seat this browser claimed in ``game_id`` (its secret)."""
    _keep("seats", game_id, token)


def held_seat_token(game_id: str) -> str | None:
    """The seat secret this browser holds for ``game_id``, unchecked (the action checks it)."""
    return _held("seats", game_id)


def seat_for(game: Game) -> int | None:
    """The seat this browser holds in ``game``, if its secret is still good (a released
    seat's secret is not)."""
    return store.seat_of_token(game, held_seat_token(game.id))
