"""The Alembic migrations: an empty database goes to head and back to base, head is exactly
the models' schema, old rows survive an upgrade, and starting the app on a database at head
changes nothing.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import flask_migrate
import pytest
import sqlalchemy as sa
from alembic.script import ScriptDirectory
from flask import Flask

from companion import MIGRATIONS, create_app
from companion.store.db import db

GAME_TABLES = {"game", "player", "round", "entry", "challenge", "house_word"}


def make_app(path: Path, lexicon_cache: Path, migrate: bool) -> Flask:
    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
            "DATABASE_URL": f"sqlite:///{path / 'games.sqlite3'}",
            "LEXICON_DIR": str(path / "lexicons"),
            "LEXICON_CACHE_DIR": str(lexicon_cache),
            "AUTO_MIGRATE": migrate,
        }
    )


@pytest.fixture
def bare(tmp_path: Path, lexicon_cache: Path) -> Flask:
    """An app on an empty database file, not migrated."""
    return make_app(tmp_path, lexicon_cache, migrate=False)


def tables() -> set[str]:
    return set(sa.inspect(db.engine).get_table_names())


def columns(table: str) -> set[str]:
    return {c["name"] for c in sa.inspect(db.engine).get_columns(table)}


def revision() -> str | None:
    with db.engine.connect() as conn:
        return conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()


def chain() -> list[str]:
    """The revisions from base to head, in order."""
    script = ScriptDirectory(str(MIGRATIONS))
    return [r.revision for r in reversed(list(script.walk_revisions()))]


def test_revisions_form_one_line_from_0001():
    revisions = chain()
    assert revisions[0] == "0001"
    assert len(ScriptDirectory(str(MIGRATIONS)).get_heads()) == 1
    assert revisions == sorted(revisions)


def model_tables() -> set[str]:
    return {t.name for t in db.metadata.sorted_tables}


def assert_head_is_the_models_schema() -> None:
    """Same tables, columns and indexes as the models declare."""
    assert tables() == model_tables() | {"alembic_version"}
    inspector = sa.inspect(db.engine)
    for table in db.metadata.sorted_tables:
        assert columns(table.name) == {c.name for c in table.columns}, table.name
        assert {i["name"] for i in inspector.get_indexes(table.name)} == {
            i.name for i in table.indexes
        }, table.name


def test_upgrade_to_head_and_downgrade_to_base(bare: Flask):
    directory = str(MIGRATIONS)
    revisions = chain()
    with bare.app_context():
        assert model_tables() >= GAME_TABLES
        assert tables() == set()

        flask_migrate.upgrade(directory=directory, revision="0001")
        assert tables() == GAME_TABLES | {"alembic_version"}
        assert revision() == "0001"
        assert "challenges_made" not in columns("round")

        flask_migrate.upgrade(directory=directory, revision="0002")
        assert revision() == "0002"
        assert "challenges_made" in columns("round")
        assert GAME_TABLES | {"alembic_version"} <= tables()

        flask_migrate.upgrade(directory=directory)
        assert revision() == revisions[-1]
        assert_head_is_the_models_schema()

        # Down one revision at a time, back to base.
        for rev in reversed(revisions[:-1]):
            flask_migrate.downgrade(directory=directory, revision=rev)
            assert revision() == rev
            assert GAME_TABLES | {"alembic_version"} <= tables()
        assert tables() == GAME_TABLES | {"alembic_version"}
        assert "challenges_made" not in columns("round")

        flask_migrate.downgrade(directory=directory, revision="base")
        assert tables() == {"alembic_version"}
        assert revision() is None

        flask_migrate.upgrade(directory=directory)  # and up again from base
        assert revision() == revisions[-1]
        assert_head_is_the_models_schema()


def test_upgrade_keeps_a_game_stored_before_challenge_numbers_were_counted(bare: Flask):
    """A round of a 0001 database whose challenges are 1 and 3 (2 was withdrawn) gets no
    number used twice after the upgrade: the next challenge is 4."""
    token = "old-token"
    with bare.app_context():
        flask_migrate.upgrade(directory=str(MIGRATIONS), revision="0001")
        now = "2026-01-01 12:00:00.000000"
        rows = [
            (
                "INSERT INTO game (id, edit_token_hash, first_dealer, rules, version, created_at, "
                "updated_at) VALUES (:id, :hash, 0, :rules, 7, :now, :now)",
                {
                    "id": "old-game",
                    "hash": hashlib.sha256(token.encode()).hexdigest(),
                    "rules": json.dumps({"lexicon": "standard"}),
                    "now": now,
                },
            ),
            (
                "INSERT INTO player (game_id, seat, name) VALUES ('old-game', 0, 'Ann'), "
                "('old-game', 1, 'Ben'), ('old-game', 2, 'Cy')",
                {},
            ),
            (
                "INSERT INTO round (id, game_id, number, closed, version) "
                "VALUES (1, 'old-game', 1, 0, 5)",
                {},
            ),
            (
                "INSERT INTO entry (round_id, seat, words, unused, went_out) VALUES "
                "(1, 0, :cat, '[]', 1), (1, 1, :dog, '[]', 0), (1, 2, :ox, :m, 0)",
                {
                    "cat": json.dumps([["c", "a", "t"]]),
                    "dog": json.dumps([["d", "o", "g"]]),
                    "ox": json.dumps([["o", "x"]]),
                    "m": json.dumps(["m"]),
                },
            ),
            (
                "INSERT INTO challenge (round_id, number, by_seat, player_seat, word, legal, "
                "decided_by, reason, lexicon, created_at) VALUES "
                "(1, 1, 1, 2, 0, 1, 'dictionary', 'in dictionary', 'standard', :now), "
                "(1, 3, 2, 0, 0, 0, 'table', 'the table ruled it not legal', 'standard', :now)",
                {"now": now},
            ),
        ]
        with db.engine.begin() as conn:
            for sql, params in rows:
                conn.execute(sa.text(sql), params)
        flask_migrate.upgrade(directory=str(MIGRATIONS))
        with db.engine.connect() as conn:
            made = conn.execute(sa.text("SELECT challenges_made FROM round")).scalar()
        assert made == 3

    client = bare.test_client()
    auth = {"Authorization": f"Bearer {token}"}
    data = client.get("/api/v1/games/old-game").get_json()
    # Ben paid 14 for OX; Ann's CAT was struck (-13 -> 0), so Ben's DOG is the longest word:
    # Ben 13 + 10 - 14 = 9; Cy 14 - 5 = 9.
    assert [p["score"] for p in data["rounds"][0]["result"]["players"]] == [0, 9, 9]
    assert [c["n"] for c in data["rounds"][0]["result"]["challenges"]] == [1, 3]
    resp = client.post(
        "/api/v1/games/old-game/rounds/1/challenges",
        headers=auth,
        json={"by": "Ann", "player": "Ben", "word": 0, "ruling": "legal"},
    )
    assert resp.status_code == 200, resp.get_data(as_text=True)
    assert resp.get_json()["ruling"]["n"] == 4


def test_create_app_on_a_database_at_head_keeps_everything(tmp_path: Path, lexicon_cache: Path):
    first = make_app(tmp_path, lexicon_cache, migrate=True)
    client = first.test_client()
    created = client.post("/api/v1/games", json={"players": ["Ann", "Ben"], "first_dealer": 1})
    assert created.status_code == 201
    game_id, token = created.get_json()["id"], created.get_json()["edit_token"]
    resp = client.put(
        f"/api/v1/games/{game_id}/rounds/1",
        headers={"Authorization": f"Bearer {token}"},
        json={
            "players": [{"name": "Ann", "words": ["c-a-t"]}, {"name": "Ben", "words": ["d-o-g"]}]
        },
    )
    assert resp.status_code == 200
    before = client.get(f"/api/v1/games/{game_id}").get_json()
    with first.app_context():
        head = revision()
        counts = {
            t: db.session.execute(sa.text(f"SELECT COUNT(*) FROM {t}")).scalar()
            for t in sorted(GAME_TABLES)
        }
    assert counts == {
        "challenge": 0,
        "entry": 2,
        "game": 1,
        "house_word": 0,
        "player": 2,
        "round": 1,
    }

    second = make_app(tmp_path, lexicon_cache, migrate=True)  # upgrade at start: a no-op
    with second.app_context():
        assert revision() == head == chain()[-1]
        assert {
            t: db.session.execute(sa.text(f"SELECT COUNT(*) FROM {t}")).scalar()
            for t in sorted(GAME_TABLES)
        } == counts
    again = second.test_client()
    assert again.get(f"/api/v1/games/{game_id}").get_json() == before
    # The edit token still works with the new app.
    resp = again.post(
        f"/api/v1/games/{game_id}/rounds/1/close",
        json={},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert resp.status_code == 200


def test_0004_turns_stored_reason_sentences_into_codes_and_back(bare: Flask):
    """Rulings stored as English sentences become reason codes (an unknown sentence by who
    decided and how), the API shows them in words with their code, and a downgrade writes
    the sentences again."""
    sentences = [
        (1, "dictionary", "in dictionary", "in_dictionary"),
        (0, "dictionary", "proper noun", "proper_noun"),
        (0, "dictionary", "prefix or suffix", "affix"),
        (0, "table", "the table ruled it not legal", "table_illegal"),
        (1, "table", "the table ruled it legal", "table_legal"),
        (0, "dictionary", "something an old version never wrote", "not_in_dictionary"),
    ]
    with bare.app_context():
        flask_migrate.upgrade(directory=str(MIGRATIONS), revision="0003")
        now = "2026-01-01 12:00:00.000000"
        with db.engine.begin() as conn:
            conn.execute(
                sa.text(
                    "INSERT INTO game (id, edit_token_hash, first_dealer, rules, version, "
                    "created_at, updated_at) VALUES ('g', 'h', 0, '{}', 1, :now, :now)"
                ),
                {"now": now},
            )
            conn.execute(
                sa.text(
                    "INSERT INTO round (id, game_id, number, closed, version, challenges_made) "
                    "VALUES (1, 'g', 1, 0, 1, 6)"
                )
            )
            for n, (legal, by, reason, _) in enumerate(sentences, start=1):
                conn.execute(
                    sa.text(
                        "INSERT INTO challenge (round_id, number, by_seat, player_seat, word, "
                        "legal, decided_by, reason, lexicon, created_at) VALUES "
                        "(1, :n, 0, 1, 0, :legal, :by, :reason, 'standard', :now)"
                    ),
                    {"n": n, "legal": legal, "by": by, "reason": reason, "now": now},
                )
        flask_migrate.upgrade(directory=str(MIGRATIONS), revision="0004")
        assert "reason" not in columns("challenge")
        with db.engine.connect() as conn:
            codes = conn.execute(
                sa.text("SELECT reason_code FROM challenge ORDER BY number")
            ).scalars()
            assert list(codes) == [code for *_, code in sentences]

        flask_migrate.downgrade(directory=str(MIGRATIONS), revision="0003")
        assert "reason_code" not in columns("challenge")
        with db.engine.connect() as conn:
            back = conn.execute(sa.text("SELECT reason FROM challenge ORDER BY number")).scalars()
            assert list(back)[:5] == [reason for _, _, reason, _ in sentences[:5]]


OLD_HANDS = {
    1: [
        {"name": "Ann", "words": [["c", "a", "t"]], "unused": [], "went_out": True},
        {"name": "Ben", "words": [["d", "o", "g"]], "unused": [], "went_out": False},
        {"name": "Cy", "words": [["o", "x"]], "unused": ["m"], "went_out": False},
    ],
    2: [
        {"name": "Ann", "words": [["qu", "i", "z"]], "unused": ["m"], "went_out": False},
        {"name": "Ben", "words": [["t", "o", "p"]], "unused": ["a"], "went_out": False},
        {"name": "Cy", "words": [["j", "a", "b", "s"]], "unused": [], "went_out": True},
    ],
}
"""A game of 0004: round 1 closed (Ben challenged Cy's OX, the table ruled it legal),
round 2 entered and open."""


def insert_0004_game(token: str) -> None:
    """The rows of that game as revision 0004 stored them."""
    now = "2026-01-01 12:00:00.000000"
    rules = {
        "min_word": "cards",
        "two_player_bonus": "longest",
        "bonus": 10,
        "zero_floor": True,
        "false_out_penalty": 0,
        "lexicon": "standard",
    }
    with db.engine.begin() as conn:
        conn.execute(
            sa.text(
                "INSERT INTO game (id, edit_token_hash, first_dealer, rules, version, created_at, "
                "updated_at) VALUES ('old', :hash, 0, :rules, 5, :now, :now)"
            ),
            {
                "hash": hashlib.sha256(token.encode()).hexdigest(),
                "rules": json.dumps(rules),
                "now": now,
            },
        )
        conn.execute(
            sa.text(
                "INSERT INTO player (game_id, seat, name) VALUES ('old', 0, 'Ann'), "
                "('old', 1, 'Ben'), ('old', 2, 'Cy')"
            )
        )
        conn.execute(
            sa.text(
                "INSERT INTO round (id, game_id, number, closed, version, challenges_made) "
                "VALUES (1, 'old', 1, 1, 3, 1), (2, 'old', 2, 0, 1, 0)"
            )
        )
        for number, hands in OLD_HANDS.items():
            for seat, hand in enumerate(hands):
                conn.execute(
                    sa.text(
                        "INSERT INTO entry (round_id, seat, words, unused, went_out) "
                        "VALUES (:round, :seat, :words, :unused, :out)"
                    ),
                    {
                        "round": number,
                        "seat": seat,
                        "words": json.dumps(hand["words"]),
                        "unused": json.dumps(hand["unused"]),
                        "out": hand["went_out"],
                    },
                )
        conn.execute(
            sa.text(
                "INSERT INTO challenge (round_id, number, by_seat, player_seat, word, legal, "
                "decided_by, reason_code, lexicon, created_at) VALUES "
                "(1, 1, 1, 2, 0, 1, 'table', 'table_legal', 'standard', :now)"
            ),
            {"now": now},
        )


def without_id(data: dict) -> dict:
    return {k: v for k, v in data.items() if k != "id"}


def test_0005_keeps_a_game_of_0004_unclaimed_at_version_1_and_back(bare: Flask):
    """A game stored at 0004 opens at head, scores and exports exactly as the same game
    entered fresh through the API, every seat unclaimed and every hand at version 1; its
    seats then work; and the downgrade to 0004 keeps its rows."""
    token = "old-token"
    with bare.app_context():
        flask_migrate.upgrade(directory=str(MIGRATIONS), revision="0004")
        insert_0004_game(token)
        flask_migrate.upgrade(directory=str(MIGRATIONS))
        assert revision() == chain()[-1]
        with db.engine.connect() as conn:
            assert (
                conn.execute(sa.text("SELECT seat_token_hash, claimed_at FROM player")).all()
                == [(None, None)] * 3
            )
            assert conn.execute(sa.text("SELECT version FROM entry")).scalars().all() == [1] * 6

    client = bare.test_client()
    auth = {"Authorization": f"Bearer {token}"}
    assert client.get("/games/old").status_code == 200
    assert client.get("/games/old/rounds/1").status_code == 200
    assert client.get("/games/old/rounds/2").status_code == 200
    old = client.get("/api/v1/games/old")
    assert old.status_code == 200
    data = old.get_json()
    assert [p["claimed"] for p in data["players"]] == [False, False, False]
    assert [p["total"] for p in data["players"]] == [13, 0, 9]  # Ben paid OX's 14: 13 - 14 -> 0
    rounds = data["rounds"]
    assert [[p["score"] for p in r["result"]["players"]] for r in rounds[:2]] == [
        [13, 0, 9],
        [20, 9, 26],  # QU-I-Z 25 - M 5; TOP 11 - A 2; JABS 26 (QUIZ and JABS tie: no bonus)
    ]
    seat_versions = [[s["version"] for s in r["seats"]] for r in rounds[:3]]
    assert seat_versions == [[1, 1, 1], [1, 1, 1], [0, 0, 0]]
    assert [s["entered"] for s in rounds[1]["seats"]] == [True, True, True]
    assert rounds[0]["result"]["challenges"][0]["code"] == "table_legal"

    # The same game entered fresh: the same JSON (but its id) and the same CSV.
    made = client.post("/api/v1/games", json={"players": ["Ann", "Ben", "Cy"]})
    assert made.status_code == 201
    fresh_id = made.get_json()["id"]
    fresh = {"Authorization": f"Bearer {made.get_json()['edit_token']}"}
    for number in (1, 2):
        resp = client.put(
            f"/api/v1/games/{fresh_id}/rounds/{number}",
            json={"players": OLD_HANDS[number]},
            headers=fresh,
        )
        assert resp.status_code == 200, resp.get_data(as_text=True)
        if number == 1:
            challenge = {"by": "Ben", "player": "Cy", "word": 0, "ruling": "legal"}
            url = f"/api/v1/games/{fresh_id}/rounds/1/challenges"
            assert client.post(url, json=challenge, headers=fresh).status_code == 200
            close = f"/api/v1/games/{fresh_id}/rounds/1/close"
            assert client.post(close, json={}, headers=fresh).status_code == 200
    assert without_id(client.get(f"/api/v1/games/{fresh_id}").get_json()) == without_id(data)
    old_csv = client.get("/games/old/export.csv")
    assert old_csv.status_code == 200
    assert old_csv.get_data() == client.get(f"/games/{fresh_id}/export.csv").get_data()
    assert old_csv.get_data(as_text=True).splitlines()[1:4] == [
        "1,0,Ann,c-a-t,13,,0,0,0,0,0,13,13,13,yes",
        "1,1,Ben,d-o-g,13,,0,0,0,14,0,-1,0,0,yes",
        "1,2,Cy,o-x,14,m,5,0,0,0,0,9,9,9,yes",
    ]
    old_json = client.get("/games/old/export.json")
    assert old_json.status_code == 200
    assert without_id(json.loads(old_json.get_data())) == without_id(data)

    # Its seats work: a phone claims Ann's and saves her hand of round 2 from version 1.
    claimed = client.post("/api/v1/games/old/seats/0/claim", json={})
    assert claimed.status_code == 201
    seat = {"Authorization": f"Bearer {claimed.get_json()['seat_token']}", "If-Match": '"1"'}
    resp = client.put(
        "/api/v1/games/old/rounds/2/seats/0",
        json={"words": [["qu", "i", "z"]], "unused": ["n"]},
        headers=seat,
    )
    assert resp.status_code == 200, resp.get_data(as_text=True)
    assert resp.get_json()["version"] == 2
    closed = client.post("/api/v1/games/old/rounds/2/close", json={}, headers=auth)
    assert closed.status_code == 200

    with bare.app_context():
        flask_migrate.downgrade(directory=str(MIGRATIONS), revision="0004")
        assert revision() == "0004"
        assert {"seat_token_hash", "claimed_at"}.isdisjoint(columns("player"))
        assert "version" not in columns("entry")
        with db.engine.connect() as conn:
            assert conn.execute(
                sa.text(
                    "SELECT r.number, e.seat, e.words, e.unused FROM entry e "
                    "JOIN round r ON r.id = e.round_id WHERE r.game_id = 'old' "
                    "ORDER BY r.number, e.seat"
                )
            ).all()[3:] == [
                (2, 0, '[["qu", "i", "z"]]', '["n"]'),
                (2, 1, '[["t", "o", "p"]]', '["a"]'),
                (2, 2, '[["j", "a", "b", "s"]]', "[]"),
            ]
            assert conn.execute(
                sa.text(
                    "SELECT c.by_seat, c.player_seat, c.reason_code FROM challenge c "
                    "JOIN round r ON r.id = c.round_id WHERE r.game_id = 'old'"
                )
            ).all() == [(1, 2, "table_legal")]
        db.engine.dispose()


def game_indexes() -> set[str]:
    with db.engine.connect() as conn:
        return {i["name"] for i in sa.inspect(conn).get_indexes("game")}


def test_0006_indexes_when_games_changed_and_back(bare: Flask):
    """The servers ask twice a second which games changed: 0006 indexes ``updated_at``
    (the question stays an index lookup with many games stored); 0005 drops it again."""
    with bare.app_context():
        flask_migrate.upgrade(directory=str(MIGRATIONS), revision="0005")
        assert "ix_game_updated_at" not in game_indexes()
        flask_migrate.upgrade(directory=str(MIGRATIONS), revision="0006")
        assert "ix_game_updated_at" in game_indexes()
        flask_migrate.downgrade(directory=str(MIGRATIONS), revision="0005")
        assert "ix_game_updated_at" not in game_indexes()


def test_0008_drops_the_shared_views_and_keeps_every_game(bare: Flask):
    """Views are no longer kept in the database: 0008 drops ``shared_page`` (a cache,
    nothing a player entered); a downgrade makes it again, empty."""
    with bare.app_context():
        flask_migrate.upgrade(directory=str(MIGRATIONS), revision="0007")
        assert "shared_page" in tables()
        flask_migrate.upgrade(directory=str(MIGRATIONS), revision="0008")
        assert "shared_page" not in tables()
        assert tables() >= GAME_TABLES
        flask_migrate.downgrade(directory=str(MIGRATIONS), revision="0007")
        assert "shared_page" in tables()


def test_0010_keeps_a_game_of_0009_on_its_own_and_back(bare: Flask):
    """A game stored before tables existed belongs to none, is not archived and has no
    rematch; its players sat as guests. Down again, the game is as it was."""
    with bare.app_context():
        flask_migrate.upgrade(directory=str(MIGRATIONS), revision="0009")
        with db.engine.begin() as conn:
            conn.execute(
                sa.text(
                    "INSERT INTO game (id, edit_token_hash, first_dealer, rules, version,"
                    " created_at, updated_at) VALUES ('g1', 'h', 0, '{}', 3,"
                    " '2026-01-01 10:00:00', '2026-01-01 11:00:00')"
                )
            )
            conn.execute(
                sa.text(
                    "INSERT INTO player (game_id, seat, name, handicap) VALUES"
                    " ('g1', 0, 'Ann', 0), ('g1', 1, 'Ben', 5)"
                )
            )
        flask_migrate.upgrade(directory=str(MIGRATIONS), revision="0010")
        assert {"groups", "member"} <= tables()
        with db.engine.connect() as conn:
            game = conn.execute(
                sa.text("SELECT group_id, archived, rematch_id, version FROM game")
            ).one()
            players = conn.execute(
                sa.text("SELECT name, handicap, member_id FROM player ORDER BY seat")
            ).all()
        assert tuple(game) == (None, False, None, 3)
        assert [tuple(p) for p in players] == [("Ann", 0, None), ("Ben", 5, None)]
        flask_migrate.downgrade(directory=str(MIGRATIONS), revision="0009")
        assert not {"groups", "member"} & tables()
        assert "group_id" not in columns("game") and "member_id" not in columns("player")
        with db.engine.connect() as conn:
            assert conn.execute(sa.text("SELECT id, version FROM game")).one() == ("g1", 3)


def test_0011_keeps_no_photos_of_a_game_of_0010_and_back(bare: Flask):
    """A game stored before photos were kept keeps none (``keep_photos`` false) and has
    none; a photo kept goes with its game (ON DELETE CASCADE). Down again, the photos go
    and the game is as it was."""
    with bare.app_context():
        flask_migrate.upgrade(directory=str(MIGRATIONS), revision="0010")
        assert "round_photo" not in tables()
        with db.engine.begin() as conn:
            conn.execute(
                sa.text(
                    "INSERT INTO game (id, edit_token_hash, first_dealer, rules, version,"
                    " created_at, updated_at, archived) VALUES ('g1', 'h', 0, '{}', 3,"
                    " '2026-01-01 10:00:00', '2026-01-01 11:00:00', false)"
                )
            )
        flask_migrate.upgrade(directory=str(MIGRATIONS), revision="0011")
        assert "round_photo" in tables()
        with db.engine.begin() as conn:
            assert conn.execute(sa.text("SELECT keep_photos, version FROM game")).one() == (
                False,
                3,
            )
            conn.execute(
                sa.text(
                    "INSERT INTO round_photo (game_id, round_number, seat, jpeg, size,"
                    " taken_at) VALUES ('g1', 1, 0, :jpeg, 3, '2026-01-01 10:30:00')"
                ),
                {"jpeg": b"\xff\xd8\xff"},
            )
            with pytest.raises(sa.exc.IntegrityError), conn.begin_nested():  # one per hand
                conn.execute(
                    sa.text(
                        "INSERT INTO round_photo (game_id, round_number, seat, jpeg,"
                        " size, taken_at) VALUES ('g1', 1, 0, :jpeg, 3,"
                        " '2026-01-01 10:31:00')"
                    ),
                    {"jpeg": b"\xff\xd8\xff"},
                )
        flask_migrate.downgrade(directory=str(MIGRATIONS), revision="0010")
        assert "round_photo" not in tables()
        assert "keep_photos" not in columns("game")
        with db.engine.connect() as conn:
            assert conn.execute(sa.text("SELECT id, version FROM game")).one() == ("g1", 3)
        flask_migrate.upgrade(directory=str(MIGRATIONS), revision="0011")
        with db.engine.begin() as conn:
            conn.execute(
                sa.text(
                    "INSERT INTO round_photo (game_id, round_number, seat, jpeg, size,"
                    " taken_at) VALUES ('g1', 2, 1, :jpeg, 3, '2026-01-01 10:30:00')"
                ),
                {"jpeg": b"\xff\xd8\xff"},
            )
            conn.execute(sa.text("DELETE FROM game WHERE id = 'g1'"))
            assert conn.execute(sa.text("SELECT count(*) FROM round_photo")).scalar() == 0
