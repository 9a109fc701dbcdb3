"""From the text an OCR model read on a photo of cards to the cards, words and left-over
cards it shows: the card logic no generic OCR has.

Pure: it gets *sightings* (a card's corner index as read: its letter line, the value
line under it, where the card lies) and decides:

- which card each index is: the letters must name a card of the deck, and the value
  printed under them must be that card's value. A misread letter whose printed value
  belongs to a look-alike (O read for Q, whose value is 15) is taken as the look-alike;
- one card, one answer: the two indices of one card (top left, and bottom right turned
  over) are joined; when they agree, or the value agrees with the letters, it is *sure*;
- never more copies of a card than the deck holds: the least certain extras are dropped;
- rows to words: cards are grouped in rows across the layout's direction, read left to
  right; in a row, cards set apart after a gap of more than about half a card are left
  over (the cards left over lie beside the words).
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from companion.game.deck import BY_NAME, Card

LEAST_SCORE = 0.3
"""Below it, a line read is taken as noise, not a card."""

GAP = 0.55
"""A gap in a row wider than this many card widths sets the cards after it apart (left
over)."""

LOOK_ALIKES: dict[str, tuple[str, ...]] = {
    "o": ("q", "d", "c", "g", "u"),
    "q": ("o", "qu", "g"),
    "d": ("o", "p"),
    "c": ("g", "o", "cl"),
    "g": ("c", "o", "q"),
    "i": ("l", "j", "t", "in"),
    "l": ("i", "t", "j"),
    "j": ("i",),
    "t": ("i", "l", "th"),
    "e": ("f", "er"),
    "f": ("e", "p"),
    "m": ("n", "w"),
    "n": ("in", "m", "h"),
    "w": ("m", "v"),
    "u": ("qu", "v", "o"),
    "v": ("u", "y"),
    "y": ("v", "x"),
    "p": ("r", "f", "d"),
    "r": ("p", "b"),
    "b": ("r", "e"),
    "k": ("x",),
    "x": ("k", "y"),
    "h": ("n", "th"),
    "qu": ("q",),
    "in": ("n", "i"),
    "er": ("e",),
    "cl": ("c",),
    "th": ("h", "t"),
}
"""What a card's letters are most often misread as: tried when the printed value says the
letters were misread."""

_AS_LETTER = str.maketrans({"0": "O", "1": "I", "5": "S", "8": "B", "2": "Z", "6": "G",
                            "|": "I", "!": "I", "$": "S", "€": "E", "(": "C", "[": "I",
                            "]": "I"})  # fmt: skip
_AS_DIGIT = str.maketrans({"O": "0", "o": "0", "D": "0", "I": "1", "l": "1", "L": "1",
                           "|": "1", "S": "5", "s": "5", "B": "8", "Z": "2", "z": "2",
                           "G": "6", "b": "6", "g": "9", "q": "9", "T": "7"})  # fmt: skip
_LETTERS_THEN_VALUE = re.compile(r"^([^\d]{1,3}?)\s*(\d{1,2})$")


@dataclass(frozen=True)
class Sighting:
    """One corner index as read. ``card`` ties the indices of one card together (the
    same number for its two corners); ``x``, ``y`` are the card's centre, ``width`` and
    ``height`` its size and ``angle`` its turn (degrees) in the picture, for the rows;
    ``box`` is what is reported (x, y, w, h)."""

    letters: str
    value: str
    score: float
    card: int
    x: float
    y: float
    width: float
    height: float
    angle: float
    box: tuple[int, int, int, int]


@dataclass(frozen=True)
class ReadCard:
    """A card seen on the photo: its name, whether the reading is sure, and where it is
    (x, y, width, height in the picture's pixels)."""

    card: str
    sure: bool
    box: tuple[int, int, int, int]


@dataclass(frozen=True)
class Reading:
    """What a photo shows: every card seen (once each, in reading order), the words (one
    a row, left to right) and the cards left over."""

    cards: tuple[ReadCard, ...]
    words: tuple[tuple[str, ...], ...]
    unused: tuple[str, ...]


@dataclass(frozen=True)
class _Seen:
    card: Card
    sure: bool
    weight: float
    first: Sighting


def split_line(letters: str, value: str) -> tuple[str, str]:
    """The letter line and the value line, when the model read both as one (``F6``)."""
    line = letters.strip()
    if not value:
        joined = _LETTERS_THEN_VALUE.match(line.replace(" ", ""))
        if joined:
            return joined.group(1), joined.group(2)
    return line, value


def letters_of(text: str) -> str:
    """The card name a letter line spells: capitals only, digits taken for the letters
    they look like (``0`` is O), lower case. Empty when it can't be a card's letters."""
    squeezed = re.sub(r"[\s.,:;'\"`~_\-]", "", text)
    if not squeezed or len(squeezed) > 3:
        return ""
    if squeezed.isdigit() and squeezed not in ("0", "1"):
        return ""  # a value line (2 to 15); a lone 0 or 1 is an O or an I
    name = squeezed.translate(_AS_LETTER).lower()
    if name == "q" and len(squeezed) == 1:
        return "q"
    return name if name.isalpha() and name.isascii() else ""


def value_of(text: str) -> int | None:
    """The number a value line shows (2 to 15), if it shows one."""
    digits = re.sub(r"\s", "", text).translate(_AS_DIGIT)
    digits = re.sub(r"[^\d]", "", digits)
    if not digits or len(digits) > 2:
        return None
    number = int(digits)
    return number if 2 <= number <= 15 else None


def identify(letters: str, value: str, score: float) -> tuple[Card, bool, float] | None:
    """The card an index shows, whether that is sure, and how much to trust it; None
    when it names no card."""
    letters, value = split_line(letters, value)
    name = letters_of(letters)
    printed = value_of(value) if value else None
    read = BY_NAME.get(name)
    if read is None and name:
        # three letters read for a two-letter card (QUI), or a stray mark beside one
        read = BY_NAME.get(name[:2]) or BY_NAME.get(name[-2:])
        score *= 0.6
    if printed is not None:
        if read is not None and read.value == printed:
            return read, score >= LEAST_SCORE, score + 0.5
        for other in LOOK_ALIKES.get(name, ()):
            alike = BY_NAME[other]
            if alike.value == printed:
                return alike, False, score * 0.8
    if read is None:
        return None
    if score < LEAST_SCORE:
        return None
    return read, False, score  # letters alone: sure only when the other index agrees


def _join(sightings: Sequence[Sighting]) -> _Seen | None:
    """One card from the indices seen of it: the two corners agreeing make it sure."""
    votes: dict[str, float] = {}
    sure: dict[str, bool] = {}
    names = []
    for s in sightings:
        found = identify(s.letters, s.value, s.score)
        if found is None:
            continue
        card, ok, weight = found
        names.append(card.name)
        votes[card.name] = votes.get(card.name, 0.0) + weight
        sure[card.name] = sure.get(card.name, False) or ok
    if not votes:
        return None
    name = max(votes, key=lambda n: votes[n])
    agreed = names.count(name)
    certain = (sure[name] or agreed >= 2) and len(votes) == 1
    return _Seen(BY_NAME[name], certain, votes[name], sightings[0])


def _within_deck(seen: list[_Seen]) -> list[_Seen]:
    """The cards seen, with the least certain copies beyond the deck's dropped."""
    ranked = sorted(range(len(seen)), key=lambda i: (-seen[i].sure, -seen[i].weight))
    counts: Counter[str] = Counter()
    kept = set()
    for i in ranked:
        card = seen[i].card
        if counts[card.name] < card.copies:
            counts[card.name] += 1
            kept.add(i)
    return [s for i, s in enumerate(seen) if i in kept]


def _turn(seen: Sequence[_Seen]) -> float:
    """The layout's turn (radians): the cards' median angle, folded into -45..45."""
    angles = sorted(((s.first.angle + 45) % 90) - 45 for s in seen)
    return math.radians(angles[len(angles) // 2]) if angles else 0.0


def _rows(seen: list[_Seen]) -> list[list[tuple[float, _Seen]]]:
    """The cards in rows, top to bottom, each left to right (along the layout)."""
    if not seen:
        return []
    turn = _turn(seen)
    cos, sin = math.cos(turn), math.sin(turn)
    placed = []
    for s in seen:
        # the centre in the layout's own frame: turned back by the layout's angle
        x = s.first.x * cos + s.first.y * sin
        y = -s.first.x * sin + s.first.y * cos
        placed.append((x, y, s))
    heights = sorted(s.first.height for s in seen)
    height = heights[len(heights) // 2]
    placed.sort(key=lambda p: p[1])
    rows: list[list[tuple[float, float, _Seen]]] = []
    for p in placed:
        if rows and p[1] - sum(q[1] for q in rows[-1]) / len(rows[-1]) < height * 0.5:
            rows[-1].append(p)
        else:
            rows.append([p])
    return [sorted(((x, s) for x, _, s in row), key=lambda q: q[0]) for row in rows]


def reading(sightings: Iterable[Sighting]) -> Reading:
    """The cards, words and left-over cards of a photo from its sightings."""
    by_card: dict[int, list[Sighting]] = {}
    for s in sightings:
        by_card.setdefault(s.card, []).append(s)
    seen = [j for group in by_card.values() if (j := _join(group)) is not None]
    seen = _within_deck(seen)
    widths = sorted(s.first.width for s in seen)
    width = widths[len(widths) // 2] if widths else 0.0
    words: list[tuple[str, ...]] = []
    unused: list[str] = []
    ordered: list[_Seen] = []
    for row in _rows(seen):
        word = [row[0][1]]
        apart = False
        for (x0, a), (x1, b) in itertools.pairwise(row):
            gap = (x1 - x0) - (a.first.width + b.first.width) / 2
            apart = apart or gap > GAP * width
            if apart:
                unused.append(b.card.name)
            else:
                word.append(b)
        words.append(tuple(s.card.name for s in word))
        ordered += word + [s for _, s in row if s not in word]
    cards = tuple(ReadCard(s.card.name, s.sure, s.first.box) for s in ordered)
    return Reading(cards, tuple(words), tuple(unused))
