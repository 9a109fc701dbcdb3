"""Serve the app with waitress, a production WSGI server: ``python -m companion.serve``.

``HOST`` (default 127.0.0.1, this machine only) and ``PORT`` (default 5000) come
from the environment. With ``HOST=0.0.0.0`` the phones at the table can join
over the local network: the address to open is printed, with a QR code, and the app
builds the links it shares from it (``LAN_URL``) when its page is opened on loopback.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import socket
import sys
import time
from pathlib import Path
from typing import Any

import segno
import waitress
from flask import Flask
from waitress.adjustments import Adjustments

from companion import create_app, upgrade_database
from companion.serve.factory import database_revision, trusted_proxies
from companion.serve.instance import ensure_instance, folder


def lan_address() -> str | None:
    """This machine's address on the local network (no packet is sent to find it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: only selects the outgoing interface
            address = probe.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") else address


def phones_url(host: str, port: int) -> str | None:
    """The address the other phones open, when ``host`` listens on every interface and
    this machine has a local network address; else None (they can't join)."""
    if host not in ("0.0.0.0", "::", ""):
        return None
    address = lan_address()
    return f"http://{address}:{port}/" if address else None


def announce(host: str, port: int, phones: str | None) -> str:
    """Print where to open the app; for a network-wide host, the phones' address and a QR."""
    if phones:
        print(f"Phones at the table: open {phones} (same Wi-Fi), or scan:", flush=True)
        segno.make(phones, error="m").terminal(out=sys.stdout, compact=True)
        return phones
    if host in ("0.0.0.0", "::", ""):
        print("No local network address found; phones can't join.", flush=True)
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::', '') else host}:{port}/"
    print(f"Quiddler Companion on {url}", flush=True)
    return url


def start_definitions(app: Flask) -> None:
    """When the definitions' cache is missing (the first start only), start building it in
    a child process (a build takes about a hundred MiB that a server would keep), which
    ``warm_definitions`` waits for: started before the standard list's build, the two
    builds share the machine's cores."""
    definitions = app.extensions.get("definitions")
    if definitions is None or BUILDING in app.extensions or definitions.cached():
        return
    lexicons = app.extensions["lexicons"]
    context = multiprocessing.get_context("spawn")
    child = context.Process(
        target=_build_definitions, args=(lexicons.folder, lexicons.cache_folder)
    )
    child.start()
    app.extensions[BUILDING] = child


BUILDING = "definitions-build"
"""The app's extension that holds the definitions' build, while it runs."""


def warm_definitions(app: Flask) -> int:
    """Load the definitions into the app, once their build (``start_definitions``, started
    here if it wasn't) is done."""
    start_definitions(app)
    child = app.extensions.pop(BUILDING, None)
    if child is not None:
        child.join()
    return app.extensions["definitions"].load()


def _build_definitions(folder: Path, cache_folder: Path) -> None:
    """A child process's work: read WordNet into the definitions' cache if it isn't there."""
    from companion.lexicon.definitions import Definitions

    Definitions(folder, cache_folder).load()


def prepare(server_reads_proxies: bool = False) -> Flask:
    """Everything a start does once, before serving: the instance folder and its secret key
    (first run), the migrations, the standard lexicon, its best-play index and the
    definitions, built into their caches. The production start (gunicorn.conf.py) runs it
    in the master process before any worker exists, so the workers only read.
    ``server_reads_proxies``: the app is waitress's, which reads the proxies' headers."""
    ensure_instance(folder())  # where create_app will look
    app = create_app(server_reads_proxies=server_reads_proxies)
    before = database_revision(app)
    upgrade_database(app)  # once, before serving: never inside create_app
    after = database_revision(app)
    moved = "" if before == after else f" (upgraded from {before or 'an empty database'})"
    print(f"Database at revision {after}{moved}", flush=True)
    start_definitions(app)  # a first start: built beside the standard list, not after it
    lexicons = app.extensions["lexicons"]
    built = lexicons.build("standard", in_child=True)  # the first challenge needs no wait
    start = time.perf_counter()
    lexicons.solver_index("standard")  # nor the first best play
    index_seconds = time.perf_counter() - start
    start = time.perf_counter()
    defined = warm_definitions(app)
    print(
        f"Standard lexicon: {built.words} words, ready in {built.seconds:.2f} s; best-play "
        f"index in {index_seconds:.2f} s; {defined} definitions in "
        f"{time.perf_counter() - start:.2f} s",
        flush=True,
    )
    return app


YOUNG_OBJECTS = 5_000
"""Objects made (net) between two collections of the youngest generation (Python's
default: 700)."""


def settle(app: Flask) -> None:
    """Just before this process serves: the standard lexicon and the definitions loaded
    into it, then everything made so far put out of the garbage collector's reach
    (``gc.freeze``), and its youngest generation made larger (``YOUNG_OBJECTS``): a full
    collection walks every object the process holds and stops its requests meanwhile
    (measured at 1,000 tables: 270-340 ms every few seconds per worker before, about
    half as long and a third as often after)."""
    app.extensions["lexicons"].get("standard")
    app.extensions["definitions"].load()
    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_OBJECTS, older, oldest)


FORWARDED = "x-forwarded-for x-forwarded-host x-forwarded-proto x-forwarded-port"
"""The proxies' headers waitress reads behind ``TRUSTED_PROXIES`` (its own names)."""


def proxy_options(proxies: int) -> dict[str, Any]:
    """waitress's own trusted-proxy settings (its public options) for ``TRUSTED_PROXIES =
    proxies``: the client's address, scheme, host and port from the last ``proxies``
    entries of X-Forwarded-For, -Proto, -Host and -Port, as the production start's
    ProxyFix reads them; every other proxy header (``Forwarded``, ``X-Forwarded-By``)
    removed. ``X-Forwarded-Prefix`` is no header of waitress's and the app applies none
    here: ``make run`` serves at the root of its host. With no proxy, waitress removes
    them all (a client's own never reaches the app)."""
    if not proxies:
        return {"clear_untrusted_proxy_headers": True}
    return {
        # Any peer, as ProxyFix trusts any: only the proxy may reach this server.
        "trusted_proxy": "*",
        "trusted_proxy_count": proxies,
        "trusted_proxy_headers": FORWARDED,
        "clear_untrusted_proxy_headers": True,
    }


def main() -> None:
    """Create the instance folder and secret key on first run, migrate once, then serve."""
    app = prepare(server_reads_proxies=True)
    settle(app)
    host = os.environ.get("HOST", "127.0.0.1")
    port = int(os.environ.get("PORT", "5000"))
    phones = phones_url(host, port)
    if phones:
        # A page opened on this computer (127.0.0.1) gives the other phones links they can open.
        app.config["LAN_URL"] = phones
    announce(host, port, phones)
    serve(
        app,
        host=host,
        port=port,
        threads=int(os.environ.get("THREADS", "8")),
        # Every phone at the tables keeps a connection open between its polls: waitress's
        # default of 100 connections would queue a club evening's polls behind each other.
        connection_limit=int(os.environ.get("CONNECTION_LIMIT", "1000")),
        asyncore_use_poll=True,  # select() stops at file descriptor 1024
        backlog=1024,
        ident="quiddler-companion",
        max_request_body_size=body_limit(app),  # a bigger body still: waitress's 413, unread
        **proxy_options(trusted_proxies(app.config)),
    )


BODY_ROOM = 4
"""How many times the app's ``MAX_CONTENT_LENGTH`` waitress reads of a body."""


def body_limit(app: Flask) -> int:
    """The largest body waitress reads (its ``max_request_body_size``): ``BODY_ROOM`` times
    the app's ``MAX_CONTENT_LENGTH``, so that a body over the app's limit is refused by the
    app (413 ``too_large``, in the reader's words, with every header the app sets). Only a
    body larger still is refused by waitress itself, before it is read: a plain-text 413
    without the app's headers (docs/configuration.md). The pages that take a file (a
    backup, the photos of hands: ``web.errors.takes_file``) are read up to their own
    limit. No limit set: waitress's own."""
    from companion.web.errors import file_limits  # the web stack is loaded by then

    limit = app.config.get("MAX_CONTENT_LENGTH")
    if not limit:
        return Adjustments.max_request_body_size
    return max(BODY_ROOM * int(limit), *file_limits(app))


def serve(app: Flask, **options: Any) -> None:
    """``waitress.serve`` (its public API, configured, nothing of it overridden), with as
    many open connections as this process may hold."""
    raise_open_files_limit()
    waitress.serve(app, **options)


def raise_open_files_limit() -> None:
    """Let this process hold as many connections as the hard limit allows (each is a file
    descriptor; the soft limit is often 1,024)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def prepare_for_workers(workers: int) -> None:
    """``prepare``, check that the workers' database connections fit in what the server
    allows (exit 1, saying why, when not), then let go of the database; warn when several
    workers would each count the rate limits in their own memory. The production start
    runs this in a child process of gunicorn's master (``python -m companion.serve
    --prepare-for N``): the master imports none of the app and holds no database
    connection for its workers to inherit."""
    from companion.store.db import db

    app = prepare()
    with app.app_context():
        try:
            said = check_connections(workers, app.config.get("DATABASE_POOL_SIZE"))
        finally:
            db.engine.dispose()
    if said:
        print(said, flush=True)
    storage = str(app.config.get("RATELIMIT_STORAGE_URI") or "memory://")
    if workers > 1 and storage.startswith("memory://"):
        print(
            f"Warning: rate limits are counted in memory, by each of the {workers} workers "
            "apart (each allows the whole limit); set RATELIMIT_STORAGE_URI to a shared "
            "store such as redis://127.0.0.1:6379/0 (docs/production.md).",
            flush=True,
        )


def check_connections(workers: int, pool: object) -> str | None:
    """On PostgreSQL, ``workers`` x ``pool`` connections against the server's
    ``max_connections`` less its reserved slots (``connections.check_server``): what it
    found, or exit 1 with the reason; None on another database or without a pool."""
    from sqlalchemy import text

    from companion.serve.connections import check_server
    from companion.store.db import db

    if not pool or db.engine.dialect.name != "postgresql":
        return None
    with db.engine.connect() as conn:
        limit, superusers, reserved = conn.execute(
            text(
                "SELECT current_setting('max_connections')::int,"
                " current_setting('superuser_reserved_connections')::int,"
                " coalesce(current_setting('reserved_connections', true), '0')::int"  # 16 on
            )
        ).one()
    try:
        return check_server(workers, int(str(pool)), limit, superusers + reserved)
    except ValueError as refused:
        print(f"Refusing to start: {refused}", file=sys.stderr, flush=True)
        raise SystemExit(1) from None
