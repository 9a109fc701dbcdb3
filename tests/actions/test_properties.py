"""Properties of the actions, for any input Hypothesis finds, on the real database.

- The phones of a table saving their hands one by one, in any order, some in several
  saves together (the scorekeeper's form), some first saving a draft they change
  later: the round is the one the scorekeeper would have saved whole, at once.
- Any attempt at any write, bad or good, with any token: refused, it leaves every stored
  row as it was; accepted, it answers the state read back afterwards, and it moved the
  game's version by one exactly when it changed a row.

Each example makes games of its own in the test's database (games never touch each
other), so the function-scoped fixtures are shared by the examples on purpose.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from companion.actions import games, seats
from companion.game.deck import BY_NAME, CARDS, Card
from companion.game.errors import Refusal
from companion.game.play import Challenge, Hand, Play
from companion.game.rules import Rules
from companion.lexicon import LexiconStore
from tests.actions.support import ROUND_1, THREE, Act

NAMES = ("Ann", "Ben", "Cy", "Dee")
SPLITS = ((), (2,), (3,))
"""How a round-1 hand of three cards can be laid down: nothing, a word of two and a card
left over, a word of three."""

SHARED = settings(
    max_examples=12,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def within_deck(cards: Sequence[Card]) -> bool:
    return all(count <= card.copies for card, count in Counter(cards).items())


@st.composite
def round_ones(draw: st.DrawFn) -> tuple[Rules, tuple[Hand, ...]]:
    """House rules and a round 1 that could happen: 2 to 4 players, cards the deck has."""
    players = draw(st.integers(2, 4))
    dealt = draw(
        st.lists(st.sampled_from(CARDS), min_size=3 * players, max_size=3 * players).filter(
            within_deck
        )
    )
    out = draw(st.none() | st.integers(0, players - 1))
    hands = []
    for seat in range(players):
        mine = dealt[3 * seat : 3 * seat + 3]
        words, at = [], 0
        for length in draw(st.sampled_from(SPLITS)):
            words.append(tuple(mine[at : at + length]))
            at += length
        hands.append(Hand(NAMES[seat], tuple(words), tuple(mine[at:]), out == seat))
    rules = Rules(
        floor=draw(st.sampled_from(("round", "before_bonus", "total", "off"))),
        leftover_penalty=draw(st.booleans()),
        two_player_bonus=draw(st.sampled_from(("longest", "most", "both"))),
        false_out_penalty=draw(st.sampled_from((0, 5))),
    )
    return rules, tuple(hands)


def draft(hand: Hand) -> Hand:
    """What a phone saves before the player is done: the same cards, all left over."""
    cards = tuple(c for w in hand.words for c in w) + hand.unused
    return Hand(hand.name, (), cards, False)


@SHARED
@given(played=round_ones(), data=st.data())
def test_seat_saves_in_any_order_make_the_round_saved_whole(
    act: Act, lexicons: LexiconStore, played: tuple[Rules, tuple[Hand, ...]], data: st.DataObject
) -> None:
    rules, hands = played
    names = [h.name for h in hands]
    whole = act(games.create_game, lexicons, names, 0, rules)
    expected = act(games.save_round, lexicons, whole.state.id, whole.token, 1, Play(hands))
    game = act(games.create_game, lexicons, names, 0, rules)
    gid = game.state.id
    phones = [act(seats.claim_seat, gid, seat).token for seat in range(len(hands))]

    # Every seat's hand, in any order, a draft first for some; runs of different seats
    # sometimes saved together with the edit token, else each by its own phone.
    events = [(seat, True) for seat in data.draw(st.permutations(range(len(hands))))]
    drafted = data.draw(st.sets(st.sampled_from(range(len(hands)))))
    for seat in sorted(drafted):
        events.insert(data.draw(st.integers(0, events.index((seat, True)))), (seat, False))
    together = data.draw(st.lists(st.booleans(), min_size=len(events), max_size=len(events)))
    batches: list[dict[int, Hand]] = []
    for (seat, final), joined in zip(events, together, strict=True):
        if not batches or not joined or seat in batches[-1]:
            batches.append({})
        batches[-1][seat] = hands[seat] if final else draft(hands[seat])
    last, seen = None, set()
    for batch in batches:
        token = phones[next(iter(batch))] if len(batch) == 1 else game.token
        last = act(seats.save_seats, lexicons, gid, token, 1, batch)
        seen |= set(batch)
        assert last.round == act.read(gid).round(1)
        assert last.round.entered == (len(seen) == len(hands)), "scored once all are in"

    assert last is not None
    state, want = last.round, expected
    assert (state.play, state.result, state.race) == (want.play, want.result, want.race)
    assert state.version == len(batches)
    changed = [s in drafted and draft(h) != h for s, h in enumerate(hands)]
    assert [s.version for s in state.seats] == [1 + c for c in changed]
    assert [e[:4] for e in act.entries(gid, 1)] == [e[:4] for e in act.entries(whole.state.id, 1)]


FEW = tuple(BY_NAME[name] for name in ("z", "x", "o", "e", "qu"))
"""Few kinds of card, two of them with two copies only: hands that clash are common."""
TOKENS = ("edit", "ben", None, "junk", "other", "ben", "edit")
"""The tokens a request may hold: the edit token, Ben's seat secret, none, a made-up one,
another game's edit token. (Hypothesis favours the first and the last of a choice: a
good one is at both ends of each, so that the game moves on.)"""


@st.composite
def seat_hands(draw: st.DrawFn) -> Hand:
    """A hand of 2 to 4 cards (mostly 3, round 1's): maybe a word (of one card, too) and
    the rest left over."""
    size = draw(st.sampled_from((3, 4, 2, 3)))
    dealt = draw(st.lists(st.sampled_from(FEW), min_size=size, max_size=size))
    cut = draw(st.sampled_from((2, 0, 1, size, 2)))
    words = (tuple(dealt[:cut]),) if cut else ()
    return Hand("", words, tuple(dealt[cut:]), draw(st.sampled_from((False, True, False))))


numbers = st.sampled_from((1, 2, 9, 1))
tokens = st.sampled_from(TOKENS)
attempts = st.one_of(
    st.tuples(
        st.just("save_seats"),
        tokens,
        numbers,
        st.dictionaries(st.sampled_from((1, 0, 3, -1, 2)), seat_hands(), min_size=1, max_size=3),
        st.sampled_from((None, 0, 1, 2)),
    ),
    st.tuples(
        st.just("save_round"),
        tokens,
        numbers,
        st.lists(seat_hands(), min_size=3, max_size=3),
        st.permutations(THREE),
    ),
    st.tuples(st.just("close"), tokens, numbers),
    st.tuples(st.just("reopen"), tokens, numbers),
    st.tuples(
        st.just("challenge"),
        tokens,
        numbers,
        st.sampled_from(THREE),
        st.sampled_from(THREE),
        st.integers(0, 1),
        st.sampled_from((None, True, False)),
    ),
    st.tuples(st.just("withdraw"), tokens, numbers, st.integers(1, 3)),
    st.tuples(st.just("claim"), st.sampled_from((1, 0, 3, -1, 2)), tokens),
    st.tuples(st.just("release"), tokens, st.sampled_from((1, 0, 3, -1, 2))),
    st.tuples(
        st.just("house_word"), tokens, st.sampled_from(("ox", "q", "", "zax")), st.booleans()
    ),
)


@settings(SHARED, max_examples=20)
@given(
    start=st.sampled_from(("new", "entered", "challenged", "closed")),
    tried=st.lists(attempts, min_size=1, max_size=10),
)
def test_a_refused_write_changes_nothing_and_an_accepted_one_answers_what_it_stored(
    act: Act, lexicons: LexiconStore, start: str, tried: list[tuple[Any, ...]]
) -> None:
    """From a new game, one whose round 1 is in, challenged too, or closed: any writes,
    one after the other."""
    created = act(games.create_game, lexicons, list(THREE), 0, Rules())
    other = act(games.create_game, lexicons, list(THREE), 0, Rules())
    gid = created.state.id
    if start != "new":
        act(games.save_round, lexicons, gid, created.token, 1, ROUND_1)
    if start in ("challenged", "closed"):
        act(games.challenge, lexicons, gid, created.token, 1, Challenge("Ben", "Cy", 0))
    if start == "closed":
        act(games.set_closed, gid, created.token, 1, True)
    held = {
        "edit": created.token,
        "ben": act(seats.claim_seat, gid, 1).token,
        None: None,
        "junk": "junk",
        "other": other.token,
    }

    def run(kind: str, *args: Any) -> tuple[object, int | None]:
        """Try one write; what it answers, and the round it answers (None: the game)."""
        if kind == "save_seats":
            token, number, hands, version = args
            versions = {seat: version for seat in hands}
            saved = act(seats.save_seats, lexicons, gid, held[token], number, hands, versions)
            return saved.round, number
        if kind == "save_round":
            token, number, hands, order = args
            play = Play(tuple(replace(h, name=n) for h, n in zip(hands, order, strict=True)))
            return act(games.save_round, lexicons, gid, held[token], number, play), number
        if kind in ("close", "reopen"):
            token, number = args
            closed = kind == "close"
            return act(games.set_closed, gid, held[token], number, closed), number
        if kind == "challenge":
            token, number, by, player, word, ruling = args
            typed = Challenge(by, player, word, ruling)
            return act(games.challenge, lexicons, gid, held[token], number, typed).round, number
        if kind == "withdraw":
            token, number, n = args
            return act(games.withdraw, gid, held[token], number, n), number
        if kind == "claim":
            seat, token = args
            return act(seats.claim_seat, gid, seat, held[token]).game, None
        if kind == "release":
            token, seat = args
            return act(seats.release_seat, gid, held[token], seat), None
        token, word, allowed = args
        return act(games.set_house_word, gid, held[token], word, allowed), None

    version = act.read(gid).version
    for kind, *args in tried:
        before = act.rows()
        try:
            answered, number = run(kind, *args)
        except Refusal as refusal:
            event(f"{kind}: {refusal.code}")
            assert act.rows() == before, (kind, args)
            continue
        event(f"{kind}: done")
        stored = act.read(gid)
        assert answered == (stored if number is None else stored.round(number)), (kind, args)
        assert stored.version - version == (1 if act.rows() != before else 0), (kind, args)
        version = stored.version
