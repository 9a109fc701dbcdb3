"""The rules for players, in their language; opened from a game, with that game's house rules."""

from __future__ import annotations

from flask import Blueprint, render_template, request

from companion import store
from companion.game.deck import CARDS
from companion.game.errors import NotFound
from companion.game.rules import Rules
from companion.web import i18n

bp = Blueprint("rules", __name__)


@bp.get("/rules")
def show() -> str:
    """How Quiddler is played and scored, written for players (not a copy of docs/rules.md);
    ``?game=<id>`` adds the house rules that game was started with, and the text then
    states that game's numbers (its bonus, its false going-out penalty, its zero floor);
    without a game, the rule book's."""
    state = None
    game_id = request.args.get("game", "")
    if game_id:
        try:
            state = store.state_of(store.get_game(game_id))
        except NotFound:
            state = None  # an old or mistyped link: the rules alone
    return render_template(
        "rules.html",
        state=state,
        rules=state.rules if state else Rules(),
        body=f"rules/{i18n.current()}.html",
        deck=CARDS,
    )
