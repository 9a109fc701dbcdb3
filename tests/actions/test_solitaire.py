"""Solitaire Quiddler, action by action (``companion.actions.solitaire``), without HTTP:
start a game, make a step, undo it; each step a compare-and-set on the game's version.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from companion import store
from companion.actions import games
from companion.actions import solitaire as actions
from companion.game.deck import BY_NAME, Card
from companion.game.errors import Conflict, Forbidden, NotFound, RuleError
from companion.game.rules import MinWord
from companion.game.solitaire import Game, Pile, Step, new_practice, practice_deck
from companion.lexicon import LexiconStore
from tests.actions.support import Act, cards, token_hash

OPENING = "t o p a th e r s"
"""Piles 1-8 (0-7 here): T O P A TH E R S. TOP (0 1 2) and PA (2 3) are words, SR (7 6)
is not."""


def face_up(typed: str = OPENING) -> list[Card]:
    return [BY_NAME[name] for name in typed.split()]


def word(*piles: int) -> Step:
    return Step("word", piles)


def reveal(pile: int, name: str) -> Step:
    return Step("reveal", (pile,), BY_NAME[name])


Start = Callable[..., actions.Started]


def store_game(game_id: str) -> Game:
    """The solitaire game as stored, as game/ sees it."""
    return store.solitaire_game(store.get_solitaire(game_id))


@pytest.fixture
def start(act: Act, lexicons: LexiconStore) -> Start:
    """``start(face_up, min_word="cards", lexicon="standard")``."""

    def make(
        up: list[Card] | None = None, min_word: MinWord = "cards", lexicon: str = "standard"
    ) -> actions.Started:
        return act(actions.start, lexicons, up, min_word, lexicon)

    return make


def stored_practice(seed: int) -> actions.Started:
    """A practice game stored as ``start`` stores one whose seed drew ``seed`` (``start``
    draws its seed at random; a test needs a deal it knows)."""
    with store.transaction("solitaire_changed"):
        row, token = store.insert_solitaire(new_practice(seed), seed, "cards", "standard")
        started = actions.Started(row.id, token)
    return started


def test_start_stores_the_face_up_cards(act: Act, start: Start) -> None:
    started = start(face_up())
    assert len(started.token) == 32
    assert act.solitaire_row(started.id) == (
        token_hash(started.token),
        ["t", "o", "p", "a", "th", "e", "r", "s"],
        None,
        [],
        "cards",
        "standard",
        1,
    )


def test_practice_starts_from_a_stored_shuffled_deck(act: Act, start: Start) -> None:
    started = start(None, "letters", "wordgame")  # the seed drawn at random, kept to deal
    seed = act.solitaire_row(started.id)[2]  # the same deck again
    assert 0 <= seed < 2**31
    deck = practice_deck(seed)
    row = act.solitaire_row(started.id)
    assert row[1:] == ([deck[6 * i].name for i in range(8)], seed, [], "letters", "wordgame", 1)
    drawn = start(None)
    _, up, seed, *_ = act.solitaire_row(drawn.id)
    assert 0 <= seed < 2**31
    assert up == [practice_deck(seed)[6 * i].name for i in range(8)]


@pytest.mark.parametrize(
    ("up", "lexicon", "code", "where", "params"),
    [
        (face_up("t o p a th e r"), "standard", "solitaire_face_up", "face_up",
         {"piles": 8, "count": 7}),
        (face_up("z z z a th e r s"), "standard", "deck_copies", "face_up",
         {"card": "z", "copies": 2, "count": 3}),
        (face_up(), "klingon", "unknown_lexicon", "lexicon",
         {"name": "klingon", "names": ["standard", "wordgame", "common"]}),
    ],
)  # fmt: skip
def test_start_refusals_store_nothing(
    act: Act,
    start: Start,
    up: list[Card],
    lexicon: str,
    code: str,
    where: str,
    params: dict[str, object],
) -> None:
    with act.refused(RuleError, code, where, **params):
        start(up, lexicon=lexicon)
    assert act.rows()["solitaire"] == []


def test_a_word_then_the_cards_turned_up(act: Act, lexicons: LexiconStore, start: Start) -> None:
    started = start(face_up())
    gid, token = started.id, started.token
    done = act(actions.step, lexicons, gid, token, word(0, 1, 2), 1)
    assert done.version == 2
    assert done.game == Game(tuple(face_up()), (word(0, 1, 2),))
    assert done.game == act(store_game, gid)
    assert done.table.words == (cards("top"),)
    assert (done.table.used, done.table.to_reveal, done.table.waiting) == (3, (0, 1, 2), True)
    assert done.table.piles[:4] == (Pile(None, 5),) * 3 + (Pile(BY_NAME["a"], 5),)
    assert act.solitaire_row(gid)[3:] == ([{"kind": "word", "piles": [0, 1, 2]}], "cards",
                                          "standard", 2)  # fmt: skip

    done = act(actions.step, lexicons, gid, token, reveal(0, "x"), 2)
    assert (done.version, done.table.to_reveal) == (3, (1, 2))
    assert done.table.piles[0] == Pile(BY_NAME["x"], 4)
    assert act.solitaire_row(gid)[3] == [
        {"kind": "word", "piles": [0, 1, 2]},
        {"kind": "reveal", "piles": [0], "card": "x"},
    ]
    done = act(actions.step, lexicons, gid, token, reveal(1, "o"), None)  # no version: no check
    assert done.version == 4


def test_practice_turns_the_next_cards_up_by_itself(
    act: Act, lexicons: LexiconStore, start: Start
) -> None:
    deck = practice_deck(7)
    started = act(stored_practice, 7)
    # This deal's piles 0, 3 and 1 show O, W and E: OWE. Their next cards turn up.
    assert [deck[6 * p].name for p in (0, 3, 1)] == ["o", "w", "e"]
    done = act(actions.step, lexicons, started.id, started.token, word(0, 3, 1), 1)
    assert done.game.steps == (
        word(0, 3, 1),
        Step("reveal", (0,), deck[1]),
        Step("reveal", (1,), deck[7]),
        Step("reveal", (3,), deck[19]),
    )
    assert done.game == act(store_game, started.id)
    assert (done.table.to_reveal, done.version) == ((), 2)
    undone = act(actions.undo, started.id, started.token, 2)
    assert (undone.game.steps, undone.table.used, undone.version) == ((), 0, 3)
    assert act.solitaire_row(started.id)[3] == []


STEP_REFUSALS = [
    (word(7, 6), "solitaire_not_a_word", "piles", {"word": "sr", "reason": "abbreviation"}),
    (word(0, 0), "solitaire_pile_twice", "piles", {}),
    (word(3), "word_one_card", "piles", {"card": "a", "double": False}),
    (word(), "solitaire_no_piles", "piles", {}),
    (word(0, 8), "solitaire_no_such_pile", "piles", {"piles": 8}),
    (reveal(3, "e"), "solitaire_nothing_to_reveal", "piles", {"pile": 4}),
    (Step("reveal", (3,)), "solitaire_reveal_what", "card", {}),
    (Step("refill", (0, 1)), "solitaire_not_empty", "piles", {"pile": 1}),
    (Step("refill", (0,)), "solitaire_refill_what", "piles", {}),
    (Step("jump", (0,)), "solitaire_step_kind", "kind", {}),
]


@pytest.mark.parametrize(("made", "code", "where", "params"), STEP_REFUSALS)
def test_a_step_against_the_rules_changes_nothing(
    act: Act,
    lexicons: LexiconStore,
    start: Start,
    made: Step,
    code: str,
    where: str,
    params: dict[str, object],
) -> None:
    started = start(face_up())
    with act.refused(RuleError, code, where, **params):
        act(actions.step, lexicons, started.id, started.token, made, 1)


def test_a_step_while_cards_wait_to_be_turned_up_is_refused(
    act: Act, lexicons: LexiconStore, start: Start
) -> None:
    started = start(face_up("z z p a th e r s"))
    gid, token = started.id, started.token
    act(actions.step, lexicons, gid, token, word(2, 3), 1)  # PA
    with act.refused(RuleError, "solitaire_reveal_first", "piles", piles=[3, 4]):
        act(actions.step, lexicons, gid, token, word(0, 4), 2)
    with act.refused(RuleError, "deck_copies", "card", card="z", copies=2, count=3):
        act(actions.step, lexicons, gid, token, reveal(2, "z"), 2)


def test_undo_takes_back_the_last_step(act: Act, lexicons: LexiconStore, start: Start) -> None:
    started = start(face_up())
    gid, token = started.id, started.token
    with act.refused(RuleError, "solitaire_nothing_to_undo"):
        act(actions.undo, gid, token, 1)
    act(actions.step, lexicons, gid, token, word(0, 1, 2), 1)
    act(actions.step, lexicons, gid, token, reveal(0, "x"), 2)
    undone = act(actions.undo, gid, token, 3)
    assert (undone.game.steps, undone.table.to_reveal, undone.version) == (
        (word(0, 1, 2),),
        (0, 1, 2),
        4,
    )
    assert act.solitaire_row(gid)[3] == [{"kind": "word", "piles": [0, 1, 2]}]
    undone = act(actions.undo, gid, token, 4)
    assert (undone.game.steps, undone.table.used, undone.version) == ((), 0, 5)
    assert act.solitaire_row(gid)[3:] == ([], "cards", "standard", 5)


def test_a_step_from_a_stale_page_is_a_conflict(
    act: Act, lexicons: LexiconStore, start: Start
) -> None:
    started = start(face_up())
    gid, token = started.id, started.token
    act(actions.step, lexicons, gid, token, word(0, 1, 2), 1)
    with act.refused(Conflict, "solitaire_changed"):
        act(actions.step, lexicons, gid, token, reveal(0, "x"), 1)
    with act.refused(Conflict, "solitaire_changed"):
        act(actions.undo, gid, token, 1)


def test_only_the_edit_token_plays(
    act: Act, lexicons: LexiconStore, new_game: Callable[..., games.Created], start: Start
) -> None:
    """A watcher (no token), another solitaire game's token, a table game's token: refused;
    an unknown game is not found."""
    started, other = start(face_up()), start(face_up())
    table = new_game().token
    gid, token = started.id, started.token
    for held in (None, "", "junk", other.token, table, token[:-1]):
        with act.refused(Forbidden, "edit_link_needed"):
            act(actions.step, lexicons, gid, held, word(0, 1, 2), 1)
        with act.refused(Forbidden, "edit_link_needed"):
            act(actions.undo, gid, held, 1)
    with act.refused(NotFound, "no_such_solitaire"):
        act(actions.step, lexicons, "no-such-game", token, word(0, 1, 2), None)
    with act.refused(NotFound, "no_such_solitaire"):
        act(actions.undo, "no-such-game", token, None)
