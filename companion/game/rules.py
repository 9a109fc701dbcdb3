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
from typing import Any, Literal

from companion.game.marks import N_

MinWord = Literal["cards", "letters"]
TwoPlayerBonus = Literal["longest", "most", "both"]

DEFAULT_LEXICON = "standard"
MAX_POINTS = 1000
"""Bonus and penalty sizes above this are surely typing mistakes."""
MAX_LEXICON_NAME = 40

ROUNDS = 8
FIRST_HAND = 3
"""Cards dealt in round 1; each round deals one more (10 in round 8)."""


@dataclass(frozen=True)
class RuleSpec:
    """How one house rule is declared: enough to parse it, offer it in a form and explain it.

    ``kind`` is ``choice`` (one of ``choices``), ``points`` (a whole number from 0 to
    ``MAX_POINTS``), ``flag`` (on or off) or ``lexicon`` (the name of a word list).
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

    min_word: MinWord = house_rule(
        "cards",
        title=N_("Minimum word"),
        explanation=N_(
            "A word needs at least two cards (rule book), or at least two letters, "
            "so a lone IN, ER or TH counts."
        ),
        choices={"cards": N_("2 cards"), "letters": N_("2 letters")},
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
    zero_floor: bool = house_rule(
        True,
        title=N_("Zero floor per round"),
        explanation=N_("A round total below zero counts as zero."),
    )
    false_out_penalty: int = house_rule(
        0,
        title=N_("False going-out penalty"),
        explanation=N_("Extra points taken from a player who went out but still had unused cards."),
    )
    lexicon: str = house_rule(
        DEFAULT_LEXICON,
        title=N_("Dictionary"),
        explanation=N_("The dictionary that settles challenges."),
        lexicon=True,
    )

    def as_dict(self) -> dict[str, object]:
        """The rules as the API writes them (and the database stores them)."""
        return {spec.name: getattr(self, spec.name) for spec in RULES}

    def bonuses_in_play(self, players: int) -> tuple[bool, bool]:
        """Whether (most words, longest word) bonuses are given with this many players."""
        if players != 2 or self.two_player_bonus == "both":
            return True, True
        return self.two_player_bonus == "most", self.two_player_bonus == "longest"

    # --- the shape of a game -----------------------------------------------------------

    @property
    def rounds(self) -> int:
        """How many rounds a game has."""
        return ROUNDS

    def round_numbers(self) -> range:
        """The rounds of a game, 1 to ``rounds``."""
        return range(1, self.rounds + 1)

    def hand_size(self, round_number: int) -> int:
        """Cards dealt to each player in round ``round_number``: 3 in round 1, 10 in round 8."""
        return FIRST_HAND + round_number - 1

    @property
    def largest_hand(self) -> int:
        return self.hand_size(self.rounds)


RULES: tuple[RuleSpec, ...] = tuple(replace(f.metadata["rule"], name=f.name) for f in fields(Rules))
"""Every house rule, in the order they are offered."""

BY_RULE: dict[str, RuleSpec] = {spec.name: spec for spec in RULES}
