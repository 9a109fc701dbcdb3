"""Round scoring: the one path every page, the API and every export goes through.

Order, as the rule book has it: challenges strike illegal words first (their
cards count as unused); then word points, unused points (unless the house rule
leaves them out), the two bonuses on the words that stand, challenge penalties,
the false-going-out penalty, and last the zero floor, as the house rule places it
(each round, before the bonuses, on the running total, or none). A challenge whose
vote is still open changes nothing until it is decided.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, replace

from companion.game.challenges import Judge, Ruling, Verdict, rule
from companion.game.deck import Card, Word, letter_count, text, value
from companion.game.play import Challenge, Hand, Play, check
from companion.game.rules import Rules

Say = Callable[[str], str]
"""Renders a reason code (``proper_noun``) as the words a person reads."""


@dataclass(frozen=True)
class WordScore:
    """One word as laid down; a struck word (lost a challenge) scores as unused."""

    cards: Word
    struck: bool = False

    @property
    def text(self) -> str:
        return text(self.cards)

    @property
    def letters(self) -> int:
        return letter_count(self.cards)

    @property
    def value(self) -> int:
        return value(self.cards)

    def as_dict(self) -> dict[str, object]:
        return {
            "cards": [c.name for c in self.cards],
            "text": self.text,
            "letters": self.letters,
            "value": self.value,
            "struck": self.struck,
        }


@dataclass(frozen=True)
class Bonus:
    """How one bonus went: the winner, or the players tied for the best.

    ``best`` is the winning count (words, or letters of the longest word);
    ``in_play`` is False when the two-player rule leaves this bonus out.
    """

    in_play: bool
    winner: str | None
    best: int
    tied: tuple[str, ...]

    def as_dict(self) -> dict[str, object]:
        return {**asdict(self), "tied": list(self.tied)}


@dataclass(frozen=True)
class ChallengeResult:
    """A challenge with its ruling and who paid: the challenger or the word's owner."""

    challenge: Challenge
    text: str
    ruling: Ruling
    points: int

    @property
    def pending(self) -> bool:
        """The table's vote on it is still open: it changes no score yet."""
        return self.ruling.pending

    @property
    def advice(self) -> Verdict | None:
        """The dictionary's verdict, when the table votes (its advice)."""
        if self.challenge.advice is not None:
            return self.challenge.advice
        return Verdict(self.ruling.legal, self.ruling.reason) if self.pending else None

    @property
    def charged_to(self) -> str | None:
        if self.pending:
            return None
        return self.challenge.by if self.ruling.legal else self.challenge.player

    def as_dict(self, say: Say = str) -> dict[str, object]:
        advice = self.advice
        out: dict[str, object] = {
            "by": self.challenge.by,
            "player": self.challenge.player,
            "word": self.challenge.word,
            "text": self.text,
            "decided": not self.pending,
            "legal": None if self.pending else self.ruling.legal,
            "decided_by": None if self.pending else self.ruling.decided_by,
            "reason": None if self.pending else say(self.ruling.reason),
            "code": None if self.pending else self.ruling.reason,
            "points": self.points,
            "charged_to": self.charged_to,
        }
        if advice is not None:
            out["advice"] = {
                "legal": advice.legal,
                "reason": say(advice.reason),
                "code": advice.reason,
            }
            out["votes"] = {name: legal for name, legal in self.challenge.votes}
        return out


@dataclass(frozen=True)
class PlayerScore:
    """One player's round, every part of the score kept apart so a page can explain it."""

    name: str
    words: tuple[WordScore, ...]
    unused: tuple[Card, ...]
    went_out: bool
    bonus_most_words: int
    bonus_longest_word: int
    challenge_penalty: int
    false_out_penalty: int
    score: int
    leftovers_count: bool = True
    """The house rule subtracts the cards left over (Junior leaves them out)."""

    @property
    def standing_words(self) -> tuple[WordScore, ...]:
        return tuple(w for w in self.words if not w.struck)

    @property
    def word_points(self) -> int:
        return sum(w.value for w in self.standing_words)

    @property
    def unused_points(self) -> int:
        return value(self.unused)

    @property
    def unused_penalty(self) -> int:
        """What the cards left over take off: their points, or nothing by house rule."""
        return self.unused_points if self.leftovers_count else 0

    @property
    def bonuses(self) -> int:
        return self.bonus_most_words + self.bonus_longest_word

    @property
    def total(self) -> int:
        """The round total before the zero floor."""
        return (
            self.word_points
            - self.unused_penalty
            + self.bonuses
            - self.challenge_penalty
            - self.false_out_penalty
        )

    def as_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "words": [w.as_dict() for w in self.words],
            "word_points": self.word_points,
            "unused": [c.name for c in self.unused],
            "unused_points": self.unused_points,
            "unused_penalty": self.unused_penalty,
            "went_out": self.went_out,
            "bonus_most_words": self.bonus_most_words,
            "bonus_longest_word": self.bonus_longest_word,
            "challenge_penalty": self.challenge_penalty,
            "false_out_penalty": self.false_out_penalty,
            "total": self.total,
            "score": self.score,
        }


@dataclass(frozen=True)
class RoundScore:
    """The scored round: players in seating order, the challenges, the bonuses."""

    players: tuple[PlayerScore, ...]
    challenges: tuple[ChallengeResult, ...]
    most_words: Bonus
    longest_word: Bonus

    def player(self, name: str) -> PlayerScore:
        return next(p for p in self.players if p.name == name)

    def as_dict(self, say: Say = str) -> dict[str, object]:
        """The round as the API writes it; ``say`` renders a reason code for people."""
        return {
            "players": [p.as_dict() for p in self.players],
            "challenges": [c.as_dict(say) for c in self.challenges],
            "bonuses": {
                "most_words": self.most_words.as_dict(),
                "longest_word": self.longest_word.as_dict(),
            },
        }


def score_round(play: Play, rules: Rules | None = None, judge: Judge | None = None) -> RoundScore:
    """Check and score one round.

    Raises ``RuleError`` for a round that breaks a rule. A challenge without
    the table's ruling is put to ``judge``; without a judge it is refused.
    """
    rules = rules or Rules()
    check(play, rules)

    rulings: list[ChallengeResult] = []
    struck: set[tuple[str, int]] = set()
    penalty = {h.name: 0 for h in play.hands}
    for n, typed in enumerate(play.challenges):
        # check() made sure both names match a player, whatever their case.
        by, player = play.player_name(typed.by), play.player_name(typed.player)
        assert by is not None and player is not None
        ch = replace(typed, by=by, player=player)
        word = play.hand(ch.player).words[ch.word]
        ruling = ch.recorded or rule(
            text(word), ch.ruling, judge, f"challenges[{n}]", vote=rules.vote
        )
        result = ChallengeResult(ch, text(word), ruling, value(word))
        rulings.append(result)
        if ruling.pending:  # the table is still voting: the word stands, nobody pays
            continue
        if ruling.legal:
            penalty[ch.by] += result.points
        else:
            struck.add((ch.player, ch.word))

    words = {
        h.name: tuple(WordScore(w, (h.name, j) in struck) for j, w in enumerate(h.words))
        for h in play.hands
    }
    standing = {name: [w for w in ws if not w.struck] for name, ws in words.items()}
    most_in_play, longest_in_play = rules.bonuses_in_play(len(play.hands))
    most = _bonus(most_in_play, {n: len(ws) for n, ws in standing.items()})
    longest = _bonus(
        longest_in_play, {n: max(w.letters for w in ws) for n, ws in standing.items() if ws}
    )

    players = []
    for h in play.hands:
        unused = h.unused + tuple(c for w in words[h.name] if w.struck for c in w.cards)
        draft = PlayerScore(
            name=h.name,
            words=words[h.name],
            unused=unused,
            went_out=h.went_out,
            bonus_most_words=rules.bonus if most.winner == h.name else 0,
            bonus_longest_word=rules.bonus if longest.winner == h.name else 0,
            challenge_penalty=penalty[h.name],
            false_out_penalty=rules.false_out_penalty if h.went_out and unused else 0,
            score=0,
            leftovers_count=rules.leftover_penalty,
        )
        players.append(replace(draft, score=floored(draft, rules)))
    return RoundScore(tuple(players), tuple(rulings), most, longest)


def floored(player: PlayerScore, rules: Rules) -> int:
    """A player's round score under the house rule's zero floor: ``round`` floors the
    whole round total, ``before_bonus`` floors it before the bonuses are added, ``total``
    and ``off`` keep the signed total (``total`` floors the running total instead)."""
    if rules.floor == "round":
        return max(player.total, 0)
    if rules.floor == "before_bonus":
        return max(player.total - player.bonuses, 0) + player.bonuses
    return player.total


@dataclass(frozen=True)
class BonusRace:
    """The two bonuses as they stand while the hands come in, one phone at a time: the
    longest word so far (in letters) and the most words so far, and who holds them (two
    or more holders: a tie, which as it stands gives the bonus to nobody). A bonus the
    two-player rule leaves out is not in play. Challenges come later: every word counts."""

    entered: tuple[str, ...]
    most_words: Bonus
    longest_word: Bonus
    longest_text: str
    """The longest word so far (one of them when tied), as cards' letters."""

    def as_dict(self) -> dict[str, object]:
        return {
            "entered": list(self.entered),
            "most_words": self.most_words.as_dict(),
            "longest_word": {**self.longest_word.as_dict(), "word": self.longest_text},
        }


def bonus_race(hands: tuple[Hand, ...], players: int, rules: Rules | None = None) -> BonusRace:
    """The bonus to beat, from the ``hands`` entered so far out of ``players`` at the table."""
    rules = rules or Rules()
    most_in_play, longest_in_play = rules.bonuses_in_play(players)
    most = _bonus(most_in_play, {h.name: len(h.words) for h in hands})
    longest = {h.name: max(h.words, key=letter_count) for h in hands if h.words}
    long = _bonus(longest_in_play, {n: letter_count(w) for n, w in longest.items()})
    holder = long.winner or (long.tied[0] if long.tied else None)
    if holder is None and longest:  # not in play: still the longest word there is
        holder = max(longest, key=lambda n: letter_count(longest[n]))
    return BonusRace(
        tuple(h.name for h in hands), most, long, text(longest[holder]) if holder else ""
    )


def _bonus(in_play: bool, counts: dict[str, int]) -> Bonus:
    """The strict winner of ``counts`` (players absent from it don't compete)."""
    if not counts or max(counts.values()) == 0:
        return Bonus(in_play, None, 0, ())
    best = max(counts.values())
    leaders = tuple(name for name, n in counts.items() if n == best)
    if len(leaders) > 1 or not in_play:
        return Bonus(in_play, None, best, leaders if len(leaders) > 1 else ())
    return Bonus(in_play, leaders[0], best, ())
