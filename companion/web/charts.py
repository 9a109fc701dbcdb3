"""The running-totals chart of the leaderboard, as inline SVG (no JavaScript, no library)."""

from __future__ import annotations

from dataclasses import dataclass

COLOURS = ("#1d3557", "#c0392b", "#0b6e4f", "#8e44ad", "#d35400", "#2c7fb8", "#7f6000", "#444444")
"""One per seat: dark, distinct, readable on white in a bright room."""


MAX_TICKS = 10
"""Rounds numbered under the chart one by one; a longer game numbers every other one."""


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
    names: list[str], totals: list[list[int]], width: int = 360, height: int = 220
) -> Chart:
    """Lines of running totals (``totals[seat][k]``: after k closed rounds, ``[seat][0]``
    the head start), on a scale from zero, or below it when a total is (no zero floor)."""
    left, right, top_pad, bottom = 36, 10, 10, 24
    rounds = max(max((len(line) for line in totals), default=1) - 1, 1)
    values = [v for line in totals for v in line]
    top = -(-max([10, *values]) // 10) * 10  # up to a multiple of 10
    low = min([0, *values]) // 10 * 10  # down to a multiple of 10

    def x(i: int) -> float:
        return left + (width - left - right) * i / rounds

    def y(v: int) -> float:
        return top_pad + (height - top_pad - bottom) * (top - v) / (top - low)

    lines = tuple(
        Line(
            name,
            COLOURS[seat % len(COLOURS)],
            " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(totals[seat])),
            (x(len(totals[seat]) - 1), y(totals[seat][-1])),
        )
        for seat, name in enumerate(names)
    )
    marks = (low, 0, top) if low < 0 else (0, top // 2, top)
    y_ticks = tuple((y(v), v) for v in marks)
    step = 1 if rounds <= MAX_TICKS else 2  # a long plan (16 rounds): every other round
    x_ticks = tuple((x(i), i) for i in range(0, rounds + 1, step))
    return Chart(width, height, lines, x_ticks, y_ticks)
