"""Who may change a game from a browser: the edit link, opened once, is kept in the session."""

from __future__ import annotations

from flask import session

from companion import store
from companion.game.errors import Forbidden
from companion.models import Game, Solitaire

KEPT = 30
"""Edit rights kept per browser (most recent games): a few dozen fit in the cookie."""


def remember(game_id: str, token: str) -> None:
    """Keep the right to edit ``game_id`` in this browser."""
    rights = {k: v for k, v in session.get("edit", {}).items() if k != game_id}
    rights[game_id] = token
    session["edit"] = dict(list(rights.items())[-KEPT:])
    session.permanent = True


def held_token(game_id: str) -> str | None:
    """The edit token this browser holds for ``game_id``, unchecked (the action checks it)."""
    rights = session.get("edit")
    token = rights.get(game_id[:64]) if isinstance(rights, dict) else None
    return token if isinstance(token, str) else None


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


def remember_seat(game_id: str, token: str) -> None:
    """Keep the seat this browser claimed in ``game_id`` (its secret, kept in the signed
    session cookie as the edit right is)."""
    seats = {k: v for k, v in session.get("seats", {}).items() if k != game_id}
    seats[game_id] = token
    session["seats"] = dict(list(seats.items())[-KEPT:])
    session.permanent = True


def held_seat_token(game_id: str) -> str | None:
    """The seat secret this browser holds for ``game_id``, unchecked (the action checks it)."""
    seats = session.get("seats")
    token = seats.get(game_id[:64]) if isinstance(seats, dict) else None
    return token if isinstance(token, str) else None


def seat_for(game: Game) -> int | None:
    """The seat this browser holds in ``game``, if its secret is still good (a released
    seat's secret is not)."""
    return store.seat_of_token(game, held_seat_token(game.id))
