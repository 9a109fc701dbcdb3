"""The stored-game API: every route, every refusal, and that a refusal writes nothing.

A refusal is checked four ways: the status, a fragment of the message a player reads,
the ``where`` that points at the field, and an unchanged game (the JSON of
``GET /api/v1/games/<id>``, its ``version`` included, and every row of the database).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import func, select

from companion.store.db import db
from companion.store.models import Challenge, Entry, Game, HouseWord, Round


def hand(
    name: str, words: Sequence[object] = (), unused: Sequence[str] = (), went_out: bool = False
) -> dict[str, object]:
    return {"name": name, "words": list(words), "unused": list(unused), "went_out": went_out}


def round_one() -> list[dict]:
    """Round 1 (3 cards): Ann CAT 8+2+3 = 13 (out), Ben DOG 5+2+6 = 13, Cy OX 2+12 = 14 - M 5."""
    return [
        hand("Ann", ["c-a-t"], went_out=True),
        hand("Ben", ["d-o-g"]),
        hand("Cy", ["o-x"], ["m"]),
    ]


def round_two() -> list[dict]:
    """Round 2 (4 cards): Ann QU-I-Z 25 - M 5 = 20, Ben TOP 11 - A 2 = 9, Cy JABS 26."""
    return [
        hand("Ann", [["qu", "i", "z"]], ["m"]),
        hand("Ben", ["t-o-p"], ["a"]),
        hand("Cy", ["j-a-b-s"], went_out=True),
    ]


def scores(round_json: dict) -> list[int]:
    return [p["score"] for p in round_json["result"]["players"]]


def game_count(app: Flask) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(Game))


# --- creating a game ---------------------------------------------------------------------


def test_create_answers_the_links_and_stores_the_game(app, client, new_game):
    game = new_game(players=["Ann", "Ben", "Cy"], first_dealer=1)
    assert set(game.created) == {"id", "edit_token", "view_url", "edit_url"}
    assert game.created["view_url"].endswith(f"/games/{game.id}")
    assert game.created["edit_url"].endswith(f"/games/{game.id}/edit/{game.token}")
    assert client.get(game.created["view_url"]).status_code == 200

    data = game.get()
    assert data["id"] == game.id
    assert data["players"] == [
        {"name": "Ann", "seat": 0, "total": 0, "rank": 1, "claimed": False, "handicap": 0},
        {"name": "Ben", "seat": 1, "total": 0, "rank": 1, "claimed": False, "handicap": 0},
        {"name": "Cy", "seat": 2, "total": 0, "rank": 1, "claimed": False, "handicap": 0},
    ]
    assert data["rules"] == {
        "hands": [3, 4, 5, 6, 7, 8, 9, 10],
        "min_word": "cards",
        "two_player_bonus": "longest",
        "bonus": 10,
        "floor": "round",
        "leftover_penalty": True,
        "false_out_penalty": 0,
        "challenge_ruling": "dictionary",
        "proper_nouns": False,
        "lexicon": "standard",
    }
    assert data["lexicon"] == "standard"
    assert [r["number"] for r in data["rounds"]] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert [r["hand_size"] for r in data["rounds"]] == [3, 4, 5, 6, 7, 8, 9, 10]
    # first_dealer 1: Ben deals round 1 and Cy, on his left, plays first.
    assert (data["rounds"][0]["dealer"], data["rounds"][0]["first_player"]) == ("Ben", "Cy")
    assert all(not r["closed"] and not r["entered"] and r["result"] is None for r in data["rounds"])
    assert (data["next_round"], data["next_dealer"]) == (1, "Ben")
    assert (data["finished"], data["winners"], data["house_words"]) == (False, [], [])
    assert data["version"] == 1

    with app.app_context():
        stored = db.session.get(Game, game.id)
        # The edit token is kept only as its SHA-256.
        assert stored.edit_token_hash == hashlib.sha256(game.token.encode()).hexdigest()
        assert game.token not in repr(stored.__dict__)
        assert [(p.seat, p.name) for p in stored.players] == [(0, "Ann"), (1, "Ben"), (2, "Cy")]
        assert stored.first_dealer == 1


def own_lexicon(app: Flask, name: str, words: str) -> None:
    """A group's own word list, as ``instance/lexicons/NAME.txt``."""
    folder = Path(app.config["LEXICON_DIR"])
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.txt").write_text("\n".join(words.split()) + "\n", encoding="utf-8")


def test_create_stores_the_house_rules(app, new_game):
    own_lexicon(app, "family", "cat dog zax")
    rules = {
        "hands": [10, 9, 8, 7, 6],
        "min_word": "letters",
        "two_player_bonus": "both",
        "bonus": 15,
        "floor": "before_bonus",
        "leftover_penalty": False,
        "false_out_penalty": 5,
        "challenge_ruling": "majority",
        "proper_nouns": True,
        "lexicon": "family",
    }
    game = new_game(players=["Ann", "Ben"], rules=rules)
    data = game.get()
    assert data["rules"] == rules
    assert data["lexicon"] == "family"
    with app.app_context():
        assert db.session.get(Game, game.id).rules == rules


def test_the_games_own_lexicon_decides_its_challenges(app, new_game):
    own_lexicon(app, "family", "cat zax")
    game = new_game(rules={"lexicon": "family"})
    # Round 1: Ann CAT 13 (out); Ben ZAX 14+2+12 = 28; Cy OX 14 - M 5 = 9.
    game.enter(
        1,
        [hand("Ann", ["c-a-t"], went_out=True), hand("Ben", ["z-a-x"]), hand("Cy", ["o-x"], ["m"])],
    )
    zax = game.challenged(1, "Ann", "Ben", 0)["ruling"]  # not in the standard lexicon
    assert (zax["legal"], zax["decided_by"], zax["reason"]) == (True, "dictionary", "in dictionary")
    ox = game.challenged(1, "Ben", "Cy", 0)["ruling"]  # in standard, not in the family list
    assert (ox["legal"], ox["reason"]) == (False, "not in dictionary")
    # Ann pays 28 for ZAX: 13 - 28 -> 0. OX struck: Cy -(2+12+5) -> 0. CAT and ZAX tie at
    # 3 letters: no bonus; Ben 28.
    assert scores(game.round(1)) == [0, 28, 0]
    with app.app_context():
        assert {c.lexicon for c in db.session.scalars(select(Challenge))} == {"family"}


def test_create_trims_names(new_game):
    game = new_game(players=["  Ann ", "Ben"])
    assert [p["name"] for p in game.get()["players"]] == ["Ann", "Ben"]


NINE = [f"P{i}" for i in range(9)]


CREATE_REFUSALS = [
    ({"players": ["Ann"]}, 422, "players", "player_count", {"count": 1, "least": 2, "most": 8}),
    ({"players": NINE}, 422, "players", "player_count", {"count": 9, "least": 2, "most": 8}),
    ({"players": []}, 422, "players", "player_count", {"count": 0, "least": 2, "most": 8}),
    ({"players": ["Ann", "Ben", "ann"]}, 422, "players[2]", "name_twice", {"name": "ann"}),
    ({"players": ["Ann", " Ann "]}, 422, "players[1]", "name_twice", {"name": "Ann"}),
    ({"players": ["Ann", ""]}, 422, "players[1]", "name_missing", {"seat": 2}),
    ({"players": ["   ", "Ben"]}, 422, "players[0]", "name_missing", {"seat": 1}),
    ({"players": ["Ann", "B" * 41]}, 422, "players[1]", "name_too_long", {"seat": 2, "most": 40}),
    ({"players": "Ann, Ben"}, 400, "players", "names_list", {}),
    ({"players": ["Ann", 7]}, 400, "players", "names_list", {}),
    ({"first_dealer": 0}, 400, "players", "names_list", {}),
    ({"players": ["Ann", "Ben"], "first_dealer": 2}, 422, "first_dealer", "first_dealer_range",
     {"seats": 2}),
    ({"players": ["Ann", "Ben"], "first_dealer": -1}, 422, "first_dealer", "first_dealer_range",
     {"seats": 2}),
    ({"players": ["Ann", "Ben"], "first_dealer": "1"}, 400, "first_dealer", "first_dealer_seat",
     {}),
    ({"players": ["Ann", "Ben"], "first_dealer": 1.0}, 400, "first_dealer", "first_dealer_seat",
     {}),
    ({"players": ["Ann", "Ben"], "first_dealer": True}, 400, "first_dealer", "first_dealer_seat",
     {}),
    ({"players": ["Ann", "Ben"], "rules": {"bonsu": 5}}, 400, "rules.bonsu", "unknown_field",
     {"field": "bonsu"}),
    ({"players": ["Ann", "Ben"], "rules": {"bonus": -1}}, 422, "rules.bonus", "points_range",
     {"most": 1000}),
    ({"players": ["Ann", "Ben"], "rules": {"min_word": "words"}}, 422, "rules.min_word",
     "choice_unknown", {"choices": ["cards", "letters", "one_card"]}),
    ({"players": ["Ann", "Ben"], "rules": "house"}, 400, "rules", "not_an_object", {}),
    ({"players": ["Ann", "Ben"], "rules": {"lexicon": "klingon"}}, 422, "rules.lexicon",
     "unknown_lexicon", {"name": "klingon"}),
    ({"players": ["Ann", "Ben"], "dealer": 0}, 400, "dealer", "unknown_field", {"field": "dealer"}),
    (["Ann", "Ben"], 400, "", "not_an_object",
     {"keys": ["players", "first_dealer", "rules", "handicap"]}),
]  # fmt: skip


def test_create_refusals_store_nothing(app, client, rows, refused, subtests):
    before = rows()
    for body, status, where, code, params in CREATE_REFUSALS:
        with subtests.test(body=body):
            refused(client.post("/api/v1/games", json=body), status, where, code, **params)
            assert game_count(app) == 0
            assert rows() == before


def test_create_refuses_a_body_that_is_not_json(app, client, refused):
    resp = client.post("/api/v1/games", data="players=Ann,Ben", content_type="application/json")
    refused(resp, 400, "", "bad_json")
    assert game_count(app) == 0


# --- reading a game ----------------------------------------------------------------------


def test_unknown_game_is_404_on_every_route(client, new_game, refused):
    other = new_game()  # a real token, of another game
    auth = other.auth
    base = "/api/v1/games/no-such-game"
    calls = [
        client.get(base),
        client.put(f"{base}/rounds/1", json={"players": round_one()}, headers=auth),
        client.post(
            f"{base}/rounds/1/challenges",
            json={"by": "Ann", "player": "Ben", "word": 0},
            headers=auth,
        ),
        client.delete(f"{base}/rounds/1/challenges/1", json={}, headers=auth),
        client.post(f"{base}/rounds/1/close", json={}, headers=auth),
        client.post(f"{base}/rounds/1/reopen", json={}, headers=auth),
        client.put(f"{base}/house-words/zax", json={"allowed": True}, headers=auth),
        client.delete(f"{base}/house-words/zax", json={}, headers=auth),
    ]
    for resp in calls:
        refused(resp, 404, "", "no_such_game")
    assert other.get()["version"] == 1


def test_get_has_an_etag_and_answers_304_until_the_game_changes(client, new_game):
    game = new_game()
    first = client.get(game.url())
    assert first.status_code == 200
    tag = first.headers["ETag"]
    assert tag == f'"{game.id}-1-en-{game.app.config["BUILD"]}"'
    assert first.headers["Cache-Control"] == "no-cache"

    again = client.get(game.url(), headers={"If-None-Match": tag})
    assert again.status_code == 304
    assert again.get_data() == b""
    assert again.headers["ETag"] == tag

    game.enter(1, round_one())
    changed = client.get(game.url(), headers={"If-None-Match": tag})
    assert changed.status_code == 200
    assert changed.headers["ETag"] == f'"{game.id}-2-en-{game.app.config["BUILD"]}"'
    assert changed.get_json()["version"] == 2
    assert changed.get_json()["rounds"][0]["entered"] is True
    assert (
        client.get(game.url(), headers={"If-None-Match": changed.headers["ETag"]}).status_code
        == 304
    )


def test_etag_of_another_game_is_not_a_match(client, new_game):
    one, two = new_game(), new_game()
    tag = client.get(one.url()).headers["ETag"]
    assert client.get(two.url(), headers={"If-None-Match": tag}).status_code == 200


# --- the edit token ----------------------------------------------------------------------


WRITES = [
    # (method, tail, body, what must be in place for the call to succeed with the token)
    ("put", "/rounds/1", {"players": round_one()}, "empty"),
    ("post", "/rounds/1/challenges", {"by": "Ann", "player": "Ben", "word": 0}, "open"),
    ("delete", "/rounds/1/challenges/1", {}, "challenged"),
    ("post", "/rounds/1/close", {}, "open"),
    ("post", "/rounds/1/reopen", {}, "closed"),
    ("put", "/house-words/zax", {"allowed": True}, "open"),
    ("delete", "/house-words/blorp", {}, "open"),
]

NO_RIGHT = {
    "no header": {},
    "wrong token": {"Authorization": "Bearer not-the-token"},
    "empty bearer": {"Authorization": "Bearer "},
    "token without scheme": "TOKEN",
    "basic scheme": "Basic TOKEN",
    "other game's token": "OTHER",
}


@pytest.mark.parametrize(
    ("method", "tail", "body", "setup"), WRITES, ids=[f"{m} {t}" for m, t, _, _ in WRITES]
)
def test_every_write_needs_the_edit_token(client, new_game, refused, method, tail, body, setup):
    game = new_game()
    other = new_game()
    game.house_word("blorp", True)
    if setup != "empty":
        game.enter(1, round_one())
    if setup == "challenged":
        game.challenged(1, "Ann", "Ben", 0, "legal")
    if setup == "closed":
        game.close(1)
    send = getattr(client, method)
    kwargs = {"json": body} if body is not None else {}
    with game.unchanged():  # none of the refused requests below writes anything
        for label, headers in NO_RIGHT.items():
            if headers == "OTHER":
                headers = other.auth
            elif isinstance(headers, str):
                headers = {"Authorization": headers.replace("TOKEN", game.token)}
            resp = send(game.url(tail), headers=headers, **kwargs)
            assert resp.status_code == 403, label
            refused(resp, 403, "", "edit_link_needed")
    # The same request with the token is accepted: the 403 was about the token alone.
    version = game.get()["version"]
    assert send(game.url(tail), headers=game.auth, **kwargs).status_code == 200
    assert game.get()["version"] == version + 1


def test_reads_need_no_token(client, new_game):
    game = new_game()
    game.enter(1, round_one())
    viewer = client.application.test_client()
    assert viewer.get(game.url()).get_json() == game.get()


# --- entering a round --------------------------------------------------------------------


def test_put_round_scores_and_stores_the_entries(app, new_game):
    game = new_game(first_dealer=1)
    entered = game.enter(1, round_one())
    assert entered["number"] == 1
    assert (entered["dealer"], entered["first_player"]) == ("Ben", "Cy")
    assert (entered["closed"], entered["entered"], entered["went_out"]) == (False, True, "Ann")
    assert entered["version"] == 1
    players = entered["result"]["players"]
    assert [p["name"] for p in players] == ["Ann", "Ben", "Cy"]
    assert [p["word_points"] for p in players] == [13, 13, 14]
    assert [p["unused_points"] for p in players] == [0, 0, 5]
    # Everyone has one word (no most-words bonus); CAT and DOG tie at 3 letters (no longest).
    assert [p["bonus_most_words"] + p["bonus_longest_word"] for p in players] == [0, 0, 0]
    assert scores(entered) == [13, 13, 9]  # 13; 13; 14 - 5
    assert players[0]["words"] == [
        {"cards": ["c", "a", "t"], "text": "cat", "letters": 3, "value": 13, "struck": False}
    ]
    assert entered == game.round(1)

    with app.app_context():
        stored = db.session.scalars(select(Entry).order_by(Entry.seat)).all()
        assert [(e.seat, e.words, e.unused, e.went_out) for e in stored] == [
            (0, [["c", "a", "t"]], [], True),
            (1, [["d", "o", "g"]], [], False),
            (2, [["o", "x"]], ["m"], False),
        ]


def test_put_round_matches_names_in_any_case_and_order(app, new_game):
    game = new_game()
    entered = game.enter(
        1,
        [hand("cy", ["o-x"], ["m"]), hand("ANN", ["c-a-t"], went_out=True), hand("Ben", ["d-o-g"])],
    )
    assert [p["name"] for p in entered["result"]["players"]] == ["Ann", "Ben", "Cy"]
    assert scores(entered) == [13, 13, 9]
    with app.app_context():
        assert [
            (e.seat, e.words) for e in db.session.scalars(select(Entry).order_by(Entry.seat))
        ] == [(0, [["c", "a", "t"]]), (1, [["d", "o", "g"]]), (2, [["o", "x"]])]


def test_put_round_again_replaces_the_entries(app, new_game):
    game = new_game()
    game.enter(1, round_one())
    fixed = round_one()
    fixed[1] = hand("Ben", ["d-i-g"])  # DIG 5+2+6 = 13
    fixed[2] = hand("Cy", ["a-x"], ["m"])  # AX 2+12 = 14, M 5: still 9
    entered = game.enter(1, fixed, if_match='"1"')
    assert entered["version"] == 2
    assert [w["text"] for p in entered["result"]["players"] for w in p["words"]] == [
        "cat",
        "dig",
        "ax",
    ]
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Entry)) == 3
        assert db.session.scalar(select(func.count()).select_from(Round)) == 1
    # Challenges sent with a replacement replace the ones kept with the round.
    game.challenged(1, "Ben", "Cy", 0)
    data = game.enter(
        1, fixed, challenges=[{"by": "Cy", "player": "Ann", "word": 0, "ruling": "illegal"}]
    )
    assert [(c["by"], c["text"], c["n"]) for c in data["result"]["challenges"]] == [
        ("Cy", "cat", 2)
    ]  # numbers are never reused: challenge 1 was Ben's
    # CAT struck: Ann -13 -> 0; Ben's DIG (3 letters) now beats AX: 13 + 10; Cy 14 - 5.
    assert scores(data) == [0, 23, 9]


def test_each_write_bumps_the_game_and_round_versions_by_one(new_game):
    game = new_game()
    versions = [(game.get()["version"], game.round(1)["version"])]
    game.enter(1, round_one())
    versions.append((game.get()["version"], game.round(1)["version"]))
    game.challenged(1, "Ben", "Cy", 0)
    versions.append((game.get()["version"], game.round(1)["version"]))
    game.close(1)
    versions.append((game.get()["version"], game.round(1)["version"]))
    game.reopen(1)
    versions.append((game.get()["version"], game.round(1)["version"]))
    game.house_word("zax", True)  # a house word is the game's, not the round's
    versions.append((game.get()["version"], game.round(1)["version"]))
    assert versions == [(1, 0), (2, 1), (3, 2), (4, 3), (5, 4), (6, 4)]


def bad_count() -> list[dict]:
    players = round_one()
    players[1] = hand("Ben", ["d-o-g"], ["e"])
    return players


def not_a_player() -> list[dict]:
    players = round_one()
    players[2] = hand("Dan", ["o-x"], ["m"])
    return players


def twice() -> list[dict]:
    players = round_one()
    players[2] = hand("ann", ["o-x"], ["m"])
    return players


def three_zeds() -> list[dict]:
    return [hand("Ann", ["z-a-x"]), hand("Ben", ["z-e-e"]), hand("Cy", ["z-o-o"])]


def lone_card() -> list[dict]:
    return [hand("Ann", ["a-t", "e"]), hand("Ben", ["d-o-g"]), hand("Cy", ["o-x"], ["m"])]


def not_a_card() -> list[dict]:
    players = round_one()
    players[2] = hand("Cy", ["o-x"], ["ñ"])
    return players


ROUND_REFUSALS = {
    "card count": (
        bad_count(),
        422,
        "players[1]",
        "hand_size",
        {"player": "Ben", "have": 4, "round": 1, "need": 3},
    ),
    "player missing": (round_one()[:2], 422, "players", "players_missing", {"names": ["Cy"]}),
    "not a player": (
        not_a_player(),
        422,
        "players[2].name",
        "not_a_player",
        {"name": "Dan", "names": ["Ann", "Ben", "Cy"]},
    ),
    "player twice": (twice(), 422, "players[2].name", "player_twice", {"name": "Ann"}),
    "deck copies": (
        three_zeds(),
        422,
        "players[2].words[0][0]",
        "deck_copies",
        {"card": "z", "copies": 2, "count": 3},
    ),
    "one-card word": (
        lone_card(),
        422,
        "players[0].words[1]",
        "word_one_card",
        {"player": "Ann", "card": "e"},
    ),
    "not a card": (not_a_card(), 422, "players[2].unused[0]", "not_a_card", {"card": "\u00f1"}),
    "words not a list": (
        [hand("Ann", ["c-a-t"]), {"name": "Ben", "words": "dog"}, hand("Cy", ["o-x"], ["m"])],
        400,
        "players[1].words",
        "words_list",
        {},
    ),
}


def test_round_refusals_write_nothing(new_game, refused, subtests):
    game = new_game()
    for label, (players, status, where, code, params) in ROUND_REFUSALS.items():
        with subtests.test(label), game.unchanged():
            refused(game.put_round(1, players), status, where, code, **params)
    assert game.round(1)["entered"] is False


def test_a_refused_replacement_keeps_what_was_saved(new_game, refused):
    game = new_game()
    game.enter(1, round_one())
    game.challenged(1, "Ben", "Cy", 0)
    with game.unchanged():
        refused(
            game.put_round(1, bad_count()), 422, "players[1]", "hand_size", player="Ben", have=4
        )
    assert scores(game.round(1)) == [13, 0, 9]  # Ben 13 - 14 for challenging OX = -1 -> 0


def test_where_points_at_the_request_entry_when_players_are_sent_out_of_seat_order(
    new_game, refused
):
    game = new_game()
    players = [hand("Ben", ["d-o-g"]), hand("Ann", ["c-a-t"], ["m"]), hand("Cy", ["o-x"], ["m"])]
    with game.unchanged():
        # Ann is players[1] of this request, though she sits in seat 0.
        refused(game.put_round(1, players), 422, "players[1]", "hand_size", player="Ann", have=4)
    players = [hand("Cy", ["o-x"], ["m"]), hand("Ann", ["c-a-t"]), hand("Ben", ["d-o", "g"])]
    with game.unchanged():
        refused(game.put_round(1, players), 422, "players[2].words[1]", "word_one_card", card="g")


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ({"players": round_one(), "rules": {"bonus": 0}}, "rules"),
        ({"players": round_one(), "round": 1}, "round"),
    ],
)
def test_round_body_takes_no_rules_and_no_round(client, new_game, refused, body, where):
    game = new_game()
    with game.unchanged():
        resp = client.put(game.url("/rounds/1"), json=body, headers=game.auth)
        refused(resp, 400, where, "rules_from_address", field=where)


def test_round_body_must_be_json(client, new_game, refused):
    game = new_game()
    with game.unchanged():
        resp = client.put(
            game.url("/rounds/1"),
            data="{players",
            headers=game.auth,
            content_type="application/json",
        )
        refused(resp, 400, "", "bad_json")


def test_rounds_outside_1_to_8_are_404(new_game, refused):
    game = new_game()
    for number in (0, 9, 42):
        with game.unchanged():
            for resp in (
                game.put_round(number, round_one()),
                game.post(f"/rounds/{number}/close"),
                game.post(f"/rounds/{number}/reopen"),
                game.challenge(number, "Ann", "Ben", 0),
            ):
                refused(resp, 404, "", "no_such_round", number=number, rounds=8)


def test_rounds_are_entered_in_order(new_game, refused):
    game = new_game()
    with game.unchanged():  # round 1 not even entered
        refused(
            game.put_round(2, round_two()),
            422,
            "round",
            "previous_round_not_started",
            previous=1,
            number=2,
        )
    game.enter(1, round_one())
    with game.unchanged():  # round 1 entered but open
        refused(game.put_round(2, round_two()), 422, "round", "previous_round_open", previous=1)
    game.close(1)
    # One word each, QUIZ and JABS tie at 4 letters: no bonus. 25 - 5; 11 - 2; 26.
    assert scores(game.enter(2, round_two())) == [20, 9, 26]
    with game.unchanged():  # round 3 while round 2 is open
        refused(game.put_round(3, round_two()), 422, "round", "previous_round_open", previous=2)


def test_a_closed_round_cannot_change_until_reopened(new_game, refused):
    game = new_game()
    game.enter(1, round_one())
    game.challenged(1, "Ben", "Cy", 0, "illegal")  # challenge 1: OX struck by the table
    closed = game.close(1)
    assert closed["closed"] is True
    assert scores(closed) == [13, 13, 0]  # Cy: OX struck, O X M unused: -(2+12+5) = -19 -> 0
    assert game.get()["players"][2]["total"] == 0

    changed = round_one()
    changed[1] = hand("Ben", ["d-i-g"])
    with game.unchanged():
        refused(game.put_round(1, changed), 422, "round", "round_closed", number=1)
        refused(game.challenge(1, "Cy", "Ann", 0), 422, "round", "round_closed", number=1)
        resp = game.delete("/rounds/1/challenges/1")
        refused(resp, 422, "round", "round_closed", number=1)
        refused(game.post("/rounds/1/close"), 422, "round", "round_already_closed", number=1)

    reopened = game.reopen(1)
    assert reopened["closed"] is False
    data = game.get()
    assert [p["total"] for p in data["players"]] == [0, 0, 0]  # off the leaderboard again
    assert data["next_round"] == 1
    # The fix: the table's ruling on OX was wrong; withdraw it, then close again.
    resp = game.delete("/rounds/1/challenges/1")
    assert resp.status_code == 200
    assert scores(resp.get_json()) == [13, 13, 9]
    assert [p["total"] for p in game.get()["players"]] == [0, 0, 0]
    game.close(1)
    assert [p["total"] for p in game.get()["players"]] == [13, 13, 9]


def test_close_before_anything_is_entered_is_refused(new_game, refused):
    game = new_game()
    with game.unchanged():
        refused(
            game.post("/rounds/1/close"),
            422,
            "round",
            "round_empty",
            number=1,
        )
        refused(
            game.post("/rounds/5/close"),
            422,
            "round",
            "round_empty",
            number=5,
        )


def test_reopen_of_an_open_round_is_refused(new_game, refused):
    game = new_game()
    with game.unchanged():
        refused(game.post("/rounds/1/reopen"), 422, "round", "round_not_closed", number=1)
    game.enter(1, round_one())
    with game.unchanged():
        refused(game.post("/rounds/1/reopen"), 422, "round", "round_not_closed", number=1)


def test_close_puts_the_round_on_the_leaderboard(new_game):
    game = new_game(first_dealer=2)
    game.enter(1, round_one())
    assert [p["total"] for p in game.get()["players"]] == [0, 0, 0]  # open: not counted
    game.close(1)
    data = game.get()
    assert data["players"] == [
        {"name": "Ann", "seat": 0, "total": 13, "rank": 1, "claimed": False, "handicap": 0},
        {"name": "Ben", "seat": 1, "total": 13, "rank": 1, "claimed": False, "handicap": 0},
        {"name": "Cy", "seat": 2, "total": 9, "rank": 3, "claimed": False, "handicap": 0},
    ]
    assert (data["next_round"], data["next_dealer"]) == (2, "Ann")  # Cy dealt 1, Ann deals 2


# --- stale saves -------------------------------------------------------------------------


def test_stale_if_match_is_409_with_the_current_round(new_game, refused):
    game = new_game()
    saved = game.enter(1, round_one(), if_match='"0"')  # nothing saved yet: version 0
    assert saved["version"] == 1

    theirs = round_one()
    theirs[2] = hand("Cy", ["a-x"], ["m"])
    with game.unchanged():  # a second phone still showing version 0
        body = refused(
            game.put_round(1, theirs, if_match='"0"'),
            409,
            "",
            "round_changed",
            number=1,
        )
    assert set(body) == {"error", "where", "code", "params", "round"}
    assert body["round"] == game.round(1) == saved


def test_if_match_without_quotes_and_a_malformed_one(new_game, refused):
    game = new_game()
    with game.unchanged():
        refused(
            game.put_round(1, round_one(), if_match='"v0"'),
            400,
            "If-Match",
            "if_match",
        )
        refused(
            game.put_round(1, round_one(), if_match="7"),
            409,
            "",
            "round_changed",
            number=1,
        )
    assert game.enter(1, round_one(), if_match="0")["version"] == 1


# --- challenges --------------------------------------------------------------------------


def test_challenge_decided_by_the_dictionary_word_legal(app, new_game):
    game = new_game()
    game.enter(1, round_one())
    data = game.challenged(1, "Ben", "Cy", 0)
    definition = data["ruling"].pop("definition")
    assert (definition["text"], definition["part_of_speech"], definition["source"]) == (
        "an adult castrated bull of the genus Bos",
        "noun",
        "WordNet 3.0",
    )
    assert "definition" not in data["result"]["challenges"][0]  # only the new ruling has it
    assert data["ruling"] == {
        "by": "Ben",
        "player": "Cy",
        "word": 0,
        "text": "ox",
        "legal": True,
        "decided_by": "dictionary",
        "reason": "in dictionary",
        "code": "in_dictionary",
        "points": 14,
        "charged_to": "Ben",
        "decided": True,
        "n": 1,
    }
    assert scores(data) == [13, 0, 9]  # Ben pays OX 14: 13 - 14 = -1 -> 0
    assert data["result"]["players"][1]["challenge_penalty"] == 14
    assert data["result"]["players"][1]["total"] == -1
    assert data["version"] == 2
    with app.app_context():
        (row,) = db.session.scalars(select(Challenge)).all()
        assert (
            row.number,
            row.by_seat,
            row.player_seat,
            row.word,
            row.legal,
            row.decided_by,
            row.reason_code,
            row.lexicon,
        ) == (1, 1, 2, 0, True, "dictionary", "in_dictionary", "standard")


def test_challenge_decided_by_the_dictionary_word_struck(new_game):
    game = new_game()
    game.enter(1, [hand("Ann", ["t-o-p"]), hand("Ben", ["d-o-g"]), hand("Cy", ["o-x"], ["m"])])
    game.close(1)
    game.enter(
        2,
        [
            hand("Ann", ["t-o-p"], ["a"]),
            hand("Ben", ["d-o-g"], ["e"]),
            hand("Cy", ["j-a-b-s"], went_out=True),
        ],
    )
    game.close(2)
    # Round 3 (5 cards): Ann STEVE 3+3+2+11+2 = 21, out; Ben THERE 9+2+5+2 = 18 - A 2;
    # Cy FEZ 6+2+14 = 22 and IT 2+3 = 5.
    game.enter(
        3,
        [
            hand("Ann", ["s-t-e-v-e"], went_out=True),
            hand("Ben", [["th", "e", "r", "e"]], ["a"]),
            hand("Cy", ["f-e-z", "i-t"]),
        ],
    )
    data = game.challenged(3, "Cy", "Ann", 0)
    assert data["ruling"]["legal"] is False
    assert (data["ruling"]["decided_by"], data["ruling"]["reason"]) == ("dictionary", "proper noun")
    assert data["ruling"]["definition"] is None  # a name is not defined as a word
    assert data["ruling"]["charged_to"] == "Ann"
    ann, ben, cy = data["result"]["players"]
    assert ann["words"][0]["struck"] is True
    assert (ann["word_points"], ann["unused_points"], ann["total"]) == (0, 21, -21)
    # STEVE gone: Cy has the most words (2) and Ben the longest (THERE, 5 letters).
    assert (ben["bonus_longest_word"], cy["bonus_most_words"]) == (10, 10)
    assert scores(data) == [0, 26, 37]  # -21 -> 0; 18 - 2 + 10; 22 + 5 + 10


def test_challenge_decided_by_the_table(new_game):
    game = new_game()
    game.enter(1, [hand("Ann", ["c-a-t"]), hand("Ben", ["z-a-x"]), hand("Cy", ["o-x"], ["m"])])
    data = game.challenged(1, "Ann", "Ben", 0, "legal")
    assert {k: data["ruling"][k] for k in ("legal", "decided_by", "reason", "points")} == {
        "legal": True,
        "decided_by": "table",
        "reason": "the table ruled it legal",
        "points": 28,
    }  # ZAX 14+2+12
    # CAT and ZAX tie at 3 letters: no longest-word bonus. Ann 13 - 28 -> 0; Cy 14 - 5.
    assert scores(data) == [0, 28, 9]
    assert data["ruling"]["definition"] is None  # WordNet has no ZAX
    data = game.challenged(1, "Ben", "Ann", 0, "illegal")
    assert (data["ruling"]["legal"], data["ruling"]["reason"]) == (
        False,
        "the table ruled it not legal",
    )
    assert data["ruling"]["definition"]["part_of_speech"] == "noun"  # CAT: still a word
    # CAT struck: Ann -13 - 28 -> 0, and Ben's ZAX is now the longest word: 28 + 10.
    assert scores(data) == [0, 38, 9]


def test_no_definition_beside_a_name_the_table_refused(new_game):
    game = new_game()
    game.enter(1, [hand("Ann", ["f-t"], ["a"]), hand("Ben", ["z-a-x"]), hand("Cy", ["o-x"], ["m"])])
    data = game.challenged(1, "Ben", "Ann", 0, "illegal")
    # The table decided; the game's lexicon calls FT an abbreviation, and WordNet defines
    # "ft" (a foot): still none, lest the ruling define the abbreviation.
    assert data["ruling"]["code"] == "table_illegal"
    assert data["ruling"]["definition"] is None


def test_challenge_refusals_write_nothing(new_game, refused):
    game = new_game()
    game.enter(1, round_one())
    game.challenged(1, "Ben", "Cy", 0)
    cases = [
        (("Ann", "ann", 0), 422, "by", "challenge_own_word", {"player": "Ann"}),
        (("Ann", "Cy", 0), 422, "", "challenge_twice", {"player": "Cy", "word": "ox"}),
        (("Ann", "Ben", 1), 422, "word", "challenge_no_word", {"player": "Ben", "count": 1}),
        (("Ann", "Ben", -1), 422, "word", "challenge_no_word", {"player": "Ben"}),
        (("Dan", "Ben", 0), 422, "by", "challenger_unknown", {"name": "Dan"}),
        (("Ann", "Dan", 0), 422, "player", "challenged_unknown", {"name": "Dan"}),
    ]
    for (by, player, word), status, where, code, params in cases:
        with game.unchanged():
            refused(game.challenge(1, by, player, word), status, where, code, **params)
    with game.unchanged():
        resp = game.client.post(
            game.url("/rounds/1/challenges"),
            headers=game.auth,
            json={"by": "Ann", "player": "Ben", "word": 0, "why": "x"},
        )
        refused(resp, 400, "why", "unknown_field", field="why")


def test_challenge_of_a_round_not_entered(new_game, refused):
    game = new_game()
    with game.unchanged():
        refused(game.challenge(1, "Ann", "Ben", 0), 422, "round", "round_empty", number=1)


@pytest.mark.parametrize(
    ("body", "status", "where", "code"),
    [
        ({"player": "Ben", "word": 0}, 400, "by", "not_text"),
        (
            {"by": "Ann", "player": "Ben", "word": 0, "ruling": "maybe"},
            422,
            "ruling",
            "choice_unknown",
        ),
    ],
)
def test_malformed_challenge_points_at_the_field(new_game, refused, body, status, where, code):
    game = new_game()
    game.enter(1, round_one())
    with game.unchanged():
        resp = game.client.post(game.url("/rounds/1/challenges"), json=body, headers=game.auth)
        refused(resp, status, where, code)


def test_withdraw_a_challenge_rescoring_the_round(app, new_game, refused):
    game = new_game()
    game.enter(1, round_one())
    assert game.challenged(1, "Ben", "Cy", 0)["ruling"]["n"] == 1
    assert game.challenged(1, "Cy", "Ann", 0, "illegal")["ruling"]["n"] == 2
    # Ann's CAT struck: -13 -> 0. With CAT gone Ben's DOG (3 letters) beats Cy's OX (2):
    # Ben 13 + 10 longest - 14 for challenging OX = 9. Cy 14 - 5 = 9.
    assert scores(game.round(1)) == [0, 9, 9]
    resp = game.delete("/rounds/1/challenges/1")
    assert resp.status_code == 200
    assert scores(resp.get_json()) == [0, 23, 9]  # Ben no longer pays: 13 + 10
    assert [c["n"] for c in resp.get_json()["result"]["challenges"]] == [2]
    # Numbers stay stable: a new challenge after a withdrawal is number 3.
    assert game.challenged(1, "Ann", "Ben", 0, "legal")["ruling"]["n"] == 3
    with app.app_context():
        assert sorted(db.session.scalars(select(Challenge.number))) == [2, 3]

    with game.unchanged():
        for n in (1, 4):
            resp = game.delete(f"/rounds/1/challenges/{n}")
            refused(resp, 404, "", "no_such_challenge", number=1, n=n)
        resp = game.delete("/rounds/2/challenges/1")
        refused(resp, 404, "", "no_such_challenge", number=2, n=1)


def test_a_repeated_withdrawal_does_not_remove_another_challenge(new_game, refused):
    game = new_game()
    game.enter(1, round_one())
    first = game.challenged(1, "Ben", "Cy", 0)["ruling"]["n"]
    assert game.delete(f"/rounds/1/challenges/{first}").status_code == 200
    second = game.challenged(1, "Cy", "Ann", 0, "illegal")["ruling"]["n"]
    assert second == first + 1
    with game.unchanged():  # the same DELETE again, from a phone that did not see the change
        resp = game.delete(f"/rounds/1/challenges/{first}")
        refused(resp, 404, "", "no_such_challenge", number=1, n=first)


# --- house words -------------------------------------------------------------------------


def test_allowed_house_word_overrides_the_lexicon(app, new_game):
    game = new_game()
    data = game.house_word("Blorp", True)
    assert data["house_words"] == [{"word": "blorp", "allowed": True}]
    assert data["version"] == 2
    # Round 1 (3 cards)... BLORP needs 5: round 3 it is. Close rounds 1 and 2 first.
    game.enter(1, round_one())
    game.close(1)
    game.enter(2, round_two())
    game.close(2)
    game.enter(
        3,
        [
            hand("Ann", ["b-l-o-r-p"], went_out=True),
            hand("Ben", ["d-o-g"], ["e", "e"]),
            hand("Cy", ["c-a-t", "i-t"]),
        ],
    )
    ruling = game.challenged(3, "Ben", "Ann", 0)["ruling"]
    assert (ruling["legal"], ruling["decided_by"], ruling["reason"]) == (
        True,
        "dictionary",
        "house word",
    )
    assert (ruling["points"], ruling["charged_to"]) == (24, "Ben")  # BLORP 8+3+2+5+6
    with app.app_context():
        assert [(h.word, h.allowed) for h in db.session.scalars(select(HouseWord))] == [
            ("blorp", True)
        ]


def test_banned_house_word_makes_a_dictionary_word_illegal(new_game):
    game = new_game()
    game.house_word("cat", False)
    game.enter(1, round_one())
    data = game.challenged(1, "Ben", "Ann", 0)
    assert (data["ruling"]["legal"], data["ruling"]["decided_by"], data["ruling"]["reason"]) == (
        False,
        "dictionary",
        "banned house word",
    )
    # Ann's CAT struck: -13 -> 0; Ben's DOG is now the longest word: 13 + 10; Cy 14 - 5.
    assert scores(data) == [0, 23, 9]


def test_removing_a_house_word_lets_the_lexicon_decide_again(new_game, refused):
    game = new_game()
    game.house_word("cat", False)
    game.house_word("cat", True)  # changing one's mind: still one entry
    assert game.get()["house_words"] == [{"word": "cat", "allowed": True}]
    game.enter(1, round_one())
    assert game.challenged(1, "Ben", "Ann", 0)["ruling"]["reason"] == "house word"
    resp = game.delete("/house-words/CAT")
    assert resp.status_code == 200
    assert resp.get_json()["house_words"] == []
    # The ruling already made is kept as it was decided.
    assert game.round(1)["result"]["challenges"][0]["reason"] == "house word"
    game.delete("/rounds/1/challenges/1")
    assert game.challenged(1, "Ben", "Ann", 0)["ruling"]["reason"] == "in dictionary"
    with game.unchanged():
        resp = game.delete("/house-words/cat")
        refused(resp, 404, "", "no_such_house_word", word="cat")


HOUSE_WORD_REFUSALS = [
    ("x", {"allowed": True}, 422, "word", "house_word_letters", {"least": 2, "most": 40}),
    ("ice-cream", {"allowed": True}, 422, "word", "house_word_letters", {"least": 2, "most": 40}),
    ("caf\u00e9", {"allowed": True}, 422, "word", "house_word_letters", {"least": 2, "most": 40}),
    ("a" * 41, {"allowed": True}, 422, "word", "house_word_letters", {"least": 2, "most": 40}),
    ("zax", {"allowed": "yes"}, 400, "allowed", "allowed_flag", {}),
    ("zax", {}, 400, "allowed", "allowed_flag", {}),
    ("zax", {"allowed": True, "why": 1}, 400, "why", "unknown_field", {"field": "why"}),
]


def test_house_word_refusals_write_nothing(client, new_game, refused, subtests):
    game = new_game()
    for word, body, status, where, code, params in HOUSE_WORD_REFUSALS:
        with subtests.test(word=word, body=body), game.unchanged():
            resp = client.put(game.url(f"/house-words/{word}"), json=body, headers=game.auth)
            refused(resp, status, where, code, **params)


def test_house_words_are_per_game(new_game):
    one, two = new_game(), new_game()
    one.house_word("cat", False)
    two.enter(1, round_one())
    assert two.challenged(1, "Ben", "Ann", 0)["ruling"]["reason"] == "in dictionary"
    assert two.get()["house_words"] == []
