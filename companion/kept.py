"""A bounded map shared by a process's threads: what was computed once, kept for the
next request (rendered views, scored games), the least recently used dropped first."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class Kept(Generic[V]):
    """At most ``size`` values by key, the least recently used out first; thread-safe."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> V | None:
        """The value kept for ``key`` (now the most recently used), or None."""
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: Hashable, value: V) -> None:
        """Keep ``value`` for ``key``, dropping the least recently used beyond ``size``."""
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        """Forget everything (a process that never computed anything)."""
        with self._lock:
            self._items.clear()
