"""Score one round typed into a form, without storing anything."""

from __future__ import annotations

import re

from flask import Blueprint, Response, make_response, render_template

from companion.actions import judging
from companion.game.errors import Refusal, RuleError
from companion.game.parse import parse_play, parse_rules
from companion.game.scoring import RoundScore, score_round
from companion.web import referee
from companion.web.errors import Shown, field_id, shows_refusals
from companion.web.extensions import limited
from companion.web.forms import (
    FixedRows,
    ScoreForm,
    first_error,
    plan_box,
    rules_data,
    typed_cards,
)

bp = Blueprint("scorer", __name__)

_PATH = re.compile(r"^(players|challenges)\[(\d+)\](?:\.(\w+))?")


def _filled(rows: FixedRows) -> list[int]:
    """The rows of ``rows`` not left blank: the entries of the request, in order."""
    return [i for i, entry in enumerate(rows.entries) if not entry.form.is_blank()]


def _request_data(form: ScoreForm) -> dict[str, object]:
    """The form as the plain data the API takes, skipping blank rows."""
    players: list[dict[str, object]] = []
    seat_names: dict[str, str] = {}
    for i in _filled(form.players):
        row = form.players.entries[i].form
        name = (row.name.data or "").strip()
        seat_names[str(i + 1)] = name
        players.append({"name": name, **typed_cards(row), "went_out": bool(row.went_out.data)})
    challenges: list[dict[str, object]] = []
    for k in _filled(form.challenges):
        row = form.challenges.entries[k].form
        for field in (row.by, row.player):  # where: the box's id (challenges-0-by)
            if field.data not in seat_names:
                raise RuleError("seat_without_player", field.id, field=str(field.label.text))
        if row.word.data is None:
            raise RuleError("challenge_word_number", row.word.id)
        challenges.append(
            {
                "by": seat_names[row.by.data],
                "player": seat_names[row.player.data],
                "word": row.word.data - 1,
                "ruling": row.ruling.data or None,  # None: the dictionary decides
            }
        )
    number = int(form.round.data) if form.round.data else None  # None: any round
    return {"players": players, "challenges": challenges, "round": number}


def field_for_path(where: str, form: ScoreForm) -> str:
    """The form field id (``players-1-words``) for an API path (``players[0].words[2]``):
    its entry's row in ``form`` (blank rows are not entries)."""
    match = _PATH.match(where)
    if not match:  # rules.bonus -> rules-bonus; rules.hands[0] -> the first hand's box
        return plan_box(field_id(where))
    kind, index, field = match.group(1), int(match.group(2)), match.group(3)
    rows = _filled(form.players if kind == "players" else form.challenges)
    row = rows[index] if index < len(rows) else index
    return f"{kind}-{row}" + (f"-{field}" if field else "")


def _page(
    form: ScoreForm, result: RoundScore | None = None, error: Shown | None = None
) -> Response:
    body = render_template(
        "index.html",
        form=form,
        result=result,
        error=error,
        error_field=error.field if error else "",
    )
    return make_response(body, 422 if error else 200)


def _refused(exc: Refusal) -> Response:
    """The form again with the message by its field (the ids depend on the rows filled in)."""
    form = ScoreForm()
    return _page(form, error=Shown.of(exc, field_for_path(exc.where, form)))


@bp.route("/score", methods=["GET", "POST"])
@limited("word-lookups", methods=["POST"])
@shows_refusals(_refused)
def index() -> Response:
    """Explain the app and score a round typed into the form."""
    form = ScoreForm()
    if not form.validate_on_submit():
        return _page(form, error=first_error(form) if form.is_submitted() else None)
    rules = parse_rules(rules_data(form.rules.form))
    judge = judging.lazy_judge(referee.store(), rules.lexicon, "rules.lexicon")
    return _page(form, score_round(parse_play(_request_data(form), rules), rules, judge))
