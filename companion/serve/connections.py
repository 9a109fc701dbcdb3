"""How many database connections the production start holds, worked out before any
worker starts: one per thread of each worker, never more in all than the start may use
(``DATABASE_MAX_CONNECTIONS``), and never more than the database server allows clients.

A connection PostgreSQL refuses ("too many clients") fails the request that needed it,
so the start refuses to begin rather than ask for more than the server takes: gunicorn's
master works out the pool from its settings (``pool_per_worker``) and gives it to the
workers (``DATABASE_POOL_SIZE``); its preparation, which connects anyway, then checks
the total against the server's ``max_connections`` (``check_server``). Loads nothing:
gunicorn's master imports it, and none of the app.
"""

from __future__ import annotations

DEFAULT_TOTAL = 80
"""Connections the production start holds at most in all, by default: PostgreSQL's
default ``max_connections`` (100) less the 3 it keeps for superusers, and room for psql,
a backup, a monitor and the next start's migrations."""


def pool_per_worker(workers: int, threads: int, total: int, asked: int | None = None) -> int:
    """The database connections each of ``workers`` worker processes keeps: one per thread
    (``threads``), or ``total // workers`` when fewer fit in ``total`` (a thread then
    waits for a free one); ``asked`` (``DATABASE_POOL_SIZE`` given): exactly that many.
    ValueError, saying what to change, when the workers' connections can't fit."""
    if workers < 1 or threads < 1:
        raise ValueError(f"{workers} workers of {threads} threads: both must be 1 or more")
    if total < 1:
        raise ValueError(f"DATABASE_MAX_CONNECTIONS must be 1 or more, not {total}")
    if asked is not None:
        if asked < 1:
            raise ValueError(f"DATABASE_POOL_SIZE must be 1 or more, not {asked}")
        if workers * asked > total:
            raise ValueError(
                f"{workers} workers of DATABASE_POOL_SIZE={asked} connections would hold "
                f"{workers * asked}, over DATABASE_MAX_CONNECTIONS={total}: lower "
                "WEB_CONCURRENCY or DATABASE_POOL_SIZE (unset, it is worked out), or raise "
                "DATABASE_MAX_CONNECTIONS within the server's max_connections"
            )
        return asked
    pool = min(threads, total // workers)
    if pool < 1:
        raise ValueError(
            f"{workers} workers need a database connection each, and "
            f"DATABASE_MAX_CONNECTIONS={total}: lower WEB_CONCURRENCY, or raise "
            "DATABASE_MAX_CONNECTIONS within the server's max_connections"
        )
    return pool


def check_server(workers: int, pool: int, max_connections: int, reserved: int) -> str:
    """What the start holds against what the database server allows its clients
    (``max_connections`` less the ``reserved`` slots kept for superusers and the like): a
    line that says so, or ValueError, saying what to change, when the workers' ``pool``
    connections each would not fit."""
    allowed = max_connections - reserved
    held = workers * pool
    said = (
        f"{workers} workers x {pool} = {held} database connections; the server allows "
        f"{allowed} (max_connections {max_connections}, {reserved} reserved)"
    )
    if held > allowed:
        raise ValueError(
            f"{said}: set DATABASE_MAX_CONNECTIONS to {allowed} or less (and leave room "
            "for psql and backups), lower WEB_CONCURRENCY, or raise the server's "
            "max_connections"
        )
    return said
