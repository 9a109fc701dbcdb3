"""Card spellings: the ways a string of letters can be laid down as cards."""

from __future__ import annotations

from collections import Counter

from companion.game.deck import BY_NAME, DOUBLE_LETTER_CARDS, Card, Word, value
from companion.game.errors import RuleError

MAX_LETTERS = 22
"""Longer strings are refused: 11 cards (a hand of 10 and the drawn card) hold 22 letters
at most. The bound also keeps the number of spellings small (a few thousand at worst)."""


def spellings(letters: str, where: str = "letters") -> list[Word]:
    """Every way to lay ``letters`` down as cards the deck holds, best value first.

    ``"quiz"`` gives Q·U·I·Z (35) then QU·I·Z (25); ``"thin"`` gives four. A
    spelling that needs more copies of a card than the deck has (a third Z) is
    left out. Ties in value put the spelling with fewer cards first.
    """
    if not letters.isascii():  # before lower(): the Kelvin sign lower-cases to k
        raise RuleError("not_letters", where, text=letters[:40])
    word = letters.strip().lower()
    if not word:
        raise RuleError("no_letters", where)
    if len(word) > MAX_LETTERS:
        raise RuleError("too_many_letters", where, count=len(word), most=MAX_LETTERS)
    if not (word.isascii() and word.isalpha()):
        raise RuleError("not_letters", where, text=letters[:40])

    found: list[Word] = []
    used: Counter[Card] = Counter()
    path: list[Card] = []

    def walk(i: int) -> None:
        if i == len(word):
            found.append(tuple(path))
            return
        options = [BY_NAME[word[i]]]
        options += [d for d in DOUBLE_LETTER_CARDS if word.startswith(d.name, i)]
        for option in options:
            if used[option] < option.copies:
                used[option] += 1
                path.append(option)
                walk(i + option.letters)
                path.pop()
                used[option] -= 1

    walk(0)
    found.sort(key=lambda w: (-value(w), len(w), [c.name for c in w]))
    return found
