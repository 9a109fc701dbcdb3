"""Games: the list, a new game, the edit link, the leaderboard, house words, exports."""

from __future__ import annotations

import json
import re

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
from companion.actions import games, groups
from companion.game.errors import Forbidden, Refusal, RuleError
from companion.game.parse import parse_handicap, parse_rules
from companion.game.play import MAX_PLAYERS
from companion.store import groups as stored_groups
from companion.web import exports, i18n, messages, referee, rendered
from companion.web.access import (
    games_here,
    held_seat_token,
    held_token,
    remember,
    remember_seen,
    require_held,
    require_table,
    seat_for,
    table_token_for,
    tables_here,
    token_for,
)
from companion.web.charts import running_totals_chart
from companion.web.confirm import confirm_delete
from companion.web.errors import Shown, field_id, shows_refusals
from companion.web.extensions import limited
from companion.web.forms import (
    ActionForm,
    HouseWordForm,
    NewGameForm,
    first_error,
    plan_box,
    rules_data,
    rules_form_data,
)
from companion.web.links import link_base, public_url, qr_svg
from companion.web.present import game_json, polled

bp = Blueprint("games", __name__)


@bp.get("/")
def home() -> str:
    """What the app is for, a new game, and the tables then the games this browser
    started or opened, most recent first: never the others' on a server that many
    tables share."""
    return render_template(
        "home.html",
        tables=stored_groups.list_groups(tables_here()),
        games=store.list_games(games_here()),
    )


def _new_game_page(error: Shown | None = None, form: NewGameForm | None = None) -> Response:
    form = form or NewGameForm()
    table = groups.read_group(form.table.data) if form.table.data else None
    page = render_template("game_new.html", form=form, error=error, table=table)
    return make_response(page, 422 if error else 200)


def _table_game_form(group_id: str) -> NewGameForm:
    """The new-game form of a table: its people in its order in the seats (the first
    eight), the house rules of its latest game and its keeping of photos, and the table's
    id (hidden). Only for the holders of the table's edit right."""
    group = stored_groups.get_group(group_id)
    if table_token_for(group) is None:
        raise Forbidden("table_link_needed")
    state = groups.group_state(group)
    data: dict[str, object] = {
        "players": [{"name": name} for _, name in state.members[:MAX_PLAYERS]],
        "table": state.id,
    }
    last = groups.last_settings(state)
    if last is not None:
        data["rules"] = rules_form_data(last[0])
        data["keep_photos"] = last[1]
    return NewGameForm(formdata=None, data=data)


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
    if request.method == "GET" and "table" in request.args:
        return _new_game_page(form=_table_game_form(request.args["table"][:64]))
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
    if form.table.data:  # a game of a table: its people are its members, others guests
        table = form.table.data[:64]
        created = groups.start_game(
            referee.store(),
            table,
            require_table(table, stored_groups.get_group),
            names,
            named.index(seat),
            rules,
            handicap,
            bool(form.keep_photos.data),
        )
    else:
        created = games.create_game(
            referee.store(),
            names,
            named.index(seat),
            rules,
            handicap,
            keep_photos=bool(form.keep_photos.data),
        )
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


def render_view(
    game_id: str,
    version: int | None = None,
    house_error: Shown | None = None,
    table: tuple[str, str] | None = None,
    action_error: Shown | None = None,
) -> str:
    """The game's page: leaderboard, links with QR codes, house words, house rules; for
    the scorekeeper, the rematch, archive and delete. ``version``: a plain viewer's page
    (no right or seat here, see ``_plain_view``), kept under that version with ``table``
    (the id and name of the game's table, if any); its scores are computed once per
    version, for every language."""
    archived = False
    if version is None:
        game = store.get_game(game_id)
        state, token, holder = store.state_of(game), token_for(game), seat_for(game)
        table = (game.group.id, game.group.name) if game.group is not None else None
        archived = game.archived
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
        table=table,
        archived=archived,
        action_error=action_error,
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
        table = stored_groups.group_of_game(game_id)  # renamed: a page of its own
        body = rendered.get_or_render(
            ("view", game_id, version, base, lang, table),
            lambda: render_view(game_id, version, table=table),
        )
    else:
        body = render_view(game_id)
    return make_response(body, {"Cache-Control": "no-store"})


def _refused_game_action(exc: Refusal, game_id: str, **_: object) -> str:
    return render_view(game_id, action_error=Shown.of(exc))


@bp.post("/games/<game_id>/rematch")
@shows_refusals(_refused_game_action)
def rematch(game_id: str) -> BaseResponse:
    """The next game of the same players (and table), dealt first by the next seat; a
    second tap opens the same game."""
    token = require_held(game_id, store.get_game)
    started = groups.rematch(referee.store(), game_id, token)
    if started.token is not None:
        remember(started.game_id, started.token)
        return redirect(url_for("games.view", game_id=started.game_id, created=1))
    return redirect(url_for("games.view", game_id=started.game_id))


@bp.post("/games/<game_id>/<any(archive, unarchive):change>")
@shows_refusals(_refused_game_action)
def put_away(game_id: str, change: str) -> BaseResponse:
    """Put the game away (off the home page's list, still in its table's records), or
    bring it back."""
    archived = change == "archive"
    groups.set_game_archived(game_id, require_held(game_id, store.get_game), archived)
    if archived:
        flash(_("The game is archived: it no longer shows on the home page."), "ok")
    else:
        flash(_("The game is back on the home page."), "ok")
    return redirect(url_for("games.view", game_id=game_id))


@bp.post("/games/<game_id>/delete")
@shows_refusals(_refused_game_action)
def delete(game_id: str) -> Response | BaseResponse:
    """Delete the game for good, after a page that asks to confirm; back to its table's
    page (or the home page)."""
    token = require_held(game_id, store.get_game)
    table = stored_groups.group_of_game(game_id)
    if request.form.get("confirm") != "yes":
        names = store.names_of(store.get_game(game_id))
        return confirm_delete(
            _("Delete the game of %(names)s?", names=messages.people(names)),
            _(
                "Every round, word and challenge entered goes for good, and its table's "
                "records lose it. Archive it instead to only take it off the home page."
            ),
            url_for("games.delete", game_id=game_id),
            url_for("games.view", game_id=game_id),
            _("Delete the game"),
        )
    groups.delete_game(game_id, token)
    flash(_("The game is deleted."), "ok")
    if table is not None:
        return redirect(url_for("tables.view", group_id=table[0]))
    return redirect(url_for("games.home"))


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
