"""The backup of a table: its file to download (JSON, to import again; CSV, for a
spreadsheet) and the import of one, a new table with every game of it."""

from __future__ import annotations

import json

from flask import Blueprint, Response, make_response, redirect, render_template, request
from werkzeug.wrappers import Response as BaseResponse

from companion.actions import backup
from companion.game.errors import Refusal, RuleError
from companion.web import exports
from companion.web.access import remember_table
from companion.web.errors import Shown, shows_refusals, takes_file
from companion.web.extensions import limited
from companion.web.forms import BACKUP_MOST_BYTES, ImportForm, first_error

bp = Blueprint("backup", __name__)


def _download(body: str, name: str, content_type: str) -> Response:
    """``body`` as a file to save, called ``name``."""
    named = f'attachment; filename="{name}"'
    return make_response(
        body,
        {"Content-Type": content_type, "Content-Disposition": named, "Cache-Control": "no-store"},
    )


@bp.get("/tables/<group_id>/export.json")
def export_json(group_id: str) -> Response:
    """The table and every game of it, as a backup file (``actions.backup``)."""
    data = backup.export_group(group_id)
    body = json.dumps(data, indent=1, ensure_ascii=False)
    return _download(body, f"quiddler-table-{group_id}.json", "application/json")


@bp.get("/tables/<group_id>/export.csv")
def export_csv(group_id: str) -> Response:
    """Every round of every game of the table, one row per player (``exports.group_csv``)."""
    body = exports.group_csv(group_id)
    return _download(body, f"quiddler-table-{group_id}.csv", "text/csv; charset=utf-8")


def _import_page(error: Shown | None = None, form: ImportForm | None = None) -> Response:
    page = render_template("table_import.html", form=form or ImportForm(), error=error)
    return make_response(page, 422 if error else 200, {"Cache-Control": "no-store"})


def _refused_import(exc: Refusal) -> Response:
    """The form again, with what is wrong in the file and where (its JSON path)."""
    return _import_page(Shown.of(exc, "file"))


def read_json(raw: bytes) -> object:
    """The uploaded file decoded, or ``backup_not_json`` with where it stopped making sense."""
    try:
        return json.loads(raw)
    except json.JSONDecodeError as exc:
        raise RuleError("backup_not_json", "", line=exc.lineno, column=exc.colno) from None
    except (ValueError, RecursionError):  # not UTF-8, a number too long, nested too deep
        raise RuleError("backup_not_json", "", line=1, column=1) from None


@bp.route("/tables/import", methods=["GET", "POST"])
@limited("new-games", methods=["POST"])
@shows_refusals(_refused_import)
@takes_file(BACKUP_MOST_BYTES + 64 * 1024)  # the file and the rest of the form
def import_table() -> Response | BaseResponse:
    """A backup file made into a new table (new links, new edit right, kept in this
    browser), all of it or, refused, none of it."""
    form = ImportForm()
    if not form.validate_on_submit():
        return _import_page(first_error(form) if form.is_submitted() else None, form)
    created = backup.import_group(read_json(form.file.data.read()))
    remember_table(created.state.id, created.token)
    # The new table's page: the tables' pages own it (its address, not their endpoint).
    return redirect(f"{request.script_root}/tables/{created.state.id}", 303)
