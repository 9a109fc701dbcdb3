"""The home page: what the app does, and a form that scores one round."""

from __future__ import annotations

import re

from flask import Blueprint, render_template

from companion import referee
from companion.forms import ScoreForm, first_error, split_cards, split_words
from companion.game.errors import RuleError
from companion.game.parse import parse_play, parse_rules
from companion.game.rules import EXPLANATIONS
from companion.game.scoring import RoundScore, score_round

bp = Blueprint("scorer", __name__)

_PATH = re.compile(r"^(players|challenges)\[(\d+)\](?:\.(\w+))?")


class _Rows:
    """Which form row each entry of the request came from, to put errors by their field."""

    def __init__(self) -> None:
        self.players: list[int] = []
        self.challenges: list[int] = []


def _request_data(form: ScoreForm, rows: _Rows) -> dict[str, object]:
    """The form as the plain data the API takes, skipping blank rows."""
    players: list[dict[str, object]] = []
    seat_names: dict[str, str] = {}
    for i, entry in enumerate(form.players.entries):
        row = entry.form
        if row.is_blank():
            continue
        rows.players.append(i)
        name = (row.name.data or "").strip()
        seat_names[str(i + 1)] = name
        players.append(
            {
                "name": name,
                "words": split_words(row.words.data or ""),
                "unused": split_cards(row.unused.data or ""),
                "went_out": bool(row.went_out.data),
            }
        )
    challenges: list[dict[str, object]] = []
    for k, entry in enumerate(form.challenges.entries):
        row = entry.form
        if row.is_blank():
            continue
        rows.challenges.append(k)
        where = f"challenges-{k}"
        for field in (row.by, row.player):
            if field.data not in seat_names:
                raise RuleError(
                    f"Pick a seat that has a player for '{field.label.text}'.",
                    f"{where}-{field.name.rsplit('-', 1)[-1]}",
                )
        if row.word.data is None:
            raise RuleError(
                "Give the number of the challenged word (1 for the first).", f"{where}-word"
            )
        challenge: dict[str, object] = {
            "by": seat_names[row.by.data],
            "player": seat_names[row.player.data],
            "word": row.word.data - 1,
        }
        if row.ruling.data:
            challenge["ruling"] = row.ruling.data
        challenges.append(challenge)
    data: dict[str, object] = {"players": players, "challenges": challenges}
    if form.round.data:
        data["round"] = int(form.round.data)
    return data


def field_for_path(where: str, rows: _Rows | None = None) -> str:
    """The form field id (``players-1-words``) for an API path (``players[0].words[2]``).

    ``rows`` maps the entries of the request back to the form rows they came from
    (blank rows are skipped); without it, entry ``i`` is row ``i``.
    """
    if where.startswith("rules."):
        return "rules-" + where.split(".", 1)[1]
    match = _PATH.match(where)
    if not match:
        return where
    kind, index, field = match.group(1), int(match.group(2)), match.group(3)
    mapping = (rows.players if kind == "players" else rows.challenges) if rows else []
    row = mapping[index] if index < len(mapping) else index
    return f"{kind}-{row}" + (f"-{field}" if field else "")


@bp.route("/score", methods=["GET", "POST"])
def index() -> str:
    """Explain the app and score a round typed into the form."""
    form = ScoreForm()
    form.rules.form.lexicon.choices = referee.lexicon_choices()
    result: RoundScore | None = None
    error: RuleError | None = None
    field = ""
    if form.validate_on_submit():
        rows = _Rows()
        try:
            rules = parse_rules(form.rules.data)
            judge = referee.lazy_judge(rules.lexicon, "rules.lexicon")
            result = score_round(parse_play(_request_data(form, rows)), rules, judge)
        except RuleError as exc:
            error = exc
            field = (
                field_for_path(exc.where, rows)
                if not exc.where.startswith("challenges-")
                else exc.where
            )
    elif form.is_submitted():
        # CSRF failures never get here: CSRFProtect refuses them before the view.
        error = first_error(form)
        field = error.where
    status = 422 if error else 200
    return render_template(
        "index.html", form=form, result=result, error=error, error_field=field, explain=EXPLANATIONS
    ), status  # type: ignore[return-value]
