"""Every scoring rule of rules.md, with the exact numbers a player would work out by hand.

Hands are entered as the API takes them: a word is a list of card names or a
string ("t-o-p" by card, "top" one letter per card). Unless a test is about a
bonus, it sets the bonus to 0 so the numbers show only the rule at hand.
"""

from __future__ import annotations

import pytest

from companion.game.challenges import TABLE_ILLEGAL, TABLE_LEGAL, Verdict
from companion.game.errors import RuleError, ShapeError
from companion.game.parse import parse_play, parse_rules
from companion.game.scoring import score_round

NO_BONUS = {"bonus": 0}


def hand(name, *words, unused="", went_out=False):
    return {"name": name, "words": list(words), "unused": unused, "went_out": went_out}


def score(*hands, challenges=(), rules=None, judge=None):
    raw = {"players": list(hands), "challenges": list(challenges)}
    return score_round(parse_play(raw), parse_rules(rules), judge)


def challenge(by, player, word=0, ruling=None):
    raw = {"by": by, "player": player, "word": word}
    if ruling is not None:
        raw["ruling"] = ruling
    return raw


def parts(player):
    """The parts of a player's score, as a dict without the words."""
    d = player.as_dict()
    return {k: d[k] for k in (
        "word_points", "unused_points", "bonus_most_words", "bonus_longest_word",
        "challenge_penalty", "false_out_penalty", "total", "score",
    )}  # fmt: skip


class Judge:
    """A dictionary stand-in that records the words it is asked about."""

    def __init__(self, legal, reason):
        self.verdict = Verdict(legal, reason)
        self.asked = []

    def __call__(self, word):
        self.asked.append(word)
        return self.verdict


# --- Words and unused cards -------------------------------------------------------------


def test_word_points_top_is_eleven():
    """Rule 1 (words): T·O·P scores 3 + 2 + 6 = 11."""
    result = score(hand("Ann", "top"), hand("Ben", unused="aei"), rules=NO_BONUS)
    ann = result.player("Ann")
    assert ann.words[0].value == 11
    assert ann.word_points == 11
    assert ann.total == ann.score == 11


def test_quiz_as_qu_i_z_less_unused_m_is_twenty():
    """Rules 1-2, seed example: QU·I·Z = 25, an unused M costs 5, 25 - 5 = 20."""
    result = score(
        hand("Ann", ["qu", "i", "z"], unused="m"), hand("Ben", "t-o-p", unused="a"), rules=NO_BONUS
    )
    assert parts(result.player("Ann")) == {
        "word_points": 25, "unused_points": 5, "bonus_most_words": 0, "bonus_longest_word": 0,
        "challenge_penalty": 0, "false_out_penalty": 0, "total": 20, "score": 20,
    }  # fmt: skip


def test_the_same_letters_score_by_the_cards_played():
    """Rule 1: a word scores the cards laid, so "quiz" typed by letter is Q·U·I·Z = 35."""
    result = score(
        hand("Ann", "quiz", unused="m"), hand("Ben", "t-o-p", unused="ae"), rules=NO_BONUS
    )
    ann = result.player("Ann")
    assert [c.name for c in ann.words[0].cards] == ["q", "u", "i", "z"]
    assert ann.word_points == 35
    assert ann.total == 30


def test_unused_cards_are_subtracted():
    """Rule 2 (unused): C·A·T = 13 with M left over (5) is 8; four vowels left over is -8."""
    result = score(
        hand("Ann", "c-a-t", unused="m"),
        hand("Ben", unused="aeio"),
        rules={**NO_BONUS, "zero_floor": False},
    )
    assert result.player("Ann").unused_points == 5
    assert result.player("Ann").total == 8
    assert result.player("Ben").unused_points == 8
    assert result.player("Ben").total == -8
    assert [c.name for c in result.player("Ben").unused] == ["a", "e", "i", "o"]


# --- Most words bonus -------------------------------------------------------------------


def test_most_words_bonus_goes_to_the_strict_winner():
    """Rule 3: +10 to the one player with strictly more words than every other player."""
    result = score(
        hand("Ann", "a-t", "i-s"),  # 2 words, 10 points
        hand("Ben", "r-a-n-t"),  # 1 word of 4 letters (longest), 15 points
        hand("Cy", "d-o-e", unused="k"),  # 1 word, 9 - 8 = 1
    )
    assert [p.bonus_most_words for p in result.players] == [10, 0, 0]
    assert result.most_words.winner == "Ann"
    assert result.most_words.best == 2
    assert [p.total for p in result.players] == [20, 25, 1]


def test_most_words_tie_gives_nobody_the_bonus():
    """Rule 3: a tie for the most words means nobody gets it."""
    result = score(
        hand("Ann", "a-t", "i-s"),
        hand("Ben", "o-x", "b-e"),
        hand("Cy", "d-o-e", unused="k"),
        rules={"bonus": 10},
    )
    assert [p.bonus_most_words for p in result.players] == [0, 0, 0]
    assert result.most_words.winner is None
    assert result.most_words.tied == ("Ann", "Ben")
    assert result.most_words.best == 2


# --- Longest word bonus -----------------------------------------------------------------


def test_longest_word_is_counted_in_letters_not_cards():
    """Rule 4: QU·I·Z (3 cards, 4 letters) beats C·A·T and D·O·G (3 cards, 3 letters)."""
    result = score(hand("Ann", ["qu", "i", "z"]), hand("Ben", "c-a-t"), hand("Cy", "d-o-g"))
    assert [p.bonus_longest_word for p in result.players] == [10, 0, 0]
    assert result.longest_word.winner == "Ann"
    assert result.longest_word.best == 4
    assert result.player("Ann").total == 25 + 10


def test_two_double_cards_make_a_four_letter_word():
    """Rule 4: TH·IN is two cards but four letters, longer than the 3-card T·O·P."""
    result = score(hand("Ann", ["th", "in"], unused="e"), hand("Ben", "t-o-p"), hand("Cy", "c-a-t"))
    assert result.longest_word.winner == "Ann"
    assert result.player("Ann").bonus_longest_word == 10
    assert result.player("Ann").total == 16 - 2 + 10


def test_longest_word_tie_in_letters_gives_nobody_even_with_fewer_cards():
    """Rule 4: QU·I·Z (3 cards) and R·A·N·T (4 cards) both have 4 letters: a tie, nobody."""
    result = score(
        hand("Ann", ["qu", "i", "z"], unused="e"), hand("Ben", "r-a-n-t"), hand("Cy", "d-o-g-s")
    )
    assert [p.bonus_longest_word for p in result.players] == [0, 0, 0]
    assert result.longest_word.winner is None
    assert result.longest_word.tied == ("Ann", "Ben", "Cy")
    assert result.longest_word.best == 4


def test_longest_word_compares_each_players_longest_word():
    """Rule 4: a player's longest word counts, not their letters in all words together."""
    result = score(
        hand("Ann", "a-t", "i-s", "o-x"),  # six letters, longest 2
        hand("Ben", "r-a-n-t", unused="ee"),  # longest 4
        hand("Cy", "d-o-g", unused="eee"),
    )
    assert result.longest_word.winner == "Ben"
    assert result.player("Ben").bonus_longest_word == 10
    assert result.player("Ann").bonus_most_words == 10


def test_players_without_words_do_not_compete_for_longest():
    """Rule 4: a player with no words does not compete; the only player with a word wins."""
    result = score(
        hand("Ann", "a-t", unused="e"), hand("Ben", unused="eio"), hand("Cy", unused="oao")
    )
    assert result.longest_word.winner == "Ann"
    assert result.longest_word.tied == ()
    assert [p.bonus_longest_word for p in result.players] == [10, 0, 0]


def test_nobody_with_words_means_nobody_gets_a_bonus():
    """Rule 4 (and 3): with nobody holding a word, nobody gets either bonus."""
    result = score(hand("Ann", unused="aei"), hand("Ben", unused="eio"), hand("Cy", unused="oau"))
    assert result.longest_word.winner is None
    assert result.most_words.winner is None
    assert result.longest_word.tied == result.most_words.tied == ()
    assert all(p.bonus_longest_word == p.bonus_most_words == 0 for p in result.players)
    assert [p.total for p in result.players] == [-6, -6, -8]
    assert [p.score for p in result.players] == [0, 0, 0]


def test_one_player_can_win_both_bonuses():
    """Rule 5: the same player takes most words and longest word: +20."""
    result = score(
        hand("Ann", "a-t", "r-a-n-t"),  # 2 words, longest 4 letters, 5 + 15 = 20
        hand("Ben", "d-o-g", unused="eee"),
        hand("Cy", "c-a-t", unused="ooo"),
    )
    ann = result.player("Ann")
    assert (ann.bonus_most_words, ann.bonus_longest_word) == (10, 10)
    assert ann.total == 20 + 20


# --- Two players ------------------------------------------------------------------------

TWO = (hand("Ann", "a-t", "i-s"), hand("Ben", "r-a-n-t"))
"""Ann has the most words (2 to 1), Ben the longest (4 letters to 2)."""


def test_two_players_default_is_longest_word_only():
    """Rule 6: with two players only the longest-word bonus is used by default."""
    result = score(*TWO)
    assert parts(result.player("Ann"))["bonus_most_words"] == 0
    assert parts(result.player("Ben"))["bonus_longest_word"] == 10
    assert (result.most_words.in_play, result.longest_word.in_play) == (False, True)
    assert result.most_words.winner is None
    assert [p.total for p in result.players] == [10, 25]


def test_two_players_house_rule_most_words_only():
    """Rule 6: "most" gives the most-words bonus and drops the longest-word bonus."""
    result = score(*TWO, rules={"two_player_bonus": "most"})
    assert result.player("Ann").bonus_most_words == 10
    assert result.player("Ben").bonus_longest_word == 0
    assert (result.most_words.in_play, result.longest_word.in_play) == (True, False)
    assert [p.total for p in result.players] == [20, 15]


def test_two_players_house_rule_both_bonuses():
    """Rule 6: "both" uses both bonuses with two players."""
    result = score(*TWO, rules={"two_player_bonus": "both"})
    assert result.player("Ann").bonus_most_words == 10
    assert result.player("Ben").bonus_longest_word == 10
    assert [p.total for p in result.players] == [20, 25]


def test_two_player_rule_does_not_apply_to_three_players():
    """Rule 6 is for two players only: with three, both bonuses count whatever is chosen."""
    result = score(*TWO, hand("Cy", "o-x", unused="ee"), rules={"two_player_bonus": "most"})
    assert result.player("Ann").bonus_most_words == 10
    assert result.player("Ben").bonus_longest_word == 10


# --- Bonus size, zero floor -------------------------------------------------------------


@pytest.mark.parametrize("size", [0, 1, 25])
def test_bonus_size_house_rule(size):
    """House rule "bonus size": each bonus is worth the agreed whole number."""
    result = score(
        hand("Ann", "a-t", "r-a-n-t"),
        hand("Ben", "d-o-g", unused="eee"),
        hand("Cy", unused="oooooo"),
        rules={"bonus": size},
    )
    ann = result.player("Ann")
    assert (ann.bonus_most_words, ann.bonus_longest_word) == (size, size)
    assert ann.total == 20 + 2 * size


def test_zero_floor_on_by_default():
    """Rule 8: a negative round total becomes 0 in the score; the total shows the truth."""
    result = score(hand("Ann", "a-t", unused="zx"), hand("Ben", "o-x", unused="ee"), rules=NO_BONUS)
    ann = result.player("Ann")
    assert ann.total == 5 - 26
    assert ann.score == 0


def test_zero_floor_off_keeps_the_negative_score():
    """House rule "zero floor off": the score is the total, negative or not."""
    result = score(
        hand("Ann", "a-t", unused="zx"), hand("Ben", "o-x", unused="ee"),
        rules={**NO_BONUS, "zero_floor": False},
    )  # fmt: skip
    ann = result.player("Ann")
    assert ann.total == ann.score == -21


def test_zero_floor_applies_after_bonuses():
    """Rule 8: A·T (5) - Z (14) + longest 10 = 1, not max(-9, 0) + 10 = 10."""
    result = score(hand("Ann", "a-t", unused="z"), hand("Ben", unused="eio"))
    ann = result.player("Ann")
    assert ann.bonus_longest_word == 10
    assert ann.total == ann.score == 1


def test_zero_floor_applies_after_challenges():
    """Rule 8: T·O·P (11) less a lost challenge of Q·A·T (20) is -9, scored 0."""
    result = score(
        hand("Ann", "t-o-p"),
        hand("Ben", "q-a-t"),
        challenges=[challenge("Ann", "Ben", 0, "legal")],
        rules=NO_BONUS,
    )
    ann = result.player("Ann")
    assert ann.challenge_penalty == 20
    assert ann.total == -9
    assert ann.score == 0


# --- Challenges -------------------------------------------------------------------------


def test_legal_challenge_costs_the_challenger_the_word_value():
    """Challenges: the word is legal, so the challenger subtracts its value; its owner keeps it."""
    result = score(
        hand("Ann", ["qu", "i", "z"], unused="m"),
        hand("Ben", "t-o-p", unused="a"),
        challenges=[challenge("Ben", "Ann", 0, "legal")],
        rules=NO_BONUS,
    )
    assert parts(result.player("Ann"))["total"] == 20
    assert result.player("Ann").words[0].struck is False
    assert parts(result.player("Ben")) == {
        "word_points": 11, "unused_points": 2, "bonus_most_words": 0, "bonus_longest_word": 0,
        "challenge_penalty": 25, "false_out_penalty": 0, "total": -16, "score": 0,
    }  # fmt: skip
    assert result.challenges[0].as_dict() == {
        "by": "Ben", "player": "Ann", "word": 0, "text": "quiz", "legal": True,
        "decided_by": "table", "reason": TABLE_LEGAL, "code": TABLE_LEGAL, "points": 25,
        "charged_to": "Ben", "decided": True,
    }  # fmt: skip


def test_illegal_challenge_strikes_steve_costing_21_instead_of_earning_21():
    """Challenges, seed example: STEVE (21) struck as a name costs 21 instead of earning 21."""
    ann_hand, ben_hand = hand("Ann", "steve"), hand("Ben", "t-o-p", unused="ae")
    unchallenged = score(ann_hand, ben_hand)
    assert parts(unchallenged.player("Ann"))["total"] == 21 + 10  # longest word: 5 letters
    result = score(ann_hand, ben_hand, challenges=[challenge("Ben", "Ann", 0, "illegal")])
    assert parts(result.player("Ann")) == {
        "word_points": 0, "unused_points": 21, "bonus_most_words": 0, "bonus_longest_word": 0,
        "challenge_penalty": 0, "false_out_penalty": 0, "total": -21, "score": 0,
    }  # fmt: skip
    # Ben, the challenger, pays nothing, and now holds the only (so longest) word.
    assert parts(result.player("Ben")) == {
        "word_points": 11, "unused_points": 4, "bonus_most_words": 0, "bonus_longest_word": 10,
        "challenge_penalty": 0, "false_out_penalty": 0, "total": 17, "score": 17,
    }  # fmt: skip
    assert result.challenges[0].as_dict() == {
        "by": "Ben", "player": "Ann", "word": 0, "text": "steve", "legal": False,
        "decided_by": "table", "reason": TABLE_ILLEGAL, "code": TABLE_ILLEGAL, "points": 21,
        "charged_to": "Ann", "decided": True,
    }  # fmt: skip


def test_struck_word_stays_listed_and_its_cards_count_as_unused():
    """Challenges: a struck word stays in words marked struck; its cards join the unused cards."""
    result = score(
        hand("Ann", "t-o-p", "z-a-x", unused="e"),
        hand("Ben", "d-o-g-s", unused="eee"),
        challenges=[challenge("Ben", "Ann", 1, "illegal")],
        rules=NO_BONUS,
    )
    ann = result.player("Ann").as_dict()
    assert [w["struck"] for w in ann["words"]] == [False, True]
    assert ann["words"][1] == {
        "cards": ["z", "a", "x"], "text": "zax", "letters": 3, "value": 28, "struck": True,
    }  # fmt: skip
    assert ann["unused"] == ["e", "z", "a", "x"]
    assert (ann["word_points"], ann["unused_points"], ann["total"]) == (11, 30, -19)


def test_bonuses_are_decided_after_challenges():
    """Challenges: a struck word no longer counts for either bonus.

    Before: Ann has 2 words and the longest (QUART, 5 letters): both bonuses.
    After QUART is struck: Ann and Ben tie on words (1 each), Ben's DOGS is longest.
    """
    hands = (
        hand("Ann", "a-t", "q-u-a-r-t", unused="e"),
        hand("Ben", "d-o-g-s", unused="eiii"),
        hand("Cy", unused="llllyyyy"),
        hand("Di", "e-e", unused="oooooo"),
    )
    before = score(*hands)
    assert before.most_words.winner == "Ann"
    assert before.longest_word.winner == "Ann"
    after = score(*hands, challenges=[challenge("Ben", "Ann", 1, "illegal")])
    assert after.most_words.winner is None
    assert after.most_words.tied == ("Ann", "Ben", "Di")
    assert after.longest_word.winner == "Ben"
    assert parts(after.player("Ann"))["total"] == 5 - (2 + 29)
    assert parts(after.player("Ben"))["total"] == 16 - 8 + 10


def test_two_challenges_can_cost_one_challenger_twice():
    """Challenges: each lost challenge is charged to its challenger; the penalties add up."""
    result = score(
        hand("Ann", "t-o-p", unused="a"),
        hand("Ben", "d-o-g", unused="e"),
        hand("Cy", "c-a-t", unused="e"),
        challenges=[challenge("Ann", "Ben", 0, "legal"), challenge("Ann", "Cy", 0, "legal")],
        rules=NO_BONUS,
    )
    assert result.player("Ann").challenge_penalty == 13 + 13
    assert result.player("Ann").total == 11 - 2 - 26


# --- False going out --------------------------------------------------------------------


def test_false_going_out_has_no_penalty_by_default():
    """Going out: cards left over simply count as unused, no more (default)."""
    result = score(
        hand("Ann", "t-o-p", unused="a", went_out=True), hand("Ben", "d-o-g-s"), rules=NO_BONUS
    )
    assert result.player("Ann").false_out_penalty == 0
    assert result.player("Ann").total == 9


def test_false_going_out_penalty_house_rule():
    """House rule: a player marked as going out but left with unused cards pays the penalty."""
    rules = {**NO_BONUS, "false_out_penalty": 15}
    result = score(
        hand("Ann", "t-o-p", unused="a", went_out=True),
        hand("Ben", "d-o-g", unused="e"),
        rules=rules,
    )
    assert result.player("Ann").false_out_penalty == 15
    assert result.player("Ann").total == 11 - 2 - 15
    # Ben did not go out: unused cards cost him no penalty.
    assert result.player("Ben").false_out_penalty == 0


def test_true_going_out_pays_no_penalty():
    """House rule: a player who went out using every card pays no false-out penalty."""
    rules = {**NO_BONUS, "false_out_penalty": 15}
    result = score(
        hand("Ann", "t-o-p-s", went_out=True), hand("Ben", "d-o-g", unused="e"), rules=rules
    )
    assert result.player("Ann").false_out_penalty == 0
    assert result.player("Ann").total == 14


def test_false_going_out_penalty_after_a_struck_word():
    """House rule: going out with every card in words, then losing a word, is a false going out."""
    rules = {**NO_BONUS, "false_out_penalty": 15}
    result = score(
        hand("Ann", "t-o", "z-a", went_out=True),
        hand("Ben", "d-o-g", unused="e"),
        challenges=[challenge("Ben", "Ann", 1, "illegal")],
        rules=rules,
    )
    ann = result.player("Ann")
    assert ann.false_out_penalty == 15
    assert (ann.word_points, ann.unused_points, ann.total) == (5, 16, 5 - 16 - 15)


# --- Minimum word -----------------------------------------------------------------------


def test_min_word_cards_refuses_a_lone_double_card():
    """Minimum word (default "2 cards"): a lone IN is refused, at the word."""
    with pytest.raises(RuleError) as caught:
        score(hand("Ann", ["in"], unused="ee"), hand("Ben", "t-o-p"))
    assert not isinstance(caught.value, ShapeError)
    assert caught.value.where == "players[0].words[0]"
    assert caught.value.code == "word_one_card"
    assert caught.value.params["card"] == "in"


def test_min_word_letters_allows_a_lone_double_card():
    """Minimum word house rule "2 letters": a lone IN (7) stands as a word."""
    result = score(
        hand("Ann", ["in"], unused="ee"),
        hand("Ben", "t-o-p"),
        rules={**NO_BONUS, "min_word": "letters"},
    )
    ann = result.player("Ann")
    assert ann.word_points == 7
    assert ann.total == 3


@pytest.mark.parametrize("typed", ["in-", "-in", ["in"]])
def test_a_lone_double_card_can_be_typed_with_a_dash(typed):
    """'in-' is the IN card alone (7 points, 2 letters), where plain 'in' is I·N."""
    result = score(
        hand("Ann", typed, unused="ee"),
        hand("Ben", "t-o-p"),
        rules={**NO_BONUS, "min_word": "letters"},
    )
    word = result.player("Ann").words[0]
    assert [c.name for c in word.cards] == ["in"]
    assert (word.value, word.letters) == (7, 2)


@pytest.mark.parametrize("min_word", ["cards", "letters"])
def test_a_one_letter_card_is_never_a_word(min_word):
    """Minimum word: a single one-letter card is refused under both rules."""
    with pytest.raises(RuleError) as caught:
        score(hand("Ben", "t-o-p"), hand("Ann", "a", unused="ee"), rules={"min_word": min_word})
    assert caught.value.where == "players[1].words[0]"
    assert caught.value.code == ("word_one_card" if min_word == "cards" else "word_one_letter")
    assert caught.value.params["player"] == "Ann"


# --- The judge --------------------------------------------------------------------------


def test_challenge_without_ruling_is_put_to_the_judge():
    """Challenges: without the table's ruling the dictionary decides, and its reason is kept."""
    judge = Judge(False, "proper_noun")
    result = score(
        hand("Ann", "steve"), hand("Ben", "t-o-p", unused="ae"),
        challenges=[challenge("Ben", "Ann")], rules=NO_BONUS, judge=judge,
    )  # fmt: skip
    assert judge.asked == ["steve"]
    ruling = result.challenges[0].as_dict()
    assert ruling["legal"] is False
    assert (ruling["decided_by"], ruling["code"]) == ("dictionary", "proper_noun")
    assert result.player("Ann").words[0].struck is True
    assert result.player("Ann").total == -21


def test_judge_is_asked_the_letters_of_the_cards():
    """Challenges: the judge gets the word as lower-case letters, QU·I·Z as "quiz"."""
    judge = Judge(True, "in_dictionary")
    result = score(
        hand("Ann", ["QU", "I", "Z"], unused="m"), hand("Ben", "t-o-p", unused="a"),
        challenges=[challenge("Ben", "Ann")], rules=NO_BONUS, judge=judge,
    )  # fmt: skip
    assert judge.asked == ["quiz"]
    assert result.challenges[0].ruling.decided_by == "dictionary"
    assert result.challenges[0].ruling.reason == "in_dictionary"
    assert result.player("Ben").challenge_penalty == 25


def test_table_ruling_wins_over_the_judge():
    """Challenges: when the table ruled, the dictionary is not asked."""
    judge = Judge(False, "not_in_dictionary")
    result = score(
        hand("Ann", "t-o-p"), hand("Ben", "d-o-g"),
        challenges=[challenge("Ann", "Ben", 0, "legal")], rules=NO_BONUS, judge=judge,
    )  # fmt: skip
    assert judge.asked == []
    assert result.challenges[0].ruling.decided_by == "table"
    assert result.player("Ann").challenge_penalty == 13


def test_challenge_without_ruling_or_judge_asks_for_a_ruling():
    """Challenges: with no dictionary at hand, a challenge needs the table's ruling."""
    with pytest.raises(RuleError) as caught:
        score(hand("Ann", "t-o-p"), hand("Ben", "d-o-g"), challenges=[challenge("Ann", "Ben")])
    assert caught.value.where == "challenges[0].ruling"
    assert caught.value.code == "challenge_needs_ruling"
    assert caught.value.params["word"] == "dog"


def test_second_challenge_without_ruling_points_at_the_second():
    """Challenges: the missing ruling is reported at the challenge that lacks it."""
    with pytest.raises(RuleError) as caught:
        score(
            hand("Ann", "t-o-p"), hand("Ben", "d-o-g"),
            challenges=[challenge("Ann", "Ben", 0, "illegal"), challenge("Ben", "Ann")],
        )  # fmt: skip
    assert caught.value.where == "challenges[1].ruling"


# --- The api.md example -----------------------------------------------------------------


def test_the_api_example_round():
    """api.md /score: Ann 19 (19), Ben -16 (0), with the listed penalties and rulings."""
    raw = {
        "rules": {"two_player_bonus": "longest"},
        "round": 2,
        "players": [
            {"name": "Ann", "words": [["qu", "i", "z"]], "unused": ["m"], "went_out": False},
            {"name": "Ben", "words": ["t-o-p"], "unused": ["a"]},
        ],
        "challenges": [
            {"by": "Ben", "player": "Ann", "word": 0},
            {"by": "Ann", "player": "Ben", "word": 0, "ruling": "legal"},
        ],
    }
    judge = Judge(True, "in_dictionary")
    result = score_round(parse_play(raw), parse_rules(raw["rules"]), judge).as_dict()
    ann, ben = result["players"]
    assert ann == {
        "name": "Ann",
        "words": [
            {"cards": ["qu", "i", "z"], "text": "quiz", "letters": 4, "value": 25, "struck": False}
        ],
        "word_points": 25,
        "unused": ["m"],
        "unused_points": 5,
        "unused_penalty": 5,
        "went_out": False,
        "bonus_most_words": 0,
        "bonus_longest_word": 10,
        "challenge_penalty": 11,
        "false_out_penalty": 0,
        "total": 19,
        "score": 19,
    }
    assert ben["words"] == [
        {"cards": ["t", "o", "p"], "text": "top", "letters": 3, "value": 11, "struck": False}
    ]
    assert (ben["word_points"], ben["unused"], ben["unused_points"]) == (11, ["a"], 2)
    assert (ben["bonus_most_words"], ben["bonus_longest_word"]) == (0, 0)
    assert (ben["challenge_penalty"], ben["total"], ben["score"]) == (25, -16, 0)
    assert result["challenges"] == [
        {"by": "Ben", "player": "Ann", "word": 0, "text": "quiz", "legal": True,
         "decided_by": "dictionary", "reason": "in_dictionary", "code": "in_dictionary",
         "points": 25, "charged_to": "Ben", "decided": True},
        {"by": "Ann", "player": "Ben", "word": 0, "text": "top", "legal": True,
         "decided_by": "table", "reason": TABLE_LEGAL, "code": TABLE_LEGAL, "points": 11,
         "charged_to": "Ann", "decided": True},
    ]  # fmt: skip
    assert result["bonuses"]["longest_word"]["winner"] == "Ann"
    assert result["bonuses"]["most_words"]["in_play"] is False
