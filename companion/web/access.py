"""Who may change a game from a browser: the edit link, opened once, is kept in the session,
and so is the secret of a seat this browser took.

Each is kept sealed (``companion.web.sealed``), never in clear: the session cookie is
signed, not encrypted, and anyone who sees it can read it. The functions below give the
clear token back to the pages and actions, which check it as before."""

from __future__ import annotations

from collections.abc import Callable

from flask import current_app, session

from companion import store
from companion.game.errors import Forbidden
from companion.store.models import Game, Solitaire
from companion.web.sealed import seal, sealed_now, unseal

KEPT = 20
"""Games kept per list (edit rights, seats, games opened): the most recent ones, fewer
when the cookie would outgrow ``COOKIE_BUDGET``."""

COOKIE_BUDGET = 3800
"""The longest session cookie written, in characters. A browser drops a cookie longer
than 4096 bytes with its name and attributes (and keeps the old one: the newest right
would be lost); this leaves room for those and for the form's CSRF token. A sealed
entry takes about 85 characters, so some 44 rights fit: 20 edit rights and 20 seats of
different games, and the games only opened here."""


def _entries(kind: str) -> dict[str, str]:
    """The entries of the session's ``kind`` as they are (anything else in it ignored)."""
    kept = session.get(kind)
    if not isinstance(kept, dict):
        return {}
    return {k: v for k, v in kept.items() if isinstance(k, str) and isinstance(v, str)}


def _seen() -> list[str]:
    """The games only opened here, oldest first (anything else in the list ignored)."""
    seen = session.get("seen")
    return [g for g in seen if isinstance(g, str)] if isinstance(seen, list) else []


def _kept(kind: str) -> dict[str, str]:
    """The entries kept under ``kind`` ("edit", "seats"): game id to sealed token.

    An entry sealed the previous build's way is sealed again here and the session written
    again, so the right keeps working and the old value leaves the cookie with this
    request's answer."""
    entries = _entries(kind)
    old = {k: unseal(kind, k, v) for k, v in entries.items() if not sealed_now(kind, k, v)}
    redone = {k: seal(kind, k, t) for k, t in old.items() if t is not None}
    if redone:
        entries.update(redone)
        session[kind] = entries
        _fit()  # a value sealed now is longer than the previous build's
    return entries


def _fit() -> None:
    """Drop the oldest games, one at a time, until the session cookie fits
    ``COOKIE_BUDGET``: first the games only opened here (they only list the game on the
    home page), then the oldest of the longer list of rights (seats when both are as
    long: a lost seat can be released and taken again, a lost edit right needs the edit
    link)."""
    serializer = getattr(current_app.session_interface, "get_signing_serializer", None)
    if serializer is None:  # a session kept on the server: no cookie to fit
        return
    signer = serializer(current_app)
    while len(signer.dumps(dict(session))) > COOKIE_BUDGET:
        if seen := _seen():
            session["seen"] = seen[1:]
            continue
        rights = {kind: _entries(kind) for kind in ("seats", "edit")}
        kind = max(rights, key=lambda k: len(rights[k]))
        if not rights[kind]:
            return
        rights[kind].pop(next(iter(rights[kind])))
        session[kind] = rights[kind]


def _keep(kind: str, game_id: str, token: str) -> None:
    """Keep ``token`` sealed for ``game_id`` under ``kind`` ("edit", "seats") in the
    session cookie: the most recent games only."""
    kept = {k: v for k, v in _kept(kind).items() if k != game_id}
    kept[game_id] = seal(kind, game_id, token)
    session[kind] = dict(list(kept.items())[-KEPT:])
    session.permanent = True
    _fit()


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


def require_held(game_id: str, find: Callable[[str], object]) -> str:
    """The edit token this browser holds for ``game_id``, unchecked, or Forbidden when it
    holds none (NotFound first when ``find(game_id)`` finds no such game): a write's page
    refuses a viewer before reading its form, and the action checks the token under its
    lock, so a write by the scorekeeper loads its game once."""
    token = held_token(game_id)
    if token is None:
        find(game_id)
        raise Forbidden("edit_link_needed")
    return token


def token_for(game: Game | Solitaire) -> str | None:
    """This browser's edit token for ``game``, if it holds a valid one."""
    token = held_token(game.id)
    return token if store.can_edit(game, token) else None


def remember_seen(game_id: str) -> None:
    """Keep ``game_id`` among the games this browser opened, for its home page (the most
    recent ones; the session is written only when the game is new to it)."""
    seen = _seen()
    if game_id not in seen:
        session["seen"] = [*seen, game_id][-KEPT:]
        session.permanent = True
        _fit()


def games_here() -> set[str]:
    """The games this browser started, opened, or holds a seat of: its home page's list."""
    return {*_kept("edit"), *_kept("seats"), *_seen()}


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


def remember_table(group_id: str, token: str) -> None:
    """Keep the right to edit table ``group_id`` in this browser."""
    _keep("tables", group_id, token)
