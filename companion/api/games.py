"""The stored-game half of the JSON API: create a game, enter rounds, challenges, close.

Writes need ``Authorization: Bearer <edit token>``; without it they get 403 and
change nothing. Reads need only the game's id (the view link). Each write calls
one action and answers with the state that write produced.
"""

from __future__ import annotations

from contextlib import suppress

from flask import Response, jsonify, request

from companion import store
from companion.actions import games
from companion.api import bp, json_body, json_object
from companion.game.errors import Conflict, Refusal, ShapeError
from companion.game.parse import parse_challenge, parse_handicap, parse_play, parse_rules
from companion.game.play import MAX_PLAYERS, MIN_PLAYERS
from companion.web import referee
from companion.web.errors import refusal_json
from companion.web.extensions import limited
from companion.web.links import public_url
from companion.web.numbers import small_int
from companion.web.present import (
    challenge_json,
    etag,
    game_json,
    not_modified,
    round_json,
    seat_json,
)

MAX_TOKEN = 200


@bp.errorhandler(Conflict)
def conflict(exc: Conflict) -> tuple[Response, int]:
    """A conflict, mapped as every refusal is, with the round as it is saved now, so the
    client can show it and let the person choose."""
    body = refusal_json(exc)
    args = request.view_args or {}
    if "number" in args:
        with suppress(Refusal):  # the game or round is gone: the conflict alone says enough
            game = store.get_game(args["game_id"])
            current = store.round_state(game, args["number"])
            body["round"] = round_json(current)
            if "seat" in args and 0 <= args["seat"] < len(current.seats):
                body["seat"] = seat_json(current.seats[args["seat"]], with_hand=True)
    return jsonify(body), exc.status


def bearer() -> str | None:
    """The edit token sent with the request (``Authorization: Bearer``), if any."""
    sent = request.authorization
    return (sent.token or "")[:MAX_TOKEN] if sent and sent.type == "bearer" else None


@bp.post("/games")
@limited("new-games")
def create_game() -> tuple[Response, int]:
    """Start a game: players in seating order, first dealer, house rules."""
    body = json_object("players", "first_dealer", "rules", "handicap")
    names = body.get("players")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise ShapeError("names_list", "players")
    first = body.get("first_dealer", 0)
    if isinstance(first, bool) or not isinstance(first, int):
        raise ShapeError("first_dealer_seat", "first_dealer")
    rules = parse_rules(body.get("rules"))
    handicap: tuple[int, ...] = ()
    if body.get("handicap") is not None and MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        handicap = parse_handicap(body.get("handicap"), len(names))
    created = games.create_game(referee.store(), [n.strip() for n in names], first, rules, handicap)
    game_id = created.state.id
    return jsonify(
        id=game_id,
        edit_token=created.token,
        view_url=public_url("games.view", game_id=game_id),
        edit_url=public_url("games.join", game_id=game_id, token=created.token),
    ), 201


@bp.get("/games/<game_id>")
def get_game(game_id: str) -> Response:
    """The whole game; ``If-None-Match`` with its ETag gets a cheap 304."""
    version = store.game_version(game_id)
    tag = etag(game_id, version)
    response = not_modified(tag) or jsonify(game_json(store.state_at(game_id, version)))
    response.headers["ETag"] = f'"{tag}"'
    response.headers["Cache-Control"] = "no-cache"
    response.vary.add("Accept-Language")  # its reasons are in the caller's language
    return response


def expected_version() -> int | None:
    """The round version a client last saw, from ``If-Match: "<version>"``."""
    header = request.headers.get("If-Match", "").strip().strip('"')
    if not header:
        return None
    version = small_int(header)
    if version is None:
        raise ShapeError("if_match", "If-Match")
    return version


@bp.put("/games/<game_id>/rounds/<int:number>")
def put_round(game_id: str, number: int) -> Response:
    """Enter (or replace) everything laid down in an open round."""
    body = json_body()
    if isinstance(body, dict) and ("rules" in body or "round" in body):
        field = "rules" if "rules" in body else "round"
        raise ShapeError("rules_from_address", field, field=field)
    play = parse_play(body)
    saved = games.save_round(referee.store(), game_id, bearer(), number, play, expected_version())
    return jsonify(round_json(saved))


@bp.post("/games/<game_id>/rounds/<int:number>/challenges")
def post_challenge(game_id: str, number: int) -> Response:
    """Challenge a word of an open round: the ruling and the rescored round."""
    typed = parse_challenge(json_body(), "")
    done = games.challenge(referee.store(), game_id, bearer(), number, typed)
    data = round_json(done.round)
    ruled = done.ruled()
    definition = referee.ruling_definition(ruled, done.lexicon)
    data["ruling"] = {**challenge_json(ruled, done.number, done.round), "definition": definition}
    return jsonify(data)


def _ruled(done: games.Challenged) -> Response:
    """The round as a vote or a decision left it, with the challenge it concerned."""
    data = round_json(done.round)
    data["challenge"] = challenge_json(done.ruled(), done.number, done.round)
    return jsonify(data)


def _legal_flag() -> bool:
    legal = json_object("legal").get("legal")
    if not isinstance(legal, bool):
        raise ShapeError("legal_flag", "legal")
    return legal


@bp.put("/games/<game_id>/rounds/<int:number>/challenges/<int:n>/votes/<int(signed=True):seat>")
def put_vote(game_id: str, number: int, n: int, seat: int) -> Response:
    """A seat's vote on a challenge the table settles by vote: ``{"legal": true|false}``
    with that seat's secret (or the edit token, for any seat)."""
    legal = _legal_flag()
    return _ruled(games.vote(game_id, bearer(), number, n, seat, legal))


@bp.post("/games/<game_id>/rounds/<int:number>/challenges/<int:n>/decide")
def decide_vote(game_id: str, number: int, n: int) -> Response:
    """The scorekeeper settles an open vote (a tie, a silent phone): ``{"legal": ...}``."""
    legal = _legal_flag()
    return _ruled(games.decide(game_id, bearer(), number, n, legal))


@bp.delete("/games/<game_id>/rounds/<int:number>/challenges/<int:n>")
def delete_challenge(game_id: str, number: int, n: int) -> Response:
    """Withdraw a challenge while the round is open."""
    return jsonify(round_json(games.withdraw(game_id, bearer(), number, n)))


@bp.post("/games/<game_id>/rounds/<int:number>/<any(close, reopen):action>")
def close_or_reopen(game_id: str, number: int, action: str) -> Response:
    """Close a round (it counts on the leaderboard) or reopen it to fix it."""
    return jsonify(round_json(games.set_closed(game_id, bearer(), number, action == "close")))


@bp.put("/games/<game_id>/house-words/<word>")
def put_house_word(game_id: str, word: str) -> Response:
    """Allow (``{"allowed": true}``) or ban (``false``) a word in this game."""
    allowed = json_object("allowed").get("allowed")
    if not isinstance(allowed, bool):
        raise ShapeError("allowed_flag", "allowed")
    return jsonify(game_json(games.set_house_word(game_id, bearer(), word, allowed)))


@bp.delete("/games/<game_id>/house-words/<word>")
def delete_house_word(game_id: str, word: str) -> Response:
    """Forget a house word: the lexicon decides again."""
    return jsonify(game_json(games.remove_house_word(game_id, bearer(), word)))
