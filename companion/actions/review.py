"""The best-play review of a closed round: what each player's cards allowed, and the
points they left on the table. One path for the round's page, the game's recap and the
table's records."""

from __future__ import annotations

from dataclasses import dataclass

from companion import store
from companion.actions import judging
from companion.game.scoring import WordScore
from companion.game.solver import BestPlay, best_play
from companion.lexicon import LexiconStore


@dataclass(frozen=True)
class Review:
    """After a round: the best play a player's cards allowed, and the points left behind."""

    name: str
    best: BestPlay
    words: tuple[WordScore, ...]
    """The words of the best play, each with its text and value."""
    scored: int
    left: int
    could: int = 0
    """What the best play is worth under the house rules (its words alone when leftover
    cards don't count)."""


def review_round(
    lexicons: LexiconStore, state: store.GameState, current: store.RoundState
) -> list[Review]:
    """Best plays of a closed round's hands (never while the round is open: no cheating);
    none when the game's word list is not on this server."""
    if not current.closed or current.play is None or current.result is None:
        return []
    if not lexicons.knows(state.rules.lexicon):
        return []
    index = judging.game_solver_index(lexicons, state.rules, state.house_words)
    out = []
    for hand, scored in zip(current.play.hands, current.result.players, strict=True):
        cards = [c for w in hand.words for c in w] + list(hand.unused)
        best = best_play(cards, index, state.rules.min_word)
        played = scored.word_points - scored.unused_penalty
        words = tuple(WordScore(w) for w in best.words)
        # Without the leftover penalty the best play is worth its words alone.
        could = best.points if state.rules.leftover_penalty else sum(w.value for w in words)
        out.append(Review(hand.name, best, words, played, max(could - played, 0), could))
    return out
