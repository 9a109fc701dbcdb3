"""Taps and seconds to enter a round on phones: four seats at once, or one scorekeeper.

Run: ``.venv/bin/python benchmarks/seat_entry.py [--runs 3]``.

Round 8 (10 cards a hand) of a 4-player game, rounds 1-7 entered and closed through the
API, is entered with the card keyboard in headless Chromium at phone size (390x844,
touch), two ways, each on a fresh game every run:

* Seats: four phones, each holding its own seat ("I am Ann", claimed before the clock
  starts), tap their own hand at the same time (asyncio.gather) and save it.
* One scorekeeper: one phone with the edit link and no seat taps every hand on the
  every-hand form (a tap to bring the keyboard to each hand after the first) and saves once.

Every tap is counted: card keys, "Next word", "Left over", "Went out first", save. The
times are from the first tap to the saved page loaded; all four seats are in once
``GET /api/v1/games/<id>`` has a result for round 8, with the scores of the same hands
PUT through the API in a scratch game. The taps come as fast as Playwright sends them
(nobody looks for a card), so the seconds are the app's and the browser's share of the
work, not a person's. Figures, not a pass/fail test.

The app is served by waitress in a process of its own on a free loopback port, from a
temporary instance (SQLite file, lexicon cache), as ``benchmarks/web.py`` does; the
browser is the system's ``chromium``, launched as ``tests/browser/conftest.py`` does.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from serving import ROOT, Server, migrated_app, start

sys.path.insert(0, str(ROOT / "tests" / "browser"))  # the browser tests' phone and flags
from phone import (
    CHROMIUM_FLAGS,
    PHONE,
    disable_features,
    playwright_features,
)

NAMES = ["Ann", "Ben", "Cy", "Dee"]
ROUND = 8  # 10 cards a hand
PAPER_DIGITS = 8  # a score pad: about two digits a player a round

# (words, left over, went out): 40 cards from one real deck (no card over its copies).
HANDS: dict[str, tuple[list[list[str]], list[str], bool]] = {
    "Ann": ([["qu", "i", "c", "k"], ["t", "o", "p"], ["d", "e", "n"]], [], True),
    "Ben": ([["th", "e", "m"], ["w", "a", "x", "e", "s"]], ["z", "y"], False),
    "Cy": ([["b", "l", "o", "g"], ["r", "u", "n", "s"]], ["v", "f"], False),
    "Dee": ([["cl", "a", "m", "s"], ["j", "o", "t"]], ["er", "u", "y"], False),
}

SERVER = """
import json, sys
from waitress import serve
from companion import create_app
app = create_app(json.loads(sys.argv[3]))
app.extensions["lexicons"].build("standard")  # as serve.py: loaded before the first request
serve(app, host="127.0.0.1", port=int(sys.argv[1]), threads=int(sys.argv[2]))
"""


# --- the server ----------------------------------------------------------------------------


def memory_mib(pid: int) -> dict[str, float]:
    """VmRSS, VmHWM (from status) and Pss (from smaps_rollup, if readable) of a process, MiB."""
    out: dict[str, float] = {}
    for name in ("status", "smaps_rollup"):
        try:
            text = Path(f"/proc/{pid}/{name}").read_text()
        except OSError:
            continue
        for line in text.splitlines():
            key, _, rest = line.partition(":")
            if key in ("VmRSS", "VmHWM", "Pss") and rest.split():
                out[key] = int(rest.split()[0]) / 1024
    return out


def descendants(root: int) -> list[int]:
    """Every process below ``root`` (read from /proc)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        children = [p for p, parent in parents.items() if parent == pid]
        found += children
        todo += children
    return found


def browser_memory(skip: int) -> tuple[int, float, float]:
    """Chromium's processes below this one (not the server ``skip``): how many, the sum of
    their proportional set sizes and of their resident sizes, MiB."""
    pids = [p for p in descendants(os.getpid()) if p != skip and p not in descendants(skip)]
    count, pss, rss = 0, 0.0, 0.0
    for pid in pids:
        try:
            comm = Path(f"/proc/{pid}/comm").read_text().strip()
        except OSError:
            continue
        if "chrom" not in comm:
            continue
        mem = memory_mib(pid)
        count += 1
        pss += mem.get("Pss", 0.0)
        rss += mem.get("VmRSS", 0.0)
    return count, pss, rss


def serve(folder: Path) -> Server:
    """A migrated temporary instance served by waitress in a child process."""
    from companion.store.db import db

    app, config = migrated_app(folder)
    with app.app_context():
        db.engine.dispose()
    return start("app", SERVER, [json.dumps(config)], folder, "/health")


def api(
    server: Server, method: str, path: str, body: object = None, token: str | None = None
) -> tuple[int, dict]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        data = None if body is None else json.dumps(body).encode()
        conn.request(method, path, body=data, headers=headers)
        response = conn.getresponse()
        raw = response.read()
        try:
            return response.status, json.loads(raw or b"{}")
        except ValueError:
            return response.status, {}
    finally:
        conn.close()


def must(answer: tuple[int, dict], status: int = 200) -> dict:
    if answer[0] != status:
        raise RuntimeError(f"{answer[0]} instead of {status}: {answer[1]}")
    return answer[1]


def game_before_round_8(server: Server) -> dict:
    """A 4-player game, rounds 1-7 entered (simple words and leftovers) and closed."""
    game = must(api(server, "POST", "/api/v1/games", {"players": NAMES, "first_dealer": 0}), 201)
    pool = "eaionrtu" * 10  # never more of a letter than the deck holds, 4 hands of 9
    for n in range(1, ROUND):
        size = n + 2
        players = []
        for seat, name in enumerate(NAMES):
            cards = list(pool[seat * size : (seat + 1) * size])
            words = [cards[:2]] if size >= 3 else []
            players.append({"name": name, "words": words, "unused": cards[len(words) * 2 :]})
        url = f"/api/v1/games/{game['id']}/rounds/{n}"
        must(api(server, "PUT", url, {"players": players}, game["edit_token"]))
        must(api(server, "POST", f"{url}/close", None, game["edit_token"]))
    return game


def round_body() -> dict:
    return {
        "players": [
            {"name": name, "words": words, "unused": left, "went_out": out}
            for name, (words, left, out) in HANDS.items()
        ]
    }


def result_of(server: Server, game_id: str) -> dict | None:
    return must(api(server, "GET", f"/api/v1/games/{game_id}"))["rounds"][ROUND - 1]["result"]


def summary(result: dict) -> dict[str, tuple[object, ...]]:
    """What must come out the same as the scratch game: each player's cards and score."""
    return {
        p["name"]: (
            tuple(tuple(w["cards"]) for w in p["words"]),
            tuple(p["unused"]),
            p["went_out"],
            p["score"],
        )
        for p in result["players"]
    }


# --- the phones ------------------------------------------------------------------------------


class Taps:
    """Taps on one page, counted."""

    def __init__(self, page) -> None:  # type: ignore[no-untyped-def]
        self.page = page
        self.count = 0

    async def tap(self, target) -> None:  # type: ignore[no-untyped-def]
        loc = self.page.locator(target) if isinstance(target, str) else target
        await loc.tap()
        self.count += 1

    async def hand(self, name: str, went_out: str) -> None:
        """The hand's words, a "Next word" between them, "Left over" and its cards, and
        the "went out" box or radio ``went_out`` when the player went out."""
        words, left, out = HANDS[name]
        for i, word in enumerate(words):
            if i:
                await self.tap(".cardpad [data-action=space]")
            for card in word:
                await self.tap(f".cardpad .key[data-card='{card}']")
        if left:
            await self.tap(".cardpad [data-action=left]")
            for card in left:
                await self.tap(f".cardpad .key[data-card='{card}']")
        if out:
            await self.tap(went_out)


SAVED = re.compile(rf"/rounds/{ROUND}#(round-live|breakdown)$")


@dataclass
class Hand:
    taps: int
    seconds: float


@dataclass
class SeatsRun:
    hands: dict[str, Hand]
    wall: float


@dataclass
class KeeperRun:
    hands: dict[str, Hand]  # from the hand's first tap to the next hand's (or the save's)
    save: Hand  # the tap and the saved page loaded
    total: Hand
    memory: tuple[int, float, float] = field(default=(0, 0.0, 0.0))


async def claim(context, game: dict, name: str):  # type: ignore[no-untyped-def]
    page = await context.new_page()
    await page.goto(game["view_url"])
    await page.get_by_role("link", name=f"I am {name}").tap()
    await page.locator("#claim").tap()
    await page.wait_for_url(re.compile(rf"/rounds/{ROUND}$"))
    await page.locator("#seat-form .cardpad .keys").wait_for()
    return page


async def seat_hand(page, name: str) -> Hand:  # type: ignore[no-untyped-def]
    taps = Taps(page)
    start = time.perf_counter()
    await taps.hand(name, "#seat-form input[name=went_out]")
    await taps.tap("#seat-form button[type=submit]")
    await page.wait_for_url(SAVED, wait_until="load")
    return Hand(taps.count, time.perf_counter() - start)


async def seats_run(browser, server: Server, expected: dict) -> tuple[SeatsRun, tuple]:  # type: ignore[no-untyped-def]
    game = game_before_round_8(server)
    contexts = [await browser.new_context(**PHONE) for _ in NAMES]
    try:
        pages = await asyncio.gather(
            *(claim(c, game, n) for c, n in zip(contexts, NAMES, strict=True))
        )
        start = time.perf_counter()
        hands = await asyncio.gather(*(seat_hand(p, n) for p, n in zip(pages, NAMES, strict=True)))
        result = result_of(server, game["id"])
        wall = time.perf_counter() - start
        memory = browser_memory(server.process.pid)  # four phones open
    finally:
        for context in contexts:
            await context.close()
    check(result, expected, "seats")
    return SeatsRun(dict(zip(NAMES, hands, strict=True)), wall), memory


async def keeper_run(browser, server: Server, expected: dict) -> KeeperRun:  # type: ignore[no-untyped-def]
    game = game_before_round_8(server)
    context = await browser.new_context(**PHONE)
    try:
        page = await context.new_page()
        await page.goto(game["edit_url"])  # the edit rights into this phone's session
        await page.goto(f"{server.base}/games/{game['id']}/rounds/{ROUND}")
        await page.locator("#round-form .cardpad .keys").wait_for()
        taps = Taps(page)
        hands: dict[str, Hand] = {}
        start = mark = time.perf_counter()
        for seat, name in enumerate(NAMES):
            before = taps.count
            if seat:  # the keyboard starts on the first hand; bring it to this one
                await taps.tap(page.get_by_role("button", name=f"Card keyboard for {name}"))
            await taps.hand(name, f"#players-{seat} input[name=went_out]")
            now = time.perf_counter()
            hands[name] = Hand(taps.count - before, now - mark)
            mark = now
        await taps.tap("#round-form button[type=submit]")
        await page.wait_for_url(SAVED, wait_until="load")
        end = time.perf_counter()
        memory = browser_memory(server.process.pid)
    finally:
        await context.close()
    check(result_of(server, game["id"]), expected, "scorekeeper")
    return KeeperRun(hands, Hand(1, end - mark), Hand(taps.count, end - start), memory)


def check(result: dict | None, expected: dict, way: str) -> None:
    if result is None:
        raise RuntimeError(f"{way}: round {ROUND} has no result after the saves")
    if summary(result) != expected:
        raise RuntimeError(f"{way}: round {ROUND} came out as {summary(result)}, not {expected}")


async def launch(pw, executable: str):  # type: ignore[no-untyped-def]
    """Chromium with the browser tests' flags (tests/browser/phone.py), ``--disable-features``
    repeating Playwright's own list (Chromium keeps only the last one) and ours."""
    from playwright.async_api import Error

    flags = list(CHROMIUM_FLAGS)
    probe = await pw.chromium.launch(
        executable_path=executable, args=[*CHROMIUM_FLAGS, "--enable-automation"]
    )
    try:
        cdp = await probe.new_browser_cdp_session()
        line = await cdp.send("Browser.getBrowserCommandLine")
        flags += disable_features(playwright_features(line["arguments"]))
    except Error:
        pass
    finally:
        await probe.close()
    return await pw.chromium.launch(executable_path=executable, args=flags)


# --- the report --------------------------------------------------------------------------------


def med_worst(values: list[float]) -> str:
    return f"{statistics.median(values):7.2f} {max(values):7.2f}"


async def bench(runs: int, server: Server, executable: str, expected: dict) -> None:
    from playwright.async_api import async_playwright

    seats: list[SeatsRun] = []
    keepers: list[KeeperRun] = []
    memories: list[tuple[int, float, float]] = []
    async with async_playwright() as pw:
        browser = await launch(pw, executable)
        try:
            await keeper_run(browser, server, expected)  # warm-up: the first pages served
            for _ in range(runs):  # interleaved, so that drift hits both ways alike
                run, memory = await seats_run(browser, server, expected)
                seats.append(run)
                memories.append(memory)
                keepers.append(await keeper_run(browser, server, expected))
                memories.append(keepers[-1].memory)
        finally:
            await browser.close()

    print(f"{'':<34} {'taps':>4} {'s med':>7} {'worst':>7}")
    print("Seats: four phones at once, each its own hand and save")
    for name in NAMES:
        taps = seats[0].hands[name].taps
        label = f"  {name}" + (" (went out)" if HANDS[name][2] else "")
        print(f"{label:<34} {taps:>4} {med_worst([r.hands[name].seconds for r in seats])}")
    total = sum(h.taps for h in seats[0].hands.values())
    print(f"{'  all four in (wall clock)':<34} {total:>4} {med_worst([r.wall for r in seats])}")
    print("One scorekeeper: one phone, every hand, one save")
    for seat, name in enumerate(NAMES):
        taps = keepers[0].hands[name].taps
        label = f"  {name}" + (" (went out)" if HANDS[name][2] else "")
        label += " (+1 tap to its box)" if seat else ""
        print(f"{label:<34} {taps:>4} {med_worst([r.hands[name].seconds for r in keepers])}")
    print(f"{'  save':<34} {1:>4} {med_worst([r.save.seconds for r in keepers])}")
    print(
        f"{'  the round':<34} {keepers[0].total.taps:>4} "
        f"{med_worst([r.total.seconds for r in keepers])}"
    )
    per_hand = [h.taps for h in seats[0].hands.values()]
    print(
        f"Taps a player: {min(per_hand)}-{max(per_hand)} on their own phone, in parallel; "
        f"the scorekeeper alone {keepers[0].total.taps} "
        f"({keepers[0].total.taps / len(NAMES):.1f} a hand). "
        f"Paper: about {PAPER_DIGITS} digits written a round for {len(NAMES)} players "
        f"(~{PAPER_DIGITS // len(NAMES)} a player), after adding up each hand by heart."
    )
    rss = memory_mib(server.process.pid)
    four = max(memories[0::2], key=lambda m: m[1])
    one = max(memories[1::2], key=lambda m: m[1])
    print(
        f"Memory: server {rss['VmRSS']:.1f} MiB resident (peak {rss['VmHWM']:.1f} MiB, "
        f"standard lexicon loaded). Chromium, proportional set sizes summed: four phones "
        f"open {four[1]:.0f} MiB in {four[0]} processes, one phone {one[1]:.0f} MiB in "
        f"{one[0]}."
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    if executable is None:  # a skip, not a failure: `make bench` goes on
        print("Seat entry benchmark skipped: Chromium is not installed (apt-get install chromium)")
        return

    folder = Path(tempfile.mkdtemp(prefix="bench-seats-"))
    server = None
    try:
        started = time.perf_counter()
        server = serve(folder)
        scratch = game_before_round_8(server)
        must(
            api(
                server,
                "PUT",
                f"/api/v1/games/{scratch['id']}/rounds/{ROUND}",
                round_body(),
                scratch["edit_token"],
            )
        )
        expected = summary(result_of(server, scratch["id"]) or {})
        scores = ", ".join(f"{n} {s[3]}" for n, s in expected.items())
        print(
            f"Round {ROUND} ({ROUND + 2} cards a hand) of a {len(NAMES)}-player game on "
            f"phones ({PHONE['viewport']['width']}x{PHONE['viewport']['height']}, touch), "
            f"headless Chromium; {args.runs} run{'s' if args.runs != 1 else ''}, median and "
            "worst seconds, from the first tap to the saved page loaded."
        )
        print(
            f"Taps as fast as Playwright sends them: the app's and the browser's time, not a "
            f"person's. Scores checked each run: {scores}. "
            f"(Server up in {time.perf_counter() - started:.1f} s.)"
        )
        print()
        asyncio.run(bench(args.runs, server, executable, expected))
        logged = [
            line
            for line in server.log.read_text(errors="replace").splitlines()
            if re.match(r"^[\w.]+(Error|Exception)\b", line)
        ]
        if logged:
            print("The server logged:\n  " + "\n  ".join(dict.fromkeys(logged)))
    finally:
        if server is not None:
            server.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
