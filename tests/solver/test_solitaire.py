"""Solitaire Quiddler, step by step: a whole game to a win, empty piles, a loss, undo, refusals."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import permutations

import pytest

from companion.game.challenges import Verdict
from companion.game.deck import BY_NAME, Card
from companion.game.errors import RuleError
from companion.game.solitaire import (
    IN_PLAY,
    Game,
    Pile,
    Step,
    Table,
    apply,
    deal,
    new_practice,
    practice_deck,
)
from companion.game.solver import best_play, build_index

STRICT_WORDS = ("quiz", "jab", "box", "the", "at", "to", "top", "pot", "wave", "in")


def anything(_word: str) -> Verdict:
    """A judge for the mechanics: every word is legal."""
    return Verdict(True, "in_dictionary")


def strict(word: str) -> Verdict:
    """A judge that knows only STRICT_WORDS."""
    if word in STRICT_WORDS:
        return Verdict(True, "in_dictionary")
    return Verdict(False, "not_in_dictionary")


@contextmanager
def refusal(code: str, where: str | None = None, **params: object) -> Iterator[None]:
    """The block raises a RuleError with ``code`` (at ``where``, if given) and these params."""
    with pytest.raises(RuleError) as caught:
        yield
    error = caught.value
    assert error.code == code, error
    if where is not None:
        assert error.where == where, error
    for key, value in params.items():
        assert error.params[key] == value, (key, error)


def hand(names: str) -> list[Card]:
    return [BY_NAME[n] for n in names.split()]


def word(*piles: int) -> Step:
    return Step("word", piles)


def reveal(pile: int, name: str) -> Step:
    return Step("reveal", (pile,), BY_NAME[name])


def refill(empty: int, source: int) -> Step:
    return Step("refill", (empty, source))


class Cards:
    """The physical cards of a solitaire deal: pile ``i`` holds ``deck[6i:6i+6]``, face-up
    card first, so the player can say which card each pile turns up."""

    def __init__(self, seed: int) -> None:
        deck = practice_deck(seed)
        self.deck = deck
        self.face_up = tuple(deck[6 * i] for i in range(8))
        self.under = [list(deck[6 * i + 1 : 6 * i + 6]) for i in range(8)]

    def turn_up(self, pile: int) -> Step:
        return Step("reveal", (pile,), self.under[pile].pop(0))


def physical_reveals(game: Game, cards: Cards) -> Game:
    """Enter every card the table asks to turn up."""
    while to_reveal := game.replay().to_reveal:
        game = game.play(cards.turn_up(to_reveal[0]), anything)
    return game


def next_move(table: Table) -> Step:
    """Refill an empty pile when asked, else a two-card word from the first face-up piles."""
    if table.refill_from:
        return refill(table.empty[0], table.refill_from[0])
    up = [i for i, p in enumerate(table.piles) if p.up is not None]
    assert len(up) >= 2, f"stuck with one face-up card: {table}"
    return word(up[0], up[1])


# --- a whole game -----------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 2024])
def test_a_practice_game_played_to_a_win(seed: int) -> None:
    """Two-card words until all 48 cards are used; the companion turns up the cards."""
    game = new_practice(seed)
    table = game.replay()
    assert table.used == 0 and not table.won
    assert [p.down for p in table.piles] == [5] * 8
    used = []
    refills = 0
    while not table.won:
        step = next_move(table)
        game = game.play(step, anything)
        table = game.replay()
        assert not table.to_reveal, "practice mode turns up the cards itself"
        if step.kind == "word":
            used.append(table.used)
            assert table.won == (table.used == IN_PLAY)
        else:
            refills += 1
            assert table.used == used[-1], "a refill uses no card"
    assert used == list(range(2, IN_PLAY + 1, 2))
    assert refills > 0, "the empty-pile rule came up on the way"
    assert table.won and table.used == 48
    assert all(p.empty for p in table.piles)
    assert Counter(c for w in table.words for c in w) == Counter(practice_deck(seed))
    assert len(table.words) == 24


def test_a_game_with_physical_cards_played_to_a_win() -> None:
    """The same deal entered card by card ends exactly like the practice game."""
    cards = Cards(7)
    game = Game(cards.face_up)
    table = game.replay()
    while not table.won:
        step = next_move(table)
        game = physical_reveals(game.play(step, anything), cards)
        table = game.replay()
    assert table.used == 48
    assert all(not left for left in cards.under), "every card was turned up"
    practice = new_practice(7)
    while not (done := practice.replay()).won:
        practice = practice.play(next_move(done), anything)
    assert done == table
    assert [s for s in game.steps if s.kind != "reveal"] == [
        s for s in practice.steps if s.kind != "reveal"
    ]


# --- the empty-pile rule ----------------------------------------------------------------------


def empty_the_first_pile(cards: Cards) -> Game:
    """Six words, each with pile 1 and one of piles 2 to 7: pile 1 ends empty."""
    game = Game(cards.face_up)
    for other in range(1, 7):
        game = physical_reveals(game.play(word(0, other), anything), cards)
    return game


def test_an_empty_pile_must_be_started_again_before_the_next_word() -> None:
    cards = Cards(3)
    game = empty_the_first_pile(cards)
    table = game.replay()
    assert table.used == 12
    assert table.piles[0] == Pile(None, 0) and table.piles[0].empty
    assert table.empty == (0,)
    assert table.to_reveal == ()
    can_give = tuple(i for i, p in enumerate(table.piles) if p.up is not None and p.down > 0)
    assert table.refill_from == can_give and len(can_give) >= 1
    assert table.waiting

    with refusal("solitaire_refill_first", "piles", piles=[1]):  # pile 1 is empty
        game.play(word(1, 2), anything)

    source = table.refill_from[-1]
    moved = table.piles[source].up
    game = game.play(refill(0, source), anything)
    table = game.replay()
    assert table.piles[0] == Pile(moved, 0), "the source's face-up card starts the empty pile"
    assert table.piles[source].up is None
    assert table.to_reveal == (source,), "the source pile turns up its next card"
    assert table.used == 12
    with refusal("solitaire_reveal_first", piles=[source + 1]):
        game.play(word(0, 1), anything)

    game = game.play(cards.turn_up(source), anything)
    table = game.replay()
    assert not table.waiting
    game = game.play(word(0, source), anything)
    assert game.replay().used == 14


def test_a_refill_must_name_an_empty_pile_and_a_pile_with_cards_under_it() -> None:
    cards = Cards(3)
    game = empty_the_first_pile(cards)
    table = game.replay()
    source = table.refill_from[0]
    with refusal("solitaire_not_empty", pile=source + 1):
        game.play(refill(source, 0), anything)
    with refusal("solitaire_cannot_give", pile=1):
        game.play(refill(0, 0), anything)
    with refusal("solitaire_refill_what"):
        game.play(Step("refill", (0,)), anything)
    no_cards_under = Table((Pile(None, 0), Pile(BY_NAME["a"], 0), *[Pile(BY_NAME["t"], 2)] * 6))
    with refusal("solitaire_cannot_give", pile=2):
        apply(no_cards_under, refill(0, 1), anything)


def test_refill_in_practice_turns_up_the_source_and_undo_takes_both_back() -> None:
    game = new_practice(5)
    for other in range(1, 7):
        game = game.play(word(0, other), anything)
    table = game.replay()
    assert table.empty == (0,) and table.refill_from
    source = table.refill_from[0]
    down = table.piles[source].down
    refilled = game.play(refill(0, source), anything)
    after = refilled.replay()
    assert after.piles[0] == Pile(table.piles[source].up, 0)
    assert after.piles[source] == Pile(practice_deck(5)[6 * source + 6 - down], down - 1)
    assert not after.waiting
    assert refilled.undo() == game


def test_with_no_pile_to_give_words_go_on_around_the_empty_pile() -> None:
    """At the end of a game nothing can refill an empty pile: the rule waits for nobody."""
    late = Table(
        (Pile(None, 0), Pile(BY_NAME["a"], 0), Pile(BY_NAME["t"], 0), *[Pile(None, 0)] * 5)
    )
    assert late.empty == (0, 3, 4, 5, 6, 7)
    assert late.refill_from == () and not late.waiting
    after = apply(late, word(1, 2), strict)
    assert after.words[-1] == tuple(hand("a t"))
    with refusal("solitaire_pile_down", "piles", pile=1):
        apply(late, word(0, 1), anything)


# --- a loss -----------------------------------------------------------------------------------


def test_face_up_cards_that_make_no_word_lose_the_game() -> None:
    table = deal(hand("q x z j v w k b"))
    play = best_play(table.face_up, build_index(STRICT_WORDS))
    assert play.words == (), "the solver finds no word: the page shows the game lost"
    for size in range(2, 6):  # every word of up to five piles, in every order
        for piles in permutations(range(8), size):
            with refusal("solitaire_not_a_word", reason="not_in_dictionary"):
                apply(table, word(*piles), strict)


def test_face_up_cards_with_a_word_are_not_lost() -> None:
    table = deal(hand("q x z j v w a t"))
    play = best_play(table.face_up, build_index(STRICT_WORDS))
    assert [w for w in play.words] == [tuple(hand("a t"))]
    assert apply(table, word(6, 7), strict).used == 2


# --- undo -------------------------------------------------------------------------------------


def test_undo_with_physical_cards_takes_back_one_step_at_a_time() -> None:
    opening = Game(tuple(hand("t o p a th e r s")))
    with_word = opening.play(word(0, 1, 2), strict)
    assert with_word.replay().used == 3
    with_reveal = with_word.play(reveal(0, "x"), strict)
    assert with_reveal.replay().piles[0] == Pile(BY_NAME["x"], 4)

    back = with_reveal.undo()
    assert back == with_word
    assert back.replay() == with_word.replay()
    assert back.replay().to_reveal == (0, 1, 2)
    assert back.undo() == opening
    assert back.undo().replay() == deal(opening.face_up)


def test_undo_in_practice_takes_back_the_word_and_its_automatic_reveals() -> None:
    opening = new_practice(11)
    played = opening.play(word(0, 1), anything)
    assert [s.kind for s in played.steps] == ["word", "reveal", "reveal"]
    assert played.undo() == opening
    assert played.undo().replay() == opening.replay()
    twice = played.play(word(2, 3), anything)
    assert twice.undo() == played


def test_undo_with_nothing_done_is_refused() -> None:
    for game in (Game(tuple(hand("t o p a th e r s"))), new_practice(1)):
        with refusal("solitaire_nothing_to_undo"):
            game.undo()


def test_a_word_stays_made_when_the_dictionary_changes_later() -> None:
    game = Game(tuple(hand("z x p a th e r s"))).play(word(0, 1), anything)
    assert game.replay().used == 2


# --- refusals ---------------------------------------------------------------------------------


def test_a_word_with_a_card_still_face_down_is_refused() -> None:
    """After TOP the three piles show no card until the player turns one up."""
    game = Game(tuple(hand("t o p a th e r s"))).play(word(0, 1, 2), strict)
    with refusal("solitaire_reveal_first", "piles", piles=[1, 2, 3]):
        game.play(word(0, 3), anything)


def test_the_same_pile_twice_is_refused() -> None:
    table = deal(hand("t o p a th e r s"))
    with refusal("solitaire_pile_twice", "piles"):
        apply(table, word(1, 1), anything)


def test_a_word_needs_two_cards_or_with_the_house_rule_two_letters() -> None:
    table = deal(hand("in o p a th e r s"))
    with refusal("word_one_card", "piles", card="in", double=True):
        apply(table, word(0), strict)
    assert apply(table, word(0), strict, "letters").words == (tuple(hand("in")),)
    with refusal("word_one_letter", "piles", card="o"):
        apply(table, word(1), anything, "letters")
    with refusal("solitaire_no_piles", "piles"):
        apply(table, word(), anything)


def test_a_pile_that_does_not_exist_is_refused() -> None:
    table = deal(hand("t o p a th e r s"))
    for pile in (8, -1):
        with refusal("solitaire_no_such_pile", "piles", piles=8):
            apply(table, word(0, pile), anything)


def test_an_illegal_word_is_refused_with_the_reason() -> None:
    table = deal(hand("t o p a th e r s"))
    with refusal("solitaire_not_a_word", "piles", word="pots", reason="not_in_dictionary"):
        apply(table, word(2, 1, 0, 7), strict)
    assert apply(table, word(2, 1, 0), strict).used == 3


def test_a_reveal_for_a_pile_with_nothing_to_turn_up_is_refused() -> None:
    game = Game(tuple(hand("t o p a th e r s")))
    with refusal("solitaire_nothing_to_reveal", pile=4):
        game.play(reveal(3, "e"), anything)
    with refusal("solitaire_reveal_what"):
        game.play(word(0, 1), anything).play(Step("reveal", (0,)), anything)


def test_a_reveal_beyond_the_copies_in_the_deck_is_refused() -> None:
    game = Game(tuple(hand("z z a t e o n s"))).play(word(0, 2), anything)
    with refusal("deck_copies", "card", card="z", copies=2, count=3):
        game.play(reveal(0, "z"), anything)
    assert game.play(reveal(0, "x"), anything).replay().piles[0].up == BY_NAME["x"]


def test_a_deal_needs_eight_cards_the_deck_can_hold() -> None:
    with refusal("solitaire_face_up", "face_up", piles=8, count=7):
        deal(hand("t o p a th e r"))
    with refusal("deck_copies", card="z", copies=2, count=3):
        deal(hand("z z z a th e r s"))
    opening = deal(hand("t o p a th e r s"))
    assert [p.up for p in opening.piles] == hand("t o p a th e r s")
    assert [p.down for p in opening.piles] == [5] * 8
    assert opening.used == 0 and not opening.waiting


def test_a_practice_deal_is_forty_eight_cards_of_the_real_deck() -> None:
    deck = practice_deck(9)
    assert len(deck) == IN_PLAY
    assert all(n <= c.copies for c, n in Counter(deck).items())
    assert practice_deck(9) == deck, "a stored seed deals the same cards again"
    assert new_practice(9).face_up == tuple(deck[6 * i] for i in range(8))
