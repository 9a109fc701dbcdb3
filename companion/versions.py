"""The games' versions as the polling phones need them: one look at the database per
half second and process, not one per poll.

Every phone asks every 3 seconds whether its game changed; at 1,000 tables that is
2,000 questions a second. Each process keeps the versions it has read, and twice a
second one request looks up, in one statement, the games written since its last look
(``updated_at``, indexed, which every write moves with the version: ``store.touch``).
A version is answered from memory while that look is under ``FRESH`` seconds old;
past that, requests wait for the look under way (all of them woken at once when it
ends), and a game not yet known has its own row read. A process too busy to finish its
look within ``LOOK_WAIT`` goes on with what it knows rather than read a row per poll
(which would make it busier still), unless that look has been under way for
``LOOK_STUCK`` seconds. So a write made by another process (a second worker, another
server, the command line) is seen here within ``FRESH`` seconds, or within one look
when the process is too busy to look that often; this process's own writes are
forgotten at once (``forget``).

Clocks: ``updated_at`` is written by whichever server made the change, so a look asks
from ``CLOCK_MARGIN`` seconds before the previous one (servers a little apart, a slow
commit); a version read alone is trusted ``TRUSTED`` seconds at most in any case.
"""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta

from sqlalchemy import select

from companion.extensions import db
from companion.lone_reads import read_alone
from companion.models import Game

FRESH = 1.0
"""Seconds the last look at the changed games may be old for a version to be trusted:
a write in another process shows within this long (docs/production.md)."""
LOOK_EVERY = 0.5
"""Seconds between two looks at the changed games (made by a request, inline)."""
LOOK_WAIT = 1.0
"""Seconds a request waits for the look under way once what is known is no longer fresh;
beyond, it answers with what is known (a busy process)."""
LOOK_STUCK = 10.0
"""Seconds a look may be under way before it counts as stuck (a database that stopped
answering): the requests then read their own games. As long as a request may wait for a
pooled connection (10 s, ``factory``): a look only waiting its turn is not stuck."""
TRUSTED = 60.0
"""Seconds a version is kept at most, whatever the looks say (clocks far apart)."""
CLOCK_MARGIN = timedelta(seconds=5)
MAX_KNOWN = 20_000
"""Games kept per process; beyond, it starts again rather than grow."""


class Watch:
    """The versions one process knows of one database, and when it last looked."""

    def __init__(self) -> None:
        self.known: dict[str, tuple[float, int | None]] = {}  # id -> (read at, version)
        self.looked = 0.0  # monotonic time of the last look, 0 before the first
        self.since: datetime | None = None  # what the next look asks from
        self.under_way: threading.Event | None = None  # the look under way, set at its end
        self.began = 0.0  # monotonic time the look under way began
        self.looks = 0  # looks done: how a waiter tells whether the one it waited for ended well
        self._starting = threading.Lock()  # held only to start a look or end one

    def version(self, game_id: str) -> int | None:
        """The version of ``game_id`` (None: no such game), from memory when fresh."""
        now = time.monotonic()
        fresh = now - self.looked < FRESH
        if now - self.looked >= LOOK_EVERY:
            fresh = self._look(wait=not fresh) or fresh
        known = self.known.get(game_id)
        if known is not None and fresh and now - known[0] < TRUSTED:
            return known[1]
        rows = read_alone(select(Game.version).where(Game.id == game_id))
        version = rows[0][0] if rows else None
        if len(self.known) >= MAX_KNOWN:
            self.known.clear()
        self.known[game_id] = (now, version)
        return version

    def remembered(self, game_id: str) -> int | None:
        """The version of ``game_id`` when memory alone answers: no look due and a version
        trusted; else None (``version`` asks, the database if need be). What a poll
        checks first, without the app (``web.polling``)."""
        now = time.monotonic()
        known = self.known.get(game_id)
        if known is None or now - self.looked >= LOOK_EVERY or now - known[0] >= TRUSTED:
            return None
        return known[1]

    def _look(self, wait: bool) -> bool:
        """Read the versions of the games written since the last look; whether what is
        known may be answered. One request looks; while the known versions are still
        fresh the others go on with them, and once they are not, the others wait for that
        look (``wait``, up to ``LOOK_WAIT``; woken together when it ends, not one after
        the other) rather than each read its own game: under load a look takes longer,
        and a poll per game reading the database would make the next one slower still."""
        with self._starting:
            under_way, looks = self.under_way, self.looks
            if under_way is None:
                if time.monotonic() - self.looked < LOOK_EVERY:
                    return True  # another request looked just now
                self.under_way, self.began = threading.Event(), time.monotonic()
        if under_way is not None:  # another request is looking
            if not wait:
                return False
            if under_way.wait(LOOK_WAIT):
                return self.looks > looks  # False: that look failed
            return time.monotonic() - self.began < LOOK_STUCK  # busy: what is known stands
        try:
            started = time.monotonic()
            since = datetime.now(UTC).replace(tzinfo=None)
            if self.since is not None and self.known:
                changed = read_alone(
                    select(Game.id, Game.version).where(Game.updated_at >= self.since)
                )
                for game_id, version in changed:
                    if game_id in self.known:
                        self.known[game_id] = (self.known[game_id][0], version)
            elif self.since is None:
                self.known.clear()  # nothing before the first look can be trusted
            self.since = since - CLOCK_MARGIN
            self.looked = started
            self.looks += 1
            return True
        finally:
            with self._starting:
                ended, self.under_way = self.under_way, None
            if ended is not None:
                ended.set()

    def forget(self, game_id: str) -> None:
        """This process changed ``game_id``: read it again next time."""
        self.known.pop(game_id, None)


_watches: dict[str, Watch] = {}
_making = threading.Lock()


def watch() -> Watch:
    """The watch of the app's database (one per database URL: tests run many)."""
    url = db.engine.url.render_as_string()
    found = _watches.get(url)
    if found is None:
        with _making:
            found = _watches.setdefault(url, Watch())
    return found
