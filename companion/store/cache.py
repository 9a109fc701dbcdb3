"""What is kept across processes and restarts: Flask-Caching, configured by its own keys
(``CACHE_TYPE``: files in the lexicons' cache folder by default, Redis where the workers
of several machines share one; docs/configuration.md).

It keeps only values worked out from stored rows under a key naming the rows' version
(a table's games summed up for its records): a stale value is never read, only left to
be pruned. Losing it costs time, never data.
"""

from __future__ import annotations

from flask_caching import Cache

cache = Cache()
