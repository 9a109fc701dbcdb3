"""What the players laid down in one round, and the checks that it could happen."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from companion.game.challenges import Ruling
from companion.game.deck import Card, Word, letter_count, text
from companion.game.errors import RuleError
from companion.game.rules import Rules

MIN_PLAYERS, MAX_PLAYERS = 2, 8
MAX_NAME = 40
ROUNDS = 8
MIN_HAND, MAX_HAND = 3, 10


def hand_size(round_number: int) -> int:
    """Cards dealt to each player in round ``round_number`` (1..8): 3 to 10."""
    return round_number + 2


@dataclass(frozen=True)
class Hand:
    """One player's cards at the end of a round: words laid down and cards left over."""

    name: str
    words: tuple[Word, ...] = ()
    unused: tuple[Card, ...] = ()
    went_out: bool = False

    @property
    def card_count(self) -> int:
        """Every card the player holds, in words or not."""
        return sum(len(w) for w in self.words) + len(self.unused)


@dataclass(frozen=True)
class Challenge:
    """``by`` challenges word number ``word`` (0-based) of ``player``.

    ``ruling`` is the table's decision (True: legal), or None to ask the judge.
    ``recorded`` is a ruling made earlier and kept with a stored round: it is
    used as it is, so a later change of dictionary can't rewrite history.
    """

    by: str
    player: str
    word: int
    ruling: bool | None = None
    recorded: Ruling | None = None


@dataclass(frozen=True)
class Play:
    """One round as entered: the hands in seating order and the challenges."""

    hands: tuple[Hand, ...]
    challenges: tuple[Challenge, ...] = ()
    round_number: int | None = None

    def hand(self, name: str) -> Hand:
        """The hand of the player called ``name``."""
        return next(h for h in self.hands if h.name == name)

    def player_name(self, typed: str) -> str | None:
        """The player's name as entered for the hands, matching ``typed`` in any case."""
        key = typed.strip().casefold()
        return next((h.name for h in self.hands if h.name.casefold() == key), None)

    def placed_cards(self) -> Iterator[tuple[Card, str]]:
        """Every card on the table with the path of the field that holds it."""
        for i, hand in enumerate(self.hands):
            for j, word in enumerate(hand.words):
                for k, c in enumerate(word):
                    yield c, f"players[{i}].words[{j}][{k}]"
            for k, c in enumerate(hand.unused):
                yield c, f"players[{i}].unused[{k}]"


def check(play: Play, rules: Rules) -> None:
    """Refuse a round that could not happen at a real table, with the field at fault."""
    _check_players(play)
    for i, hand in enumerate(play.hands):
        for j, word in enumerate(hand.words):
            _check_word_length(word, rules, f"players[{i}].words[{j}]", hand.name)
    _check_hand_sizes(play)
    _check_deck(play)
    _check_challenges(play)


def check_player_count(count: int) -> None:
    """Refuse fewer than 2 or more than 8 players."""
    if not MIN_PLAYERS <= count <= MAX_PLAYERS:
        raise RuleError(
            f"Quiddler needs {MIN_PLAYERS} to {MAX_PLAYERS} players; this round has {count}.",
            "players",
        )


def check_names(names: list[str], where: str = "players[{i}].name") -> None:
    """Refuse a table of the wrong size, a missing, too long or repeated name."""
    check_player_count(len(names))
    seen: set[str] = set()
    for i, name in enumerate(names):
        at = where.format(i=i)
        if not name:
            raise RuleError(f"Player {i + 1} needs a name.", at)
        if len(name) > MAX_NAME:
            raise RuleError(f"Player {i + 1}'s name is longer than {MAX_NAME} characters.", at)
        if name.casefold() in seen:
            raise RuleError(
                f"Two players are called '{name}'; give each player a different name.", at
            )
        seen.add(name.casefold())


def _check_players(play: Play) -> None:
    check_names([hand.name for hand in play.hands])
    went_out = [i for i, h in enumerate(play.hands) if h.went_out]
    if len(went_out) > 1:
        first, second = (play.hands[i].name for i in went_out[:2])
        raise RuleError(
            f"Only one player goes out first, but both {first} and {second} are marked.",
            f"players[{went_out[1]}].went_out",
        )


def _check_word_length(word: Word, rules: Rules, where: str, name: str) -> None:
    if rules.min_word == "cards" and len(word) < 2:
        hint = (
            " (the house rule 'two letters' would allow a lone double-letter card)"
            if word[0].letters == 2
            else ""
        )
        raise RuleError(
            f"{name}'s word {word[0]} is a single card; a word needs at least two cards{hint}.",
            where,
        )
    if rules.min_word == "letters" and letter_count(word) < 2:
        raise RuleError(
            f"{name}'s word {word[0]} has one letter; a word needs at least two.", where
        )


def _check_hand_sizes(play: Play) -> None:
    if play.round_number is not None:
        if not 1 <= play.round_number <= ROUNDS:
            raise RuleError(f"The round must be 1 to {ROUNDS}.", "round")
        size = hand_size(play.round_number)
        for i, hand in enumerate(play.hands):
            if hand.card_count != size:
                raise RuleError(
                    f"{hand.name} has {hand.card_count} cards in words and unused, but "
                    f"round {play.round_number} deals {size}: every card must be entered once.",
                    f"players[{i}]",
                )
        return
    first = play.hands[0]
    for i, hand in enumerate(play.hands):
        if not MIN_HAND <= hand.card_count <= MAX_HAND:
            raise RuleError(
                f"{hand.name} has {hand.card_count} cards; a hand ends a round with "
                f"{MIN_HAND} to {MAX_HAND} cards (words plus unused).",
                f"players[{i}]",
            )
        if hand.card_count != first.card_count:
            raise RuleError(
                f"{hand.name} has {hand.card_count} cards but {first.name} has "
                f"{first.card_count}; everyone ends a round with the same number of cards.",
                f"players[{i}]",
            )


def _check_deck(play: Play) -> None:
    seen: Counter[Card] = Counter()
    for c, where in play.placed_cards():
        seen[c] += 1
        if seen[c] > c.copies:
            copies = "one copy" if c.copies == 1 else f"only {c.copies} copies"
            raise RuleError(
                f"The deck has {copies} of the {c} card, but {seen[c]} are entered; "
                "check who really holds it.",
                where,
            )


def _check_challenges(play: Play) -> None:
    names = [h.name for h in play.hands]
    challenged: set[tuple[str, int]] = set()
    for n, typed in enumerate(play.challenges):
        where = f"challenges[{n}]"
        by, player = play.player_name(typed.by), play.player_name(typed.player)
        if by is None:
            raise RuleError(
                f"The challenger '{typed.by}' is not a player of this round ({', '.join(names)}).",
                f"{where}.by",
            )
        if player is None:
            raise RuleError(
                f"'{typed.player}' is not a player of this round ({', '.join(names)}).",
                f"{where}.player",
            )
        ch = Challenge(by, player, typed.word, typed.ruling, typed.recorded)
        if ch.by == ch.player:
            raise RuleError(
                f"{ch.by} can't challenge their own word; only another player may.",
                f"{where}.by",
            )
        words = play.hand(ch.player).words
        if not 0 <= ch.word < len(words):
            laid = f"laid down {len(words)} word{'s' if len(words) != 1 else ''}"
            raise RuleError(
                f"{ch.player} has no such word to challenge: they {laid}.",
                f"{where}.word",
            )
        if (ch.player, ch.word) in challenged:
            raise RuleError(
                f"{ch.player}'s word {text(words[ch.word]).upper()} is already challenged; "
                "a word is challenged once.",
                where,
            )
        challenged.add((ch.player, ch.word))
