"""Solitaire Quiddler: follow a game played with the cards, or practise with a virtual deck."""

from __future__ import annotations

import re

from flask import (
    Blueprint,
    Response,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from werkzeug.wrappers import Response as BaseResponse

from companion import store
from companion.actions import judging
from companion.actions import solitaire as actions
from companion.game import solitaire
from companion.game.deck import CARDS, Word, card, text
from companion.game.errors import Refusal
from companion.game.parse import parse_rules
from companion.game.solver import best_play
from companion.web import referee
from companion.web.access import remember, require_held, token_for
from companion.web.errors import Shown, shows_refusals
from companion.web.extensions import limited
from companion.web.forms import (
    ActionForm,
    SolitaireNewForm,
    SolitaireStepForm,
    first_error,
    split_cards,
)
from companion.web.numbers import small_int

bp = Blueprint("solitaire", __name__)


def _start_page(error: Shown | None = None) -> Response:
    page = render_template("solitaire_new.html", form=SolitaireNewForm(), error=error)
    return make_response(page, 422 if error else 200)


def _refused_start(exc: Refusal) -> Response:
    return _start_page(Shown.of(exc))


@bp.route("/solitaire", methods=["GET", "POST"])
@limited("new-games", methods=["POST"])
@shows_refusals(_refused_start)
def start() -> Response | BaseResponse:
    """Enter the eight face-up cards, or practise with a shuffled virtual deck."""
    form = SolitaireNewForm()
    if not form.validate_on_submit():
        return _start_page(first_error(form) if form.is_submitted() else None)
    rules = parse_rules({"min_word": form.min_word.data, "lexicon": form.lexicon.data})
    face_up = None
    if "practice" not in request.form:
        names = split_cards(form.face_up.data or "")
        face_up = [card(n, f"face_up[{i}]") for i, n in enumerate(names)]
    started = actions.start(referee.store(), face_up, rules.min_word, rules.lexicon)
    remember(started.id, started.token)
    return redirect(url_for("solitaire.show", game_id=started.id))


def _piles_of_word(table: solitaire.Table, word: Word) -> list[int]:
    """The piles whose face-up cards spell ``word``, in order (for the hint)."""
    free = [i for i, p in enumerate(table.piles) if p.up is not None]
    out = []
    for c in word:
        i = next(i for i in free if table.piles[i].up == c and i not in out)
        out.append(i)
    return out


def render_solitaire(game_id: str, error: Shown | None = None) -> str:
    """The eight piles as they are now, with the hint asked for and any refusal."""
    row = store.get_solitaire(game_id)
    game = store.solitaire_game(row)
    table = game.replay(row.min_word)
    has_lexicon = referee.store().knows(row.lexicon)
    stuck = hint = None
    if has_lexicon and not table.won and not table.waiting:
        index = judging.solver_index(referee.store(), row.lexicon)
        best = best_play(table.face_up, index, row.min_word)
        stuck = not best.words
        if not stuck and "hint" in request.args:
            word = max(best.words, key=len)
            hint = {"word": word, "piles": _piles_of_word(table, word)}
    return render_template(
        "solitaire.html",
        row=row,
        game=game,
        table=table,
        editor=token_for(row) is not None,
        stuck=stuck,
        hint=hint,
        error=error,
        has_lexicon=has_lexicon,
        form=SolitaireStepForm(),
        action=ActionForm(),
        deck=CARDS,
        points=solitaire.points(table.words),
        in_play=solitaire.IN_PLAY,
    )


@bp.get("/solitaire/<game_id>")
def show(game_id: str) -> Response:
    """The eight piles: tap face-up cards to make a word; turn up and refill as asked."""
    return make_response(render_solitaire(game_id), {"Cache-Control": "no-store"})


def _numbers(typed: str) -> tuple[int, ...]:
    """Pile numbers as typed or tapped (1-8), as 0-based indexes (a number out of reach
    becomes one no pile has, and the rules refuse it)."""
    found = re.findall(r"[0-9]+", typed or "")[: solitaire.PILES]
    return tuple((small_int(n) or 10**9) - 1 for n in found)


def _refused_step(exc: Refusal, game_id: str, **_: object) -> str:
    return render_solitaire(game_id, Shown.of(exc))


@bp.post("/solitaire/<game_id>/<any(word, reveal, refill, undo):kind>")
@shows_refusals(_refused_step)
def step(game_id: str, kind: str) -> BaseResponse:
    """Make a word, enter a revealed card, refill an empty pile, or undo the last step."""
    token = require_held(game_id, store.get_solitaire)
    form = SolitaireStepForm()
    version = small_int(form.version.data)
    if kind == "undo":
        actions.undo(game_id, token, version)
        return redirect(url_for("solitaire.show", game_id=game_id))
    revealed = card(form.card.data or "", "card") if kind == "reveal" else None
    made = solitaire.Step(kind, _numbers(form.piles.data or ""), revealed)
    done = actions.step(referee.store(), game_id, token, made, version)
    if kind == "word":
        flash(_("%(word)s: well done.", word=text(done.table.words[-1]).upper()), "ok")
    return redirect(url_for("solitaire.show", game_id=game_id))
