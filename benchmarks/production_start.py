"""The production start, again and again: ``gunicorn -c gunicorn.conf.py`` with 4 workers
on an empty PostgreSQL database, 20 times.

Run: ``.venv/bin/python benchmarks/production_start.py [--starts 20] [--workers 4]
[--database URL]``.

Each start gets a database just made empty (dropped and created on the server that
``scripts/postgres.sh`` starts, or the one of ``--database``). A start counts as up when
its master is alive, every worker has said "Worker serving", and ``/health`` answers 200
on new connections 20 times. Printed: how many came up, the seconds from launch to
every worker serving (median, worst), and the memory of master and workers (their
proportional set size: a page shared by several processes counted once in all).
"""

from __future__ import annotations

import argparse
import http.client
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil
import sqlalchemy
from serving import ROOT, free_port, spawn
from tables import postgres_url, server_env


def fresh(url: str) -> str:
    """Drop and create the database of ``url`` (connected to the server's ``postgres``)."""
    target = sqlalchemy.make_url(url)
    admin = sqlalchemy.create_engine(target.set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(sqlalchemy.text(f'DROP DATABASE IF EXISTS "{target.database}"'))
            conn.execute(sqlalchemy.text(f'CREATE DATABASE "{target.database}"'))
    finally:
        admin.dispose()
    return url


def healthy(port: int, times: int) -> bool:
    for _ in range(times):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            conn.request("GET", "/health")
            if conn.getresponse().status != 200:
                return False
        except OSError:
            return False
        finally:
            conn.close()
    return True


def one_start(url: str, workers: int, folder: Path, n: int) -> tuple[bool, float, float, str]:
    """One start: whether it came up, seconds to every worker serving, MiB in all."""
    port = free_port()
    env = {**server_env(url, port), "WEB_CONCURRENCY": str(workers)}
    launched = time.monotonic()
    command = [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "gunicorn.conf.py")]
    server = spawn(f"start-{n}", command, folder, port, env)
    process, log = server.process, server.log
    up, seconds, mib = False, float("nan"), float("nan")
    try:
        deadline = launched + 120
        while time.monotonic() < deadline and process.poll() is None:
            if log.read_text(errors="replace").count("Worker serving") >= workers:
                seconds = time.monotonic() - launched
                break
            time.sleep(0.05)
        if seconds == seconds and healthy(port, 20) and process.poll() is None:
            tree = [psutil.Process(process.pid), *psutil.Process(process.pid).children()]
            up = len(tree) == workers + 1
            mib = sum(p.memory_full_info().pss for p in tree) / 2**20  # shared pages once
    finally:
        process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    return up, seconds, mib, log.read_text(errors="replace")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--starts", type=int, default=20)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--database", help="PostgreSQL URL (its database is remade each time)")
    args = parser.parse_args()
    base = sqlalchemy.make_url(postgres_url(args.database))
    url = base.set(database=f"{base.database}_starts").render_as_string(hide_password=False)
    results = []
    with tempfile.TemporaryDirectory() as temp:
        for n in range(args.starts):
            up, seconds, mib, log = one_start(fresh(url), args.workers, Path(temp), n)
            results.append((up, seconds, mib))
            print(f"start {n + 1:2}: {'up' if up else 'FAILED'}, every worker serving after "
                  f"{seconds:.2f} s, {mib:.0f} MiB", flush=True)
            if not up:
                print(log[-3000:])
    times = [s for up, s, _ in results if up]
    memory = [m for up, _, m in results if up]
    print(f"\n{len(times)} of {args.starts} starts of {args.workers} workers came up on an "
          f"empty database.")
    if times:
        print(f"every worker serving after {statistics.median(times):.2f} s "
              f"(worst {max(times):.2f} s); master and workers {statistics.median(memory):.0f} "
              f"MiB in all (proportional set size; worst {max(memory):.0f})")


if __name__ == "__main__":
    main()
