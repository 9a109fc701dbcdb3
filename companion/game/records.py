"""A table's records and statistics, and the recap of one game, from finished games.

Nothing here is stored: every figure is worked out again from the round results of the
one scoring path (``RoundScore``) and each game's final totals, so a corrected round
corrects every record. The caller passes the finished games only (every round of the
plan closed); archived games count like any other.

"Earlier" breaks every tie of a feat: games are taken in the order they started, rounds
in order, seats in seating order and words in the order laid down, and a record is only
beaten by a strictly better one, as a group expects of a record.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import TypeVar

from companion.game.deck import Card
from companion.game.scoring import ChallengeResult, RoundScore

EVENING_GAP = timedelta(hours=8)
"""A game started at most this long after the previous one belongs to the same evening."""


@dataclass(frozen=True)
class PlayedGame:
    """One finished game as the records read it.

    Per seat, in seating order: ``members`` (the member who sat there; None for a guest),
    ``names`` (as in the game), ``totals`` (final totals as the game's standings count
    them: handicap and zero floor included) and ``left`` (points left on the table over
    the game, from the best-play review; None when not known). ``rounds`` are the closed
    rounds in order and ``numbers`` their round numbers.
    """

    game_id: str
    started: datetime
    members: tuple[int | None, ...]
    names: tuple[str, ...]
    rounds: tuple[RoundScore, ...]
    numbers: tuple[int, ...]
    totals: tuple[int, ...]
    left: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        seats = len(self.names)
        sizes = [len(self.members), len(self.totals)]
        sizes += [len(self.left)] if self.left is not None else []
        sizes += [len(r.players) for r in self.rounds]
        if any(size != seats for size in sizes) or len(self.numbers) != len(self.rounds):
            raise ValueError(f"game {self.game_id}: seats or rounds don't line up")


@dataclass(frozen=True)
class WordFeat:
    """A word laid down and left standing (not struck by a challenge): where and by whom.

    ``name`` is the member's name in a table's records, the seat's name in a recap;
    ``member`` is None for a guest (recap only).
    """

    value: int
    letters: int
    cards: tuple[Card, ...]
    text: str
    game_id: str
    round: int
    member: int | None
    name: str


@dataclass(frozen=True)
class RoundFeat:
    """One player's round score (after the zero floor), with the game and round number."""

    score: int
    game_id: str
    round: int
    member: int | None
    name: str


@dataclass(frozen=True)
class GameFeat:
    """One player's final total of a game (handicap and floor included)."""

    total: int
    game_id: str
    member: int | None
    name: str


@dataclass(frozen=True)
class HeadToHead:
    """Games two members both played, by final total: ahead of the other, behind, level."""

    ahead: int = 0
    behind: int = 0
    level: int = 0


@dataclass(frozen=True)
class PlayerRecords:
    """One member's figures over the table's finished games (zeros and None if none).

    ``wins`` are games they finished first alone, ``shared_wins`` games they tied for
    first, by the final totals of every seat, guests included (a guest on top: no win).
    ``round_points`` sums their round scores, so a handicap counts in ``best_game`` but not
    here. ``bonuses_*`` count the rounds whose bonus they won (the strict leader; a bonus
    worth 0 points by house rule still counts). ``challenges_made`` counts every challenge
    they made, an open vote included; ``challenges_won`` those ruled not legal.
    ``left_on_table`` sums the points they left on the table, None when any of their
    games doesn't know it (0 with no games). ``head_to_head`` holds every other member of
    the table, in the table's order.
    """

    member: int
    name: str
    games: int = 0
    wins: int = 0
    shared_wins: int = 0
    rounds: int = 0
    round_points: int = 0
    best_round: RoundFeat | None = None
    best_game: GameFeat | None = None
    best_word: WordFeat | None = None
    longest_word: WordFeat | None = None
    bonuses_most_words: int = 0
    bonuses_longest_word: int = 0
    challenges_made: int = 0
    challenges_won: int = 0
    left_on_table: int | None = 0
    head_to_head: dict[int, HeadToHead] = field(default_factory=dict)

    @property
    def average_round(self) -> float | None:
        """Points per round played (a page shows it to 1 decimal); None with no rounds."""
        return self.round_points / self.rounds if self.rounds else None


@dataclass(frozen=True)
class Evening:
    """A run of games each started within 8 hours of the previous one.

    ``games`` in the order played, ``started`` when the first began. ``winners``: the
    member with the most wins in it (a shared win counts for each), ties broken by the sum
    of their totals in the evening's games; still tied, all of them (table order). No
    member won a game (guests won them all): no winner.
    """

    games: tuple[str, ...]
    started: datetime
    winners: tuple[int, ...]


@dataclass(frozen=True)
class TableRecords:
    """A table's records: each member's, and the table's best feats by a member (guests
    take no table record: records are the table's people); ``games`` counts every finished
    game given; ``evenings`` newest first."""

    players: tuple[PlayerRecords, ...]
    games: int
    best_word: WordFeat | None
    longest_word: WordFeat | None
    best_round: RoundFeat | None
    best_game: GameFeat | None
    evenings: tuple[Evening, ...]

    def player(self, member: int) -> PlayerRecords:
        """The records of member ``member``."""
        return next(p for p in self.players if p.member == member)


F = TypeVar("F", WordFeat, RoundFeat, GameFeat)


@dataclass(frozen=True)
class SeatLine:
    """What one seat did in one game: the part records and the recap share (its feats
    carry the name played under that evening)."""

    scores: tuple[int, ...]
    best_round: RoundFeat | None
    best_word: WordFeat | None
    longest_word: WordFeat | None
    most_words: int
    longest: int
    made: int
    won: int


def _better_word(old: WordFeat | None, new: WordFeat) -> WordFeat:
    """The best word of two: the higher value; on a tie the one already held (earlier)."""
    return new if old is None or new.value > old.value else old


def _longer_word(old: WordFeat | None, new: WordFeat) -> WordFeat:
    """The longest word of two: more letters, then the higher value, then the earlier."""
    if old is None or (new.letters, new.value) > (old.letters, old.value):
        return new
    return old


def _seat(game: PlayedGame, seat: int, name: str) -> SeatLine:
    """Seat ``seat`` of ``game`` round by round; ``name`` is written on its feats."""
    member = game.members[seat]
    scores: list[int] = []
    best_round: RoundFeat | None = None
    best: WordFeat | None = None
    longest: WordFeat | None = None
    most_n = longest_n = made = won = 0
    for number, scored in zip(game.numbers, game.rounds, strict=True):
        player = scored.players[seat]
        scores.append(player.score)
        if best_round is None or player.score > best_round.score:
            best_round = RoundFeat(player.score, game.game_id, number, member, name)
        for word in player.standing_words:
            feat = WordFeat(
                word.value, word.letters, word.cards, word.text, game.game_id, number, member, name
            )
            best, longest = _better_word(best, feat), _longer_word(longest, feat)
        most_n += scored.most_words.winner == player.name
        longest_n += scored.longest_word.winner == player.name
        for result in scored.challenges:
            if result.challenge.by == player.name:
                made += 1
                won += not result.pending and not result.ruling.legal
    return SeatLine(tuple(scores), best_round, best, longest, most_n, longest_n, made, won)


@dataclass(frozen=True)
class GameSummary:
    """One finished game reduced to what a table's records read of it: per seat, its line
    and its final total. Small, so that a table's games can be kept summed up (the
    caller keeps them per game and version: a changed game is summed up again)."""

    game_id: str
    started: datetime
    members: tuple[int | None, ...]
    names: tuple[str, ...]
    totals: tuple[int, ...]
    left: tuple[int, ...] | None
    lines: tuple[SeatLine, ...]


def summarise(game: PlayedGame) -> GameSummary:
    """``game`` summed up for the records."""
    lines = tuple(_seat(game, seat, name) for seat, name in enumerate(game.names))
    return GameSummary(
        game.game_id, game.started, game.members, game.names, game.totals, game.left, lines
    )


def _renamed(line: SeatLine, name: str) -> SeatLine:
    """A seat's line with its feats under ``name`` (a member's name now)."""

    def named(feat: F | None) -> F | None:
        return feat if feat is None or feat.name == name else replace(feat, name=name)

    feats = (line.best_round, line.best_word, line.longest_word)
    if all(f is None or f.name == name for f in feats):
        return line
    return replace(
        line,
        best_round=named(line.best_round),
        best_word=named(line.best_word),
        longest_word=named(line.longest_word),
    )


def _member_seats(
    game: PlayedGame | GameSummary, members: Mapping[int, str]
) -> Iterator[tuple[int, int]]:
    """(seat, member) for each seat of ``game`` held by a member of ``members`` (the first
    seat only, should a member somehow hold two)."""
    seen: set[int] = set()
    for seat, member in enumerate(game.members):
        if member is not None and member in members and member not in seen:
            seen.add(member)
            yield seat, member


def _chronological(games: Sequence[GameSummary]) -> list[GameSummary]:
    """The games in the order they started (as given when started together)."""
    return sorted(games, key=lambda g: g.started)


class _Tally:
    """One member's figures while the games are read (frozen into ``PlayerRecords``)."""

    def __init__(self, member: int, name: str, others: list[int]) -> None:
        self.member, self.name = member, name
        self.games = self.wins = self.shared_wins = self.rounds = self.round_points = 0
        self.best_round: RoundFeat | None = None
        self.best_game: GameFeat | None = None
        self.best_word: WordFeat | None = None
        self.longest_word: WordFeat | None = None
        self.most_words = self.longest = self.made = self.won = 0
        self.left: int | None = 0
        self.h2h = {other: [0, 0, 0] for other in others}

    def add(self, game: GameSummary, seat: int, line: SeatLine) -> None:
        total, best = game.totals[seat], max(game.totals)
        self.games += 1
        if total == best:
            alone = game.totals.count(best) == 1
            self.wins += alone
            self.shared_wins += not alone
        self.rounds += len(line.scores)
        self.round_points += sum(line.scores)
        new = line.best_round
        if new is not None and (self.best_round is None or new.score > self.best_round.score):
            self.best_round = new
        if self.best_game is None or total > self.best_game.total:
            self.best_game = GameFeat(total, game.game_id, self.member, self.name)
        if line.best_word is not None:
            self.best_word = _better_word(self.best_word, line.best_word)
        if line.longest_word is not None:
            self.longest_word = _longer_word(self.longest_word, line.longest_word)
        self.most_words += line.most_words
        self.longest += line.longest
        self.made += line.made
        self.won += line.won
        if self.left is not None:
            self.left = None if game.left is None else self.left + game.left[seat]

    def frozen(self) -> PlayerRecords:
        """The figures as read so far, for the page."""
        return PlayerRecords(
            member=self.member,
            name=self.name,
            games=self.games,
            wins=self.wins,
            shared_wins=self.shared_wins,
            rounds=self.rounds,
            round_points=self.round_points,
            best_round=self.best_round,
            best_game=self.best_game,
            best_word=self.best_word,
            longest_word=self.longest_word,
            bonuses_most_words=self.most_words,
            bonuses_longest_word=self.longest,
            challenges_made=self.made,
            challenges_won=self.won,
            left_on_table=self.left,
            head_to_head={m: HeadToHead(*counts) for m, counts in self.h2h.items()},
        )


def table_records(
    games: Sequence[PlayedGame | GameSummary], members: Mapping[int, str]
) -> TableRecords:
    """The records of a table whose ``members`` (id -> name, in the table's order) played
    ``games`` (finished ones only, in any order; played or summed up). Figures name
    members by their name now, in ``members``; seats of anyone not in ``members`` count
    as guests."""
    ordered = _chronological([g if isinstance(g, GameSummary) else summarise(g) for g in games])
    tallies = {m: _Tally(m, name, [o for o in members if o != m]) for m, name in members.items()}
    place: dict[tuple[str, int | None], tuple[int, int]] = {}
    for n, game in enumerate(ordered):
        seats = list(_member_seats(game, members))
        for seat, member in seats:
            place[game.game_id, member] = (n, seat)
            tallies[member].add(game, seat, _renamed(game.lines[seat], members[member]))
            for other_seat, other in seats:
                if other != member:
                    mine, theirs = game.totals[seat], game.totals[other_seat]
                    at = 0 if mine > theirs else 1 if mine < theirs else 2
                    tallies[member].h2h[other][at] += 1
    players = tuple(t.frozen() for t in tallies.values())

    def when(feat: WordFeat | RoundFeat | GameFeat) -> tuple[int, int, int]:
        """Earlier first: the game, the round, the seat."""
        n, seat = place[feat.game_id, feat.member]
        return n, getattr(feat, "round", 0), seat

    return TableRecords(
        players=players,
        games=len(games),
        best_word=_table_best([p.best_word for p in players], lambda w: (w.value,), when),
        longest_word=_table_best(
            [p.longest_word for p in players], lambda w: (w.letters, w.value), when
        ),
        best_round=_table_best([p.best_round for p in players], lambda r: (r.score,), when),
        best_game=_table_best([p.best_game for p in players], lambda g: (g.total,), when),
        evenings=_evenings(ordered, members),
    )


def _table_best(
    feats: Sequence[F | None],
    key: Callable[[F], tuple[int, ...]],
    when: Callable[[F], tuple[int, int, int]],
) -> F | None:
    """The table's record among the members' own: the best by ``key``, the earliest of
    equals (each member's own is already their earliest, so the table's is among them)."""
    found = [f for f in feats if f is not None]
    if not found:
        return None
    return min(found, key=lambda f: (tuple(-k for k in key(f)), when(f)))


def _evenings(ordered: list[GameSummary], members: Mapping[int, str]) -> tuple[Evening, ...]:
    """The evenings of ``ordered`` games (oldest first), newest first."""
    runs: list[list[GameSummary]] = []
    for game in ordered:
        if runs and game.started - runs[-1][-1].started <= EVENING_GAP:
            runs[-1].append(game)
        else:
            runs.append([game])
    return tuple(
        Evening(tuple(g.game_id for g in run), run[0].started, _evening_winners(run, members))
        for run in reversed(runs)
    )


def _evening_winners(run: list[GameSummary], members: Mapping[int, str]) -> tuple[int, ...]:
    """The members with the most wins (shared ones count), then the highest sum of totals."""
    wins: dict[int, int] = {}
    points: dict[int, int] = {}
    for game in run:
        best = max(game.totals)
        for seat, member in _member_seats(game, members):
            wins[member] = wins.get(member, 0) + (game.totals[seat] == best)
            points[member] = points.get(member, 0) + game.totals[seat]
    most = max(wins.values(), default=0)
    if most == 0:
        return ()
    tied = [m for m in wins if wins[m] == most]
    top = max(points[m] for m in tied)
    return tuple(m for m in members if m in tied and points[m] == top)


@dataclass(frozen=True)
class SeatRecap:
    """One seat's game for the end-of-game recap, guests included.

    ``rank``: 1 for the highest total, equal totals sharing the better rank. ``rounds``:
    the round scores in order. Bonuses and challenges are counted as in ``PlayerRecords``;
    ``left`` is None when the game doesn't know it.
    """

    seat: int
    name: str
    member: int | None
    total: int
    rank: int
    rounds: tuple[int, ...]
    best_word: WordFeat | None
    longest_word: WordFeat | None
    bonuses_most_words: int
    bonuses_longest_word: int
    challenges_made: int
    challenges_won: int
    left: int | None


@dataclass(frozen=True)
class BonusLine:
    """Who won each bonus of one round (None: a tie, nobody, or not in play)."""

    round: int
    most_words: str | None
    longest_word: str | None


@dataclass(frozen=True)
class ChallengeLine:
    """One challenge and its ruling: ``by`` challenged ``player``'s ``word``.

    While the table's vote is open (``pending``) ``legal``, ``decided_by`` and ``reason``
    are None, as the API writes them. ``reason`` is a code, put into words at the edge;
    ``charged_to`` is who lost ``points`` (the word's value).
    """

    round: int
    by: str
    player: str
    word: str
    legal: bool | None
    decided_by: str | None
    reason: str | None
    points: int
    charged_to: str | None

    @property
    def pending(self) -> bool:
        """The table's vote on it is still open."""
        return self.legal is None


@dataclass(frozen=True)
class Recap:
    """What the end of one game shows: every seat (in seating order), who won, the game's
    best and longest word (guests included, names as in the game), each round's bonuses
    and every challenge in the order made."""

    game_id: str
    seats: tuple[SeatRecap, ...]
    winners: tuple[str, ...]
    best_word: WordFeat | None
    longest_word: WordFeat | None
    bonuses: tuple[BonusLine, ...]
    challenges: tuple[ChallengeLine, ...]

    @property
    def ranked(self) -> tuple[SeatRecap, ...]:
        """The seats by rank, seating order among equals."""
        return tuple(sorted(self.seats, key=lambda s: (s.rank, s.seat)))


def game_recap(game: PlayedGame) -> Recap:
    """The recap of one finished ``game``: the same figures as the records, for every seat."""
    lines = [_seat(game, seat, name) for seat, name in enumerate(game.names)]
    seats = tuple(
        SeatRecap(
            seat=seat,
            name=game.names[seat],
            member=game.members[seat],
            total=total,
            rank=1 + sum(t > total for t in game.totals),
            rounds=line.scores,
            best_word=line.best_word,
            longest_word=line.longest_word,
            bonuses_most_words=line.most_words,
            bonuses_longest_word=line.longest,
            challenges_made=line.made,
            challenges_won=line.won,
            left=None if game.left is None else game.left[seat],
        )
        for seat, (line, total) in enumerate(zip(lines, game.totals, strict=True))
    )
    best: WordFeat | None = None
    longest: WordFeat | None = None
    for number in game.numbers:  # round by round, then seat by seat: the earliest of equals
        for line in lines:
            for word in (line.best_word, line.longest_word):
                if word is not None and word.round == number:
                    best, longest = _better_word(best, word), _longer_word(longest, word)
    return Recap(
        game_id=game.game_id,
        seats=seats,
        winners=tuple(s.name for s in seats if s.rank == 1),
        best_word=best,
        longest_word=longest,
        bonuses=tuple(
            BonusLine(number, scored.most_words.winner, scored.longest_word.winner)
            for number, scored in zip(game.numbers, game.rounds, strict=True)
        ),
        challenges=tuple(
            _challenge_line(number, result)
            for number, scored in zip(game.numbers, game.rounds, strict=True)
            for result in scored.challenges
        ),
    )


def _challenge_line(number: int, result: ChallengeResult) -> ChallengeLine:
    ch, open_vote = result.challenge, result.pending
    return ChallengeLine(
        round=number,
        by=ch.by,
        player=ch.player,
        word=result.text,
        legal=None if open_vote else result.ruling.legal,
        decided_by=None if open_vote else result.ruling.decided_by,
        reason=None if open_vote else result.ruling.reason,
        points=result.points,
        charged_to=result.charged_to,
    )
