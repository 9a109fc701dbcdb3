"""The CSV exports, built by one path: a game's rounds, and every game of a table.

One row per player per entered round, scored by the one scoring path; the running total
as the leaderboard counts it (from the head start, the running-total floor applied,
closed rounds only); no cell is one a spreadsheet would run (``spreadsheet_safe``).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator

from companion import store
from companion.actions.groups import read_group
from companion.web.spreadsheet import spreadsheet_safe

CSV_FIELDS = (
    "round seat player words word_points unused unused_points bonus_most_words "
    "bonus_longest_word challenge_penalty false_out_penalty total score running_total closed"
).split()
"""The columns of a game's CSV."""

TABLE_FIELDS = ["game", "game_id", "started", *CSV_FIELDS]
"""The columns of a table's CSV: which game (1 for the oldest), its id and when it was
started, then a game's columns."""


def game_rows(state: store.GameState) -> Iterator[list[object]]:
    """The rows of a game's CSV (without the header), each cell as a spreadsheet shows it."""
    running = state.running()  # [seat][k]: after the first k closed rounds
    counted = 0
    for r in state.rounds:
        if r.result is None:
            continue
        counted += r.closed  # an open round's row: the total so far
        for seat, p in enumerate(r.result.players):
            words = " ".join(  # a struck word (lost a challenge) is marked x:
                ("x:" if w.struck else "") + "-".join(c.name for c in w.cards) for w in p.words
            )
            row = {
                **p.as_dict(),
                "round": r.number,
                "seat": seat,
                "player": p.name,
                "words": words,
                "unused": " ".join(c.name for c in p.unused),
                "running_total": running[seat][counted],
                "closed": "yes" if r.closed else "no",
            }
            yield [spreadsheet_safe(row[field]) for field in CSV_FIELDS]


def game_csv(state: store.GameState) -> str:
    """A game's CSV: the header, then ``game_rows``."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_FIELDS)
    writer.writerows(game_rows(state))
    return out.getvalue()


def group_csv(group_id: str) -> str:
    """A table's CSV: every entered round of every game of it, oldest game first, each row
    a game's row after the game's number in the table, its id and when it was started
    (ISO 8601, UTC); NotFound for no such table."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(TABLE_FIELDS)
    for n, game in enumerate(read_group(group_id).games, start=1):
        state = store.state_of(store.get_game(game.id))
        started = game.created_at.isoformat(timespec="seconds")
        head = [spreadsheet_safe(cell) for cell in (n, game.id, started)]
        writer.writerows([*head, *row] for row in game_rows(state))
    return out.getvalue()
