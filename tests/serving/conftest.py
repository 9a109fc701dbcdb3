"""The production start for real: gunicorn with its config file, worker processes, a
PostgreSQL database of the test's own (made empty on the server of ``TEST_DATABASE_URL``),
and Debian's nginx in front with the repository's deploy/nginx.conf (``scripts/nginx.sh``).

Without a PostgreSQL ``TEST_DATABASE_URL`` these tests are skipped (``make test``'s first,
SQLite run), and so are the tests that need Redis (``TEST_REDIS_URL``) or nginx
(``/usr/sbin/nginx``); on CI (``REQUIRE_SERVERS=1``, set by ``.ci/run``) a missing server
is an error instead.
"""

from __future__ import annotations

import http.client
import os
import signal
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


NGINX = Path("/usr/sbin/nginx")
"""Debian's nginx, which scripts/nginx.sh starts."""


def missing(reason: str) -> None:
    """Skip the test for want of a server (fail it on CI, where every server is set up)."""
    if os.environ.get("REQUIRE_SERVERS"):
        pytest.fail(f"REQUIRE_SERVERS is set but {reason}")
    pytest.skip(reason)


def server_url(variable: str, scheme: str, example: str) -> str:
    """The URL in ``variable`` if it starts with ``scheme``; else skip (fail on CI)."""
    url = os.environ.get(variable, "")
    if not url.startswith(scheme):
        missing(f"needs a server: {variable}={example} (it is no {scheme} URL)")
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


class Http:
    """Requests to a server on 127.0.0.1:``port``, each on a connection of its own."""

    port: int

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
        status, _, answer = self.exchange(method, path, body, headers)
        return status, answer

    def exchange(
        self, method: str, path: str, body: bytes, headers: dict[str, str]
    ) -> tuple[int, dict, bytes]:
        """The status, headers and body of one request with ``body``."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            conn.request(method, path, body=body, headers=headers)
            answer = conn.getresponse()
            return answer.status, dict(answer.getheaders()), answer.read()
        finally:
            conn.close()


@dataclass
class Gunicorn(Http):
    """A production start in a child process, its log in a file."""

    process: subprocess.Popen[bytes]
    port: int
    log: Path

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def serving(self) -> int:
        """How many workers said they serve."""
        return self.text().count("Worker serving")

    def asked(self, method: str, path: str, expected: int = 0) -> int:
        """How many requests for ``path`` this server answered, by its access log
        (``ACCESS_LOG="-"`` writes it into the log). A worker writes a request's line
        just after its answer has left, so this waits (a few seconds at most) for
        ``expected`` lines to be there."""
        line = f'"{method} {path} HTTP/1.1"'
        deadline = time.monotonic() + 5
        while self.text().count(line) < expected and time.monotonic() < deadline:
            time.sleep(0.02)
        return self.text().count(line)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@pytest.fixture
def gunicorn(tmp_path: Path, lexicon_cache: Path) -> Iterator[Callable[..., Gunicorn]]:
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
            "INSTANCE_PATH": str(tmp_path / "instance"),  # never the checkout's
            "BIND": f"127.0.0.1:{port}",
            "WEB_CONCURRENCY": str(workers),
            "THREADS": "2",
            "PYTHONPATH": str(ROOT),
            **settings,
        }
        with log.open("wb") as out:
            process = subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "gunicorn.conf.py")],
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
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


@dataclass
class Nginx(Http):
    """Debian's nginx started by scripts/nginx.sh with the repository's config."""

    port: int
    run_dir: Path

    @property
    def conf(self) -> Path:
        return self.run_dir / "nginx.conf"

    def stop(self) -> None:
        """``nginx -s quit``, as the script says; the master is gone when its pid file is."""
        pid_file = self.run_dir / "nginx.pid"
        if not pid_file.exists():
            return
        pid = int(pid_file.read_text())
        subprocess.run([str(NGINX), "-c", str(self.conf), "-s", "quit"], check=False)
        deadline = time.monotonic() + 20
        while pid_file.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        if pid_file.exists():  # still there: this test's own nginx, stopped by its pid
            os.kill(pid, signal.SIGKILL)


@pytest.fixture
def nginx(tmp_path: Path) -> Iterator[Callable[..., Nginx]]:
    """``nginx(server, ...)``: nginx in front of these gunicorn servers, answering."""
    started: list[Nginx] = []

    def start(*upstreams: Gunicorn) -> Nginx:
        if not NGINX.exists():
            missing(f"needs Debian's nginx ({NGINX}): apt-get install nginx-light")
        port = free_port()
        run_dir = tmp_path / f"nginx-{port}"
        command = [str(ROOT / "scripts" / "nginx.sh"), "--run-dir", str(run_dir)]
        command += ["--listen", str(port)]
        for upstream in upstreams:
            command += ["--upstream", f"127.0.0.1:{upstream.port}"]
        done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
        front = Nginx(port, run_dir)
        if (run_dir / "nginx.pid").exists():
            started.append(front)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == f"http://127.0.0.1:{port}"
        return front

    yield start
    for front in started:
        front.stop()
