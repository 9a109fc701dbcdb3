"""A table's records and a game's recap, derived from the stored games through the one
scoring path (``store.state_of``) and the best-play review: nothing stored that could
disagree with the games.

A game's part of the records (``PlayedGame``, with the points each player left on the
table, which takes the solver a few milliseconds a hand) is computed once per game and
version and kept in a cachetools LRU: a table's records after a round was saved compute
that one game again, and read the others' versions in one query.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from cachetools import LRUCache, cached

from companion import store
from companion.actions.groups import GroupState, read_group
from companion.actions.review import review_round
from companion.game.records import PlayedGame, Recap, TableRecords, table_records
from companion.game.records import game_recap as recap
from companion.lexicon import LexiconStore
from companion.store.db import db
from companion.store.models import Game

KEPT_GAMES = 4096
"""Games' parts of the records kept per process: some eight tables of 500 games."""


@dataclass(frozen=True)
class Counted:
    """A stored game as the records see it, and whether it is finished (only finished
    games count in a table's records)."""

    played: PlayedGame
    finished: bool


def played_game(lexicons: LexiconStore, game: Game) -> Counted:
    """A stored game as the records count it: its closed rounds, scored, with the points
    each seat left on the table (None when the game's word list is not on this server)."""
    return counted(lexicons, game, store.state_of(game))


def counted(lexicons: LexiconStore, game: Game, state: store.GameState) -> Counted:
    """``played_game`` of ``game`` scored as ``state``."""
    closed = [r for r in state.rounds if r.closed and r.result is not None]
    left: list[int] | None = [0] * len(state.names)
    for r in closed:
        reviews = review_round(lexicons, state, r)
        if not reviews:
            left = None
            break
        assert left is not None
        for seat, review in enumerate(reviews):
            left[seat] += review.left
    played = PlayedGame(
        game_id=game.id,
        started=game.created_at,
        members=tuple(p.member_id for p in game.players),
        names=state.names,
        rounds=tuple(r.result for r in closed if r.result is not None),
        numbers=tuple(r.number for r in closed),
        totals=tuple(s.total for s in sorted(state.table, key=lambda s: s.seat)),
        left=tuple(left) if left is not None else None,
    )
    return Counted(played, state.finished)


@cached(
    LRUCache(KEPT_GAMES),
    key=lambda _lexicons, database, game_id, version: (database, game_id, version),
    lock=threading.Lock(),
)
def _kept(lexicons: LexiconStore, database: str, game_id: str, version: int) -> Counted:
    """``played_game`` of ``game_id`` at ``version``, kept per database (tests run many)."""
    return played_game(lexicons, store.get_game(game_id))


@dataclass(frozen=True)
class GroupRecords:
    """A table with its records."""

    group: GroupState
    records: TableRecords
    played: tuple[Counted, ...]
    """Its games, oldest first, finished or not."""


def group_records(lexicons: LexiconStore, group_id: str) -> GroupRecords:
    """Table ``group_id`` and the records of its finished games, or NotFound."""
    group = read_group(group_id)
    database = db.engine.url.render_as_string()
    played = tuple(_kept(lexicons, database, g.id, g.version) for g in group.games)
    finished = [c.played for c in played if c.finished]
    return GroupRecords(group, table_records(finished, dict(group.members)), played)


@dataclass(frozen=True)
class GameRecap:
    """A game with its recap: podium, best word, bonuses, challenges, points left."""

    state: store.GameState
    recap: Recap
    group: GroupState | None


def game_recap(lexicons: LexiconStore, game_id: str) -> GameRecap:
    """The recap of game ``game_id`` (of its closed rounds), or NotFound."""
    game = store.get_game(game_id)
    state = store.state_of(game)
    group = read_group(game.group_id) if game.group_id else None
    return GameRecap(state, recap(counted(lexicons, game, state).played), group)
