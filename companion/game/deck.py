"""The Quiddler deck: 31 kinds of card, their values, copies and letters (118 cards)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from companion.game.errors import RuleError, ShapeError


@dataclass(frozen=True, order=True)
class Card:
    """One kind of card. ``name`` is its lower-case text: ``"a"``, ``"qu"``."""

    name: str
    value: int
    copies: int

    @property
    def letters(self) -> int:
        """How many letters the card carries (2 for QU, IN, ER, CL, TH)."""
        return len(self.name)

    def __str__(self) -> str:
        return self.name.upper()


_TABLE = (
    ("a", 2, 10), ("b", 8, 2), ("c", 8, 2), ("d", 5, 4), ("e", 2, 12),
    ("f", 6, 2), ("g", 6, 4), ("h", 7, 2), ("i", 2, 8), ("j", 13, 2),
    ("k", 8, 2), ("l", 3, 4), ("m", 5, 2), ("n", 5, 6), ("o", 2, 8),
    ("p", 6, 2), ("q", 15, 2), ("r", 5, 6), ("s", 3, 4), ("t", 3, 6),
    ("u", 4, 6), ("v", 11, 2), ("w", 10, 2), ("x", 12, 2), ("y", 4, 4),
    ("z", 14, 2), ("qu", 9, 2), ("in", 7, 2), ("er", 7, 2), ("cl", 10, 2),
    ("th", 9, 2),
)  # fmt: skip

CARDS: tuple[Card, ...] = tuple(Card(n, v, c) for n, v, c in _TABLE)
"""All 31 kinds, single letters a..z first, then the five double-letter cards."""

BY_NAME: dict[str, Card] = {card.name: card for card in CARDS}
DOUBLE_LETTER_CARDS: tuple[Card, ...] = tuple(c for c in CARDS if c.letters == 2)
DECK_SIZE = sum(card.copies for card in CARDS)

Word = tuple[Card, ...]
"""A word as laid on the table: the cards in the order played."""


def card(name: object, where: str = "") -> Card:
    """The card called ``name``, such as ``"qu"`` or ``"Z"`` (case and surrounding spaces
    ignored; ASCII only, so a look-alike such as the Kelvin sign is not a K); anything
    else is refused, a name that is not text as a ShapeError."""
    if not isinstance(name, str):
        raise ShapeError("card_not_text", where)
    found = BY_NAME.get(name.strip().lower()) if name.isascii() else None
    if found is None:
        shown = name if len(name) <= 12 else name[:12] + "..."
        raise RuleError("not_a_card", where, card=shown)
    return found


def value(cards: Iterable[Card]) -> int:
    """The points of some cards: the sum of their values."""
    return sum(c.value for c in cards)


def letter_count(cards: Iterable[Card]) -> int:
    """How many letters some cards carry (QU counts two)."""
    return sum(c.letters for c in cards)


def text(cards: Iterable[Card]) -> str:
    """The letters the cards spell, lower case: (QU, I, Z) -> ``"quiz"``."""
    return "".join(c.name for c in cards)


def over_deck(cards: Iterable[Card]) -> Card | None:
    """The first card of which ``cards`` holds more copies than the deck has, if any."""
    seen: Counter[Card] = Counter()
    for c in cards:
        seen[c] += 1
        if seen[c] > c.copies:
            return c
    return None


def check_copies(cards: Sequence[Card], where: str) -> None:
    """Refuse ``cards`` that hold more copies of a card than the deck has (that card)."""
    over = over_deck(cards)
    if over is not None:
        count = cards.count(over)
        raise RuleError("deck_copies", where, card=over.name, copies=over.copies, count=count)
