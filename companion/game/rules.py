"""The house rules a group agrees on, with the defaults of the rule book."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

MinWord = Literal["cards", "letters"]
TwoPlayerBonus = Literal["longest", "most", "both"]

MIN_WORD_CHOICES: tuple[MinWord, ...] = ("cards", "letters")
TWO_PLAYER_BONUS_CHOICES: tuple[TwoPlayerBonus, ...] = ("longest", "most", "both")
DEFAULT_LEXICON = "standard"


@dataclass(frozen=True)
class Rules:
    """House rules; every field defaults to the rule book's choice."""

    min_word: MinWord = "cards"
    """``cards``: a word uses at least two cards; ``letters``: at least two letters."""
    two_player_bonus: TwoPlayerBonus = "longest"
    """With two players only this bonus is used (``both``: both anyway)."""
    bonus: int = 10
    """Points of each bonus."""
    zero_floor: bool = True
    """A negative round total becomes 0."""
    false_out_penalty: int = 0
    """Taken from a player who went out but was left with unused cards."""
    lexicon: str = DEFAULT_LEXICON
    """Name of the dictionary that settles challenges."""

    def as_dict(self) -> dict[str, object]:
        """The rules as the API writes them."""
        return {
            "min_word": self.min_word,
            "two_player_bonus": self.two_player_bonus,
            "bonus": self.bonus,
            "zero_floor": self.zero_floor,
            "false_out_penalty": self.false_out_penalty,
            "lexicon": self.lexicon,
        }

    def bonuses_in_play(self, players: int) -> tuple[bool, bool]:
        """Whether (most words, longest word) bonuses are given with this many players."""
        if players != 2 or self.two_player_bonus == "both":
            return True, True
        return self.two_player_bonus == "most", self.two_player_bonus == "longest"


EXPLANATIONS: dict[str, str] = {
    "min_word": "A word needs at least two cards (rule book), or at least two "
    "letters, so a lone IN, ER or TH counts.",
    "two_player_bonus": "With two players only one bonus is used: longest word "
    "(rule book), most words, or both anyway.",
    "bonus": "Points for the most-words and the longest-word bonus.",
    "zero_floor": "A round total below zero counts as zero.",
    "false_out_penalty": "Extra points taken from a player who went out but "
    "still had unused cards.",
    "lexicon": "The dictionary that settles challenges.",
}
"""One line per house rule, shown where a group picks them."""
