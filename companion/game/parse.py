"""Reading plain data (decoded JSON, form fields) into game objects, once, at the edge.

Wrong types and shapes raise ``ShapeError`` (400 at the API); well-formed
input that breaks a rule raises ``RuleError`` (422). Every error names the
field it concerns.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.game.deck import Card, Word, card
from companion.game.errors import RuleError, ShapeError
from companion.game.play import MAX_PLAYERS, Challenge, Hand, Play, check_player_count
from companion.game.rules import MIN_WORD_CHOICES, TWO_PLAYER_BONUS_CHOICES, Rules

MAX_WORD_TEXT = 60
MAX_POINTS = 1000
"""Bonus and penalty sizes above this are surely typing mistakes."""


def parse_card(raw: object, where: str) -> Card:
    """A card name such as ``"qu"`` or ``"Z"``."""
    if not isinstance(raw, str):
        raise ShapeError('A card must be a string such as "qu" or "z".', where)
    return card(raw, where)


def parse_cards(raw: object, where: str) -> tuple[Card, ...]:
    """Cards as a list of names, or one string: ``"qu-i-z"`` by card, ``"top"`` by letter."""
    if isinstance(raw, str):
        if len(raw) > MAX_WORD_TEXT:
            raise RuleError(
                f"That is too long to be cards of one hand ({len(raw)} characters).", where
            )
        spaced = raw.strip()
        # "in-" (or "-in") is the lone IN card; inside a word "--" stays an error.
        parts = spaced.strip("-").split("-") if "-" in spaced else list(spaced)
        return tuple(parse_card(p, f"{where}[{k}]") for k, p in enumerate(parts))
    if isinstance(raw, list):
        if len(raw) > MAX_WORD_TEXT:
            raise RuleError(f"That is too many cards for one hand ({len(raw)}).", where)
        return tuple(parse_card(p, f"{where}[{k}]") for k, p in enumerate(raw))
    raise ShapeError(
        'Cards must be a list of card names like ["qu","i","z"] or a string like "qu-i-z".',
        where,
    )


def parse_word(raw: object, where: str) -> Word:
    """One word: cards in the order played, at least one."""
    word = parse_cards(raw, where)
    if not word:
        raise RuleError("This word is empty; enter its cards or remove it.", where)
    return word


def parse_rules(raw: object, where: str = "rules") -> Rules:
    """House rules; every key is optional and takes the rule book's default."""
    if raw is None:
        return Rules()
    obj = _object(
        raw,
        where,
        {"min_word", "two_player_bonus", "bonus", "zero_floor", "false_out_penalty", "lexicon"},
    )
    fields: dict[str, Any] = {}
    if "min_word" in obj:
        fields["min_word"] = _choice(obj["min_word"], MIN_WORD_CHOICES, f"{where}.min_word")
    if "two_player_bonus" in obj:
        fields["two_player_bonus"] = _choice(
            obj["two_player_bonus"], TWO_PLAYER_BONUS_CHOICES, f"{where}.two_player_bonus"
        )
    for key in ("bonus", "false_out_penalty"):
        if key in obj:
            fields[key] = _points(obj[key], f"{where}.{key}")
    if "zero_floor" in obj:
        fields["zero_floor"] = _bool(obj["zero_floor"], f"{where}.zero_floor")
    if "lexicon" in obj:
        name = _string(obj["lexicon"], f"{where}.lexicon").strip()
        if not name or len(name) > 40:
            raise RuleError("Name a lexicon (1 to 40 characters).", f"{where}.lexicon")
        fields["lexicon"] = name
    return Rules(**fields)


def parse_play(raw: object) -> Play:
    """A round as the API takes it: ``players``, optional ``challenges`` and ``round``."""
    obj = _object(raw, "", {"players", "challenges", "round", "rules"})
    round_number = obj.get("round")
    if round_number is not None:
        round_number = _int(round_number, "round")
        if not 1 <= round_number <= 8:
            raise RuleError(f"The round must be 1 to 8, not {round_number}.", "round")
    players = obj.get("players")
    if not isinstance(players, list):
        raise ShapeError('Send "players": a list of 2 to 8 players.', "players")
    if len(players) > MAX_PLAYERS:
        check_player_count(len(players))  # refuse before reading a long list
    hands = tuple(_hand(p, f"players[{i}]") for i, p in enumerate(players))
    challenges = obj.get("challenges", [])
    if not isinstance(challenges, list):
        raise ShapeError('"challenges" must be a list.', "challenges")
    if len(challenges) > 80:
        raise RuleError("There are more challenges than words on the table.", "challenges")
    return Play(
        hands=hands,
        challenges=tuple(_challenge(c, f"challenges[{n}]") for n, c in enumerate(challenges)),
        round_number=round_number,
    )


def _hand(raw: object, where: str) -> Hand:
    obj = _object(raw, where, {"name", "words", "unused", "went_out"})
    name = _string(obj.get("name"), f"{where}.name").strip()
    words = obj.get("words", [])
    if not isinstance(words, list):
        raise ShapeError('"words" must be a list of words.', f"{where}.words")
    if len(words) > 10:
        raise RuleError(
            "No hand holds more than 10 cards, so not more than 10 words.", f"{where}.words"
        )
    return Hand(
        name=name,
        words=tuple(parse_word(w, f"{where}.words[{j}]") for j, w in enumerate(words)),
        unused=parse_cards(obj.get("unused", []), f"{where}.unused"),
        went_out=_bool(obj.get("went_out", False), f"{where}.went_out"),
    )


def parse_challenge(raw: object, where: str) -> Challenge:
    """One challenge: ``{"by", "player", "word", "ruling"?}``."""
    return _challenge(raw, where)


def _challenge(raw: object, where: str) -> Challenge:
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


def _field(where: str) -> str:
    """The name of the field at the end of a path, quoted: ``players[0].name`` -> '"name"'."""
    return f'"{where.rsplit(".", 1)[-1]}"' if where else "The body"


def _at(where: str, key: str) -> str:
    """The path of field ``key`` inside ``where`` (just ``key`` at the top)."""
    return f"{where}.{key}" if where else key


def _object(raw: object, where: str, keys: set[str]) -> Mapping[str, object]:
    if not isinstance(raw, dict):
        raise ShapeError(f"Expected an object with {', '.join(sorted(keys))}.", where)
    unknown = sorted(str(k) for k in raw if k not in keys)
    if unknown:
        raise ShapeError(
            f"Unknown field '{unknown[0][:40]}'; expected {', '.join(sorted(keys))}.",
            _at(where, unknown[0][:40]),
        )
    return raw


def _string(raw: object, where: str) -> str:
    if not isinstance(raw, str):
        raise ShapeError(f"{_field(where)} must be a string (text in quotes).", where)
    return raw


def _int(raw: object, where: str) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise ShapeError(f"{_field(where)} must be a whole number.", where)
    return raw


def _bool(raw: object, where: str) -> bool:
    if not isinstance(raw, bool):
        raise ShapeError(f"{_field(where)} must be true or false.", where)
    return raw


def _points(raw: object, where: str) -> int:
    points = _int(raw, where)
    if not 0 <= points <= MAX_POINTS:
        raise RuleError(f"Points must be a whole number from 0 to {MAX_POINTS}.", where)
    return points


def _choice(raw: object, choices: tuple[str, ...], where: str) -> str:
    if not isinstance(raw, str):
        raise ShapeError(f"Expected a string, one of: {', '.join(choices)}.", where)
    if raw not in choices:
        raise RuleError(f"Choose one of: {', '.join(choices)}.", where)
    return raw
