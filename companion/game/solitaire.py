"""Solitaire Quiddler, followed step by step: eight piles, words from the face-up cards.

The game is its list of steps from the deal, so undo is dropping the last one and
a saved game is the steps. Each step is checked against the state it applies to:

- ``word``: piles (0-7) in the order their face-up cards spell the word;
- ``reveal``: the card turned up on a pile that lost its face-up card;
- ``refill``: the top card of another pile moved onto an empty pile (the rule
  book's empty-pile rule), after which that pile turns up its next card.

With physical cards the player tells which card was revealed; in practice mode
the Companion deals a shuffled virtual deck and reveals the cards itself.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from companion.game.challenges import Verdict
from companion.game.deck import CARDS, Card, Word, check_copies, text, value
from companion.game.errors import RuleError
from companion.game.rules import MinWord

PILES = 8
DOWN = 5
IN_PLAY = PILES * (DOWN + 1)
"""48 cards: eight piles of five face down and one face up."""


@dataclass(frozen=True)
class Pile:
    """A pile: its face-up card (None when it must turn one up or is empty) and how many
    cards are still face down under it."""

    up: Card | None
    down: int

    @property
    def empty(self) -> bool:
        return self.up is None and self.down == 0


@dataclass(frozen=True)
class Step:
    """One thing that happened: a word, a revealed card, or a refill of an empty pile."""

    kind: str
    piles: tuple[int, ...] = ()
    card: Card | None = None

    def as_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"kind": self.kind}
        if self.piles:
            out["piles"] = list(self.piles)
        if self.card is not None:
            out["card"] = self.card.name
        return out


@dataclass(frozen=True)
class Table:
    """The eight piles, the words made so far, and the cards used of the 48."""

    piles: tuple[Pile, ...]
    words: tuple[Word, ...] = ()

    @property
    def used(self) -> int:
        return sum(len(w) for w in self.words)

    @property
    def won(self) -> bool:
        return self.used == IN_PLAY

    @property
    def to_reveal(self) -> tuple[int, ...]:
        """Piles that lost their face-up card and must turn up the next one."""
        return tuple(i for i, p in enumerate(self.piles) if p.up is None and p.down > 0)

    @property
    def empty(self) -> tuple[int, ...]:
        return tuple(i for i, p in enumerate(self.piles) if p.empty)

    @property
    def refill_from(self) -> tuple[int, ...]:
        """Piles whose top card may start an empty pile again: a face-up card with more
        cards under it (moving a pile's last card would only move the gap)."""
        if not self.empty:
            return ()
        return tuple(i for i, p in enumerate(self.piles) if p.up is not None and p.down > 0)

    @property
    def face_up(self) -> tuple[Card, ...]:
        return tuple(p.up for p in self.piles if p.up is not None)

    @property
    def waiting(self) -> bool:
        """A card must be turned up or an empty pile started before the next word."""
        return bool(self.to_reveal or self.refill_from)


def deal(face_up: Sequence[Card]) -> Table:
    """The opening table: eight piles of five face down, with these cards face up."""
    if len(face_up) != PILES:
        raise RuleError("solitaire_face_up", "face_up", piles=PILES, count=len(face_up))
    check_copies(face_up, "face_up")
    return Table(tuple(Pile(c, DOWN) for c in face_up))


def practice_deck(seed: int) -> tuple[Card, ...]:
    """A shuffled virtual deck for practice: the 48 cards in play, pile by pile.

    Pile ``i`` holds ``deck[6 * i: 6 * i + 6]``, its face-up card first.
    """
    deck = [c for c in CARDS for _ in range(c.copies)]
    random.Random(seed).shuffle(deck)
    return tuple(deck[:IN_PLAY])


def apply(
    table: Table,
    step: Step,
    judge: Callable[[str], Verdict],
    min_word: MinWord = "cards",
    seen: Sequence[Card] = (),
) -> Table:
    """The table after ``step``; a step against the rules raises RuleError with its field."""
    if step.kind == "word":
        return _word(table, step.piles, judge, min_word)
    if step.kind == "reveal":
        return _reveal(table, step.piles, step.card, seen)
    if step.kind == "refill":
        return _refill(table, step.piles)
    raise RuleError("solitaire_step_kind", "kind")


def _word(
    table: Table, piles: tuple[int, ...], judge: Callable[[str], Verdict], min_word: MinWord
) -> Table:
    if table.waiting:
        raise _waiting(table)
    if not piles:
        raise RuleError("solitaire_no_piles", "piles")
    if len(set(piles)) != len(piles):
        raise RuleError("solitaire_pile_twice", "piles")
    cards: list[Card] = []
    for p in piles:
        if not 0 <= p < PILES:
            raise RuleError("solitaire_no_such_pile", "piles", piles=PILES)
        up = table.piles[p].up
        if up is None:
            raise RuleError("solitaire_pile_down", "piles", pile=p + 1)
        cards.append(up)
    word = tuple(cards)
    if min_word == "cards" and len(word) < 2:
        raise RuleError("word_one_card", "piles", card=word[0].name, double=word[0].letters == 2)
    if sum(c.letters for c in word) < 2:
        raise RuleError("word_one_letter", "piles", card=word[0].name)
    verdict = judge(text(word))
    if not verdict.legal:
        raise RuleError("solitaire_not_a_word", "piles", word=text(word), reason=verdict.reason)
    new = list(table.piles)
    for p in piles:
        new[p] = replace(new[p], up=None)
    return Table(tuple(new), (*table.words, word))


def _reveal(table: Table, piles: tuple[int, ...], card: Card | None, seen: Sequence[Card]) -> Table:
    if len(piles) != 1 or card is None:
        raise RuleError("solitaire_reveal_what", "card")
    p = piles[0]
    if p not in table.to_reveal:
        raise RuleError("solitaire_nothing_to_reveal", "piles", pile=p + 1)
    check_copies([*seen, card], "card")
    new = list(table.piles)
    new[p] = Pile(card, table.piles[p].down - 1)
    return replace(table, piles=tuple(new))


def _refill(table: Table, piles: tuple[int, ...]) -> Table:
    if len(piles) != 2:
        raise RuleError("solitaire_refill_what", "piles")
    empty, source = piles
    if empty not in table.empty:
        raise RuleError("solitaire_not_empty", "piles", pile=empty + 1)
    if source not in table.refill_from:
        raise RuleError("solitaire_cannot_give", "piles", pile=source + 1)
    if table.to_reveal:
        raise _waiting(table)
    new = list(table.piles)
    new[empty] = Pile(table.piles[source].up, 0)
    new[source] = replace(table.piles[source], up=None)
    return replace(table, piles=tuple(new))


def _waiting(table: Table) -> RuleError:
    """The refusal of a word or refill while a card must be turned up or a pile refilled."""
    if table.to_reveal:
        return RuleError("solitaire_reveal_first", "piles", piles=[p + 1 for p in table.to_reveal])
    return RuleError("solitaire_refill_first", "piles", piles=[p + 1 for p in table.empty])


@dataclass(frozen=True)
class Game:
    """A solitaire game: the opening face-up cards (or a practice deck) and the steps since."""

    face_up: tuple[Card, ...]
    steps: tuple[Step, ...] = ()
    practice: tuple[Card, ...] | None = None

    def replay(self, min_word: MinWord = "cards") -> Table:
        """The table now. Steps were checked when made; a word stays made even if the
        dictionary changes later, so replay trusts the recorded words (no judge asked)."""
        table = deal(self.face_up)
        seen = list(self.face_up)
        for step in self.steps:
            table = apply(table, step, lambda _w: Verdict(True, "in_dictionary"), min_word, seen)
            if step.kind == "reveal" and step.card is not None:
                seen.append(step.card)
        return table

    def play(
        self, step: Step, judge: Callable[[str], Verdict], min_word: MinWord = "cards"
    ) -> Game:
        """The game with ``step`` made, checked; in practice mode, cards turn up by themselves."""
        apply(self.replay(min_word), step, judge, min_word, self.seen())  # refuses a bad step
        game = replace(self, steps=(*self.steps, step))
        while self.practice is not None:
            table = game.replay(min_word)
            if not table.to_reveal:
                break
            p = table.to_reveal[0]
            card = self.practice[6 * p + (DOWN - table.piles[p].down) + 1]
            game = replace(game, steps=(*game.steps, Step("reveal", (p,), card)))
        return game

    def undo(self) -> Game:
        """The game without its last step (in practice mode, with the automatic reveals)."""
        steps = list(self.steps)
        if self.practice is not None:  # the reveals the Companion made go with their step
            while steps and steps[-1].kind == "reveal":
                steps.pop()
        if not steps:
            raise RuleError("solitaire_nothing_to_undo", "")
        steps.pop()
        return replace(self, steps=tuple(steps))

    def seen(self) -> list[Card]:
        """Every card known so far: the opening face-up cards and each one revealed."""
        return [*self.face_up, *(s.card for s in self.steps if s.kind == "reveal" and s.card)]


def new_practice(seed: int) -> Game:
    """A practice game dealt from a shuffled virtual deck."""
    deck = practice_deck(seed)
    return Game(tuple(deck[6 * i] for i in range(PILES)), (), deck)


def points(words: Sequence[Word]) -> int:
    """The value of the cards used in words (shown as the solitaire score)."""
    return sum(value(w) for w in words)
