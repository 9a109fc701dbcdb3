"""A table's records and a game's recap, derived from the stored games through the one
scoring path (``store.state_of``) and the best-play review: nothing stored that could
disagree with the games.

A game's part of the records (its ``GameSummary``, with the points each player left on
the table, which takes the solver about a millisecond a hand) is worked out once per
game and version, then kept twice: in this process (a cachetools LRU) and across
processes and restarts (Flask-Caching, ``companion.store.cache``), under a key naming
the game's version. A table's records after a round was saved work that one game out
again and read the other games' versions in one query; a fresh worker reads the kept
summaries instead of solving every hand of every game again.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from cachetools import LRUCache

from companion import store
from companion.actions.groups import GroupState, read_group
from companion.actions.review import review_round
from companion.game.records import (
    GameSummary,
    PlayedGame,
    Recap,
    TableRecords,
    summarise,
    table_records,
)
from companion.game.records import game_recap as recap
from companion.lexicon import LexiconStore
from companion.store.cache import cache
from companion.store.db import db
from companion.store.groups import GroupGame
from companion.store.models import Game

KEPT_GAMES = 4096
"""Games summed up kept per process: some eight tables of 500 games."""

SUMMARY_FORMAT = 2
"""In the key of every summary kept: raise it when ``GameSummary`` changes, so a new
build never reads what an older one kept."""


@dataclass(frozen=True)
class Counted:
    """A stored game as the records see it, summed up, and whether it is finished (only
    finished games count in a table's records)."""

    summary: GameSummary
    finished: bool
    closed: int
    """Its closed rounds, of ``rounds`` in its plan."""
    rounds: int

    @property
    def winners(self) -> tuple[str, ...]:
        """Who finished first (several: a shared win), once the game is finished."""
        totals = self.summary.totals
        if not self.finished or not totals:
            return ()
        best = max(totals)
        return tuple(n for n, t in zip(self.summary.names, totals, strict=True) if t == best)


def points_left(lexicons: LexiconStore, state: store.GameState) -> tuple[int, ...] | None:
    """The points each seat left on the table over the closed rounds (the best-play
    review, about a millisecond a hand); None when the game's word list is not on this
    server."""
    left = [0] * len(state.names)
    for r in state.rounds:
        if not r.closed or r.result is None:
            continue
        reviews = review_round(lexicons, state, r)
        if not reviews:
            return None
        for seat, review in enumerate(reviews):
            left[seat] += review.left
    return tuple(left)


def played_game(game: Game, state: store.GameState, left: tuple[int, ...] | None) -> PlayedGame:
    """A stored game (scored as ``state``) as the records read it: its closed rounds, and
    ``left``, the points each seat left on the table (``points_left``)."""
    closed = [r for r in state.rounds if r.closed and r.result is not None]
    return PlayedGame(
        game_id=game.id,
        started=game.created_at,
        members=tuple(p.member_id for p in game.players),
        names=state.names,
        rounds=tuple(r.result for r in closed if r.result is not None),
        numbers=tuple(r.number for r in closed),
        totals=tuple(s.total for s in sorted(state.table, key=lambda s: s.seat)),
        left=left,
    )


_kept: LRUCache[str, Counted] = LRUCache(KEPT_GAMES)
_kept_lock = threading.Lock()


def _key(game: GroupGame) -> str:
    """The key of a game's summary at its version, in this database."""
    database = hashlib.sha256(db.engine.url.render_as_string().encode()).hexdigest()[:16]
    return f"records/{SUMMARY_FORMAT}/{database}/{game.id}/{game.version}"


WORK_BUDGET = 2.0
"""Seconds one request spends working out games not kept yet (a table of 500 games
imported from a backup, or its first opening after an upgrade: some 40 ms a game);
the rest are worked out by the next requests, which the page asks for itself."""


def counted(
    lexicons: LexiconStore, games: Sequence[GroupGame], budget: float | None = None
) -> list[Counted | None]:
    """Each of ``games`` summed up at the version given: from this process's LRU, else
    from the shared cache, else worked out (and kept in both), for ``budget`` seconds at
    most; None for each game left for a later request."""
    keys = [_key(g) for g in games]
    with _kept_lock:
        found = {k: _kept[k] for k in keys if k in _kept}
    missing = [k for k in keys if k not in found]
    if missing:
        shared = dict(zip(missing, _shared(missing), strict=True))
        found |= {k: v for k, v in shared.items() if isinstance(v, Counted)}
        fresh: dict[str, Counted] = {}
        until = time.monotonic() + (WORK_BUDGET if budget is None else budget)
        for game, key in zip(games, keys, strict=True):
            if key not in found and (not fresh or time.monotonic() < until):
                found[key] = fresh[key] = _worked_out(lexicons, game.id)
        if fresh:
            cache.set_many(fresh)
        with _kept_lock:
            for key in missing:
                if key in found:
                    _kept[key] = found[key]
    return [found.get(k) for k in keys]


def _shared(keys: list[str]) -> list[object]:
    """The values kept across processes under ``keys`` (None for each not kept, or kept
    by a build whose summaries no longer read)."""
    try:
        return list(cache.get_many(*keys))
    except Exception:
        return [None] * len(keys)


def _worked_out(lexicons: LexiconStore, game_id: str) -> Counted:
    game = store.get_game(game_id)
    state = store.state_of(game)
    summary = summarise(played_game(game, state, points_left(lexicons, state)))
    return Counted(summary, state.finished, state.closed_rounds, state.rules.rounds)


@dataclass(frozen=True)
class GroupRecords:
    """A table with its records."""

    group: GroupState
    records: TableRecords
    counted: tuple[Counted | None, ...]
    """Each of its games (``group.games``, oldest first, finished or not) summed up; None
    for one not worked out yet (``WORK_BUDGET``), which the records leave out so far."""

    @property
    def pending(self) -> int:
        """Games not worked out yet."""
        return sum(c is None for c in self.counted)


def group_records(
    lexicons: LexiconStore, group_id: str, budget: float | None = None
) -> GroupRecords:
    """Table ``group_id`` and its records (``records_of``), or NotFound."""
    return records_of(lexicons, read_group(group_id), budget)


def records_of(
    lexicons: LexiconStore, group: GroupState, budget: float | None = None
) -> GroupRecords:
    """The records of table ``group`` (as just read) from its finished games worked out
    within ``budget`` seconds (``WORK_BUDGET`` by default: all of them, but for a big
    table seen for the first time)."""
    games = tuple(counted(lexicons, group.games, budget))
    finished = [c.summary for c in games if c is not None and c.finished]
    return GroupRecords(group, table_records(finished, dict(group.members)), games)


@dataclass(frozen=True)
class GameRecap:
    """A game with its recap: podium, best word, bonuses, challenges, points left."""

    state: store.GameState
    recap: Recap
    group: GroupState | None
    started: datetime


def game_recap(lexicons: LexiconStore, game_id: str) -> GameRecap:
    """The recap of game ``game_id`` (of its closed rounds), or NotFound. The points left
    on the table come from the game's summary at its version, as the records keep it:
    the best plays are solved once, not for every view of the recap and its card."""
    game = store.get_game(game_id)
    state = store.state_of(game)
    group = read_group(game.group_id) if game.group_id else None
    listed = GroupGame(game.id, game.version, game.created_at, game.archived)
    [kept] = counted(lexicons, [listed])
    assert kept is not None  # the first game missing is always worked out
    played = played_game(game, state, kept.summary.left)
    return GameRecap(state, recap(played), group, game.created_at)
