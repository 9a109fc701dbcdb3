"""Accuracy of the word referee on its two hand-labelled sets of words.

The sets: ``new``, ``benchmarks/data/referee_table_words.tsv``, weighted toward what a
Quiddler table argues about (short words, plurals and verb forms, informal, new and archaic
words, names, brands, abbreviations, junk) and built without looking at the lexicons'
verdicts; ``old``, ``benchmarks/data/referee_words.tsv``, the first set, kept as a second
column of results.

Run: ``PYTHONPATH=. .venv/bin/python benchmarks/referee.py``, with ``--set new|old|both``
(default both), ``--lexicon NAME`` (repeatable), ``--markdown``, ``--misses NAME`` or
``--instance PATH`` (an instance folder; its ``lexicons`` folder is used). For each set and
lexicon (``standard`` and
``wordgame``, then any ``--lexicon``), per category and overall: the share judged right (the
verdict's reason code is the label: the ``wordgame`` column for the lexicon of that name, the
``standard`` column for every other), the share of legal words accepted, the share of illegal
words refused, and the share of illegal words refused for the labelled reason. A lexicon the
store does not know is skipped with a line saying so. ``--markdown`` prints, for the new set
(or the one chosen), a table per lexicon by category, then a summary of every set chosen.
``--misses NAME`` lists the words NAME got wrong on the chosen sets. The caches are the
instance's (by default the project's, ``instance/lexicons/cache``), so only a lexicon's
first use builds it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from companion.lexicon import Lexicon, LexiconStore, UnknownLexicon

ROOT = Path(__file__).resolve().parents[1]

DATA = ROOT / "benchmarks" / "data"
SETS = {"new": DATA / "referee_table_words.tsv", "old": DATA / "referee_words.tsv"}
WORDS = SETS["old"]
INSTANCE = ROOT / "instance"
FOLDER = INSTANCE / "lexicons"
LEGAL = "in_dictionary"
DEFAULT = ("standard", "wordgame")


class Row(NamedTuple):
    """One labelled word: its category, the two expected verdicts and a note."""

    word: str
    category: str
    standard: str
    wordgame: str
    note: str

    def expected(self, lexicon: str) -> str:
        """The reason code ``lexicon`` should give: its own column, else ``standard``'s."""
        return self.wordgame if lexicon == "wordgame" else self.standard


def read_rows(path: Path = WORDS) -> list[Row]:
    """The rows of the set, without comments and the header line; the note may be left off."""
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("# "):
            continue
        fields = line.split("\t")
        if fields[:2] != ["word", "category"]:
            rows.append(Row(*fields, *[""] * (5 - len(fields))))
    return rows


@dataclass
class Tally:
    """Counts for one group of words under one lexicon."""

    words: int = 0
    right: int = 0
    legal: int = 0
    accepted: int = 0
    illegal: int = 0
    refused: int = 0
    right_reason: int = 0

    def add(self, expected: str, legal: bool, reason: str) -> None:
        self.words += 1
        self.right += reason == expected
        if expected == LEGAL:
            self.legal += 1
            self.accepted += legal
        else:
            self.illegal += 1
            self.refused += not legal
            self.right_reason += not legal and reason == expected

    def shares(self) -> tuple[float | None, ...]:
        """Right, legal accepted, illegal refused, refused for the right reason (0-1)."""
        return (
            share(self.right, self.words),
            share(self.accepted, self.legal),
            share(self.refused, self.illegal),
            share(self.right_reason, self.illegal),
        )


def share(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def percent(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:.1f}"


@dataclass
class Result:
    """One lexicon's tallies per category (in the set's order) and overall, and its misses."""

    name: str
    title: str
    words: str
    categories: dict[str, Tally]
    overall: Tally
    misses: list[tuple[Row, str]]


def judge(lexicon: Lexicon, rows: Iterable[Row], words: str = "old") -> Result:
    """Every row's verdict under ``lexicon``, tallied; ``words`` names the set."""
    categories: dict[str, Tally] = {}
    overall = Tally()
    misses = []
    for row in rows:
        verdict = lexicon.verdict(row.word)
        expected = row.expected(lexicon.name)
        for tally in (categories.setdefault(row.category, Tally()), overall):
            tally.add(expected, verdict.legal, verdict.reason)
        if verdict.reason != expected:
            misses.append((row, verdict.reason))
    return Result(lexicon.name, lexicon.title, words, categories, overall, misses)


HEADS = ("right %", "legal accepted %", "illegal refused %", "right reason %")


def plain(result: Result) -> None:
    """One lexicon's figures as a text table."""
    print(f"{result.name}: {result.title}, {result.words} set, {result.overall.words} words")
    width = max(len(c) for c in [*result.categories, "category"])
    print(f"  {'category':<{width}} {'words':>5}  " + "  ".join(HEADS))
    for name, tally in [*result.categories.items(), ("all", result.overall)]:
        shares = zip(HEADS, tally.shares(), strict=True)
        cells = "  ".join(f"{percent(s):>{len(h)}}" for h, s in shares)
        print(f"  {name:<{width}} {tally.words:>5}  {cells}")
    print()


def markdown(results: list[Result]) -> None:
    """Per lexicon, the figures by category on the first set judged (the new one when it is
    chosen); then every set's overall figures per lexicon, as Markdown tables."""
    first = [r for r in results if r.words == results[0].words]
    for r in first:
        print(f"`{r.name}` on the {r.words} set:")
        print()
        print("| category | words | " + " | ".join(HEADS) + " |")
        print("|---|--:|" + "--:|" * len(HEADS))
        for name, tally in [*r.categories.items(), ("**all**", r.overall)]:
            cells = " | ".join(percent(s) for s in tally.shares())
            print(f"| {name} | {tally.words} | {cells} |")
        print()
    print("| set | lexicon | words | " + " | ".join(HEADS) + " |")
    print("|---|---|--:|" + "--:|" * len(HEADS))
    for r in results:
        cells = " | ".join(percent(s) for s in r.overall.shares())
        print(f"| {r.words} | {r.name} | {r.overall.words} | {cells} |")


def show_misses(result: Result) -> None:
    """The words ``result``'s lexicon got wrong, by category: expected reason, given reason."""
    print(
        f"{result.name}: {len(result.misses)} of {result.overall.words} words of the "
        f"{result.words} set judged wrong"
    )
    width = max((len(row.word) for row, _ in result.misses), default=4)
    for row, given in result.misses:
        print(
            f"  {row.category:<22} {row.word:<{width}}  expected {row.expected(result.name)}, "
            f"given {given}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--lexicon",
        action="append",
        default=[],
        metavar="NAME",
        help="judge this lexicon too (repeatable)",
    )
    parser.add_argument(
        "--markdown", action="store_true", help="print Markdown tables, ready to paste into docs"
    )
    parser.add_argument("--misses", metavar="NAME", help="list the words NAME got wrong")
    parser.add_argument(
        "--set",
        choices=("new", "old", "both"),
        default="both",
        dest="sets",
        help="the labelled set to judge (default: both, the new one first)",
    )
    parser.add_argument(
        "--instance",
        type=Path,
        help="an instance folder whose lexicons to judge (default: the project's)",
    )
    parser.add_argument(
        "--folder",
        type=Path,
        help="the instance lexicon folder itself (default: INSTANCE/lexicons)",
    )
    parser.add_argument("--words", type=Path, help="judge this labelled set instead")
    args = parser.parse_args(argv)

    if args.words is not None:
        sets = {args.words.stem: args.words}
    else:
        chosen = ("new", "old") if args.sets == "both" else (args.sets,)
        sets = {name: SETS[name] for name in chosen}
    folder = args.folder or (args.instance / "lexicons" if args.instance else FOLDER)
    store = LexiconStore(folder)
    names = list(dict.fromkeys([*DEFAULT, *args.lexicon, *filter(None, [args.misses])]))
    lexicons = []
    for name in names:
        try:
            lexicons.append(store.get(name))
        except UnknownLexicon as error:
            print(f"{name}: skipped: {error}", file=sys.stderr if args.markdown else sys.stdout)
    if not lexicons:
        return 1
    results = [
        judge(lexicon, rows, set_name)
        for set_name, rows in ((n, read_rows(p)) for n, p in sets.items())
        for lexicon in lexicons
    ]
    if args.markdown:
        markdown(results)
    else:
        for result in results:
            plain(result)
    for result in results:
        if result.name == args.misses:
            print()
            show_misses(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
