"""The end-of-game share card: an SVG drawn from a template, and its PNG (1200x630, the
size link previews use) rendered on the server by resvg (no browser, no network).

The card's running-totals chart is the leaderboard's own markup (``_chart.html``) drawn
from the same ``Chart``, so the card and the board can't disagree. Every word on the card
comes in already translated (``card_labels`` makes them for the request's language).
"""

from __future__ import annotations

import threading
import unicodedata
from dataclasses import dataclass

import resvg_py
from cachetools import LRUCache
from flask import render_template
from flask_babel import gettext as _
from flask_babel import ngettext

from companion.web.charts import Chart
from companion.web.i18n import number

WIDTH, HEIGHT = 1200, 630
"""The card's size in pixels: what share previews (Open Graph) show uncropped."""

FONT = "DejaVu Sans"
"""The card's one typeface: Debian's fonts-dejavu-core, whose letters cover every
language the Companion speaks (Lithuanian, Hungarian, Czech). resvg finds it among the
system fonts (which stay loaded for letters DejaVu lacks)."""

PODIUM_ROWS = 4
"""Rows the podium has room for: the top three places, and a fourth when a tie shares one."""

NAME_CHARS = 18
"""Characters of a name the podium shows (a name may have 40): longer ones end in "…"."""

LEGEND_CHARS = 14
"""Characters of a name in the chart's legend."""

WORD_CHARS = 24
"""Characters of the best word shown (a word of the game is at most 10 cards of 2 letters)."""

WORD_WIDTH = 360
"""Pixels the best word may take, its points beside it: a long word gets smaller letters
(an uppercase letter of DejaVu Sans Bold is about 0.74 of the font size wide)."""


@dataclass(frozen=True)
class CardLabels:
    """The card's words, already in the reader's language."""

    best_word: str
    """The heading of the best word ("Best word")."""
    points: str
    """The best word's points as written ("46 points"); empty without a best word."""
    chart: str
    """The chart's heading ("Running totals")."""


@dataclass(frozen=True)
class ShareCard:
    """What the card shows of one finished game."""

    title: str
    """The app's name."""
    date_line: str
    """The game's date (and whatever else the caller puts on that line), as written."""
    podium: tuple[tuple[int, str, int], ...]
    """(rank, name, total) of the top places, best first; tied players share a rank."""
    chart: Chart
    """The leaderboard's running-totals chart (``charts.running_totals_chart``)."""
    best_word: tuple[str, int, str] | None
    """(word, points, who laid it down), or None when no word was scored."""
    labels: CardLabels


def card_labels(best_points: int | None) -> CardLabels:
    """The card's words in this request's language (the points with their plural form)."""
    # TRANSLATORS: heading on the end-of-game share card (a picture): the game's
    # highest-scoring word.
    best = _("Best word")
    # TRANSLATORS: heading of the chart on the share card: each player's total after each round.
    chart = _("Running totals")
    if best_points is None:
        return CardLabels(best_word=best, points="", chart=chart)
    # TRANSLATORS: the points of the best word on the share card: "46 points".
    points = ngettext("%(n)s point", "%(n)s points", best_points, n=number(best_points))
    return CardLabels(best_word=best, points=points, chart=chart)


def podium(standings: list[tuple[int, str, int]]) -> tuple[tuple[int, str, int], ...]:
    """The places the card shows out of ``standings`` (rank, name, total; best first): the
    top three ranks, as many rows as fit (a tie may fill them before the third rank)."""
    return tuple(s for s in standings if s[0] <= 3)[:PODIUM_ROWS]


def shown(text: str, limit: int) -> str:
    """``text`` as the card writes it: composed (NFC), without control characters (not
    allowed in XML), cut to ``limit`` characters with "…" at the end, never between a
    letter and its accent."""
    text = "".join(
        c for c in unicodedata.normalize("NFC", text) if unicodedata.category(c) != "Cc"
    ).strip()
    if len(text) <= limit:
        return text
    cut = limit - 1
    while cut > 0 and unicodedata.combining(text[cut]):
        cut -= 1
    return text[:cut].rstrip() + "…"


def card_svg(card: ShareCard) -> str:
    """The card as an SVG document (``templates/share_card.svg``, autoescaped: Flask escapes
    a ``.svg`` template as it does HTML, so a name is text, never markup). Needs an app
    context (and a request one for the numbers in the reader's language)."""
    rows = len(card.podium)
    step = 90 if rows <= 3 else 72
    places = [
        {"rank": rank, "name": shown(name, NAME_CHARS), "total": total, "y": 232 + i * step}
        for i, (rank, name, total) in enumerate(card.podium[:PODIUM_ROWS])
    ]
    legend = [
        {
            "colour": line.colour,
            "name": shown(line.name, LEGEND_CHARS),
            "x": 690 + (i // 4) * 240,
            "y": 500 + (i % 4) * 28,
        }
        for i, line in enumerate(card.chart.lines[:8])
    ]
    best = None
    if card.best_word is not None:
        text, points, name = card.best_word
        word = shown(text, WORD_CHARS)
        best = {
            "word": word,
            "size": min(42, int(WORD_WIDTH / (0.74 * max(len(word), 1)))),
            "points": points,
            "name": shown(name, NAME_CHARS),
        }
    return render_template(
        "share_card.svg",
        width=WIDTH,
        height=HEIGHT,
        font=FONT,
        title=shown(card.title, 30),
        date_line=shown(card.date_line, 60),
        places=places,
        chart=card.chart,
        legend=legend,
        best=best,
        labels=card.labels,
    )


_pngs: LRUCache[str, bytes] = LRUCache(maxsize=16)
_pngs_lock = threading.Lock()


def card_png(svg: str) -> bytes:
    """The PNG of ``svg`` (a card from ``card_svg``), drawn by resvg with DejaVu Sans; the
    last few are kept, keyed by the SVG text (the same game's card is asked for again by
    every preview of the link)."""
    with _pngs_lock:
        kept = _pngs.get(svg)
    if kept is not None:
        return kept
    png = bytes(resvg_py.svg_to_bytes(svg_string=svg, font_family=FONT, sans_serif_family=FONT))
    with _pngs_lock:
        _pngs[svg] = png
    return png
