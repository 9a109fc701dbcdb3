"""Seats from a browser: "I am Ben" on the game's page, and the scorekeeper's release.

Claiming asks once more ("Are you Ben?") on a page of its own: a wrong tap would lock
the real Ben out until the scorekeeper releases the seat, and the game's page (the
same for every viewer, kept per version) carries no form.
"""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response as BaseResponse

from companion import store
from companion.actions import seats
from companion.game.errors import Refusal
from companion.web.access import held_seat_token, held_token, remember_seat, seat_for
from companion.web.errors import Shown, shows_refusals
from companion.web.extensions import limited
from companion.web.forms import ActionForm

bp = Blueprint("seats", __name__)


def render_claim(game_id: str, seat: int, error: Shown | None = None) -> str:
    """The question "Are you <name>?" with the button that takes the seat."""
    game = store.get_game(game_id)
    state = store.state_of(game)
    if not 0 <= seat < len(state.names):
        raise store.NotFound("no_such_seat", "", seat=seat, seats=len(state.names))
    return render_template(
        "seat_claim.html",
        state=state,
        seat=seat,
        name=state.names[seat],
        claimed=state.claimed[seat],
        held=seat_for(game),
        action=ActionForm(),
        error=error,
    )


@bp.get("/games/<game_id>/seats/<int:seat>")
def claim_page(game_id: str, seat: int) -> str:
    """Are you Ben? Take Ben's seat on this phone."""
    return render_claim(game_id, seat)


def _refused_claim(exc: Refusal, game_id: str, seat: int) -> str:
    return render_claim(game_id, seat, Shown.of(exc, ""))


@bp.post("/games/<game_id>/seats/<int:seat>")
@limited("seat-claims")
@shows_refusals(_refused_claim)
def claim(game_id: str, seat: int) -> BaseResponse:
    """Take the seat: this browser keeps its secret and enters that player's hands (one
    load of the game: the action's, under its lock)."""
    claimed = seats.claim_seat(game_id, seat, held_seat_token(game_id))
    if claimed.token is not None:  # not tapped twice
        remember_seat(game_id, claimed.token)
        flash(
            _(
                "This phone is %(name)s's seat: enter your own hand here each round.",
                name=claimed.name,
            ),
            "ok",
        )
    number = claimed.game.next_round  # the round to enter now, or the game once all are closed
    if number is None:
        return redirect(url_for("games.view", game_id=game_id))
    return redirect(url_for("rounds.show", game_id=game_id, number=number))


@bp.post("/games/<game_id>/seats/<int:seat>/release")
def release(game_id: str, seat: int) -> BaseResponse:
    """The scorekeeper frees a seat (a lost phone): another phone may take it. Its
    refusals (no edit right, no such seat) get the error page."""
    state = seats.release_seat(game_id, held_token(game_id), seat)
    flash(
        _("%(name)s's seat is free: their phone can take it again.", name=state.names[seat]), "ok"
    )
    return redirect(url_for("games.view", game_id=game_id) + "#seats")
