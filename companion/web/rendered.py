"""Rendered views kept in memory, keyed by what they show: a game's id and version.

Every write bumps the game's version in the database, and every read asks for the
version first (``store.game_version``), so a kept page is served only while it is
still the truth, whichever process changed the game. With several server processes on
a server database (``SHARE_RENDERED``), a view one process rendered is kept in the
database too (``shared_pages``), and the others serve it instead of rendering it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Hashable

from flask import current_app

from companion import shared_pages
from companion.kept import Kept


class Rendered(Kept[str]):
    """Rendered bodies by key (bounded, thread-safe), and where other processes keep them."""

    def get_or_render(
        self,
        key: Hashable,
        render: Callable[[], str],
        shared: tuple[str, int, str] | None = None,
    ) -> str:
        """The body kept for ``key``, or ``render()`` kept from now on. ``shared``: the
        game, the version and the view (kind, language, address) ``key`` stands for, to
        look for it among those other processes rendered first (and to keep it there),
        when ``SHARE_RENDERED``."""
        found = self.get(key)
        if found is not None:
            return found
        if shared is None or not current_app.config.get("SHARE_RENDERED"):
            body = render()  # outside the lock: two threads may render one page once each
        else:
            game_id, version, view = shared
            name = shared_name(view)
            body = shared_pages.read(game_id, name, version)
            if body is None:
                body = render()
                shared_pages.keep(game_id, name, version, body)
        self.put(key, body)
        return body


def shared_name(view: str) -> str:
    """The name a view (kind, language, address) is kept under in ``shared_page``."""
    return hashlib.sha256(view.encode()).hexdigest()


pages = Rendered(8192)
"""The views of the games: the leaderboard page for viewers, the board fragment (a few
per game: one per language and address; 1,000 tables' worth)."""
