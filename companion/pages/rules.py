"""The rules for players, in their language; opened from a game, with that game's house rules."""

from __future__ import annotations

from flask import Blueprint, render_template, request

from companion import store
from companion.game.deck import CARDS
from companion.game.errors import NotFound
from companion.game.rules import STANDARD_HANDS, Rules, plan_label
from companion.web import i18n

bp = Blueprint("rules", __name__)


@bp.get("/rules")
def show() -> str:
    """How Quiddler is played and scored, written for players (not a copy of docs/rules.md);
    ``?game=<id>`` adds the house rules that game was started with, and the text then
    states that game's numbers and variants (its bonus, its false going-out penalty, its
    zero floor, its round plan, Junior rules, head starts, the table vote); without a game,
    the rule book's, and the variants as options a group can choose. ``plan`` is the
    round plan as people read it ("3 to 10", en dashed); ``head_starts`` the players given one, with
    their points, in seating order."""
    state = None
    game_id = request.args.get("game", "")
    if game_id:
        try:
            state = store.state_of(store.get_game(game_id))
        except NotFound:
            state = None  # an old or mistyped link: the rules alone
    rules = state.rules if state else Rules()
    head_starts = (
        [
            (name, points)
            for name, points in zip(state.names, state.handicap, strict=False)
            if points
        ]
        if state
        else []
    )
    return render_template(
        "rules.html",
        state=state,
        rules=rules,
        plan=plan_label(rules.hands),
        standard_plan=rules.hands == STANDARD_HANDS,
        head_starts=head_starts,
        body=f"rules/{i18n.current()}.html",
        deck=CARDS,
    )
