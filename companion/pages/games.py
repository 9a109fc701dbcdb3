"""Games: the list, a new game, the edit link, the leaderboard, house words, exports."""

from __future__ import annotations

import csv
import io
import json
from functools import lru_cache

import segno
from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from werkzeug.wrappers import Response as BaseResponse

from companion import referee, store
from companion.api_games import etag, game_json, not_modified
from companion.forms import ActionForm, HouseWordForm, NewGameForm, first_error
from companion.game.errors import RuleError
from companion.game.parse import parse_rules
from companion.game.rules import EXPLANATIONS
from companion.pages import rendered
from companion.pages.access import remember, require_edit, token_for
from companion.pages.charts import running_totals_chart
from companion.store import GameState, NotFound

bp = Blueprint("games", __name__)

BOARD_POLL_MS = 3000
"""How often (ms) a leaderboard page asks whether the board changed; ``BOARD_POLL_MS``
in the config overrides it."""


@lru_cache(maxsize=256)
def qr_svg(url: str) -> str:
    """A QR code of ``url`` as inline SVG, for the other phones at the table to scan."""
    return segno.make(url, error="m").svg_inline(scale=4, border=2, dark="#111111")


def load(game_id: str) -> store.Game:
    try:
        return store.get_game(game_id)
    except NotFound:
        abort(404)


@bp.get("/")
def home() -> str:
    """What the app is for, a new game, and the games on this server, most recent first."""
    games = []
    for game in store.list_games():
        closed = sum(1 for r in game.rounds if r.closed)
        games.append({"game": game, "names": [p.name for p in game.players], "closed": closed})
    return render_template("home.html", games=games)


@bp.route("/games/new", methods=["GET", "POST"])
def new_game() -> str | BaseResponse:
    """Names in seating order, the first dealer, house rules with their defaults explained."""
    form = NewGameForm()
    form.rules.form.lexicon.choices = referee.lexicon_choices()
    error: RuleError | None = None
    if form.validate_on_submit():
        names = form.names()
        try:
            rules = parse_rules(form.rules.data)
            referee.lexicon(rules.lexicon, "rules.lexicon")
            first = [
                i for i, e in enumerate(form.players.entries) if (e.form.name.data or "").strip()
            ]
            seat = int(form.first_dealer.data or 1) - 1
            if seat not in first:
                raise RuleError("Pick a first dealer among the players named.", "first_dealer")
            game, token = store.create_game(names, first.index(seat), rules)
        except RuleError as exc:
            error = exc
        else:
            remember(game.id, token)
            return redirect(url_for("games.view", game_id=game.id, created=1))
    elif form.is_submitted():
        error = first_error(form)
    return make_response(
        render_template("game_new.html", form=form, error=error, explain=EXPLANATIONS),
        422 if error else 200,
    )


@bp.get("/games/<game_id>/edit/<token>")
def join(game_id: str, token: str) -> BaseResponse:
    """The edit link: opened once, this browser may change the game from then on."""
    game = load(game_id)
    if not store.can_edit(game, token[:200]):
        abort(403)
    remember(game.id, token)
    return redirect(url_for("games.view", game_id=game.id))


def board_context(state: GameState) -> dict[str, object]:
    """What the leaderboard shows: ranks, every round's scores, bonuses, the chart."""
    closed = [r for r in state.rounds if r.closed and r.result]
    scores = [[p.score for p in r.result.players] for r in closed]  # type: ignore[union-attr]
    bonuses = {n: 0 for n in state.names}
    for r in closed:
        for p in r.result.players:  # type: ignore[union-attr]
            bonuses[p.name] += (p.bonus_most_words > 0) + (p.bonus_longest_word > 0)
    return {
        "state": state,
        "closed": closed,
        "bonuses": bonuses,
        "chart": running_totals_chart(list(state.names), scores),
    }


def _plain_view(game_id: str) -> bool:
    """A request any viewer would get the same page for: no edit right here, nothing
    flashed, not the page that follows creating the game."""
    return (
        "created" not in request.args
        and game_id not in session.get("edit", {})
        and "_flashes" not in session
    )


def _render_view(game_id: str) -> str:
    state = store.state_of(load(game_id))
    token = token_for(state.game)
    view_url = url_for("games.view", game_id=game_id, _external=True)
    edit_url = (
        url_for("games.join", game_id=game_id, token=token, _external=True) if token else None
    )
    return render_template(
        "game.html",
        **board_context(state),
        editor=token is not None,
        view_url=view_url,
        edit_url=edit_url,
        view_qr=qr_svg(view_url),
        edit_qr=qr_svg(edit_url) if edit_url else None,
        created="created" in request.args,
        board_poll_ms=int(current_app.config.get("BOARD_POLL_MS", BOARD_POLL_MS)),
        house_form=HouseWordForm() if token else None,
        action=ActionForm() if token else None,
        explain=EXPLANATIONS,
    )


@bp.get("/games/<game_id>")
def view(game_id: str) -> Response:
    """The leaderboard and everything about the game; read-only without the edit link.

    The viewers' page (the same for everyone at the table) is kept per game version.
    """
    if _plain_view(game_id):
        version = store.game_version(game_id)
        if version is None:
            abort(404)
        key = ("view", game_id, version, request.host_url)
        body = rendered.pages.get_or_render(key, lambda: _render_view(game_id))
    else:
        body = _render_view(game_id)
    response = make_response(body)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/games/<game_id>/board")
def board(game_id: str) -> Response:
    """The leaderboard alone, for the views to refresh: 304 when nothing changed."""
    version = store.game_version(game_id)
    if version is None:
        abort(404)
    tag = etag(game_id, version)
    unchanged = not_modified(tag)
    if unchanged:
        return unchanged
    body = rendered.pages.get_or_render(
        ("board", game_id, version),
        lambda: render_template("_board.html", **board_context(store.state_of(load(game_id)))),
    )
    response = make_response(body)
    response.headers["ETag"] = f'"{tag}"'
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.post("/games/<game_id>/house-words")
def add_house_word(game_id: str) -> BaseResponse:
    """Allow or ban a word for this game."""
    game = load(game_id)
    require_edit(game)
    form = HouseWordForm()
    if form.validate_on_submit():
        try:
            store.set_house_word(game, form.word.data or "", form.allowed.data == "allow")
        except RuleError as exc:
            flash(exc.message, "error")
    else:
        flash(first_error(form).message, "error")
    return redirect(url_for("games.view", game_id=game_id) + "#house-words")


@bp.post("/games/<game_id>/house-words/<word>/delete")
def remove_house_word(game_id: str, word: str) -> BaseResponse:
    game = load(game_id)
    require_edit(game)
    if ActionForm().validate_on_submit():
        try:
            store.remove_house_word(game, word)
        except NotFound as exc:
            flash(str(exc), "error")
    return redirect(url_for("games.view", game_id=game_id) + "#house-words")


@bp.get("/games/<game_id>/export.json")
def export_json(game_id: str) -> Response:
    """The whole game as the API shows it, as a file."""
    state = store.state_of(load(game_id))
    response = make_response(json.dumps(game_json(state), indent=2))
    response.headers["Content-Type"] = "application/json"
    response.headers["Content-Disposition"] = f'attachment; filename="quiddler-{game_id}.json"'
    return response


CSV_FIELDS = (
    "round",
    "seat",
    "player",
    "words",
    "word_points",
    "unused",
    "unused_points",
    "bonus_most_words",
    "bonus_longest_word",
    "challenge_penalty",
    "false_out_penalty",
    "total",
    "score",
    "running_total",
    "closed",
)


@bp.get("/games/<game_id>/export.csv")
def export_csv(game_id: str) -> Response:
    """One row per player per entered round, scored by the one scoring path."""
    state = store.state_of(load(game_id))
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_FIELDS)
    running = dict.fromkeys(state.names, 0)
    for r in state.rounds:
        if r.result is None:
            continue
        for seat, p in enumerate(r.result.players):
            if r.closed:
                running[p.name] += p.score
            words = " ".join(
                ("x:" if w.struck else "") + "-".join(c.name for c in w.cards) for w in p.words
            )
            writer.writerow(
                (
                    r.number,
                    seat,
                    p.name,
                    words,
                    p.word_points,
                    " ".join(c.name for c in p.unused),
                    p.unused_points,
                    p.bonus_most_words,
                    p.bonus_longest_word,
                    p.challenge_penalty,
                    p.false_out_penalty,
                    p.total,
                    p.score,
                    running[p.name],
                    "yes" if r.closed else "no",
                )
            )
    response = make_response(out.getvalue())
    response.headers["Content-Type"] = "text/csv; charset=utf-8"
    response.headers["Content-Disposition"] = f'attachment; filename="quiddler-{game_id}.csv"'
    return response
