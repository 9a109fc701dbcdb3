"""Many tables on one server: N tables of 4-8 phones each, polling the leaderboard.

Run: ``.venv/bin/python benchmarks/tables.py [--tables 200,600,1000] [--seconds 30]
[--runs 3] [--starts default,production] [--generators 2]``.

Each table is a game of 4 to 8 players with rounds 1-3 closed, made through the app
before the server starts. As the room fills (``JOINS_PER_S`` phones a second), each
table opens its game page once (the viewers' session cookie; the board's address is
checked), then every phone at it (one per player) keeps a connection open and asks for
``/games/<id>/board?lang=..`` every 3 s after its last answer, with the ETag it holds
(``If-None-Match``), as ``board.js`` does: a 304 while nothing changed, the new board
after a save. The table's scorekeeper saves round 4 once a minute (``PUT`` through the
API, two deals in turn, so every save changes the game), starting at a random moment.
A quarter of the phones read another language than their table (a board per language
is rendered after each save). ``--no-saves`` leaves the saves out, to weigh the polls.

Two starts are measured, each on a database of its own:
- ``default``: ``make run`` (``python -m companion.serve``: waitress, SQLite);
- ``production``: ``gunicorn -c gunicorn.conf.py`` (4 workers) on PostgreSQL, the
  server ``scripts/postgres.sh`` starts (or ``--database URL``).

Per N it prints the answers' p50 and p99 (polls and saves apart, ms), the errors (a
failed connection, no answer in 10 s, a status other than 200/304 for a poll or 200 for
a save), and the CPU used (in cores: CPU seconds per second) by the server's processes,
by PostgreSQL's and by the load generator's, with the server's memory (proportional set
size) at the end. Once the room has filled and settled, ``--runs`` windows of ``--seconds`` are
measured back to back; with more than one, the median and the worst window are shown.
The generator shares this machine's cores with the server: its own CPU is shown so that
the figures can be read with it in mind.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil
from serving import ROOT, SECRET, Server, free_port, play_game, ready, round_body, spawn

from companion.serve.start import raise_open_files_limit

POLL_S = 3.0
SAVE_S = 0.0 if os.environ.get("TABLES_NO_SAVES") else 60.0
JOINS_PER_S = 100.0  # phones starting to poll, per second, while the room fills
SETTLE_S = 2 * POLL_S  # after the last phone joined, before the measured window


def warm_up(phones: int) -> float:
    """Seconds from the first phone joining to the measured window: the room fills at
    ``JOINS_PER_S`` (at least over one poll interval), then settles."""
    return max(POLL_S, phones / JOINS_PER_S) + SETTLE_S


TIMEOUT_S = 10.0
SAVED_ROUND = 4  # rounds 1-3 closed; round 4 saved again and again while open
LANGUAGES = ("en", "lt", "hu", "cs")
LIVE_URL = re.compile(rb'data-live-url="([^"]+)"')  # the game page's one live part
LEXICON_CACHE = ROOT / ".cache" / "bench-lexicons"  # kept between runs (git-ignored)


@dataclass(frozen=True)
class Table:
    game_id: str
    token: str
    language: str
    players: tuple[str, ...]
    bodies: tuple[bytes, bytes]  # two deals of round 4, saved in turn


# --- the games ---------------------------------------------------------------------------


def app_config(url: str) -> dict[str, Any]:
    """What the benchmark's own app (making the games) and the servers are given."""
    return {
        "DATABASE_URL": url,
        "SECRET_KEY": SECRET,
        "LEXICON_DIR": str(LEXICON_CACHE / "lists"),
        "LEXICON_CACHE_DIR": str(LEXICON_CACHE),
        "RATELIMIT_ENABLED": False,  # one address makes every game here
    }


def make_tables(url: str, count: int) -> list[Table]:
    """An empty database at ``url``, migrated, with ``count`` games: 4-8 players, rounds
    1-3 closed (made through the app's API, as a scorekeeper would)."""
    import sqlalchemy

    from companion import create_app, upgrade_database
    from companion.store.db import db

    engine = sqlalchemy.create_engine(url)
    with engine.begin() as conn:  # start from nothing, as a new server would
        meta = sqlalchemy.MetaData()
        meta.reflect(conn)
        meta.drop_all(conn)
    engine.dispose()
    app = create_app(app_config(url))
    upgrade_database(app)
    client = app.test_client()
    rng = random.Random(2026)
    tables = []
    for n in range(count):
        size = rng.randint(4, 8)
        names = [f"Player {n}-{seat + 1}" for seat in range(size)]
        game_id, token = play_game(client, names, SAVED_ROUND - 1)
        bodies = tuple(
            json.dumps(round_body(SAVED_ROUND, names, seed=seed)).encode() for seed in (1, 2)
        )
        tables.append(Table(game_id, token, rng.choice(LANGUAGES), tuple(names), bodies))
    with app.app_context():
        db.engine.dispose()
    return tables


# --- the servers -------------------------------------------------------------------------


class Running(Server):
    """A server of ``launch``: its processes' CPU and memory besides."""

    def tree(self) -> list[psutil.Process]:
        root = psutil.Process(self.process.pid)
        return [root, *root.children(recursive=True)]

    def cpu_seconds(self) -> float:
        return sum(cpu_of(p) for p in self.tree())

    def pss_mib(self) -> float:
        """The server's memory: the proportional set size of its processes (a page the
        master shares with its workers counted once in all), MiB."""
        total = 0
        for p in self.tree():
            with contextlib.suppress(psutil.NoSuchProcess):
                total += p.memory_full_info().pss
        return total / 2**20


def cpu_of(process: psutil.Process) -> float:
    try:
        times = process.cpu_times()
    except psutil.NoSuchProcess:
        return 0.0
    return times.user + times.system


def postgres_cpu_seconds() -> float:
    """CPU used so far by this machine's PostgreSQL server: its live processes, and the
    connections' processes that have ended (their time is the postmaster's children's)."""
    total = 0.0
    for p in psutil.process_iter(["name", "ppid"]):
        if p.info["name"] != "postgres":
            continue
        total += cpu_of(p)
        if p.info["ppid"] == 1 or (p.info["ppid"] and _name(p.info["ppid"]) != "postgres"):
            try:
                times = p.cpu_times()
            except psutil.NoSuchProcess:
                continue
            total += times.children_user + times.children_system  # the postmaster
    return total


def _name(pid: int) -> str:
    try:
        return psutil.Process(pid).name()
    except psutil.NoSuchProcess:
        return ""


def server_env(url: str, port: int) -> dict[str, str]:
    """The environment a benchmark's server starts with: the database ``url``, the
    benchmark's secret and lexicon cache, loopback ``port`` (both starts read it)."""
    return {
        **os.environ,
        **{k: str(v) for k, v in app_config(url).items() if k != "RATELIMIT_ENABLED"},
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "BIND": f"127.0.0.1:{port}",
        "PYTHONPATH": str(ROOT),
    }


def launch(name: str, url: str, folder: Path) -> Running:
    """Start the server ``name`` on a free port with the database ``url``; wait for /health."""
    port = free_port()
    if name == "default":
        command = [sys.executable, "-m", "companion.serve"]
    else:
        command = [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "gunicorn.conf.py")]
    server = spawn(
        name, command, folder, port, server_env(url, port), Running,
        preexec_fn=raise_open_files_limit,
    )
    return ready(server, "/health", 180)  # type: ignore[return-value]


# --- the phones --------------------------------------------------------------------------


@dataclass
class Tally:
    """What one generator process saw inside the measured window."""

    polls: list[float] = field(default_factory=list)  # seconds
    saves: list[float] = field(default_factory=list)
    boards: list[float] = field(default_factory=list)  # the polls answered 200: new boards
    statuses: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    cpu: float = 0.0


@dataclass
class Windows:
    """The measured windows, back to back from ``first`` (loop time), each ``seconds``
    long, one ``Tally`` each: one room of phones measured several times."""

    first: float
    seconds: float
    tallies: list[Tally]

    def at(self, moment: float) -> Tally | None:
        """The tally of the window ``moment`` falls in, or None outside them."""
        index = int((moment - self.first) // self.seconds)
        return self.tallies[index] if moment >= self.first and index < len(self.tallies) else None

    @property
    def end(self) -> float:
        return self.first + self.seconds * len(self.tallies)


class Connection:
    """One keep-alive HTTP/1.1 connection, reopened when the server closes it."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def exchange(self, request: bytes) -> tuple[int, dict[bytes, bytes], bytes]:
        """Send ``request``, read the whole answer: its status, headers and body. A kept
        connection the server closed meanwhile (idle past its keep-alive) is opened
        again and the request sent once more, as browsers do."""
        reused = self.writer is not None
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        assert self.reader is not None and self.writer is not None
        try:
            self.writer.write(request)
            head = await self.reader.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, ConnectionError) as closed:
            if not reused or (isinstance(closed, asyncio.IncompleteReadError) and closed.partial):
                raise
            self.close()
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
            self.writer.write(request)
            head = await self.reader.readuntil(b"\r\n\r\n")
        lines = head.split(b"\r\n")
        status = int(lines[0].split(b" ", 2)[1])
        headers = {}
        for line in lines[1:]:
            key, _, value = line.partition(b":")
            if key:
                headers[key.strip().lower()] = value.strip()
        body = b""
        if b"chunked" in headers.get(b"transfer-encoding", b"").lower():
            while True:
                size = int((await self.reader.readuntil(b"\r\n")).split(b";")[0], 16)
                body += (await self.reader.readexactly(size + 2))[:size]
                if size == 0:
                    break
        elif length := int(headers.get(b"content-length", b"0")):
            body = await self.reader.readexactly(length)
        if headers.get(b"connection", b"").lower() == b"close":
            self.close()
        return status, headers, body

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


FAILURES = (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError)
"""What a failed exchange raises (a timeout is an OSError)."""


async def ask(
    connection: Connection, request: bytes, kind: str, ok: tuple[int, ...],
    tally: Tally | None,
) -> tuple[dict[bytes, bytes], bytes] | None:
    """One exchange on ``connection``, counted in ``tally`` (None: not measured): its
    time among the polls or saves (``kind``) when its status is in ``ok``, else an
    error; a 200's headers and body."""
    loop = asyncio.get_running_loop()
    sent = loop.time()
    try:
        status, headers, body = await asyncio.wait_for(connection.exchange(request), TIMEOUT_S)
    except FAILURES as error:
        connection.close()
        if tally is not None:
            tally.errors[f"{kind} {type(error).__name__}"] += 1
        return None
    if tally is not None:
        tally.statuses[f"{kind} {status}"] += 1
        if status in ok:
            if kind != "page":
                (tally.polls if kind == "poll" else tally.saves).append(loop.time() - sent)
            if kind == "poll" and status == 200:
                tally.boards.append(loop.time() - sent)
        else:
            tally.errors[f"{kind} {status}"] += 1
    return (headers, body) if status == 200 else None


async def phone(
    table: Table, language: str, port: int, start: float, windows: Windows, cookie: bytes
) -> None:
    """One phone: the board every 3 s with the ETag it holds, from ``start`` until the
    last window ends, at the address the game page gives its script (in the phone's
    language), with the table's viewer cookie."""
    loop = asyncio.get_running_loop()
    connection = Connection(port)
    base = (
        f"GET /games/{table.game_id}/board?lang={language} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Accept-Language: {language}\r\n"
    ).encode() + (b"Cookie: " + cookie + b"\r\n" if cookie else b"")
    tag = b""
    due = start
    while due < windows.end:
        await asyncio.sleep(max(0.0, due - loop.time()))
        request = base + (b"If-None-Match: " + tag + b"\r\n" if tag else b"") + b"\r\n"
        answer = await ask(connection, request, "poll", (200, 304), windows.at(loop.time()))
        if answer is not None:
            tag = answer[0].get(b"etag", b"")
        due = loop.time() + POLL_S  # as board.js: the next poll 3 s after this answer
    connection.close()


async def table_joins(
    table: Table, languages: list[str], port: int, start: float, windows: Windows,
    joins: Tally,
) -> None:
    """A table sits down: the game page opened once (the viewers' session cookie, the
    board's address checked), then its phones start polling, spread over the room's
    filling; and its scorekeeper."""
    loop = asyncio.get_running_loop()
    await asyncio.sleep(max(0.0, start - loop.time()))
    connection = Connection(port)
    page = (
        f"GET /games/{table.game_id} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Accept-Language: {table.language}\r\n\r\n"
    ).encode()
    opened = await ask(connection, page, "page", (200,), joins)
    connection.close()
    if opened is None:  # counted as an error of the page; this table stays away
        return
    headers, body = opened
    found = LIVE_URL.search(body)
    expected = f"/games/{table.game_id}/board?lang={table.language}".encode()
    if not found or found[1].replace(b"&amp;", b"&") != expected:
        joins.errors["page without the board's address"] += 1
    cookie = headers.get(b"set-cookie", b"").split(b";")[0]
    rng = random.Random(table.game_id)
    await asyncio.gather(
        *(
            phone(table, language, port, start + rng.uniform(0, POLL_S), windows, cookie)
            for language in languages
        ),
        scorekeeper(table, port, start + rng.uniform(0, SAVE_S), windows),
    )


async def scorekeeper(table: Table, port: int, start: float, windows: Windows) -> None:
    """The table's scorekeeper: round 4 saved once a minute, the two deals in turn."""
    if SAVE_S <= 0:
        return
    loop = asyncio.get_running_loop()
    connection = Connection(port)
    due, turn = start, 0
    while due < windows.end:
        await asyncio.sleep(max(0.0, due - loop.time()))
        body = table.bodies[turn % 2]
        request = (
            f"PUT /api/v1/games/{table.game_id}/rounds/{SAVED_ROUND} HTTP/1.1\r\n"
            f"Host: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Authorization: Bearer {table.token}\r\nContent-Length: {len(body)}\r\n\r\n"
        ).encode() + body
        await ask(connection, request, "save", (200,), windows.at(loop.time()))
        turn += 1
        due += SAVE_S
    connection.close()


def generate(
    tables: list[Table], port: int, begin: float, seconds: float, runs: int, seed: int,
    phones: int, out: Any,
) -> None:
    """A generator process: its share of the tables, from the wall-clock time ``begin``;
    sends what it saw (per window, a ``Tally`` as a dict; then the joins') through the
    pipe ``out``."""
    raise_open_files_limit()  # every phone is a connection: a file descriptor
    tallies = asyncio.run(drive(tables, port, begin, seconds, runs, seed, phones))
    out.send([
        {
            "polls": tally.polls,
            "saves": tally.saves,
            "boards": tally.boards,
            "statuses": dict(tally.statuses),
            "errors": dict(tally.errors),
            "cpu": tally.cpu,
        }
        for tally in tallies
    ])
    out.close()


async def drive(
    tables: list[Table], port: int, begin: float, seconds: float, runs: int, seed: int,
    phones: int,
) -> list[Tally]:
    """Start every phone and scorekeeper of ``tables`` as a task (``phones``: in the whole
    room, all generators together); the tally of each window (its CPU timed), then the
    joins' (the game pages opened)."""
    loop = asyncio.get_running_loop()
    zero = loop.time() + (begin - time.time())
    joining = warm_up(phones) - SETTLE_S
    windows = Windows(zero + joining + SETTLE_S, seconds, [Tally() for _ in range(runs)])
    joins = Tally()
    rng = random.Random(seed)
    tasks = []
    for table in tables:
        languages = []
        for _ in table.players:
            language = table.language
            if rng.random() < 0.25:
                language = rng.choice([lang for lang in LANGUAGES if lang != language])
            languages.append(language)
        start = zero + rng.uniform(0, joining)
        tasks.append(
            asyncio.create_task(table_joins(table, languages, port, start, windows, joins))
        )
    for n, tally in enumerate(windows.tallies):
        await asyncio.sleep(max(0.0, windows.first + n * seconds - loop.time()))
        cpu_start = time.process_time()
        await asyncio.sleep(max(0.0, windows.first + (n + 1) * seconds - loop.time()))
        tally.cpu = time.process_time() - cpu_start
    await asyncio.gather(*tasks)
    return [*windows.tallies, joins]


# --- a run -------------------------------------------------------------------------------


@dataclass
class Run:
    """One measured window at N tables."""

    tables: int
    phones: int
    polls: list[float]
    saves: list[float]
    boards: list[float]
    statuses: Counter[str]
    errors: Counter[str]
    seconds: float
    server_cpu: float  # cores
    postgres_cpu: float
    generator_cpu: float
    rss_mib: float

    def p(self, values: list[float], q: float) -> float:
        if not values:
            return float("nan")
        ordered = sorted(values)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000

    @property
    def error_count(self) -> int:
        return sum(self.errors.values())


def measure(
    server: Running, tables: list[Table], seconds: float, runs: int, generators: int
) -> tuple[list[Run], Counter[str]]:
    """Load ``server`` with ``tables``: the room fills, settles, then ``runs`` windows of
    ``seconds`` back to back are measured; a ``Run`` each, and the joins' errors."""
    context = multiprocessing.get_context("spawn")
    phones = sum(len(t.players) for t in tables)
    begin = time.time() + 1.0  # every generator process is up by then
    pipes, processes = [], []
    for g in range(generators):
        receive, send = context.Pipe(duplex=False)
        share = tables[g::generators]
        process = context.Process(
            target=generate,
            args=(share, server.port, begin, seconds, runs, 7 + g, phones, send),
        )
        process.start()
        send.close()
        pipes.append(receive)
        processes.append(process)
    first = begin + warm_up(phones)
    samples = []
    for n in range(runs + 1):  # the server's and PostgreSQL's CPU at each window's edges
        time.sleep(max(0.0, first + n * seconds - time.time()))
        samples.append((time.time(), server.cpu_seconds(), postgres_cpu_seconds()))
    rss = server.pss_mib()
    results = [pipe.recv() for pipe in pipes]
    for process in processes:
        process.join()
    joins: Counter[str] = Counter()
    for result in results:
        joins.update(result[-1]["errors"])
    made = []
    for n in range(runs):
        parts = [result[n] for result in results]
        (t0, server0, pg0), (t1, server1, pg1) = samples[n], samples[n + 1]
        statuses: Counter[str] = Counter()
        errors: Counter[str] = Counter()
        for part in parts:
            statuses.update(part["statuses"])
            errors.update(part["errors"])
        made.append(Run(
            tables=len(tables),
            phones=phones,
            polls=[v for part in parts for v in part["polls"]],
            saves=[v for part in parts for v in part["saves"]],
            boards=[v for part in parts for v in part["boards"]],
            statuses=statuses,
            errors=errors,
            seconds=seconds,
            server_cpu=(server1 - server0) / (t1 - t0),
            postgres_cpu=(pg1 - pg0) / (t1 - t0) if server.name == "production" else 0.0,
            generator_cpu=sum(part["cpu"] for part in parts) / seconds,
            rss_mib=rss,
        ))
    return made, joins


# --- the report --------------------------------------------------------------------------


def summary(start: str, runs: list[Run]) -> str:
    """One line for N tables: each figure as the median of the runs (worst in brackets)."""

    def both(values: list[float], fmt: str = "{:.0f}", worst: Any = max) -> str:
        middle = statistics.median(values)
        return fmt.format(middle) + ("" if len(values) == 1 else f" ({fmt.format(worst(values))})")

    first = runs[0]
    rate = statistics.median(len(r.polls) / r.seconds for r in runs)
    return " | ".join(
        [
            start,
            str(first.tables),
            str(first.phones),
            f"{rate:.0f}",
            both([r.p(r.polls, 0.5) for r in runs], "{:.1f}"),
            both([r.p(r.polls, 0.99) for r in runs], "{:.1f}"),
            both([r.p(r.saves, 0.5) for r in runs], "{:.1f}"),
            both([r.p(r.saves, 0.99) for r in runs], "{:.1f}"),
            both([float(r.error_count) for r in runs]),
            both([r.server_cpu for r in runs], "{:.2f}"),
            both([r.postgres_cpu for r in runs], "{:.2f}"),
            both([r.generator_cpu for r in runs], "{:.2f}"),
            both([r.rss_mib for r in runs]),
        ]
    )


def new_boards(runs: list[Run]) -> str:
    """The polls answered 200 (a new board, after a save) apart: how many, how fast."""
    count = statistics.median(len(r.boards) / r.seconds for r in runs)
    p50 = statistics.median(r.p(r.boards, 0.5) for r in runs)
    p99 = statistics.median(r.p(r.boards, 0.99) for r in runs)
    return f"new boards (polls answered 200): {count:.0f}/s, p50 {p50:.1f} ms, p99 {p99:.1f} ms"


HEADER = (
    "start | tables | phones | polls/s | poll p50 ms | poll p99 ms | save p50 ms | "
    "save p99 ms | errors | server CPU | PostgreSQL CPU | generator CPU | server MiB"
)


def postgres_url(given: str | None) -> str:
    """The benchmark's PostgreSQL database: ``given``, or one on the server that
    ``scripts/postgres.sh`` starts."""
    if given:
        return given
    made = subprocess.run(
        [str(ROOT / "scripts" / "postgres.sh")],
        env={**os.environ, "PG_DATABASE": "companion_bench"},
        check=True, capture_output=True, text=True,
    )
    return made.stdout.strip().splitlines()[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="200,600,1000")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--starts", default="default,production")
    parser.add_argument("--generators", type=int, default=2, help="load generator processes")
    parser.add_argument("--database", help="PostgreSQL URL for the production start")
    parser.add_argument("--no-saves", action="store_true", help="polls only (to weigh them)")
    args = parser.parse_args()
    if args.no_saves:
        os.environ["TABLES_NO_SAVES"] = "1"  # read by the generator processes
    counts = [int(n) for n in args.tables.split(",")]
    print(HEADER, flush=True)
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        for start in args.starts.split(","):
            if start == "default":
                url = f"sqlite:///{folder / 'tables.sqlite3'}"
            else:
                url = postgres_url(args.database)
            made = time.perf_counter()
            tables = make_tables(url, max(counts))
            print(f"# {start}: {len(tables)} games made in {time.perf_counter() - made:.0f} s",
                  flush=True)
            server = launch(start, url, folder)
            try:
                for count in counts:
                    runs, joins = measure(
                        server, tables[:count], args.seconds, args.runs, args.generators
                    )
                    print(summary(start, runs), flush=True)
                    print(f"#   {new_boards(runs)}", flush=True)
                    errors: Counter[str] = Counter()
                    for r in runs:
                        errors.update(r.errors)
                    if errors:
                        print(f"#   errors: {dict(errors)}", flush=True)
                    if joins:
                        print(f"#   while the room filled: {dict(joins)}", flush=True)
            finally:
                server.stop()
    print("\nFigures: median of the runs, worst in brackets.")


if __name__ == "__main__":
    main()
