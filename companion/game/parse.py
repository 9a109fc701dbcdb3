"""Reading plain data (decoded JSON, form fields) into game objects, once, at the edge.

Wrong types and shapes raise ``ShapeError`` (400 at the API); well-formed
input that breaks a rule raises ``RuleError`` (422). Every error names the
field it concerns, with a code and the values a message needs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.game.deck import Card, Word, card
from companion.game.errors import RuleError, ShapeError
from companion.game.play import MAX_PLAYERS, Challenge, Hand, Play, check_player_count
from companion.game.rules import (
    LEAST_CARDS,
    MAX_LEXICON_NAME,
    MAX_POINTS,
    MAX_ROUNDS,
    MOST_CARDS,
    RULES,
    Rules,
    RuleSpec,
)

MAX_WORD_TEXT = 60
MAX_CHALLENGES = 80


def parse_cards(raw: object, where: str) -> tuple[Card, ...]:
    """Cards as a list of names, or one string: ``"qu-i-z"`` by card, ``"top"`` by letter."""
    if isinstance(raw, str):
        if len(raw) > MAX_WORD_TEXT:
            raise RuleError("cards_too_long", where, count=len(raw))
        spaced = raw.strip()
        # "in-" (or "-in") is the lone IN card; inside a word "--" stays an error.
        parts = spaced.strip("-").split("-") if "-" in spaced else list(spaced)
        return tuple(card(p, f"{where}[{k}]") for k, p in enumerate(parts))
    if isinstance(raw, list):
        if len(raw) > MAX_WORD_TEXT:
            raise RuleError("cards_too_many", where, count=len(raw))
        return tuple(card(p, f"{where}[{k}]") for k, p in enumerate(raw))
    raise ShapeError("cards_shape", where)


def parse_word(raw: object, where: str) -> Word:
    """One word: cards in the order played, at least one."""
    word = parse_cards(raw, where)
    if not word:
        raise RuleError("word_empty", where)
    return word


def parse_rules(raw: object, where: str = "rules") -> Rules:
    """House rules; every key is optional and takes the rule book's default.

    Each key is read as its declaration in ``rules.RULES`` says: nothing here names a rule.
    """
    if raw is None:
        return Rules()
    obj = _object(raw, where, {spec.name for spec in RULES} | {LEGACY_FLOOR})
    values = {
        spec.name: _rule(obj[spec.name], spec, _at(where, spec.name))
        for spec in RULES
        if spec.name in obj
    }
    if LEGACY_FLOOR in obj:  # games stored (and clients written) before "floor"
        floor = "round" if _bool(obj[LEGACY_FLOOR], _at(where, LEGACY_FLOOR)) else "off"
        if values.setdefault("floor", floor) != floor:
            raise RuleError("floor_twice", _at(where, LEGACY_FLOOR), floor=values["floor"])
    return Rules(**values)


LEGACY_FLOOR = "zero_floor"
"""The zero floor's old key: ``true`` is ``"floor": "round"``, ``false`` is ``"off"``."""


def parse_hands(raw: object, where: str = "rules.hands") -> tuple[int, ...]:
    """A round plan: the hand size of each round in order, 1 to 20 rounds of 2 to 10."""
    if not isinstance(raw, list):
        raise ShapeError("hands_list", where)
    if not 1 <= len(raw) <= MAX_ROUNDS:
        raise RuleError("hands_count", where, count=len(raw), most=MAX_ROUNDS)
    for i, size in enumerate(raw):
        if not LEAST_CARDS <= _int(size, f"{where}[{i}]") <= MOST_CARDS:
            raise RuleError(
                "hands_size", f"{where}[{i}]", size=size, least=LEAST_CARDS, most=MOST_CARDS
            )
    return tuple(raw)


def parse_handicap(raw: object, players: int, where: str = "handicap") -> tuple[int, ...]:
    """A head start in points per seat, in seating order (none: zero for everyone)."""
    if raw is None:
        return (0,) * players
    if not isinstance(raw, list):
        raise ShapeError("handicap_list", where)
    if len(raw) != players:
        raise RuleError("handicap_count", where, count=len(raw), players=players)
    return tuple(_points(p, f"{where}[{i}]") for i, p in enumerate(raw))


def _rule(raw: object, spec: RuleSpec, where: str) -> Any:
    """One house rule's value, checked against its declaration."""
    if spec.kind == "choice":
        return _choice(raw, spec.choices, where)
    if spec.kind == "points":
        return _points(raw, where)
    if spec.kind == "flag":
        return _bool(raw, where)
    if spec.kind == "plan":
        return parse_hands(raw, where)
    name = _string(raw, where).strip()
    if not name or len(name) > MAX_LEXICON_NAME:
        raise RuleError("lexicon_name", where, most=MAX_LEXICON_NAME)
    return name


def parse_play(raw: object, rules: Rules | None = None) -> Play:
    """A round as the API takes it: ``players``, optional ``challenges`` and ``round``.

    ``rules`` give the game's shape (which round numbers there are).
    """
    rules = rules or Rules()
    obj = _object(raw, "", {"players", "challenges", "round", "rules"})
    round_number = obj.get("round")
    if round_number is not None:
        round_number = _int(round_number, "round")
        if round_number not in rules.round_numbers():
            raise RuleError("no_such_round", "round", number=round_number, rounds=rules.rounds)
    players = obj.get("players")
    if not isinstance(players, list):
        raise ShapeError("players_list", "players", most=MAX_PLAYERS)
    if len(players) > MAX_PLAYERS:
        check_player_count(len(players))  # refuse before reading a long list
    hands = tuple(_hand(p, f"players[{i}]", rules) for i, p in enumerate(players))
    challenges = obj.get("challenges", [])
    if not isinstance(challenges, list):
        raise ShapeError("challenges_list", "challenges")
    if len(challenges) > MAX_CHALLENGES:
        raise RuleError("challenges_too_many", "challenges", count=len(challenges))
    return Play(
        hands=hands,
        challenges=tuple(parse_challenge(c, f"challenges[{n}]") for n, c in enumerate(challenges)),
        round_number=round_number,
    )


def parse_seat_hand(raw: object, rules: Rules | None = None) -> Hand:
    """One player's hand saved from their own phone: ``{"words", "unused", "went_out"}``
    (the name comes from the seat)."""
    return _hand(raw, "", rules or Rules(), {"words", "unused", "went_out"})


def _hand(
    raw: object,
    where: str,
    rules: Rules,
    keys: frozenset[str] | set[str] = frozenset({"name", "words", "unused", "went_out"}),
) -> Hand:
    obj = _object(raw, where, set(keys))
    name = _string(obj.get("name"), _at(where, "name")).strip() if "name" in keys else ""
    words = obj.get("words", [])
    if not isinstance(words, list):
        raise ShapeError("words_list", _at(where, "words"))
    if len(words) > rules.largest_hand:
        raise RuleError("words_too_many", _at(where, "words"), most=rules.largest_hand)
    return Hand(
        name=name,
        words=tuple(parse_word(w, f"{_at(where, 'words')}[{j}]") for j, w in enumerate(words)),
        unused=parse_cards(obj.get("unused", []), _at(where, "unused")),
        went_out=_bool(obj.get("went_out", False), _at(where, "went_out")),
    )


def parse_challenge(raw: object, where: str) -> Challenge:
    """One challenge: ``{"by", "player", "word", "ruling"?}``."""
    obj = _object(raw, where, {"by", "player", "word", "ruling"})
    ruling = obj.get("ruling")
    if ruling is not None:
        ruling = _choice(ruling, ("legal", "illegal"), _at(where, "ruling")) == "legal"
    return Challenge(
        by=_string(obj.get("by"), _at(where, "by")).strip(),
        player=_string(obj.get("player"), _at(where, "player")).strip(),
        word=_int(obj.get("word"), _at(where, "word")),
        ruling=ruling,
    )


def _name(where: str) -> str:
    """The name of the field at the end of a path: ``players[0].name`` -> ``name``."""
    return where.rsplit(".", 1)[-1] if where else ""


def _at(where: str, key: str) -> str:
    """The path of field ``key`` inside ``where`` (just ``key`` at the top)."""
    return f"{where}.{key}" if where else key


def _object(raw: object, where: str, keys: set[str]) -> Mapping[str, object]:
    if not isinstance(raw, dict):
        raise ShapeError("not_an_object", where, keys=sorted(keys))
    unknown = sorted(str(k) for k in raw if k not in keys)
    if unknown:
        raise ShapeError(
            "unknown_field", _at(where, unknown[0][:40]), field=unknown[0][:40], keys=sorted(keys)
        )
    return raw


def _string(raw: object, where: str) -> str:
    if not isinstance(raw, str):
        raise ShapeError("not_text", where, field=_name(where))
    return raw


def _int(raw: object, where: str) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise ShapeError("not_whole_number", where, field=_name(where))
    return raw


def _bool(raw: object, where: str) -> bool:
    if not isinstance(raw, bool):
        raise ShapeError("not_true_or_false", where, field=_name(where))
    return raw


def _points(raw: object, where: str) -> int:
    points = _int(raw, where)
    if not 0 <= points <= MAX_POINTS:
        raise RuleError("points_range", where, most=MAX_POINTS)
    return points


def _choice(raw: object, choices: tuple[str, ...], where: str) -> str:
    if not isinstance(raw, str):
        raise ShapeError("choice_not_text", where, choices=list(choices))
    if raw not in choices:
        raise RuleError("choice_unknown", where, choices=list(choices))
    return raw
