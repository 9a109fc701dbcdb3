"""Figures for ``python -m companion.commands.solve`` from a cold process: the whole process timed.

Each figure is one command run in fresh processes: median and worst wall time (the
interpreter's start included), the median CPU time (user + system, which a busy machine
disturbs less than the wall time) and the peak resident memory of the process. The hands
are solved with the standard lexicon, whose index is loaded from its cache (the first
run, not timed, builds it if need be), then with ``--words FILE``: a file of the
77,676 most common words of the standard lexicon (the size of the list a peer solver
was compared on), whose index the first run builds and caches under the file's
SHA-256, and the later runs read. A bare interpreter (``python -c pass``) is timed too,
for the floor. Run: ``.venv/bin/python benchmarks/solver_cold.py [runs]``.

The children run from this checkout (``PYTHONPATH``) with the bytecode cache allowed
(``PYTHONDONTWRITEBYTECODE`` removed), as a user's runs would; the caches go to
``.cache/bench-lexicons`` here (``LEXICON_CACHE_DIR``), kept from one run to the next.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / ".cache" / "bench-lexicons"
HANDS = {
    "10 cards": "qu a th i e r s t o n",
    "10 cards, repeats": "e e s s t r a n i o",
    "11 cards, --discard": "--discard cl er in th a e i o s t x",
}
WORDS_OF_STANDARD = """
import sys
from pathlib import Path
from companion.lexicon import LexiconStore
lexicon = LexiconStore(Path(sys.argv[1]), Path(sys.argv[1])).get("standard")
words = sorted(lexicon.words(), key=lambda w: (-(lexicon.frequency(w) or 0), w))[:77_676]
Path(sys.argv[2]).write_text("\\n".join(words) + "\\n", encoding="utf-8")
print(len(words))
"""


def environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "PYTHONPATH": str(ROOT), "LEXICON_CACHE_DIR": str(CACHE)}


def run_once(command: list[str]) -> tuple[float, float, float, str]:
    """Wall seconds, CPU seconds, peak resident MiB and the output of one fresh process."""
    start = time.perf_counter()
    child = subprocess.Popen(
        command, cwd=ROOT, env=environment(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    assert child.stdout is not None
    out = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        raise SystemExit(f"{' '.join(command)} failed:\n{out.decode()}")
    return seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, out.decode()


def measure(label: str, command: list[str], runs: int) -> str:
    """Time ``command`` ``runs`` times (after one untimed run) and print the figures."""
    run_once(command)  # builds what is missing, writes the bytecode cache
    times, cpu, memory = [], [], []
    out = ""
    for _ in range(runs):
        seconds, cpu_seconds, mib, out = run_once(command)
        times.append(seconds)
        cpu.append(cpu_seconds)
        memory.append(mib)
    print(
        f"{label}: wall median {statistics.median(times) * 1000:.0f} ms, worst "
        f"{max(times) * 1000:.0f} ms, best {min(times) * 1000:.0f} ms; CPU median "
        f"{statistics.median(cpu) * 1000:.0f} ms; peak RSS median "
        f"{statistics.median(memory):.1f} MiB, worst {max(memory):.1f} MiB ({runs} processes)",
        flush=True,
    )
    return out


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    python = sys.executable
    solve = [python, "-m", "companion.commands.solve"]
    print(f"{python} (Python {sys.version.split()[0]}), {os.cpu_count()} CPUs", flush=True)
    measure("interpreter only (python -c pass)", [python, "-c", "pass"], runs)
    measure("interpreter, site off (python -S -c pass)", [python, "-S", "-c", "pass"], runs)
    for label, hand in HANDS.items():
        out = measure(f"standard lexicon, {label}", [*solve, *hand.split()], runs)
        print("   " + out.strip().replace("\n", "\n   "))
    with tempfile.TemporaryDirectory() as tmp:
        words = Path(tmp) / "standard-words.txt"
        made = subprocess.run(
            [python, "-c", WORDS_OF_STANDARD, str(CACHE), str(words)],
            cwd=ROOT,
            env=environment(),
            capture_output=True,
            text=True,
            check=True,
        )
        count = int(made.stdout)
        hand = HANDS["10 cards"].split()
        for stale in CACHE.glob("words-*.idx"):
            stale.unlink()  # so that measure's first, untimed run really builds it
        out = measure(
            f"--words FILE ({count:,} words), later runs: index from the cache, 10 cards",
            [*solve, "--words", str(words), *hand],
            runs,
        )
        print("   " + out.strip().replace("\n", "\n   "))


if __name__ == "__main__":
    main()
