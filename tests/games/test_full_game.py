"""A whole game through the API: eight rounds of three players, scored by hand.

Ann, Ben and Cy sit in that order and Ben deals first (``first_dealer`` 1), so the deal
goes Ben, Cy, Ann, Ben, Cy, Ann, Ben, Cy. Every hand below is a real deal: r + 2 cards
each in round r, and no card more often in a round than the deck holds it. Card values:
A2 B8 C8 D5 E2 F6 G6 H7 I2 J13 K8 L3 M5 N5 O2 P6 Q15 R5 S3 T3 U4 V11 W10 X12 Y4 Z14
QU9 IN7 ER7 CL10 TH9.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from sqlalchemy import select

from companion.store.db import db
from companion.store.models import Challenge

NAMES = ["Ann", "Ben", "Cy"]


def hand(
    name: str, words: Sequence[object] = (), unused: Sequence[str] = (), went_out: bool = False
) -> dict[str, object]:
    return {"name": name, "words": list(words), "unused": list(unused), "went_out": went_out}


# (players, challenges as (by, player, word, table ruling or None), expected ruling of each
#  as (legal, decided_by, reason, points), expected round scores in seating order)
ROUNDS = {
    # Round 1, 3 cards. CAT 8+2+3 = 13 (out); DOG 5+2+6 = 13; OX 2+12 = 14, M 5 left.
    # One word each: no most-words bonus; CAT and DOG tie at 3 letters: no longest bonus.
    1: (
        [hand("Ann", ["c-a-t"], went_out=True), hand("Ben", ["d-o-g"]), hand("Cy", ["o-x"], ["m"])],
        [],
        [],
        [13, 13, 9],
    ),  # 13; 13; 14 - 5
    # Round 2, 4 cards. Ann QU-I-Z 9+2+14 = 25, M 5 left; Ben AX 2+12 = 14 and TO 3+2 = 5;
    # Cy JABS 13+2+8+3 = 26 (out). Ben has the most words (2): +10. QUIZ and JABS tie at
    # 4 letters: no longest bonus. Ann challenges AX; the dictionary has it: Ann pays 14.
    2: (
        [
            hand("Ann", [["qu", "i", "z"]], ["m"]),
            hand("Ben", ["a-x", "t-o"]),
            hand("Cy", ["j-a-b-s"], went_out=True),
        ],
        [("Ann", "Ben", 0, None)],
        [(True, "dictionary", "in dictionary", 14)],
        [6, 29, 26],
    ),  # 25 - 5 - 14; 14 + 5 + 10; 26
    # Round 3, 5 cards. Ann STEVE 3+3+2+11+2 = 21 (out); Ben TH-E-R-E 9+2+5+2 = 18, A 2 left;
    # Cy FEZ 6+2+14 = 22 and IT 2+3 = 5. Cy challenges STEVE: a proper noun, struck, so
    # its 21 count against Ann. Then Cy has the most words (2) and Ben the longest word
    # (THERE, 5 letters; Ann has no word left and does not compete).
    3: (
        [
            hand("Ann", ["s-t-e-v-e"], went_out=True),
            hand("Ben", [["th", "e", "r", "e"]], ["a"]),
            hand("Cy", ["f-e-z", "i-t"]),
        ],
        [("Cy", "Ann", 0, None)],
        [(False, "dictionary", "proper noun", 21)],
        [0, 26, 37],
    ),  # -21 -> 0; 18 - 2 + 10; 22 + 5 + 10
    # Round 4, 6 cards. Ann WAX 10+2+12 = 24 and JOG 13+2+6 = 21 (out); Ben BLORP
    # 8+3+2+5+6 = 24, E 2 left; Cy QU-E-E-N 9+2+2+5 = 18, D 5 and S 3 left. Ann has the most
    # words (2): +10; BLORP and QUEEN tie at 5 letters: no longest bonus. Ann challenges
    # BLORP and the table lets it stand: Ann pays 24.
    4: (
        [
            hand("Ann", ["w-a-x", "j-o-g"], went_out=True),
            hand("Ben", ["b-l-o-r-p"], ["e"]),
            hand("Cy", [["qu", "e", "e", "n"]], ["d", "s"]),
        ],
        [("Ann", "Ben", 0, "legal")],
        [(True, "table", "the table ruled it legal", 24)],
        [31, 22, 10],
    ),  # 45 + 10 - 24; 24 - 2; 18 - 8
    # Round 5, 7 cards, as finally closed: see fix_round_5 for the typo, the withdrawn
    # challenge and the wrong ruling that were fixed after reopening.
    # Ann HOUSE 7+2+4+3+2 = 18, A 2 and K 8 left;
    # Ben CL-O-C-K-S 10+2+8+8+3 = 31 and ME 5+2 = 7 (out); Cy VEX 11+2+12 = 25 and
    # AND 2+5+5 = 12, T 3 left. Ben and Cy tie at 2 words; CLOCKS (6 letters) is longest.
    5: (
        [
            hand("Ann", ["h-o-u-s-e"], ["a", "k"]),
            hand("Ben", [["cl", "o", "c", "k", "s"], "m-e"], went_out=True),
            hand("Cy", ["v-e-x", "a-n-d"], ["t"]),
        ],
        [],
        [],
        None,
    ),
    # Round 6, 8 cards. Ann JUMPED 13+4+5+6+2+5 = 35 and GO 6+2 = 8 (out); Ben G-R-A-IN
    # 6+5+2+7 = 20 and SOT 3+2+3 = 8, T 3 left; Cy WINDOWS 10+2+5+5+2+10+3 = 37, I 2 left.
    # Ann and Ben tie at 2 words; WINDOWS (7 letters) is longest: Cy +10. Cy challenges
    # SOT; the dictionary has it: Cy pays 8.
    6: (
        [
            hand("Ann", ["j-u-m-p-e-d", "g-o"], went_out=True),
            hand("Ben", [["g", "r", "a", "in"], "s-o-t"], ["t"]),
            hand("Cy", ["w-i-n-d-o-w-s"], ["i"]),
        ],
        [("Cy", "Ben", 1, None)],
        [(True, "dictionary", "in dictionary", 8)],
        [43, 25, 37],
    ),  # 35 + 8; 20 + 8 - 3; 37 - 2 + 10 - 8
    # Round 7, 9 cards. Ann BRIDGE 8+5+2+5+6+2 = 28, Z 14, Q 15, X 12 left; Ben TH-I-N-K-ER
    # 9+2+5+8+7 = 31, AX 14 and TV 3+11 = 14 (out); Cy QU-A-C-K 9+2+8+8 = 27 and
    # HELP 7+2+3+6 = 18, Y 4 left. Ann challenges TV: an abbreviation, struck (T V count
    # 14 against Ben). Then Ben and Cy tie at 2 words; THINKER (7 letters) is longest.
    7: (
        [
            hand("Ann", ["b-r-i-d-g-e"], ["z", "q", "x"]),
            hand("Ben", [["th", "i", "n", "k", "er"], "a-x", "t-v"], went_out=True),
            hand("Cy", [["qu", "a", "c", "k"], "h-e-l-p"], ["y"]),
        ],
        [("Ann", "Ben", 2, None)],
        [(False, "dictionary", "abbreviation", 14)],
        [0, 41, 41],
    ),  # 28 - 41 = -13 -> 0; 31 + 14 - 14 + 10; 27 + 18 - 4
    # Round 8, 10 cards. Ann ABSOLUTE 2+8+3+2+3+4+3+2 = 27 and ME 7 (out); Ben F-L-O-W-ER-S
    # 6+3+2+10+7+3 = 31 and DIG 5+2+6 = 13, E 2 left; Cy PINK 6+2+5+8 = 21 and
    # CATS 8+2+3+3 = 16, H 7 and Y 4 left. Two words each; ABSOLUTE (8 letters) is longest:
    # Ann +10. Ben challenges ABSOLUTE and the table says legal: Ben pays 27.
    8: (
        [
            hand("Ann", ["a-b-s-o-l-u-t-e", "m-e"], went_out=True),
            hand("Ben", [["f", "l", "o", "w", "er", "s"], "d-i-g"], ["e"]),
            hand("Cy", ["p-i-n-k", "c-a-t-s"], ["h", "y"]),
        ],
        [("Ben", "Ann", 0, "legal")],
        [(True, "table", "the table ruled it legal", 27)],
        [44, 15, 26],
    ),  # 34 + 10; 44 - 2 - 27; 37 - 11
}

# Round 5 as finally closed: Cy's challenge of ME is ruled by the dictionary (legal):
# Ann 18 - 10 = 8; Ben 31 + 7 + 10 = 48; Cy 25 + 12 - 3 - 7 = 27.
ROUND_5 = [8, 48, 27]

SCORES = {n: (r[3] if n != 5 else ROUND_5) for n, r in ROUNDS.items()}
RUNNING = {  # running totals after each closed round
    1: [13, 13, 9],
    2: [19, 42, 35],  # 13+6, 13+29, 9+26
    3: [19, 68, 72],  # +0, +26, +37
    4: [50, 90, 82],  # +31, +22, +10
    5: [58, 138, 109],  # +8, +48, +27
    6: [101, 163, 146],  # +43, +25, +37
    7: [101, 204, 187],  # +0, +41, +41
    8: [145, 219, 213],  # +44, +15, +26
}
RANKS = {
    1: [1, 1, 3],
    2: [3, 1, 2],
    3: [3, 2, 1],
    4: [3, 1, 2],
    5: [3, 1, 2],
    6: [3, 1, 2],
    7: [3, 1, 2],
    8: [3, 1, 2],
}
DEALERS = ["Ben", "Cy", "Ann", "Ben", "Cy", "Ann", "Ben", "Cy"]
FIRST_PLAYERS = ["Cy", "Ann", "Ben", "Cy", "Ann", "Ben", "Cy", "Ann"]


def scores(round_json: dict) -> list[int]:
    return [p["score"] for p in round_json["result"]["players"]]


def test_sums_written_above_add_up():
    for n in range(1, 9):
        before = RUNNING.get(n - 1, [0, 0, 0])
        assert [b + s for b, s in zip(before, SCORES[n], strict=True)] == RUNNING[n]


def play_round(game, n: int) -> dict:
    players, challenges, rulings, expected = ROUNDS[n]
    entered = game.enter(n, players)
    assert entered["dealer"] == DEALERS[n - 1]
    assert entered["first_player"] == FIRST_PLAYERS[n - 1]
    assert entered["hand_size"] == n + 2
    for (by, player, word, ruling), want in zip(challenges, rulings, strict=True):
        data = game.challenged(n, by, player, word, ruling)
        got = data["ruling"]
        assert (got["legal"], got["decided_by"], got["reason"], got["points"]) == want
        assert got["charged_to"] == (by if want[0] else player)
    current = game.round(n)
    if expected is not None:
        assert scores(current) == expected
    return current


def test_full_game(app, client, new_game):
    game = new_game(players=NAMES, first_dealer=1)
    data = game.get()
    assert [r["dealer"] for r in data["rounds"]] == DEALERS
    assert [r["first_player"] for r in data["rounds"]] == FIRST_PLAYERS

    for n in range(1, 9):
        if n == 5:
            fix_round_5(game)
        else:
            play_round(game, n)
            closed = game.close(n)
            assert closed["closed"] is True
            assert scores(closed) == SCORES[n]
        data = game.get()
        assert [p["total"] for p in data["players"]] == RUNNING[n], f"after round {n}"
        assert [p["rank"] for p in data["players"]] == RANKS[n], f"after round {n}"
        if n < 8:
            assert (data["next_round"], data["next_dealer"]) == (n + 1, DEALERS[n])
            assert (data["finished"], data["winners"]) == (False, [])

    # Round by round details a player looks at.
    rounds = {r["number"]: r for r in data["rounds"]}
    assert [rounds[n]["went_out"] for n in range(1, 9)] == [
        "Ann",
        "Cy",
        "Ann",
        "Ann",
        "Ben",
        "Ann",
        "Ben",
        "Ann",
    ]
    r2 = rounds[2]["result"]["players"]
    assert [p["bonus_most_words"] for p in r2] == [0, 10, 0]
    assert [p["challenge_penalty"] for p in r2] == [14, 0, 0]
    r3 = rounds[3]["result"]["players"]
    assert r3[0]["words"][0]["struck"] is True
    assert (r3[0]["word_points"], r3[0]["unused_points"], r3[0]["total"]) == (0, 21, -21)
    assert [(p["bonus_most_words"], p["bonus_longest_word"]) for p in r3] == [
        (0, 0),
        (0, 10),
        (10, 0),
    ]
    r7 = rounds[7]["result"]["players"]
    assert r7[1]["unused"] == ["t", "v"]
    assert (r7[1]["unused_points"], r7[1]["bonus_longest_word"]) == (14, 10)
    assert r7[0]["total"] == -13

    # The end: every round closed, Ben wins on 219.
    assert data["players"] == [
        {"name": "Ann", "seat": 0, "total": 145, "rank": 3, "claimed": False, "handicap": 0},
        {"name": "Ben", "seat": 1, "total": 219, "rank": 1, "claimed": False, "handicap": 0},
        {"name": "Cy", "seat": 2, "total": 213, "rank": 2, "claimed": False, "handicap": 0},
    ]
    assert (data["next_round"], data["next_dealer"]) == (None, None)
    assert data["finished"] is True
    assert data["winners"] == ["Ben"]

    # Every ruling is kept with its round, with who decided it.
    with app.app_context():
        kept = [
            (c.round.number, c.by_seat, c.player_seat, c.word, c.legal, c.decided_by, c.reason_code)
            for c in db.session.scalars(select(Challenge))
        ]
    assert sorted(kept) == [
        (2, 0, 1, 0, True, "dictionary", "in_dictionary"),
        (3, 2, 0, 0, False, "dictionary", "proper_noun"),
        (4, 0, 1, 0, True, "table", "table_legal"),
        (5, 2, 1, 1, True, "dictionary", "in_dictionary"),
        (6, 2, 1, 1, True, "dictionary", "in_dictionary"),
        (7, 0, 1, 2, False, "dictionary", "abbreviation"),
        (8, 1, 0, 0, True, "table", "table_legal"),
    ]

    check_exports(client, game, data)


def fix_round_5(game) -> None:
    """Round 5 entered with a typo and a wrong ruling, closed, then reopened and fixed."""
    # The typo: Ann's leftovers entered as Z K instead of A K. Ann 18 - (14+8) = -4 -> 0.
    typo = [dict(p) for p in ROUNDS[5][0]]
    typo[0]["unused"] = ["z", "k"]
    entered = game.enter(5, typo, if_match='"0"')  # nothing saved for round 5 yet
    assert (entered["version"], entered["dealer"], entered["first_player"]) == (1, "Cy", "Ann")
    assert scores(game.round(5)) == [0, 48, 34]  # -4 -> 0; 31 + 7 + 10 (CLOCKS); 37 - 3
    # Ann challenges VEX (the dictionary has it: she pays 25), then takes it back.
    data = game.challenged(5, "Ann", "Cy", 0)
    assert (data["ruling"]["legal"], data["ruling"]["points"]) == (True, 25)
    assert data["result"]["players"][0]["total"] == -29  # -4 - 25
    resp = game.client.delete(
        game.url(f"/rounds/5/challenges/{data['ruling']['n']}"), json={}, headers=game.auth
    )
    assert resp.status_code == 200
    assert resp.get_json()["result"]["players"][0]["total"] == -4
    assert resp.get_json()["result"]["challenges"] == []
    # Cy challenges ME and the score keeper enters the table's ruling wrongly: not legal.
    # ME struck: Ben 31 - 7 + 10 (CLOCKS longest) = 34; Cy now has the most words: 34 + 10.
    data = game.challenged(5, "Cy", "Ben", 1, "illegal")
    assert scores(data) == [0, 34, 44]
    game.close(5)
    assert [p["total"] for p in game.get()["players"]] == [50, 124, 126]  # 50+0, 90+34, 82+44

    # The table notices: reopen (round 5 leaves the leaderboard), enter the cards again
    # (a re-entry sent to the API replaces the challenges too), challenge ME again.
    reopened = game.reopen(5)
    assert reopened["closed"] is False
    data = game.get()
    assert [p["total"] for p in data["players"]] == RUNNING[4]
    assert (data["next_round"], data["next_dealer"]) == (5, "Cy")
    fixed = game.enter(5, ROUNDS[5][0], if_match=f'"{reopened["version"]}"')
    assert fixed["version"] == reopened["version"] + 1
    assert scores(fixed) == [8, 48, 34]  # 18 - 10; 31 + 7 + 10; 37 - 3
    assert fixed["result"]["challenges"] == []
    data = game.challenged(5, "Cy", "Ben", 1)  # this time the dictionary decides: legal
    assert (data["ruling"]["legal"], data["ruling"]["decided_by"], data["ruling"]["points"]) == (
        True,
        "dictionary",
        7,
    )
    assert scores(data) == ROUND_5
    assert scores(game.close(5)) == ROUND_5


def check_exports(client, game, data: dict) -> None:
    resp = client.get(f"/games/{game.id}/export.json")
    assert resp.status_code == 200
    assert resp.headers["Content-Type"] == "application/json"
    assert resp.get_json() == data == game.get()

    resp = client.get(f"/games/{game.id}/export.csv")
    assert resp.status_code == 200
    assert resp.headers["Content-Type"].startswith("text/csv")
    assert f'filename="quiddler-{game.id}.csv"' in resp.headers["Content-Disposition"]
    table = list(csv.DictReader(io.StringIO(resp.get_data(as_text=True))))
    assert len(table) == 24  # one row per player per round
    assert [(int(r["round"]), int(r["seat"]), r["player"]) for r in table] == [
        (n, s, NAMES[s]) for n in range(1, 9) for s in range(3)
    ]
    assert [int(r["score"]) for r in table] == [s for n in range(1, 9) for s in SCORES[n]]
    assert [int(r["running_total"]) for r in table] == [t for n in range(1, 9) for t in RUNNING[n]]
    assert {r["closed"] for r in table} == {"yes"}
    by = {(int(r["round"]), r["player"]): r for r in table}
    assert by[3, "Ann"]["words"] == "x:s-t-e-v-e"
    assert (by[3, "Ann"]["total"], by[3, "Ann"]["score"]) == ("-21", "0")
    assert by[7, "Ben"]["words"] == "th-i-n-k-er a-x x:t-v"
    assert by[7, "Ben"]["unused"] == "t v"
    assert by[8, "Ben"]["challenge_penalty"] == "27"
    assert by[8, "Ann"]["bonus_longest_word"] == "10"
    assert by[2, "Ben"]["bonus_most_words"] == "10"


def test_csv_running_total_counts_closed_rounds_only(client, new_game):
    game = new_game(players=NAMES, first_dealer=1)
    play_round(game, 1)
    game.close(1)
    play_round(game, 2)  # entered, still open
    table = list(
        csv.DictReader(
            io.StringIO(client.get(f"/games/{game.id}/export.csv").get_data(as_text=True))
        )
    )
    assert [(r["round"], r["score"], r["running_total"], r["closed"]) for r in table] == [
        ("1", "13", "13", "yes"),
        ("1", "13", "13", "yes"),
        ("1", "9", "9", "yes"),
        ("2", "6", "13", "no"),
        ("2", "29", "13", "no"),
        ("2", "26", "9", "no"),
    ]


def test_finished_only_once_round_8_is_closed(new_game):
    game = new_game(players=NAMES, first_dealer=1)
    for n in range(1, 8):
        play_round(game, n)
        if n == 5:
            game.challenged(5, "Cy", "Ben", 1)
        game.close(n)
    play_round(game, 8)
    data = game.get()
    assert (data["finished"], data["winners"], data["next_round"]) == (False, [], 8)
    game.close(8)
    data = game.get()
    assert (data["finished"], data["winners"], data["next_round"]) == (True, ["Ben"], None)
    # Reopening any round makes the game unfinished again, with no winner yet.
    game.reopen(3)
    data = game.get()
    assert (data["finished"], data["winners"]) == (False, [])
    assert (data["next_round"], data["next_dealer"]) == (3, "Ann")
    assert [p["total"] for p in data["players"]] == [145, 219 - 26, 213 - 37]


# The tie: Ann and Ben lay the same words every round; Cy never makes a word. Card
# values: TEA 3+2+2 = 7; ROAD 5+2+2+5 = 14; ANGER 2+5+6+2+5 = 20; GARDEN 6+2+5+5+2+5 = 25;
# DONE 5+2+5+2 = 14. Ann and Ben tie for the most words and the longest word every round,
# so nobody gets a bonus; Cy's leftovers (I 2, U 4) are negative, floored to 0.
TIE_WORDS = {
    1: (["t-e-a"], 7),
    2: (["r-o-a-d"], 14),
    3: (["a-n-g-e-r"], 20),
    4: (["g-a-r-d-e-n"], 25),
    5: (["t-e-a", "r-o-a-d"], 21),  # 7 + 14
    6: (["r-o-a-d", "d-o-n-e"], 28),  # 14 + 14
    7: (["g-a-r-d-e-n", "t-e-a"], 32),  # 25 + 7
    8: (["g-a-r-d-e-n", "r-o-a-d"], 39),  # 25 + 14
}


def test_a_tie_for_the_highest_total_shares_the_win(new_game):
    game = new_game(players=NAMES, first_dealer=2)
    for n, (words, points) in TIE_WORDS.items():
        size = n + 2
        leftovers = (["i"] * 8 + ["u"] * 2)[:size]
        entered = game.enter(
            n, [hand("Ann", words, went_out=True), hand("Ben", words), hand("Cy", [], leftovers)]
        )
        assert scores(entered) == [points, points, 0]
        bonuses = entered["result"]["bonuses"]
        assert bonuses["longest_word"]["tied"] == ["Ann", "Ben"]
        game.close(n)
    data = game.get()
    # 7 + 14 + 20 + 25 + 21 + 28 + 32 + 39 = 186 each
    assert [(p["total"], p["rank"]) for p in data["players"]] == [(186, 1), (186, 1), (0, 3)]
    assert data["finished"] is True
    assert data["winners"] == ["Ann", "Ben"]
