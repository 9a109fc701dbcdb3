"""The CSV export never hands a spreadsheet a formula: a name typed at the table stays text."""

from __future__ import annotations

import csv
import io

from flask.testing import FlaskClient


def test_the_export_writes_a_formula_name_as_text(client: FlaskClient, new_game) -> None:
    game = new_game(players=["=cmd|' /C calc'!A0", "@Ben", "Cy"])
    game.enter(
        1,
        [
            {"name": "=cmd|' /C calc'!A0", "words": ["c-a-t"], "unused": [], "went_out": True},
            {"name": "@Ben", "words": ["d-o-g"], "unused": [], "went_out": False},
            {"name": "Cy", "words": ["o-x"], "unused": ["m"], "went_out": False},
        ],
    )
    text = client.get(f"/games/{game.id}/export.csv").get_data(as_text=True)
    rows = list(csv.reader(io.StringIO(text)))
    assert [row[2] for row in rows[1:]] == ["'=cmd|' /C calc'!A0", "'@Ben", "Cy"]
    assert not [cell for row in rows for cell in row if cell[:1] in ("=", "+", "@")]
    cy = rows[3]
    assert cy[6] == "5" and cy[11] == "9"  # numbers stay numbers (OX 14 - M 5)
