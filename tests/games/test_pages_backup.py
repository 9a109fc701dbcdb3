"""The backup pages: a table's JSON and CSV to download, and the upload that makes a new
table of a backup, or shows what is wrong in it and where, storing nothing."""

from __future__ import annotations

import csv
import io
import json
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from companion.actions import backup, games, groups
from companion.game.rules import Rules
from companion.store.db import db
from companion.store.models import Group
from companion.web.exports import TABLE_FIELDS
from tests.actions.support import Act, hand
from tests.actions.test_backup import valid
from tests.games.conftest import table_rows

FORMULA_NAMES = ["=Ann", "@Ben", "Cy"]


def made_table(app: Flask) -> tuple[str, str]:
    """A table whose first two members have names a spreadsheet would run, with one game
    of round 1 closed: its id, and the game's."""
    act = Act(app)
    lexicons = app.extensions["lexicons"]
    made = act(groups.create_group, "Family", FORMULA_NAMES)
    started = act(groups.start_game, lexicons, made.state.id, made.token, FORMULA_NAMES, 0, Rules())
    game, token = started.state.id, started.token
    round_1 = games.Play(
        (hand("=Ann", "cat", out=True), hand("@Ben", "dog"), hand("Cy", "ox", unused="m"))
    )
    act(games.save_round, lexicons, game, token, 1, round_1)
    act(games.set_closed, game, token, 1, True)
    return made.state.id, game


def group_ids(app: Flask) -> set[str]:
    with app.app_context():
        return set(db.session.scalars(select(Group.id)))


def upload(client: FlaskClient, body: bytes, **form: str) -> Any:
    data: dict[str, Any] = {"file": (io.BytesIO(body), "backup.json"), **form}
    return client.post("/tables/import", data=data, content_type="multipart/form-data")


def test_the_json_download_is_the_tables_backup(app: Flask, client: FlaskClient) -> None:
    table, _ = made_table(app)
    resp = client.get(f"/tables/{table}/export.json")
    assert resp.status_code == 200
    assert resp.headers["Content-Type"] == "application/json"
    assert resp.headers["Content-Disposition"] == (
        f'attachment; filename="quiddler-table-{table}.json"'
    )
    data = resp.get_json()
    assert data["format"] == "quiddler-companion/table"
    assert data["table"]["members"] == FORMULA_NAMES
    expected = Act(app)(backup.export_group, table)
    assert {k: v for k, v in data.items() if k != "exported_at"} == {
        k: v for k, v in expected.items() if k != "exported_at"
    }


def test_the_csv_download_has_every_round_of_every_game(app: Flask, client: FlaskClient) -> None:
    table, game = made_table(app)
    resp = client.get(f"/tables/{table}/export.csv")
    assert resp.status_code == 200
    assert resp.headers["Content-Type"] == "text/csv; charset=utf-8"
    assert resp.headers["Content-Disposition"] == (
        f'attachment; filename="quiddler-table-{table}.csv"'
    )
    rows = list(csv.reader(io.StringIO(resp.get_data(as_text=True))))
    assert rows[0] == TABLE_FIELDS
    assert len(rows) == 4
    started = rows[1][2]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d", started)
    assert rows[1] == [
        "1", game, started, "1", "0", "'=Ann", "c-a-t", "13", "", "0", "0", "0", "0", "0",
        "13", "13", "13", "yes",
    ]  # fmt: skip
    assert rows[2][5] == "'@Ben"  # a name a spreadsheet would run stays text
    assert rows[3][5:9] == ["Cy", "o-x", "14", "m"]
    assert rows[3][-4:] == ["9", "9", "9", "yes"]
    assert not [cell for row in rows for cell in row if cell[:1] in ("=", "+", "@")]
    # The game's own CSV is built by the same path: the same cells after the game's three.
    own = list(csv.reader(io.StringIO(client.get(f"/games/{game}/export.csv").text)))
    assert [row[3:] for row in rows[1:]] == own[1:]


def test_an_unknown_table_is_not_found(client: FlaskClient) -> None:
    for tail in ("export.json", "export.csv"):
        assert client.get(f"/tables/nosuchtable/{tail}").status_code == 404
        assert client.get(f"/tables/bad%00id/{tail}").status_code == 404


def test_the_import_page_asks_for_a_file(client: FlaskClient) -> None:
    resp = client.get("/tables/import")
    assert resp.status_code == 200
    page = resp.get_data(as_text=True)
    assert 'enctype="multipart/form-data"' in page and 'type="file"' in page


def test_a_good_file_makes_a_new_table(app: Flask, client: FlaskClient) -> None:
    before = group_ids(app)
    resp = upload(client, json.dumps(valid()).encode())
    assert resp.status_code == 303, resp.get_data(as_text=True)
    [new] = group_ids(app) - before
    assert resp.headers["Location"] == f"/tables/{new}"
    with client.session_transaction() as session:
        assert new in session["tables"]  # the new table's edit right, kept sealed
        assert session["tables"][new] != ""
    assert Act(app)(groups.read_group, new).name == "Sunday family"


def test_a_file_over_the_apps_body_limit_is_taken(app: Flask, client: FlaskClient) -> None:
    data = valid()
    data["games"] = data["games"] * 150
    body = json.dumps(data, indent=2).encode()
    assert len(body) > app.config["MAX_CONTENT_LENGTH"]
    resp = upload(client, body)
    assert resp.status_code == 303, resp.get_data(as_text=True)[:2000]


def test_a_file_over_its_own_limit_is_refused_unread(app: Flask, client: FlaskClient) -> None:
    before = table_rows(app)
    resp = upload(client, b" " * (17 * 1024 * 1024))
    assert resp.status_code == 413
    assert "This file is too large: at most 16 MiB." in resp.get_data(as_text=True)
    assert table_rows(app) == before


def test_a_bad_file_is_shown_with_its_place(app: Flask, client: FlaskClient) -> None:
    data = valid()
    data["games"][0]["rounds"][0]["hands"][2]["unused"] = []
    before = table_rows(app)
    resp = upload(client, json.dumps(data).encode())
    assert resp.status_code == 422
    page = resp.get_data(as_text=True)
    assert "Not imported." in page
    assert '<code class="path">games[0].rounds[0].hands[2]</code>:' in page
    assert "Cy has 2 cards in words and unused, but round 1 deals 3" in page
    assert table_rows(app) == before


def test_a_malformed_field_is_shown_with_its_place(app: Flask, client: FlaskClient) -> None:
    data = valid()
    data["games"][0]["rounds"][1]["hands"][0]["words"][0][1] = 7
    before = table_rows(app)
    resp = upload(client, json.dumps(data).encode())
    assert resp.status_code == 422
    page = resp.get_data(as_text=True)
    assert '<code class="path">games[0].rounds[1].hands[0].words[0][1]</code>:' in page
    assert "A card must be a string" in page
    assert table_rows(app) == before


def test_a_file_that_is_not_json_is_refused(app: Flask, client: FlaskClient) -> None:
    before = table_rows(app)
    resp = upload(client, b'{"format": "quiddler-companion/table",\n  oops}')
    assert resp.status_code == 422
    assert "it is not JSON (line 2, column 3)" in resp.get_data(as_text=True)
    resp = upload(client, b"\xff\xfe\x00garbage")
    assert resp.status_code == 422
    assert table_rows(app) == before


def test_no_file_is_asked_again(app: Flask, client: FlaskClient) -> None:
    resp = client.post("/tables/import", data={}, content_type="multipart/form-data")
    assert resp.status_code == 422
    assert "Choose the backup file to import." in resp.get_data(as_text=True)


def test_the_upload_needs_the_forms_token(app: Flask, client: FlaskClient) -> None:
    app.config["WTF_CSRF_ENABLED"] = True
    before = table_rows(app)
    body = json.dumps(valid()).encode()
    resp = upload(client, body)
    assert resp.status_code == 400
    assert table_rows(app) == before
    page = client.get("/tables/import").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert token is not None
    resp = upload(client, body, csrf_token=token[1])
    assert resp.status_code == 303


def test_other_pages_still_take_no_file(client: FlaskClient) -> None:
    resp = client.post(
        "/games/new",
        data={"file": (io.BytesIO(b"{}"), "x.json")},
        content_type="multipart/form-data",
    )
    assert resp.status_code == 400


# Found by benchmarks/fuzz.py: each of these once answered 500.


def test_a_lone_surrogate_in_a_card_is_shown_as_a_replacement(
    app: Flask, client: FlaskClient
) -> None:
    """JSON may escape a lone surrogate (UTF-8 can't write it): the refusal quoting the
    card shows it as U+FFFD, where it used to make the page unsendable."""
    body = json.dumps(valid()).replace('"c", "a", "t"', '"\\ud800", "a", "t"', 1).encode()
    before = table_rows(app)
    resp = upload(client, body)
    assert resp.status_code == 422
    page = resp.get_data(as_text=True)
    assert '<code class="path">games[0].rounds[0].hands[0].words[0][0]</code>:' in page
    assert "&#39;\ufffd&#39; is not a Quiddler card" in page
    assert table_rows(app) == before


def test_a_lone_surrogate_in_a_key_is_shown_as_a_replacement(
    app: Flask, client: FlaskClient
) -> None:
    body = json.dumps(valid()).replace('"closed"', '"\\udfff"', 1).encode()
    before = table_rows(app)
    resp = upload(client, body)
    assert resp.status_code == 422
    page = resp.get_data(as_text=True)
    assert '<code class="path">games[0].rounds[0].\ufffd</code>:' in page
    assert "Unknown field &#39;\ufffd&#39;" in page
    assert table_rows(app) == before


@pytest.mark.parametrize("at", ["0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00"])
def test_a_time_before_year_1_or_after_9999_in_utc_is_refused(
    app: Flask, client: FlaskClient, at: str
) -> None:
    data = valid()
    data["games"][0]["created_at"] = at
    before = table_rows(app)
    resp = upload(client, json.dumps(data).encode())
    assert resp.status_code == 422
    page = resp.get_data(as_text=True)
    assert '<code class="path">games[0].created_at</code>:' in page
    assert "This should be a date and time such as" in page
    assert table_rows(app) == before


@pytest.mark.parametrize("name", ["\ud800", "a\x00b", "\u202e", "x\ny"])
def test_a_word_list_name_that_cant_be_printed_is_refused(
    app: Flask, client: FlaskClient, name: str
) -> None:
    """The file's word list may be one this server lacks (kept as named), but not a name
    no page can show: one was stored, then its game's page and the table's backup
    answered 500."""
    data = valid()
    data["games"][0]["rules"]["lexicon"] = name
    before = table_rows(app)
    body = json.dumps(data).encode("utf-8", "surrogatepass")
    resp = upload(client, body)
    assert resp.status_code == 422
    page = resp.get_data(as_text=True)
    assert '<code class="path">games[0].rules.lexicon</code>:' in page
    assert "Name a lexicon (1 to 40 characters)." in page
    assert table_rows(app) == before
