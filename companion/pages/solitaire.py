"""Solitaire Quiddler: follow a game played with the cards, or practise with a virtual deck."""

from __future__ import annotations

import re

from flask import (
    Blueprint,
    abort,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from werkzeug.wrappers import Response

from companion import referee, store
from companion.forms import (
    ActionForm,
    SolitaireNewForm,
    SolitaireStepForm,
    first_error,
    split_cards,
)
from companion.game import solitaire
from companion.game.deck import CARDS
from companion.game.errors import RuleError
from companion.game.parse import parse_card, parse_rules
from companion.game.solver import best_play
from companion.pages.access import remember, require_edit, token_for

bp = Blueprint("solitaire", __name__)


def _load(game_id: str):  # type: ignore[no-untyped-def]
    try:
        return store.get_solitaire(game_id)
    except store.NotFound:
        abort(404)


@bp.route("/solitaire", methods=["GET", "POST"])
def start() -> Response:
    """Enter the eight face-up cards, or practise with a shuffled virtual deck."""
    form = SolitaireNewForm()
    form.lexicon.choices = referee.lexicon_choices()
    error = None
    if form.validate_on_submit():
        try:
            rules = parse_rules({"min_word": form.min_word.data, "lexicon": form.lexicon.data})
            referee.lexicon(rules.lexicon, "lexicon")
            face_up = None
            if "practice" not in request.form:
                names = split_cards(form.face_up.data or "")
                face_up = [parse_card(n, f"face_up[{i}]") for i, n in enumerate(names)]
            row, token = store.create_solitaire(face_up, rules.min_word, rules.lexicon)
        except RuleError as exc:
            error = exc
        else:
            remember(row.id, token)
            return redirect(url_for("solitaire.show", game_id=row.id))
    elif form.is_submitted():
        error = first_error(form)
    return make_response(
        render_template("solitaire_new.html", form=form, error=error), 422 if error else 200
    )


def _piles_of_word(table: solitaire.Table, word) -> list[int]:  # type: ignore[no-untyped-def]
    """The piles whose face-up cards spell ``word``, in order (for the hint)."""
    free = [i for i, p in enumerate(table.piles) if p.up is not None]
    out = []
    for card in word:
        i = next(i for i in free if table.piles[i].up == card and i not in out)
        out.append(i)
    return out


@bp.get("/solitaire/<game_id>")
def show(game_id: str) -> Response:
    """The eight piles: tap face-up cards to make a word; turn up and refill as asked."""
    row = _load(game_id)
    game = store.solitaire_game(row)
    judge = referee.lexicon(row.lexicon).verdict
    table = game.replay(judge, row.min_word)  # type: ignore[arg-type]
    stuck = hint = None
    if not table.won and not table.waiting:
        best = best_play(table.face_up, referee.solver_index(row.lexicon), row.min_word)
        stuck = not best.words
        if not stuck and "hint" in request.args:
            word = max(best.words, key=len)
            hint = {"word": word, "piles": _piles_of_word(table, word)}
    response = make_response(
        render_template(
            "solitaire.html",
            row=row,
            game=game,
            table=table,
            editor=token_for_row(row),
            stuck=stuck,
            hint=hint,
            form=SolitaireStepForm(),
            action=ActionForm(),
            deck=CARDS,
            points=solitaire.points(table.words),
            in_play=solitaire.IN_PLAY,
        )
    )
    response.headers["Cache-Control"] = "no-store"
    return response


def token_for_row(row) -> bool:  # type: ignore[no-untyped-def]
    """Whether this browser holds the game's edit link."""
    return token_for(row) is not None


def _numbers(text: str) -> tuple[int, ...]:
    """Pile numbers as typed or tapped (1-8), as 0-based indexes."""
    found = re.findall(r"\d+", text or "")
    return tuple(int(n) - 1 for n in found[:8])


@bp.post("/solitaire/<game_id>/<any(word, reveal, refill, undo):kind>")
def step(game_id: str, kind: str) -> Response:
    """Make a word, enter a revealed card, refill an empty pile, or undo the last step."""
    row = _load(game_id)
    require_edit(row)
    form = SolitaireStepForm()
    if not form.validate_on_submit():
        flash("The form expired; reload the page and try again.", "error")
        return redirect(url_for("solitaire.show", game_id=game_id))
    game = store.solitaire_game(row)
    judge = referee.lexicon(row.lexicon).verdict
    try:
        if kind == "undo":
            game = game.undo()
        else:
            card = parse_card(form.card.data or "", "card") if kind == "reveal" else None
            game = game.play(
                solitaire.Step(kind, _numbers(form.piles.data or ""), card), judge, row.min_word
            )  # type: ignore[arg-type]
    except RuleError as exc:
        flash(exc.message, "error")
    else:
        store.save_solitaire(row, game)
        if kind == "word":
            word = game.replay(judge, row.min_word).words[-1]  # type: ignore[arg-type]
            flash(f"{''.join(c.name for c in word).upper()}: well done.", "ok")
    return redirect(url_for("solitaire.show", game_id=game_id))
