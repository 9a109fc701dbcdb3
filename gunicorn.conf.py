"""The production start: ``gunicorn -c gunicorn.conf.py`` (``make serve``), on Linux,
behind nginx (``deploy/nginx.conf``).

Several worker processes, each with a few threads (gunicorn's stock ``gthread`` worker),
share one database (PostgreSQL in ``DATABASE_URL``). nginx holds the phones' connections,
reads their requests whole, answers the polls every phone shares from its micro-cache and
the static files from disk, and hands gunicorn complete requests over a few kept-alive
connections: gunicorn needs no event loop for thousands of idle phones. The master
migrates the database, builds the lexicon caches and makes the instance folder's secret
key once, before any worker starts (``on_starting``), so workers never race each other
through Alembic; each worker then builds its own app (``companion.serve.wsgi``).
docs/production.md explains every setting; each can be changed from the environment
without editing this file.
"""

from __future__ import annotations

import os
import subprocess
import sys

wsgi_app = "companion.serve.wsgi:app"

# Loopback by default: only nginx on this machine reaches gunicorn (the app trusts its
# X-Forwarded-* with TRUSTED_PROXIES=1). A second machine's gunicorn binds a private
# address nginx reaches (BIND or HOST).
_address = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"
bind = [os.environ.get("BIND") or _address]
# One worker per core, and one more (a worker waiting for PostgreSQL leaves its core to
# another).
workers = int(os.environ.get("WEB_CONCURRENCY") or (os.cpu_count() or 1) + 1)
# gthread: a thread pool per worker, stock Python with nothing patched. Its requests come
# whole from nginx, a few at a time, so a few threads keep a core busy while one of them
# waits for the database; idle kept-alive connections wait in the worker's poller, not in
# a thread.
worker_class = os.environ.get("WORKER_CLASS", "gthread")
threads = int(os.environ.get("THREADS", "4"))
# A database connection per thread, all kept open (3 workers of 4 threads: 12), never
# more in all than DATABASE_MAX_CONNECTIONS (default 80, under PostgreSQL's default 100):
# worked out in on_starting, checked against the server's max_connections there.
# Longer than nginx keeps an idle connection to gunicorn (its upstream keepalive_timeout,
# 60 s): nginx closes it first, and never sends a request on one gunicorn is closing.
keepalive = int(os.environ.get("KEEPALIVE", "75"))
timeout = 30  # a worker silent this long is replaced
graceful_timeout = 20

# What a request may be before the app sees it (bodies: the app's MAX_CONTENT_LENGTH
# answers 413 from Content-Length, before a byte of the body is read or stored).
limit_request_line = 4094
limit_request_fields = 60
limit_request_field_size = 8190

# X-Forwarded-* are the app's to read (TRUSTED_PROXIES, ProxyFix), never gunicorn's.
forwarded_allow_ips = ""

accesslog = os.environ.get("ACCESS_LOG") or None  # "-" for standard output
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info")
proc_name = "quiddler-companion"
# No control socket: one fixed path per user, which two servers on a box would fight over.
control_socket_disable = True


def on_starting(server: object) -> None:
    """Before any worker: the workers' database pool (``DATABASE_POOL_SIZE``, which they
    inherit: ``companion.serve.connections``), then the instance folder, the migrations
    (once), the lexicon caches and the pool checked against the database server's
    ``max_connections``, in a child process (``companion.serve --prepare-for``), so that
    the master imports none of the app and holds no database connection for the workers
    to inherit. A pool that can't fit, or a failed preparation, stops the start (gunicorn
    prints the reason: a RuntimeError's)."""
    from companion.serve.connections import DEFAULT_TOTAL, pool_per_worker

    asked = os.environ.get("DATABASE_POOL_SIZE")
    try:
        total = int(os.environ.get("DATABASE_MAX_CONNECTIONS") or DEFAULT_TOTAL)
        pool = pool_per_worker(workers, threads, total, int(asked) if asked else None)
    except ValueError as refused:  # a number that can't fit, or no number
        raise RuntimeError(f"Refusing to start: {refused}") from None
    os.environ["DATABASE_POOL_SIZE"] = str(pool)
    log = server.log  # type: ignore[attr-defined]
    log.info("Database pool: %d connections per worker, %d in all", pool, workers * pool)
    if pool < threads:
        log.warning(
            "Each worker has %d database connections for its %d threads (%d workers, "
            "DATABASE_MAX_CONNECTIONS=%d): a request waits for a free one, up to 10 s, "
            "then gets 503 (docs/production.md)", pool, threads, workers, total,
        )
    prepared = subprocess.run(
        [sys.executable, "-m", "companion.serve", "--prepare-for", str(workers)], check=False
    )
    if prepared.returncode:
        raise RuntimeError("Refusing to start: the preparation failed (its reason is above)")


def post_worker_init(worker: object) -> None:
    """The worker's app built: settle it (its lexicon loaded, its objects frozen out of
    the garbage collector's full passes: ``companion.serve.start.settle``), then say that it
    serves (the start tests count these)."""
    from companion.serve.start import settle
    from companion.serve.wsgi import app

    settle(app)
    worker.log.info("Worker serving (pid: %s)", os.getpid())  # type: ignore[attr-defined]
