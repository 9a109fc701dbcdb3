"""Figures for the best-play solver on the standard lexicon.

1,000 seeded random deals from the real deck: 10-card hands and 11-card hands with
the discard choice, each timed call by call, in several runs; the index build time,
its load time from the cache (the packed file), and the resident memory it adds. Run:
``.venv/bin/python benchmarks/solver.py [deals] [runs]``.

The worst call of a run is reported twice. With the garbage collector off during the
timed calls (a full collection between batches, outside the timing), the worst is the
solver's own. With it on, as in the app, a call now and then pays for a collection of
the whole heap (the loaded lexicon's objects with it): those runs are counted apart
(over 10 ms), since they say how often the collector pauses, not how slow a hand is.
"""

from __future__ import annotations

import gc
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from companion.game.deck import CARDS
from companion.game.solver import best_play
from companion.lexicon import LexiconStore, packed
from companion.lexicon.store import SOLVER_FORMAT

MEMORY_PROBE = """
import gc, sys
from pathlib import Path
def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096 / 2**20
from companion.lexicon import LexiconStore
store = LexiconStore(Path(sys.argv[1]), Path(sys.argv[2]))
store.get("standard")
gc.collect()
before = rss()
index = store.solver_index("standard")
gc.collect()
print(f"{rss() - before:.1f}")
"""
BATCH = 100
"""Calls timed between two full collections when the collector is off."""
SLOW = 0.010
"""A call slower than this, with the collector on, is counted as paused."""


def deals(count: int, size: int, seed: int = 2026) -> list[list]:
    deck = [c for c in CARDS for _ in range(c.copies)]
    rng = random.Random(seed)
    hands = []
    for _ in range(count):
        rng.shuffle(deck)
        hands.append(deck[:size])
    return hands


def timed_runs(hands, index, discard: bool, collector: bool) -> list[float]:
    """The time of each call; with ``collector`` false, the collector is off while timing."""
    out = []
    for start_at in range(0, len(hands), BATCH):
        if not collector:
            gc.collect()
            gc.disable()
        try:
            for hand in hands[start_at : start_at + BATCH]:
                start = time.perf_counter()
                best_play(hand, index, "cards", discard)
                out.append(time.perf_counter() - start)
        finally:
            gc.enable()
    return out


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def show(label: str, hands, index, discard: bool, runs: int) -> None:
    """Median, 95th percentile and worst per run with the collector off; then with it
    on, the worst and how many calls passed ``SLOW``."""
    medians, worsts = [], []
    for run in range(runs):
        times = sorted(timed_runs(hands, index, discard, collector=False))
        medians.append(statistics.median(times))
        worsts.append(times[-1])
        print(
            f"{label}, run {run + 1}, collector off: median {ms(medians[-1])}, 95th "
            f"percentile {ms(times[int(len(times) * 0.95)])}, worst {ms(times[-1])} "
            f"({len(times)} deals)"
        )
    print(
        f"{label}, collector off, {runs} runs: median of medians {ms(statistics.median(medians))}"
        f", worst of medians {ms(max(medians))}, worst call {ms(max(worsts))}"
    )
    pauses: dict[int, list[float]] = {0: [], 1: [], 2: []}
    started = [0.0]

    def watch(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
        else:
            pauses[info["generation"]].append(time.perf_counter() - started[0])

    gc.callbacks.append(watch)
    try:
        times = sorted(timed_runs(hands, index, discard, collector=True))
    finally:
        gc.callbacks.remove(watch)
    slow = [t for t in times if t > SLOW]
    shown = ", ".join(ms(t) for t in slow[-5:]) or "none"
    runs_of = ", ".join(
        f"{len(p)} times in generation {g}" + (f" (longest {ms(max(p))})" if p else "")
        for g, p in pauses.items()
    )
    print(
        f"{label}, collector on: median {ms(statistics.median(times))}, worst {ms(times[-1])}; "
        f"{len(slow)} of {len(times)} calls over {ms(SLOW)} ({shown}); the collector ran "
        f"{runs_of}"
    )


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    folder = Path(tempfile.mkdtemp())
    store = LexiconStore(folder / "lexicons", folder / "cache")
    store.get("standard")

    start = time.perf_counter()
    index = store.solver_index("standard")
    print(f"index build (first time, standard): {time.perf_counter() - start:.2f} s, "
          f"{len(index):,} card multisets")
    key = f"solver {SOLVER_FORMAT}; " + store._recipe("standard")[0]
    path = packed.index_path(folder / "cache", "standard")
    loads = []
    for _ in range(7):
        start = time.perf_counter()
        packed.read(path, key)
        loads.append(time.perf_counter() - start)
    print(f"index load from cache: median {statistics.median(loads) * 1000:.1f} ms, worst "
          f"{max(loads) * 1000:.1f} ms ({path.stat().st_size / 2**20:.2f} MiB file)")
    extra = []
    for _ in range(3):
        out = subprocess.run([sys.executable, "-c", MEMORY_PROBE, str(folder / "lexicons"),
                              str(folder / "cache")], capture_output=True, text=True, check=True)
        extra.append(float(out.stdout.strip()))
    print(f"index resident memory: median {statistics.median(extra):.1f} MiB, worst "
          f"{max(extra):.1f} MiB (3 fresh processes)")

    show("10-card hands", deals(count, 10), index, discard=False, runs=runs)
    show("11-card hands with the discard", deals(count, 11, 7), index, discard=True, runs=runs)
    as_dict = dict(index.items())  # the same index as a plain dict, for comparison
    times = sorted(timed_runs(deals(count, 10), as_dict, discard=False, collector=False))
    print(f"10-card hands, the index as a dict, collector off: median "
          f"{ms(statistics.median(times))}, worst {ms(times[-1])}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak resident memory of this process: {peak:.0f} MiB")


if __name__ == "__main__":
    main()
