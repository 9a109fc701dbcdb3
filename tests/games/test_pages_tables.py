"""The tables' pages through the test client (CSRF off): a table of people who play
together, its games started from it, the rematch, and putting tables and games away.

The phone that started a table (or opened its edit link) may change it and start its
games; any other phone sees its page read-only and gets 403 on every change, with
nothing written.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from urllib.parse import urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from companion.store.db import db
from companion.store.models import Game, Group, Member, Player
from tests.games.test_pages_games import message, new_game_form, round_form, shows


def text(resp) -> str:
    return html.unescape(resp.get_data(as_text=True))


def table_form(name: str, members: Sequence[str], alternate: bool = False, ids=()) -> dict:
    """The fields of a table's form: its name, rows of names (with the member id of each
    row that stands for one), the bonus box (sent only when ticked, as a browser does)."""
    data = {"name": name}
    for i, n in enumerate(members):
        data[f"members-{i}-name"] = n
        if i < len(ids) and ids[i] is not None:
            data[f"members-{i}-member"] = str(ids[i])
    if alternate:
        data["alternate_bonus"] = "y"
    return data


def groups(app: Flask) -> list[tuple]:
    with app.app_context():
        return [
            (g.name, g.alternate_bonus, g.archived, [(m.position, m.name) for m in g.members])
            for g in db.session.scalars(select(Group).order_by(Group.created_at))
        ]


def members(app: Flask, group_id: str) -> list[tuple[int, int, str]]:
    with app.app_context():
        return [
            (m.id, m.position, m.name)
            for m in db.session.scalars(
                select(Member).where(Member.group_id == group_id).order_by(Member.position)
            )
        ]


def seats(app: Flask, game_id: str) -> list[tuple[int, str, int | None]]:
    with app.app_context():
        return [
            (p.seat, p.name, p.member_id)
            for p in db.session.scalars(
                select(Player).where(Player.game_id == game_id).order_by(Player.seat)
            )
        ]


def game_row(app: Flask, game_id: str) -> Game:
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert game is not None
        db.session.expunge(game)
        return game


def start_table(client: FlaskClient, name: str = "Sunday family", people=("Ann", "Ben", "Cy"),
                alternate: bool = False) -> str:  # fmt: skip
    resp = client.post("/tables/new", data=table_form(name, people, alternate))
    assert resp.status_code == 302, text(resp)[:500]
    location = urlsplit(resp.headers["Location"])
    assert location.query == "created=1"
    return location.path.removeprefix("/tables/")


def start_game(client: FlaskClient, table: str, names: Sequence[str], **rules: str) -> str:
    data = new_game_form(names, **rules)
    data["table"] = table
    resp = client.post("/games/new", data=data)
    assert resp.status_code == 302, text(resp)[:800]
    return urlsplit(resp.headers["Location"]).path.removeprefix("/games/")


SHORT_4_6 = {"hands": "short", "hands_first": "4", "hands_last": "6"}
ONE_ROUND = {"hands": "short", "hands_first": "3", "hands_last": "3"}
"""A game of one round of three cards: finished once that round is closed."""


def finish(client: FlaskClient, game_id: str, words: Sequence[str]) -> None:
    """Enter the one round (the first player goes out) and close it."""
    resp = client.post(
        f"/games/{game_id}/rounds/1",
        data=round_form(list(words), [""] * len(words), went_out="0"),
    )
    assert resp.status_code == 302, text(resp)[:800]
    assert client.post(f"/games/{game_id}/rounds/1/close").status_code == 302


@pytest.fixture
def table(client: FlaskClient) -> str:
    return start_table(client)


# --- a new table -------------------------------------------------------------------------


def test_a_new_table_is_stored_and_its_page_shows_both_links_once(app, client):
    assert client.get("/tables/new").status_code == 200
    data = table_form("  Sunday family ", ["Ann", "", " Ben ", "Cy"], alternate=True)
    data["members-12-name"] = "Dora"  # a row under "More rows"
    resp = client.post("/tables/new", data=data)
    assert resp.status_code == 302
    location = urlsplit(resp.headers["Location"])
    group_id = location.path.removeprefix("/tables/")
    assert groups(app) == [
        ("Sunday family", True, False, [(0, "Ann"), (1, "Ben"), (2, "Cy"), (3, "Dora")])
    ]
    page = text(client.get(f"{location.path}?{location.query}"))
    assert "Table started" in page
    assert f"http://localhost/tables/{group_id}" in page
    assert f"http://localhost/tables/{group_id}/edit/" in page
    assert page.count("<svg") >= 2
    again = text(client.get(location.path))
    assert "Table started" not in again
    assert "Ann, Ben, Cy, Dora" in again
    assert f'href="/games/new?table={group_id}"' in again
    assert f'<a href="/tables/{group_id}/export.csv">CSV</a>' in again
    assert f'<a href="/tables/{group_id}/export.json">JSON</a>' in again


@pytest.mark.parametrize(
    ("data", "code", "params", "field"),
    [
        (table_form("", ["Ann", "Ben"]), "table_name_missing", {}, "name"),
        (table_form("x" * 61, ["Ann", "Ben"]), "table_name_too_long", {"most": 60}, "name"),
        (table_form("Sun\x07day", ["Ann", "Ben"]), "table_name_unprintable", {}, "name"),
        (
            table_form("Solo", ["Ann"]),
            "member_count",
            {"count": 1, "least": 2, "most": 20},
            "members",
        ),
        (
            table_form("Twins", ["Ann", "", "ann"]),
            "name_twice",
            {"name": "ann"},
            "members-2-name",
        ),
    ],
)
def test_a_new_table_refused_shows_why_by_the_box(app, client, data, code, params, field):
    resp = client.post("/tables/new", data=data)
    page = shows(resp, 422, code, **params)
    assert f'id="{field}-error"' in page
    assert groups(app) == []


def test_the_table_join_link_gives_the_edit_right(app, client, table):
    other = app.test_client()
    page = text(other.get(f"/tables/{table}"))
    assert "View only" in page and "Change the table" not in page
    token = text(client.get(f"/tables/{table}?created=1")).split(f"/tables/{table}/edit/")[1]
    token = token.split('"')[0]
    assert other.get(f"/tables/{table}/edit/wrong").status_code == 403
    resp = other.get(f"/tables/{table}/edit/{token}")
    assert resp.status_code == 302 and resp.headers["Location"] == f"/tables/{table}"
    page = text(other.get(f"/tables/{table}"))
    assert "Change the table" in page


# --- members -----------------------------------------------------------------------------


def test_members_renamed_added_and_removed(app, client, table):
    (ann, _, _), (ben, _, _), (cy, _, _) = members(app, table)
    data = table_form(
        "Sunday best", ["Anna", "", "Cy", "Dora"], alternate=True, ids=[ann, ben, cy]
    )  # Ben cleared: taken off; Dora new
    resp = client.post(f"/tables/{table}", data=data)
    assert resp.status_code == 302
    assert members(app, table)[:2] == [(ann, 0, "Anna"), (cy, 1, "Cy")]
    assert [(p, n) for _, p, n in members(app, table)] == [(0, "Anna"), (1, "Cy"), (2, "Dora")]
    assert groups(app)[0][:3] == ("Sunday best", True, False)
    assert "The table is saved." in text(client.get(f"/tables/{table}"))


def test_a_member_who_played_cant_be_removed(app, client, table, rows):
    (ann, _, _), (ben, _, _), (cy, _, _) = members(app, table)
    start_game(client, table, ["Ann", "Ben"])
    before = rows()
    resp = client.post(
        f"/tables/{table}", data=table_form("Sunday", ["Ann", "", "Cy"], ids=[ann, ben, cy])
    )
    page = shows(resp, 422, "member_played", name="Ben")
    assert 'id="members-error"' in page
    assert rows() == before
    # A member who never played goes.
    resp = client.post(
        f"/tables/{table}", data=table_form("Sunday", ["Ann", "Ben"], ids=[ann, ben])
    )
    assert resp.status_code == 302
    assert [n for _, _, n in members(app, table)] == ["Ann", "Ben"]


def test_an_unknown_member_id_is_refused(app, client, table, rows):
    before = rows()
    resp = client.post(
        f"/tables/{table}", data=table_form("Sunday", ["Ann", "Ben"], ids=[999999, None])
    )
    page = shows(resp, 422, "no_such_member", member=999999)
    assert 'id="members-0-name-error"' in page
    assert rows() == before


# --- games of a table --------------------------------------------------------------------


def test_a_new_game_of_a_table_seats_its_members_and_guests(app, client, table):
    (ann, _, _), (ben, _, _), (cy, _, _) = members(app, table)
    page = text(client.get(f"/games/new?table={table}"))
    assert 'value="Ann"' in page and 'value="Ben"' in page and 'value="Cy"' in page
    assert f'<input id="table" name="table" type="hidden" value="{table}">' in page
    game_id = start_game(
        client, table, ["cy", "Guest", "Ann"], min_word="letters", bonus="15", **SHORT_4_6
    )
    assert seats(app, game_id) == [(0, "cy", cy), (1, "Guest", None), (2, "Ann", ann)]
    game = game_row(app, game_id)
    assert game.group_id == table
    # The next game's form: the rules of the latest game.
    page = text(client.get(f"/games/new?table={table}"))
    assert '<input id="rules-bonus" name="rules-bonus" type="number" value="15">' in page
    assert '<option selected value="letters">2 letters</option>' in page
    assert 'name="rules-hands_first" type="number" value="4">' in page
    assert 'name="rules-hands_last" type="number" value="6">' in page
    # The game's page links to its table, for every phone; the table's page lists the game.
    link = f'<a href="/tables/{table}" id="table-link">Table: Sunday family</a>'
    assert link in text(client.get(f"/games/{game_id}"))
    viewer = app.test_client()
    assert link in text(viewer.get(f"/games/{game_id}"))
    data = table_form("Sunday best", ["Ann", "Ben", "Cy"], ids=[ann, ben, cy])
    assert client.post(f"/tables/{table}", data=data).status_code == 302
    renamed = f'<a href="/tables/{table}" id="table-link">Table: Sunday best</a>'
    assert renamed in text(viewer.get(f"/games/{game_id}"))  # a kept page: not the old name
    listed = text(client.get(f"/tables/{table}"))
    assert "cy, Guest, Ann" in listed and "in progress: round 1 of 3" in listed
    assert ben not in [m for _, _, m in seats(app, game_id)]


def test_a_new_game_of_a_table_needs_its_edit_right(app, client, table, rows):
    other = app.test_client()
    shows(other.get(f"/games/new?table={table}"), 403, "table_link_needed")
    before = rows()
    data = new_game_form(["Ann", "Ben"])
    data["table"] = table
    shows(other.post("/games/new", data=data), 403, "table_link_needed")
    assert rows() == before
    shows(other.get("/games/new?table=nope"), 404, "no_such_table")


def test_the_rematch_of_a_two_player_game_alternates_the_bonus(app, client):
    table = start_table(client, "Pair", ["Ann", "Ben"], alternate=True)
    (ann, _, _), (ben, _, _) = members(app, table)
    game_id = start_game(client, table, ["Ben", "Ann"], first_dealer="2", **ONE_ROUND)
    resp = client.post(f"/games/{game_id}/rematch")
    shows(resp, 422, "game_not_finished", closed=0, rounds=1)
    finish(client, game_id, ["cat", "dog"])
    page = text(client.get(f"/games/{game_id}"))
    assert "Rematch" in page
    resp = client.post(f"/games/{game_id}/rematch")
    assert resp.status_code == 302
    new_id = urlsplit(resp.headers["Location"]).path.removeprefix("/games/")
    assert new_id != game_id
    assert seats(app, new_id) == [(0, "Ben", ben), (1, "Ann", ann)]
    old, new = game_row(app, game_id), game_row(app, new_id)
    assert new.first_dealer == (old.first_dealer + 1) % 2 == 0
    assert old.rules["two_player_bonus"] == "longest"
    assert new.rules == {**old.rules, "two_player_bonus": "most"}
    assert new.group_id == table and old.rematch_id == new_id
    # This phone keeps the new game's edit right.
    assert "You can change this game on this phone." in text(client.get(f"/games/{new_id}"))
    # A second tap opens the same game.
    again = client.post(f"/games/{game_id}/rematch")
    assert again.status_code == 302
    assert urlsplit(again.headers["Location"]).path == f"/games/{new_id}"


def test_the_rematch_of_three_keeps_the_rules_and_moves_the_deal(app, client, table):
    game_id = start_game(client, table, ["Ann", "Ben", "Cy"], first_dealer="3", **ONE_ROUND)
    finish(client, game_id, ["cat", "dog", "pig"])
    resp = client.post(f"/games/{game_id}/rematch")
    new_id = urlsplit(resp.headers["Location"]).path.removeprefix("/games/")
    old, new = game_row(app, game_id), game_row(app, new_id)
    assert (old.first_dealer, new.first_dealer) == (2, 0)
    assert new.rules == old.rules
    assert [s[1:] for s in seats(app, new_id)] == [s[1:] for s in seats(app, game_id)]


def test_a_rematch_needs_the_edit_right(app, client, table, rows):
    game_id = start_game(client, table, ["Ann", "Ben"], **ONE_ROUND)
    finish(client, game_id, ["cat", "dog"])
    other = app.test_client()
    assert "Rematch" not in text(other.get(f"/games/{game_id}"))
    before = rows()
    shows(other.post(f"/games/{game_id}/rematch"), 403, "edit_link_needed")
    shows(other.post("/games/nope/rematch"), 404, "no_such_game")
    assert rows() == before


# --- archive and delete ------------------------------------------------------------------


def test_archived_games_and_tables_leave_the_home_page(app, client, table):
    game_id = start_game(client, table, ["Ann", "Ben"])
    page = text(client.get("/"))
    assert page.index("Sunday family") < page.index("Ann, Ben")
    assert client.post(f"/games/{game_id}/archive").status_code == 302
    assert game_row(app, game_id).archived is True
    page = text(client.get("/"))
    assert "Ann, Ben</span>" not in page and "Sunday family" in page
    assert client.post(f"/games/{game_id}/unarchive").status_code == 302
    assert "Ann, Ben</span>" in text(client.get("/"))
    assert client.post(f"/tables/{table}/archive").status_code == 302
    assert groups(app)[0][2] is True
    assert "Sunday family" not in text(client.get("/"))
    assert "archived" in text(client.get(f"/tables/{table}"))
    assert client.post(f"/tables/{table}/unarchive").status_code == 302
    assert "Sunday family" in text(client.get("/"))


def test_deleting_a_game_asks_first(app, client, table):
    game_id = start_game(client, table, ["Ann", "Ben"])
    confirm = client.post(f"/games/{game_id}/delete")
    assert confirm.status_code == 200
    assert "Delete the game of Ann and Ben?" in text(confirm)
    assert game_row(app, game_id).id == game_id
    resp = client.post(f"/games/{game_id}/delete", data={"confirm": "yes"})
    assert resp.status_code == 302 and resp.headers["Location"] == f"/tables/{table}"
    with app.app_context():
        assert db.session.get(Game, game_id) is None
    assert client.get(f"/games/{game_id}").status_code == 404
    assert "No games yet." in text(client.get(f"/tables/{table}"))


def test_deleting_a_table_leaves_its_games_on_their_own(app, client, table):
    game_id = start_game(client, table, ["Ann", "Ben"])
    confirm = client.post(f"/tables/{table}/delete")
    assert confirm.status_code == 200
    assert "Delete the table Sunday family?" in text(confirm)
    assert len(groups(app)) == 1
    resp = client.post(f"/tables/{table}/delete", data={"confirm": "yes"})
    assert resp.status_code == 302 and resp.headers["Location"] == "/"
    assert groups(app) == []
    with app.app_context():
        assert db.session.scalars(select(Member)).all() == []
    assert seats(app, game_id) == [(0, "Ann", None), (1, "Ben", None)]
    assert game_row(app, game_id).group_id is None
    assert client.get(f"/tables/{table}").status_code == 404
    assert client.get(f"/games/{game_id}").status_code == 200


def test_a_viewer_is_refused_every_change(app, client, table, rows):
    game_id = start_game(client, table, ["Ann", "Ben"])
    other = app.test_client()
    before = rows()
    for url in (
        f"/tables/{table}",
        f"/tables/{table}/archive",
        f"/tables/{table}/unarchive",
        f"/tables/{table}/delete",
    ):
        shows(other.post(url, data=table_form("X", ["A", "B"])), 403, "table_link_needed")
    for url in (f"/games/{game_id}/archive", f"/games/{game_id}/delete"):
        shows(other.post(url, data={"confirm": "yes"}), 403, "edit_link_needed")
    assert rows() == before


@pytest.mark.parametrize(
    "url",
    [
        "/tables/nope",
        "/tables/nope/edit/token",
        "/tables/no%00pe",
    ],
)
def test_an_unknown_table_is_not_found(client, url):
    shows(client.get(url), 404, "no_such_table")


@pytest.mark.parametrize("tail", ["", "/archive", "/unarchive", "/delete"])
def test_a_write_to_an_unknown_table_is_not_found(client, tail):
    shows(client.post(f"/tables/nope{tail}"), 404, "no_such_table")


def test_the_home_page_lists_tables_first(app, client):
    other = app.test_client()
    assert '<a href="/tables/new" id="new-table-link">Tables</a>' in text(other.get("/"))
    table = start_table(client)
    page = text(client.get("/"))
    assert "Sunday family" in page and "Ann, Ben, Cy · 0 games" in page
    assert page.index("Sunday family") < page.index("<h2>Games</h2>")
    assert "Sunday family" not in text(other.get("/"))
    other.get(f"/tables/{table}")  # opened with the view link
    assert "Sunday family" in text(other.get("/"))
    start_game(client, table, ["Ann", "Ben"])
    start_game(client, table, ["Ann", "Cy"])
    assert "Ann, Ben, Cy · 2 games" in text(client.get("/"))  # counted by the database
    assert message("table_link_needed")  # the catalog has it


# --- records -----------------------------------------------------------------------------


def test_the_table_page_shows_its_records_and_each_players(app, client):
    table = start_table(client, "Pair", ["Ann", "Ben", "Cy"])
    (ann, _, _), (ben, _, _), (cy, _, _) = members(app, table)
    page = text(client.get(f"/tables/{table}"))
    assert "The records count finished games: none yet." in page
    game_id = start_game(client, table, ["Ann", "Guest", "Ben"], **ONE_ROUND)
    # Ann CAT 13 (goes out), Guest PIG 16, Ben DOG 13.
    finish(client, game_id, ["cat", "pig", "dog"])
    page = " ".join(text(client.get(f"/tables/{table}")).split())
    assert "From 1 finished game." in page
    game_link = f'<a href="/games/{game_id}">'
    assert f"<dt>Best round</dt><dd>13 points · Ann · {game_link}round 1</a></dd>" in page
    assert f"<dt>Best game</dt><dd>13 points · Ann · {game_link}the game</a></dd>" in page
    assert (
        '<dt>Best word</dt><dd><span class="cards"><span class="card">C<sub>8</sub></span>'
        '<span class="card">A<sub>2</sub></span><span class="card">T<sub>3</sub></span></span>'
        f' <span class="feat-what">13 points · Ann · {game_link}round 1</a></span></dd>'
    ) in page
    assert f'<a href="/tables/{table}/players/{cy}">Cy</a>' in page
    assert "<dt>Games</dt><dd>1</dd> <dt>Wins</dt><dd>0</dd>" in page  # the guest won
    assert "<dt>Average round</dt><dd>13.0</dd>" in page
    assert "<dt>Challenges</dt><dd>0 made, 0 won</dd>" in page

    player = " ".join(text(client.get(f"/tables/{table}/players/{ann}")).split())
    assert "<h1>Ann</h1>" in player
    assert "From 1 finished game of the table." in player
    assert "<li><strong>Ben</strong>: ahead 0, behind 0, level 1</li>" in player
    assert "<li><strong>Cy</strong>: ahead 0, behind 0, level 0</li>" in player
    # Anyone with the view link reads the records.
    assert client.get(f"/tables/{table}/players/{ben}").status_code == 200
    assert app.test_client().get(f"/tables/{table}/players/{ben}").status_code == 200


def test_a_player_page_of_no_such_member_is_not_found(app, client, table):
    other = start_table(client, "Other", ["Dora", "Eve"])
    (dora, _, _), _ = members(app, other)
    shows(client.get(f"/tables/{table}/players/{dora}"), 404, "no_such_member", member=dora)
    shows(client.get("/tables/nope/players/1"), 404, "no_such_table")


# --- the session cookie ------------------------------------------------------------------


def test_table_rights_fit_the_cookie_and_seen_tables_give_way_first(app):
    from flask import session

    from companion.web import access
    from tests.games.test_session_cookie import cookie_length, new_id

    tables, tables_seen, seen, edits = [], [], [], []
    with app.test_request_context():
        for _ in range(access.KEPT + 5):
            tables.append((new_id(), new_id()))
            edits.append((new_id(), new_id()))
            tables_seen.append(new_id())
            seen.append(new_id())
            access.remember_table(*tables[-1])
            access.remember(*edits[-1])
            access.remember_table_seen(tables_seen[-1])
            access.remember_seen(seen[-1])
            assert cookie_length(app) <= access.COOKIE_BUDGET
        held = [t for t, token in tables if access.held_table_token(t) == token]
        assert held == [t for t, _ in tables[-access.KEPT :]]  # 20 tables and 20 games fit
        assert [g for g, token in edits if access.held_token(g) == token] == [
            g for g, _ in edits[-access.KEPT :]
        ]
        # The tables only opened here go first, then the games only opened here.
        tables_left, seen_left = session.get("tables_seen", []), session.get("seen", [])
        assert len(tables_left) + len(seen_left) < 2 * access.KEPT  # some gave way
        assert not tables_left or len(seen_left) == access.KEPT
        assert access.tables_here() == set(held) | set(tables_left)


def test_the_page_lists_the_newest_games_and_all_of_them_a_tap_away(client, table) -> None:
    started = [start_game(client, table, ["Ann", "Ben"]) for _ in range(22)]
    page = text(client.get(f"/tables/{table}"))
    listed = re.findall(r'<a class="game-link" href="/games/([\w-]+)"', page)
    assert listed == started[::-1][:20]  # the newest first
    assert "Show all 22 games" in page
    every = text(client.get(f"/tables/{table}?games=all"))
    assert re.findall(r'<a class="game-link" href="/games/([\w-]+)"', every) == started[::-1]
    assert "Show all" not in every


def test_records_still_worked_out_say_so_and_ask_again(app, client, table, monkeypatch) -> None:
    """A table whose games are not worked out yet (an import, a first opening after an
    upgrade) shows what it has and says how many games are still to come; the page asks
    again by itself (records.js) until none is."""
    from companion.actions import records
    from companion.store.cache import cache

    for _ in range(2):
        game = start_game(client, table, ["Ann", "Ben"], **ONE_ROUND)
        finish(client, game, ["cat", "dog"])
    records._kept.clear()
    with app.app_context():
        cache.clear()
    monkeypatch.setattr(records, "WORK_BUDGET", 0.0)  # one game a request
    first = text(client.get(f"/tables/{table}"))
    assert "1 game is still being worked out and isn't counted yet" in first
    assert "data-records-pending" in first and "/static/records.js" in first
    assert "From 1 finished game." in first
    second = text(client.get(f"/tables/{table}"))
    assert "still being worked out" not in second and "records.js" not in second
    assert "From 2 finished games." in second


def test_a_table_form_filled_before_another_phones_change_undoes_nothing(
    app, client, table
) -> None:
    """Phone A opens the table's form; phone B (the edit link too) adds Dora. A's form,
    sent now, would take Dora off (it lists Ann, Ben, Cy): it is refused as a change made
    meanwhile, nothing stored changes, A's page keeps what A typed and shows the people
    as they are now; sent again, it is A's choice and is saved."""
    ids = [m for m, _, _ in members(app, table)]
    page = text(client.get(f"/tables/{table}"))
    version = re.search(r'id="version" name="version" type="hidden" value="(\d+)"', page)
    assert version is not None
    other = app.test_client()
    token = re.search(r"/tables/[\w-]+/edit/([\w-]+)", page)
    assert token is not None
    other.get(f"/tables/{table}/edit/{token[1]}")
    stored = table_form("Sunday family", ["Ann", "Ben", "Cy", "Dora"], ids=[*ids, None])
    stored["version"] = version[1]
    assert other.post(f"/tables/{table}", data=stored).status_code == 302
    before = groups(app)
    mine = table_form("Sundays", ["Ann", "Ben", "Cyril"], ids=ids)
    mine["version"] = version[1]
    refused = client.post(f"/tables/{table}", data=mine)
    assert refused.status_code == 409
    shown = text(refused)
    assert "The table was just changed on another phone" in shown
    assert 'value="Cyril"' in shown and 'value="Sundays"' in shown  # nothing typed is lost
    assert "Ann, Ben, Cy, Dora" in shown  # the people as they are now
    assert groups(app) == before
    again = re.search(r'id="version" name="version" type="hidden" value="(\d+)"', shown)
    assert again is not None and int(again[1]) == int(version[1]) + 1
    mine["version"] = again[1]
    assert client.post(f"/tables/{table}", data=mine).status_code == 302
    assert groups(app) == [("Sundays", False, False, [(0, "Ann"), (1, "Ben"), (2, "Cyril")])]
