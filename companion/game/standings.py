"""Who deals, who plays first, and the running standings of a game."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


def dealer(first_dealer: int, round_number: int, players: int) -> int:
    """The seat dealing round ``round_number``: the deal passes left (next seat) each round."""
    return (first_dealer + round_number - 1) % players


def first_player(first_dealer: int, round_number: int, players: int) -> int:
    """The seat that plays first: left of the dealer."""
    return (dealer(first_dealer, round_number, players) + 1) % players


@dataclass(frozen=True)
class Standing:
    """One player's place: running total of the closed rounds (from their handicap) and
    rank (ties share a rank)."""

    seat: int
    name: str
    total: int
    rank: int
    handicap: int = 0


def running_totals(
    round_scores: Sequence[Sequence[int]],
    handicap: Sequence[int],
    floor_total: bool = False,
) -> list[list[int]]:
    """Each seat's running total after each closed round, starting from its handicap
    (``[seat][0]`` is the start). With ``floor_total`` (the ``"total"`` zero floor) a
    running total never stays below zero after a round."""
    totals = [[start] for start in handicap]
    for scores in round_scores:
        for seat, score in enumerate(scores):
            after = totals[seat][-1] + score
            totals[seat].append(max(after, 0) if floor_total else after)
    return totals


def standings(
    names: Sequence[str],
    round_scores: Sequence[Sequence[int]],
    handicap: Sequence[int] | None = None,
    floor_total: bool = False,
) -> list[Standing]:
    """Players by running total, highest first; equal totals share the better rank.

    ``round_scores`` holds, per closed round in order, each seat's round score;
    ``handicap`` each seat's head start (none: zero).
    """
    start = list(handicap) if handicap is not None else [0] * len(names)
    totals = [line[-1] for line in running_totals(round_scores, start, floor_total)]
    order = sorted(range(len(names)), key=lambda seat: (-totals[seat], seat))
    return [
        Standing(
            seat, names[seat], totals[seat], 1 + sum(t > totals[seat] for t in totals), start[seat]
        )
        for seat in order
    ]


def winners(table: Sequence[Standing]) -> list[str]:
    """Everyone tied for the highest total (call once the last round is closed)."""
    if not table:
        return []
    best = max(s.total for s in table)
    return [s.name for s in table if s.total == best]
