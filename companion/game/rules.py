"""The house rules a group agrees on, each declared once, and the shape of a game.

Every house rule is one field of ``Rules`` declared with ``house_rule(...)``: its
name, type, default, allowed values and a one-line explanation. The API parser
(``parse.parse_rules``), the form fields, the rules table of the game page and
the docs are all derived from ``RULES``, so adding a rule means adding a field
here and using it in scoring.

The game's shape, how many rounds and how many cards round r deals, is asked of
the rules (``rules.rounds``, ``rules.hand_size(r)``) everywhere, never written again.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from itertools import pairwise
from typing import Any, Literal

from companion.game.marks import N_

MinWord = Literal["cards", "letters", "one_card"]
TwoPlayerBonus = Literal["longest", "most", "both"]
Floor = Literal["round", "before_bonus", "total", "off"]
ChallengeRuling = Literal["dictionary", "majority", "unanimous"]

DEFAULT_LEXICON = "standard"
MAX_POINTS = 1000
"""Bonus and penalty sizes above this are surely typing mistakes."""
MAX_LEXICON_NAME = 40

EN_DASH = "\u2013"
STANDARD_HANDS = tuple(range(3, 11))
"""The rule book's game: 8 rounds, 3 cards in round 1, one more each round, 10 in round 8."""
MAX_ROUNDS = 20
LEAST_CARDS, MOST_CARDS = 2, 10
"""The hand sizes a round plan may deal (the card keyboard and the deck allow no more)."""


def plan(first: int, last: int) -> tuple[int, ...]:
    """The hand sizes of a game dealt from ``first`` cards to ``last``, one card more (or
    fewer) each round: ``plan(3, 10)`` is the rule book's, ``plan(10, 6)`` counts down."""
    step = 1 if last >= first else -1
    return tuple(range(first, last + step, step))


PLANS: dict[str, tuple[int, ...]] = {
    "standard": STANDARD_HANDS,
    "full": plan(3, 10) + plan(10, 3),
    "junior": plan(2, 7),
}
"""The round plans offered by name: the rule book's, the full game of 16 rounds (up to
10 cards and back down), and Quiddler Junior's 2 to 7 cards. A short game is any other
``plan(first, last)``."""

JUNIOR_RULES: dict[str, object] = {
    "hands": list(PLANS["junior"]),
    "min_word": "one_card",
    "proper_nouns": True,
    "leftover_penalty": False,
}
"""Quiddler Junior: what the Junior preset sets (and the ``common`` word list, where the
server has it)."""


def plan_label(hands: tuple[int, ...]) -> str:
    """A round plan as people read it: each run of one card more (or fewer) a round as
    its first and last size joined by an en dash, runs apart by commas: "3 to 10" (the
    rule book), "3 to 10, 10 to 3" (the full game), or "3, 5, 7"."""
    runs: list[list[int]] = [[hands[0]]]
    for a, b in pairwise(hands):
        run = runs[-1]
        step = run[-1] - run[-2] if len(run) > 1 else b - a
        if abs(b - a) == 1 and b - a == step:
            run.append(b)
        else:
            runs.append([b])
    return ", ".join(f"{r[0]}{EN_DASH}{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)


@dataclass(frozen=True)
class RuleSpec:
    """How one house rule is declared: enough to parse it, offer it in a form and explain it.

    ``kind`` is ``choice`` (one of ``choices``), ``points`` (a whole number from 0 to
    ``MAX_POINTS``), ``flag`` (on or off), ``lexicon`` (the name of a word list) or
    ``plan`` (the hand size of each round, in order).
    ``labels`` name each choice for people; ``title`` and ``explanation`` are English
    source text, translated where they are shown.
    """

    name: str
    kind: str
    default: Any
    title: str
    explanation: str
    choices: tuple[str, ...] = ()
    labels: tuple[str, ...] = ()
    only_with: int | None = None
    """The number of players this rule matters for (None: any)."""

    def label(self, value: object) -> str:
        """The people's name of a value of this rule (``"2 cards"`` for ``cards``)."""
        if self.kind == "choice" and value in self.choices:
            return self.labels[self.choices.index(value)]
        if self.kind == "flag":
            # TRANSLATORS: the value of an on/off house rule (zero floor), in the rules table.
            return N_("on") if value else N_("off")
        if self.kind == "points":
            return N_("{value} points").format(value=value)
        if self.kind == "plan" and isinstance(value, tuple):
            # TRANSLATORS: a round plan in the rules table: "Rounds: 8; cards: 3 to 10".
            return N_("Rounds: {count}; cards: {sizes}").format(
                count=len(value), sizes=plan_label(value)
            )
        return str(value)

    def applies(self, players: int) -> bool:
        """Whether this rule matters at a table of ``players``."""
        return self.only_with is None or self.only_with == players


def house_rule(
    default: Any,
    *,
    title: str,
    explanation: str,
    choices: dict[str, str] | None = None,
    lexicon: bool = False,
    only_with: int | None = None,
) -> Any:
    """A field of ``Rules`` that is a house rule, with everything said about it once."""
    if choices:
        kind = "choice"
    elif lexicon:
        kind = "lexicon"
    elif isinstance(default, tuple):
        kind = "plan"
    else:
        kind = "flag" if isinstance(default, bool) else "points"
    spec = RuleSpec(
        name="",
        kind=kind,
        default=default,
        title=title,
        explanation=explanation,
        choices=tuple(choices or ()),
        labels=tuple((choices or {}).values()),
        only_with=only_with,
    )
    return field(default=default, metadata={"rule": spec})


@dataclass(frozen=True)
class Rules:
    """House rules; every field defaults to the rule book's choice."""

    hands: tuple[int, ...] = house_rule(
        STANDARD_HANDS,
        title=N_("Round plan"),
        explanation=N_(
            "How many cards each round deals, in order: 3 to 10 (rule book), the full game "
            "(3 up to 10 and back down to 3, 16 rounds), a short game, or Junior (2 to 7)."
        ),
    )
    min_word: MinWord = house_rule(
        "cards",
        title=N_("Minimum word"),
        explanation=N_(
            "A word needs at least two cards (rule book), or at least two letters, "
            "so a lone IN, ER or TH counts, or one card is enough (Junior)."
        ),
        choices={"cards": N_("2 cards"), "letters": N_("2 letters"), "one_card": N_("1 card")},
    )
    two_player_bonus: TwoPlayerBonus = house_rule(
        "longest",
        title=N_("Bonus with two players"),
        explanation=N_(
            "With two players only one bonus is used: longest word (rule book), "
            "most words, or both anyway."
        ),
        choices={
            "longest": N_("Longest word only"),
            "most": N_("Most words only"),
            "both": N_("Both bonuses"),
        },
        only_with=2,
    )
    bonus: int = house_rule(
        10,
        title=N_("Bonus points"),
        explanation=N_("Points for the most-words and the longest-word bonus."),
    )
    floor: Floor = house_rule(
        "round",
        title=N_("Zero floor"),
        explanation=N_(
            "A round below zero counts as zero (rule book); or the floor applies before "
            "the bonuses are added; or only the running total never drops below zero; or "
            "no floor at all."
        ),
        choices={
            "round": N_("Each round"),
            "before_bonus": N_("Before the bonuses"),
            "total": N_("Running total"),
            "off": N_("No floor"),
        },
    )
    leftover_penalty: bool = house_rule(
        True,
        title=N_("Leftover cards count against"),
        explanation=N_("Cards left in hand are subtracted (rule book); Junior leaves them out."),
    )
    false_out_penalty: int = house_rule(
        0,
        title=N_("False going-out penalty"),
        explanation=N_("Extra points taken from a player who went out but still had unused cards."),
    )
    challenge_ruling: ChallengeRuling = house_rule(
        "dictionary",
        title=N_("Challenges settled by"),
        explanation=N_(
            "The dictionary rules on a challenged word (rule book), or the table votes on "
            "every phone with the dictionary as advice: a majority, or everyone."
        ),
        choices={
            "dictionary": N_("The dictionary"),
            "majority": N_("A majority vote"),
            "unanimous": N_("A unanimous vote"),
        },
    )
    proper_nouns: bool = house_rule(
        False,
        title=N_("Proper nouns allowed"),
        explanation=N_("Names of people and places are legal words (Junior)."),
    )
    lexicon: str = house_rule(
        DEFAULT_LEXICON,
        title=N_("Dictionary"),
        explanation=N_("The dictionary that settles challenges."),
        lexicon=True,
    )

    def as_dict(self) -> dict[str, object]:
        """The rules as the API writes them (and the database stores them)."""
        return {
            spec.name: list(v) if isinstance(v := getattr(self, spec.name), tuple) else v
            for spec in RULES
        }

    @property
    def vote(self) -> bool:
        """Challenges are settled by a vote of the table, the dictionary only advising."""
        return self.challenge_ruling != "dictionary"

    def bonuses_in_play(self, players: int) -> tuple[bool, bool]:
        """Whether (most words, longest word) bonuses are given with this many players."""
        if players != 2 or self.two_player_bonus == "both":
            return True, True
        return self.two_player_bonus == "most", self.two_player_bonus == "longest"

    # --- the shape of a game -----------------------------------------------------------

    @property
    def rounds(self) -> int:
        """How many rounds a game has: as many as the plan deals."""
        return len(self.hands)

    def round_numbers(self) -> range:
        """The rounds of a game, 1 to ``rounds``."""
        return range(1, self.rounds + 1)

    def hand_size(self, round_number: int) -> int:
        """Cards dealt to each player in round ``round_number`` (1-based), as planned."""
        return self.hands[round_number - 1]

    @property
    def largest_hand(self) -> int:
        return max(self.hands)

    @property
    def smallest_hand(self) -> int:
        return min(self.hands)


RULES: tuple[RuleSpec, ...] = tuple(replace(f.metadata["rule"], name=f.name) for f in fields(Rules))
"""Every house rule, in the order they are offered."""

BY_RULE: dict[str, RuleSpec] = {spec.name: spec for spec in RULES}
