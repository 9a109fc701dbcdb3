"""Requests per second under waitress: the leaderboard page, its 304 refresh and saving a round.

Run: ``.venv/bin/python benchmarks/web.py [--runs 5] [--seconds 3] [--client auto|wrk|python]``.

An 8-player game with all eight rounds entered and closed is set up in a
temporary instance (SQLite file, lexicon cache). The app, and a bare Flask
app with one "hello" route beside it, are then served by waitress with 8
threads like ``companion/serve.py``, each in its own process on a free
loopback port, and loaded with ``wrk`` when it is installed, else with a few
Python client processes (keep-alive connections). Each figure is the median
and the worst of several runs; the resident memory of the servers is read at
the end. Figures, not a pass/fail test: client and servers share this
machine's cores, so the rates are lower than on a server of its own.

Saving, each a real write, two ways: round 8 reopened and the same body PUT
again and again over one connection (one phone; eight at once would mostly be
refused as conflicting), and eight connections at once each saving round 8 of a
game of its own (copies, made in SQL, of a game with rounds 1-7 closed).
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import random
import re
import shutil
import sqlite3
import statistics
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from serving import THREADS, Server, migrated_app, start

from companion.game.deck import CARDS

if TYPE_CHECKING:
    from flask.testing import FlaskClient

PLAYERS = 8
CONNECTIONS = 8  # wrk connections
PY_CLIENTS = 4  # Python fallback: client processes, one keep-alive connection each

REAL_SERVER = """
import json, sys
from waitress import serve
from companion import create_app
app = create_app(json.loads(sys.argv[3]))
app.extensions["lexicons"].build("standard")  # as serve.py: loaded before the first request
serve(app, host="127.0.0.1", port=int(sys.argv[1]), threads=int(sys.argv[2]))
"""

HELLO_SERVER = """
import sys
from flask import Flask
from waitress import serve
app = Flask("hello")
@app.get("/")
def hello():
    return "hello"
serve(app, host="127.0.0.1", port=int(sys.argv[1]), threads=int(sys.argv[2]))
"""


# --- the game ----------------------------------------------------------------------------


def split_hand(hand: list[str], rng: random.Random, out: bool) -> dict[str, object]:
    """Words of 2-3 cards and 1-3 leftovers; a player who went out keeps no leftovers."""
    keep = 0 if out else rng.randint(1, min(3, len(hand) - 2))
    laid, words = hand[keep:], []
    while laid:
        size = len(laid) if len(laid) <= 3 else (2 if len(laid) == 4 else rng.choice((2, 3)))
        words.append(laid[:size])
        laid = laid[size:]
    return {"words": words, "unused": hand[:keep], "went_out": out}


def round_body(number: int, names: list[str], seed: int = 8) -> dict[str, object]:
    """Round ``number`` dealt from a shuffled real deck: every hand r+2 cards, no challenges."""
    deck = [c.name for c in CARDS for _ in range(c.copies)]
    rng = random.Random(seed * 100 + number)
    rng.shuffle(deck)
    size = number + 2
    players = []
    for seat, name in enumerate(names):
        hand = deck[seat * size : (seat + 1) * size]
        out = seat == (number - 1) % len(names)
        players.append({"name": name, **split_hand(hand, rng, out)})
    return {"players": players, "challenges": []}


def play_game(client: FlaskClient, names: list[str], rounds: int) -> tuple[str, str]:
    """A new game with rounds 1..``rounds`` entered and closed: its id and edit token."""
    made = client.post("/api/v1/games", json={"players": names, "first_dealer": 0})
    assert made.status_code == 201, made.json
    game_id, token = made.json["id"], made.json["edit_token"]
    auth = {"Authorization": f"Bearer {token}"}
    for number in range(1, rounds + 1):
        url = f"/api/v1/games/{game_id}/rounds/{number}"
        saved = client.put(url, json=round_body(number, names), headers=auth)
        assert saved.status_code == 200, saved.json
        closed = client.post(f"{url}/close", headers=auth)
        assert closed.status_code == 200, closed.json
    return game_id, token


@dataclass
class Setup:
    config: dict[str, object]
    database: Path
    game_id: str  # all eight rounds closed
    token: str
    body: dict[str, object]  # round 8 of every game
    template: str  # rounds 1-7 closed, round 8 not entered; same edit token as ``game_id``


def set_up(folder: Path) -> Setup:
    """The app's config, a finished 8-player game, and one waiting for its round 8."""
    from companion.extensions import db
    from companion.models import Game
    from companion.store import token_hash

    database = folder / "bench.sqlite3"
    app, config = migrated_app(folder)
    client = app.test_client()
    names = [f"Player {i + 1}" for i in range(PLAYERS)]
    game_id, token = play_game(client, names, 8)
    template, _ = play_game(client, names, 7)
    with app.app_context():
        game = db.session.get(Game, template)
        game.edit_token_hash = token_hash(token)  # one token for every game
        db.session.commit()
        db.engine.dispose()  # hold no connection to the file while the server writes it
    return Setup(config, database, game_id, token, round_body(8, names), template)


def clone(database: Path, template: str, ids: list[str]) -> None:
    """Copy game ``template`` (players, rounds, entries) to new games called ``ids``, in SQL."""
    con = sqlite3.connect(database, timeout=30, isolation_level=None)
    try:
        con.execute("BEGIN IMMEDIATE")  # the write lock first: never a deadlock with the server

        def columns(table: str, *skip: str) -> list[str]:
            rows = con.execute(f"PRAGMA table_info({table})").fetchall()
            return [r[1] for r in rows if r[1] not in ("id", *skip)]

        con.execute("CREATE TEMP TABLE fresh (n INTEGER PRIMARY KEY, id TEXT)")
        con.executemany("INSERT INTO fresh (id) VALUES (?)", [(i,) for i in ids])
        base = con.execute("SELECT coalesce(max(id), 0) FROM round").fetchone()[0]
        game = columns("game")
        con.execute(f"INSERT INTO game (id, {', '.join(game)}) SELECT f.id, "
                    f"{', '.join('g.' + c for c in game)} FROM game g, fresh f WHERE g.id = ?",
                    (template,))
        player = columns("player", "game_id")
        con.execute(f"INSERT INTO player (game_id, {', '.join(player)}) SELECT f.id, "
                    f"{', '.join('p.' + c for c in player)} FROM player p, fresh f "
                    "WHERE p.game_id = ?", (template,))
        round_ = columns("round", "game_id")
        con.execute(f"INSERT INTO round (id, game_id, {', '.join(round_)}) SELECT "
                    f"{base} + f.n * 8 + r.number, f.id, {', '.join('r.' + c for c in round_)} "
                    "FROM round r, fresh f WHERE r.game_id = ?", (template,))
        entry = columns("entry", "round_id")
        con.execute(f"INSERT INTO entry (round_id, {', '.join(entry)}) SELECT "
                    f"{base} + f.n * 8 + r.number, {', '.join('e.' + c for c in entry)} "
                    "FROM entry e JOIN round r ON e.round_id = r.id, fresh f "
                    "WHERE r.game_id = ?", (template,))
        con.execute("DROP TABLE fresh")
        con.execute("COMMIT")
    finally:
        con.close()


# --- the servers -------------------------------------------------------------------------


def request(port: int, method: str, path: str, body: bytes | None = None,
            headers: dict[str, str] | None = None) -> tuple[int, http.client.HTTPMessage, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        return response.status, response.headers, response.read()
    finally:
        conn.close()


# --- the load ----------------------------------------------------------------------------


@dataclass
class Target:
    label: str
    port: int
    path: str
    """With ``{game}`` in it, each request goes to the next game of the client's own pool."""
    expect: int
    method: str = "GET"
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes | None = None
    start: int = 0
    """The first pool game the next run uses, in every client's pool."""
    single: bool = False
    """One connection (one phone saving one round), not CONNECTIONS at once."""

    def pooled(self, slot: int, k: int) -> str:
        return self.path.format(game=pool_id(slot, self.start + k))


def pool_id(slot: int, k: int) -> str:
    return f"s{slot}n{k}"


@dataclass
class Run:
    rate: float  # responses with the expected status, per second
    latency_ms: float | None  # median
    bad: int  # other statuses and socket errors
    count: int  # every request sent
    statuses: dict[int, int] = field(default_factory=dict)  # the unexpected ones, if known


UNITS = {"us": 1e-3, "ms": 1.0, "s": 1e3, "m": 60e3, "h": 3600e3}
WRK_THREADS = 2


def wrk_script(target: Target) -> str:
    """Lua for wrk: the method and body, unexpected statuses counted, and for a pool the next
    game's address each time."""
    body = (target.body or b"").decode()
    lua = f"""wrk.method = "{target.method}"
wrk.body = [=====[{body}]=====]
local threads = {{}}
function setup(thread)
  thread:set("slot", #threads)
  table.insert(threads, thread)
end
statuses = {{}}
function response(status, headers, body)
  if status ~= {target.expect} then statuses[status] = (statuses[status] or 0) + 1 end
end
function done(summary, latency, requests)
  local total = {{}}
  for _, thread in ipairs(threads) do
    for status, n in pairs(thread:get("statuses")) do total[status] = (total[status] or 0) + n end
  end
  for status, n in pairs(total) do io.write(string.format("status %d: %d\\n", status, n)) end
end
"""
    if "{game}" in target.path:
        path = target.path.replace("{game}", "s%dn%d")  # pool_id(slot, k)
        lua += f"""
local k = {target.start}
function request()
  k = k + 1
  return wrk.format(nil, string.format("{path}", slot, k - 1))
end
"""
    return lua


def wrk_run(wrk: str, target: Target, seconds: float, folder: Path) -> Run:
    threads, connections = (1, 1) if target.single else (WRK_THREADS, CONNECTIONS)
    command = [wrk, f"-t{threads}", f"-c{connections}", f"-d{seconds:g}s", "--latency",
               "--timeout", "10s"]
    for key, value in target.headers.items():
        command += ["-H", f"{key}: {value}"]
    if target.method != "GET" or target.body is not None:
        script = folder / "request.lua"
        script.write_text(wrk_script(target))
        command += ["-s", str(script)]
    url = target.path if "{game}" not in target.path else target.pooled(0, 0)
    command.append(f"http://127.0.0.1:{target.port}{url}")
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    total = re.search(r"(\d+) requests in ([\d.]+)(\w+),", out)
    if total is None:
        raise RuntimeError(f"unexpected wrk output:\n{out}")
    count = int(total.group(1))
    elapsed = float(total.group(2)) * UNITS[total.group(3)] / 1000
    bad = sum(int(n) for n in re.findall(r"Non-2xx or 3xx responses: (\d+)", out))
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    if errors:
        bad += sum(int(n) for n in errors.groups())
    median = re.search(r"^\s+50%\s+([\d.]+)(\w+)", out, re.M)
    latency = float(median.group(1)) * UNITS[median.group(2)] if median else None
    statuses = {int(k): int(n) for k, n in re.findall(r"^status (\d+): (\d+)$", out, re.M)}
    return Run(max(count - bad, 0) / elapsed, latency, bad, count, statuses)


def client_loop(target: Target, seconds: float, slot: int, results: multiprocessing.Queue) -> None:
    """One keep-alive connection sending ``target`` for ``seconds``."""
    good, bad, times, statuses = 0, 0, [], {}
    pooled = "{game}" in target.path
    conn = http.client.HTTPConnection("127.0.0.1", target.port, timeout=10)
    start = time.perf_counter()
    deadline = start + seconds
    while (now := time.perf_counter()) < deadline:
        path = target.pooled(slot, good + bad) if pooled else target.path
        try:
            conn.request(target.method, path, body=target.body, headers=target.headers)
            response = conn.getresponse()
            response.read()
        except (OSError, http.client.HTTPException):
            bad += 1
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", target.port, timeout=10)
            continue
        times.append(time.perf_counter() - now)
        if response.status == target.expect:
            good += 1
        else:
            bad += 1
            statuses[response.status] = statuses.get(response.status, 0) + 1
    conn.close()
    results.put((good, bad, time.perf_counter() - start, times, statuses))


def python_run(target: Target, seconds: float) -> Run:
    results: multiprocessing.Queue = multiprocessing.Queue()
    workers = [
        multiprocessing.Process(target=client_loop, args=(target, seconds, slot, results))
        for slot in range(1 if target.single else PY_CLIENTS)
    ]
    for w in workers:
        w.start()
    parts = [results.get() for _ in workers]
    for w in workers:
        w.join()
    times = [t for part in parts for t in part[3]]
    statuses: dict[int, int] = {}
    for part in parts:
        for status, n in part[4].items():
            statuses[status] = statuses.get(status, 0) + n
    return Run(
        rate=sum(part[0] / part[2] for part in parts),
        latency_ms=statistics.median(times) * 1000 if times else None,
        bad=sum(part[1] for part in parts),
        count=sum(part[0] + part[1] for part in parts),
        statuses=statuses,
    )


class Load:
    """Runs of one target with wrk, or else with Python client processes."""

    def __init__(self, wrk: str | None, folder: Path) -> None:
        self.wrk, self.folder = wrk, folder
        self.slots = WRK_THREADS if wrk else PY_CLIENTS  # pools of games: one per thread

    def __call__(self, target: Target, seconds: float) -> Run:
        run = (wrk_run(self.wrk, target, seconds, self.folder) if self.wrk else
               python_run(target, seconds))
        # wrk stops without waiting for the answers in flight: let the server finish them, so
        # that a save left over from one run does not conflict (409) with the next run's first
        time.sleep(0.25)
        return run


def check(target: Target) -> int:
    """Send ``target`` once; it must answer with the expected status. Returns the body size."""
    status, _, body = request(target.port, target.method, target.path, target.body,
                              target.headers)
    if status != target.expect:
        raise RuntimeError(f"{target.label}: {status} instead of {target.expect}: {body[:300]!r}")
    return len(body)


def pooled_saves(load: Load, save: Target, setup: Setup, runs: int, seconds: float) -> list[Run]:
    """Each save goes to a game of its own, copied (rounds 1-7 closed) before the run."""
    ready, budget, out = 0, 2000, []
    for i in range(runs + 1):  # the first is a 1 s warm-up
        need = save.start + budget
        if need > ready:
            clone(setup.database, setup.template,
                  [pool_id(slot, k) for slot in range(load.slots) for k in range(ready, need)])
            ready = need
        run = load(save, 1.0 if i == 0 else seconds)
        save.start += run.count  # no client sent more than all of them
        budget = max(budget, int(run.count / (1.0 if i == 0 else seconds) * seconds * 1.5))
        if i:
            out.append(run)
    return out


# --- the report --------------------------------------------------------------------------


def row(label: str, runs: list[Run]) -> str:
    rates = [r.rate for r in runs]
    latencies = [r.latency_ms for r in runs if r.latency_ms is not None]
    latency = f"{statistics.median(latencies):8.2f}" if latencies else f"{'-':>8}"
    bad = sum(r.bad for r in runs)
    statuses: dict[int, int] = {}
    for r in runs:
        for status, n in r.statuses.items():
            statuses[status] = statuses.get(status, 0) + n
    known = ", ".join(f"{n} x {status}" for status, n in sorted(statuses.items()))
    return (f"{label:<46} {statistics.median(rates):>9,.0f} {min(rates):>9,.0f} "
            f"{latency}   {bad}{f' ({known})' if known else ''}")


def server_errors(log: Path) -> list[str]:
    """The exceptions the app logged (each 500 logs one), with how often."""
    seen: dict[str, int] = {}
    for line in log.read_text(errors="replace").splitlines():
        if re.match(r"^[\w.]+(Error|Exception)\b", line):
            seen[line[:160]] = seen.get(line[:160], 0) + 1
    return [f"{n} x {line}" for line, n in seen.items()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--client", choices=("auto", "wrk", "python"), default="auto")
    args = parser.parse_args()
    wrk = shutil.which("wrk") if args.client != "python" else None
    if args.client == "wrk" and wrk is None:
        parser.error("wrk is not installed")

    folder = Path(tempfile.mkdtemp(prefix="bench-web-"))
    servers: list[Server] = []
    try:
        started = time.perf_counter()
        setup = set_up(folder)
        game_id = setup.game_id
        print(f"Set up an 8-player game, 8 rounds entered and closed, in "
              f"{time.perf_counter() - started:.1f} s (includes building the standard lexicon)")
        hello = start("hello", HELLO_SERVER, [], folder, "/")
        servers.append(hello)
        real = start("app", REAL_SERVER, [json.dumps(setup.config)], folder,
                     f"/games/{game_id}")
        servers.append(real)

        _, headers, _ = request(real.port, "GET", f"/games/{game_id}/board")
        reads = [
            Target("GET / (bare Flask hello)", hello.port, "/", 200),
            Target("GET /games/<id> (leaderboard page)", real.port, f"/games/{game_id}", 200),
            Target("GET /games/<id>/board, If-None-Match: 304", real.port,
                   f"/games/{game_id}/board", 304, headers={"If-None-Match": headers["ETag"]}),
        ]
        sizes = {t.label: check(t) for t in reads}

        cores = os.cpu_count() or 1
        client = (f"wrk ({WRK_THREADS} threads, {CONNECTIONS} keep-alive connections)" if wrk
                  else f"{PY_CLIENTS} Python processes, one keep-alive connection each")
        client += "; 1 connection where the table says so"
        print(f"Server: waitress, threads={THREADS}, one process per app on 127.0.0.1. "
              f"Client: {client}.")
        print(f"This machine has {cores} CPU core{'s' if cores != 1 else ''}, shared by the "
              "client and the server: the rates are lower than on a server of its own.")
        print(f"{args.runs} runs of {args.seconds:g} s per target (after a 1 s warm-up). "
              f"Leaderboard page: {sizes[reads[1].label]:,} bytes, read-only view.")

        load = Load(wrk, folder)
        results: dict[str, list[Run]] = {t.label: [] for t in reads}
        for t in reads:
            load(t, 1.0)
        for _ in range(args.runs):  # interleaved, so that drift hits every target alike
            for t in reads:
                results[t.label].append(load(t, args.seconds))

        auth = {"Authorization": f"Bearer {setup.token}", "Content-Type": "application/json"}
        url = f"/api/v1/games/{game_id}/rounds/8"
        status, _, text = request(real.port, "POST", f"{url}/reopen", headers=auth)
        assert status == 200, text
        body = json.dumps(setup.body).encode()
        again = Target("PUT .../rounds/8, same round again, 1 conn.", real.port, url, 200,
                       method="PUT", headers=auth, body=body, single=True)
        status, _, text = request(real.port, "PUT", url, body, auth)
        notes = []
        if status == 200:  # one phone saving the same round again and again, each a real write
            load(again, 1.0)
            results[again.label] = [load(again, args.seconds) for _ in range(args.runs)]
        else:
            notes.append(f"Saving round 8 again answers {status}: "
                         f"{json.loads(text).get('error')!r}; not measured.")
        # Many tables saving at once: each save is the first of round 8 of a game of its own
        # (8 saves of one round at once would mostly be refused as conflicting, 409).
        many = CONNECTIONS if wrk else PY_CLIENTS
        own = Target(f"PUT .../rounds/8, a game per save, {many} conn.", real.port,
                     "/api/v1/games/{game}/rounds/8", 200, method="PUT", headers=auth, body=body)
        clone(setup.database, setup.template, ["probe"])
        status, _, text = request(real.port, "PUT", own.path.format(game="probe"), body, auth)
        assert status == 200, text
        results[own.label] = pooled_saves(load, own, setup, args.runs, args.seconds)

        print()
        print(f"{'target':<46} {'req/s':>9} {'worst':>9} {'ms p50':>8}   errors (status)")
        for label, runs in results.items():
            print(row(label, runs))
        print()
        base = statistics.median(r.rate for r in results[reads[0].label])
        names = {reads[1].label: "leaderboard page", reads[2].label: "board 304",
                 again.label: "save, same round", own.label: "save, a game each"}
        for label, name in names.items():
            if label in results:
                ratio = statistics.median(r.rate for r in results[label]) / base
                print(f"{name} / hello: {ratio:.3f} (medians)")
        print("(the issue asks the leaderboard page for at least 0.5 of the hello rate)")
        rss, peak = real.rss_mib()
        hello_rss, hello_peak = hello.rss_mib()
        print(f"Resident memory after the runs: app server {rss:.1f} MiB (peak {peak:.1f} MiB, "
              f"standard lexicon loaded as serve.py does); bare hello server {hello_rss:.1f} MiB "
              f"(peak {hello_peak:.1f} MiB)")
        logged = server_errors(real.log)
        if logged:
            notes.append("The app server logged:\n  " + "\n  ".join(logged))
        for note in notes:
            print()
            print(note)
    finally:
        for server in servers:
            server.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
