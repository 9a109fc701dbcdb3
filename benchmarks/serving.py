"""A server in a child process on a free loopback port, for the benchmarks to load.

Shared by ``web.py`` and ``seat_entry.py``: start the code given (it reads its port and
thread count from ``sys.argv``), wait until a page answers 200, read its memory, stop it.
"""

from __future__ import annotations

import http.client
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flask import Flask

ROOT = Path(__file__).resolve().parent.parent
THREADS = 8  # waitress threads, as companion/serve.py
SECRET = "benchmark-not-secret"


def migrated_app(folder: Path) -> tuple[Flask, dict[str, object]]:
    """A new instance in ``folder`` (its SQLite file migrated, as the serve command does
    once before serving): the app and the config that makes it again in a server."""
    from companion import create_app, upgrade_database

    config: dict[str, object] = {
        "DATABASE_URL": "sqlite:///" + str(folder / "bench.sqlite3"),
        "LEXICON_DIR": str(folder / "lexicons"),
        "LEXICON_CACHE_DIR": str(folder / "lexicons" / "cache"),
        "SECRET_KEY": SECRET,
        "RATELIMIT_ENABLED": False,  # one address makes every request here
    }
    app = create_app(config)
    upgrade_database(app)
    return app, config


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Server:
    name: str
    process: subprocess.Popen[bytes]
    port: int
    log: Path

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def rss_mib(self) -> tuple[float, float]:
        """Resident memory now and at its peak (VmRSS, VmHWM), MiB."""
        fields = {}
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            key, _, rest = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                fields[key] = int(rest.split()[0]) / 1024
        return fields["VmRSS"], fields["VmHWM"]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def start(
    name: str, code: str, args: list[str], folder: Path, probe: str, wait: float = 90
) -> Server:
    """Serve ``code`` in a child process (``python -c code port threads *args``); return
    once ``probe`` answers 200, or raise with the server's log."""
    port = free_port()
    log = folder / f"{name}.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-c", code, str(port), str(THREADS), *args],
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    server = Server(name, process, port, log)
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline and process.poll() is None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            conn.request("GET", probe)
            if conn.getresponse().status == 200:
                return server
        except OSError:
            time.sleep(0.1)
        finally:
            conn.close()
    server.stop()
    raise RuntimeError(f"{name} server did not start:\n{log.read_text()}")
