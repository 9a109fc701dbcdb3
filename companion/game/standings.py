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
    """One player's place: running total of the closed rounds and rank (ties share a rank)."""

    seat: int
    name: str
    total: int
    rank: int


def standings(names: Sequence[str], round_scores: Sequence[Sequence[int]]) -> list[Standing]:
    """Players by running total, highest first; equal totals share the better rank.

    ``round_scores`` holds, per closed round, each seat's floored score.
    """
    totals = [sum(scores[seat] for scores in round_scores) for seat in range(len(names))]
    order = sorted(range(len(names)), key=lambda seat: (-totals[seat], seat))
    return [
        Standing(seat, names[seat], totals[seat], 1 + sum(t > totals[seat] for t in totals))
        for seat in order
    ]


def winners(table: Sequence[Standing]) -> list[str]:
    """Everyone tied for the highest total (call once the last round is closed)."""
    if not table:
        return []
    best = max(s.total for s in table)
    return [s.name for s in table if s.total == best]
