"""A table's records and a game's recap, worked out by hand on three known games.

Three members (Ann 1, Ben 2, Cy 3, now called "Cyril"), a guest (Gus) and a member who
never played (Dee 4). Short games of two rounds (3 cards, then 4), rule book otherwise
(bonus 10, each round floored at zero). Every round goes through the one scoring path.

g1, Fri 19:00, seats Ann Ben Gus Cy      g2, Fri 21:30, seats Ben Cy Ann (handicap 0 14 4)
  R1 Ann c-a-t 13 +10 longest = 23         R1 Ben z-o-o 18 (Cy's challenge: vote open)
     Ben o-x 14 - e 2 = 12                    Cy th-e 11 - m 5 = 6;  Ann a-x-e 16
     Gus a-t 5 - s 3 = 2                   R2 Ben th-in-g 22 - a 2 = 20
     Cy -b-d-g 19, lost a challenge on        Cy d-o-g-s 16;  Ann qu-o-t-e 16
     "ox" (14): floored to 0                  (Ben and Ann tie on 5 letters: no bonus)
  R2 Ann t-o b-e 15 +10 most = 25          totals Ben 38, Cy 36, Ann 36
     Ben j-a-w-s 28
     Gus qu-i-z 25 - e 2 = 23             g3, Sat 19:00, seats Cy Gus Ann, left unknown
     Cy q-e-x struck by Ben: -34 -> 0        R1 Cy b-o-x 22; Gus z-a-p 22
  totals Ann 48, Ben 40, Gus 25, Cy 0           Ann i-s 5 - h 7, lost a challenge: 0
                                             R2 Cy th-in-g 22 - y 4 +10 longest = 28
                                                Gus j-a-w-s 28;  Ann r-a-i-n 14
                                             totals Cy 50, Gus 50, Ann 14
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

import pytest

from companion.game.challenges import PENDING, Ruling
from companion.game.deck import BY_NAME
from companion.game.parse import parse_play, parse_rules
from companion.game.play import Challenge
from companion.game.records import (
    BonusLine,
    ChallengeLine,
    Evening,
    GameFeat,
    HeadToHead,
    PlayedGame,
    PlayerRecords,
    RoundFeat,
    WordFeat,
    game_recap,
    table_records,
)
from companion.game.scoring import RoundScore, score_round
from companion.game.standings import running_totals

RULES = parse_rules({"hands": [3, 4]})
MEMBERS = {1: "Ann", 2: "Ben", 3: "Cyril", 4: "Dee"}
FRIDAY = datetime(2024, 3, 1, 19, 0)


def hand(name, *words, unused="", went_out=False):
    return {"name": name, "words": list(words), "unused": unused, "went_out": went_out}


def challenge(by, player, ruling, word=0):
    return {"by": by, "player": player, "word": word, "ruling": ruling}


def scored(number, *hands, challenges=(), pending=()):
    """One round through the scoring path; ``pending`` challenges have the vote open."""
    raw = {"round": number, "players": list(hands), "challenges": list(challenges)}
    play = parse_play(raw, RULES)
    open_votes = tuple(
        Challenge(by, player, word, recorded=Ruling(True, PENDING, "in_dictionary"))
        for by, player, word in pending
    )
    return score_round(replace(play, challenges=play.challenges + open_votes), RULES)


def game(game_id, started, seats, rounds: list[RoundScore], handicap=None, left=None):
    """A finished game: ``seats`` as (member, name); totals as the standings count them."""
    start = handicap or [0] * len(seats)
    lines = running_totals([[p.score for p in r.players] for r in rounds], start)
    return PlayedGame(
        game_id=game_id,
        started=started,
        members=tuple(m for m, _ in seats),
        names=tuple(n for _, n in seats),
        rounds=tuple(rounds),
        numbers=tuple(range(1, len(rounds) + 1)),
        totals=tuple(line[-1] for line in lines),
        left=left,
    )


def cards(spelled):
    return tuple(BY_NAME[c] for c in spelled.split("-"))


G1 = game(
    "g1",
    FRIDAY,
    [(1, "Ann"), (2, "Ben"), (None, "Gus"), (3, "Cy")],
    [
        scored(
            1,
            hand("Ann", "c-a-t", went_out=True),
            hand("Ben", "o-x", unused="e"),
            hand("Gus", "a-t", unused="s"),
            hand("Cy", unused="bdg"),
            challenges=[challenge("Cy", "Ben", "legal")],
        ),
        scored(
            2,
            hand("Ann", "t-o", "b-e", went_out=True),
            hand("Ben", "j-a-w-s"),
            hand("Gus", "qu-i-z", unused="e"),
            hand("Cy", "q-e-x", unused="n"),
            challenges=[challenge("Ben", "Cy", "illegal")],
        ),
    ],
    left=(4, 0, 6, 30),
)
G2 = game(
    "g2",
    FRIDAY + timedelta(hours=2, minutes=30),
    [(2, "Ben"), (3, "Cy"), (1, "Ann")],
    [
        scored(
            1,
            hand("Ben", "z-o-o", went_out=True),
            hand("Cy", "th-e", unused="m"),
            hand("Ann", "a-x-e"),
            pending=[("Cy", "Ben", 0)],
        ),
        scored(
            2,
            hand("Ben", "th-in-g", unused="a"),
            hand("Cy", "d-o-g-s", went_out=True),
            hand("Ann", "qu-o-t-e"),
        ),
    ],
    handicap=[0, 14, 4],
    left=(3, 7, 1),
)
G3 = game(
    "g3",
    FRIDAY + timedelta(days=1),
    [(3, "Cy"), (None, "Gus"), (1, "Ann")],
    [
        scored(
            1,
            hand("Cy", "b-o-x", went_out=True),
            hand("Gus", "z-a-p"),
            hand("Ann", "i-s", unused="h"),
            challenges=[challenge("Ann", "Gus", "legal")],
        ),
        scored(
            2,
            hand("Cy", "th-in-g", unused="y"),
            hand("Gus", "j-a-w-s"),
            hand("Ann", "r-a-i-n", went_out=True),
        ),
    ],
)


def word(spelled, game_id, number, member, name):
    found = cards(spelled)
    return WordFeat(
        value=sum(c.value for c in found),
        letters=sum(c.letters for c in found),
        cards=found,
        text="".join(c.name for c in found),
        game_id=game_id,
        round=number,
        member=member,
        name=name,
    )


@pytest.fixture(scope="module")
def records():
    return table_records([G3, G1, G2], MEMBERS)  # in any order


def test_the_games_score_as_worked_out_by_hand():
    """The known games themselves (so every figure below rests on checked numbers)."""
    assert [[p.score for p in r.players] for r in G1.rounds] == [[23, 12, 2, 0], [25, 28, 23, 0]]
    assert G1.totals == (48, 40, 25, 0)
    assert [[p.score for p in r.players] for r in G2.rounds] == [[18, 6, 16], [20, 16, 16]]
    assert G2.totals == (38, 36, 36)
    assert [[p.score for p in r.players] for r in G3.rounds] == [[22, 22, 0], [28, 28, 14]]
    assert G3.totals == (50, 50, 14)


def test_ann_every_figure(records):
    """Ann: a win alone (g1), best round 25 (g1 R2), best game 48 (g1); her best word is
    the earlier of two 16s (a-x-e before qu-o-t-e); g3 doesn't know what was left."""
    assert records.player(1) == PlayerRecords(
        member=1,
        name="Ann",
        games=3,
        wins=1,
        shared_wins=0,
        rounds=6,
        round_points=23 + 25 + 16 + 16 + 0 + 14,
        best_round=RoundFeat(25, "g1", 2, 1, "Ann"),
        best_game=GameFeat(48, "g1", 1, "Ann"),
        best_word=word("a-x-e", "g2", 1, 1, "Ann"),
        longest_word=word("qu-o-t-e", "g2", 2, 1, "Ann"),
        bonuses_most_words=1,
        bonuses_longest_word=1,
        challenges_made=1,
        challenges_won=0,
        left_on_table=None,
        head_to_head={2: HeadToHead(1, 1, 0), 3: HeadToHead(1, 1, 1), 4: HeadToHead(0, 0, 0)},
    )
    assert records.player(1).average_round == pytest.approx(94 / 6)


def test_ben_every_figure(records):
    """Ben: the win of g2, j-a-w-s his best word and round, a challenge won, the points
    he left summed over his two games (both known)."""
    assert records.player(2) == PlayerRecords(
        member=2,
        name="Ben",
        games=2,
        wins=1,
        shared_wins=0,
        rounds=4,
        round_points=12 + 28 + 18 + 20,
        best_round=RoundFeat(28, "g1", 2, 2, "Ben"),
        best_game=GameFeat(40, "g1", 2, "Ben"),
        best_word=word("j-a-w-s", "g1", 2, 2, "Ben"),
        longest_word=word("th-in-g", "g2", 2, 2, "Ben"),
        bonuses_most_words=0,
        bonuses_longest_word=0,
        challenges_made=1,
        challenges_won=1,
        left_on_table=0 + 3,
        head_to_head={1: HeadToHead(1, 1, 0), 3: HeadToHead(2, 0, 0), 4: HeadToHead(0, 0, 0)},
    )
    assert records.player(2).average_round == 19.5


def test_cy_every_figure_under_the_members_name_now(records):
    """Cy (now "Cyril"): a win shared with the guest (g3); his struck q-e-x (29) is no
    record, so b-o-x (22) is, earlier than the equal th-in-g; two challenges made, one
    still being voted on, none won."""
    assert records.player(3) == PlayerRecords(
        member=3,
        name="Cyril",
        games=3,
        wins=0,
        shared_wins=1,
        rounds=6,
        round_points=0 + 0 + 6 + 16 + 22 + 28,
        best_round=RoundFeat(28, "g3", 2, 3, "Cyril"),
        best_game=GameFeat(50, "g3", 3, "Cyril"),
        best_word=word("b-o-x", "g3", 1, 3, "Cyril"),
        longest_word=word("th-in-g", "g3", 2, 3, "Cyril"),
        bonuses_most_words=0,
        bonuses_longest_word=1,
        challenges_made=2,
        challenges_won=0,
        left_on_table=None,
        head_to_head={1: HeadToHead(1, 1, 1), 2: HeadToHead(0, 2, 0), 4: HeadToHead(0, 0, 0)},
    )
    assert records.player(3).average_round == 12.0


def test_a_member_with_no_games_has_zeros(records):
    """Dee never played: zeros, no feats, no average, nothing left on the table."""
    dee = records.player(4)
    assert dee == PlayerRecords(
        member=4,
        name="Dee",
        head_to_head={1: HeadToHead(), 2: HeadToHead(), 3: HeadToHead()},
    )
    assert (dee.games, dee.rounds, dee.round_points, dee.left_on_table) == (0, 0, 0, 0)
    assert dee.best_word is None and dee.best_round is None and dee.best_game is None
    assert dee.average_round is None


def test_players_come_in_the_tables_order(records):
    assert [p.member for p in records.players] == [1, 2, 3, 4]
    other = table_records([G1, G2, G3], {3: "Cyril", 1: "Ann"})
    assert [(p.member, p.name) for p in other.players] == [(3, "Cyril"), (1, "Ann")]
    assert set(other.player(3).head_to_head) == {1}


def test_the_tables_feats_are_members_only_earliest_on_a_tie(records):
    """Best word: Ben's j-a-w-s (28), not Cy's struck q-e-x (29) nor Gus's later j-a-w-s;
    longest: Ben's th-in-g (5 letters, 22) over Ann's qu-o-t-e (5, 16) by value and
    Cyril's th-in-g (5, 22) by being earlier; best round 28: Ben's, before Cyril's and the
    guest's; best game: Cyril's 50 (the guest's equal 50 takes no record)."""
    assert records.games == 3
    assert records.best_word == word("j-a-w-s", "g1", 2, 2, "Ben")
    assert records.best_word.cards == (BY_NAME["j"], BY_NAME["a"], BY_NAME["w"], BY_NAME["s"])
    assert records.longest_word == word("th-in-g", "g2", 2, 2, "Ben")
    assert records.best_round == RoundFeat(28, "g1", 2, 2, "Ben")
    assert records.best_game == GameFeat(50, "g3", 3, "Cyril")


def test_evenings_newest_first_with_the_tie_broken_by_totals(records):
    """Friday: Ann (g1) and Ben (g2) one win each; Ann's totals 48 + 36 beat Ben's 40 + 38.
    Saturday: Cyril's win shared with the guest counts as a win."""
    assert records.evenings == (
        Evening(("g3",), FRIDAY + timedelta(days=1), (3,)),
        Evening(("g1", "g2"), FRIDAY, (1,)),
    )


def test_evenings_join_games_up_to_eight_hours_apart_and_share_a_full_tie():
    """Games 8 hours apart are one evening, a minute more starts a new one; equal wins and
    equal totals share the evening; an evening only guests won has no winner."""
    two = (1, 2)
    at = [FRIDAY, FRIDAY + timedelta(hours=8), FRIDAY + timedelta(hours=16, minutes=1)]
    games = [
        replace(G3, game_id="a", started=at[0], members=(1, None, 2), totals=(30, 10, 20)),
        replace(G3, game_id="b", started=at[1], members=(1, None, 2), totals=(20, 10, 30)),
        replace(G3, game_id="c", started=at[2], members=(1, None, 2), totals=(0, 40, 10)),
    ]
    assert table_records(games, {1: "Ann", 2: "Ben"}).evenings == (
        Evening(("c",), at[2], ()),
        Evening(("a", "b"), at[0], two),
    )


def test_recap_of_the_first_game():
    """Every seat, the guest included: totals and ranks, round scores, best and longest
    words (none for Cy, whose only word was struck), bonuses, challenges, what was left."""
    recap = game_recap(G1)
    assert recap.game_id == "g1"
    assert recap.winners == ("Ann",)
    assert [(s.seat, s.name, s.member, s.total, s.rank) for s in recap.seats] == [
        (0, "Ann", 1, 48, 1),
        (1, "Ben", 2, 40, 2),
        (2, "Gus", None, 25, 3),
        (3, "Cy", 3, 0, 4),
    ]
    assert [s.rounds for s in recap.seats] == [(23, 25), (12, 28), (2, 23), (0, 0)]
    assert [s.best_word for s in recap.seats] == [
        word("c-a-t", "g1", 1, 1, "Ann"),
        word("j-a-w-s", "g1", 2, 2, "Ben"),
        word("qu-i-z", "g1", 2, None, "Gus"),
        None,
    ]
    assert [s.longest_word for s in recap.seats] == [
        word("c-a-t", "g1", 1, 1, "Ann"),
        word("j-a-w-s", "g1", 2, 2, "Ben"),
        word("qu-i-z", "g1", 2, None, "Gus"),
        None,
    ]
    assert [(s.bonuses_most_words, s.bonuses_longest_word) for s in recap.seats] == [
        (1, 1),
        (0, 0),
        (0, 0),
        (0, 0),
    ]
    assert [(s.challenges_made, s.challenges_won) for s in recap.seats] == [
        (0, 0),
        (1, 1),
        (0, 0),
        (1, 0),
    ]
    assert [s.left for s in recap.seats] == [4, 0, 6, 30]
    assert recap.best_word == word("j-a-w-s", "g1", 2, 2, "Ben")
    # j-a-w-s and qu-i-z both have 4 letters: the higher value
    assert recap.longest_word == word("j-a-w-s", "g1", 2, 2, "Ben")
    assert recap.bonuses == (BonusLine(1, None, "Ann"), BonusLine(2, "Ann", None))
    assert recap.challenges == (
        ChallengeLine(1, "Cy", "Ben", "ox", True, "table", "table_legal", 14, "Cy"),
        ChallengeLine(2, "Ben", "Cy", "qex", False, "table", "table_illegal", 29, "Cy"),
    )
    assert not any(c.pending for c in recap.challenges)


def test_recap_shares_ranks_and_shows_an_open_vote():
    """g2: Cy and Ann tie on 36, both second, in seating order; Cy's challenge is still
    being voted on: no ruling yet, nobody charged; nobody won a bonus."""
    recap = game_recap(G2)
    assert [(s.name, s.total, s.rank) for s in recap.ranked] == [
        ("Ben", 38, 1),
        ("Cy", 36, 2),
        ("Ann", 36, 2),
    ]
    assert recap.winners == ("Ben",)
    assert [s.rounds for s in recap.seats] == [(18, 20), (6, 16), (16, 16)]
    assert recap.seats[2].best_word == word("a-x-e", "g2", 1, 1, "Ann")
    assert recap.best_word == word("th-in-g", "g2", 2, 2, "Ben")
    assert recap.longest_word == word("th-in-g", "g2", 2, 2, "Ben")
    assert recap.bonuses == (BonusLine(1, None, None), BonusLine(2, None, None))
    line = ChallengeLine(1, "Cy", "Ben", "zoo", None, None, None, 18, None)
    assert recap.challenges == (line,)
    assert line.pending
    assert [(s.challenges_made, s.challenges_won) for s in recap.seats] == [(0, 0), (1, 0), (0, 0)]


def test_recap_of_a_shared_win_with_a_guest_and_nothing_known_left():
    """g3: Cy and the guest share the win; the guest's j-a-w-s is the game's best word;
    Cy's own best is b-o-x, earlier than his equal th-in-g; what was left is not known."""
    recap = game_recap(G3)
    assert recap.winners == ("Cy", "Gus")
    assert [s.rank for s in recap.seats] == [1, 1, 3]
    assert [s.left for s in recap.seats] == [None, None, None]
    assert [s.best_word for s in recap.seats] == [
        word("b-o-x", "g3", 1, 3, "Cy"),
        word("j-a-w-s", "g3", 2, None, "Gus"),
        word("r-a-i-n", "g3", 2, 1, "Ann"),
    ]
    assert recap.best_word == word("j-a-w-s", "g3", 2, None, "Gus")
    assert recap.longest_word == word("th-in-g", "g3", 2, 3, "Cy")
    assert recap.bonuses == (BonusLine(1, None, None), BonusLine(2, None, "Cy"))
    assert recap.challenges == (
        ChallengeLine(1, "Ann", "Gus", "zap", True, "table", "table_legal", 22, "Ann"),
    )


def test_a_game_whose_seats_dont_line_up_is_refused():
    with pytest.raises(ValueError, match="g1"):
        replace(G1, totals=(1, 2, 3))
