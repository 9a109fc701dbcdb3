"""Views of a game rendered once for every server process, kept in the database.

After a save, every phone of the table asks for the new board. With four workers, each
would render it itself (a third of a worker's time at 1,000 tables went to that): the
first worker to render a view at a version keeps it in ``shared_page``, and the others
read it (one indexed row) instead of rendering. The save itself keeps the new boards
of the languages already kept, in its own transaction (``keep_with_write``), so the
polls after it find them. Only the newest version of each view is kept, so the table
holds a few rows per game.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import Update, bindparam, insert, select, update
from sqlalchemy.exc import IntegrityError, OperationalError

from companion.extensions import db
from companion.lone_reads import read_alone
from companion.models import SharedPage

_table = SharedPage.__table__


def read(game_id: str, name: str, version: int) -> str | None:
    """The view ``name`` of ``game_id`` at ``version``, if a process kept it (one
    statement, no transaction: ``lone_reads``)."""
    rows = read_alone(
        select(_table.c.body).where(
            _table.c.game_id == game_id, _table.c.name == name, _table.c.version == version
        )
    )
    return rows[0][0] if rows else None


def kept_names(game_id: str) -> set[str]:
    """The views of ``game_id`` kept at any version: those its phones ask for."""
    return {
        name for (name,) in read_alone(select(_table.c.name).where(_table.c.game_id == game_id))
    }


def keep(game_id: str, name: str, version: int, body: str) -> None:
    """Keep the view ``name`` of ``game_id`` at ``version`` for the other processes, in
    place of an older one; a newer one already kept stays. Written and committed through
    the request's session (a view's request, which reads only: its reads end here, and its
    connection goes back to the pool). Never fails the request that rendered it (another
    process keeping the same view at once, a lock): at worst the others render it
    themselves."""
    try:
        moved = db.session.execute(
            _moving_up(game_id, version), {"kept_name": name, "kept_body": body}
        ).rowcount
        if not moved:
            db.session.execute(
                insert(_table).values(game_id=game_id, name=name, version=version, body=body)
            )
        db.session.commit()
    except (IntegrityError, OperationalError):
        db.session.rollback()  # kept already (this version or a newer one), or game gone


def keep_with_write(game_id: str, version: int, render: Callable[[str], str | None]) -> None:
    """In a write's transaction: bring each view of ``game_id`` kept at an older version
    that ``render(name)`` renders (None: not one of its kind) up to ``version``, committed
    with the write. In a savepoint, so that a refusal (a lock not granted, a statement
    failed) undoes only these views, never the write: the first poll renders them."""
    try:
        with db.session.begin_nested():
            bodies = {}
            for name in kept_names(game_id):
                body = render(name)
                if body is not None:
                    bodies[name] = body
            if bodies:
                db.session.execute(
                    _moving_up(game_id, version),
                    [{"kept_name": name, "kept_body": body} for name, body in bodies.items()],
                )
    except OperationalError:
        pass  # undone, and the write goes on


def _moving_up(game_id: str, version: int) -> Update:
    """The UPDATE that brings a kept view of ``game_id`` (``kept_name``) up to ``version``
    with its new body (``kept_body``), where an older version is kept."""
    return (
        update(_table)
        .where(
            _table.c.game_id == game_id,
            _table.c.name == bindparam("kept_name"),
            _table.c.version < version,
        )
        .values(version=version, body=bindparam("kept_body"))
    )
