"""Serve the app with waitress, a production WSGI server: ``python -m companion.serve``.

``HOST`` (default 127.0.0.1, this machine only) and ``PORT`` (default 5000) come
from the environment. With ``HOST=0.0.0.0`` the phones at the table can join
over the local network: the address to open is printed, with a QR code.
"""

from __future__ import annotations

import os
import socket
import sys
import time
from pathlib import Path

import segno
from flask import Flask
from waitress import serve

from companion import create_app, upgrade_database
from companion.instance import ensure_instance


def lan_address() -> str | None:
    """This machine's address on the local network (no packet is sent to find it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: only selects the outgoing interface
            address = probe.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") else address


def announce(host: str, port: int) -> str:
    """Print where to open the app; for a network-wide host, the phones' address and a QR."""
    if host in ("0.0.0.0", "::", ""):
        address = lan_address()
        if address:
            url = f"http://{address}:{port}/"
            print(f"Phones at the table: open {url} (same Wi-Fi), or scan:", flush=True)
            segno.make(url, error="m").terminal(out=sys.stdout, compact=True)
            return url
        print("No local network address found; phones can't join.", flush=True)
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::', '') else host}:{port}/"
    print(f"Quiddler Companion on {url}", flush=True)
    return url


def main() -> None:
    """Create the instance folder and secret key on first run, migrate once, then serve."""
    ensure_instance(Path(Flask("companion").instance_path))  # where create_app will look
    app = create_app()
    upgrade_database(app)  # once, before serving: never inside create_app
    lexicons = app.extensions["lexicons"]
    built = lexicons.build("standard")  # the first challenge needs no wait
    start = time.perf_counter()
    lexicons.solver_index("standard")  # nor the first best play
    print(
        f"Standard lexicon: {built.words} words, ready in {built.seconds:.2f} s; best-play "
        f"index in {time.perf_counter() - start:.2f} s",
        flush=True,
    )
    host = os.environ.get("HOST", "127.0.0.1")
    port = int(os.environ.get("PORT", "5000"))
    announce(host, port)
    serve(
        app,
        host=host,
        port=port,
        threads=int(os.environ.get("THREADS", "8")),
        ident="quiddler-companion",
    )


if __name__ == "__main__":
    main()
