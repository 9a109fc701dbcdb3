"""Rendered views kept in memory (cachetools), keyed by what they show: the build, a
game's id and version, the language and the address the links start from, and the root
of the address the request came to (scheme, host and the app's prefix: ``url_for``'s
links start from it, and behind ``TRUSTED_PROXIES`` a proxy's headers set it).

Every write bumps the game's version in the database, and every read asks for the
version first (``store.game_version``), so a kept page is served only while it is
still the truth, whichever process changed the game. Each process keeps its own: on a
server, nginx's micro-cache (deploy/nginx.conf) shares the polled views between them.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable

from cachetools import LRUCache
from flask import current_app, request

KEPT_VIEWS = 4096
"""Views kept per process: a few per game (one per language and address)."""

_views: LRUCache[Hashable, str] = LRUCache(KEPT_VIEWS)
_lock = threading.Lock()


def get_or_render(key: tuple[Hashable, ...], render: Callable[[], str]) -> str:
    """The body kept for ``key`` in this build at this request's root, or ``render()``,
    kept from now on (two threads may render one view once each: rendering is outside
    the lock). The root is in the key so that no request's own address (a forwarded
    prefix or host) ever shows in a view kept for a request that came another way."""
    full = (current_app.config["BUILD"], request.url_root, *key)
    with _lock:
        body = _views.get(full)
    if body is None:
        body = render()
        with _lock:
            _views[full] = body
    return body
