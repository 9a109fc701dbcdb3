"""A table of 500 finished games: how long its records take to show, as the phones ask.

Builds a table of six members and ``--games`` finished games of four of them (the rule
book's eight rounds, 3 to 10 cards, dealt from a shuffled real deck; some rounds with a
challenge ruled by the table), every round saved and closed through the actions as the
scorekeeper's phone does, in a database of its own (SQLite in a temporary folder, or
``--database URL``). Then, through the app's pages (the Flask test client, every request
a phone makes, in its order):

- **first ever**: a fresh process with nothing kept opens the table's page: every game is
  worked out, the best-play review of each hand included (as after an import).
- **fresh process**: a new worker or a restart opens it, the games' summaries kept by an
  earlier process (Flask-Caching's files) read instead. ``--runs`` times, each in a new
  process.
- **after a game**: the scorekeeper plays one more game of the table (the new-game form
  of the table, then each round's save and close through the API) and the table's page is
  opened, as the group looks at it after the game: the new game is worked out, the others
  are the ones kept. ``--runs`` games.
- **again**: the table's page opened again with nothing changed, and a player's page.

Prints the median and worst of each, and the memory (the process's peak resident size).
Run: ``.venv/bin/python benchmarks/records.py [--games 500] [--runs 5]``.
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from flask import Flask
from sqlalchemy import update

from companion import create_app
from companion.actions import games, groups
from companion.game.challenges import Ruling
from companion.game.deck import CARDS, Card
from companion.game.play import Challenge, Hand, Play
from companion.game.rules import Rules
from companion.store.db import db
from companion.store.models import Game

MEMBERS = ["Ann", "Ben", "Cy", "Dee", "Eve", "Finn"]
ROOT = Path(__file__).resolve().parent.parent
RULES_FORM = {
    "hands": "standard",
    "min_word": "cards",
    "two_player_bonus": "longest",
    "bonus": "10",
    "floor": "round",
    "leftover_penalty": "y",
    "false_out_penalty": "0",
    "challenge_ruling": "dictionary",
    "lexicon": "standard",
}
"""The new-game form's house rules as the page sends them: the rule book's."""


def app_on(database: str, kept: str) -> Flask:
    """The app on ``database``, keeping the records' summaries in folder ``kept``."""
    return create_app(
        {
            "CACHE_DIR": kept,
            "TESTING": True,
            "SECRET_KEY": "bench",
            "WTF_CSRF_ENABLED": False,
            "DATABASE_URL": database,
            "AUTO_MIGRATE": True,
            "RATELIMIT_ENABLED": False,
        }
    )


def deal(rng: random.Random, names: list[str], size: int) -> Play:
    """A round as it could be laid down: each hand split into words of 2-4 cards and the
    cards left over; the first player went out; now and then a challenge the table ruled."""
    deck = [c for c in CARDS for _ in range(c.copies)]
    rng.shuffle(deck)
    hands = []
    for seat, name in enumerate(names):
        cards: list[Card] = deck[seat * size : (seat + 1) * size]
        words, at = [], 0
        while size - at >= 2 and rng.random() < 0.8:
            n = min(rng.randint(2, 4), size - at)
            words.append(tuple(cards[at : at + n]))
            at += n
        out = seat == 0 and at == size
        hands.append(Hand(name, tuple(words), tuple(cards[at:]), out))
    challenges: tuple[Challenge, ...] = ()
    if rng.random() < 0.2 and hands[1].words:
        ruling = Ruling(rng.random() < 0.5, "table", "table_legal")
        challenges = (Challenge(names[0], names[1], 0, recorded=ruling),)
    return Play(tuple(hands), challenges)


def build(app: Flask, count: int, seed: int = 26) -> tuple[str, str]:
    """A table of six and ``count`` finished games of four of them, an evening of three
    games a week; returns the table's id and edit token."""
    rng = random.Random(seed)
    with app.app_context():
        table = groups.create_group("Benchmark table", MEMBERS)
    lexicons = app.extensions["lexicons"]
    start = datetime(2020, 1, 6, 19, 0)
    for k in range(count):
        names = rng.sample(MEMBERS, 4)
        with app.app_context():
            created = groups.start_game(
                lexicons, table.state.id, table.token, names, k % 4, Rules()
            )
            for number in range(1, 9):
                play = deal(rng, names, number + 2)
                games.save_round(lexicons, created.state.id, created.token, number, play)
                games.set_closed(created.state.id, created.token, number, True)
            when = start + timedelta(days=7 * (k // 3), hours=k % 3)
            db.session.execute(
                update(Game).where(Game.id == created.state.id).values(created_at=when)
            )
            db.session.commit()
        if (k + 1) % 50 == 0:
            print(f"  built {k + 1} games", file=sys.stderr)
    return table.state.id, table.token


def timed(client: Any, url: str) -> float:
    start = time.perf_counter()
    answer = client.get(url)
    took = time.perf_counter() - start
    assert answer.status_code == 200, (url, answer.status_code)
    return took


def play_one_game(app: Flask, client: Any, table_id: str, rng: random.Random) -> None:
    """The scorekeeper's phone plays a game of the table: the new-game form from the table,
    then each round saved and closed through the API."""
    names = rng.sample(MEMBERS, 4)
    form = {f"players-{i}-name": n for i, n in enumerate(names)}
    form |= {"first_dealer": "1", "table": table_id}
    form |= {f"rules-{k}": v for k, v in RULES_FORM.items()}
    answer = client.post(f"/games/new?table={table_id}", data=form)
    assert answer.status_code in (302, 303), answer.status_code
    game_id = answer.headers["Location"].split("/games/")[1].split("?")[0]
    token = edit_token(client, game_id)
    auth = {"Authorization": f"Bearer {token}"}
    for number in range(1, 9):
        play = deal(rng, names, number + 2)
        body = {
            "players": [
                {
                    "name": h.name,
                    "words": [[c.name for c in w] for w in h.words],
                    "unused": [c.name for c in h.unused],
                    "went_out": h.went_out,
                }
                for h in play.hands
            ]
        }
        url = f"/api/v1/games/{game_id}/rounds/{number}"
        assert client.put(url, json=body, headers=auth).status_code == 200
        assert client.post(url + "/close", json={}, headers=auth).status_code == 200


def edit_token(client: Any, game_id: str) -> str:
    """The edit token the new-game page kept in this phone's session (its edit link)."""
    page = client.get(f"/games/{game_id}?created=1").get_data(as_text=True)
    marker = f"/games/{game_id}/edit/"
    at = page.index(marker) + len(marker)
    return page[at : page.index('"', at)]


def cold(database: str, kept: str, table_id: str) -> None:
    """In a fresh process: the records alone (the action, no page), then the table's page
    opened for the first time and the second time. The records are worked out in a
    process of their own (``--cold``) before the page, so the page's first figure is the
    page's work: templates compiled, the games' versions read, the records added up."""
    app = app_on(database, kept)
    from companion.actions import records

    with app.app_context():
        start = time.perf_counter()
        records.group_records(app.extensions["lexicons"], table_id, budget=3600)
        alone = time.perf_counter() - start
    records._kept.clear()  # the page below reads the kept summaries as a new worker would
    client = app.test_client()
    first = timed(client, f"/tables/{table_id}")
    second = timed(client, f"/tables/{table_id}")
    print(f"{alone} {first} {second}")


def report(label: str, times: list[float]) -> None:
    ms = [t * 1000 for t in times]
    median, worst = statistics.median(ms), max(ms)
    print(f"  {label}: median {median:.0f} ms, worst {worst:.0f} ms ({len(ms)} runs)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--database", default="")
    parser.add_argument("--cold", nargs=3, metavar=("DATABASE", "KEPT", "TABLE"))
    args = parser.parse_args()
    if args.cold:
        cold(*args.cold)
        return
    folder = tempfile.mkdtemp(prefix="records-bench-")
    database = args.database or f"sqlite:///{folder}/games.sqlite3"
    kept = f"{folder}/kept"
    app = app_on(database, kept)
    built = time.perf_counter()
    table_id, token = build(app, args.games)
    print(f"a table of {args.games} finished games built in {time.perf_counter() - built:.0f} s")

    def fresh_process(kept: str) -> tuple[float, float, float]:
        out = subprocess.run(
            [sys.executable, __file__, "--cold", database, kept, table_id],
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
        )
        alone, first, second = map(float, out.stdout.split()[-3:])
        return alone, first, second

    # The first opening ever: nothing kept anywhere (each run with a new, empty folder).
    never = [fresh_process(f"{folder}/never-{k}")[0] for k in range(min(args.runs, 3))]
    fresh_process(kept)  # the summaries kept once, as after the table's page was first seen
    alones, colds, seconds = [], [], []
    for _ in range(args.runs):
        alone, first, second = fresh_process(kept)
        alones.append(alone)
        colds.append(first)
        seconds.append(second)

    client = app.test_client()
    client.get(f"/tables/{table_id}/edit/{token}")  # the scorekeeper's phone: the edit right
    client.get(f"/tables/{table_id}")
    rng = random.Random(7)
    after, again, player = [], [], []
    with app.app_context():
        member = groups.read_group(table_id).members[0][0]
    for _ in range(args.runs):
        play_one_game(app, client, table_id, rng)
        after.append(timed(client, f"/tables/{table_id}"))
        again.append(timed(client, f"/tables/{table_id}"))
        player.append(timed(client, f"/tables/{table_id}/players/{member}"))
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"the table's page (its records), {args.games} games:")
    report("records worked out from nothing (every best play solved; over requests)", never)
    report("records in a fresh process, the summaries kept (a new worker, a restart)", alones)
    report("the page's first opening in that process", colds)
    report("the next opening in that process", seconds)
    report("after one more game was played", after)
    report("again, nothing changed", again)
    report("a player's page", player)
    print(f"  peak resident memory of the process: {rss:.0f} MiB")


if __name__ == "__main__":
    main()
