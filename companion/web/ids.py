"""The game id (and a table's) in an address, checked once for every route that takes one
(pages and API): an id no game can have (a NUL, another shape) is the 404 of an unknown
game (or table), before the view runs or anything is asked of the database."""

from __future__ import annotations

from typing import Any

from companion import store
from companion.game.errors import NotFound


def refuse_unstorable_ids(endpoint: str | None, values: dict[str, Any] | None) -> None:
    """A URL value preprocessor: ``game_id`` must be an id a game could be stored under
    (``store.storable_id``); otherwise ``no_such_game`` (``no_such_solitaire`` on the
    solitaire pages), 404."""
    game_id = (values or {}).get("game_id")
    if isinstance(game_id, str) and not store.storable_id(game_id):
        solitaire = (endpoint or "").startswith("solitaire.")
        raise NotFound("no_such_solitaire" if solitaire else "no_such_game")
    group_id = (values or {}).get("group_id")
    if isinstance(group_id, str) and not store.storable_id(group_id):
        raise NotFound("no_such_table")
