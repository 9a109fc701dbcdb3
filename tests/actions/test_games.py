"""The game at the table, action by action (``companion.actions.games``), without HTTP.

Each action is called as a page or the API calls it. A test asserts the state it answers
(equal to the game read back afterwards: the answer is the state that write produced),
the rows stored, and for every bad input the refusal exactly (class, code, place and
parameters) with every stored row as it was before.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from companion import store
from companion.actions import games, seats
from companion.game.challenges import Ruling
from companion.game.errors import Conflict, Forbidden, NotFound, RuleError
from companion.game.play import Challenge, Play
from companion.game.rules import Rules
from companion.game.scoring import Bonus, BonusRace
from companion.game.standings import Standing
from companion.lexicon import LexiconStore
from companion.store import RoundState, SeatState
from tests.actions.support import (
    ROUND_1,
    ROUND_1_SCORES,
    ROUND_2,
    ROUND_2_SCORES,
    THREE,
    Act,
    hand,
    token_hash,
)

NewGame = Callable[..., games.Created]
LEXICONS = ["standard", "wordgame", "common"]
"""The lists every app offers (a group's own list adds its name)."""


def scores(state: RoundState | None) -> list[int]:
    assert state is not None and state.result is not None
    return [p.score for p in state.result.players]


def saved_round(
    act: Act, lexicons: LexiconStore, created: games.Created, play: Play = ROUND_1, number: int = 1
) -> RoundState:
    return act(games.save_round, lexicons, created.state.id, created.token, number, play)


# --- create_game ---------------------------------------------------------------------------


def test_create_game_answers_the_new_game_and_stores_it(act: Act, lexicons: LexiconStore) -> None:
    rules = Rules(bonus=15, floor="off")
    created = act(games.create_game, lexicons, ["Ann", "Ben", "Cy"], 1, rules)
    state = created.state
    assert (state.version, state.names, state.rules) == (1, THREE, rules)
    # First dealer Ben (seat 1): the deal passes left each round, the next seat plays first.
    assert [(r.number, r.hand_size, r.dealer, r.first_player) for r in state.rounds] == [
        (1, 3, "Ben", "Cy"),
        (2, 4, "Cy", "Ann"),
        (3, 5, "Ann", "Ben"),
        (4, 6, "Ben", "Cy"),
        (5, 7, "Cy", "Ann"),
        (6, 8, "Ann", "Ben"),
        (7, 9, "Ben", "Cy"),
        (8, 10, "Cy", "Ann"),
    ]
    nothing = (False, 0, False, False, None, None, None)
    assert [(r.closed, r.version, r.entered, r.started, r.play, r.result, r.race)
            for r in state.rounds] == [nothing] * 8  # fmt: skip
    seats_empty = tuple(SeatState(i, n, False, 0, None) for i, n in enumerate(THREE))
    assert all(r.seats == seats_empty for r in state.rounds)
    assert state.table == tuple(Standing(i, n, 0, 1) for i, n in enumerate(THREE))
    assert (state.house_words, state.claimed) == ({}, (False, False, False))
    assert (state.next_round, state.next_dealer) == (1, "Ben")
    assert (state.finished, state.winners) == (False, [])
    assert state == act.read(state.id)

    # The edit token (192 random bits) is shown once and kept only as its SHA-256.
    assert len(created.token) == 32
    assert act.game_row(state.id) == (token_hash(created.token), 1, rules.as_dict(), 1)
    assert act.players(state.id) == [(0, "Ann", None, False), (1, "Ben", None, False),
                                     (2, "Cy", None, False)]  # fmt: skip
    assert created.token not in repr(act.rows())


def test_each_game_is_its_own(new_game: NewGame) -> None:
    one, two = new_game(), new_game()
    assert one.state.id != two.state.id
    assert one.token != two.token


CREATE_REFUSALS = [
    (["Ann"], 0, Rules(), "player_count", "players", {"count": 1, "least": 2, "most": 8}),
    ([f"P{i}" for i in range(9)], 0, Rules(), "player_count", "players",
     {"count": 9, "least": 2, "most": 8}),
    ([], 0, Rules(), "player_count", "players", {"count": 0, "least": 2, "most": 8}),
    (["Ann", "Ben", "ann"], 0, Rules(), "name_twice", "players[2]", {"name": "ann"}),
    (["Ann", ""], 0, Rules(), "name_missing", "players[1]", {"seat": 2}),
    (["Ann", "B" * 41], 0, Rules(), "name_too_long", "players[1]", {"seat": 2, "most": 40}),
    (["Ann\n", "Ben"], 0, Rules(), "name_unprintable", "players[0]", {"seat": 1}),
    (["Ann", "Ben"], 2, Rules(), "first_dealer_range", "first_dealer", {"seats": 2}),
    (["Ann", "Ben"], -1, Rules(), "first_dealer_range", "first_dealer", {"seats": 2}),
    (["Ann", "Ben"], 0, Rules(lexicon="klingon"), "unknown_lexicon", "rules.lexicon",
     {"name": "klingon", "names": LEXICONS}),
]  # fmt: skip


@pytest.mark.parametrize(("names", "first_dealer", "rules", "code", "where", "params"),
                         CREATE_REFUSALS)  # fmt: skip
def test_create_game_refusals_store_nothing(
    act: Act,
    lexicons: LexiconStore,
    names: list[str],
    first_dealer: int,
    rules: Rules,
    code: str,
    where: str,
    params: dict[str, object],
) -> None:
    with act.refused(RuleError, code, where, **params):
        act(games.create_game, lexicons, names, first_dealer, rules)
    assert all(rows == [] for rows in act.rows().values())


# --- save_round ----------------------------------------------------------------------------


def test_save_round_answers_the_scored_round_and_stores_each_hand(
    act: Act, lexicons: LexiconStore, new_game: NewGame
) -> None:
    created = new_game()
    state = saved_round(act, lexicons, created)
    assert (state.number, state.hand_size, state.dealer, state.first_player) == (1, 3, "Ann", "Ben")
    assert (state.closed, state.version, state.entered, state.challenge_numbers) == (
        False,
        1,
        True,
        (),
    )
    assert state.play == replace(ROUND_1, round_number=1)
    assert state.seats == tuple(
        SeatState(i, h.name, True, 1, h) for i, h in enumerate(ROUND_1.hands)
    )
    assert scores(state) == ROUND_1_SCORES
    assert state.went_out == "Ann"
    # Open, so the pages still show the bonus race: all tied, no bonus.
    assert state.race == BonusRace(
        THREE, Bonus(True, None, 1, THREE), Bonus(True, None, 3, ("Ann", "Ben")), "cat"
    )
    after = act.read(created.state.id)
    assert after.round(1) == state
    assert after.version == 2
    assert after.table == created.state.table, "an open round is not on the leaderboard"

    assert act.round_row(created.state.id, 1) == (False, 1, 0)
    assert act.entries(created.state.id, 1) == [
        (0, [["c", "a", "t"]], [], True, 1),
        (1, [["d", "o", "g"]], [], False, 1),
        (2, [["o", "x"]], ["m"], False, 1),
    ]
    assert act.challenges(created.state.id, 1) == []


def test_save_round_seats_the_hands_as_the_game_names_them(
    act: Act, lexicons: LexiconStore, new_game: NewGame
) -> None:
    created = new_game()
    ann, ben, cy = ROUND_1.hands
    sent = Play((replace(cy, name="CY"), replace(ann, name="ann"), ben))
    saved = saved_round(act, lexicons, created, sent)
    assert saved.play == replace(ROUND_1, round_number=1)
    assert [s.name for s in saved.seats] == list(THREE)
    assert [e[0] for e in act.entries(created.state.id, 1)] == [0, 1, 2]


def test_save_round_again_moves_only_the_changed_hands_versions(
    act: Act, lexicons: LexiconStore, new_game: NewGame
) -> None:
    created = new_game()
    saved_round(act, lexicons, created)
    changed = Play((*ROUND_1.hands[:2], hand("Cy", "m-o-x")))
    saved = saved_round(act, lexicons, created, changed)
    # Cy's MOX: 5+2+12 = 19 (three letters, as CAT and DOG: still no bonus).
    assert scores(saved) == [13, 13, 19]
    assert [s.version for s in saved.seats] == [1, 1, 2]
    assert saved.version == 2
    assert act.entries(created.state.id, 1)[2] == (2, [["m", "o", "x"]], [], False, 2)
    assert saved == act.read(created.state.id).round(1)


def test_save_round_rules_the_challenges_sent_and_numbers_them(
    act: Act, lexicons: LexiconStore, new_game: NewGame
) -> None:
    created = new_game()
    gid = created.state.id
    sent = replace(
        ROUND_1,
        challenges=(Challenge("Ben", "Cy", 0), Challenge("cy", "ANN", 0, ruling=False)),
    )
    saved = saved_round(act, lexicons, created, sent)
    # Ben pays 14 for OX (a word); the table strikes Ann's CAT: its 13 count against her.
    # Standing words: Ben DOG and Cy OX tie for most; DOG is the longest: Ben +10.
    assert scores(saved) == [0, 9, 9]
    assert saved.challenge_numbers == (1, 2)
    assert saved.result is not None
    rulings = [(c.challenge.by, c.challenge.player, c.text, c.ruling, c.points, c.charged_to)
               for c in saved.result.challenges]  # fmt: skip
    assert rulings == [
        ("Ben", "Cy", "ox", Ruling(True, "dictionary", "in_dictionary"), 14, "Ben"),
        ("Cy", "Ann", "cat", Ruling(False, "table", "table_illegal"), 13, "Ann"),
    ]
    assert act.challenges(gid, 1) == [
        (1, 1, 2, 0, True, "dictionary", "in_dictionary", "standard"),
        (2, 2, 0, 0, False, "table", "table_illegal", "standard"),
    ]
    assert act.round_row(gid, 1) == (False, 1, 2)

    # The round saved again replaces its challenges; a number is never used twice.
    again = saved_round(act, lexicons, created, replace(ROUND_1, challenges=(sent.challenges[1],)))
    assert again.challenge_numbers == (3,)
    assert act.challenges(gid, 1) == [(3, 2, 0, 0, False, "table", "table_illegal", "standard")]
    assert act.round_row(gid, 1) == (False, 2, 3)


def test_resaving_the_cards_drops_the_challenges_of_changed_words(
    act: Act, lexicons: LexiconStore, new_game: NewGame
) -> None:
    created = new_game()
    gid = created.state.id
    sent = replace(
        ROUND_1, challenges=(Challenge("Ben", "Cy", 0), Challenge("Cy", "Ann", 0, ruling=True))
    )
    saved_round(act, lexicons, created, sent)
    changed = Play((hand("Ann", "a-c-t", out=True), *ROUND_1.hands[1:]))
    # A page re-saving the cards saves every seat with the edit token: a challenge stays
    # while its word is entered unchanged.
    hands = dict(enumerate(changed.hands))
    saved = act(seats.save_seats, lexicons, gid, created.token, 1, hands)
    assert saved.dropped == ("cat",)
    assert saved.round.result is not None
    [kept] = saved.round.result.challenges
    assert (kept.challenge.by, kept.challenge.player, kept.text, kept.ruling) == (
        "Ben",
        "Cy",
        "ox",
        Ruling(True, "dictionary", "in_dictionary"),
    )
    assert [c[1:] for c in act.challenges(gid, 1)] == [
        (1, 2, 0, True, "dictionary", "in_dictionary", "standard")
    ]
    assert saved.round == act.read(gid).round(1)


def test_save_round_after_the_round_before_is_closed(
    act: Act, lexicons: LexiconStore, new_game: NewGame
) -> None:
    created = new_game()
    saved_round(act, lexicons, created)
    act(games.set_closed, created.state.id, created.token, 1, True)
    saved = saved_round(act, lexicons, created, ROUND_2, 2)
    assert scores(saved) == ROUND_2_SCORES
    assert (saved.dealer, saved.first_player) == ("Ben", "Cy")


SAVE_REFUSALS = [
    # The paths point at the players as the request listed them (Cy was sent first).
    ("hand_size", "players[0]", {"player": "Cy", "have": 4, "need": 3, "round": 1},
     Play((hand("Cy", "ox", unused="m-n"), *ROUND_1.hands[:2]))),
    ("word_one_card", "players[1].words[0]", {"player": "Ann", "card": "a", "double": False},
     Play((ROUND_1.hands[1], hand("Ann", "a", unused="b-c"), ROUND_1.hands[2]))),
    ("deck_copies", "players[1].words[0][0]", {"card": "z", "copies": 2, "count": 3},
     Play((hand("Ann", "z-a", unused="z"), hand("Ben", "z-o", unused="t"), ROUND_1.hands[2]))),
    ("went_out_twice", "players[1].went_out", {"first": "Ann", "second": "Ben"},
     Play((ROUND_1.hands[0], hand("Ben", "dog", out=True), ROUND_1.hands[2]))),
    ("not_a_player", "players[2].name", {"name": "Dee", "names": THREE},
     Play((*ROUND_1.hands[:2], hand("Dee", "ox", unused="m")))),
    ("player_twice", "players[1].name", {"name": "Ann"},
     Play((ROUND_1.hands[0], hand("ann", "dog"), ROUND_1.hands[2]))),
    ("players_missing", "players", {"names": ["Cy"]}, Play(ROUND_1.hands[:2])),
    ("challenge_own_word", "challenges[0].by", {"player": "Cy"},
     replace(ROUND_1, challenges=(Challenge("Cy", "Cy", 0),))),
    ("challenge_no_word", "challenges[0].word", {"player": "Cy", "count": 1},
     replace(ROUND_1, challenges=(Challenge("Ben", "Cy", 1),))),
]  # fmt: skip


@pytest.mark.parametrize(("code", "where", "params", "play"), SAVE_REFUSALS)
def test_save_round_refusals_write_nothing(
    act: Act,
    lexicons: LexiconStore,
    new_game: NewGame,
    code: str,
    where: str,
    params: dict[str, object],
    play: Play,
) -> None:
    created = new_game()
    saved_round(act, lexicons, created)  # a round there already: it stays as it was
    with act.refused(RuleError, code, where, **params):
        saved_round(act, lexicons, created, play)


def test_save_round_refuses_rounds_out_of_turn(
    act: Act, lexicons: LexiconStore, new_game: NewGame
) -> None:
    created = new_game()
    gid, token = created.state.id, created.token
    with act.refused(RuleError, "previous_round_not_started", "round", number=2, previous=1):
        saved_round(act, lexicons, created, ROUND_2, 2)
    for number in (0, 9):
        with act.refused(NotFound, "no_such_round", "", number=number, rounds=8):
            saved_round(act, lexicons, created, ROUND_2, number)
    saved_round(act, lexicons, created)
    with act.refused(RuleError, "previous_round_open", "round", number=2, previous=1):
        saved_round(act, lexicons, created, ROUND_2, 2)
    act(games.set_closed, gid, token, 1, True)
    with act.refused(RuleError, "round_closed", "round", number=1):
        saved_round(act, lexicons, created)


def test_save_round_from_a_stale_page_is_a_conflict(
    act: Act, lexicons: LexiconStore, new_game: NewGame
) -> None:
    created = new_game()
    gid, token = created.state.id, created.token
    first = act(games.save_round, lexicons, gid, token, 1, ROUND_1, 0)
    assert first.version == 1
    changed = Play((*ROUND_1.hands[:2], hand("Cy", "m-o-x")))
    with act.refused(Conflict, "round_changed", "", number=1):
        act(games.save_round, lexicons, gid, token, 1, changed, 0)
    second = act(games.save_round, lexicons, gid, token, 1, changed, 1)
    assert second.version == 2


# --- challenge and withdraw ----------------------------------------------------------------


def test_challenge_asks_the_dictionary_and_keeps_its_ruling(
    act: Act, lexicons: LexiconStore, new_game: NewGame
) -> None:
    created = new_game()
    gid = created.state.id
    saved_round(act, lexicons, created)
    done = act(games.challenge, lexicons, gid, created.token, 1, Challenge("ben", "cy", 0))
    assert done.number == 1
    ruled = done.ruled()
    assert (ruled.challenge.by, ruled.challenge.player, ruled.challenge.word) == ("Ben", "Cy", 0)
    assert (ruled.text, ruled.ruling, ruled.points, ruled.charged_to) == (
        "ox",
        Ruling(True, "dictionary", "in_dictionary"),
        14,
        "Ben",
    )
    assert scores(done.round) == [13, 0, 9]  # Ben 13 - 14, floored
    assert (done.round.version, done.round.challenge_numbers) == (2, (1,))
    assert done.round == act.read(gid).round(1)
    assert act.challenges(gid, 1) == [(1, 1, 2, 0, True, "dictionary", "in_dictionary", "standard")]


@pytest.mark.parametrize(
    ("house", "ruling"),
    [
        ({}, Ruling(False, "dictionary", "abbreviation")),
        ({"sr": True}, Ruling(True, "dictionary", "house_word")),
    ],
)
def test_challenge_an_abbreviation_unless_the_house_allows_it(
    act: Act,
    lexicons: LexiconStore,
    new_game: NewGame,
    house: dict[str, bool],
    ruling: Ruling,
) -> None:
    created = new_game()
    gid, token = created.state.id, created.token
    for word, allowed in house.items():
        act(games.set_house_word, gid, token, word, allowed)
    play = Play((ROUND_1.hands[0], hand("Ben", "s-r", unused="d"), ROUND_1.hands[2]))
    saved_round(act, lexicons, created, play)
    done = act(games.challenge, lexicons, gid, token, 1, Challenge("Cy", "Ben", 0))
    assert done.ruled().ruling == ruling
    # CAT is the longest word alone: Ann +10. SR struck: S R D (13) count against Ben;
    # SR a word: Ben 8 - D 5, and Cy pays 8 for challenging it.
    assert scores(done.round) == ([23, 0, 9] if not ruling.legal else [23, 3, 1])
    assert act.challenges(gid, 1)[0][4:7] == (ruling.legal, ruling.decided_by, ruling.reason)


def test_a_banned_house_word_loses_its_challenge(
    act: Act, lexicons: LexiconStore, new_game: NewGame
) -> None:
    created = new_game()
    gid, token = created.state.id, created.token
    saved_round(act, lexicons, created)
    act(games.set_house_word, gid, token, "OX", False)
    done = act(games.challenge, lexicons, gid, token, 1, Challenge("Ann", "Cy", 0))
    assert done.ruled().ruling == Ruling(False, "dictionary", "banned_house_word")
    assert scores(done.round) == [13, 13, 0]  # O X M: -19, floored


def test_the_tables_ruling_needs_no_dictionary(act: Act, lexicons: LexiconStore) -> None:
    """A game whose group's own list was removed since it began: a challenge for the
    dictionary is refused, naming the lists there are; the table's own ruling still goes
    through. (The game is stored as create_game stores it, without building the list:
    a group's list is built upon standard's, which takes seconds.)"""
    with act.app.app_context(), store.transaction("game_changed"):
        game, token = store.insert_game(list(THREE), 0, Rules(lexicon="family"))
        gid = game.id
    act(games.save_round, lexicons, gid, token, 1, ROUND_1)
    with act.refused(RuleError, "unknown_lexicon", "rules.lexicon", name="family", names=LEXICONS):
        act(games.challenge, lexicons, gid, token, 1, Challenge("Ann", "Cy", 0))
    done = act(games.challenge, lexicons, gid, token, 1, Challenge("Ann", "Cy", 0, ruling=False))
    assert done.ruled().ruling == Ruling(False, "table", "table_illegal")
    assert act.challenges(gid, 1) == [(1, 0, 2, 0, False, "table", "table_illegal", "family")]


def test_challenge_refusals_write_nothing(
    act: Act, lexicons: LexiconStore, new_game: NewGame
) -> None:
    created = new_game()
    gid, token = created.state.id, created.token

    def challenge(typed: Challenge, number: int = 1) -> games.Challenged:
        return act(games.challenge, lexicons, gid, token, number, typed)

    with act.refused(RuleError, "round_empty", "round", number=1):
        challenge(Challenge("Ben", "Cy", 0))
    act(seats.save_seats, lexicons, gid, token, 1, {0: ROUND_1.hands[0]})
    with act.refused(RuleError, "round_waiting", "round", number=1, waiting=("Ben", "Cy")):
        challenge(Challenge("Ben", "Ann", 0))
    saved_round(act, lexicons, created)
    challenge(Challenge("Ben", "Cy", 0))
    # The paths are those of the one challenge sent.
    wrong: list[tuple[Challenge, str, str, dict[str, object]]] = [
        (Challenge("Cy", "cy", 0), "challenge_own_word", "by", {"player": "Cy"}),
        (Challenge("Ann", "Cy", 0), "challenge_twice", "", {"player": "Cy", "word": "ox"}),
        (Challenge("Ann", "Cy", 1), "challenge_no_word", "word", {"player": "Cy", "count": 1}),
        (Challenge("Dee", "Cy", 0), "challenger_unknown", "by",
         {"name": "Dee", "names": list(THREE)}),
        (Challenge("Ann", "Dee", 0), "challenged_unknown", "player",
         {"name": "Dee", "names": list(THREE)}),
    ]  # fmt: skip
    for typed, code, where, params in wrong:
        with act.refused(RuleError, code, where, **params):
            challenge(typed)
    with act.refused(NotFound, "no_such_round", "", number=9, rounds=8):
        challenge(Challenge("Ann", "Ben", 0), 9)
    act(games.set_closed, gid, token, 1, True)
    with act.refused(RuleError, "round_closed", "round", number=1):
        challenge(Challenge("Ann", "Ben", 0))


def test_withdraw_takes_a_challenge_back_and_its_number_is_not_used_again(
    act: Act, lexicons: LexiconStore, new_game: NewGame
) -> None:
    created = new_game()
    gid, token = created.state.id, created.token
    saved_round(act, lexicons, created)
    act(games.challenge, lexicons, gid, token, 1, Challenge("Ben", "Cy", 0))
    act(games.challenge, lexicons, gid, token, 1, Challenge("Cy", "Ann", 0, ruling=True))
    state = act(games.withdraw, gid, token, 1, 1)
    assert state.challenge_numbers == (2,)
    assert scores(state) == [13, 13, 0]  # Cy pays 13 for CAT: 9 - 13, floored
    assert state == act.read(gid).round(1)
    assert [c[0] for c in act.challenges(gid, 1)] == [2]
    assert act.round_row(gid, 1) == (False, 4, 2)

    with act.refused(NotFound, "no_such_challenge", "", number=1, n=1):
        act(games.withdraw, gid, token, 1, 1)
    with act.refused(NotFound, "no_such_challenge", "", number=2, n=1):
        act(games.withdraw, gid, token, 2, 1)  # a round nothing was entered for
    done = act(games.challenge, lexicons, gid, token, 1, Challenge("Ben", "Cy", 0))
    assert done.number == 3
    act(games.set_closed, gid, token, 1, True)
    with act.refused(RuleError, "round_closed", "round", number=1):
        act(games.withdraw, gid, token, 1, 2)


# --- close and reopen ----------------------------------------------------------------------


def test_close_puts_the_round_on_the_leaderboard_and_reopen_takes_it_off(
    act: Act, lexicons: LexiconStore, new_game: NewGame
) -> None:
    created = new_game()
    gid, token = created.state.id, created.token
    saved_round(act, lexicons, created)
    closed = act(games.set_closed, gid, token, 1, True)
    assert (closed.closed, closed.version, closed.race) == (True, 2, None)
    assert scores(closed) == ROUND_1_SCORES
    game = act.read(gid)
    assert game.round(1) == closed
    assert game.table == (Standing(0, "Ann", 13, 1), Standing(1, "Ben", 13, 1),
                          Standing(2, "Cy", 9, 3))  # fmt: skip
    assert (game.next_round, game.next_dealer, game.closed_rounds) == (2, "Ben", 1)
    assert act.round_row(gid, 1) == (True, 2, 0)

    reopened = act(games.set_closed, gid, token, 1, False)
    assert (reopened.closed, reopened.version) == (False, 3)
    assert reopened.race is not None
    game = act.read(gid)
    assert game.round(1) == reopened
    assert game.table == created.state.table
    assert (game.next_round, game.closed_rounds) == (1, 0)
    assert act.round_row(gid, 1) == (False, 3, 0)


def test_close_and_reopen_refusals_write_nothing(
    act: Act, lexicons: LexiconStore, new_game: NewGame
) -> None:
    created = new_game()
    gid, token = created.state.id, created.token
    with act.refused(RuleError, "round_empty", "round", number=1):
        act(games.set_closed, gid, token, 1, True)
    with act.refused(RuleError, "round_not_closed", "round", number=1):
        act(games.set_closed, gid, token, 1, False)
    act(seats.save_seats, lexicons, gid, token, 1, {1: ROUND_1.hands[1]})
    with act.refused(RuleError, "round_waiting", "round", number=1, waiting=("Ann", "Cy")):
        act(games.set_closed, gid, token, 1, True)
    saved_round(act, lexicons, created)
    act(games.set_closed, gid, token, 1, True)
    with act.refused(RuleError, "round_already_closed", "round", number=1):
        act(games.set_closed, gid, token, 1, True)
    for closed in (True, False):
        with act.refused(NotFound, "no_such_round", "", number=9, rounds=8):
            act(games.set_closed, gid, token, 9, closed)


def test_a_whole_game_to_its_winners(act: Act, lexicons: LexiconStore, new_game: NewGame) -> None:
    """Eight rounds: Ann CAT and Ben DOG each round, Cy OX, the rest left over (E, I, A:
    2 points each). CAT and DOG tie for the longest word, all three for the most words."""
    created = new_game()
    gid, token = created.state.id, created.token
    for number in range(1, 9):
        extra = number - 1
        play = Play(
            (
                hand("Ann", "cat", unused="e" * extra),
                hand("Ben", "dog", unused="i" * extra),
                hand("Cy", "ox", unused="a" * (extra + 1)),
            )
        )
        saved = act(games.save_round, lexicons, gid, token, number, play)
        floor = [max(13 - 2 * extra, 0), max(13 - 2 * extra, 0), max(12 - 2 * extra, 0)]
        assert scores(saved) == floor
        act(games.set_closed, gid, token, number, True)
    game = act.read(gid)
    assert (game.finished, game.next_round, game.next_dealer) == (True, None, None)
    assert game.table == (Standing(0, "Ann", 49, 1), Standing(1, "Ben", 49, 1),
                          Standing(2, "Cy", 42, 3))  # fmt: skip
    assert game.winners == ["Ann", "Ben"]


# --- house words ---------------------------------------------------------------------------


def test_house_words_are_set_changed_and_removed(act: Act, new_game: NewGame) -> None:
    created = new_game()
    gid, token = created.state.id, created.token
    state = act(games.set_house_word, gid, token, "  ZAX ", True)
    assert (state.house_words, state.version) == ({"zax": True}, 2)
    assert state == act.read(gid)
    assert act.house_words(gid) == [("zax", True)]

    state = act(games.set_house_word, gid, token, "zax", False)
    assert (state.house_words, state.version) == ({"zax": False}, 3)
    act(games.set_house_word, gid, token, "qi", True)
    assert act.house_words(gid) == [("qi", True), ("zax", False)]

    state = act(games.remove_house_word, gid, token, " Zax")
    assert (state.house_words, state.version) == ({"qi": True}, 5)
    assert state == act.read(gid)
    assert act.house_words(gid) == [("qi", True)]


@pytest.mark.parametrize("word", ["a", "x" * 41, "ab1", "café", "two words", "", "   "])
def test_a_house_word_is_two_to_forty_letters(act: Act, new_game: NewGame, word: str) -> None:
    created = new_game()
    with act.refused(RuleError, "house_word_letters", "word", least=2, most=40):
        act(games.set_house_word, created.state.id, created.token, word, True)


def test_removing_a_house_word_there_is_not_is_not_found(act: Act, new_game: NewGame) -> None:
    created = new_game()
    gid, token = created.state.id, created.token
    act(games.set_house_word, gid, token, "zax", True)
    with act.refused(NotFound, "no_such_house_word", "", word="qi"):
        act(games.remove_house_word, gid, token, "QI")
    with act.refused(NotFound, "no_such_house_word", "", word="y" * 40):
        act(games.remove_house_word, gid, token, "y" * 60)


# --- the edit right ------------------------------------------------------------------------


Edit = Callable[[Act, LexiconStore, str, str | None], object]

EDITS: list[tuple[str, Edit, bool]] = [
    ("save_round", lambda act, lx, gid, t: act(games.save_round, lx, gid, t, 1, ROUND_1), False),
    ("challenge", lambda act, lx, gid, t: act(games.challenge, lx, gid, t, 1,
                                              Challenge("Ann", "Ben", 0)), False),
    ("withdraw", lambda act, lx, gid, t: act(games.withdraw, gid, t, 1, 1), False),
    ("close", lambda act, lx, gid, t: act(games.set_closed, gid, t, 1, True), False),
    ("reopen", lambda act, lx, gid, t: act(games.set_closed, gid, t, 1, False), True),
    ("set_house_word", lambda act, lx, gid, t: act(games.set_house_word, gid, t, "qi", True),
     False),
    ("remove_house_word", lambda act, lx, gid, t: act(games.remove_house_word, gid, t, "zax"),
     False),
]  # fmt: skip
"""Every edit of a game with the edit right, and whether it needs round 1 closed first."""


@pytest.mark.parametrize(("name", "edit", "closed"), EDITS, ids=[e[0] for e in EDITS])
def test_every_edit_needs_the_games_own_edit_token(
    act: Act,
    lexicons: LexiconStore,
    new_game: NewGame,
    name: str,
    edit: Edit,
    closed: bool,
) -> None:
    """No token, an empty one, a made-up one, a seat's secret, the edit token of another
    game, or the token one character short or with a space: refused, nothing written."""
    created, other = new_game(), new_game()
    gid, token = created.state.id, created.token
    saved_round(act, lexicons, created)
    act(games.challenge, lexicons, gid, token, 1, Challenge("Ben", "Cy", 0))
    act(games.set_house_word, gid, token, "zax", True)
    if closed:
        act(games.set_closed, gid, token, 1, True)
    seat = act(seats.claim_seat, gid, 1).token
    for held in (None, "", "not-a-token", seat, other.token, token[:-1], f" {token}"):
        with act.refused(Forbidden, "edit_link_needed"):
            edit(act, lexicons, gid, held)
    with act.refused(NotFound, "no_such_game"):
        edit(act, lexicons, "no-such-game", token)
    version = act.read(gid).version
    edit(act, lexicons, gid, token)  # the game's own token: done
    assert act.read(gid).version == version + 1
