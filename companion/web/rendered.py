"""Rendered views kept in memory, keyed by what they show: a game's id and version.

Every write bumps the game's version in the database, and every read asks the
database for the version first (one small query), so a kept page is served
only while it is still the truth, whichever process changed the game.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable


class Rendered:
    """A bounded, thread-safe map from a key to a rendered body (least recently used out)."""

    def __init__(self, size: int = 512) -> None:
        self.size = size
        self._items: OrderedDict[Hashable, str] = OrderedDict()
        self._lock = threading.Lock()

    def get_or_render(self, key: Hashable, render: Callable[[], str]) -> str:
        """The body kept for ``key``, or ``render()`` kept from now on."""
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
                return found
        body = render()  # outside the lock: two threads may render the same page once each
        with self._lock:
            self._items[key] = body
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return body


pages = Rendered()
"""The views of the games: the leaderboard page for viewers, the board fragment."""
