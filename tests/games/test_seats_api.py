"""Seats through the API: a phone claims its player's seat from the view link and saves
that hand alone, with the seat's own version; the edit token saves any seat and releases
a seat; the round is scored once every seat is in.

Every refusal is checked for its exact shape (status, ``where``, code, params) and for
writing nothing: the game's JSON and every row of the database are the same after it.
"""

from __future__ import annotations

import hashlib
import string
from collections.abc import Callable, Sequence

from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.test import TestResponse

from companion.game.deck import CARDS

Hand = dict[str, object]


def seat_hand(
    words: Sequence[object] = (), unused: Sequence[str] = (), went_out: bool = False
) -> Hand:
    return {"words": list(words), "unused": list(unused), "went_out": went_out}


ANN = seat_hand(["c-a-t"], went_out=True)
"""Round 1 (3 cards): Ann CAT 8+2+3 = 13, out."""
BEN = seat_hand(["d-o-g"])
"""Ben DOG 5+2+6 = 13."""
CY = seat_hand(["o-x"], ["m"])
"""Cy OX 2+12 = 14, M 5 left over: 9."""
ROUND_1 = [ANN, BEN, CY]


def named(names: Sequence[str], hands: Sequence[Hand]) -> list[dict]:
    """The body of a whole-round PUT for these seat hands."""
    return [{"name": n, **h} for n, h in zip(names, hands, strict=True)]


def claim(game, seat: int, via: FlaskClient | None = None) -> TestResponse:
    return (via or game.client).post(game.url(f"/seats/{seat}/claim"), json={})


def token_of(game, seat: int) -> str:
    """Claim seat ``seat`` and give its secret."""
    resp = claim(game, seat)
    assert resp.status_code == 201, resp.get_data(as_text=True)
    return resp.get_json()["seat_token"]


def release(game, seat: int, token: str | None) -> TestResponse:
    headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
    return game.client.delete(game.url(f"/seats/{seat}/claim"), json={}, headers=headers)


def put_seat(
    game,
    number: int,
    seat: int,
    token: str | None,
    hand: Hand,
    if_match: str | None = None,
) -> TestResponse:
    headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
    if if_match is not None:
        headers["If-Match"] = if_match
    return game.client.put(game.url(f"/rounds/{number}/seats/{seat}"), json=hand, headers=headers)


def saved(game, number: int, seat: int, token: str | None, hand: Hand, **kw: str) -> dict:
    """Save one seat and give the answer, asserting it was accepted."""
    resp = put_seat(game, number, seat, token, hand, **kw)
    assert resp.status_code == 200, resp.get_data(as_text=True)
    return resp.get_json()


def versions(round_json: dict) -> list[int]:
    return [s["version"] for s in round_json["seats"]]


def scores(round_json: dict) -> list[int]:
    return [p["score"] for p in round_json["result"]["players"]]


def seat_all(game, number: int, hands: Sequence[Hand], token: str | None = None) -> dict:
    """Save every seat's hand in seating order (with ``token``, else the edit token)."""
    answer: dict = {}
    for seat, hand in enumerate(hands):
        answer = saved(game, number, seat, token or game.token, hand)
    return answer["round"]


# --- claiming and releasing -----------------------------------------------------------------


def test_claim_release_and_claim_again(app, new_game, refused):
    game = new_game()
    first = claim(game, 1)
    assert first.status_code == 201
    body = first.get_json()
    assert list(body) == ["seat", "name", "seat_token"]
    assert (body["seat"], body["name"]) == (1, "Ben")
    assert [p["claimed"] for p in game.get()["players"]] == [False, True, False]
    assert saved(game, 1, 1, body["seat_token"], BEN)["version"] == 1

    released = release(game, 1, game.token)
    assert released.status_code == 200
    assert released.get_json() == game.get()
    assert [p["claimed"] for p in game.get()["players"]] == [False, False, False]
    # The old phone's secret stops working: it is no seat's secret any more.
    with game.unchanged():
        refused(put_seat(game, 1, 1, body["seat_token"], BEN), 403, "", "seat_link_needed")

    again = claim(game, 1)
    assert again.status_code == 201
    token = again.get_json()["seat_token"]
    assert token != body["seat_token"]
    assert [p["claimed"] for p in game.get()["players"]] == [False, True, False]
    assert saved(game, 1, 1, token, seat_hand(["g-o-d"]))["version"] == 2


def test_releasing_a_seat_nobody_holds_changes_nothing(new_game):
    game = new_game()
    with game.unchanged():
        resp = release(game, 2, game.token)
        assert resp.status_code == 200
        assert [p["claimed"] for p in resp.get_json()["players"]] == [False, False, False]


def test_the_seat_token_is_random_and_stored_only_hashed(new_game, rows):
    game = new_game()
    tokens = [token_of(game, seat) for seat in range(3)]
    alphabet = set(string.ascii_letters + string.digits + "-_")
    for token in tokens:
        assert len(token) >= 22  # 22 URL-safe characters carry 132 bits: at least 128 random
        assert set(token) <= alphabet
    assert len(set(tokens)) == 3
    stored = rows()["player"]
    text = repr(stored)
    for token in tokens:
        assert token not in text
        digest = hashlib.sha256(token.encode()).hexdigest()
        assert sum(digest in repr(row) for row in stored) == 1
    assert [p["claimed"] for p in game.get()["players"]] == [True, True, True]


def test_a_second_claim_is_409_and_writes_nothing(new_game, refused):
    game = new_game()
    token = token_of(game, 0)
    with game.unchanged():
        refused(claim(game, 0), 409, "", "seat_taken", seat=0, name="Ann")
    assert saved(game, 1, 0, token, ANN)["version"] == 1  # the first phone keeps the seat


def test_release_needs_the_edit_token(new_game, refused):
    game = new_game()
    token = token_of(game, 0)
    for sent in (None, token, "not-a-token"):
        with game.unchanged():
            refused(release(game, 0, sent), 403, "", "edit_link_needed")
    assert [p["claimed"] for p in game.get()["players"]] == [True, False, False]


def test_no_such_seat_is_404_for_claim_release_and_save(new_game, refused):
    game = new_game()
    for seat in (3, 9, -1):
        with game.unchanged():
            body = refused(claim(game, seat), 404, "", "no_such_seat", seat=seat, seats=3)
            assert body["error"] == f"There is no seat {seat}; this game's seats are 0 to 2."
            refused(release(game, seat, game.token), 404, "", "no_such_seat", seat=seat)
            refused(put_seat(game, 1, seat, game.token, ANN), 404, "", "no_such_seat", seat=seat)


# --- saving seats -----------------------------------------------------------------------------


def test_each_seat_saved_by_its_own_token_and_scored_once_all_are_in(new_game):
    names = ("Ann", "Ben", "Cy")
    game, whole = new_game(), new_game()
    tokens = [token_of(game, seat) for seat in range(3)]
    assert game.round(1)["seats"] == [
        {"seat": i, "name": n, "entered": False, "version": 0} for i, n in enumerate(names)
    ]
    assert game.round(1)["bonus_race"] is None

    first = saved(game, 1, 0, tokens[0], ANN)
    assert (first["seat"], first["version"]) == (0, 1)
    r = first["round"]
    assert (r["entered"], r["result"], r["went_out"], r["version"]) == (False, None, None, 1)
    assert [(s["entered"], s["version"]) for s in r["seats"]] == [(True, 1), (False, 0), (False, 0)]
    assert r["bonus_race"] == {
        "entered": ["Ann"],
        "most_words": {"in_play": True, "winner": "Ann", "best": 1, "tied": []},
        "longest_word": {"in_play": True, "winner": "Ann", "best": 3, "tied": [], "word": "cat"},
    }
    assert game.round(1) == r

    r = saved(game, 1, 2, tokens[2], CY)["round"]  # out of seating order
    assert (r["entered"], r["result"]) == (False, None)
    assert [s["entered"] for s in r["seats"]] == [True, False, True]
    assert r["bonus_race"]["most_words"] == {
        "in_play": True,
        "winner": None,
        "best": 1,
        "tied": ["Ann", "Cy"],
    }
    assert r["bonus_race"]["longest_word"]["winner"] == "Ann"

    last = saved(game, 1, 1, tokens[1], BEN)
    r = last["round"]
    assert (last["seat"], last["version"]) == (1, 1)
    assert (r["entered"], r["went_out"], r["version"]) == (True, "Ann", 3)
    assert versions(r) == [1, 1, 1]
    assert scores(r) == [13, 13, 9]  # CAT and DOG tie for the longest word: no bonus
    assert r["bonus_race"]["longest_word"] == {
        "in_play": True,
        "winner": None,
        "best": 3,
        "tied": ["Ann", "Ben"],
        "word": "cat",
    }

    expected = whole.enter(1, named(names, ROUND_1))
    assert r["result"] == expected["result"]
    assert versions(expected) == [1, 1, 1]
    closed = game.close(1)
    assert (closed["closed"], closed["bonus_race"]) == (True, None)
    assert [p["total"] for p in game.get()["players"]] == [13, 13, 9]


def test_the_scorekeeper_saves_any_seat(new_game):
    game = new_game()
    token_of(game, 1)  # even a seat a phone holds
    r = seat_all(game, 1, ROUND_1, game.token)
    assert versions(r) == [1, 1, 1]
    assert scores(r) == [13, 13, 9]


def test_seat_versions_move_only_when_the_hand_changes(new_game):
    game = new_game()
    token = token_of(game, 2)
    assert versions(game.round(1)) == [0, 0, 0]
    assert saved(game, 1, 2, token, CY)["version"] == 1
    same = saved(game, 1, 2, token, seat_hand(["O-X"], ["M"]))  # the same cards, typed otherwise
    assert same["version"] == 1
    assert same["round"]["version"] == 2  # the round was written (and stays consistent)
    assert saved(game, 1, 2, token, seat_hand(["o-x"], ["n"]))["version"] == 2
    assert saved(game, 1, 2, token, seat_hand([], ["o", "x", "n"]))["version"] == 3
    assert versions(game.round(1)) == [0, 0, 3]


def test_if_match_is_the_seats_version(new_game, refused):
    game = new_game()
    token = token_of(game, 0)
    assert saved(game, 1, 0, token, ANN, if_match='"0"')["version"] == 1
    assert saved(game, 1, 1, game.token, BEN, if_match='"0"')["version"] == 1  # other seats: own
    assert (
        saved(game, 1, 0, token, seat_hand(["a-c-t"], went_out=True), if_match='"1"')["version"]
        == 2
    )
    assert saved(game, 1, 0, token, ANN, if_match="2")["version"] == 3  # quotes are optional
    with game.unchanged():
        refused(put_seat(game, 1, 0, token, ANN, if_match='"x"'), 400, "If-Match", "if_match")


def test_a_stale_seat_save_is_409_with_the_saved_hand(new_game, refused):
    game = new_game()
    token = token_of(game, 2)
    saved(game, 1, 2, game.token, CY)  # the scorekeeper entered Cy's hand meanwhile
    with game.unchanged():
        body = refused(
            put_seat(game, 1, 2, token, seat_hand(["m-o"], ["x"]), if_match='"0"'),
            409,
            "",
            "seat_changed",
            number=1,
            seat=2,
            name="Cy",
        )
    assert body["seat"] == {
        "seat": 2,
        "name": "Cy",
        "entered": True,
        "version": 1,
        "words": [["o", "x"]],
        "unused": ["m"],
        "went_out": False,
    }
    assert body["round"] == game.round(1)


def test_the_same_hand_sent_again_from_a_stale_page_is_no_clash(new_game):
    # A phone whose answer was lost sends its hand again with the version it had: the hand
    # saved is that one, so nothing is lost and nothing clashes; the version stays.
    game = new_game()
    token = token_of(game, 2)
    assert saved(game, 1, 2, token, CY, if_match='"0"')["version"] == 1
    assert saved(game, 1, 2, token, CY, if_match='"0"')["version"] == 1


def test_a_seat_token_cannot_write_another_seat(new_game, refused):
    game = new_game()
    ann = token_of(game, 0)
    token_of(game, 1)
    saved(game, 1, 0, ann, ANN)
    with game.unchanged():
        body = refused(
            put_seat(game, 1, 1, ann, BEN),
            403,
            "",
            "seat_not_yours",
            seat=1,
            name="Ben",
            yours="Ann",
        )
    assert body["error"] == (
        "This phone holds Ann's seat; only Ben's phone or the scorekeeper can enter Ben's hand."
    )


def test_a_view_only_request_cannot_write_a_seat(new_game, refused):
    game = new_game()
    other = new_game()
    token_of(game, 0)
    for sent in (None, "not-a-token", other.token, token_of(other, 0)):
        with game.unchanged():
            refused(put_seat(game, 1, 0, sent, ANN), 403, "", "seat_link_needed")


def test_a_seat_token_is_no_edit_token(new_game, refused):
    game = new_game()
    token = token_of(game, 0)
    seat_all(game, 1, ROUND_1)
    with game.unchanged():
        refused(
            game.put_round(
                1,
                named(("Ann", "Ben", "Cy"), ROUND_1),
                headers={"Authorization": f"Bearer {token}"},
            ),
            403,
            "",
            "edit_link_needed",
        )
        resp = game.client.post(
            game.url("/rounds/1/close"), json={}, headers={"Authorization": f"Bearer {token}"}
        )
        refused(resp, 403, "", "edit_link_needed")


def test_deck_copies_are_checked_across_seats_naming_the_holders(new_game, refused):
    game = new_game()
    ann, ben, cy = (token_of(game, seat) for seat in range(3))
    saved(game, 1, 0, ann, seat_hand([["z", "o"]], ["z"]))  # both Z cards of the deck
    saved(game, 1, 1, ben, BEN)
    with game.unchanged():
        body = refused(
            put_seat(game, 1, 2, cy, seat_hand([["a", "z"]], ["m"])),
            422,
            "words[0][1]",
            "deck_copies_seats",
            card="z",
            copies=2,
            count=3,
            holders=["Ann", "Cy"],
        )
    assert body["error"] == (
        "The deck has only 2 Z cards, but Ann and Cy entered 3 between them; "
        "check who really holds it."
    )
    with game.unchanged():  # a card left over counts too, and so does any seat
        refused(
            put_seat(game, 1, 2, cy, seat_hand([["m", "a"]], ["z"])),
            422,
            "unused[0]",
            "deck_copies_seats",
            count=3,
            holders=["Ann", "Cy"],
        )
        refused(
            put_seat(game, 1, 1, ben, seat_hand([["z", "a", "p"]])),
            422,
            "words[0][0]",
            "deck_copies_seats",
            holders=["Ann", "Ben"],
        )
    with game.unchanged():  # a third Z in the hand of one player: only that player's doing
        body = refused(
            put_seat(game, 1, 0, ann, seat_hand([["z", "z"]], ["z"])),
            422,
            "words[0][0]",
            "deck_copies",
            card="z",
            copies=2,
            count=3,
        )
    # Ann trading her hand for one Z leaves room for Cy's.
    saved(game, 1, 0, ann, seat_hand([["z", "o"]], ["t"]))
    r = saved(game, 1, 2, cy, seat_hand([["a", "z"]], ["m"]))["round"]
    assert r["entered"] is True


def test_wrong_hand_size_is_refused(new_game, refused):
    game = new_game()
    token = token_of(game, 1)
    with game.unchanged():
        refused(
            put_seat(game, 1, 1, token, seat_hand(["d-o-g"], ["s"])),
            422,
            "",
            "hand_size",
            player="Ben",
            have=4,
            need=3,
            round=1,
        )
        refused(put_seat(game, 1, 1, token, seat_hand(["d-o"])), 422, "", "hand_size", have=2)
        refused(
            put_seat(game, 1, 1, token, seat_hand(["d-o", "g"])), 422, "words[1]", "word_one_card"
        )


def test_a_seat_body_takes_no_name_and_a_round_outside_1_to_8_is_404(new_game, refused):
    game = new_game()
    token = token_of(game, 0)
    with game.unchanged():
        refused(
            put_seat(game, 1, 0, token, {"name": "Ben", **BEN}),
            400,
            "name",
            "unknown_field",
            field="name",
        )
        refused(put_seat(game, 1, 0, token, {}), 422, "", "hand_size", have=0, need=3)
        refused(put_seat(game, 9, 0, token, ANN), 404, "", "no_such_round", number=9)


def test_two_players_going_out_is_refused(new_game, refused):
    game = new_game()
    saved(game, 1, 0, game.token, ANN)  # Ann went out
    with game.unchanged():
        refused(
            put_seat(game, 1, 2, game.token, {**CY, "went_out": True}),
            422,
            "went_out",
            "went_out_twice",
            first="Ann",
            second="Cy",
        )
    # Ann herself may save again, still out.
    assert saved(game, 1, 0, game.token, seat_hand(["a-c-t"], went_out=True))["version"] == 2


def test_a_closed_round_refuses_seat_saves(new_game, refused):
    game = new_game()
    token = token_of(game, 0)
    seat_all(game, 1, ROUND_1)
    game.close(1)
    with game.unchanged():
        refused(put_seat(game, 1, 0, token, ANN), 422, "round", "round_closed", number=1)
        refused(put_seat(game, 1, 0, game.token, ANN), 422, "round", "round_closed", number=1)
    game.reopen(1)
    assert saved(game, 1, 0, token, seat_hand(["a-c-t"], went_out=True))["version"] == 2


def test_rounds_are_entered_in_order_seat_by_seat(new_game, refused):
    game = new_game()
    token = token_of(game, 0)
    round_2 = seat_hand(["qu-i-z"], ["m"])
    with game.unchanged():
        refused(
            put_seat(game, 2, 0, token, round_2),
            422,
            "round",
            "previous_round_not_started",
            number=2,
            previous=1,
        )
    saved(game, 1, 0, token, ANN)
    with game.unchanged():
        refused(
            put_seat(game, 2, 0, token, round_2),
            422,
            "round",
            "previous_round_open",
            number=2,
            previous=1,
        )
    seat_all(game, 1, ROUND_1)
    game.close(1)
    assert saved(game, 2, 0, token, round_2)["round"]["seats"][0]["entered"] is True


def test_challenge_and_close_wait_for_every_seat(new_game, refused):
    game = new_game()
    with game.unchanged():
        refused(game.challenge(1, "Ben", "Ann", 0, "legal"), 422, "round", "round_empty")
    saved(game, 1, 0, game.token, ANN)
    with game.unchanged():
        body = refused(
            game.challenge(1, "Ben", "Ann", 0, "legal"),
            422,
            "round",
            "round_waiting",
            number=1,
            waiting=["Ben", "Cy"],
        )
        assert body["error"] == "Round 1 is waiting for Ben and Cy to enter their hand."
        refused(game.post("/rounds/1/close"), 422, "round", "round_waiting", waiting=["Ben", "Cy"])
    saved(game, 1, 2, game.token, CY)
    with game.unchanged():
        body = refused(game.post("/rounds/1/close"), 422, "round", "round_waiting", waiting=["Ben"])
        assert body["error"] == "Round 1 is waiting for Ben to enter their hand."
        refused(game.challenge(1, "Ben", "Ann", 0, "legal"), 422, "round", "round_waiting")
    saved(game, 1, 1, game.token, BEN)
    assert game.challenged(1, "Ben", "Ann", 0, "legal")["ruling"]["n"] == 1
    assert game.close(1)["closed"] is True


def test_challenges_survive_a_reentry_that_keeps_their_word(new_game):
    game = new_game(rules={"zero_floor": False})
    cy = token_of(game, 2)
    ben = token_of(game, 1)
    seat_all(game, 1, ROUND_1)
    game.challenged(1, "Ann", "Cy", 0, "legal")  # Ann pays OX's 14: 13 - 14 = -1
    r = game.challenged(1, "Cy", "Ben", 0, "legal")  # Cy pays DOG's 13: 9 - 13 = -4
    assert scores(r) == [-1, 13, -4]

    r = saved(game, 1, 1, ben, BEN)["round"]  # the same hand again
    assert scores(r) == [-1, 13, -4]
    assert [c["n"] for c in r["result"]["challenges"]] == [1, 2]

    r = saved(game, 1, 2, cy, seat_hand(["o-x"], ["b"]))["round"]  # OX kept, B (8) left over
    assert scores(r) == [-1, 13, 14 - 8 - 13]
    assert [c["n"] for c in r["result"]["challenges"]] == [1, 2]

    answer = saved(game, 1, 2, cy, seat_hand(["m-o"], ["x"]))  # OX gone: its challenge too
    r = answer["round"]
    assert answer["version"] == 3
    assert [(c["n"], c["by"], c["text"]) for c in r["result"]["challenges"]] == [(2, "Cy", "dog")]
    assert scores(r) == [13, 13, 7 - 12 - 13]  # MO 5+2, X 12 left over, DOG's challenge paid
    assert game.round(1) == r
    # A new challenge takes the next number, never one used before.
    assert game.challenged(1, "Ben", "Cy", 0, "legal")["ruling"]["n"] == 3


def test_the_whole_round_put_still_works_and_sets_every_seats_version(new_game):
    names = ("Ann", "Ben", "Cy")
    game = new_game()
    token = token_of(game, 0)
    saved(game, 1, 0, token, ANN)
    saved(game, 1, 0, token, seat_hand(["a-c-t"], went_out=True))
    saved(game, 1, 1, game.token, BEN)
    assert versions(game.round(1)) == [2, 1, 0]

    r = game.enter(1, named(names, [ANN, BEN, CY]))  # Ann's hand back to CAT, Ben's as it was
    assert versions(r) == [3, 1, 1]
    assert scores(r) == [13, 13, 9]
    assert r["entered"] is True

    fresh = new_game()
    r = fresh.enter(1, named(names, ROUND_1))
    assert versions(r) == [1, 1, 1]
    # The seat saved after it uses its version like any other.
    assert (
        saved(fresh, 1, 2, fresh.token, seat_hand(["m-o"], ["x"]), if_match='"1"')["version"] == 2
    )


# --- a property: seat by seat in any order is the whole round ------------------------------

DECK = [c.name for c in CARDS for _ in range(c.copies)]
"""Every card of the real deck (118)."""


@st.composite
def dealt(draw: st.DrawFn) -> tuple[int, int, list[str], list[list[Hand]], list[int]]:
    """A table, a round number, the hands of that round and of every round before it
    (dealt from one shuffled deck, so no card is held more often than the deck has it),
    and an order in which the seats are saved."""
    players = draw(st.integers(2, 8))
    number = draw(st.integers(1, 3))
    deck = draw(st.permutations(DECK))
    rounds: list[list[Hand]] = []
    for n in range(1, number + 1):
        size = n + 2
        out = draw(st.one_of(st.none(), st.integers(0, players - 1)))
        hands = []
        for seat in range(players):
            cards = list(deck[seat * size : (seat + 1) * size])
            words = []
            while len(cards) >= 2 and draw(st.booleans()):
                length = draw(st.integers(2, len(cards)))
                words.append(cards[:length])
                cards = cards[length:]
            hands.append(seat_hand(words, cards, went_out=seat == out))
        rounds.append(hands)
    order = draw(st.permutations(range(players)))
    names = [f"P{i}" for i in range(players)]
    return players, number, names, rounds, list(order)


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(case=dealt())
def test_seats_saved_one_by_one_in_any_order_score_as_the_whole_round(
    new_game: Callable, case: tuple[int, int, list[str], list[list[Hand]], list[int]]
) -> None:
    players, number, names, rounds, order = case
    by_seat, whole = new_game(players=names), new_game(players=names)
    for n, hands in enumerate(rounds[:-1], start=1):  # the rounds before, closed
        for game in (by_seat, whole):
            game.enter(n, named(names, hands))
            game.close(n)
    hands = rounds[-1]
    tokens = {seat: token_of(by_seat, seat) for seat in range(players)}
    for k, seat in enumerate(order):
        r = saved(by_seat, number, seat, tokens[seat], hands[seat])["round"]
        done = k == len(order) - 1
        assert r["entered"] is done
        assert (r["result"] is None) is not done
        assert [s["entered"] for s in r["seats"]] == [s in order[: k + 1] for s in range(players)]
    expected = whole.enter(number, named(names, hands))
    got = by_seat.round(number)
    assert got["result"] == expected["result"]
    assert got["went_out"] == expected["went_out"]
    assert versions(got) == versions(expected) == [1] * players
