"""The production start: ``gunicorn -c gunicorn.conf.py`` (``make serve``), on Linux.

Several worker processes, each with a few threads, share one database (PostgreSQL in
``DATABASE_URL``). The master migrates the database, builds the lexicon caches and makes
the instance folder's secret key once, before any worker starts (``on_starting``), so
workers never race each other through Alembic; each worker then builds its own app
(``companion.serve.wsgi``). docs/production.md explains every setting; each can be changed from
the environment without editing this file.
"""

from __future__ import annotations

import os
import subprocess
import sys

wsgi_app = "companion.serve.wsgi:app"

_address = f"{os.environ.get('HOST', '0.0.0.0')}:{os.environ.get('PORT', '8000')}"
bind = [os.environ.get("BIND") or _address]
# One gevent worker per core, and one more: measured at 1,000 tables on 2 cores shared with
# PostgreSQL (benchmarks/tables.py), 3 workers answered p99 146 ms, 4 gave 199 ms (more
# processes than cores take turns, and each renders and looks apart) and 2 fell behind.
workers = int(os.environ.get("WEB_CONCURRENCY") or (os.cpu_count() or 1) + 1)
# gevent: one event loop per worker, a greenlet per request, idle keep-alive connections
# nearly free. Measured at 600 tables (benchmarks/tables.py): a third less CPU per poll
# than gthread's thread pool, and saves that don't wait behind the polls.
worker_class = os.environ.get("WORKER_CLASS", "gevent")
# A greenlet per connection, each kept while its phone polls: without the spawning tree
# (gevent's own setting, for debugging), each holds a dozen fewer objects for the garbage
# collector to walk (``serve.settle``), and is made faster.
os.environ.setdefault("GEVENT_TRACK_GREENLET_TREE", "false")
threads = int(os.environ.get("THREADS", "4"))  # gthread only
# Many requests at once per worker: more database connections than SQLAlchemy's default
# 5, all kept open (4 workers hold 80: PostgreSQL allows 100; more workers, fewer each).
os.environ.setdefault("DATABASE_POOL_SIZE", "20")
# Phones poll every 3 s: a connection kept 10 s is reused, not reopened, between polls.
keepalive = int(os.environ.get("KEEPALIVE", "10"))
# Open connections per worker, idle ones included: 6,000 phones over 3 workers fit.
worker_connections = int(os.environ.get("WORKER_CONNECTIONS", "2500"))
backlog = 4096
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
    """Before any worker: the instance folder, the migrations (once), the lexicon caches,
    in a child process (``companion.serve --prepare-for``), so that the master imports
    none of the app and holds no database connection for the workers to inherit. A
    failed preparation stops the start."""
    subprocess.run(
        [sys.executable, "-m", "companion.serve", "--prepare-for", str(workers)], check=True
    )


def post_worker_init(worker: object) -> None:
    """The worker's app built: settle it (its lexicon loaded, its objects frozen out of
    the garbage collector's full passes: ``companion.serve.settle``), then say that it
    serves (the start tests count these)."""
    from companion.serve.start import settle
    from companion.serve.wsgi import app

    settle(app)
    worker.log.info("Worker serving (pid: %s)", os.getpid())  # type: ignore[attr-defined]
