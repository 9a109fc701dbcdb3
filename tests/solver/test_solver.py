"""Best play: the solver against an independent brute force, and hands with known answers.

The brute force tries every set partition of the hand: each block is either a word
(its cards are some card spelling of a listed word) or unused cards. It shares no code
with the solver except ``spellings``, which says how a word can be laid down as cards.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.game.deck import BY_NAME, CARDS, Card, text, value
from companion.game.errors import RuleError
from companion.game.solver import best_play, build_index, key_of, spelling_keys
from companion.game.spelling import spellings

FULL_DECK = tuple(c for c in CARDS for _ in range(c.copies))
SETTINGS = settings(max_examples=175, deadline=None)

WORDS = (
    "a i at an in it is on no to do so er th ox ax "
    "quit quiz quin quote the thin then this that than inn her hers here herd "
    "clip clap cling inert inter tin tine ten net tent test set sit its tie tea eat "
    "ate see seen sin sine rest rent tern term ram arm ear era rat tar art oat toe "
    "note tone one zax jot"
).split()
INDEX = build_index(WORDS)


def hand(names: str) -> list[Card]:
    """``"qu i z"`` as cards."""
    return [BY_NAME[n] for n in names.split()]


def names(cards) -> list[str]:
    return [c.name for c in cards]


# --- the brute force -------------------------------------------------------------------


@cache
def word_shapes(min_word: str) -> frozenset[tuple[str, ...]]:
    """Every card multiset (sorted card names) that is a word of WORDS under ``min_word``."""
    shapes = set()
    for word in WORDS:
        for spelling in spellings(word):
            letters = sum(c.letters for c in spelling)
            least = 1 if min_word == "one_card" else 2  # Junior: A and I
            if letters >= least and (min_word != "cards" or len(spelling) >= 2):
                shapes.add(tuple(sorted(c.name for c in spelling)))
    return frozenset(shapes)


def partitions(items: list[Card]):
    """Every set partition of ``items`` (by position, so copies are told apart)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for part in partitions(rest):
        yield [[first], *part]
        for i in range(len(part)):
            yield [*part[:i], [first, *part[i]], *part[i + 1 :]]


def brute_points(cards: list[Card], min_word: str = "cards") -> int:
    """The best points of ``cards``: each block of a partition scores +value as a word,
    -value otherwise (unused cards)."""
    shapes = word_shapes(min_word)
    best = None
    for part in partitions(list(cards)):
        points = sum(
            value(b) if tuple(sorted(c.name for c in b)) in shapes else -value(b) for b in part
        )
        best = points if best is None else max(best, points)
    assert best is not None
    return best


def test_the_brute_force_itself_on_the_rule_book_example() -> None:
    """quiz as QU·I·Z with M unused is 25 - 5 = 20 (the seeds' worked example)."""
    assert brute_points(hand("qu i z m")) == 20
    assert brute_points(hand("x z")) == -26
    assert brute_points([]) == 0


# --- random hands -------------------------------------------------------------------------


@st.composite
def hands(draw, low: int, high: int) -> list[Card]:
    """A hand of ``low..high`` cards from one shuffled real deck (copies respected).

    Some listed words are laid into the hand first, so most hands hold words.
    """
    size = draw(st.integers(low, high))
    rnd = random.Random(draw(st.integers(0, 2**32 - 1)))
    deck = list(FULL_DECK)
    rnd.shuffle(deck)
    cards: list[Card] = []
    for _ in range(draw(st.integers(0, 3))):
        spelling = draw(st.sampled_from(spellings(draw(st.sampled_from(WORDS)))))
        left = Counter(deck)
        if len(cards) + len(spelling) > size or Counter(spelling) - left:
            continue  # too long, or the deck has no copy left of one of its cards
        for c in spelling:
            deck.remove(c)
        cards.extend(spelling)
    cards.extend(deck[: size - len(cards)])
    rnd.shuffle(cards)
    return cards


def check_play(cards: list[Card], play, min_word: str) -> None:
    """The play is a real arrangement of ``cards`` and its points add up."""
    for word in play.words:
        assert text(word) in WORDS, f"{names(word)} is not a listed word"
        assert word in spellings(text(word)), f"{names(word)} is not a card spelling"
        assert sum(c.letters for c in word) >= (1 if min_word == "one_card" else 2)
        if min_word == "cards":
            assert len(word) >= 2
    laid = Counter(c for w in play.words for c in w) + Counter(play.unused)
    assert laid == Counter(cards), "words and unused cards must be exactly the hand"
    assert play.points == sum(value(w) for w in play.words) - value(play.unused)
    assert play.goes_out == (not play.unused)


@SETTINGS
@given(cards=hands(1, 7), min_word=st.sampled_from(["cards", "letters", "one_card"]))
def test_best_points_equal_the_brute_force(cards: list[Card], min_word: str) -> None:
    play = best_play(cards, INDEX, min_word)
    assert play.discard is None
    check_play(cards, play, min_word)
    assert play.points == brute_points(cards, min_word)


@SETTINGS
@given(cards=hands(2, 8), min_word=st.sampled_from(["cards", "letters", "one_card"]))
def test_discard_picks_the_card_whose_absence_scores_most(cards: list[Card], min_word: str) -> None:
    play = best_play(cards, INDEX, min_word, discard=True)
    assert play.discard in cards
    rest = list(cards)
    rest.remove(play.discard)
    check_play(rest, play, min_word)
    best = max(brute_points(cards[:i] + cards[i + 1 :], min_word) for i in range(len(cards)))
    assert play.points == best


@SETTINGS
@given(cards=hands(2, 8), min_word=st.sampled_from(["cards", "letters", "one_card"]))
def test_discard_leaves_a_real_arrangement_of_the_rest(cards: list[Card], min_word: str) -> None:
    """Whatever card it throws away, the rest of the hand is laid out exactly once."""
    play = best_play(cards, INDEX, min_word, discard=True)
    assert play.discard in cards
    rest = list(cards)
    rest.remove(play.discard)
    check_play(rest, play, min_word)
    assert play.points == brute_points(rest, min_word), "best play of the hand kept"


# --- hands with known answers ---------------------------------------------------------------


def test_quiz_and_an_unused_m_is_twenty() -> None:
    play = best_play(hand("qu i z m"), build_index(["quiz"]))
    assert [names(w) for w in play.words] == [["qu", "i", "z"]]
    assert names(play.unused) == ["m"]
    assert play.points == 20
    assert play.goes_out is False
    assert play.as_dict() == {
        "words": [["qu", "i", "z"]],
        "unused": ["m"],
        "discard": None,
        "points": 20,
        "goes_out": False,
    }


def test_the_is_found_with_single_letter_cards_or_with_th() -> None:
    """Both card spellings of a word are indexed: T·H·E (12) and TH·E (11)."""
    index = build_index(["the"])
    assert index == {key_of(hand("t h e")): "the", key_of(hand("th e")): "the"}
    single = best_play(hand("t h e"), index)
    assert [names(w) for w in single.words] == [["t", "h", "e"]]
    assert (single.points, single.goes_out) == (12, True)
    double = best_play(hand("e th"), index)
    assert [names(w) for w in double.words] == [["th", "e"]]  # in the order that spells it
    assert (double.points, double.goes_out) == (11, True)


def test_a_double_letter_card_is_one_card_and_never_split() -> None:
    """TH can't stand for the T of "ten": with TH, E, N only "the" fits (11 - 5 = 6)."""
    play = best_play(hand("th e n"), build_index(["ten", "hen", "the"]))
    assert [names(w) for w in play.words] == [["th", "e"]]
    assert names(play.unused) == ["n"]
    assert play.points == 6


def test_double_letter_cards_make_a_word_together() -> None:
    """thin from TH·IN uses both cards (16); QU·I·T is quit with the QU card (14)."""
    play = best_play(hand("in th"), build_index(["thin"]))
    assert [names(w) for w in play.words] == [["th", "in"]]
    assert (play.points, play.goes_out) == (16, True)
    play = best_play(hand("t qu i"), build_index(["quit"]))
    assert [names(w) for w in play.words] == [["qu", "i", "t"]]
    assert play.points == 14


def test_q_and_u_as_two_cards_score_more_than_qu() -> None:
    play = best_play(hand("q u i z"), build_index(["quiz"]))
    assert [names(w) for w in play.words] == [["q", "u", "i", "z"]]
    assert play.points == 35


def test_a_lone_double_letter_card_is_a_word_only_with_the_two_letter_rule() -> None:
    index = build_index(["in", "er"])
    cards_rule = best_play(hand("in er"), index)
    assert cards_rule.words == ()
    assert (cards_rule.points, cards_rule.goes_out) == (-14, False)
    letters_rule = best_play(hand("in er"), index, "letters")
    assert sorted(names(w) for w in letters_rule.words) == [["er"], ["in"]]
    assert (letters_rule.points, letters_rule.goes_out) == (14, True)


def test_a_single_letter_is_never_a_word() -> None:
    """Even with the two-letter rule, A alone is one letter: "a" doesn't count."""
    play = best_play(hand("a i"), build_index(["a", "i"]), "letters")
    assert play.words == ()
    assert play.points == -4


def test_a_tie_in_points_goes_to_more_cards_used() -> None:
    """DO (7) or TOE (7) from D, O, T, E: both 2 points; TOE uses three cards."""
    play = best_play(hand("d o t e"), build_index(["do", "toe"]))
    assert [text(w) for w in play.words] == ["toe"]
    assert names(play.unused) == ["d"]
    assert play.points == 2


def test_a_tie_in_points_and_cards_goes_to_more_words() -> None:
    """ANTI or AN + IT: all four cards, 12 points either way; two words win the tie."""
    play = best_play(hand("a n t i"), build_index(["anti", "an", "it"]))
    assert sorted(text(w) for w in play.words) == ["an", "it"]
    assert play.points == 12


def test_a_tie_in_points_cards_and_words_goes_to_the_longest_word() -> None:
    """ATE + SON or AT + NOSE: the same six cards in two words; NOSE is the longer word."""
    play = best_play(hand("a t e n o s"), build_index(["ate", "son", "at", "nose"]))
    assert sorted(text(w) for w in play.words) == ["at", "nose"]
    assert (play.points, play.goes_out) == (17, True)


def test_the_discard_is_the_card_that_lets_the_hand_go_out() -> None:
    play = best_play(hand("q u i z x"), build_index(["quiz"]), discard=True)
    assert play.discard == BY_NAME["x"]
    assert [names(w) for w in play.words] == [["q", "u", "i", "z"]]
    assert play.unused == ()
    assert (play.points, play.goes_out) == (35, True)
    assert play.as_dict()["discard"] == "x"


def test_with_no_word_the_discard_is_the_most_expensive_card() -> None:
    play = best_play(hand("x a"), build_index(["quiz"]), discard=True)
    assert play.discard == BY_NAME["x"]
    assert names(play.unused) == ["a"]
    assert play.points == -2


def test_the_discard_weighs_points_not_value_in_words() -> None:
    play = best_play(hand("z e o d t"), build_index(["zo", "dote"]), discard=True)
    assert play.discard == BY_NAME["z"]
    assert [text(w) for w in play.words] == ["dote"]
    assert (play.points, play.goes_out) == (12, True)


def test_no_word_leaves_every_card_unused() -> None:
    play = best_play(hand("x z"), build_index(["quiz"]))
    assert play.words == ()
    assert names(play.unused) == ["x", "z"]
    assert (play.points, play.goes_out) == (-26, False)


def test_an_empty_hand_scores_nothing() -> None:
    play = best_play([], build_index(["quiz"]))
    assert (play.words, play.unused, play.discard, play.points) == ((), (), None, 0)


def test_an_empty_word_list_leaves_every_card_unused() -> None:
    play = best_play(hand("q u i z"), {})
    assert play.words == ()
    assert play.points == -35


def test_words_the_deck_cannot_hold_are_not_indexed_and_the_first_word_is_kept() -> None:
    """A third Z can't be dealt; of act/cat (the same cards) the first one given is shown."""
    assert build_index(["pizzazz"]) == {}
    assert build_index(["act", "cat"]) == {key_of(hand("a c t")): "act"}
    play = best_play(hand("t a c"), build_index(["act", "cat"]))
    assert [names(w) for w in play.words] == [["a", "c", "t"]]


def test_twelve_cards_are_refused() -> None:
    with pytest.raises(RuleError) as caught:
        best_play(hand("a b c d e f g h i j k l"), INDEX)
    assert caught.value.where == "cards"
    assert caught.value.code == "hand_too_big"
    assert (caught.value.params["count"], caught.value.params["most"]) == (12, 11)


def test_eleven_cards_are_solved() -> None:
    play = best_play(hand("a b c d e f g h i j k"), INDEX, discard=True)
    assert play.discard is not None
    assert sum(len(w) for w in play.words) + len(play.unused) == 10


def test_more_copies_than_the_deck_holds_are_refused() -> None:
    with pytest.raises(RuleError) as caught:
        best_play(hand("z z z"), INDEX)
    assert caught.value.where == "cards"
    assert caught.value.code == "deck_copies"
    assert (caught.value.params["card"], caught.value.params["copies"]) == ("z", 2)


def test_a_discard_from_no_cards_is_refused() -> None:
    with pytest.raises(RuleError) as caught:
        best_play([], INDEX, discard=True)
    assert caught.value.code == "nothing_to_discard"


TRICKY = (
    "quiz thin thither inertia interinter queer clerk thinner erer ererer thth ththth "
    "inininin quququ clclcl cliquer pizzazz razzmatazz zzz xxx jazz aa inn err qu in er th"
).split()


@pytest.mark.parametrize("word", TRICKY + WORDS[:20])
def test_the_index_keys_of_a_word_are_those_of_its_spellings(word: str) -> None:
    """``build_index`` works the keys out on codes alone; ``spellings`` says what they are."""
    assert spelling_keys(word) == {key_of(s) for s in spellings(word)}


@given(st.text(alphabet="aeinrtchlqu", min_size=1, max_size=12))
@SETTINGS
def test_the_index_keys_of_any_letters_are_those_of_their_spellings(letters: str) -> None:
    assert spelling_keys(letters) == {key_of(s) for s in spellings(letters)}
