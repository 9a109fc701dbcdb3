"""What the players laid down in one round, and the checks that it could happen."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from companion.game.challenges import Ruling, Verdict
from companion.game.deck import Card, Word, letter_count, text
from companion.game.errors import RuleError
from companion.game.rules import Rules

MIN_PLAYERS, MAX_PLAYERS = 2, 8
MAX_NAME = 40


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

    def placed(self, at: str = "") -> Iterator[tuple[Card, str]]:
        """Every card of the hand with the path of the field that holds it, after ``at``."""
        for j, word in enumerate(self.words):
            for k, c in enumerate(word):
                yield c, f"{at}words[{j}][{k}]"
        for k, c in enumerate(self.unused):
            yield c, f"{at}unused[{k}]"


@dataclass(frozen=True)
class Challenge:
    """``by`` challenges word number ``word`` (0-based) of ``player``.

    ``ruling`` is the table's decision (True: legal), or None to ask the judge.
    ``recorded`` is a ruling made earlier and kept with a stored round: it is
    used as it is, so a later change of dictionary can't rewrite history. A challenge
    put to the table's vote keeps the dictionary's ``advice`` and the ``votes`` cast so
    far (player name, legal); while the vote is open its ruling is ``pending``.
    """

    by: str
    player: str
    word: int
    ruling: bool | None = None
    recorded: Ruling | None = None
    advice: Verdict | None = None
    votes: tuple[tuple[str, bool], ...] = ()


@dataclass(frozen=True)
class Play:
    """One round as entered: the hands in seating order and the challenges."""

    hands: tuple[Hand, ...]
    challenges: tuple[Challenge, ...] = ()
    round_number: int | None = None

    def seat_of(self, name: str) -> int:
        """The seat (index in ``hands``) of the player called ``name``."""
        return next(i for i, h in enumerate(self.hands) if h.name == name)

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
            yield from hand.placed(f"players[{i}].")


def check(play: Play, rules: Rules) -> None:
    """Refuse a round that could not happen at a real table, with the field at fault."""
    _check_players(play)
    for i, hand in enumerate(play.hands):
        _check_words(hand, rules, f"players[{i}].")
    _check_hand_sizes(play, rules)
    _check_deck(play)
    _check_challenges(play)


def check_seat(hands: Sequence[Hand | None], seat: int, rules: Rules, round_number: int) -> None:
    """Refuse one player's hand saved on its own (``hands[seat]``, the others as entered so
    far, None for a seat not in yet): its words, its size, one player going out, and the
    deck's copies across every hand entered. Paths are those of the seat's own fields
    (``words[1]``, ``unused[0]``, ``went_out``; ``""`` for the hand as a whole)."""
    hand = hands[seat]
    assert hand is not None
    _check_words(hand, rules)
    _check_size(hand, rules, round_number)
    others = [h for i, h in enumerate(hands) if h is not None and i != seat]
    first_out = next((h.name for h in others if h.went_out), None)
    if hand.went_out and first_out is not None:
        raise RuleError("went_out_twice", "went_out", first=first_out, second=hand.name)
    _check_deck_across(hands, seat)


def _check_deck_across(hands: Sequence[Hand | None], seat: int) -> None:
    """The copies of each card of ``hands[seat]`` held by everyone entered, in seating order:
    too many names every player holding that card."""
    mine = hands[seat]
    assert mine is not None
    held = [Counter(c for c, _ in h.placed()) if h is not None else Counter() for h in hands]
    for card, where in mine.placed():
        count = sum(h[card] for h in held)
        if count > card.copies and held[seat][card] == count:  # this hand alone
            raise RuleError("deck_copies", where, card=card.name, copies=card.copies, count=count)
        if count > card.copies:
            holders = [
                h.name for h, n in zip(hands, held, strict=True) if h is not None and n[card]
            ]
            raise RuleError(
                "deck_copies_seats",
                where,
                card=card.name,
                copies=card.copies,
                count=count,
                holders=holders,
            )


def check_player_count(count: int) -> None:
    """Refuse fewer than 2 or more than 8 players."""
    if not MIN_PLAYERS <= count <= MAX_PLAYERS:
        raise RuleError("player_count", "players", count=count, least=MIN_PLAYERS, most=MAX_PLAYERS)


def check_names(names: list[str], where: str = "players[{i}].name") -> None:
    """Refuse a table of the wrong size, a missing, too long or repeated name."""
    check_player_count(len(names))
    check_each_name(names, where)


TABLE_NAME = 60
"""The longest name of a table (a group of people who play together)."""

MEMBERS = (2, 20)
"""How few and how many people a table has (a game seats 2 to 8 of them)."""

HOUSE_WORD_LETTERS = (2, 40)
"""A house word's length in letters a-z."""


def check_table_name(name: str, where: str = "name") -> str:
    """A table's name, stripped: 1 to ``TABLE_NAME`` printable characters."""
    name = name.strip()
    if not name:
        raise RuleError("table_name_missing", where)
    if len(name) > TABLE_NAME:
        raise RuleError("table_name_too_long", where, most=TABLE_NAME)
    if not name.isprintable():
        raise RuleError("table_name_unprintable", where)
    return name


def check_members(names: list[str], where: str = "members") -> None:
    """Refuse a table's list of people too short or too long (``MEMBERS``), or with a
    name missing, too long, unprintable or given twice."""
    least, most = MEMBERS
    if not least <= len(names) <= most:
        raise RuleError("member_count", where, count=len(names), least=least, most=most)
    check_each_name(names, where + "[{i}]")


def house_word_key(word: str, where: str = "word") -> str:
    """A house word as stored: lower case, checked to be 2 to 40 letters a-z."""
    key = word.strip().lower()
    least, most = HOUSE_WORD_LETTERS
    if not (key.isascii() and key.isalpha()) or not least <= len(key) <= most:
        raise RuleError("house_word_letters", where, least=least, most=most)
    return key


def check_each_name(names: list[str], where: str = "players[{i}].name") -> None:
    """Refuse a missing, too long, unprintable or repeated name (any number of them)."""
    seen: set[str] = set()
    for i, name in enumerate(names):
        at = where.format(i=i)
        if not name:
            raise RuleError("name_missing", at, seat=i + 1)
        if len(name) > MAX_NAME:
            raise RuleError("name_too_long", at, seat=i + 1, most=MAX_NAME)
        if not name.isprintable():
            raise RuleError("name_unprintable", at, seat=i + 1)
        if name.casefold() in seen:
            raise RuleError("name_twice", at, name=name)
        seen.add(name.casefold())


def _check_players(play: Play) -> None:
    check_names([hand.name for hand in play.hands])
    went_out = [i for i, h in enumerate(play.hands) if h.went_out]
    if len(went_out) > 1:
        first, second = (play.hands[i].name for i in went_out[:2])
        raise RuleError(
            "went_out_twice", f"players[{went_out[1]}].went_out", first=first, second=second
        )


def _check_words(hand: Hand, rules: Rules, at: str = "") -> None:
    """Refuse a word shorter than the house rule allows (paths ``{at}words[j]``); with
    ``one_card`` (Junior) any card can be a word, and a challenge settles it."""
    for j, word in enumerate(hand.words):
        where, first = f"{at}words[{j}]", word[0]
        if rules.min_word == "cards" and len(word) < 2:
            raise RuleError(
                "word_one_card", where, player=hand.name, card=first.name, double=first.letters == 2
            )
        if rules.min_word == "letters" and letter_count(word) < 2:
            raise RuleError("word_one_letter", where, player=hand.name, card=first.name)


def _check_size(hand: Hand, rules: Rules, number: int, where: str = "") -> None:
    """Refuse a hand that isn't as many cards as round ``number`` deals."""
    size = rules.hand_size(number)
    if hand.card_count != size:
        raise RuleError(
            "hand_size", where, player=hand.name, have=hand.card_count, need=size, round=number
        )


def _check_hand_sizes(play: Play, rules: Rules) -> None:
    if play.round_number is not None:
        if play.round_number not in rules.round_numbers():
            raise RuleError("no_such_round", "round", number=play.round_number, rounds=rules.rounds)
        for i, hand in enumerate(play.hands):
            _check_size(hand, rules, play.round_number, f"players[{i}]")
        return
    first = play.hands[0]
    least, most = rules.smallest_hand, rules.largest_hand
    for i, hand in enumerate(play.hands):
        if not least <= hand.card_count <= most:
            raise RuleError(
                "hand_size_range",
                f"players[{i}]",
                player=hand.name,
                have=hand.card_count,
                least=least,
                most=most,
            )
        if hand.card_count != first.card_count:
            raise RuleError(
                "hand_sizes_differ",
                f"players[{i}]",
                player=hand.name,
                have=hand.card_count,
                other=first.name,
                other_has=first.card_count,
            )


def _check_deck(play: Play) -> None:
    seen: Counter[Card] = Counter()
    for c, where in play.placed_cards():
        seen[c] += 1
        if seen[c] > c.copies:
            raise RuleError("deck_copies", where, card=c.name, copies=c.copies, count=seen[c])


def _check_challenges(play: Play) -> None:
    names = [h.name for h in play.hands]
    challenged: set[tuple[str, int]] = set()
    for n, typed in enumerate(play.challenges):
        where = f"challenges[{n}]"
        by, player = play.player_name(typed.by), play.player_name(typed.player)
        if by is None:
            raise RuleError("challenger_unknown", f"{where}.by", name=typed.by[:40], names=names)
        if player is None:
            raise RuleError(
                "challenged_unknown", f"{where}.player", name=typed.player[:40], names=names
            )
        ch = Challenge(by, player, typed.word, typed.ruling, typed.recorded)
        if ch.by == ch.player:
            raise RuleError("challenge_own_word", f"{where}.by", player=ch.by)
        words = play.hand(ch.player).words
        if not 0 <= ch.word < len(words):
            raise RuleError(
                "challenge_no_word", f"{where}.word", player=ch.player, count=len(words)
            )
        if (ch.player, ch.word) in challenged:
            raise RuleError("challenge_twice", where, player=ch.player, word=text(words[ch.word]))
        challenged.add((ch.player, ch.word))
