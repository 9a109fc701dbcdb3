"""The production start for real: gunicorn with its config file, worker processes, a
PostgreSQL database of the test's own (made empty on the server of ``TEST_DATABASE_URL``).

Without a PostgreSQL ``TEST_DATABASE_URL`` these tests are skipped (``make test``'s first,
SQLite run), and so is the shared rate-limit test without ``TEST_REDIS_URL``; on CI
(``REQUIRE_SERVERS=1``, set by ``.ci/run``) a missing server is an error instead.
"""

from __future__ import annotations

import http.client
import os
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import sqlalchemy

ROOT = Path(__file__).resolve().parent.parent.parent


def server_url(variable: str, scheme: str, example: str) -> str:
    """The URL in ``variable`` if it starts with ``scheme``; else skip (fail on CI)."""
    url = os.environ.get(variable, "")
    if not url.startswith(scheme):
        if os.environ.get("REQUIRE_SERVERS"):
            pytest.fail(f"REQUIRE_SERVERS is set but {variable} is no {scheme} URL")
        pytest.skip(f"needs a server: {variable}={example}")
    return url


def postgres_url() -> sqlalchemy.URL:
    return sqlalchemy.make_url(
        server_url("TEST_DATABASE_URL", "postgresql", "postgresql+psycopg://.../dbname")
    )


@pytest.fixture
def redis_url() -> str:
    """A Redis database of the test server (``TEST_REDIS_URL``), emptied: number 7, which
    nothing else uses."""
    import redis

    url = server_url("TEST_REDIS_URL", "redis://", "redis://127.0.0.1:6379/0")
    own = url.rsplit("/", 1)[0] + "/7" if url.count("/") >= 3 else url + "/7"
    client = redis.Redis.from_url(own)
    client.flushdb()
    client.close()
    return own


@pytest.fixture
def empty_database() -> Iterator[str]:
    """A new, empty database on the test server (dropped afterwards): its URL. Ask for it
    before ``gunicorn``, so that the servers stop before it is dropped."""
    server = postgres_url()
    name = f"{server.database}_start_{uuid.uuid4().hex[:8]}"
    admin = sqlalchemy.create_engine(server, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sqlalchemy.text(f'CREATE DATABASE "{name}"'))
    try:
        yield server.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(sqlalchemy.text(f'DROP DATABASE IF EXISTS "{name}"'))
        admin.dispose()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Gunicorn:
    """A production start in a child process, its log in a file."""

    process: subprocess.Popen[bytes]
    port: int
    log: Path

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def serving(self) -> int:
        """How many workers said they serve."""
        return self.text().count("Worker serving")

    def get(self, path: str, headers: dict[str, str] | None = None) -> tuple[int, dict, bytes]:
        """One request on a connection of its own."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            conn.request("GET", path, headers=headers or {})
            answer = conn.getresponse()
            return answer.status, dict(answer.getheaders()), answer.read()
        finally:
            conn.close()

    def request(
        self, method: str, path: str, body: bytes, headers: dict[str, str]
    ) -> tuple[int, bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            conn.request(method, path, body=body, headers=headers)
            answer = conn.getresponse()
            return answer.status, answer.read()
        finally:
            conn.close()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@pytest.fixture
def gunicorn(
    tmp_path: Path, lexicon_cache: Path
) -> Iterator[Callable[..., Gunicorn]]:
    """``gunicorn(url, workers=4)``: the production start on database ``url``, once every
    worker serves (or the start has failed: then its log is in the failure)."""
    started: list[Gunicorn] = []

    def start(url: str, workers: int = 4, wait: float = 120, **settings: str) -> Gunicorn:
        port = free_port()
        log = tmp_path / f"gunicorn-{port}.log"
        env = {
            **os.environ,
            "DATABASE_URL": url,
            "SECRET_KEY": "test-production-start",
            "LEXICON_DIR": str(tmp_path / "lexicons"),
            "LEXICON_CACHE_DIR": str(lexicon_cache),
            "BIND": f"127.0.0.1:{port}",
            "WEB_CONCURRENCY": str(workers),
            "THREADS": "2",
            "PYTHONPATH": str(ROOT),
            **settings,
        }
        with log.open("wb") as out:
            process = subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "gunicorn.conf.py")],
                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
            )
        server = Gunicorn(process, port, log)
        started.append(server)
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline and process.poll() is None:
            if server.serving() >= workers:
                return server
            time.sleep(0.1)
        return server  # the test looks at what happened

    yield start
    for server in started:
        server.stop()
