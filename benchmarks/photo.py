"""How well and how fast the card reader reads photos of cards on a table.

The photos are benchmarks/photoset.py's synthetic set (``--per-condition`` photos of each
condition, seeded: the same photos every run), rendered in worker processes so that this
one holds only their JPEG bytes. Each is read as ``POST /api/v1/cards/read`` reads it:
the bytes decoded by ``companion.vision.photo.open_picture``, then
``companion.vision.cards.read_cards``, one photo at a time on one thread (OMP_NUM_THREADS=1
before anything is imported; the model itself takes its threads from OCR_THREADS, 1).

Scoring, photo by photo:

- a truth card is **read right** when one reported card, each used for one truth card
  at most (a maximum matching), has the same name and a box that holds one of the truth
  card's visible index centres, or whose centre lies within the truth card's corners;
- **precision**: the reported cards so matched over all the cards reported;
- **invented**: copies of a card reported beyond the deck's (two Zs where the deck has
  two is fine, a third is invented), summed;
- a photo the reader raises on (the API would answer a server error) counts as nothing
  read, and the error is printed;
- a truth word is **right** when the reading's words hold exactly its cards, in order
  (the order of the words on the photo doesn't count); **left over right**: the truth's
  cards left over found among the reading's (as a multiset), over the truth's.

Prints the first call (the model loaded, then one photo read) and the resident memory
before and after it; per condition and overall, the scores above and the time per photo
(decoding and reading: median and worst over every photo and ``--repeat`` runs; CPU time
beside it, which shows threads if it is higher); then the peak resident memory and what
reading added to it (the peak over the memory before the first read).
Run: ``.venv/bin/python benchmarks/photo.py [--per-condition 10] [--repeat 3] [--seed 27]
[--only CONDITION] [--misses] [--save DIR]``.
"""

from __future__ import annotations

import os

os.environ["OMP_NUM_THREADS"] = "1"  # before NumPy, OpenCV or ONNX Runtime is loaded

import argparse
import json
import multiprocessing
import resource
import statistics
import sys
import textwrap
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import photoset
from photoset import CONDITIONS, Order, Photo, TruthCard, inside

from companion.game.deck import BY_NAME
from companion.vision.cards import Reading, read_cards
from companion.vision.photo import open_picture


def rss_mib() -> float:
    """The process's resident memory now, in MiB."""
    with open("/proc/self/statm", encoding="ascii") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def peak_mib() -> float:
    """The process's peak resident memory so far, in MiB (Linux counts KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def render(orders: Sequence[Order]) -> list[Photo]:
    """The photos, rendered by one worker process a CPU (same bytes as in one process)."""
    workers = max(1, min(os.cpu_count() or 1, len(orders)))
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        return pool.map(Order.render, orders, chunksize=1)


NOTHING = Reading((), (), ())
"""What a photo the reader failed on counts as: nothing read."""


@dataclass(frozen=True)
class Read:
    """One reading of a photo: what was read (nothing if the reader raised: ``error``
    says what), and its wall and CPU time."""

    reading: Reading
    wall: float
    cpu: float
    error: str = ""


def read(jpeg: bytes) -> Read:
    """The reading of a photo as the API does it, timed."""
    wall, cpu = time.perf_counter(), time.process_time()
    try:
        reading, error = read_cards(open_picture(jpeg)), ""
    except Exception as exc:  # the API would answer a server error: counted, not fatal
        reading, error = NOTHING, f"{type(exc).__name__}: {exc}".strip(": ")
    return Read(reading, time.perf_counter() - wall, time.process_time() - cpu, error)


# ---------------------------------------------------------------------------------------
# Scoring


def near(truth: TruthCard, box: tuple[int, int, int, int]) -> bool:
    """Whether a reported box is at ``truth``'s place: it holds one of the card's visible
    index centres, or its centre lies within the card's corners."""
    x, y, w, h = box
    if any(x <= px <= x + w and y <= py <= y + h for px, py in truth.indexes):
        return True
    return inside((x + w / 2, y + h / 2), truth.corners)


def where(truth: Sequence[TruthCard], box: tuple[int, int, int, int]) -> TruthCard | None:
    """The card a reported box lies on: one whose visible index it holds, else the top
    one (the truth lists the cards as they were laid) its centre lies in, if any."""
    x, y, w, h = box
    for card in truth:
        if any(x <= px <= x + w and y <= py <= y + h for px, py in card.indexes):
            return card
    under = [card for card in truth if inside((x + w / 2, y + h / 2), card.corners)]
    return under[-1] if under else None


def matching(truth: Sequence[TruthCard], reading: Reading, same_name: bool) -> dict[int, int]:
    """The most pairs (truth card -> reported card), each card in one pair at most, of
    cards at the same place (and with the same name when ``same_name``)."""
    fits = [
        [
            j
            for j, got in enumerate(reading.cards)
            if near(card, got.box) and (got.card == card.card or not same_name)
        ]
        for card in truth
    ]
    owner: dict[int, int] = {}  # reported -> truth

    def place(i: int, seen: set[int]) -> bool:
        for j in fits[i]:
            if j in seen:
                continue
            seen.add(j)
            if j not in owner or place(owner[j], seen):
                owner[j] = i
                return True
        return False

    for i in range(len(truth)):
        place(i, set())
    return {i: j for j, i in owner.items()}


@dataclass
class Score:
    """The sums of one condition, or of all."""

    photos: int = 0
    cards: int = 0
    right: int = 0
    reported: int = 0
    sure_wrong: int = 0
    invented: int = 0
    words: int = 0
    words_right: int = 0
    unused: int = 0
    unused_right: int = 0
    unused_extra: int = 0
    errors: int = 0
    times: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)

    def add(self, other: Score) -> None:
        for name, value in vars(other).items():
            if isinstance(value, list):
                getattr(self, name).extend(value)
            else:
                setattr(self, name, getattr(self, name) + value)


def score(photo: Photo, reading: Reading) -> Score:
    """One photo's reading against its truth (its times are added apart)."""
    pairs = matching(photo.cards, reading, same_name=True)
    reported = Counter(c.card for c in reading.cards)
    read_words = Counter(tuple(w) for w in reading.words)
    truth_words = Counter(tuple(w) for w in photo.words)
    truth_unused, read_unused = Counter(photo.unused), Counter(reading.unused)
    matched = set(pairs.values())
    return Score(
        photos=1,
        cards=len(photo.cards),
        right=len(pairs),
        reported=len(reading.cards),
        sure_wrong=sum(c.sure for j, c in enumerate(reading.cards) if j not in matched),
        invented=sum(max(0, n - BY_NAME[name].copies) for name, n in reported.items()),
        words=len(photo.words),
        words_right=sum((truth_words & read_words).values()),
        unused=len(photo.unused),
        unused_right=sum((truth_unused & read_unused).values()),
        unused_extra=sum((read_unused - truth_unused).values()),
    )


def misses(photo: Photo, reading: Reading) -> list[str]:
    """What was misread on a photo, truth against reading, as lines to print: each truth
    card not read right (read as another card at its place, or not read), each reported
    card left over (a second reading of a card, or where no card is), the words and the
    cards left over when they differ."""
    right = matching(photo.cards, reading, same_name=True)
    used = set(right.values())
    lines = []
    for i, card in enumerate(photo.cards):
        if i in right:
            continue
        there = [j for j, got in enumerate(reading.cards) if j not in used and near(card, got.box)]
        if there:
            used.add(there[0])
            lines.append(f"{card.card.upper()} read as {reading.cards[there[0]].card.upper()}")
        else:
            lines.append(f"{card.card.upper()} not read")
    for j, got in enumerate(reading.cards):
        if j in used:
            continue
        at = where(photo.cards, got.box)
        if at is not None:
            lines.append(
                f"{got.card.upper()} also reported on the {at.card.upper()} card, box {got.box}"
            )
        else:
            lines.append(f"{got.card.upper()} reported where no card is, box {got.box}")
    truth_words = sorted("-".join(w) for w in photo.words)
    read_words = sorted("-".join(w) for w in reading.words)
    if truth_words != read_words:
        lines.append(f"words {' '.join(truth_words)} read as {' '.join(read_words) or '-'}")
    if sorted(photo.unused) != sorted(reading.unused):
        lines.append(
            f"left over {'-'.join(sorted(photo.unused)) or '-'} read as "
            f"{'-'.join(sorted(reading.unused)) or '-'}"
        )
    return lines


# ---------------------------------------------------------------------------------------
# Report


def percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def row(label: str, s: Score) -> str:
    ms = [t * 1000 for t in s.times]
    cpu = [t * 1000 for t in s.cpu]
    return (
        f"{label:<12} {s.photos:>6} {s.cards:>6} {percent(s.right, s.cards):>7} "
        f"{percent(s.right, s.reported):>9} {s.sure_wrong:>6} {s.invented:>8} "
        f"{s.words_right:>3}/{s.words:<3} {percent(s.words_right, s.words):>6} "
        f"{s.unused_right:>3}/{s.unused:<3} {percent(s.unused_right, s.unused):>6} "
        f"{s.unused_extra:>5} {statistics.median(ms):>8.0f} {max(ms):>7.0f} "
        f"{statistics.median(cpu):>7.0f} {s.errors:>6}"
    )


HEADER = (
    f"{'condition':<12} {'photos':>6} {'cards':>6} {'right':>7} {'precision':>9} "
    f"{'sure✗':>6} {'invented':>8} {'words':>7} {'':>6} {'left over':>7} {'':>6} "
    f"{'extra':>5} {'median':>8} {'worst':>7} {'cpu':>7} {'failed':>6}"
)
LEGEND = (
    "right: truth cards read right; precision: right over reported; sure✗: cards reported "
    "sure but wrong or nowhere; invented: copies beyond the deck; words: truth words found "
    "exactly; left over: truth left-over cards found among the reading's, extra: the "
    "reading's left-overs beyond; median, worst: ms a photo (decode + read, wall clock), "
    "cpu: median CPU ms a photo; failed: photos the reader raised on (counted as nothing read)"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--per-condition", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3, help="timed runs over the set")
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument("--only", choices=CONDITIONS, action="append", metavar="CONDITION")
    parser.add_argument("--misses", action="store_true", help="list what was misread")
    parser.add_argument("--save", type=Path, metavar="DIR", help="write the photos + truth")
    args = parser.parse_args()
    conditions = args.only or CONDITIONS

    started = time.perf_counter()
    photos = render(photoset.plan(args.seed, args.per_condition, conditions))
    size = sum(len(p.jpeg) for p in photos) / 2**20
    print(
        f"{len(photos)} photos ({', '.join(conditions)}; seed {args.seed}) rendered in "
        f"{time.perf_counter() - started:.1f} s, {size:.1f} MiB of JPEG"
    )
    if args.save:
        photoset.save(photos, args.save)

    before = rss_mib()
    first = read(photos[0].jpeg)
    after = rss_mib()
    print(
        f"first call (model loaded, one photo read): {first.wall:.2f} s; resident memory "
        f"{before:.0f} MiB before, {after:.0f} MiB after (+{after - before:.0f} MiB)"
    )

    readings: list[Reading] = []
    times: list[list[float]] = [[] for _ in photos]
    cpu: list[list[float]] = [[] for _ in photos]
    errors: dict[int, str] = {}
    unsteady = 0
    for run in range(args.repeat):
        for k, photo in enumerate(photos):
            got = read(photo.jpeg)
            times[k].append(got.wall)
            cpu[k].append(got.cpu)
            if got.error:
                errors.setdefault(k, got.error)
            if run == 0:
                readings.append(got.reading)
            elif got.reading != readings[k]:
                unsteady += 1
    if readings and readings[0] != first.reading:
        unsteady += 1

    total = Score()
    by_condition: dict[str, Score] = {}
    for k, photo in enumerate(photos):
        s = score(photo, readings[k])
        s.times, s.cpu, s.errors = times[k], cpu[k], int(k in errors)
        by_condition.setdefault(photo.condition, Score()).add(s)
        total.add(s)
    print()
    print(HEADER)
    for condition in conditions:
        print(row(condition, by_condition[condition]))
    print(row("all", total))
    print(textwrap.fill(LEGEND, 100))
    peak = peak_mib()
    print(
        f"\ntime a photo over {len(photos)} photos x {args.repeat} runs: median "
        f"{statistics.median(total.times) * 1000:.0f} ms, worst {max(total.times) * 1000:.0f}"
        f" ms; peak resident memory {peak:.0f} MiB, {peak - before:.0f} MiB over the "
        f"{before:.0f} MiB before the first read"
    )
    if unsteady:
        print(f"note: {unsteady} readings differed from the same photo's first reading")
    for k, error in errors.items():
        print(f"reader failed on {k:02d} {photos[k].name} ({photos[k].background}): {error}")

    if args.save:
        kept = [
            {"file": f"{k:02d}-{p.name}.jpg", "cards": [asdict(c) for c in r.cards],
             "words": r.words, "unused": r.unused}
            for k, (p, r) in enumerate(zip(photos, readings, strict=True))
        ]  # fmt: skip
        (args.save / "readings.json").write_text(json.dumps(kept, indent=1) + "\n")
        print(f"photos, truth.json and readings.json written to {args.save}")
    if args.misses:
        print("\nmisread:")
        for k, (photo, reading) in enumerate(zip(photos, readings, strict=True)):
            lines = misses(photo, reading)
            if lines:
                print(f"{k:02d} {photo.name} ({photo.background}): " + "; ".join(lines))


if __name__ == "__main__":
    main()
