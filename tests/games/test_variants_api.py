"""Every way groups play, through the games API: round plans, the zero floor's places,
Junior rules, handicaps; exact scores, refusals, and games stored before the variants."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from companion.game.rules import JUNIOR_RULES, PLANS
from companion.store.db import db
from tests.games.conftest import Stored


def hand(name: str, words: list[str], unused: str = "", went_out: bool = False) -> dict:
    """A hand as the API takes it: words as ``c-a-t`` card by card, leftovers as letters."""
    return {
        "name": name,
        "words": [w.split("-") for w in words],
        "unused": list(unused),
        "went_out": went_out,
    }


def scores(data: dict) -> list[int]:
    return [p["score"] for p in data["result"]["players"]]


def totals(game: Stored) -> dict[str, int]:
    return {p["name"]: p["total"] for p in game.get()["players"]}


def play_and_close(game: Stored, number: int, *hands: dict) -> list[int]:
    """Enter round ``number`` and close it; the round's scores in seating order."""
    entered = game.enter(number, list(hands))
    game.close(number)
    return scores(entered)


# --- Junior ---------------------------------------------------------------------------


def test_a_junior_game_of_six_rounds(new_game: Callable[..., Stored]) -> None:
    """Junior: 2 to 7 cards, one card is a word (A and I stand when challenged), a proper
    noun is legal with its reason, and leftover cards are not subtracted."""
    game = new_game(players=["Ann", "Ben"], rules={**JUNIOR_RULES, "lexicon": "standard"})
    data = game.get()
    assert [r["hand_size"] for r in data["rounds"]] == [2, 3, 4, 5, 6, 7]
    assert [r["dealer"] for r in data["rounds"]] == ["Ann", "Ben"] * 3

    # Round 1: A and I (2 + 2); Ben's OX (14) is the longest word: +10.
    entered = game.enter(1, [hand("Ann", ["a", "i"]), hand("Ben", ["o-x"])])
    assert scores(entered) == [4, 24]
    ruled = game.challenged(1, "Ben", "Ann", 0)["ruling"]
    assert (ruled["legal"], ruled["code"], ruled["charged_to"]) == (True, "in_dictionary", "Ben")
    # Ben pays A's 2 points.
    assert scores(game.round(1)) == [4, 22]
    game.close(1)

    # Round 2: Ben's Z is left over and costs nothing; CAT (13) is the longest: +10.
    assert play_and_close(game, 2, hand("Ann", ["c-a-t"]), hand("Ben", ["b-e"], "z")) == [23, 10]

    # Round 3: MARY is a proper noun, legal by the house rule: Ben's challenge costs him 16.
    game.enter(3, [hand("Ann", ["m-a-r-y"]), hand("Ben", ["d-o-g"], "q")])
    ruled = game.challenged(3, "Ben", "Ann", 0)["ruling"]
    assert (ruled["legal"], ruled["code"], ruled["points"]) == (True, "proper_noun_allowed", 16)
    assert ruled["reason"] == "proper noun, allowed by this game's rules"
    ben = game.round(3)["result"]["players"][1]
    assert (ben["unused_points"], ben["unused_penalty"], ben["total"], ben["score"]) == (
        15,
        0,
        13 - 16,
        0,
    )
    game.close(3)

    assert play_and_close(game, 4, hand("Ann", ["qu-i-z"], "ee"), hand("Ben", ["s-t-e-p-s"])) == [
        25,
        27,
    ]
    assert play_and_close(
        game, 5, hand("Ann", ["th-e-m", "i-n"], "k"), hand("Ben", ["w-a-x-e-d"], "v")
    ) == [23, 41]
    # JUMPER and CLOSET tie at 6 letters: no longest-word bonus.
    assert play_and_close(
        game, 6, hand("Ann", ["j-u-m-p-er", "a"], "o"), hand("Ben", ["cl-o-s-e-t", "i"], "h")
    ) == [37, 22]

    data = game.get()
    assert totals(game) == {"Ann": 4 + 23 + 26 + 25 + 23 + 37, "Ben": 22 + 10 + 0 + 27 + 41 + 22}
    assert (data["finished"], data["winners"], data["next_round"]) == (True, ["Ann"], None)


def test_without_the_one_card_rule_a_lone_card_is_refused(
    new_game: Callable[..., Stored], refused: Callable[..., dict]
) -> None:
    game = new_game(players=["Ann", "Ben"], rules={"hands": [2]})
    with game.unchanged():
        resp = game.put_round(1, [hand("Ann", ["a", "i"]), hand("Ben", ["o-x"])])
        refused(resp, 422, "players[0].words[0]", "word_one_card", card="a")


def test_a_proper_noun_is_refused_without_the_house_rule(new_game: Callable[..., Stored]) -> None:
    game = new_game(players=["Ann", "Ben"], rules={"hands": [4]})
    game.enter(1, [hand("Ann", ["m-a-r-y"]), hand("Ben", ["d-o-g"], "q")])
    ruled = game.challenged(1, "Ben", "Ann", 0)["ruling"]
    assert (ruled["legal"], ruled["code"], ruled["charged_to"]) == (False, "proper_noun", "Ann")


# --- round plans ----------------------------------------------------------------------


def test_a_full_game_of_sixteen_rounds(
    new_game: Callable[..., Stored], refused: Callable[..., dict]
) -> None:
    """3 up to 10 cards and back down to 3: each round checked against its own size, the
    deal passing every round, the running total and the winner after round 16."""
    game = new_game(players=["Ann", "Ben"], rules={"hands": list(PLANS["full"])})
    data = game.get()
    sizes = [r["hand_size"] for r in data["rounds"]]
    assert sizes == [3, 4, 5, 6, 7, 8, 9, 10, 10, 9, 8, 7, 6, 5, 4, 3]
    assert [r["dealer"] for r in data["rounds"]] == ["Ann", "Ben"] * 8
    running = {"Ann": 0, "Ben": 0}
    for number, n in enumerate(sizes, start=1):
        if number == 9:  # round 9 deals 10 again, not 9
            short = [hand("Ann", ["-".join("e" * 9)]), hand("Ben", ["-".join("a" * 8)], "a")]
            refused(game.put_round(9, short), 422, "players[0]", "hand_size", need=10, round=9)
        # Ann lays every card (E, 2 points each) in one word, the longest (+10); Ben one
        # card fewer (A, 2 each) and keeps an A (-2).
        ann, ben = hand("Ann", ["-".join("e" * n)]), hand("Ben", ["-".join("a" * (n - 1))], "a")
        assert play_and_close(game, number, ann, ben) == [2 * n + 10, 2 * (n - 1) - 2]
        running["Ann"] += 2 * n + 10
        running["Ben"] += 2 * (n - 1) - 2
        assert totals(game) == running
    data = game.get()
    assert running == {"Ann": 2 * 104 + 16 * 10, "Ben": 2 * 104 - 4 * 16}
    assert (data["finished"], data["winners"]) == (True, ["Ann"])
    refused(game.put_round(17, [ann, ben]), 404, "", "no_such_round", number=17, rounds=16)


def test_a_short_game_counts_down(new_game: Callable[..., Stored]) -> None:
    game = new_game(players=["Ann", "Ben"], rules={"hands": [10, 9, 8, 7, 6]})
    data = game.get()
    assert [(r["number"], r["hand_size"]) for r in data["rounds"]] == [
        (1, 10),
        (2, 9),
        (3, 8),
        (4, 7),
        (5, 6),
    ]
    assert data["next_round"] == 1


@pytest.mark.parametrize(
    ("hands", "status", "where", "code"),
    [
        ([3, 11], 422, "rules.hands[1]", "hands_size"),
        ([1, 2], 422, "rules.hands[0]", "hands_size"),
        ([], 422, "rules.hands", "hands_count"),
        ([3] * 21, 422, "rules.hands", "hands_count"),
        ("3-10", 400, "rules.hands", "hands_list"),
        ([3, "4"], 400, "rules.hands[1]", "not_whole_number"),
        ([3, True], 400, "rules.hands[1]", "not_whole_number"),
    ],
)
def test_a_round_plan_out_of_range_is_refused(
    client: FlaskClient,
    rows: Callable[[], dict],
    refused: Callable[..., dict],
    hands: object,
    status: int,
    where: str,
    code: str,
) -> None:
    before = rows()
    body = {"players": ["Ann", "Ben"], "rules": {"hands": hands}}
    refused(client.post("/api/v1/games", json=body), status, where, code)
    assert rows() == before


def test_score_checks_the_round_against_the_plan(
    client: FlaskClient, refused: Callable[..., dict]
) -> None:
    players = [hand("Ann", ["c-a-t", "d-o-g"]), hand("Ben", ["t-o-p"], "eee")]
    body = {"players": players, "round": 1, "rules": {"hands": [5, 6]}}
    refused(client.post("/api/v1/score", json=body), 422, "players[0]", "hand_size", need=5)
    body = {**body, "round": 2}
    assert client.post("/api/v1/score", json=body).status_code == 200
    refused(
        client.post("/api/v1/score", json={**body, "round": 3}),
        422,
        "round",
        "no_such_round",
        rounds=2,
    )


# --- the zero floor -------------------------------------------------------------------


def test_the_floor_before_the_bonuses_on_score(client: FlaskClient) -> None:
    """CAT (13) with Z and Q left over (29): -16 before the longest-word bonus (+10)."""
    players = [hand("Ann", ["c-a-t"], "zq"), hand("Ben", ["o-x"], "eee")]
    got = {}
    for floor in ("round", "before_bonus", "total", "off"):
        body = {"players": players, "rules": {"floor": floor}}
        result = client.post("/api/v1/score", json=body).get_json()
        got[floor] = [(p["total"], p["score"]) for p in result["players"]]
    assert got == {
        "round": [(-6, 0), (8, 8)],
        "before_bonus": [(-6, 10), (8, 8)],
        "total": [(-6, -6), (8, 8)],
        "off": [(-6, -6), (8, 8)],
    }


@pytest.mark.parametrize(
    ("floor", "expected", "winners"),
    [
        ("total", {"Ann": 13, "Ben": 36}, ["Ben"]),
        ("round", {"Ann": 36, "Ben": 36}, ["Ann", "Ben"]),
        ("off", {"Ann": 4, "Ben": -5}, ["Ann"]),
    ],
)
def test_the_running_total_floor_across_a_negative_round(
    new_game: Callable[..., Stored], floor: str, expected: dict, winners: list[str]
) -> None:
    """Round 1 Ben holds Z, Q, X (-41); round 2 Ann holds J, K, V (-32); round 3 DOG each.
    With the "total" floor the rounds keep their signed scores and the running totals stop
    at zero: Ann 23, 0 (23 - 32), 13; Ben 0 (-41), 23, 36."""
    game = new_game(players=["Ann", "Ben"], rules={"hands": [3, 3, 3], "floor": floor})
    r1 = play_and_close(game, 1, hand("Ann", ["c-a-t"]), hand("Ben", [], "zqx"))
    r2 = play_and_close(game, 2, hand("Ann", [], "jkv"), hand("Ben", ["c-a-t"]))
    assert (r1, r2) == (([23, 0], [0, 23]) if floor == "round" else ([23, -41], [-32, 23]))
    if floor == "total":
        assert totals(game) == {"Ann": 0, "Ben": 23}
    play_and_close(game, 3, hand("Ann", ["d-o-g"]), hand("Ben", ["d-o-g"]))
    assert totals(game) == expected
    assert game.get()["winners"] == winners


# --- handicap -------------------------------------------------------------------------


def test_a_handicap_decides_the_winner(new_game: Callable[..., Stored]) -> None:
    game = new_game(rules={"hands": [3], "bonus": 0}, handicap=[0, 15, 0])
    assert [(p["name"], p["handicap"], p["total"]) for p in game.get()["players"]] == [
        ("Ann", 0, 0),
        ("Ben", 15, 15),
        ("Cy", 0, 0),
    ]
    scored = play_and_close(
        game, 1, hand("Ann", ["j-a-b"]), hand("Ben", ["t-o-p"]), hand("Cy", ["d-o-g"])
    )
    assert scored == [23, 11, 13]
    data = game.get()
    assert [(p["name"], p["total"], p["rank"]) for p in data["players"]] == [
        ("Ann", 23, 2),
        ("Ben", 26, 1),
        ("Cy", 13, 3),
    ]
    assert data["winners"] == ["Ben"]


@pytest.mark.parametrize(
    ("handicap", "status", "where", "code"),
    [
        ([0, 15], 422, "handicap", "handicap_count"),
        ([0, -1, 0], 422, "handicap[1]", "points_range"),
        ([0, 1001, 0], 422, "handicap[1]", "points_range"),
        ([0, 1.5, 0], 400, "handicap[1]", "not_whole_number"),
        ("15", 400, "handicap", "handicap_list"),
    ],
)
def test_a_bad_handicap_is_refused_and_nothing_stored(
    client: FlaskClient,
    rows: Callable[[], dict],
    refused: Callable[..., dict],
    handicap: object,
    status: int,
    where: str,
    code: str,
) -> None:
    before = rows()
    body = {"players": ["Ann", "Ben", "Cy"], "handicap": handicap}
    refused(client.post("/api/v1/games", json=body), status, where, code)
    assert rows() == before


# --- the old zero_floor key, and games stored before the variants --------------------


def test_the_old_zero_floor_key_is_still_read(
    new_game: Callable[..., Stored], client: FlaskClient, refused: Callable[..., dict]
) -> None:
    assert new_game(rules={"zero_floor": False}).get()["rules"]["floor"] == "off"
    assert new_game(rules={"zero_floor": True}).get()["rules"]["floor"] == "round"
    same = {"zero_floor": False, "floor": "off"}
    assert new_game(rules=same).get()["rules"]["floor"] == "off"
    body = {"players": ["Ann", "Ben"], "rules": {"zero_floor": False, "floor": "round"}}
    refused(client.post("/api/v1/games", json=body), 422, "rules.zero_floor", "floor_twice")


@pytest.mark.parametrize(("zero_floor", "ben"), [(True, [-41, 0]), (False, [-41, -41])])
def test_a_game_stored_before_the_variants_scores_as_before(
    app: Flask, new_game: Callable[..., Stored], zero_floor: bool, ben: list[int]
) -> None:
    """A game whose stored rules are the old six keys (zero_floor, no plan) and whose
    players have no handicap: eight rounds of 3 to 10 cards, the floor as stored."""
    game = new_game(players=["Ann", "Ben"])
    old = {
        "min_word": "cards",
        "two_player_bonus": "longest",
        "bonus": 10,
        "zero_floor": zero_floor,
        "false_out_penalty": 0,
        "lexicon": "standard",
    }
    with app.app_context():
        db.session.execute(
            sa.text("UPDATE game SET rules = :rules WHERE id = :id"),
            {"rules": json.dumps(old), "id": game.id},
        )
        db.session.commit()
    data = game.get()
    assert [r["hand_size"] for r in data["rounds"]] == [3, 4, 5, 6, 7, 8, 9, 10]
    assert data["rules"]["floor"] == ("round" if zero_floor else "off")
    entered = game.enter(1, [hand("Ann", ["c-a-t"]), hand("Ben", [], "zqx")])
    ben_score = entered["result"]["players"][1]
    assert [ben_score["total"], ben_score["score"]] == ben
    assert scores(entered)[0] == 23
    game.close(1)
    assert totals(game) == {"Ann": 23, "Ben": ben[1]}


def test_the_referee_follows_a_games_proper_noun_rule(
    new_game: Callable[..., Stored], client: FlaskClient
) -> None:
    """Looking a word up for a game (``?game=``) and /score rule as the game's rules do."""
    junior = new_game(players=["Ann", "Ben"], rules={**JUNIOR_RULES, "lexicon": "standard"})
    plain = new_game(players=["Ann", "Ben"])
    looked = client.get(f"/api/v1/words/mary?game={junior.id}").get_json()
    assert (looked["legal"], looked["code"]) == (True, "proper_noun_allowed")
    looked = client.get(f"/api/v1/words/mary?game={plain.id}").get_json()
    assert (looked["legal"], looked["code"]) == (False, "proper_noun")
    looked = client.get(f"/api/v1/words/a?game={junior.id}").get_json()
    assert (looked["legal"], looked["code"]) == (True, "in_dictionary")
    players = [hand("Ann", ["m-a-r-y"]), hand("Ben", ["d-o-g"], "q")]
    challenge = [{"by": "Ben", "player": "Ann", "word": 0}]
    body = {"players": players, "challenges": challenge, "rules": {"proper_nouns": True}}
    ruled = client.post("/api/v1/score", json=body).get_json()["challenges"][0]
    assert (ruled["legal"], ruled["code"], ruled["charged_to"]) == (
        True,
        "proper_noun_allowed",
        "Ben",
    )


def test_the_best_play_uses_a_and_i_where_one_card_is_a_word(client: FlaskClient) -> None:
    """C, A, T, I: CAT and the I left over (13 - 2) by the rule book; every card in words
    (CAT and I, or TIC and A: 15) where one card may be a word."""
    hand_cards = ["c", "a", "t", "i"]
    book = client.post("/api/v1/best", json={"cards": hand_cards}).get_json()
    junior = client.post(
        "/api/v1/best", json={"cards": hand_cards, "rules": {"min_word": "one_card"}}
    ).get_json()
    assert (book["points"], junior["points"]) == (11, 15)
    assert junior["unused"] == [] and len(junior["words"]) == 2
    assert min(len(w) for w in junior["words"]) == 1
