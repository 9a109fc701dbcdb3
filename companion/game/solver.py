"""Best play: the arrangement of a hand into disjoint legal words that scores most.

Exact. Words are matched on cards, not letters: every card spelling of every
word of the word set is indexed by its multiset of cards, so ``the`` is found
both as T·H·E and as TH·E. For a hand, every sub-multiset of its cards that is
a word is looked up (at most 2^11 of them), then a dynamic programme over the
sub-multisets picks the best partition into words and unused cards.

Points are word values minus unused values, which is the same as maximising
the value of the cards used. Ties go to more cards used, then more words, then
the longer longest word (in letters). With ``discard`` the hand holds one card
more (the drawn one) and the best card to throw away is chosen too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache

from companion.game.deck import BY_NAME, CARDS, Card, Word, card, check_copies, value
from companion.game.errors import RuleError
from companion.game.spelling import MAX_LETTERS, spellings

TYPE_CHECKING = False  # (not typing's: the command line loads no more than it needs)
if TYPE_CHECKING:
    from companion.game.rules import MinWord

MAX_HAND = 11
"""Ten cards, plus the drawn card when the solver also picks the discard."""

_CODE = {card: chr(ord("A") + i) for i, card in enumerate(CARDS)}
"""One character per kind of card: a multiset of cards is a sorted string."""
_DOUBLES = tuple(c for c in CARDS if c.letters == 2)
_FIELD = 5
_COUNT = (1 << (_FIELD - 1)) - 1


def key_of(cards: Iterable[Card]) -> str:
    """The index key of a multiset of cards."""
    return "".join(sorted(_CODE[c] for c in cards))


def build_index(words: Iterable[str]) -> dict[str, str]:
    """``{card multiset key: word}`` for every card spelling of every word.

    Where several words share a multiset (``act``, ``cat``), the first one given
    is kept: pass the words most common first to show the friendliest.
    """
    index: dict[str, str] = {}
    for word in words:
        word = word.lower()
        if len(word) > MAX_LETTERS or not (word.isascii() and word.isalpha()):
            continue
        if any(d.name in word for d in _DOUBLES):
            for key in spelling_keys(word):
                index.setdefault(key, word)
        elif all(word.count(ch) <= BY_NAME[ch].copies for ch in set(word)):
            # One letter per card is the only spelling: no sorting of cards needed.
            index.setdefault("".join(sorted(_LETTER_CODE[ch] for ch in word)), word)
    return index


_LETTER_CODE = {c.name: _CODE[c] for c in CARDS if c.letters == 1}
_DOUBLE_CODE = {c.name: _CODE[c] for c in _DOUBLES}
_COPIES = {_CODE[c]: c.copies for c in CARDS}


def spelling_keys(word: str) -> set[str]:
    """The index keys of every card spelling of ``word`` (lower-case letters a-z) that the
    deck holds: the keys of ``spellings(word)``, worked out on the cards' codes alone
    (no cards made, no spellings sorted), which makes building an index several times
    faster."""
    keys: set[str] = set()
    end = len(word)
    # Most words can't need more copies of a card than the deck has, however spelled: no
    # spelling has more of a card than the word has of its letters (or, for a double-letter
    # card, of non-overlapping pairs, which ``count`` gives).
    check = not all(
        word.count(name) <= _COPIES[code]
        for name, code in (*_LETTER_CODE.items(), *_DOUBLE_CODE.items())
        if name in word
    )
    # The spellings so far, as (letters spelled, their cards' codes): a stack, not a
    # recursive closure, which would be a reference cycle per word for the collector.
    partial = [(0, "")]
    while partial:
        i, codes = partial.pop()
        if i == end:
            key = "".join(sorted(codes))
            if not check or all(key.count(c) <= _COPIES[c] for c in set(key)):
                keys.add(key)
            continue
        partial.append((i + 1, codes + _LETTER_CODE[word[i]]))
        double = _DOUBLE_CODE.get(word[i : i + 2])
        if double is not None:
            partial.append((i + 2, codes + double))
    return keys


@dataclass(frozen=True)
class BestPlay:
    """The best arrangement: words in cards, unused cards, the discard, points."""

    words: tuple[Word, ...]
    unused: tuple[Card, ...]
    discard: Card | None
    points: int

    @property
    def goes_out(self) -> bool:
        """Every remaining card is in a word."""
        return not self.unused

    def as_dict(self) -> dict[str, object]:
        return {
            "words": [[c.name for c in w] for w in self.words],
            "unused": [c.name for c in self.unused],
            "discard": self.discard.name if self.discard else None,
            "points": self.points,
            "goes_out": self.goes_out,
        }


def best_play(
    hand: Iterable[Card],
    index: Mapping[str, str],
    min_word: MinWord = "cards",
    discard: bool = False,
) -> BestPlay:
    """The best play of ``hand`` with the words of ``index``."""
    cards = tuple(hand)
    if len(cards) > MAX_HAND:
        raise RuleError("hand_too_big", "cards", count=len(cards), most=MAX_HAND)
    if discard and not cards:
        raise RuleError("nothing_to_discard", "cards")
    check_copies(cards, "cards")

    # A multiset of the hand's cards is an integer with one 5-bit field per kind of card:
    # four bits of count (at most 12 copies) under a guard bit. Whether a word fits in what
    # is left is then one subtraction: no field borrows from its guard bit.
    kinds = sorted(set(cards), key=lambda c: _CODE[c])
    counts = Counter(cards)
    weights = [1 << (_FIELD * i) for i in range(len(kinds))]
    guards = sum(w << (_FIELD - 1) for w in weights)
    full = sum(counts[k] * w for k, w in zip(kinds, weights, strict=True))

    candidates = _candidate_words(kinds, counts, weights, index, min_word)

    @cache
    def solve(state: int) -> tuple[tuple[int, int, int, int], tuple[int, ...]]:
        """Best (value used, cards used, words, longest) of ``state`` and its word states."""
        if state == 0:
            return (0, 0, 0, 0), ()
        lowest = ((state & -state).bit_length() - 1) // _FIELD
        # Either one card of the lowest kind stays unused...
        best, best_words = solve(state - weights[lowest])
        # ...or it is in a word that fits in what is left.
        room = state | guards
        for word_state, score in candidates[lowest]:
            if (room - word_state) & guards == guards:
                rest, words = solve(state - word_state)
                total = (
                    rest[0] + score[0],
                    rest[1] + score[1],
                    rest[2] + 1,
                    rest[3] if rest[3] > score[3] else score[3],
                )
                if total > best:
                    best, best_words = total, (word_state, *words)
        return best, best_words

    dropped: Card | None = None
    remaining = list(cards)
    if discard:
        # Throw away the card that leaves the most points (then the usual ties, then the
        # first kind). Points of the rest: 2 * value used - (hand value - discard value).
        def after(k: int) -> tuple[int, int, int, int, int]:
            used, cards_used, words_made, longest = solve(full - weights[k])[0]
            return 2 * used + kinds[k].value, cards_used, words_made, longest, -k

        i = max(range(len(kinds)), key=after)
        full -= weights[i]
        dropped = kinds[i]
        remaining.remove(dropped)
    score, word_states = solve(full)

    words = []
    for state in word_states:
        multiset = [k for i, k in enumerate(kinds) for _ in range((state >> (_FIELD * i)) & _COUNT)]
        words.append(_in_word_order(multiset, index[key_of(multiset)]))
        for c in multiset:
            remaining.remove(c)
    points = 2 * score[0] - value(remaining) - value(c for w in words for c in w)
    return BestPlay(tuple(words), tuple(remaining), dropped, points)


def _candidate_words(
    kinds: list[Card],
    counts: Mapping[Card, int],
    weights: list[int],
    index: Mapping[str, str],
    min_word: MinWord,
) -> list[list[tuple[int, tuple[int, int, int, int]]]]:
    """Per lowest kind of card: the word multisets of the hand that contain it.

    Each is ``(state, (value, cards, 1, letters))``; the key is built as the walk goes
    (kinds are in code order, so no sorting is needed).
    """
    by_lowest: list[list[tuple[int, tuple[int, int, int, int]]]]
    by_lowest = [[] for _ in kinds]
    codes = [_CODE[k] for k in kinds]
    values = [k.value for k in kinds]
    letters = [k.letters for k in kinds]
    least = 2 if min_word == "cards" else 1
    least_letters = 1 if min_word == "one_card" else 2  # Junior: A and I
    n_kinds = len(kinds)
    keys = index.keys()  # a set-like view: a C-level test for a dict and a packed index alike

    def walk(i: int, key: str, state: int, val: int, n: int, lets: int, first: int) -> None:
        if i == n_kinds:
            if n >= least and lets >= least_letters and key in keys:
                by_lowest[first].append((state, (val, n, 1, lets)))
            return
        walk(i + 1, key, state, val, n, lets, first)
        for d in range(1, counts[kinds[i]] + 1):
            walk(
                i + 1,
                key + codes[i] * d,
                state + weights[i] * d,
                val + values[i] * d,
                n + d,
                lets + letters[i] * d,
                i if first < 0 else first,
            )

    walk(0, "", 0, 0, 0, 0, -1)
    return by_lowest


def _in_word_order(multiset: list[Card], word: str) -> Word:
    """The cards of ``multiset`` in the order that spells ``word``."""
    key = key_of(multiset)
    return next(s for s in spellings(word) if key_of(s) == key)


def parse_hand(names: Iterable[object], where: str = "cards") -> tuple[Card, ...]:
    """Card names as sent (``["qu", "a"]``) into cards, refusing unknown ones."""
    return tuple(card(n, f"{where}[{i}]") for i, n in enumerate(names))
