"""The JSON API under /api/v1: dict in, dict out. Refusals become
``{"error", "where", "code", "params"}`` in one place (``web/errors.py``)."""

from __future__ import annotations

import json

from flask import Blueprint, Response, jsonify, request

from companion import store
from companion.actions import judging
from companion.game.deck import CARDS
from companion.game.errors import RuleError, ShapeError, UnsupportedMedia
from companion.game.parse import parse_play, parse_rules
from companion.game.rules import DEFAULT_LEXICON
from companion.game.scoring import score_round
from companion.game.solver import MAX_HAND, best_play, parse_hand
from companion.web import referee
from companion.web.extensions import limited
from companion.web.forms import MAX_JUDGED
from companion.web.present import result_json

bp = Blueprint("api", __name__, url_prefix="/api/v1")

MAX_WORD = 60
"""Longer path segments are cut: no word on Quiddler cards comes near."""


WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})

TAKES_PICTURES = frozenset({"api.read_cards"})
"""The endpoints whose body is a picture (``api/photos.py``), not JSON."""


@bp.before_request
def writes_are_json() -> None:
    """Every write must say it sends JSON (``Content-Type: application/json``; a write
    without a body sends ``{}``): a browser then asks first (CORS preflight), which no
    other site's page gets through, so no web page a phone opens can claim a seat, or
    write anything else, unasked. An address that doesn't take the method is its 405."""
    if request.endpoint in TAKES_PICTURES:
        return  # the body is a picture, of a type that is asked about first too
    if request.method in WRITES and request.routing_exception is None and not request.is_json:
        raise UnsupportedMedia("json_content_type", "")


def json_body() -> object:
    """The request body decoded as JSON; it must say so (``Content-Type:
    application/json``), so that no web page can make a browser send it unasked."""
    if not request.is_json:
        raise UnsupportedMedia("json_content_type", "")
    data = request.get_data(cache=True)
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        raise ShapeError("bad_json", "") from None


def json_object(*keys: str) -> dict[str, object]:
    """The body as a JSON object holding only ``keys``."""
    body = json_body()
    if not isinstance(body, dict):
        raise ShapeError("not_an_object", "", keys=list(keys))
    unknown = [k for k in body if k not in keys]
    if unknown:
        raise ShapeError("unknown_field", unknown[0][:40], field=unknown[0][:40], keys=list(keys))
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
    letters = json_object("letters").get("letters")
    if not isinstance(letters, str):
        raise ShapeError("letters_text", "letters")
    return jsonify(spellings=referee.spellings_json(letters))


@bp.post("/score")
@limited("word-lookups")
def score() -> Response:
    """Score one round without storing anything."""
    body = json_body()
    rules = parse_rules(body.get("rules") if isinstance(body, dict) else None)
    play = parse_play(body, rules)
    judge = judging.game_judge(referee.store(), rules, {})
    return jsonify(result_json(score_round(play, rules, judge)))


@bp.get("/words/<path:word>")
@limited("word-lookups")
def word(word: str) -> Response:
    """The referee's verdict on one word: ``?lexicon=NAME`` picks the dictionary."""
    name = request.args.get("lexicon")
    house: dict[str, bool] = {}
    rules = None
    if "game" in request.args:  # that game's house words, and its lexicon unless one is named
        try:
            state = store.state_of(store.get_game(request.args["game"]))
        except store.NotFound:
            raise RuleError(
                "no_such_game_for_words", "game", name=request.args["game"][:40]
            ) from None
        house, rules = state.house_words, state.rules
        name = name or state.rules.lexicon
    report = referee.word_report(word[:MAX_WORD], name or DEFAULT_LEXICON, house, rules)
    return jsonify(report)


@bp.post("/judge")
@limited("word-lookups")
def judge() -> Response:
    """One verdict for a whole play, without saying which word failed."""
    body = json_object("words", "lexicon")
    words = body.get("words")
    if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
        raise ShapeError("judge_words", "words")
    if not 1 <= len(words) <= MAX_JUDGED:
        raise RuleError("judge_count", "words", most=MAX_JUDGED)
    name = body.get("lexicon", DEFAULT_LEXICON)
    if not isinstance(name, str):
        raise ShapeError("lexicon_not_text", "lexicon")
    lexicon = judging.lexicon(referee.store(), name)
    return jsonify(acceptable=all(lexicon.verdict(w).legal for w in words))


@bp.post("/best")
@limited("solver")
def best() -> Response:
    """The best play of a hand: words, unused cards, the discard, points, going out."""
    body = json_object("cards", "discard", "rules")
    cards = body.get("cards")
    if not isinstance(cards, list):
        raise ShapeError("hand_cards", "cards")
    if not cards:
        raise RuleError("no_cards", "cards", most=MAX_HAND)
    if len(cards) > MAX_HAND:
        raise RuleError("hand_too_big", "cards", count=len(cards), most=MAX_HAND)
    discard = body.get("discard", False)
    if not isinstance(discard, bool):
        raise ShapeError("discard_flag", "discard")
    rules = parse_rules(body.get("rules"))
    hand = parse_hand(cards)
    index = judging.game_solver_index(referee.store(), rules, {})
    return jsonify(best_play(hand, index, rules.min_word, discard).as_dict())
