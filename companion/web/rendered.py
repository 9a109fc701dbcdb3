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

    def shared_copy(self, key: Hashable, shared: tuple[str, int, str]) -> str | None:
        """The body another process kept for ``shared`` (the game, the version and the
        view), kept here under ``key`` from now on; None when none did (one row read)."""
        game_id, version, view = shared
        body = shared_pages.read(game_id, shared_name(view), version)
        if body is not None:
            self.put(key, body)
        return body

    def get_or_render(
        self,
        key: Hashable,
        render: Callable[[], str],
        shared: tuple[str, int, str] | None = None,
    ) -> str:
        """The body kept for ``key``, or ``render()`` kept from now on. ``shared``: the
        game, the version and the view (kind, language, address) ``key`` stands for, to
        look for it among those other processes rendered first (``shared_copy``) and to
        keep it there, when ``SHARE_RENDERED``."""
        body = self.get(key)
        if body is not None:
            return body
        sharing = shared if current_app.config.get("SHARE_RENDERED") else None
        if sharing is not None:
            body = self.shared_copy(key, sharing)
            if body is not None:
                return body
        body = render()  # outside the lock: two threads may render one page once each
        if sharing is not None:
            game_id, version, view = sharing
            shared_pages.keep(game_id, shared_name(view), version, body)
        self.put(key, body)
        return body


def board_view(lang: str) -> str:
    """The board fragment in ``lang``, as a view kept among the shared ones."""
    return f"board|{lang}"


def board_at(game_id: str, version: int, lang: str) -> tuple[Hashable, tuple[str, int, str]]:
    """Where a game's board fragment at ``version`` in ``lang`` is kept: its key here and
    its view among the shared ones (the board's page and the polls before Flask agree)."""
    return ("board", game_id, version, lang), (game_id, version, board_view(lang))


def shared_name(view: str) -> str:
    """The name a view (kind, language, address) is kept under in ``shared_page``."""
    return hashlib.sha256(view.encode()).hexdigest()


pages = Rendered(8192)
"""The views of the games: the leaderboard page for viewers, the board fragment (a few
per game: one per language and address; 1,000 tables' worth)."""
