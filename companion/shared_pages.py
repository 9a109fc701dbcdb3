"""Views of a game rendered once for every server process, kept in the database.

After a save, every phone of the table asks for the new board. With four workers, each
would render it itself (a third of a worker's time at 1,000 tables went to that): the
first worker to render a view at a version keeps it in ``shared_page``, and the others
read it (one indexed row) instead of rendering. Only the newest version of each view is
kept, so the table holds a few rows per game.
"""

from __future__ import annotations

from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError, OperationalError

from companion.extensions import db
from companion.models import SharedPage

_table = SharedPage.__table__


def read(game_id: str, name: str, version: int) -> str | None:
    """The view ``name`` of ``game_id`` at ``version``, if a process kept it."""
    with db.engine.connect() as conn:
        return conn.execute(
            select(_table.c.body).where(
                _table.c.game_id == game_id, _table.c.name == name, _table.c.version == version
            )
        ).scalar_one_or_none()


def keep(game_id: str, name: str, version: int, body: str) -> None:
    """Keep the view ``name`` of ``game_id`` at ``version`` for the other processes, in
    place of an older one; a newer one already kept stays. Never fails the request that
    rendered it (another process keeping the same view at once, a lock): at worst the
    others render it themselves."""
    try:
        with db.engine.begin() as conn:
            moved = conn.execute(
                update(_table)
                .where(
                    _table.c.game_id == game_id,
                    _table.c.name == name,
                    _table.c.version < version,
                )
                .values(version=version, body=body)
            ).rowcount
            if moved:
                return
        with db.engine.begin() as conn:
            conn.execute(
                insert(_table).values(game_id=game_id, name=name, version=version, body=body)
            )
    except (IntegrityError, OperationalError):
        return  # kept already (this version or a newer one), or the game is gone
