"""POST /api/v1/score: exact round scores, struck words, house rules, and every refusal."""

from __future__ import annotations

import copy
import json

import pytest
from flask.testing import FlaskClient

from companion.web import messages

# The request of api.md, with the table's ruling given on both challenges.
EXAMPLE = {
    "rules": {"two_player_bonus": "longest"},
    "round": 2,
    "players": [
        {"name": "Ann", "words": [["qu", "i", "z"]], "unused": ["m"], "went_out": False},
        {"name": "Ben", "words": ["t-o-p"], "unused": ["a"]},
    ],
    "challenges": [
        {"by": "Ben", "player": "Ann", "word": 0, "ruling": "legal"},
        {"by": "Ann", "player": "Ben", "word": 0, "ruling": "legal"},
    ],
}


def example() -> dict:
    return copy.deepcopy(EXAMPLE)


def two_players(**extra: object) -> dict:
    """A plain valid round: Ann QU·I·Z + M (4 cards), Ben T·O·P + A (4 cards)."""
    body: dict = {
        "players": [
            {"name": "Ann", "words": [["qu", "i", "z"]], "unused": ["m"]},
            {"name": "Ben", "words": ["t-o-p"], "unused": ["a"]},
        ]
    }
    body.update(extra)
    return body


def score(client: FlaskClient, body: object):
    return client.post("/api/v1/score", json=body)


def scored(client: FlaskClient, body: object) -> dict:
    resp = score(client, body)
    assert resp.status_code == 200, resp.get_data(as_text=True)
    return resp.get_json()


def player(result: dict, name: str) -> dict:
    return next(p for p in result["players"] if p["name"] == name)


def refused(resp, status: int, where: str, code: str, **params: object) -> dict:
    """Assert a refusal: status, body exactly {"error", "where", "code", "params"}, the field,
    the code and these params, and the sentence the catalog renders from them."""
    assert resp.status_code == status, resp.get_data(as_text=True)
    assert resp.is_json
    body = resp.get_json()
    assert set(body) == {"error", "where", "code", "params"}, body
    assert (body["where"], body["code"]) == (where, code), body
    assert body["error"] == messages.render(code, body["params"]), body
    for key, value in params.items():
        assert key in body["params"] and body["params"][key] == value, (key, body)
    return body


# --- the api.md example ---------------------------------------------------------------


def test_example_round_scores_exactly(client: FlaskClient) -> None:
    result = scored(client, example())
    assert [p["name"] for p in result["players"]] == ["Ann", "Ben"]
    ann, ben = result["players"]
    expected_ann = {
        "name": "Ann",
        "words": [
            {"cards": ["qu", "i", "z"], "text": "quiz", "letters": 4, "value": 25,
             "struck": False},
        ],
        "word_points": 25,
        "unused": ["m"],
        "unused_points": 5,
        "bonus_most_words": 0,
        "bonus_longest_word": 10,
        "challenge_penalty": 11,
        "total": 19,
        "score": 19,
    }  # fmt: skip
    assert {k: ann[k] for k in expected_ann} == expected_ann
    expected_ben = {
        "name": "Ben",
        "words": [
            {"cards": ["t", "o", "p"], "text": "top", "letters": 3, "value": 11,
             "struck": False},
        ],
        "word_points": 11,
        "unused": ["a"],
        "unused_points": 2,
        "bonus_most_words": 0,
        "bonus_longest_word": 0,
        "challenge_penalty": 25,
        "total": -16,
        "score": 0,
    }  # fmt: skip
    assert {k: ben[k] for k in expected_ben} == expected_ben


def test_example_challenges_are_reported_with_who_pays(client: FlaskClient) -> None:
    challenges = scored(client, example())["challenges"]
    assert len(challenges) == 2
    for c in challenges:
        assert isinstance(c.pop("reason"), str) and c  # a reason, whatever its wording
    assert challenges == [
        {"by": "Ben", "player": "Ann", "word": 0, "text": "quiz", "legal": True,
         "decided_by": "table", "code": "table_legal", "points": 25, "charged_to": "Ben",
         "decided": True},
        {"by": "Ann", "player": "Ben", "word": 0, "text": "top", "legal": True,
         "decided_by": "table", "code": "table_legal", "points": 11, "charged_to": "Ann",
         "decided": True},
    ]  # fmt: skip


def test_example_as_written_is_ruled_by_the_dictionary(client: FlaskClient) -> None:
    """api.md's example leaves Ben's challenge of QUIZ to the dictionary: legal, Ben pays 25."""
    body = example()
    del body["challenges"][0]["ruling"]
    result = scored(client, body)
    assert [(p["total"], p["score"]) for p in result["players"]] == [(19, 19), (-16, 0)]
    ruling = result["challenges"][0]
    assert ruling["decided_by"] == "dictionary"
    assert (ruling["reason"], ruling["code"]) == ("in dictionary", "in_dictionary")
    assert (ruling["legal"], ruling["points"], ruling["charged_to"]) == (True, 25, "Ben")


def test_dictionary_strikes_a_proper_noun_with_its_reason(client: FlaskClient) -> None:
    """The seeds' STEVE, challenged without a ruling: struck as a proper noun, 21 unused."""
    body = {
        "players": [
            {"name": "Ann", "words": ["steve"]},
            {"name": "Ben", "words": ["t-o-p", "a-t"]},
        ],
        "challenges": [{"by": "Ben", "player": "Ann", "word": 0}],
    }
    result = scored(client, body)
    ann = player(result, "Ann")
    assert ann["words"][0]["struck"] is True
    assert (ann["unused_points"], ann["total"], ann["score"]) == (21, -21, 0)
    assert (result["challenges"][0]["reason"], result["challenges"][0]["code"]) == (
        "proper noun",
        "proper_noun",
    )
    assert result["challenges"][0]["decided_by"] == "dictionary"


def test_rules_lexicon_picks_the_dictionary(client: FlaskClient) -> None:
    """TWAS is legal only in the word-game lexicon (ENABLE's plural of "twa"; a general
    dictionary gives only the contraction): legal there (the challenger pays), struck in
    standard."""
    body = {
        "players": [
            {"name": "Ann", "words": ["t-w-a-s"]},
            {"name": "Ben", "words": ["p-l-a-t"]},
        ],
        "challenges": [{"by": "Ben", "player": "Ann", "word": 0}],
    }
    standard = scored(client, body)
    assert standard["challenges"][0]["legal"] is False
    wordgame = scored(client, {**body, "rules": {"lexicon": "wordgame"}})
    assert wordgame["challenges"][0]["legal"] is True
    assert player(wordgame, "Ben")["challenge_penalty"] == 18  # T·W·A·S 3+10+2+3


def test_unknown_lexicon_is_refused_at_the_rule(client: FlaskClient) -> None:
    body = example()
    del body["challenges"][0]["ruling"]
    body["rules"] = {"lexicon": "klingon"}
    refused(
        score(client, body),
        422,
        "rules.lexicon",
        "unknown_lexicon",
        name="klingon",
        names=["standard", "wordgame", "common"],
    )


def test_example_must_be_declared_json(client: FlaskClient) -> None:
    """Declared JSON it is scored; as text/plain (a page of any site can send that) it is not."""
    resp = client.post("/api/v1/score", data=json.dumps(EXAMPLE), content_type="application/json")
    assert resp.status_code == 200
    assert [p["score"] for p in resp.get_json()["players"]] == [19, 0]
    plain = client.post("/api/v1/score", data=json.dumps(EXAMPLE), content_type="text/plain")
    assert (plain.status_code, plain.get_json()["code"]) == (415, "json_content_type")


# --- the seeds' worked examples -----------------------------------------------------


def test_seed_top_is_11(client: FlaskClient) -> None:
    result = scored(client, two_players())
    top = player(result, "Ben")["words"][0]
    assert top == {"cards": ["t", "o", "p"], "text": "top", "letters": 3, "value": 11,
                   "struck": False}  # fmt: skip


def test_seed_quiz_as_qu_i_z_less_m_is_20(client: FlaskClient) -> None:
    result = scored(client, two_players(rules={"bonus": 0}))
    ann = player(result, "Ann")
    assert ann["words"][0]["value"] == 25
    assert ann["word_points"] == 25
    assert ann["unused_points"] == 5
    assert ann["total"] == 20
    assert ann["score"] == 20


def test_quiz_typed_as_letters_is_four_cards_worth_35(client: FlaskClient) -> None:
    body = two_players()
    body["players"][0]["words"] = ["quiz"]
    body["players"][0]["unused"] = []
    ann = player(scored(client, body), "Ann")
    assert ann["words"][0]["cards"] == ["q", "u", "i", "z"]
    assert ann["words"][0]["value"] == 35
    assert ann["words"][0]["letters"] == 4


def test_word_as_dashed_string_equals_list(client: FlaskClient) -> None:
    as_list = scored(client, two_players())
    body = two_players()
    body["players"][0]["words"] = ["QU-i-Z"]
    body["players"][0]["unused"] = "m"
    as_string = scored(client, body)
    assert as_string == as_list


def steve_round(ruling: str, **rules: object) -> dict:
    """Ann Q·U·I·Z + A; Ben S·T·E·V·E, challenged by Ann with the table's ruling."""
    body: dict = {
        "players": [
            {"name": "Ann", "words": ["quiz"], "unused": ["a"]},
            {"name": "Ben", "words": ["steve"], "unused": []},
        ],
        "challenges": [{"by": "Ann", "player": "Ben", "word": 0, "ruling": ruling}],
    }
    if rules:
        body["rules"] = rules
    return body


def test_seed_steve_struck_costs_21(client: FlaskClient) -> None:
    result = scored(client, steve_round("illegal", zero_floor=False))
    ben = player(result, "Ben")
    assert ben["words"] == [
        {"cards": ["s", "t", "e", "v", "e"], "text": "steve", "letters": 5, "value": 21,
         "struck": True},
    ]  # fmt: skip
    assert ben["word_points"] == 0
    assert ben["unused"] == ["s", "t", "e", "v", "e"]
    assert ben["unused_points"] == 21
    assert ben["challenge_penalty"] == 0
    assert ben["total"] == -21
    assert ben["score"] == -21
    ch = result["challenges"][0]
    assert ch["legal"] is False
    assert ch["decided_by"] == "table"
    assert ch["points"] == 21
    assert ch["charged_to"] == "Ben"
    assert ch["text"] == "steve"


def test_struck_word_is_a_swing_of_twice_its_value(client: FlaskClient) -> None:
    legal = player(scored(client, steve_round("legal", zero_floor=False, bonus=0)), "Ben")
    illegal = player(scored(client, steve_round("illegal", zero_floor=False, bonus=0)), "Ben")
    assert legal["total"] == 21
    assert illegal["total"] == -21


def test_struck_word_with_zero_floor_scores_0(client: FlaskClient) -> None:
    ben = player(scored(client, steve_round("illegal")), "Ben")
    assert ben["total"] == -21
    assert ben["score"] == 0


def test_legal_challenge_charges_the_challenger(client: FlaskClient) -> None:
    result = scored(client, steve_round("legal"))
    ann, ben = player(result, "Ann"), player(result, "Ben")
    # Ann: Q·U·I·Z 35 - A 2 - 21 for losing the challenge; Ben: 21 + longest word (5 > 4).
    assert ann["challenge_penalty"] == 21
    assert ann["total"] == 12
    assert ben["bonus_longest_word"] == 10
    assert ben["total"] == 31
    assert result["challenges"][0]["charged_to"] == "Ann"


def test_struck_word_no_longer_wins_the_longest_word_bonus(client: FlaskClient) -> None:
    result = scored(client, steve_round("illegal"))
    assert player(result, "Ben")["bonus_longest_word"] == 0
    assert player(result, "Ann")["bonus_longest_word"] == 10
    assert player(result, "Ann")["total"] == 35 - 2 + 10


def test_unused_keeps_own_cards_then_struck_cards(client: FlaskClient) -> None:
    body = {
        "players": [
            {"name": "Ann", "words": ["t-o-p"], "unused": ["m", "a"]},
            {"name": "Ben", "words": ["c-a-t", "d-o"], "unused": []},
        ],
        "challenges": [{"by": "Ann", "player": "Ben", "word": 1, "ruling": "illegal"}],
        "rules": {"zero_floor": False},
    }
    ben = player(scored(client, body), "Ben")
    assert [w["struck"] for w in ben["words"]] == [False, True]
    assert ben["unused"] == ["d", "o"]
    assert ben["word_points"] == 13
    assert ben["unused_points"] == 7
    assert ben["total"] == 6


# --- rules: defaults and each house rule ------------------------------------------------


def three_players() -> dict:
    """Ann 2 words (longest 4 letters), Ben 1 word (3 letters), Cy 1 word; 5 cards each."""
    return {
        "players": [
            {"name": "Ann", "words": ["qu-i-z", "a-t"], "unused": []},
            {"name": "Ben", "words": ["t-o-p"], "unused": ["e", "e"]},
            {"name": "Cy", "words": ["c-a-t"], "unused": ["o", "m"]},
        ]
    }


def test_defaults_with_three_players_give_both_bonuses(client: FlaskClient) -> None:
    result = scored(client, three_players())
    ann = player(result, "Ann")
    assert ann["bonus_most_words"] == 10
    assert ann["bonus_longest_word"] == 10
    assert ann["total"] == 25 + 5 + 20
    assert result == scored(client, {**three_players(), "rules": {}})


def test_default_two_players_use_only_the_longest_word_bonus(client: FlaskClient) -> None:
    body = {
        "players": [
            {"name": "Ann", "words": ["qu-i-z", "a-t"], "unused": []},
            {"name": "Ben", "words": ["t-o-p"], "unused": ["e", "e"]},
        ]
    }
    ann = player(scored(client, body), "Ann")
    assert ann["bonus_most_words"] == 0
    assert ann["bonus_longest_word"] == 10
    explicit = player(scored(client, {**body, "rules": {"two_player_bonus": "longest"}}), "Ann")
    assert explicit == ann


@pytest.mark.parametrize(
    ("choice", "most", "longest"), [("longest", 0, 10), ("most", 10, 0), ("both", 10, 10)]
)
def test_rule_two_player_bonus(client: FlaskClient, choice: str, most: int, longest: int) -> None:
    body = {
        "players": [
            {"name": "Ann", "words": ["qu-i-z", "a-t"], "unused": []},
            {"name": "Ben", "words": ["t-o-p"], "unused": ["e", "e"]},
        ],
        "rules": {"two_player_bonus": choice},
    }
    result = scored(client, body)
    ann = player(result, "Ann")
    assert ann["bonus_most_words"] == most
    assert ann["bonus_longest_word"] == longest
    assert ann["total"] == 30 + most + longest


def test_rule_two_player_bonus_does_not_touch_three_players(client: FlaskClient) -> None:
    body = {**three_players(), "rules": {"two_player_bonus": "most"}}
    ann = player(scored(client, body), "Ann")
    assert (ann["bonus_most_words"], ann["bonus_longest_word"]) == (10, 10)


@pytest.mark.parametrize("size", [0, 7, 1000])
def test_rule_bonus_size(client: FlaskClient, size: int) -> None:
    ann = player(scored(client, {**three_players(), "rules": {"bonus": size}}), "Ann")
    assert ann["bonus_most_words"] == size
    assert ann["bonus_longest_word"] == size
    assert ann["total"] == 30 + 2 * size


def test_rule_zero_floor_default_on_and_off(client: FlaskClient) -> None:
    body = {
        "players": [
            {"name": "Ann", "words": ["t-o-p"], "unused": []},
            {"name": "Ben", "words": [], "unused": ["z", "q", "x"]},
        ]
    }
    assert player(scored(client, body), "Ben")["score"] == 0
    assert player(scored(client, {**body, "rules": {"zero_floor": True}}), "Ben")["score"] == 0
    ben = player(scored(client, {**body, "rules": {"zero_floor": False}}), "Ben")
    assert ben["total"] == -41
    assert ben["score"] == -41


def false_out_round(**rules: object) -> dict:
    """Ann went out but kept an M; Ben didn't go out and kept an A."""
    return {
        "players": [
            {"name": "Ann", "words": ["t-o-p"], "unused": ["m"], "went_out": True},
            {"name": "Ben", "words": ["c-a-t"], "unused": ["a"]},
        ],
        "rules": rules,
    }


def test_rule_false_out_penalty_default_is_none(client: FlaskClient) -> None:
    ann = player(scored(client, false_out_round()), "Ann")
    assert ann["went_out"] is True
    assert ann["false_out_penalty"] == 0
    assert ann["total"] == 11 - 5


def test_rule_false_out_penalty_only_hits_who_went_out_with_cards(client: FlaskClient) -> None:
    result = scored(client, false_out_round(false_out_penalty=15, zero_floor=False))
    ann, ben = player(result, "Ann"), player(result, "Ben")
    assert ann["false_out_penalty"] == 15
    assert ann["total"] == 11 - 5 - 15
    assert ben["false_out_penalty"] == 0
    # Ben's C·A·T (3 letters) ties Ann's T·O·P: no longest-word bonus.
    assert ben["total"] == 13 - 2


def test_rule_false_out_penalty_spares_a_clean_going_out(client: FlaskClient) -> None:
    body = false_out_round(false_out_penalty=15)
    body["players"][0]["words"] = ["t-o-p-m"]
    body["players"][0]["unused"] = []
    ann = player(scored(client, body), "Ann")
    assert ann["false_out_penalty"] == 0


def test_rule_false_out_penalty_after_a_struck_word(client: FlaskClient) -> None:
    body = false_out_round(false_out_penalty=15, zero_floor=False)
    body["players"][0]["words"] = ["t-o-p-m"]
    body["players"][0]["unused"] = []
    body["challenges"] = [{"by": "Ben", "player": "Ann", "word": 0, "ruling": "illegal"}]
    ann = player(scored(client, body), "Ann")
    assert ann["false_out_penalty"] == 15
    assert ann["total"] == -16 - 15


def test_rule_min_word_letters_accepts_a_lone_in(client: FlaskClient) -> None:
    body = {
        "players": [
            {"name": "Ann", "words": [["in"], ["t", "o", "p"]], "unused": []},
            {"name": "Ben", "words": ["q-u-i-z"], "unused": []},
        ],
        "rules": {"min_word": "letters"},
    }
    result = scored(client, body)
    ann = player(result, "Ann")
    assert ann["words"][0] == {"cards": ["in"], "text": "in", "letters": 2, "value": 7,
                               "struck": False}  # fmt: skip
    assert ann["word_points"] == 18
    assert player(result, "Ben")["total"] == 35 + 10


def test_rule_min_word_letters_still_refuses_one_letter(client: FlaskClient) -> None:
    body = {
        "players": [
            {"name": "Ann", "words": [["a"], ["t", "o", "p"]], "unused": []},
            {"name": "Ben", "words": ["q-u-i-z"], "unused": []},
        ],
        "rules": {"min_word": "letters"},
    }
    refused(
        score(client, body), 422, "players[0].words[0]", "word_one_letter", player="Ann", card="a"
    )


def test_rule_min_word_default_refuses_a_lone_in(client: FlaskClient) -> None:
    body = {
        "players": [
            {"name": "Ann", "words": [["in"], ["t", "o", "p"]], "unused": []},
            {"name": "Ben", "words": ["q-u-i-z"], "unused": []},
        ]
    }
    refused(
        score(client, body),
        422,
        "players[0].words[0]",
        "word_one_card",
        player="Ann",
        card="in",
        double=True,
    )
    body["rules"] = {"min_word": "cards"}
    refused(
        score(client, body),
        422,
        "players[0].words[0]",
        "word_one_card",
        player="Ann",
        card="in",
        double=True,
    )


def test_rule_lexicon_is_accepted(client: FlaskClient) -> None:
    assert scored(client, two_players(rules={"lexicon": "standard"})) == scored(
        client, two_players()
    )


# --- refusals: the body -----------------------------------------------------------------


def test_not_json_is_400(client: FlaskClient) -> None:
    resp = client.post("/api/v1/score", data=b'{"players": [', content_type="application/json")
    refused(resp, 400, "", "bad_json")


def test_empty_body_is_400(client: FlaskClient) -> None:
    refused(
        client.post("/api/v1/score", data=b"", content_type="application/json"), 400, "", "bad_json"
    )


def test_body_an_array_is_400(client: FlaskClient) -> None:
    refused(score(client, [EXAMPLE]), 400, "", "not_an_object")


def test_unknown_top_level_field_is_400(client: FlaskClient) -> None:
    refused(score(client, two_players(game="x")), 400, "game", "unknown_field", field="game")


def test_players_missing_is_400(client: FlaskClient) -> None:
    refused(score(client, {"round": 2}), 400, "players", "players_list", most=8)


@pytest.mark.parametrize("players", [None, "Ann,Ben", {"Ann": {}}, 2])
def test_players_not_a_list_is_400(client: FlaskClient, players: object) -> None:
    refused(score(client, {"players": players}), 400, "players", "players_list", most=8)


def test_player_not_an_object_is_400(client: FlaskClient) -> None:
    body = two_players()
    body["players"][1] = "Ben"
    refused(score(client, body), 400, "players[1]", "not_an_object")


def test_unknown_player_field_is_400(client: FlaskClient) -> None:
    body = two_players()
    body["players"][1]["score"] = 3
    refused(score(client, body), 400, "players[1].score", "unknown_field", field="score")


def test_one_player_is_422(client: FlaskClient) -> None:
    body = two_players()
    del body["players"][1]
    refused(score(client, body), 422, "players", "player_count", count=1, least=2, most=8)


def test_nine_players_is_422(client: FlaskClient) -> None:
    players = [{"name": f"P{i}", "words": ["t-o-e"]} for i in range(9)]
    refused(
        score(client, {"players": players}),
        422,
        "players",
        "player_count",
        count=9,
        least=2,
        most=8,
    )


def test_eight_players_is_fine(client: FlaskClient) -> None:
    letters = "abdefgin"
    players = [{"name": f"P{i}", "words": [f"{c}-e"], "unused": ["o"]} for i, c in
               enumerate(letters)]  # fmt: skip
    assert len(scored(client, {"players": players})["players"]) == 8


# --- refusals: names ---------------------------------------------------------------------


@pytest.mark.parametrize("name", ["", "   "])
def test_empty_name_is_422(client: FlaskClient, name: str) -> None:
    body = two_players()
    body["players"][0]["name"] = name
    refused(score(client, body), 422, "players[0].name", "name_missing", seat=1)


def test_name_missing_is_400(client: FlaskClient) -> None:
    body = two_players()
    del body["players"][1]["name"]
    refused(score(client, body), 400, "players[1].name", "not_text", field="name")


def test_duplicate_names_are_422(client: FlaskClient) -> None:
    body = two_players()
    body["players"][1]["name"] = "Ann"
    refused(score(client, body), 422, "players[1].name", "name_twice", name="Ann")


def test_duplicate_names_ignore_case_and_spaces(client: FlaskClient) -> None:
    body = two_players()
    body["players"][1]["name"] = " ANN "
    refused(score(client, body), 422, "players[1].name", "name_twice", name="ANN")


def test_name_over_40_characters_is_422(client: FlaskClient) -> None:
    body = two_players()
    body["players"][1]["name"] = "B" * 41
    refused(score(client, body), 422, "players[1].name", "name_too_long", seat=2, most=40)
    body["players"][1]["name"] = "B" * 40
    assert score(client, body).status_code == 200


# --- refusals: round and card counts -------------------------------------------------------


@pytest.mark.parametrize("round_", ["2", 2.0, [2], {"n": 2}])
def test_round_not_a_whole_number_is_400(client: FlaskClient, round_: object) -> None:
    refused(
        score(client, two_players(round=round_)), 400, "round", "not_whole_number", field="round"
    )


@pytest.mark.parametrize("round_", [True, False])
def test_round_a_bool_is_400(client: FlaskClient, round_: bool) -> None:
    refused(
        score(client, two_players(round=round_)), 400, "round", "not_whole_number", field="round"
    )


@pytest.mark.parametrize("round_", [0, 9, -1, 10**12])
def test_round_out_of_range_is_422(client: FlaskClient, round_: int) -> None:
    refused(
        score(client, two_players(round=round_)),
        422,
        "round",
        "no_such_round",
        number=round_,
        rounds=8,
    )


def test_round_null_means_no_round(client: FlaskClient) -> None:
    assert scored(client, two_players(round=None)) == scored(client, two_players())


def test_round_with_a_wrong_card_count_names_the_player(client: FlaskClient) -> None:
    # Round 2 deals 4 cards; Ben has T·O·P + A + E = 5.
    body = two_players(round=2)
    body["players"][1]["unused"] = ["a", "e"]
    resp = score(client, body)
    refused(resp, 422, "players[1]", "hand_size", player="Ben", have=5, need=4, round=2)


def test_round_with_a_wrong_count_for_everyone_names_the_first(client: FlaskClient) -> None:
    refused(
        score(client, two_players(round=3)),
        422,
        "players[0]",
        "hand_size",
        player="Ann",
        have=4,
        need=5,
        round=3,
    )


def test_unequal_hands_without_round_is_422(client: FlaskClient) -> None:
    body = two_players()
    body["players"][1]["unused"] = []
    refused(
        score(client, body),
        422,
        "players[1]",
        "hand_sizes_differ",
        player="Ben",
        have=3,
        other="Ann",
        other_has=4,
    )


def test_too_few_cards_is_422(client: FlaskClient) -> None:
    body = {"players": [{"name": "Ann", "words": ["a-t"]}, {"name": "Ben", "words": ["b-e"]}]}
    refused(
        score(client, body),
        422,
        "players[0]",
        "hand_size_range",
        player="Ann",
        have=2,
        least=3,
        most=10,
    )


# --- refusals: cards and words --------------------------------------------------------------


def test_unknown_card_in_list_form(client: FlaskClient) -> None:
    body = two_players()
    body["players"][1]["words"] = [["t", "o", "k7"]]
    refused(score(client, body), 422, "players[1].words[0][2]", "not_a_card", card="k7")


def test_unknown_card_in_dashed_string_form(client: FlaskClient) -> None:
    body = two_players()
    body["players"][1]["words"] = ["q-x-ü"]
    refused(score(client, body), 422, "players[1].words[0][2]", "not_a_card", card="ü")


def test_unknown_card_in_letter_string_form(client: FlaskClient) -> None:
    body = two_players()
    body["players"][1]["words"] = ["to7"]
    refused(score(client, body), 422, "players[1].words[0][2]", "not_a_card", card="7")


def test_look_alike_card_is_unknown(client: FlaskClient) -> None:
    # The Kelvin sign lower-cases to an ASCII "k", but no card reads like that.
    body = two_players()
    body["players"][1]["words"] = [["t", "o", "\u212a"]]
    refused(score(client, body), 422, "players[1].words[0][2]", "not_a_card", card="\u212a")


def test_unknown_unused_card(client: FlaskClient) -> None:
    body = two_players()
    body["players"][0]["unused"] = ["mm"]
    refused(score(client, body), 422, "players[0].unused[0]", "not_a_card", card="mm")


def test_card_not_a_string_is_400(client: FlaskClient) -> None:
    body = two_players()
    body["players"][0]["words"] = [["qu", 1, "z"]]
    refused(score(client, body), 400, "players[0].words[0][1]", "card_not_text")


def test_word_not_a_list_or_string_is_400(client: FlaskClient) -> None:
    body = two_players()
    body["players"][0]["words"] = [{"cards": ["t"]}]
    refused(score(client, body), 400, "players[0].words[0]", "cards_shape")


def test_words_not_a_list_is_400(client: FlaskClient) -> None:
    body = two_players()
    body["players"][0]["words"] = "qu-i-z"
    refused(score(client, body), 400, "players[0].words", "words_list")


def test_empty_word_is_422(client: FlaskClient) -> None:
    body = two_players()
    body["players"][0]["words"] = [["qu", "i", "z"], []]
    refused(score(client, body), 422, "players[0].words[1]", "word_empty")


def test_too_many_copies_across_players_names_the_card(client: FlaskClient) -> None:
    # Two Z in the deck: Ann's QUIZ, Ben's ZAP and Ben's leftover Z make three.
    body = {
        "players": [
            {"name": "Ann", "words": [["qu", "i", "z"]], "unused": ["m"]},
            {"name": "Ben", "words": ["z-a-p"], "unused": ["z"]},
        ]
    }
    refused(
        score(client, body), 422, "players[1].unused[0]", "deck_copies", card="z", copies=2, count=3
    )


def test_too_many_copies_of_a_double_letter_card(client: FlaskClient) -> None:
    body = {
        "players": [
            {"name": "Ann", "words": [["qu", "a", "d"]], "unused": []},
            {"name": "Ben", "words": [["qu", "i", "t"]], "unused": []},
            {"name": "Cy", "words": [["qu", "o", "d"]], "unused": []},
        ]
    }
    refused(
        score(client, body),
        422,
        "players[2].words[0][0]",
        "deck_copies",
        card="qu",
        copies=2,
        count=3,
    )


def test_single_card_word_breaks_the_min_word_rule(client: FlaskClient) -> None:
    body = {
        "players": [
            {"name": "Ann", "words": ["t-o-p", "a"], "unused": []},
            {"name": "Ben", "words": ["q-u-i-z"], "unused": []},
        ]
    }
    refused(
        score(client, body),
        422,
        "players[0].words[1]",
        "word_one_card",
        player="Ann",
        card="a",
        double=False,
    )


# --- refusals: went_out -----------------------------------------------------------------


def test_more_than_one_went_out_is_422(client: FlaskClient) -> None:
    body = two_players()
    body["players"][0]["went_out"] = True
    body["players"][1]["went_out"] = True
    refused(
        score(client, body), 422, "players[1].went_out", "went_out_twice", first="Ann", second="Ben"
    )


def test_went_out_not_a_bool_is_400(client: FlaskClient) -> None:
    body = two_players()
    body["players"][0]["went_out"] = "yes"
    refused(score(client, body), 400, "players[0].went_out", "not_true_or_false", field="went_out")


# --- refusals: challenges -----------------------------------------------------------------


def challenge(**fields: object) -> dict:
    ch = {"by": "Ben", "player": "Ann", "word": 0, "ruling": "legal"}
    ch.update(fields)
    return {k: v for k, v in ch.items() if v is not None}


def test_challenge_unknown_challenger(client: FlaskClient) -> None:
    body = two_players(challenges=[challenge(by="Zed")])
    refused(
        score(client, body),
        422,
        "challenges[0].by",
        "challenger_unknown",
        name="Zed",
        names=["Ann", "Ben"],
    )


def test_challenge_unknown_player(client: FlaskClient) -> None:
    body = two_players(challenges=[challenge(player="Zed")])
    refused(
        score(client, body),
        422,
        "challenges[0].player",
        "challenged_unknown",
        name="Zed",
        names=["Ann", "Ben"],
    )


def test_challenge_own_word(client: FlaskClient) -> None:
    body = two_players(challenges=[challenge(by="Ann")])
    refused(score(client, body), 422, "challenges[0].by", "challenge_own_word", player="Ann")
    body = two_players(challenges=[challenge(by="ANN", player=" ann")])
    refused(score(client, body), 422, "challenges[0].by", "challenge_own_word", player="Ann")


def test_challenge_names_match_in_any_case(client: FlaskClient) -> None:
    body = two_players(challenges=[challenge(by="ben", player=" ANN ")])
    result = scored(client, body)
    ch = result["challenges"][0]
    assert (ch["by"], ch["player"], ch["charged_to"]) == ("Ben", "Ann", "Ben")
    assert player(result, "Ben")["challenge_penalty"] == 25
    assert result == scored(client, two_players(challenges=[challenge()]))


@pytest.mark.parametrize("index", [1, -1, 10**9])
def test_challenge_word_index_out_of_range(client: FlaskClient, index: int) -> None:
    body = two_players(challenges=[challenge(word=index)])
    refused(
        score(client, body), 422, "challenges[0].word", "challenge_no_word", player="Ann", count=1
    )


def test_challenge_word_index_not_a_number(client: FlaskClient) -> None:
    body = two_players(challenges=[challenge(word="0")])
    refused(score(client, body), 400, "challenges[0].word", "not_whole_number", field="word")


def test_challenge_same_word_twice(client: FlaskClient) -> None:
    body = {
        **three_players(),
        "challenges": [
            {"by": "Ben", "player": "Ann", "word": 1, "ruling": "legal"},
            {"by": "Cy", "player": "Ann", "word": 1, "ruling": "illegal"},
        ],
    }
    refused(score(client, body), 422, "challenges[1]", "challenge_twice", player="Ann", word="at")
    body["challenges"][1]["player"] = "aNN"
    refused(score(client, body), 422, "challenges[1]", "challenge_twice", player="Ann", word="at")


@pytest.mark.parametrize("ruling", ["maybe", "Legal", "ILLEGAL", ""])
def test_challenge_ruling_not_legal_or_illegal(client: FlaskClient, ruling: str) -> None:
    body = two_players(challenges=[challenge(ruling=ruling)])
    refused(
        score(client, body),
        422,
        "challenges[0].ruling",
        "choice_unknown",
        choices=["legal", "illegal"],
    )


@pytest.mark.parametrize("ruling", [True, 1, ["legal"]])
def test_challenge_ruling_not_a_string(client: FlaskClient, ruling: object) -> None:
    body = two_players(challenges=[challenge(ruling=ruling)])
    refused(
        score(client, body),
        400,
        "challenges[0].ruling",
        "choice_not_text",
        choices=["legal", "illegal"],
    )


def test_challenges_not_a_list(client: FlaskClient) -> None:
    refused(
        score(client, two_players(challenges=challenge())), 400, "challenges", "challenges_list"
    )


def test_challenge_unknown_field(client: FlaskClient) -> None:
    body = two_players(challenges=[challenge(points=3)])
    refused(score(client, body), 400, "challenges[0].points", "unknown_field", field="points")


def test_challenge_missing_challenger(client: FlaskClient) -> None:
    body = two_players(challenges=[{"player": "Ann", "word": 0, "ruling": "legal"}])
    refused(score(client, body), 400, "challenges[0].by", "not_text", field="by")


# --- refusals: rules ---------------------------------------------------------------------


def test_rules_unknown_key(client: FlaskClient) -> None:
    body = two_players(rules={"bonus": 10, "timer": 60})
    refused(score(client, body), 400, "rules.timer", "unknown_field", field="timer")


def test_rules_not_an_object(client: FlaskClient) -> None:
    refused(score(client, two_players(rules=["both"])), 400, "rules", "not_an_object")


def test_rules_bad_min_word(client: FlaskClient) -> None:
    body = two_players(rules={"min_word": "words"})
    refused(
        score(client, body),
        422,
        "rules.min_word",
        "choice_unknown",
        choices=["cards", "letters", "one_card"],
    )


def test_rules_bad_two_player_bonus(client: FlaskClient) -> None:
    body = two_players(rules={"two_player_bonus": "none"})
    refused(
        score(client, body),
        422,
        "rules.two_player_bonus",
        "choice_unknown",
        choices=["longest", "most", "both"],
    )


@pytest.mark.parametrize(("key", "points"), [("bonus", -1), ("false_out_penalty", -5),
                                             ("bonus", 1001)])  # fmt: skip
def test_rules_points_out_of_range(client: FlaskClient, key: str, points: int) -> None:
    body = two_players(rules={key: points})
    refused(score(client, body), 422, f"rules.{key}", "points_range", most=1000)


@pytest.mark.parametrize("points", [10.5, "10", True])
def test_rules_bonus_not_a_whole_number(client: FlaskClient, points: object) -> None:
    refused(
        score(client, two_players(rules={"bonus": points})),
        400,
        "rules.bonus",
        "not_whole_number",
        field="bonus",
    )


@pytest.mark.parametrize("floor", ["yes", 1, 0, None])
def test_rules_zero_floor_not_a_bool(client: FlaskClient, floor: object) -> None:
    body = two_players(rules={"zero_floor": floor})
    refused(score(client, body), 400, "rules.zero_floor", "not_true_or_false", field="zero_floor")


def test_rules_empty_lexicon(client: FlaskClient) -> None:
    refused(
        score(client, two_players(rules={"lexicon": " "})),
        422,
        "rules.lexicon",
        "lexicon_name",
        most=40,
    )


# --- HTTP-level errors ------------------------------------------------------------------


def test_unknown_api_address_is_json_404(client: FlaskClient) -> None:
    refused(client.get("/api/v1/nope"), 404, "", "not_found")


def test_get_on_score_is_json_405(client: FlaskClient) -> None:
    refused(client.get("/api/v1/score"), 405, "", "method_not_allowed")


def test_too_large_body_is_json_413(client: FlaskClient) -> None:
    body = example()
    body["players"][0]["name"] = "A" * (257 * 1024)
    data = json.dumps(body).encode()
    assert len(data) > 256 * 1024
    resp = client.post("/api/v1/score", data=data, content_type="application/json")
    refused(resp, 413, "", "too_large")


def test_body_just_under_the_limit_is_read(client: FlaskClient) -> None:
    body = example()
    padding = 255 * 1024 - len(json.dumps(body))
    data = json.dumps(body).replace("{", "{" + " " * padding, 1).encode()
    assert len(data) < 256 * 1024
    resp = client.post("/api/v1/score", data=data, content_type="application/json")
    assert resp.status_code == 200
