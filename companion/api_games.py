"""The stored-game half of the JSON API: create a game, enter rounds, challenges, close.

Writes need ``Authorization: Bearer <edit token>``; without it they get 403
and change nothing. Reads need only the game's id (the view link).
"""

from __future__ import annotations

from flask import Response, jsonify, request, url_for

from companion import referee, store
from companion.api import bp, json_body, json_object
from companion.game.errors import RuleError, ShapeError
from companion.game.parse import parse_challenge, parse_play, parse_rules
from companion.models import Game
from companion.store import Conflict, GameState, NotFound, RoundState

MAX_TOKEN = 200


class Forbidden(Exception):
    """A write without the game's edit token."""


@bp.errorhandler(NotFound)
def not_found(exc: NotFound) -> tuple[Response, int]:
    return jsonify(error=str(exc), where=""), 404


@bp.errorhandler(Forbidden)
def forbidden(exc: Forbidden) -> tuple[Response, int]:
    return jsonify(
        error="Only the holders of this game's edit link can change it; send "
        "'Authorization: Bearer <edit token>'.",
        where="",
    ), 403


def bearer() -> str | None:
    """The edit token sent with the request, if any."""
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip()[:MAX_TOKEN] if scheme.lower() == "bearer" else None


def editable(game_id: str) -> Game:
    """The game, if the request holds its edit token; else 404 or 403."""
    game = store.get_game(game_id)
    if not store.can_edit(game, bearer()):
        raise Forbidden
    return game


def round_json(current: RoundState) -> dict[str, object]:
    """One round as the API shows it; the result is the /score result of its entries."""
    result = current.result.as_dict() if current.result else None
    if result is not None:
        for ruling, n in zip(result["challenges"], current.challenge_numbers, strict=True):
            ruling["n"] = n  # the number to DELETE it by
    return {
        "number": current.number,
        "hand_size": current.hand_size,
        "dealer": current.dealer,
        "first_player": current.first_player,
        "closed": current.closed,
        "entered": current.entered,
        "went_out": current.went_out,
        "version": current.version,
        "result": result,
    }


def game_json(state: GameState) -> dict[str, object]:
    """The whole game: players in seating order with totals and ranks, the eight rounds."""
    by_seat = {s.seat: s for s in state.table}
    return {
        "id": state.game.id,
        "rules": state.rules.as_dict(),
        "lexicon": state.rules.lexicon,
        "players": [
            {"name": n, "seat": i, "total": by_seat[i].total, "rank": by_seat[i].rank}
            for i, n in enumerate(state.names)
        ],
        "rounds": [round_json(r) for r in state.rounds],
        "next_round": state.next_round,
        "next_dealer": state.next_dealer,
        "finished": state.finished,
        "winners": state.winners,
        "house_words": [{"word": w, "allowed": a} for w, a in sorted(state.house_words.items())],
        "version": state.game.version,
    }


def etag(game_id: str, version: int) -> str:
    """The entity tag of every view of a game at ``version`` (unquoted)."""
    return f"{game_id}-{version}"


def not_modified(tag: str) -> Response | None:
    """A 304 when the client already holds ``tag``."""
    if request.if_none_match.contains(tag):
        return Response(status=304, headers={"ETag": f'"{tag}"', "Cache-Control": "no-cache"})
    return None


@bp.post("/games")
def create_game() -> tuple[Response, int]:
    """Start a game: players in seating order, first dealer, house rules."""
    body = json_object("players", "first_dealer", "rules")
    names = body.get("players")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise ShapeError('Send "players": the names in seating order, as strings.', "players")
    first = body.get("first_dealer", 0)
    if isinstance(first, bool) or not isinstance(first, int):
        raise ShapeError('"first_dealer" is a seat number: 0 for the first player.', "first_dealer")
    rules = parse_rules(body.get("rules"))
    referee.lexicon(rules.lexicon, "rules.lexicon")  # refuse an unknown lexicon now
    game, token = store.create_game([n.strip() for n in names], first, rules)
    return jsonify(
        id=game.id,
        edit_token=token,
        view_url=url_for("games.view", game_id=game.id, _external=True),
        edit_url=url_for("games.join", game_id=game.id, token=token, _external=True),
    ), 201


@bp.get("/games/<game_id>")
def get_game(game_id: str) -> Response:
    """The whole game; ``If-None-Match`` with its ETag gets a cheap 304."""
    version = store.game_version(game_id)
    if version is None:
        raise NotFound("There is no game at this address; check the link.")
    tag = etag(game_id, version)
    unchanged = not_modified(tag)
    if unchanged:
        return unchanged
    response = jsonify(game_json(store.state_of(store.get_game(game_id))))
    response.headers["ETag"] = f'"{tag}"'
    response.headers["Cache-Control"] = "no-cache"
    return response


def _round_response(game: Game, number: int) -> Response:
    """The round as saved now (the game read again: the commit expired what was loaded)."""
    return jsonify(round_json(store.round_state(store.get_game(game.id), number)))


def _expected_version() -> int | None:
    """The round version a client last saw, from ``If-Match: "<version>"``."""
    header = request.headers.get("If-Match", "").strip().strip('"')
    if not header:
        return None
    if not header.isdigit():
        raise ShapeError("If-Match must be the round's version, as a number in quotes.", "If-Match")
    return int(header)


@bp.put("/games/<game_id>/rounds/<int:number>")
def put_round(game_id: str, number: int) -> Response:
    """Enter (or replace) everything laid down in an open round."""
    game = editable(game_id)
    body = json_body()
    if isinstance(body, dict) and ("rules" in body or "round" in body):
        raise ShapeError(
            "A stored round takes the game's rules and its number from the "
            'address; leave out "rules" and "round".',
            "rules" if "rules" in body else "round",
        )
    play = parse_play(body)
    store.save_round(game, number, play, referee.game_judge(game), _expected_version())
    return _round_response(game, number)


@bp.post("/games/<game_id>/rounds/<int:number>/challenges")
def post_challenge(game_id: str, number: int) -> Response:
    """Challenge a word of an open round: the ruling and the rescored round."""
    game = editable(game_id)
    challenge = parse_challenge(json_body(), "")
    n = store.add_challenge(game, number, challenge, referee.game_judge(game))
    response = _round_response(game, number)
    data = response.get_json()
    data["ruling"] = next(c for c in data["result"]["challenges"] if c["n"] == n)
    return jsonify(data)


@bp.delete("/games/<game_id>/rounds/<int:number>/challenges/<int:n>")
def delete_challenge(game_id: str, number: int, n: int) -> Response:
    """Withdraw a challenge while the round is open."""
    game = editable(game_id)
    store.withdraw_challenge(game, number, n)
    return _round_response(game, number)


@bp.post("/games/<game_id>/rounds/<int:number>/close")
def close(game_id: str, number: int) -> Response:
    game = editable(game_id)
    store.close_round(game, number)
    return _round_response(game, number)


@bp.post("/games/<game_id>/rounds/<int:number>/reopen")
def reopen(game_id: str, number: int) -> Response:
    game = editable(game_id)
    store.reopen_round(game, number)
    return _round_response(game, number)


@bp.put("/games/<game_id>/house-words/<word>")
def put_house_word(game_id: str, word: str) -> Response:
    """Allow (``{"allowed": true}``) or ban (``false``) a word in this game."""
    game = editable(game_id)
    allowed = json_object("allowed").get("allowed")
    if not isinstance(allowed, bool):
        raise ShapeError('Send {"allowed": true} to allow the word, false to ban it.', "allowed")
    store.set_house_word(game, word, allowed)
    return jsonify(game_json(store.state_of(store.get_game(game_id))))


@bp.delete("/games/<game_id>/house-words/<word>")
def delete_house_word(game_id: str, word: str) -> Response:
    game = editable(game_id)
    store.remove_house_word(game, word)
    return jsonify(game_json(store.state_of(store.get_game(game_id))))


@bp.errorhandler(Conflict)
def conflict(exc: Conflict) -> tuple[Response, int]:
    """A save based on a stale page: say so and show what is saved now."""
    game_id = (request.view_args or {}).get("game_id", "")
    number = (request.view_args or {}).get("number")
    body: dict[str, object] = {"error": str(exc), "where": ""}
    try:
        if number:
            body["round"] = round_json(store.round_state(store.get_game(game_id), number))
    except (NotFound, RuleError):
        pass
    return jsonify(body), 409
