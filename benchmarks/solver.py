"""Figures for the best-play solver on the standard lexicon.

1,000 seeded random deals from the real deck: 10-card hands (median and worst)
and 11-card hands with the discard choice; the index build time, its load time
from the cache, and the resident memory it adds. Run:
``.venv/bin/python benchmarks/solver.py [deals]``.
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from companion.game.deck import CARDS
from companion.game.solver import best_play
from companion.lexicon import LexiconStore, cache
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


def deals(count: int, size: int, seed: int = 2026) -> list[list]:  # type: ignore[type-arg]
    deck = [c for c in CARDS for _ in range(c.copies)]
    rng = random.Random(seed)
    hands = []
    for _ in range(count):
        rng.shuffle(deck)
        hands.append(deck[:size])
    return hands


def timed_runs(hands, index, discard: bool) -> list[float]:  # type: ignore[no-untyped-def]
    out = []
    for hand in hands:
        start = time.perf_counter()
        best_play(hand, index, "cards", discard)
        out.append(time.perf_counter() - start)
    return out


def show(label: str, times: list[float]) -> None:
    times = sorted(times)
    print(f"{label}: median {statistics.median(times) * 1000:.2f} ms, 95th percentile "
          f"{times[int(len(times) * 0.95)] * 1000:.2f} ms, worst {times[-1] * 1000:.2f} ms "
          f"({len(times)} deals)")


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    folder = Path(tempfile.mkdtemp())
    store = LexiconStore(folder / "lexicons", folder / "cache")
    store.get("standard")

    start = time.perf_counter()
    index = store.solver_index("standard")
    print(f"index build (first time, standard): {time.perf_counter() - start:.2f} s, "
          f"{len(index):,} card multisets")
    key = f"solver {SOLVER_FORMAT}; " + store._recipe("standard")[0]
    path = folder / "cache" / "standard.idx"
    loads = []
    for _ in range(7):
        start = time.perf_counter()
        cache.read_pairs(path, key)
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

    show("10-card hands", timed_runs(deals(count, 10), index, discard=False))
    show("11-card hands with the discard", timed_runs(deals(count, 11, 7), index, discard=True))


if __name__ == "__main__":
    main()
