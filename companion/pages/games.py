"""Games: the list, a new game, the edit link, the leaderboard, house words, exports."""

from __future__ import annotations

import json
import re
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
from flask_babel import gettext as _
from werkzeug.wrappers import Response as BaseResponse

from companion import store
from companion.actions import games
from companion.game.errors import Refusal, RuleError
from companion.game.parse import parse_handicap, parse_rules
from companion.web import exports, i18n, referee, rendered
from companion.web.access import (
    games_here,
    held_seat_token,
    held_token,
    remember,
    remember_seen,
    require_held,
    seat_for,
    token_for,
)
from companion.web.charts import running_totals_chart
from companion.web.errors import Shown, field_id, shows_refusals
from companion.web.extensions import limited
from companion.web.forms import (
    ActionForm,
    HouseWordForm,
    NewGameForm,
    first_error,
    plan_box,
    rules_data,
)
from companion.web.links import link_base, public_url
from companion.web.present import game_json, polled

bp = Blueprint("games", __name__)


@lru_cache(maxsize=256)
def qr_svg(url: str) -> str:
    """A QR code of ``url`` as inline SVG, for the other phones at the table to scan."""
    return segno.make(url, error="m").svg_inline(scale=4, border=2, dark="#111111")


@bp.get("/")
def home() -> str:
    """What the app is for, a new game, and the games this browser started or opened, most
    recent first: never the others' games on a server that many tables share."""
    return render_template("home.html", games=store.list_games(games_here()))


def _new_game_page(error: Shown | None = None, form: NewGameForm | None = None) -> Response:
    page = render_template("game_new.html", form=form or NewGameForm(), error=error)
    return make_response(page, 422 if error else 200)


def _named_rows(form: NewGameForm) -> list[int]:
    """The rows of the seats given a name, in order: the players (blank seats left out)."""
    return [i for i, e in enumerate(form.players.entries) if (e.form.name.data or "").strip()]


_SEAT = re.compile(r"^(players|handicap)-(\d+)(-name)?$")


def _refused_new_game(exc: Refusal) -> Response:
    """The form again with the message by the box it is about: a player's (``players[1]``,
    ``handicap[1]``: the second named seat, whichever row it was typed in) or a rule's."""
    form = NewGameForm()
    field = plan_box(field_id(exc.where))
    seat = _SEAT.match(field)
    if seat:
        rows = _named_rows(form)
        k = int(seat[2])
        row = rows[k] if k < len(rows) else k
        field = f"players-{row}-" + ("name" if seat[1] == "players" else "handicap")
    return _new_game_page(Shown.of(exc, field), form)


@bp.route("/games/new", methods=["GET", "POST"])
@limited("new-games", methods=["POST"])
@shows_refusals(_refused_new_game)
def new_game() -> Response | BaseResponse:
    """Names in seating order with their head starts, the first dealer, house rules with
    their defaults explained."""
    form = NewGameForm()
    if not form.validate_on_submit():
        return _new_game_page(first_error(form) if form.is_submitted() else None, form)
    rules = parse_rules(rules_data(form.rules.form))
    rows = form.players.entries
    named = _named_rows(form)  # blank seats left out, with their head starts
    seat = int(form.first_dealer.data or 1) - 1
    if seat not in named:
        raise RuleError("first_dealer_named", "first_dealer")
    names = [(rows[i].form.name.data or "").strip() for i in named]
    handicap = parse_handicap([rows[i].form.handicap.data or 0 for i in named], len(names))
    created = games.create_game(referee.store(), names, named.index(seat), rules, handicap)
    remember(created.state.id, created.token)
    return redirect(url_for("games.view", game_id=created.state.id, created=1))


@bp.get("/games/<game_id>/edit/<token>")
def join(game_id: str, token: str) -> BaseResponse:
    """The edit link: opened once, this browser may change the game from then on."""
    game = store.get_game(game_id)
    if not store.can_edit(game, token[:200]):
        abort(403)
    remember(game.id, token)
    return redirect(url_for("games.view", game_id=game.id))


def board_context(state: store.GameState) -> dict[str, object]:
    """What the leaderboard shows: ranks, every round's scores (after the head starts, when
    a player has one), bonuses, and the chart of the running totals as the game counts them
    (``GameState.running``: from the head starts, the running-total floor applied)."""
    closed = [r for r in state.rounds if r.closed and r.result]
    bonuses = {n: 0 for n in state.names}
    for r in closed:
        for p in r.result.players if r.result else ():
            bonuses[p.name] += (p.bonus_most_words > 0) + (p.bonus_longest_word > 0)
    return {
        "state": state,
        "closed": closed,
        "bonuses": bonuses,
        "handicap": state.handicap if any(state.handicap) else (),
        "chart": running_totals_chart(list(state.names), state.running()),
        "poll_ms": current_app.config.get("BOARD_POLL_MS", 3000),
    }


def _plain_view(game_id: str) -> bool:
    """A request any viewer would get the same page for: no edit right or seat here,
    nothing flashed, not the page that follows creating the game."""
    return (
        "created" not in request.args
        and held_token(game_id) is None
        and held_seat_token(game_id) is None
        and "_flashes" not in session
    )


def render_view(game_id: str, version: int | None = None, house_error: Shown | None = None) -> str:
    """The game's page: leaderboard, links with QR codes, house words, house rules.
    ``version``: a plain viewer's page (no right or seat here, see ``_plain_view``), kept
    under that version; its scores are computed once per version, for every language."""
    if version is None:
        game = store.get_game(game_id)
        state, token, holder = store.state_of(game), token_for(game), seat_for(game)
    else:
        state, token, holder = store.state_at(game_id, version), None, None
    view_url = public_url("games.view", game_id=game_id)
    edit_url = public_url("games.join", game_id=game_id, token=token) if token else None
    return render_template(
        "game.html",
        **board_context(state),
        editor=token is not None,
        view_url=view_url,
        edit_url=edit_url,
        view_qr=qr_svg(view_url),
        edit_qr=qr_svg(edit_url) if edit_url else None,
        links=link_base(),
        created="created" in request.args,
        house_form=HouseWordForm() if token else None,
        house_error=house_error,
        action=ActionForm() if token else None,
        holder=holder,
    )


@bp.get("/games/<game_id>")
def view(game_id: str) -> Response:
    """The leaderboard and everything about the game; read-only without the edit link.

    The viewers' page (the same for everyone at the table) is kept per game version, per
    address (the address bar's and the one its links start from) and per language (each
    phone reads its own).
    """
    if _plain_view(game_id):
        version = store.game_version(game_id)
        remember_seen(game_id)
        base, lang = link_base(), i18n.current()
        body = rendered.get_or_render(
            ("view", game_id, version, base, lang), lambda: render_view(game_id, version)
        )
    else:
        body = render_view(game_id)
    return make_response(body, {"Cache-Control": "no-store"})


@bp.get("/games/<game_id>/board")
def board(game_id: str) -> Response:
    """The leaderboard alone, for the views to refresh (``present.polled``): 304 when
    nothing changed."""
    return polled(game_id, "", lambda state: render_template("_board.html", **board_context(state)))


@bp.get("/games/<game_id>/big")
def big_board(game_id: str) -> Response:
    """The leaderboard in large type, for the far end of the table: the same board part as
    the game's page, polled from the same address (``board``: nothing in it is this
    phone's, so a cache in front shares it), styled large by this page."""
    state = store.state_of(store.get_game(game_id))
    body = render_template("big_board.html", **board_context(state))
    return make_response(body, {"Cache-Control": "no-store"})


def _refused_house_word(exc: Refusal, game_id: str, **_: object) -> str:
    return render_view(game_id, house_error=Shown.of(exc, "word"))


@bp.post("/games/<game_id>/house-words")
@shows_refusals(_refused_house_word)
def add_house_word(game_id: str) -> BaseResponse | str:
    """Allow or ban a word for this game."""
    token = require_held(game_id, store.get_game)
    form = HouseWordForm()
    if not form.validate_on_submit():
        return make_response(render_view(game_id, house_error=first_error(form)), 422)
    games.set_house_word(game_id, token, form.word.data or "", form.allowed.data == "allow")
    return redirect(url_for("games.view", game_id=game_id) + "#house-words")


@bp.post("/games/<game_id>/house-words/<word>/delete")
@shows_refusals(_refused_house_word)
def remove_house_word(game_id: str, word: str) -> BaseResponse:
    """Forget a house word: the lexicon decides again."""
    games.remove_house_word(game_id, held_token(game_id), word)
    flash(_("%(word)s is no longer a house word.", word=word.upper()[:40]), "ok")
    return redirect(url_for("games.view", game_id=game_id) + "#house-words")


@bp.get("/games/<game_id>/export.json")
def export_json(game_id: str) -> Response:
    """The whole game as the API shows it, as a file."""
    state = store.state_of(store.get_game(game_id))
    return _file(json.dumps(game_json(state), indent=2), state.id, "json", "application/json")


def _file(body: str, game_id: str, kind: str, content_type: str) -> Response:
    """``body`` as a file to save, ``quiddler-<game id>.<kind>``."""
    named = f'attachment; filename="quiddler-{game_id}.{kind}"'
    return make_response(body, {"Content-Type": content_type, "Content-Disposition": named})


@bp.get("/games/<game_id>/export.csv")
def export_csv(game_id: str) -> Response:
    """One row per player per entered round (``exports.game_csv``)."""
    state = store.state_of(store.get_game(game_id))
    return _file(exports.game_csv(state), state.id, "csv", "text/csv; charset=utf-8")
