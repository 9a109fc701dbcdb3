"""House words on a real server: its memory after 40 games with house words, and the time
of a closed round's page with 40 such games against none.

Run: ``.venv/bin/python benchmarks/house_words.py [--games 40] [--runs 5]
[--lexicon standard] [--cache DIR]``.

The app is served by waitress in a process of its own on a free loopback port, from a
temporary instance (SQLite file), prepared as the serve command prepares it (the
lexicon and its best-play index loaded before the first request). Everything goes
through HTTP as phones and scripts send it:

1. A warm-up game: made, round 1 entered and closed, its round page loaded (the
   lexicon's and the index's first use). The server's resident memory then is the start.
2. ``--games`` games without house words: each made (``POST /api/v1/games``, 3 players),
   round 1 entered from a real deal and closed through the API, its round page loaded
   once (``GET /games/<id>/rounds/1``: the best play of each hand, as the group reads it
   after the round); the server's memory read.
3. ``--games`` games with house words, each its own: a word of its own allowed (as a group
   allows a family word), a common word banned (``the``, ``cat``... as a group bans a word
   it finds too easy), and one more allowed; made, entered and closed the same way; each
   page loaded once; the server's memory read.
4. ``--runs`` runs, each loading every page of the games without house words in turn,
   then every page of those with house words, timed page by page (the two kinds take
   turns, so a machine busier at one moment weighs on both), and the server's CPU time
   over each pass (``/proc/<pid>/stat``), which other work on the machine disturbs less.

Printed: the server's resident memory (VmRSS) at the start, after the games without house
words, after those with house words, its growth, and its peak (VmHWM); the closed round
page's time per run (median and worst) and the server's CPU per page, for each kind of
game; the median of the runs' medians, the worst page, and the ratios of the two kinds.
Targets of issue 22: under 200 MiB for the process, the page with house words under 1.5
times the page without.

``--cache DIR``: a lexicon cache folder to read (and fill): its files are checked as the
app checks them, so an old one is rebuilt; without it, a temporary folder, and the first
build takes a few seconds more.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from serving import Server, migrated_app, round_body, start

from companion.lexicon import LexiconStore

NAMES = ["Ann", "Ben", "Cy"]
BANNED = ["the", "cat", "and", "ten", "tea", "one", "ear", "rat", "sit", "her"]
"""Common words a group may ban, one per game in turn (a ban has the index look for the
word's anagrams)."""

SERVER = """
import json, sys
from waitress import serve
from companion import create_app
app = create_app(json.loads(sys.argv[3]))
lexicons = app.extensions["lexicons"]
lexicons.build(sys.argv[4])  # as the serve command: loaded before the first request
lexicons.solver_index(sys.argv[4])
serve(app, host="127.0.0.1", port=int(sys.argv[1]), threads=int(sys.argv[2]))
"""


def own_word(n: int) -> str:
    """A made-up word of game ``n``'s own (letters only, none of a list's)."""
    letters = ""
    while True:
        n, digit = divmod(n, 26)
        letters += chr(ord("a") + digit)
        if n == 0:
            return "zqx" + letters


class Client:
    """One keep-alive connection to the server, as a phone's browser keeps one."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=120)

    def send(
        self, method: str, path: str, body: object = None, token: str | None = None
    ) -> tuple[int, bytes]:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body).encode()
        for attempt in (1, 2):
            try:
                self.conn.request(method, path, body=data, headers=headers)
                response = self.conn.getresponse()
                return response.status, response.read()
            except (http.client.HTTPException, OSError):
                self.conn.close()  # the server closed a kept connection: open another
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def must(
        self, method: str, path: str, body: object = None, token: str | None = None, status=200
    ) -> dict:
        got, raw = self.send(method, path, body, token)
        if got != status:
            raise RuntimeError(f"{method} {path}: {got} instead of {status}: {raw[:300]!r}")
        return json.loads(raw or b"{}")


def make_game(client: Client, n: int, lexicon: str, house: dict[str, bool]) -> str:
    """A game made, its house words set, round 1 entered (a real deal) and closed: its id."""
    body = {"players": NAMES, "first_dealer": 0, "rules": {"lexicon": lexicon}}
    made = client.must("POST", "/api/v1/games", body, status=201)
    game, token = made["id"], made["edit_token"]
    for word, allowed in house.items():
        client.must("PUT", f"/api/v1/games/{game}/house-words/{word}", {"allowed": allowed}, token)
    url = f"/api/v1/games/{game}/rounds/1"
    client.must("PUT", url, round_body(1, NAMES, seed=n), token)
    client.must("POST", f"{url}/close", None, token)
    return game


def load_page(client: Client, game: str) -> float:
    """The closed round page of ``game``, with its best plays: seconds to the last byte."""
    started = time.perf_counter()
    status, body = client.send("GET", f"/games/{game}/rounds/1")
    seconds = time.perf_counter() - started
    if status != 200 or b'id="review"' not in body:
        raise RuntimeError(f"round page of {game}: {status}, best play shown: {b'review' in body}")
    return seconds


def server_cpu(server: Server) -> float:
    """The CPU seconds (user and system) the server process has used so far."""
    fields = Path(f"/proc/{server.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def timed_runs(
    client: Client, kinds: dict[str, list[str]], runs: int
) -> dict[str, tuple[list[list[float]], list[float]]]:
    """Each run: for each kind in turn, every game's page loaded, each timed, and the
    server's CPU time per page over the pass. The kinds take turns within a run, so a
    machine busier at one moment than another weighs on both alike."""
    out: dict[str, tuple[list[list[float]], list[float]]] = {k: ([], []) for k in kinds}
    for _ in range(runs):
        for kind, games in kinds.items():
            cpu = server_cpu(client.server)
            out[kind][0].append([load_page(client, game) for game in games])
            out[kind][1].append((server_cpu(client.server) - cpu) / len(games))
    return out


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def report(label: str, runs: list[list[float]], cpu: list[float]) -> tuple[float, float, float]:
    """Print each run's median and worst, and the server's CPU per page; give the median of
    the medians, the worst page and the median CPU per page."""
    medians = [statistics.median(times) for times in runs]
    for i, times in enumerate(runs, 1):
        print(
            f"  {label}, run {i}: median {ms(medians[i - 1])}, worst {ms(max(times))}; "
            f"server CPU {ms(cpu[i - 1])} a page"
        )
    worst = max(max(times) for times in runs)
    print(
        f"  {label}: median of medians {ms(statistics.median(medians))}, worst {ms(worst)}; "
        f"server CPU a page, median of runs {ms(statistics.median(cpu))}"
    )
    return statistics.median(medians), worst, statistics.median(cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--lexicon", default="standard")
    parser.add_argument("--cache", type=Path, default=None)
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="bench-house-"))
    server = None
    try:
        app, config = migrated_app(folder)
        if args.cache:
            config["LEXICON_CACHE_DIR"] = str(args.cache)
        started = time.perf_counter()
        lexicons = LexiconStore(
            Path(str(config["LEXICON_DIR"])), Path(str(config["LEXICON_CACHE_DIR"]))
        )
        lexicons.solver_index(args.lexicon)  # the caches, built once here
        print(
            f"lexicon {args.lexicon} and its index ready in {time.perf_counter() - started:.1f} s"
        )
        from companion.store.db import db

        with app.app_context():
            db.engine.dispose()
        server = start("app", SERVER, [json.dumps(config), args.lexicon], folder, "/health")
        client = Client(server)

        load_page(client, make_game(client, 10_000, args.lexicon, {}))
        rss = {"start": server.rss_mib()[0]}
        plain = [make_game(client, n, args.lexicon, {}) for n in range(args.games)]
        for game in plain:
            load_page(client, game)
        rss["none"] = server.rss_mib()[0]

        housed = []
        for n in range(args.games):
            house = {own_word(n): True, BANNED[n % len(BANNED)]: False, "qi": True}
            housed.append(make_game(client, 1_000 + n, args.lexicon, house))
        made_at = time.perf_counter()
        for game in housed:
            load_page(client, game)
        first_pass = time.perf_counter() - made_at
        rss["house"], peak = server.rss_mib()
        runs = timed_runs(client, {"none": plain, "house": housed}, args.runs)
        rss["end"], peak = server.rss_mib()

        print(f"\nserver's resident memory ({args.lexicon}, {args.games} games of each kind):")
        print(f"  at the start (one game played): {rss['start']:.0f} MiB")
        print(
            f"  after {args.games} games without house words: {rss['none']:.0f} MiB "
            f"({rss['none'] - rss['start']:+.0f})"
        )
        print(
            f"  after {args.games} games with house words, each page loaded once: "
            f"{rss['house']:.0f} MiB ({rss['house'] - rss['none']:+.0f} for them, "
            f"{rss['house'] - rss['start']:+.0f} in all)"
        )
        print(f"  after the timed runs: {rss['end']:.0f} MiB; peak {peak:.0f} MiB")
        print(f"  first load of the {args.games} pages with house words: {first_pass:.1f} s")
        print(f"\nclosed round page, {args.runs} runs over {args.games} games of each kind:")
        none = report("no house words", *runs["none"])
        house = report("house words", *runs["house"])
        print(
            f"  with house words / without: median {house[0] / none[0]:.2f}x, "
            f"worst {house[1] / none[1]:.2f}x, server CPU {house[2] / none[2]:.2f}x"
        )
    finally:
        if server is not None:
            server.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
