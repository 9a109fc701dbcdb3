"""Figures for the word referee: build, load, memory, verdicts, did-you-mean, locking.

Run: ``.venv/bin/python benchmarks/lexicon.py``. Each figure is the median (and
worst) of several runs; memory is measured in fresh processes. The caches go to
a temporary folder, so the first-time build is really first-time.

``benchmarks/lexicon.py first [RUNS]`` measures only a newcomer's first start, each run
in a fresh process with an empty cache: the standard list's build (as the first
challenge needs it), and ``prepare()`` as ``make run`` does it before serving (the
database, standard, its best-play index and the definitions, built in a child
process). Each: seconds for the build alone and for the whole process (imports
too), and the peak resident memory (the process's own and its largest child's).
"""

from __future__ import annotations

import gc
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from companion import create_app
from companion.lexicon import LexiconStore, cache
from companion.lexicon.store import FORMAT  # noqa: F401  (part of the key)

RUNS = 7


def timed(fn, runs: int = RUNS) -> list[float]:
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


FIRST_BUILD = """
import sys, time
start = time.perf_counter()
from pathlib import Path
from companion.lexicon import LexiconStore
store = LexiconStore(Path(sys.argv[1]), Path(sys.argv[2]))
began, cpu = time.perf_counter(), time.process_time()
store.build("standard")
done = time.perf_counter()
with open("/proc/self/status") as f:
    peak = int(next(line for line in f if line.startswith("VmHWM:")).split()[1]) / 1024
print(f"{done - began:.3f} {time.process_time() - cpu:.3f} {done - start:.3f} {peak:.1f}")
"""

FIRST_START = """
import sys, time
start = time.perf_counter()
from companion.serve.start import prepare
began, cpu = time.perf_counter(), time.process_time()
prepare()
done = time.perf_counter()
with open("/proc/self/status") as f:
    peak = int(next(line for line in f if line.startswith("VmHWM:")).split()[1]) / 1024
print(f"{done - began:.3f} {time.process_time() - cpu:.3f} {done - start:.3f} {peak:.1f}")
"""


def _children_peak(process: subprocess.Popen[str]) -> float:
    """The largest resident memory (MiB) seen of any child of ``process`` while it runs,
    sampled every 10 ms (a child's own peak: its parent's would count in its VmHWM)."""
    import psutil

    parent = psutil.Process(process.pid)
    peak = 0.0
    while process.poll() is None:
        try:
            for child in parent.children(recursive=True):
                peak = max(peak, child.memory_info().rss / 2**20)
        except psutil.Error:
            pass
        time.sleep(0.01)
    return peak


def first(runs: int = 5) -> None:
    """A newcomer's first start, ``runs`` times, each in a fresh process with empty caches."""
    import os

    for label, probe in (
        ("standard, first build from an empty cache", FIRST_BUILD),
        ("first start as make run does it (prepare())", FIRST_START),
    ):
        rows, children = [], []
        for _ in range(runs):
            with tempfile.TemporaryDirectory() as scratch:
                env = dict(os.environ, INSTANCE_PATH=scratch)
                process = subprocess.Popen(
                    [sys.executable, "-c", probe, f"{scratch}/lexicons", f"{scratch}/cache"],
                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env,
                )  # fmt: skip
                children.append(_children_peak(process))
                out, _ = process.communicate()
                if process.returncode:
                    raise SystemExit(f"{label}: the probe failed ({process.returncode})")
            rows.append([float(n) for n in out.split()[-4:]])
        wall, cpu, whole, peaks = (list(column) for column in zip(*rows, strict=True))
        print(
            f"{label}: median {statistics.median(wall):.2f} s, worst {max(wall):.2f} s "
            f"(CPU median {statistics.median(cpu):.2f} s; whole process, imports too: median "
            f"{statistics.median(whole):.2f} s); peak resident memory median "
            f"{statistics.median(peaks):.0f} MiB, worst {max(peaks):.0f} MiB"
            + (f"; its child's peak {max(children):.0f} MiB" if max(children) else "")
            + f" ({runs} fresh processes)",
            flush=True,
        )


def main() -> None:
    folder = Path(tempfile.mkdtemp())
    store = LexiconStore(folder / "lexicons", folder / "cache")

    build = timed(lambda: store.build("standard", force=True), runs=3)
    print(f"standard: first-time build (expand Hunspell, frequencies, write cache): "
          f"{build[0]:.2f} s; rebuilt in a warm process: median "
          f"{statistics.median(build[1:]):.2f} s")
    wordgame = timed(lambda: store.build("wordgame", force=True), runs=1)
    show("wordgame: build (from the loaded standard)", wordgame, "ms")

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
    get = lexicon.table.get
    hits = [w for w in words if get(w) is not None]
    misses = [w for w in words if get(w) is None]
    for label, probe in (("held", hits), ("not held", misses)):
        each = [t / len(probe) for t in timed(lambda probe=probe: [get(w) for w in probe], 5)]
        show(f"table lookup, a word {label} ({len(probe):,} words), per word", each, "us")
    verdict = lexicon.verdict
    rates = [len(words) / t for t in timed(lambda: [verdict(w) for w in words], runs=5)]
    print(
        f"verdicts in-process: median {statistics.median(rates):,.0f} words/s, "
        f"slowest run {min(rates):,.0f} words/s (200,000 words, half unknown)"
    )

    did_you_mean(lexicon, rng)
    locking(folder, store)

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


def did_you_mean(lexicon, rng: random.Random) -> None:
    """The close words of non-words, 3 to 14 letters: the cost one client puts on the server."""
    start = time.process_time()
    for letter in "abcdefghijklmnopqrstuvwxyz":
        lexicon.close_words(letter + "qqq")  # each first letter's words, decoded once
    print(f"did-you-mean: first use of all 26 letters (once a process): "
          f"{(time.process_time() - start) * 1000:.0f} ms CPU")
    for size in (3, 6, 10, 14):
        strings = [
            "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(size))
            for _ in range(40)
        ]
        cpu = []
        for word in strings:
            start = time.process_time()
            lexicon.close_words(word)
            cpu.append(time.process_time() - start)
        show(f"did-you-mean, {size}-letter non-words, CPU per request", cpu)
    for word in ("recieve", "quidler", "colur", "seperately"):
        start = time.process_time()
        close = lexicon.close_words(word)
        print(f"  {word}: {close} in {(time.process_time() - start) * 1000:.2f} ms CPU")


def locking(folder: Path, store: LexiconStore) -> None:
    """Lookups in loaded lists while a 20 MiB list of a group's own is built (its table,
    then its best-play index, as a game on that list needs both), and the memory kept
    after that list is edited and rebuilt three times."""
    rng = random.Random(11)
    lines = []
    size = 0
    while size < 20 * 2**20 - 64:
        word = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(4, 12)))
        lines.append(word)
        size += len(word) + 1
    big = folder / "lexicons" / "big.txt"
    big.parent.mkdir(parents=True, exist_ok=True)
    big.write_text("\n".join(lines) + "\n")
    print(f"big.txt: {big.stat().st_size / 2**20:.1f} MiB, {len(lines):,} lines")
    del lines  # this process keeps only what the store keeps
    gc.collect()
    def rss() -> float:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * 4096 / 2**20

    def peak() -> float:
        with open("/proc/self/status") as f:
            found = next(line for line in f if line.startswith("VmHWM:"))
        return int(found.split()[1]) / 1024

    standard = store.get("standard")
    store.get("wordgame")
    gc.collect()
    print(f"resident memory with standard and wordgame loaded: {rss():.0f} MiB")
    waits: list[float] = []
    for round_ in range(4):
        if round_:
            text = big.read_bytes()
            big.write_bytes(text[text.index(b"\n") + 1 :])  # an edit: one word less, a new key
            del text
        done = threading.Event()
        built: list[float] = []

        def build(done: threading.Event = done, built: list[float] = built) -> None:
            start = time.perf_counter()
            store.get("big")
            built.append(time.perf_counter() - start)
            start = time.perf_counter()
            store.solver_index("big")
            built.append(time.perf_counter() - start)
            done.set()

        worker = threading.Thread(target=build)
        worker.start()
        while not done.is_set():
            start = time.perf_counter()
            store.get("standard").verdict("quiz")
            store.get("wordgame").verdict("zax")
            waits.append(time.perf_counter() - start)
            time.sleep(0.005)
        worker.join()
        gc.collect()
        print(
            f"build {round_ + 1} of big: table {built[0]:.1f} s, best-play index {built[1]:.1f} s; "
            f"resident memory after it: {rss():.0f} MiB (peak so far {peak():.0f} MiB)"
        )
    assert store.get("standard") is standard
    show(f"lookups in loaded lists during those builds ({len(waits)} lookups)", waits)


if __name__ == "__main__":
    if sys.argv[1:2] == ["first"]:
        first(int(sys.argv[2]) if len(sys.argv) > 2 else 5)
    else:
        main()
