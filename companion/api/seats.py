"""The seats half of the JSON API: a phone claims its player's seat, then saves that hand.

A claim needs only the game's id (the view link) and answers with the seat's secret,
once. A seat's hand is saved with ``Authorization: Bearer <seat token>`` (or the edit
token, for any seat), with ``If-Match: "<seat version>"`` to catch a stale page.
"""

from __future__ import annotations

from flask import Response, jsonify

from companion.actions import seats
from companion.api import bp, json_body
from companion.api.games import bearer, expected_version
from companion.game.errors import RuleError
from companion.game.parse import parse_seat_hand
from companion.web import referee
from companion.web.extensions import limited
from companion.web.present import game_json, round_json


@bp.post("/games/<game_id>/seats/<int(signed=True):seat>/claim")
@limited("seat-claims")
def claim_seat(game_id: str, seat: int) -> tuple[Response, int]:
    """Take a seat: 201 with its secret; 409 when a phone holds it already."""
    claimed = seats.claim_seat(game_id, seat)
    return jsonify(seat=claimed.seat, name=claimed.name, seat_token=claimed.token), 201


@bp.delete("/games/<game_id>/seats/<int(signed=True):seat>/claim")
def release_seat(game_id: str, seat: int) -> Response:
    """Free a seat (edit token): its phone's secret stops working."""
    return jsonify(game_json(seats.release_seat(game_id, bearer(), seat)))


@bp.put("/games/<game_id>/rounds/<int:number>/seats/<int(signed=True):seat>")
def put_seat(game_id: str, number: int, seat: int) -> Response:
    """Save one player's hand of an open round: ``{"words", "unused", "went_out"}``."""
    hand = parse_seat_hand(json_body())
    version = expected_version()
    try:
        saved = seats.save_seats(
            referee.store(), game_id, bearer(), number, {seat: hand}, {seat: version}
        )
    except RuleError as exc:  # the path of this seat's own body: words[0], unused
        exc.where = exc.where.removeprefix(f"players[{seat}]").lstrip(".")
        raise
    state = saved.round.seats[seat]
    return jsonify(seat=seat, version=state.version, round=round_json(saved.round))
