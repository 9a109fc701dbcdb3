"""Seats, action by action (``companion.actions.seats``), without HTTP: a phone claims its
player's seat and saves that hand alone; the edit token saves any seat and releases one.

Each test asserts the state the action answers (the game read back afterwards is the
same), the rows stored, and for every bad input the refusal exactly, with every stored
row as it was before.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from companion.actions import games, seats
from companion.game.errors import Conflict, Forbidden, NotFound, RuleError
from companion.game.play import Challenge, Hand
from companion.game.scoring import Bonus, BonusRace
from companion.lexicon import LexiconStore
from companion.store import SeatState
from tests.actions.support import ROUND_1, ROUND_1_SCORES, Act, hand, token_hash

NewGame = Callable[..., games.Created]
ANN, BEN, CY = ROUND_1.hands


def claimed(act: Act, game_id: str, seat: int) -> str:
    """Claim seat ``seat`` from a phone holding none; its secret."""
    token = act(seats.claim_seat, game_id, seat).token
    assert token is not None
    return token


# --- claim_seat ----------------------------------------------------------------------------


def test_a_claimed_seat_is_kept_hashed_and_its_secret_shown_once(
    act: Act, new_game: NewGame
) -> None:
    created = new_game()
    gid = created.state.id
    claim = act(seats.claim_seat, gid, 1)
    assert (claim.seat, claim.name) == (1, "Ben")
    assert claim.token is not None and len(claim.token) == 32
    assert (claim.game.claimed, claim.game.version) == ((False, True, False), 2)
    assert claim.game == act.read(gid)
    assert act.players(gid) == [
        (0, "Ann", None, False),
        (1, "Ben", token_hash(claim.token), True),
        (2, "Cy", None, False),
    ]
    assert claim.token not in repr(act.rows())


def test_claiming_ones_own_seat_again_changes_nothing(act: Act, new_game: NewGame) -> None:
    gid = new_game().state.id
    token = claimed(act, gid, 1)
    before = act.rows()
    again = act(seats.claim_seat, gid, 1, token)
    assert (again.seat, again.name, again.token) == (1, "Ben", None)
    assert again.game == act.read(gid)
    assert again.game.version == 2
    assert act.rows() == before


def test_claim_refusals_write_nothing(act: Act, new_game: NewGame) -> None:
    created, other = new_game(), new_game()
    gid = created.state.id
    ben = claimed(act, gid, 1)
    stranger = claimed(act, other.state.id, 2)
    with act.refused(RuleError, "seat_already_held", "", name="Ben"):
        act(seats.claim_seat, gid, 2, ben)  # a phone holds one seat
    for held in (None, stranger, created.token):  # no seat of this game
        with act.refused(Conflict, "seat_taken", "", seat=1, name="Ben"):
            act(seats.claim_seat, gid, 1, held)
    for seat in (3, -1):
        with act.refused(NotFound, "no_such_seat", "", seat=seat, seats=3):
            act(seats.claim_seat, gid, seat)
    with act.refused(NotFound, "no_such_game"):
        act(seats.claim_seat, "no-such-game", 0)


# --- release_seat --------------------------------------------------------------------------


def test_release_frees_the_seat_and_the_old_secret_stops_working(
    act: Act, lexicons: LexiconStore, new_game: NewGame
) -> None:
    created = new_game()
    gid, token = created.state.id, created.token
    old = claimed(act, gid, 1)
    state = act(seats.release_seat, gid, token, 1)
    assert (state.claimed, state.version) == ((False, False, False), 3)
    assert state == act.read(gid)
    assert act.players(gid)[1] == (1, "Ben", None, False)
    with act.refused(Forbidden, "seat_link_needed"):
        act(seats.save_seats, lexicons, gid, old, 1, {1: BEN})
    new = claimed(act, gid, 1)  # another phone takes the seat, with a new secret
    assert new != old
    assert act.players(gid)[1] == (1, "Ben", token_hash(new), True)


def test_releasing_a_seat_nobody_holds_changes_nothing(act: Act, new_game: NewGame) -> None:
    created = new_game()
    before = act.rows()
    state = act(seats.release_seat, created.state.id, created.token, 2)
    assert state == created.state
    assert act.rows() == before


def test_release_refusals_write_nothing(act: Act, new_game: NewGame) -> None:
    created = new_game()
    gid, token = created.state.id, created.token
    ben = claimed(act, gid, 1)
    for held in (None, ben, "not-a-token"):  # a phone can't free even its own seat
        with act.refused(Forbidden, "edit_link_needed"):
            act(seats.release_seat, gid, held, 1)
    with act.refused(NotFound, "no_such_seat", "", seat=3, seats=3):
        act(seats.release_seat, gid, token, 3)
    with act.refused(NotFound, "no_such_game"):
        act(seats.release_seat, "no-such-game", token, 1)


# --- save_seats ----------------------------------------------------------------------------


def test_each_phone_saves_its_own_hand_and_the_round_is_scored_when_all_are_in(
    act: Act, lexicons: LexiconStore, new_game: NewGame
) -> None:
    gid = new_game().state.id
    tokens = [claimed(act, gid, seat) for seat in range(3)]

    ben = act(seats.save_seats, lexicons, gid, tokens[1], 1, {1: BEN})
    state = ben.round
    assert ([s.seat for s in state.seats if s.entered], ben.dropped) == ([1], ())
    assert (state.version, state.entered, state.play, state.result) == (1, False, None, None)
    assert state.seats == (
        SeatState(0, "Ann", False, 0, None),
        SeatState(1, "Ben", True, 1, BEN),
        SeatState(2, "Cy", False, 0, None),
    )
    assert state.waiting_for == ("Ann", "Cy")
    assert state.race == BonusRace(("Ben",), Bonus(True, "Ben", 1, ()),
                                   Bonus(True, "Ben", 3, ()), "dog")  # fmt: skip
    assert state == act.read(gid).round(1)
    assert act.entries(gid, 1) == [(1, [["d", "o", "g"]], [], False, 1)]

    act(seats.save_seats, lexicons, gid, tokens[2], 1, {2: CY})
    done = act(seats.save_seats, lexicons, gid, tokens[0], 1, {0: ANN})
    assert (done.round.entered, done.round.version, done.round.waiting_for) == (True, 3, ())
    assert done.round.result is not None
    assert [p.score for p in done.round.result.players] == ROUND_1_SCORES
    assert done.round == act.read(gid).round(1)
    assert act.entries(gid, 1) == [
        (0, [["c", "a", "t"]], [], True, 1),
        (1, [["d", "o", "g"]], [], False, 1),
        (2, [["o", "x"]], ["m"], False, 1),
    ]


def test_the_edit_token_saves_any_seats_at_once(
    act: Act, lexicons: LexiconStore, new_game: NewGame
) -> None:
    created = new_game()
    gid = created.state.id
    saved = act(seats.save_seats, lexicons, gid, created.token, 1, {2: CY, 0: ANN})
    assert [s.seat for s in saved.round.seats if s.entered] == [0, 2]
    assert saved.round.waiting_for == ("Ben",)
    assert [e[0] for e in act.entries(gid, 1)] == [0, 2]


def test_a_phone_passes_every_token_it_holds(
    act: Act, lexicons: LexiconStore, new_game: NewGame
) -> None:
    """The page hands over what the phone holds, unchecked: the first that gives the right
    counts (a seat secret for that seat; the edit token for any)."""
    created, other = new_game(), new_game()
    gid = created.state.id
    ben = claimed(act, gid, 1)
    saved = act(seats.save_seats, lexicons, gid, (None, "junk", other.token, ben), 1, {1: BEN})
    assert [s.seat for s in saved.round.seats if s.entered] == [1]
    saved = act(seats.save_seats, lexicons, gid, (ben, created.token), 1, {0: ANN, 2: CY})
    assert saved.round.entered


def test_the_same_hand_saved_again_keeps_its_version(
    act: Act, lexicons: LexiconStore, new_game: NewGame
) -> None:
    gid = new_game().state.id
    ben = claimed(act, gid, 1)
    act(seats.save_seats, lexicons, gid, ben, 1, {1: BEN}, {1: 0})
    again = act(seats.save_seats, lexicons, gid, ben, 1, {1: BEN}, {1: 0})  # a second tap
    assert (again.round.seats[1].version, again.round.version) == (1, 2)
    assert act.entries(gid, 1) == [(1, [["d", "o", "g"]], [], False, 1)]


def test_a_hand_changed_since_the_page_was_loaded_is_a_conflict(
    act: Act, lexicons: LexiconStore, new_game: NewGame
) -> None:
    created = new_game()
    gid = created.state.id
    ben = claimed(act, gid, 1)
    act(seats.save_seats, lexicons, gid, ben, 1, {1: BEN}, {1: 0})
    # The scorekeeper fixes Ben's hand meanwhile, from the page Ben's phone loaded too.
    fixed = hand("Ben", "g-o-d")
    act(seats.save_seats, lexicons, gid, created.token, 1, {1: fixed}, {1: 1})
    with act.refused(Conflict, "seat_changed", "", number=1, seat=1, name="Ben"):
        act(seats.save_seats, lexicons, gid, ben, 1, {1: hand("Ben", "d-o-g")}, {1: 1})
    # What is saved sent again with the old version is no conflict: nothing to lose.
    same = act(seats.save_seats, lexicons, gid, ben, 1, {1: fixed}, {1: 1})
    assert same.round.seats[1] == SeatState(1, "Ben", True, 2, fixed)
    # Another seat's save never conflicts with Ben's.
    act(seats.save_seats, lexicons, gid, created.token, 1, {0: ANN}, {0: 0})


def test_a_seat_secret_saves_only_its_own_seat(
    act: Act, lexicons: LexiconStore, new_game: NewGame
) -> None:
    created, other = new_game(), new_game()
    gid = created.state.id
    ben = claimed(act, gid, 1)
    stranger = claimed(act, other.state.id, 1)  # Ben's seat, but of another game
    held: str | tuple[str | None, ...] | None
    for held in (ben, (ben, None)):
        with act.refused(Forbidden, "seat_not_yours", "", seat=2, name="Cy", yours="Ben"):
            act(seats.save_seats, lexicons, gid, held, 1, {2: CY})
        with act.refused(Forbidden, "seat_not_yours", "", seat=0, name="Ann", yours="Ben"):
            act(seats.save_seats, lexicons, gid, held, 1, {1: BEN, 0: ANN})
    for held in (None, "", "junk", stranger, other.token, (None, stranger)):
        with act.refused(Forbidden, "seat_link_needed"):
            act(seats.save_seats, lexicons, gid, held, 1, {1: BEN})
    with act.refused(NotFound, "no_such_game"):
        act(seats.save_seats, lexicons, "no-such-game", ben, 1, {1: BEN})


SEAT_REFUSALS: list[tuple[dict[int, Hand], dict[int, Hand], str, str, dict[str, object]]] = [
    ({}, {1: hand("Ben", "dog", unused="s")}, "hand_size", "players[1]",
     {"player": "Ben", "have": 4, "need": 3, "round": 1}),
    ({}, {1: hand("Ben", "d", unused="o-g")}, "word_one_card", "players[1].words[0]",
     {"player": "Ben", "card": "d", "double": False}),
    ({}, {1: hand("Ben", "z-z", unused="z")}, "deck_copies", "players[1].words[0][0]",
     {"card": "z", "copies": 2, "count": 3}),
    ({0: hand("Ann", "z-a", unused="z")}, {1: hand("Ben", "t-o", unused="z")},
     "deck_copies_seats", "players[1].unused[0]",
     {"card": "z", "copies": 2, "count": 3, "holders": ["Ann", "Ben"]}),
    ({0: ANN}, {1: hand("Ben", "dog", out=True)}, "went_out_twice", "players[1].went_out",
     {"first": "Ann", "second": "Ben"}),
    # All or none: Ann's good hand is not saved with Ben's bad one.
    ({}, {0: ANN, 1: hand("Ben", "do")}, "hand_size", "players[1]",
     {"player": "Ben", "have": 2, "need": 3, "round": 1}),
]  # fmt: skip


@pytest.mark.parametrize(("before", "hands", "code", "where", "params"), SEAT_REFUSALS)
def test_a_hand_against_the_rules_is_refused_whole(
    act: Act,
    lexicons: LexiconStore,
    new_game: NewGame,
    before: dict[int, Hand],
    hands: dict[int, Hand],
    code: str,
    where: str,
    params: dict[str, object],
) -> None:
    created = new_game()
    gid, token = created.state.id, created.token
    if before:
        act(seats.save_seats, lexicons, gid, token, 1, before)
    with act.refused(RuleError, code, where, **params):
        act(seats.save_seats, lexicons, gid, token, 1, hands)


def test_seat_saves_out_of_turn_are_refused(
    act: Act, lexicons: LexiconStore, new_game: NewGame
) -> None:
    created = new_game()
    gid, token = created.state.id, created.token
    ben = claimed(act, gid, 1)
    for seat in (3, -1):  # no such seat, whoever asks
        with act.refused(NotFound, "no_such_seat", "", seat=seat, seats=3):
            act(seats.save_seats, lexicons, gid, ben, 1, {seat: BEN})
    with act.refused(NotFound, "no_such_round", "", number=9, rounds=8):
        act(seats.save_seats, lexicons, gid, ben, 9, {1: BEN})
    with act.refused(RuleError, "previous_round_not_started", "round", number=2, previous=1):
        act(seats.save_seats, lexicons, gid, ben, 2, {1: hand("Ben", "t-o-p", unused="a")})
    act(games.save_round, lexicons, gid, token, 1, ROUND_1)
    with act.refused(RuleError, "previous_round_open", "round", number=2, previous=1):
        act(seats.save_seats, lexicons, gid, ben, 2, {1: hand("Ben", "t-o-p", unused="a")})
    act(games.set_closed, gid, token, 1, True)
    with act.refused(RuleError, "round_closed", "round", number=1):
        act(seats.save_seats, lexicons, gid, ben, 1, {1: hand("Ben", "g-o-d")})
    saved = act(seats.save_seats, lexicons, gid, ben, 2, {1: hand("Ben", "t-o-p", unused="a")})
    assert saved.round.number == 2


def test_a_changed_word_drops_its_challenge_and_the_others_keep_their_numbers(
    act: Act, lexicons: LexiconStore, new_game: NewGame
) -> None:
    created = new_game()
    gid, token = created.state.id, created.token
    cy = claimed(act, gid, 2)
    act(games.save_round, lexicons, gid, token, 1, ROUND_1)
    act(games.challenge, lexicons, gid, token, 1, Challenge("Ben", "Cy", 0))
    act(games.challenge, lexicons, gid, token, 1, Challenge("Cy", "Ben", 0, ruling=True))

    same = act(seats.save_seats, lexicons, gid, cy, 1, {2: CY})
    assert (same.dropped, same.round.challenge_numbers) == ((), (1, 2))
    changed = act(seats.save_seats, lexicons, gid, cy, 1, {2: hand("Cy", "x-o", unused="m")})
    assert changed.dropped == ("ox",)
    assert changed.round.challenge_numbers == (2,)
    assert changed.round == act.read(gid).round(1)
    assert act.challenges(gid, 1) == [(2, 2, 1, 0, True, "table", "table_legal", "standard")]
    assert act.round_row(gid, 1) == (False, 5, 2)
