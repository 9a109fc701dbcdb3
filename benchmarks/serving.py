"""A server in a child process on a free loopback port, for the benchmarks to load.

Shared by ``tables.py`` and ``seat_entry.py``: start the code given (it reads its port and
thread count from ``sys.argv``), wait until a page answers 200, read its memory, stop it;
and the games they load it with (real deals, played through the API).
"""

from __future__ import annotations

import http.client
import random
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

# The checkout this file is in, before any installed copy of the app: a script's own
# folder (benchmarks/) comes first on the path, not the directory it was started from.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.game.deck import CARDS

if TYPE_CHECKING:
    from flask import Flask
    from flask.testing import FlaskClient

ROOT = Path(__file__).resolve().parent.parent
THREADS = 8  # waitress threads, as companion/serve/start.py
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


def spawn(
    name: str,
    command: list[str],
    folder: Path,
    port: int,
    env: dict[str, str] | None = None,
    kind: type[Server] = Server,
    **popen: Any,
) -> Server:
    """Run the server ``command`` (listening on ``port``) in a child process, its output
    in ``folder/<name>.log``."""
    log = folder / f"{name}.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, **popen
        )
    return kind(name, process, port, log)


def ready(server: Server, probe: str, wait: float) -> Server:
    """``server`` once ``probe`` answers 200; else stop it and raise with its log."""
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline and server.process.poll() is None:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        try:
            conn.request("GET", probe)
            if conn.getresponse().status == 200:
                return server
        except OSError:
            time.sleep(0.1)
        finally:
            conn.close()
    server.stop()
    raise RuntimeError(f"{server.name} server did not start:\n{server.log.read_text()[-4000:]}")


def start(
    name: str, code: str, args: list[str], folder: Path, probe: str, wait: float = 90
) -> Server:
    """Serve ``code`` in a child process (``python -c code port threads *args``); return
    once ``probe`` answers 200, or raise with the server's log."""
    port = free_port()
    command = [sys.executable, "-c", code, str(port), str(THREADS), *args]
    return ready(spawn(name, command, folder, port), probe, wait)


# --- the games ---


def split_hand(hand: list[str], rng: random.Random, out: bool) -> dict[str, object]:
    """Words of 2-3 cards and 1-3 leftovers; a player who went out keeps no leftovers."""
    keep = 0 if out else rng.randint(1, min(3, len(hand) - 2))
    laid, words = hand[keep:], []
    while laid:
        size = len(laid) if len(laid) <= 3 else (2 if len(laid) == 4 else rng.choice((2, 3)))
        words.append(laid[:size])
        laid = laid[size:]
    return {"words": words, "unused": hand[:keep], "went_out": out}


def deal(number: int, players: int, size: int, seed: int = 8) -> list[dict[str, object]]:
    """Round ``number``'s hands of ``size`` cards for ``players`` seats, dealt from one
    shuffled real deck (so no card is entered more often than the deck has it), each
    split into words and leftovers; the seat ``(number - 1) % players`` went out."""
    deck = [c.name for c in CARDS for _ in range(c.copies)]
    rng = random.Random(seed * 100 + number)
    rng.shuffle(deck)
    return [
        split_hand(deck[seat * size : (seat + 1) * size], rng, seat == (number - 1) % players)
        for seat in range(players)
    ]


def round_body(number: int, names: list[str], seed: int = 8) -> dict[str, object]:
    """Round ``number`` dealt from a shuffled real deck: every hand r+2 cards, no challenges."""
    hands = deal(number, len(names), number + 2, seed)
    players = [{"name": name, **hand} for name, hand in zip(names, hands, strict=True)]
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
        closed = client.post(f"{url}/close", json={}, headers=auth)
        assert closed.status_code == 200, closed.json
    return game_id, token
