"""Cost of POST /api/v1/score for an 8-player round 8 (10 cards each), through the test client.

Prints the median, 95th percentile and worst of 1,000 calls, repeated a few
times, and the memory the app holds. Figures, not a pass/fail test.
Run: ``.venv/bin/python benchmarks/score.py [calls] [repeats]``.
"""

from __future__ import annotations

import random
import resource
import statistics
import sys
import time
import tracemalloc

from companion import create_app
from companion.game.deck import CARDS


def eight_player_round(seed: int = 8) -> dict[str, object]:
    """A legal round 8 dealt from a shuffled real deck: words of 3, 3 and 2 cards, 2 unused."""
    deck = [c.name for c in CARDS for _ in range(c.copies)]
    random.Random(seed).shuffle(deck)
    players = []
    for p in range(8):
        hand = deck[p * 10 : (p + 1) * 10]
        players.append(
            {
                "name": f"Player {p + 1}",
                "words": [hand[0:3], hand[3:6], hand[6:8]],
                "unused": hand[8:10],
                "went_out": p == 0,
            }
        )
    challenges = [
        {"by": "Player 2", "player": "Player 1", "word": 0, "ruling": "legal"},
        {"by": "Player 3", "player": "Player 4", "word": 1, "ruling": "illegal"},
    ]
    return {
        "round": 8,
        "players": players,
        "challenges": challenges,
        "rules": {"false_out_penalty": 5},
    }


def main() -> None:
    calls = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    app = create_app({"TESTING": True, "SECRET_KEY": "bench"})
    client = app.test_client()
    body = eight_player_round()
    first = client.post("/api/v1/score", json=body)
    assert first.status_code == 200, first.json
    for _ in range(50):  # warm up
        client.post("/api/v1/score", json=body)

    medians = []
    worst = 0.0
    p95s = []
    for _ in range(repeats):
        times = []
        for _ in range(calls):
            start = time.perf_counter()
            client.post("/api/v1/score", json=body)
            times.append(time.perf_counter() - start)
        times.sort()
        medians.append(statistics.median(times))
        p95s.append(times[int(len(times) * 0.95)])
        worst = max(worst, times[-1])

    tracemalloc.start()
    client.post("/api/v1/score", json=body)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    ms = 1000
    print(f"POST /api/v1/score, 8 players x 10 cards, {calls} calls x {repeats} runs")
    print(
        f"  median per call: {statistics.median(medians) * ms:.3f} ms "
        f"(runs: {', '.join(f'{m * ms:.3f}' for m in medians)})"
    )
    print(f"  95th percentile: {statistics.median(p95s) * ms:.3f} ms")
    print(f"  worst call:      {worst * ms:.3f} ms")
    print(f"  peak Python memory during one call: {peak / 1024:.0f} KiB")
    print(f"  process max RSS: {rss:.1f} MiB")


if __name__ == "__main__":
    main()
