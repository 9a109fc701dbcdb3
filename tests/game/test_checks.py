"""Every refusal of a round that could not happen at a real table: its code, numbers and field.

RuleError (422) is a round against the rules; ShapeError (400) is a malformed
request. ShapeError is a subclass of RuleError, so the tests check the exact type.
"""

from __future__ import annotations

import pytest

from companion.game.errors import RuleError, ShapeError
from companion.game.parse import parse_play, parse_rules
from companion.game.play import Hand, Play
from companion.game.rules import Rules
from companion.game.scoring import score_round


def hand(name, *words, unused="", went_out=False):
    return {"name": name, "words": list(words), "unused": unused, "went_out": went_out}


ANN = hand("Ann", "t-o-p")
BEN = hand("Ben", "d-o-g")


def refused(raw, rules=None):
    """The RuleError (not ShapeError) that parsing and scoring ``raw`` raises."""
    with pytest.raises(RuleError) as caught:
        score_round(parse_play(raw), parse_rules(rules))
    assert type(caught.value) is RuleError, caught.value
    assert caught.value.status == 422
    return caught.value


def malformed(raw):
    """The ShapeError that parsing ``raw`` raises."""
    with pytest.raises(ShapeError) as caught:
        parse_play(raw)
    assert caught.value.status == 400
    return caught.value


def assert_refused(raw, where, code, rules=None, **params):
    """The refusal of ``raw``: at ``where``, with ``code`` and (at least) these ``params``."""
    error = refused(raw, rules)
    assert error.where == where, error
    assert error.code == code, error
    for key, value in params.items():
        assert error.params[key] == value, (key, error)
    return error


def test_the_fixtures_are_a_legal_round():
    """The two hands the refusals below start from score without complaint."""
    result = score_round(parse_play({"players": [ANN, BEN]}), Rules())
    assert [p.name for p in result.players] == ["Ann", "Ben"]


# --- Players ----------------------------------------------------------------------------


@pytest.mark.parametrize("count", [0, 1])
def test_fewer_than_two_players(count):
    """A round needs 2 to 8 players."""
    players = [hand(f"P{i}", "t-o-p") for i in range(count)]
    assert_refused({"players": players}, "players", "player_count", least=2, most=8, count=count)


def test_more_than_eight_players():
    """Nine players are refused, at "players"."""
    players = [hand(f"P{i}", unused="eee") for i in range(9)]
    assert_refused({"players": players}, "players", "player_count", least=2, most=8, count=9)


def test_more_than_eight_players_refused_before_reading_them():
    """A long list of players is refused as too many, whatever its entries hold."""
    assert_refused({"players": [42] * 500}, "players", "player_count", count=500)


def test_more_than_eight_players_built_without_parsing():
    """check() itself refuses nine hands (a Play built by code, not parsed)."""
    play = Play(tuple(Hand(f"P{i}", unused=()) for i in range(9)))
    with pytest.raises(RuleError) as caught:
        score_round(play)
    assert caught.value.where == "players"


def test_eight_players_are_fine():
    """Eight players is the most, and allowed."""
    players = [hand(f"P{i}", unused="eee") for i in range(4)]
    players += [hand(f"Q{i}", unused="aaa") for i in range(3)] + [hand("R", unused="ooo")]
    assert len(score_round(parse_play({"players": players})).players) == 8


@pytest.mark.parametrize("name", ["", "   "])
def test_empty_name(name):
    """Every player needs a name; spaces alone are no name."""
    assert_refused(
        {"players": [ANN, hand(name, "d-o-g")]}, "players[1].name", "name_missing", seat=2
    )


def test_name_longer_than_forty_characters():
    """Names are at most 40 characters."""
    long = "x" * 41
    assert_refused(
        {"players": [hand(long, "t-o-p"), BEN]}, "players[0].name", "name_too_long", most=40
    )


def test_name_of_forty_characters_is_fine():
    """A 40-character name is allowed."""
    raw = {"players": [hand("x" * 40, "t-o-p"), BEN]}
    assert score_round(parse_play(raw)).players[0].name == "x" * 40


@pytest.mark.parametrize("second", ["Ann", "ann", "ANN", " Ann "])
def test_duplicate_names_ignoring_case(second):
    """Two players may not share a name, whatever the case."""
    raw = {"players": [ANN, BEN, hand(second, "c-a-t")]}
    assert_refused(raw, "players[2].name", "name_twice", name=second.strip())


def test_more_than_one_went_out():
    """Only one player goes out first: the second one marked is at fault."""
    raw = {
        "players": [
            hand("Ann", "t-o-p", went_out=True),
            hand("Ben", "d-o-g"),
            hand("Cy", "c-a-t", went_out=True),
        ]
    }
    assert_refused(raw, "players[2].went_out", "went_out_twice", first="Ann", second="Cy")


# --- Hand sizes -------------------------------------------------------------------------


@pytest.mark.parametrize("round_number", range(1, 9))
def test_round_deals_round_plus_two_cards(round_number):
    """Round r deals r + 2 cards: exactly that many are accepted."""
    size = round_number + 2
    raw = {
        "round": round_number,
        "players": [hand("Ann", unused="e" * size), hand("Ben", unused="a" * size)],
    }
    result = score_round(parse_play(raw))
    assert [len(p.unused) for p in result.players] == [size, size]


@pytest.mark.parametrize("cards", ["eee", "eeeee"])
def test_round_given_each_hand_must_hold_round_plus_two(cards):
    """Round 2 deals 4 cards: a hand of 3 or 5 is refused, at that player."""
    raw = {"round": 2, "players": [hand("Ann", "t-o-p", unused="a"), hand("Ben", unused=cards)]}
    assert_refused(raw, "players[1]", "hand_size", player="Ben", have=len(cards), round=2, need=4)


def test_round_given_checks_the_first_player_too():
    """The hand-size check names the first player whose count is wrong."""
    raw = {"round": 1, "players": [hand("Ann", "t-o-p", unused="a"), BEN]}
    assert_refused(raw, "players[0]", "hand_size", player="Ann", have=4, round=1, need=3)


@pytest.mark.parametrize("round_number", [0, 9, -1])
def test_round_out_of_range(round_number):
    """The round is 1 to 8."""
    assert_refused(
        {"round": round_number, "players": [ANN, BEN]},
        "round",
        "no_such_round",
        number=round_number,
        rounds=8,
    )


def test_round_out_of_range_built_without_parsing():
    """check() itself refuses round 9 (a Play built by code)."""
    play = parse_play({"players": [ANN, BEN]})
    with pytest.raises(RuleError) as caught:
        score_round(Play(play.hands, round_number=9))
    assert caught.value.where == "round"


@pytest.mark.parametrize(("cards", "count"), [("ee", 2), ("eeeeeeeeeee", 11)])
def test_without_round_hands_hold_three_to_ten(cards, count):
    """Without a round, a hand ends with 3 to 10 cards."""
    raw = {"players": [hand("Ann", unused=cards), hand("Ben", unused=cards.replace("e", "a"))]}
    assert_refused(raw, "players[0]", "hand_size_range", player="Ann", have=count, least=3, most=10)


def test_without_round_hands_are_equal_in_size():
    """Without a round, everyone ends a round with the same number of cards."""
    raw = {"players": [ANN, BEN, hand("Cy", "c-a-t", unused="s")]}
    assert_refused(
        raw, "players[2]", "hand_sizes_differ", player="Cy", have=4, other="Ann", other_has=3
    )


# --- The deck ---------------------------------------------------------------------------


def test_third_z_is_refused_at_the_excess_card():
    """Only two Z exist: the third one entered is the field at fault, and the message names Z."""
    raw = {
        "players": [
            hand("Ann", ["z", "a"], unused="z"),
            hand("Ben", ["o", "z"], unused="e"),
        ]
    }
    assert_refused(raw, "players[1].words[0][1]", "deck_copies", card="z", copies=2, count=3)


def test_excess_card_in_unused():
    """The excess card may be an unused one: the path says so."""
    raw = {
        "players": [
            hand("Ann", "q-a-t"),
            hand("Ben", unused=["e", "qu", "q"]),
            hand("Cy", unused="qee"),
        ]
    }
    assert_refused(raw, "players[2].unused[0]", "deck_copies", card="q", copies=2)


def test_third_qu_is_refused():
    """Double-letter cards are counted too: two QU exist."""
    raw = {
        "players": [
            hand("Ann", ["qu", "i", "t"]),
            hand("Ben", ["qu", "a", "d"]),
            hand("Cy", ["qu", "o", "d"]),
        ]
    }
    assert_refused(raw, "players[2].words[0][0]", "deck_copies", card="qu", copies=2)


def test_eleventh_a_is_refused():
    """Ten A exist: the eleventh is refused."""
    raw = {
        "players": [
            hand("Ann", unused="aaaaa"),
            hand("Ben", unused="aaaaa"),
            hand("Cy", unused="eaeee"),
        ]
    }
    assert_refused(raw, "players[2].unused[1]", "deck_copies", card="a", copies=10, count=11)


def test_all_copies_of_a_card_are_allowed():
    """Both Z, all ten A: exactly the deck is fine."""
    raw = {
        "players": [
            hand("Ann", ["z", "a", "z"], unused="aa"),
            hand("Ben", unused="aaaaa"),
            hand("Cy", unused="aaeee"),
        ]
    }
    result = score_round(parse_play(raw), Rules())
    assert result.player("Ann").word_points == 30


# --- Minimum word -----------------------------------------------------------------------


def test_single_card_word_under_the_cards_rule():
    """Default minimum word: two cards. A lone TH is refused at that word."""
    raw = {"players": [ANN, hand("Ben", "d-o", ["th"])]}
    assert_refused(raw, "players[1].words[1]", "word_one_card", player="Ben", card="th")


def test_single_letter_word_under_the_letters_rule():
    """House rule two letters: a lone E is still refused."""
    raw = {"players": [hand("Ann", ["e"], unused="aa"), BEN]}
    assert_refused(
        raw,
        "players[0].words[0]",
        "word_one_letter",
        rules={"min_word": "letters"},
        player="Ann",
        card="e",
    )


def test_empty_word():
    """A word needs cards."""
    raw = {"players": [hand("Ann", "t-o-p", []), BEN]}
    assert_refused(raw, "players[0].words[1]", "word_empty")
    raw = {"players": [hand("Ann", "t-o-p", ""), BEN]}
    assert_refused(raw, "players[0].words[1]", "word_empty")


# --- Challenges -------------------------------------------------------------------------


def with_challenges(*challenges, players=(ANN, BEN)):
    return {"players": list(players), "challenges": list(challenges)}


def test_challenge_by_unknown_player():
    """Only a player of the round may challenge."""
    raw = with_challenges({"by": "Zed", "player": "Ann", "word": 0, "ruling": "legal"})
    assert_refused(raw, "challenges[0].by", "challenger_unknown", name="Zed", names=["Ann", "Ben"])


def test_challenge_of_unknown_player():
    """Only a word of a player of the round may be challenged."""
    raw = with_challenges(
        {"by": "Ann", "player": "Ben", "word": 0, "ruling": "legal"},
        {"by": "Ann", "player": "Zed", "word": 0, "ruling": "legal"},
    )
    assert_refused(raw, "challenges[1].player", "challenged_unknown", name="Zed")


def test_challenge_of_own_word():
    """Nobody challenges their own word."""
    raw = with_challenges({"by": "Ann", "player": "Ann", "word": 0, "ruling": "illegal"})
    assert_refused(raw, "challenges[0].by", "challenge_own_word", player="Ann")


@pytest.mark.parametrize("index", [1, 5, -1])
def test_challenge_of_a_word_index_out_of_range(index):
    """The challenged word must exist: Ben laid down one word, numbered 0."""
    raw = with_challenges({"by": "Ann", "player": "Ben", "word": index, "ruling": "legal"})
    assert_refused(raw, "challenges[0].word", "challenge_no_word", player="Ben", count=1)


def test_challenge_of_a_player_without_words():
    """A player with no words has nothing to challenge."""
    raw = with_challenges(
        {"by": "Ann", "player": "Ben", "word": 0, "ruling": "legal"},
        players=(ANN, hand("Ben", unused="eee")),
    )
    assert_refused(raw, "challenges[0].word", "challenge_no_word", player="Ben", count=0)


def test_same_word_challenged_twice():
    """A word is challenged once, even by two different players."""
    raw = with_challenges(
        {"by": "Ben", "player": "Ann", "word": 0, "ruling": "legal"},
        {"by": "Cy", "player": "Ann", "word": 0, "ruling": "illegal"},
        players=(ANN, BEN, hand("Cy", "c-a-t")),
    )
    assert_refused(raw, "challenges[1]", "challenge_twice", player="Ann", word="top")


def test_unknown_ruling():
    """A ruling is "legal" or "illegal"."""
    raw = with_challenges({"by": "Ann", "player": "Ben", "word": 0, "ruling": "maybe"})
    assert_refused(raw, "challenges[0].ruling", "choice_unknown", choices=["legal", "illegal"])


# --- Unknown card names -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "where"),
    [
        (["qu", "i", "zz"], "players[1].words[0][2]"),
        ("qu-i-zz", "players[1].words[0][2]"),
        ("qu-ix-z", "players[1].words[0][1]"),
        ("t?p", "players[1].words[0][1]"),
        (["t", "o", ""], "players[1].words[0][2]"),
        ("t--p", "players[1].words[0][1]"),
    ],
)
def test_unknown_card_name_in_a_word(word, where):
    """An unknown card name is refused at its exact place, in list or string form."""
    raw = {"players": [ANN, {"name": "Ben", "words": [word]}]}
    error = assert_refused(raw, where, "not_a_card")
    assert error.status == 422


def test_unknown_card_name_in_unused():
    """Unused cards are checked the same way."""
    raw = {"players": [ANN, {"name": "Ben", "words": ["d-o"], "unused": ["e", "ng"]}]}
    assert_refused(raw, "players[1].unused[1]", "not_a_card", card="ng")


def test_card_names_ignore_case():
    """Card names are read whatever their case: "QU-I-Z" and ["Qu","I","z"] are QU·I·Z."""
    raw = {"players": [hand("Ann", "QU-I-Z"), hand("Ben", ["Qu", "I", "z"])]}
    result = score_round(parse_play(raw))
    assert [p.word_points for p in result.players] == [25, 25]


# --- Malformed requests (ShapeError, 400) -----------------------------------------------


@pytest.mark.parametrize(
    ("raw", "where"),
    [
        ([], ""),
        ("players", ""),
        ({}, "players"),
        ({"players": {"Ann": ["top"]}}, "players"),
        ({"players": "Ann,Ben"}, "players"),
        ({"players": [ANN, "Ben"]}, "players[1]"),
        ({"players": [ANN, {"name": 7, "words": ["d-o-g"]}]}, "players[1].name"),
        ({"players": [ANN, {"words": ["d-o-g"]}]}, "players[1].name"),
        ({"players": [ANN, {"name": "Ben", "words": "d-o-g"}]}, "players[1].words"),
        ({"players": [ANN, {"name": "Ben", "words": [7]}]}, "players[1].words[0]"),
        ({"players": [ANN, {"name": "Ben", "words": [["d", 0, "g"]]}]}, "players[1].words[0][1]"),
        ({"players": [ANN, {"name": "Ben", "words": [["d", None]]}]}, "players[1].words[0][1]"),
        ({"players": [ANN, {"name": "Ben", "words": [], "unused": 3}]}, "players[1].unused"),
        ({"players": [ANN, {"name": "Ben", "words": [], "unused": [1]}]}, "players[1].unused[0]"),
        ({"players": [ANN, {"name": "Ben", "went_out": "yes"}]}, "players[1].went_out"),
        ({"players": [ANN, {"name": "Ben", "went_out": 1}]}, "players[1].went_out"),
        ({"players": [ANN, BEN], "round": True}, "round"),
        ({"players": [ANN, BEN], "round": "2"}, "round"),
        ({"players": [ANN, BEN], "round": 2.0}, "round"),
        ({"players": [ANN, BEN], "colour": "red"}, "colour"),
        ({"players": [ANN, {"name": "Ben", "score": 3}]}, "players[1].score"),
        ({"players": [ANN, BEN], "challenges": {}}, "challenges"),
        ({"players": [ANN, BEN], "challenges": ["Ann"]}, "challenges[0]"),
        (
            {"players": [ANN, BEN], "challenges": [{"by": "Ann", "player": "Ben", "word": "0"}]},
            "challenges[0].word",
        ),
        (
            {"players": [ANN, BEN], "challenges": [{"by": "Ann", "player": "Ben", "word": True}]},
            "challenges[0].word",
        ),
        (
            {"players": [ANN, BEN], "challenges": [{"by": 1, "player": "Ben", "word": 0}]},
            "challenges[0].by",
        ),
        (
            {"players": [ANN, BEN], "challenges": [{"by": "Ann", "word": 0}]},
            "challenges[0].player",
        ),
        (
            {
                "players": [ANN, BEN],
                "challenges": [{"by": "Ann", "player": "Ben", "word": 0, "ruling": True}],
            },
            "challenges[0].ruling",
        ),
        (
            {
                "players": [ANN, BEN],
                "challenges": [{"by": "Ann", "player": "Ben", "word": 0, "x": 1}],
            },
            "challenges[0].x",
        ),
    ],
)
def test_malformed_request(raw, where):
    """Wrong types and unknown fields are a malformed request (400), at the field."""
    assert malformed(raw).where == where


def test_unknown_field_is_named():
    """The message names the unknown field and lists the expected ones."""
    error = malformed({"players": [ANN, BEN], "colour": "red"})
    assert error.code == "unknown_field"
    assert error.params["field"] == "colour"
    assert list(error.params["keys"]) == ["challenges", "players", "round", "rules"]


# --- Rules ------------------------------------------------------------------------------


def test_rules_defaults():
    """Missing rules, or an empty object, take the rule book's defaults."""
    assert parse_rules(None) == parse_rules({}) == Rules()
    assert Rules().as_dict() == {
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


@pytest.mark.parametrize(
    ("raw", "where", "shape"),
    [
        ({"min_word": "words"}, "rules.min_word", False),
        ({"min_word": 2}, "rules.min_word", True),
        ({"two_player_bonus": "none"}, "rules.two_player_bonus", False),
        ({"bonus": -1}, "rules.bonus", False),
        ({"bonus": 1001}, "rules.bonus", False),
        ({"bonus": True}, "rules.bonus", True),
        ({"bonus": 10.5}, "rules.bonus", True),
        ({"false_out_penalty": -5}, "rules.false_out_penalty", False),
        ({"zero_floor": "yes"}, "rules.zero_floor", True),
        ({"lexicon": ""}, "rules.lexicon", False),
        ({"lexicon": 3}, "rules.lexicon", True),
        ({"house": 1}, "rules.house", True),
        ([], "rules", True),
    ],
)
def test_refused_rules(raw, where, shape):
    """Each house rule is checked, at its field: wrong type 400, wrong value 422."""
    with pytest.raises(RuleError) as caught:
        parse_rules(raw)
    assert caught.value.where == where
    assert isinstance(caught.value, ShapeError) is shape


# --- Small things a player types differently ----------------------------------------------


def test_challenge_names_match_players_in_any_case():
    """Names are distinct regardless of case, so 'ann' challenging is Ann, and she pays."""
    round_ = {
        "players": [ANN, BEN],
        "challenges": [{"by": "ann", "player": "BEN", "word": 0, "ruling": "legal"}],
    }
    result = score_round(parse_play(round_), Rules())
    assert result.player("Ann").challenge_penalty == 13  # D·O·G = 5 + 2 + 6
    assert result.challenges[0].challenge.by == "Ann"
    assert result.challenges[0].charged_to == "Ann"


def test_a_look_alike_unicode_letter_is_not_a_card():
    """The Kelvin sign lower-cases to k, but it is not the K card on the table."""
    error = assert_refused(
        {"players": [hand("Ann", ["t", "o", "p"], unused=["\u212a"]), BEN]},
        "players[0].unused[0]",
        "not_a_card",
        card="\u212a",
    )
    assert error.status == 422


def test_a_lone_single_letter_card_is_not_pointed_to_the_two_letters_rule():
    """A lone A is no word under either rule, so the message doesn't suggest the house rule."""
    assert_refused(
        {"players": [hand("Ann", "t-o-p", ["a"]), hand("Ben", "d-o-g", "a")]},
        "players[0].words[1]",
        "word_one_card",
        card="a",
        double=False,  # no hint at the house rule 'two letters'
    )
    assert_refused(
        {"players": [hand("Ann", "t-o-p", ["in"]), hand("Ben", "d-o-g", "e")]},
        "players[0].words[1]",
        "word_one_card",
        card="in",
        double=True,  # the message points to the house rule 'two letters'
    )
