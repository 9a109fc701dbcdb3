"""Figures for the word referee: build, load, memory, verdict rate, words API latency.

Run: ``.venv/bin/python benchmarks/lexicon.py``. Each figure is the median (and
worst) of several runs; memory is measured in fresh processes. The caches go to
a temporary folder, so the first-time build is really first-time.
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from companion import create_app
from companion.lexicon import LexiconStore, cache
from companion.lexicon.store import FORMAT  # noqa: F401  (part of the key)

RUNS = 7


def timed(fn, runs: int = RUNS) -> list[float]:  # type: ignore[no-untyped-def]
    out = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        out.append(time.perf_counter() - start)
    return out


def show(label: str, seconds: list[float], unit: str = "ms") -> None:
    scale = 1000 if unit == "ms" else 1e6
    print(
        f"{label}: median {statistics.median(seconds) * scale:.2f} {unit}, "
        f"worst {max(seconds) * scale:.2f} {unit} ({len(seconds)} runs)"
    )


MEMORY_PROBE = """
import gc, sys, time
from pathlib import Path
def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096 / 2**20
from companion.lexicon import LexiconStore
store = LexiconStore(Path(sys.argv[1]), Path(sys.argv[2]))
store._recipe("standard")  # imports and version look-ups, not the list itself
gc.collect()
before = rss()
start = time.perf_counter()
lexicon = store.get("standard")
seconds = time.perf_counter() - start
gc.collect()
print(f"{rss() - before:.1f} {seconds:.4f}")
"""


def main() -> None:
    folder = Path(tempfile.mkdtemp())
    store = LexiconStore(folder / "lexicons", folder / "cache")

    build = timed(lambda: store.build("standard", force=True), runs=3)
    print(f"standard: first-time build (expand Hunspell, frequencies, write cache): "
          f"{build[0]:.2f} s; rebuilt in a warm process: median "
          f"{statistics.median(build[1:]):.2f} s")
    broad = timed(lambda: store.build("broad", force=True), runs=1)
    show("broad: first-time build", broad, "ms")

    key, _ = store._recipe("standard")
    path = folder / "cache" / "standard.lex"
    print(f"standard cache file: {path.stat().st_size / 2**20:.2f} MiB")
    load = timed(lambda: cache.read(path, key), runs=15)
    show("standard: load from cache, warm process (read, verify SHA-256, decode)", load)

    extra, fresh = [], []
    for _ in range(7):
        out = subprocess.run(
            [sys.executable, "-c", MEMORY_PROBE, str(folder / "lexicons"), str(folder / "cache")],
            capture_output=True,
            text=True,
            check=True,
        )
        memory, seconds = out.stdout.split()
        extra.append(float(memory))
        fresh.append(float(seconds))
    show("standard: load from cache, fresh process (the server's first use)", fresh)
    print(
        f"standard: extra resident memory once loaded: median {statistics.median(extra):.1f} "
        f"MiB, worst {max(extra):.1f} MiB (7 fresh processes)"
    )

    lexicon = store.get("standard")
    rng = random.Random(7)
    known = list(lexicon.words())
    words = [rng.choice(known) for _ in range(100_000)]
    words += [
        "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 9)))
        for _ in range(100_000)
    ]
    rng.shuffle(words)
    verdict = lexicon.verdict
    rates = [len(words) / t for t in timed(lambda: [verdict(w) for w in words], runs=5)]
    print(
        f"verdicts in-process: median {statistics.median(rates):,.0f} words/s, "
        f"slowest run {min(rates):,.0f} words/s (200,000 words, half unknown)"
    )

    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "bench",
            "LEXICON_DIR": str(folder / "lexicons"),
            "LEXICON_CACHE_DIR": str(folder / "cache"),
        }
    )
    client = app.test_client()
    sample = ["quiz", "steve", "qi", "zax", "running", "tv", "thin", "xylophone"]
    for w in sample:
        client.get(f"/api/v1/words/{w}")
    calls = []
    for i in range(2000):
        w = sample[i % len(sample)]
        start = time.perf_counter()
        client.get(f"/api/v1/words/{w}")
        calls.append(time.perf_counter() - start)
    calls.sort()
    print(
        f"GET /api/v1/words/<w> through the test client: median "
        f"{statistics.median(calls) * 1000:.3f} ms, 95th percentile "
        f"{calls[int(len(calls) * 0.95)] * 1000:.3f} ms, worst {calls[-1] * 1000:.3f} ms "
        f"({len(calls)} calls)"
    )


if __name__ == "__main__":
    main()
