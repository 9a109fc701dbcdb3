"""The JSON API under /api/v1: dict in, dict out, errors as ``{"error", "where"}``."""

from __future__ import annotations

import json

from flask import Blueprint, Response, jsonify, request

from companion import referee, store
from companion.game.deck import CARDS
from companion.game.errors import RuleError, ShapeError
from companion.game.parse import parse_play, parse_rules
from companion.game.rules import DEFAULT_LEXICON
from companion.game.scoring import score_round
from companion.game.solver import MAX_HAND, best_play, parse_hand

bp = Blueprint("api", __name__, url_prefix="/api/v1")

MAX_WORD = 60
"""Longer path segments are cut: no word on Quiddler cards comes near."""
MAX_JUDGED = 20


@bp.errorhandler(RuleError)
def rule_error(exc: RuleError) -> tuple[Response, int]:
    """A refused request: the message and the field, 400 for shape, 422 for rules."""
    return jsonify(error=exc.message, where=exc.where), exc.status


def json_body() -> object:
    """The request body decoded as JSON, whatever the Content-Type says."""
    data = request.get_data(cache=True)
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        raise ShapeError(
            "The body must be valid JSON (check quotes, commas and brackets).", ""
        ) from None


def json_object(*keys: str) -> dict[str, object]:
    """The body as a JSON object holding only ``keys``."""
    body = json_body()
    if not isinstance(body, dict):
        raise ShapeError("The body must be a JSON object.", "")
    unknown = [k for k in body if k not in keys]
    if unknown:
        raise ShapeError(
            f"Unknown field '{unknown[0][:40]}'; expected {', '.join(keys)}.", unknown[0][:40]
        )
    return body


@bp.get("/cards")
def cards() -> Response:
    """The deck: all 31 kinds with value, copies and letters."""
    return jsonify(
        [
            {"card": c.name, "value": c.value, "copies": c.copies, "letters": c.letters}
            for c in CARDS
        ]
    )


@bp.post("/spell")
def spell() -> Response:
    """Every way to lay some letters down as cards, best value first."""
    body = json_object("letters")
    letters = body.get("letters")
    if not isinstance(letters, str):
        raise ShapeError('Send "letters": a string such as "quiz".', "letters")
    return jsonify(spellings=referee.spellings_json(letters))


@bp.post("/score")
def score() -> Response:
    """Score one round without storing anything."""
    body = json_body()
    play = parse_play(body)
    rules = parse_rules(body.get("rules") if isinstance(body, dict) else None)
    judge = referee.lazy_judge(rules.lexicon, "rules.lexicon")
    return jsonify(score_round(play, rules, judge).as_dict())


@bp.get("/words/<path:word>")
def word(word: str) -> Response:
    """The referee's verdict on one word: ``?lexicon=NAME`` picks the dictionary."""
    name = request.args.get("lexicon")
    house: dict[str, bool] = {}
    if "game" in request.args:  # that game's house words, and its lexicon unless one is named
        try:
            state = store.state_of(store.get_game(request.args["game"]))
        except store.NotFound:
            raise RuleError(f"There is no game '{request.args['game'][:40]}'.", "game") from None
        house = state.house_words
        name = name or state.rules.lexicon
    return jsonify(referee.word_report(word[:MAX_WORD], name or DEFAULT_LEXICON, house))


@bp.post("/judge")
def judge() -> Response:
    """One verdict for a whole play, without saying which word failed."""
    body = json_object("words", "lexicon")
    words = body.get("words")
    if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
        raise ShapeError('Send "words": a list of words as strings.', "words")
    if not 1 <= len(words) <= MAX_JUDGED:
        raise RuleError(f"Send 1 to {MAX_JUDGED} words to judge.", "words")
    name = body.get("lexicon", DEFAULT_LEXICON)
    if not isinstance(name, str):
        raise ShapeError('"lexicon" must be a lexicon\'s name.', "lexicon")
    lexicon = referee.lexicon(name)
    return jsonify(acceptable=all(lexicon.verdict(w).legal for w in words))


@bp.post("/best")
def best() -> Response:
    """The best play of a hand: words, unused cards, the discard, points, going out."""
    body = json_object("cards", "discard", "rules")
    cards = body.get("cards")
    if not isinstance(cards, list):
        raise ShapeError('Send "cards": the hand as a list of card names.', "cards")
    if not cards:
        raise RuleError("Send the cards of a hand (1 to 11 cards).", "cards")
    if len(cards) > MAX_HAND:
        raise RuleError(
            f"A hand holds at most {MAX_HAND} cards (10 and the drawn card); "
            f"this has {len(cards)}.",
            "cards",
        )
    discard = body.get("discard", False)
    if not isinstance(discard, bool):
        raise ShapeError('"discard" is true or false.', "discard")
    rules = parse_rules(body.get("rules"))
    hand = parse_hand(cards)
    index = referee.solver_index(rules.lexicon)
    return jsonify(best_play(hand, index, rules.min_word, discard).as_dict())
