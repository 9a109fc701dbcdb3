"""The running-totals chart of the leaderboard, as inline SVG (no JavaScript, no library)."""

from __future__ import annotations

from dataclasses import dataclass

COLOURS = ("#1d3557", "#c0392b", "#0b6e4f", "#8e44ad", "#d35400", "#2c7fb8", "#7f6000", "#444444")
"""One per seat: dark, distinct, readable on white in a bright room."""


@dataclass(frozen=True)
class Line:
    name: str
    colour: str
    points: str
    last: tuple[float, float]


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    lines: tuple[Line, ...]
    x_ticks: tuple[tuple[float, int], ...]
    y_ticks: tuple[tuple[float, int], ...]


def running_totals_chart(
    names: list[str], scores: list[list[int]], width: int = 360, height: int = 220
) -> Chart:
    """Lines of running totals after each closed round (``scores[round][seat]``)."""
    left, right, top_pad, bottom = 36, 10, 10, 24
    rounds = max(len(scores), 1)
    totals = [[0] for _ in names]
    for row in scores:
        for seat, s in enumerate(row):
            totals[seat].append(totals[seat][-1] + s)
    top = max([10] + [t for line in totals for t in line])
    top = ((top + 9) // 10) * 10

    def x(i: int) -> float:
        return left + (width - left - right) * i / rounds

    def y(v: int) -> float:
        return top_pad + (height - top_pad - bottom) * (1 - v / top)

    lines = tuple(
        Line(
            name,
            COLOURS[seat % len(COLOURS)],
            " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(totals[seat])),
            (x(len(totals[seat]) - 1), y(totals[seat][-1])),
        )
        for seat, name in enumerate(names)
    )
    y_ticks = tuple((y(v), v) for v in (0, top // 2, top))
    x_ticks = tuple((x(i), i) for i in range(rounds + 1))
    return Chart(width, height, lines, x_ticks, y_ticks)
