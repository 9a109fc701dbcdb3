"""Tables of people who play together (``Group``): reading and writing their rows.

A table's write locks its row first, as a game's does (``lock_group``); its games are
games like any other, tied to it by ``Game.group_id`` and to its members by
``Player.member_id``. No rule logic, and nothing derived is stored: the records are
computed from the games (``companion/actions/records.py``).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import selectinload

from companion.game.errors import NotFound
from companion.store import insert_row, lock_row, storable_id
from companion.store.db import db
from companion.store.models import Game, Group, Member, Player, now


def get_group(group_id: str) -> Group:
    """The stored table ``group_id`` with its members, or NotFound."""
    found = None
    if storable_id(group_id):
        found = db.session.scalars(
            select(Group).where(Group.id == group_id).options(selectinload(Group.members))
        ).first()
    if found is None:
        raise NotFound("no_such_table")
    return found


def locked_group(group_id: str) -> Group:
    """Lock table ``group_id`` for this transaction (so two phones changing it take turns)
    and read it fresh, or NotFound."""
    lock_row(Group, group_id, "no_such_table")
    return get_group(group_id)


def insert_group(name: str, members: list[str], alternate_bonus: bool) -> tuple[Group, str]:
    """Add a new table with its members in order; return it and its edit token (shown
    once, stored hashed)."""
    return insert_row(
        Group,
        name=name,
        alternate_bonus=alternate_bonus,
        members=[Member(position=i, name=n) for i, n in enumerate(members)],
    )


def touch_group(group: Group) -> None:
    """Bump the table's version (the ETag of its pages) and flush."""
    group.version += 1
    group.updated_at = now()
    db.session.flush()


@dataclass(frozen=True)
class GroupGame:
    """A game of a table as its page lists it; scored elsewhere."""

    id: str
    version: int
    created_at: datetime
    archived: bool


def group_games(group_id: str) -> list[GroupGame]:
    """The games of table ``group_id``, oldest first: one indexed read of four columns,
    enough to know which games' records are still the ones computed before."""
    rows = db.session.execute(
        select(Game.id, Game.version, Game.created_at, Game.archived)
        .where(Game.group_id == group_id)
        .order_by(Game.created_at, Game.id)
    )
    return [GroupGame(*row) for row in rows]


def played_by(member_ids: Collection[int]) -> set[int]:
    """Those of ``member_ids`` who sat in some game."""
    if not member_ids:
        return set()
    rows = db.session.scalars(
        select(Player.member_id).where(Player.member_id.in_(list(member_ids))).distinct()
    )
    return {m for m in rows if m is not None}


@dataclass(frozen=True)
class GroupSummary:
    """A line of the home page's list of tables."""

    id: str
    name: str
    members: tuple[str, ...]
    games: int
    updated_at: datetime


def list_groups(ids: Collection[str], limit: int = 50) -> list[GroupSummary]:
    """The tables of ``ids`` (those one browser knows) not archived, the most recently
    changed first."""
    wanted = sorted(i for i in ids if storable_id(i))[:200]
    if not wanted:
        return []
    groups = list(
        db.session.scalars(
            select(Group)
            .where(Group.id.in_(wanted), Group.archived.is_(False))
            .options(selectinload(Group.members))
            .order_by(Group.updated_at.desc())
            .limit(limit)
        )
    )
    # Counted by the database: a table may have hundreds of games.
    counted = db.session.execute(
        select(Game.group_id, func.count())
        .where(Game.group_id.in_([g.id for g in groups]))
        .group_by(Game.group_id)
    )
    counts = {group_id: n for group_id, n in counted}
    return [
        GroupSummary(
            g.id, g.name, tuple(m.name for m in g.members), counts.get(g.id, 0), g.updated_at
        )
        for g in groups
    ]


def group_of_game(game_id: str) -> tuple[str, str] | None:
    """The table (id, name) game ``game_id`` was started from, if any: one indexed read,
    for the game's page to link to its table."""
    if not storable_id(game_id):
        return None
    row = db.session.execute(
        select(Group.id, Group.name).join(Game, Game.group_id == Group.id).where(Game.id == game_id)
    ).first()
    return (row[0], row[1]) if row else None
