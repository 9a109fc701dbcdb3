"""Tables of people who play together ("Sunday family"): start one, its page with its
games, its members changed, its edit link, put away or deleted.

In the code a table of people is a group (``Group``): "table" already names the
leaderboard. Like a game, a table has a view link (its page) and an edit link, whose
right this browser keeps in its session (``access.remember_table``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

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
from companion.actions import groups, records
from companion.game.errors import Conflict, Forbidden, NotFound, Refusal
from companion.store import groups as stored_groups
from companion.web import referee
from companion.web.access import (
    remember_table,
    remember_table_seen,
    require_table,
    table_token_for,
)
from companion.web.confirm import confirm_delete
from companion.web.errors import Shown, field_id, shows_refusals
from companion.web.extensions import limited
from companion.web.forms import MEMBER_ROWS, MEMBER_ROWS_SHOWN, ActionForm, TableForm, first_error
from companion.web.links import link_base, public_url, qr_svg

bp = Blueprint("tables", __name__)


GAMES_SHOWN = 20
"""Games the table's page lists at first, the newest: the others one tap away."""


@dataclass(frozen=True)
class TableGame:
    """A game of the table as its page lists it (None for what isn't worked out yet)."""

    id: str
    started: datetime
    archived: bool
    counted: records.Counted | None


def table_games(kept: records.GroupRecords, every: bool) -> list[TableGame]:
    """The table's games, newest first (the newest ``GAMES_SHOWN`` unless ``every``), as
    their summaries have them: the records' own, no game scored again for its line."""
    listed = [
        TableGame(g.id, g.created_at, g.archived, c)
        for g, c in zip(kept.group.games, kept.counted, strict=True)
    ]
    listed.reverse()
    return listed if every else listed[:GAMES_SHOWN]


def _named_rows(form: TableForm) -> list[int]:
    """The rows given a name, in order: the members (blank rows left out)."""
    return [i for i, e in enumerate(form.members.entries) if (e.form.name.data or "").strip()]


def _sent_number(raw: str | None) -> int | None:
    """A number the form sends back as it was given (the member a row stands for, the
    table's version): None when blank (a new member; no version: an old page); -1 for
    what none can be (the action refuses it: no such member, a stale form)."""
    raw = (raw or "").strip()
    if not raw:
        return None
    return int(raw) if raw.isdigit() and len(raw) <= 12 else -1


def _typed_members(form: TableForm) -> list[tuple[int | None, str]]:
    """(member id or None, name) of the rows given a name, in order."""
    rows = form.members.entries
    return [
        (_sent_number(rows[i].form.member.data), (rows[i].form.name.data or "").strip())
        for i in _named_rows(form)
    ]


_MEMBER = re.compile(r"^members-(\d+)$")


def _shown(exc: Refusal, form: TableForm) -> Shown:
    """``exc`` by the box it is about: a member's (``members[1]``: the second named row,
    whichever row it was typed in), the list's, or the table's name."""
    field = field_id(exc.where)
    found = _MEMBER.match(field)
    if found:
        rows = _named_rows(form)
        k = int(found[1])
        field = f"members-{rows[k] if k < len(rows) else k}-name"
    return Shown.of(exc, field)


def _shown_rows(form: TableForm, error: Shown | None) -> int:
    """How many rows of names the form shows open: 8, or enough for every name typed
    and one more (the others under "More rows"), and the row a refusal is about."""
    named = _named_rows(form)
    shown = max(MEMBER_ROWS_SHOWN, (named[-1] + 2) if named else 0)
    if error is not None and (found := re.match(r"^members-(\d+)-name$", error.field)):
        shown = max(shown, int(found[1]) + 1)
    return min(shown, MEMBER_ROWS)


# --- a new table ---------------------------------------------------------------------


def _new_table_page(form: TableForm, error: Shown | None = None) -> Response:
    page = render_template(
        "table_new.html", form=form, error=error, shown_rows=_shown_rows(form, error)
    )
    return make_response(page, 422 if error else 200)


def _refused_new_table(exc: Refusal) -> Response:
    form = TableForm()
    return _new_table_page(form, _shown(exc, form))


@bp.route("/tables/new", methods=["GET", "POST"])
@limited("new-games", methods=["POST"])
@shows_refusals(_refused_new_table)
def new_table() -> Response | BaseResponse:
    """A table's name, its people in order (2 to 20), and whether its two-player games
    alternate the bonus."""
    form = TableForm()
    if not form.validate_on_submit():
        return _new_table_page(form, first_error(form) if form.is_submitted() else None)
    names = [name for _, name in _typed_members(form)]
    created = groups.create_group(form.name.data or "", names, bool(form.alternate_bonus.data))
    remember_table(created.state.id, created.token)
    return redirect(url_for("tables.view", group_id=created.state.id, created=1))


# --- a table's page --------------------------------------------------------------------


def _edit_form(state: groups.GroupState) -> TableForm:
    """The table's form as it is stored: its name, members and bonus setting."""
    return TableForm(
        formdata=None,
        data={
            "name": state.name,
            "members": [{"name": n, "member": str(m)} for m, n in state.members],
            "alternate_bonus": state.alternate_bonus,
            "version": str(state.version),
        },
    )


def render_table(
    group_id: str,
    form: TableForm | None = None,
    error: Shown | None = None,
    action_error: Shown | None = None,
) -> str:
    """The table's page: its people, its games, and for the holder of its edit right the
    new-game button, the form that changes it, its links with QR codes, archive and
    delete."""
    group = stored_groups.get_group(group_id)
    state = groups.group_state(group)
    token = table_token_for(group)
    kept = records.records_of(referee.store(), state)
    if token is None:
        remember_table_seen(group.id)
    view_url = public_url("tables.view", group_id=group.id)
    edit_url = public_url("tables.join", group_id=group.id, token=token) if token else None
    if token is not None and form is None:
        form = _edit_form(state)
    return render_template(
        "table.html",
        state=state,
        games=table_games(kept, request.args.get("games") == "all"),
        games_count=len(state.games),
        records=kept.records,
        pending=kept.pending,
        member_names=dict(state.members),
        editor=token is not None,
        form=form,
        error=error,
        action_error=action_error,
        shown_rows=_shown_rows(form, error) if form is not None else 0,
        action=ActionForm() if token else None,
        view_url=view_url,
        edit_url=edit_url,
        view_qr=qr_svg(view_url),
        edit_qr=qr_svg(edit_url) if edit_url else None,
        links=link_base(),
        created="created" in request.args,
    )


@bp.get("/tables/<group_id>")
def view(group_id: str) -> Response:
    """The table: its people and its games for everyone with the link; what changes it
    for the holders of its edit link."""
    return make_response(render_table(group_id), {"Cache-Control": "no-store"})


def _refused_update(exc: Refusal, group_id: str) -> str:
    """The table's page with the form as it was sent (nothing typed is lost) and the
    refusal by its box; after a change made meanwhile on another phone, the form now
    stands on that change (the page lists the people as they are now): sent again, it is
    what this phone wants."""
    form = TableForm()
    if isinstance(exc, Conflict):
        form.version.data = str(groups.read_group(group_id).version)
    return render_table(group_id, form, _shown(exc, form))


@bp.post("/tables/<group_id>")
@shows_refusals(_refused_update)
def update(group_id: str) -> Response | BaseResponse:
    """Rename the table and its people, add some, take off those left blank (never one
    who played), and set the two-player bonus."""
    token = require_table(group_id, stored_groups.get_group)
    form = TableForm()
    if not form.validate_on_submit():
        return make_response(render_table(group_id, form, first_error(form)), 422)
    groups.update_group(
        group_id,
        token,
        form.name.data or "",
        _typed_members(form),
        bool(form.alternate_bonus.data),
        _sent_number(form.version.data),
    )
    flash(_("The table is saved."), "ok")
    return redirect(url_for("tables.view", group_id=group_id))


@bp.get("/tables/<group_id>/edit/<token>")
def join(group_id: str, token: str) -> BaseResponse:
    """The table's edit link: opened once, this browser may change the table and start
    its games from then on."""
    group = stored_groups.get_group(group_id)
    if not store.can_edit(group, token[:200]):
        raise Forbidden("table_link_needed")
    remember_table(group.id, token)
    return redirect(url_for("tables.view", group_id=group.id))


def _refused_action(exc: Refusal, group_id: str) -> str:
    return render_table(group_id, action_error=Shown.of(exc))


@bp.post("/tables/<group_id>/<any(archive, unarchive):change>")
@shows_refusals(_refused_action)
def put_away(group_id: str, change: str) -> BaseResponse:
    """Put the table away (off the home page's list; its page and games stay), or bring
    it back."""
    archived = change == "archive"
    token = require_table(group_id, stored_groups.get_group)
    groups.set_group_archived(group_id, token, archived)
    if archived:
        flash(_("The table is archived: it no longer shows on the home page."), "ok")
    else:
        flash(_("The table is back on the home page."), "ok")
    return redirect(url_for("tables.view", group_id=group_id))


@bp.post("/tables/<group_id>/delete")
@shows_refusals(_refused_action)
def delete(group_id: str) -> Response | BaseResponse:
    """Delete the table, after a page that asks to confirm: its games stay, each on its
    own."""
    token = require_table(group_id, stored_groups.get_group)
    if request.form.get("confirm") != "yes":
        state = groups.read_group(group_id)
        return confirm_delete(
            _("Delete the table %(name)s?", name=state.name),
            _(
                "Its people and its records go for good. Its games stay, each on its own: "
                "whoever holds a game's link can still open it."
            ),
            url_for("tables.delete", group_id=group_id),
            url_for("tables.view", group_id=group_id),
            _("Delete the table"),
        )
    groups.delete_group(group_id, token)
    flash(_("The table is deleted; its games are still there."), "ok")
    return redirect(url_for("games.home"))


@bp.get("/tables/<group_id>/players/<int:member_id>")
def player(group_id: str, member_id: int) -> Response:
    """One person's records at the table, and how they fared against each of the others."""
    kept = records.group_records(referee.store(), group_id)
    state = kept.group
    if state.member_name(member_id) is None:
        raise NotFound("no_such_member", member=member_id)
    page = render_template(
        "table_player.html",
        state=state,
        records=kept.records,
        player=kept.records.player(member_id),
        pending=kept.pending,
        member_names=dict(state.members),
    )
    return make_response(page, {"Cache-Control": "no-store"})
