"""Loading a stored game as game/ objects and saving changes atomically. No rule logic here.

Every write checks everything first, then changes the rows and commits once:
a refused request leaves the database as it was. Every write bumps the
game's version (the ETag of every view) and the round's version (how a save
based on a stale page is caught).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import time
from dataclasses import dataclass, replace
from datetime import UTC, datetime

from sqlalchemy import select, text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload

from companion.extensions import db
from companion.game import solitaire
from companion.game.challenges import Judge, Ruling
from companion.game.deck import BY_NAME, Card
from companion.game.errors import RuleError
from companion.game.parse import parse_rules
from companion.game.play import ROUNDS, Challenge, Hand, Play, check_names, hand_size
from companion.game.rules import Rules
from companion.game.scoring import RoundScore, score_round
from companion.game.standings import Standing, dealer, first_player, standings, winners
from companion.models import Challenge as ChallengeRow
from companion.models import Entry, Game, HouseWord, Player, Round, Solitaire


class NotFound(LookupError):
    """No such game, round or challenge."""


class Conflict(Exception):
    """The round changed since the page that sent this was loaded."""


def new_secret() -> str:
    """A random URL-safe secret of 192 bits (edit tokens) ."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    """How an edit token is stored: its SHA-256 (the token is random, so no salt is needed)."""
    return hashlib.sha256(token.encode()).hexdigest()


def can_edit(game: Game, token: str | None) -> bool:
    """Whether ``token`` is this game's edit token (compared in constant time)."""
    return bool(token) and hmac.compare_digest(token_hash(token or ""), game.edit_token_hash)


# --- reading ---------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundState:
    """One round as the pages and the API show it, scored through the one scoring path."""

    number: int
    hand_size: int
    dealer: str
    first_player: str
    closed: bool
    version: int
    entered: bool
    play: Play | None
    result: RoundScore | None
    challenge_numbers: tuple[int, ...]

    @property
    def went_out(self) -> str | None:
        if self.play is None:
            return None
        return next((h.name for h in self.play.hands if h.went_out), None)


@dataclass(frozen=True)
class GameState:
    """A whole game, derived from its stored entries."""

    game: Game
    names: tuple[str, ...]
    rules: Rules
    rounds: tuple[RoundState, ...]
    """All eight, entered or not."""
    table: tuple[Standing, ...]
    house_words: dict[str, bool]

    @property
    def next_round(self) -> int | None:
        return next((r.number for r in self.rounds if not r.closed), None)

    @property
    def finished(self) -> bool:
        return self.next_round is None

    @property
    def winners(self) -> list[str]:
        return winners(self.table) if self.finished else []

    @property
    def next_dealer(self) -> str | None:
        n = self.next_round
        return None if n is None else self.rounds[n - 1].dealer

    def round(self, number: int) -> RoundState:
        if not 1 <= number <= ROUNDS:
            raise NotFound(f"There is no round {number}; a game has rounds 1 to {ROUNDS}.")
        return self.rounds[number - 1]


def get_game(game_id: str) -> Game:
    """The stored game ``game_id`` with everything it holds, or NotFound."""
    game = db.session.scalars(
        select(Game)
        .where(Game.id == game_id[:64])
        .options(
            selectinload(Game.players),
            selectinload(Game.house_words),
            selectinload(Game.rounds).selectinload(Round.entries),
            selectinload(Game.rounds).selectinload(Round.challenges),
        )
    ).first()
    if game is None:
        raise NotFound("There is no game at this address; check the link.")
    return game


_VERSION = text("SELECT version FROM game WHERE id = :id")


VERSION_FRESH = 1.0
"""Seconds a game's version read from the database is trusted without asking again.

Writes made by this process forget it at once; a write by another process (a second
server, the command line) shows within this long. The phones poll every 3 seconds."""
_versions: dict[tuple[str, str], tuple[float, int | None]] = {}


def game_version(game_id: str) -> int | None:
    """Just the version of a game: enough to answer a conditional GET with 304, or to
    serve a kept page. A plain statement on a pooled connection, at most once a second."""
    key = (str(db.engine.url), game_id[:64])
    now = time.monotonic()
    known = _versions.get(key)
    if known is not None and now - known[0] < VERSION_FRESH:
        return known[1]
    with db.engine.connect() as conn:
        version = conn.execute(_VERSION, {"id": game_id[:64]}).scalar()
    if len(_versions) > 10_000:  # many games polled: start again rather than grow
        _versions.clear()
    _versions[key] = (now, version)
    return version


def _forget_version(game_id: str) -> None:
    _versions.pop((str(db.engine.url), game_id), None)


def list_games(limit: int = 50) -> list[Game]:
    """The most recently changed games first."""
    return list(
        db.session.scalars(
            select(Game)
            .options(selectinload(Game.players), selectinload(Game.rounds))
            .order_by(Game.updated_at.desc())
            .limit(limit)
        )
    )


def state_of(game: Game) -> GameState:
    """Score every entered round of ``game`` and rank the players on the closed ones."""
    names, rules = names_of(game), parse_rules(game.rules)
    stored = {r.number: r for r in game.rounds}
    rounds = [_round_state(game, names, rules, n, stored.get(n)) for n in range(1, ROUNDS + 1)]
    closed = [[p.score for p in r.result.players] for r in rounds if r.closed and r.result]
    house = {h.word: h.allowed for h in game.house_words}
    return GameState(game, names, rules, tuple(rounds), tuple(standings(names, closed)), house)


def names_of(game: Game) -> tuple[str, ...]:
    """The players' names in seating order."""
    return tuple(p.name for p in game.players)


def round_state(game: Game, number: int) -> RoundState:
    """One round of ``game``, scored alone (what a write needs: no other round is scored)."""
    if not 1 <= number <= ROUNDS:
        raise NotFound(f"There is no round {number}; a game has rounds 1 to {ROUNDS}.")
    row = next((r for r in game.rounds if r.number == number), None)
    return _round_state(game, names_of(game), parse_rules(game.rules), number, row)


def _round_state(
    game: Game, names: tuple[str, ...], rules: Rules, number: int, row: Round | None
) -> RoundState:
    play = _play_of(row, names) if row is not None and row.entries else None
    return RoundState(
        number=number,
        hand_size=hand_size(number),
        dealer=names[dealer(game.first_dealer, number, len(names))],
        first_player=names[first_player(game.first_dealer, number, len(names))],
        closed=bool(row and row.closed),
        version=row.version if row else 0,
        entered=play is not None,
        play=play,
        result=score_round(play, rules) if play is not None else None,
        challenge_numbers=tuple(c.number for c in row.challenges) if row else (),
    )


def _play_of(row: Round, names: tuple[str, ...]) -> Play:
    """A stored round as game/ sees it: hands in seating order, challenges with their rulings."""
    hands = tuple(
        Hand(
            name=names[e.seat],
            words=tuple(tuple(BY_NAME[c] for c in w) for w in e.words),
            unused=tuple(BY_NAME[c] for c in e.unused),
            went_out=e.went_out,
        )
        for e in row.entries
    )
    challenges = tuple(
        Challenge(
            names[c.by_seat],
            names[c.player_seat],
            c.word,
            recorded=Ruling(c.legal, c.decided_by, c.reason),
        )
        for c in row.challenges
    )
    return Play(hands, challenges, row.number)


# --- writing ---------------------------------------------------------------------------


def create_game(names: list[str], first_dealer: int, rules: Rules) -> tuple[Game, str]:
    """Store a new game; return it and its edit token (shown once, stored hashed)."""
    check_names(names, "players[{i}]")
    if not 0 <= first_dealer < len(names):
        raise RuleError(
            f"The first dealer must be one of the {len(names)} seats (0 to {len(names) - 1}).",
            "first_dealer",
        )
    token = new_secret()
    game = Game(
        id=secrets.token_urlsafe(16),
        edit_token_hash=token_hash(token),
        first_dealer=first_dealer,
        rules=rules.as_dict(),
    )
    game.players = [Player(seat=i, name=n) for i, n in enumerate(names)]
    db.session.add(game)
    db.session.commit()
    return game, token


def save_round(
    game: Game, number: int, play: Play, judge: Judge, expected_version: int | None = None
) -> None:
    """Replace what was entered for open round ``number`` with ``play``, scored and checked."""
    current = round_state(game, number)
    names, rules = names_of(game), parse_rules(game.rules)
    if number > 1 and not any(r.number == number - 1 and r.closed for r in game.rounds):
        raise RuleError(
            f"Round {number - 1} is still open; close it before entering round {number}.",
            "round",
        )
    _check_open(current)
    _check_version(current, expected_version)
    play, sent_as = _seated(play, names)
    play = replace(play, round_number=number)
    try:
        result = score_round(play, rules, judge)  # refuses a round against the rules
    except RuleError as exc:  # point at the player as the request listed them
        exc.where = re.sub(
            r"^players\[(\d+)\]", lambda m: f"players[{sent_as[int(m[1])]}]", exc.where
        )
        raise
    row = _round_row(game, number)
    if row.id is not None:  # delete the old rows first: (round, seat), (round, number) are unique
        row.entries.clear()
        row.challenges.clear()
        db.session.flush()
    row.entries = [
        Entry(
            seat=seat,
            words=[[c.name for c in w] for w in hand.words],
            unused=[c.name for c in hand.unused],
            went_out=hand.went_out,
        )
        for seat, hand in enumerate(play.hands)
    ]
    seat_of = {n: i for i, n in enumerate(names)}
    made = row.challenges_made or 0
    row.challenges = [
        _challenge_row(made + k + 1, r.challenge, r.ruling, seat_of, rules.lexicon)
        for k, r in enumerate(result.challenges)
    ]
    row.challenges_made = made + len(result.challenges)
    _commit(game, row)


def add_challenge(game: Game, number: int, challenge: Challenge, judge: Judge) -> int:
    """Rule on a new challenge in open round ``number`` and keep it; return its number."""
    current = round_state(game, number)
    rules = parse_rules(game.rules)
    if current.play is None:
        raise RuleError(f"Nothing is entered for round {number} yet.", "round")
    _check_open(current)
    play = replace(current.play, challenges=(*current.play.challenges, challenge))
    prefix = f"challenges[{len(play.challenges) - 1}]"
    try:
        result = score_round(play, rules, judge)  # refuses own word, twice, no such word
    except RuleError as exc:  # point at the fields of the one challenge sent
        if exc.where.startswith(prefix):
            exc.where = exc.where.removeprefix(prefix).lstrip(".")
        raise
    ruled = result.challenges[-1]
    row = _round_row(game, number)
    n = (row.challenges_made or 0) + 1
    row.challenges_made = n
    seat_of = {name: i for i, name in enumerate(names_of(game))}
    row.challenges.append(_challenge_row(n, ruled.challenge, ruled.ruling, seat_of, rules.lexicon))
    _commit(game, row)
    return n


def withdraw_challenge(game: Game, number: int, n: int) -> None:
    """Take challenge ``n`` of open round ``number`` back."""
    current = round_state(game, number)
    _check_open(current)
    row = _round_row(game, number)
    found = next((c for c in row.challenges if c.number == n), None)
    if found is None:
        raise NotFound(f"Round {number} has no challenge number {n}.")
    row.challenges.remove(found)
    _commit(game, row)


def close_round(game: Game, number: int) -> None:
    """Close round ``number``: its scores count on the leaderboard."""
    current = round_state(game, number)
    if current.closed:
        raise RuleError(f"Round {number} is already closed.", "round")
    if current.play is None:
        raise RuleError(f"Enter everyone's cards for round {number} before closing it.", "round")
    _commit(game, _round_row(game, number, closed=True))


def reopen_round(game: Game, number: int) -> None:
    """Reopen a closed round to fix a mistake; it leaves the leaderboard until closed again."""
    current = round_state(game, number)
    if not current.closed:
        raise RuleError(f"Round {number} is not closed.", "round")
    _commit(game, _round_row(game, number, closed=False))


def set_house_word(game: Game, word: str, allowed: bool) -> None:
    """Allow or ban ``word`` in this game; it overrides the lexicon."""
    key = word.strip().lower()
    if not (key.isascii() and key.isalpha()) or not 2 <= len(key) <= 40:
        raise RuleError("A house word is 2 to 40 letters a-z, without spaces or hyphens.", "word")
    found = next((h for h in game.house_words if h.word == key), None)
    if found is None:
        game.house_words.append(HouseWord(word=key, allowed=allowed))
    else:
        found.allowed = allowed
    _commit(game)


def remove_house_word(game: Game, word: str) -> None:
    """Forget a house word: the lexicon decides again."""
    key = word.strip().lower()
    found = next((h for h in game.house_words if h.word == key), None)
    if found is None:
        raise NotFound(f"'{key[:40]}' is not a house word of this game.")
    game.house_words.remove(found)
    _commit(game)


def _check_open(current: RoundState) -> None:
    if current.closed:
        raise RuleError(f"Round {current.number} is closed; reopen it to change anything.", "round")


def _check_version(current: RoundState, expected: int | None) -> None:
    if expected is not None and expected != current.version:
        raise Conflict(
            f"Round {current.number} was changed on another phone since this page was loaded; "
            "here is what is saved now. Enter your change again if it is still needed."
        )


def _seated(play: Play, names: tuple[str, ...]) -> tuple[Play, list[int]]:
    """The hands in seating order, each player exactly once, and where each seat was sent."""
    by_name = {}
    sent_at = {}
    for i, hand in enumerate(play.hands):
        match = next((n for n in names if n.casefold() == hand.name.casefold()), None)
        if match is None:
            raise RuleError(
                f"'{hand.name}' is not a player of this game ({', '.join(names)}).",
                f"players[{i}].name",
            )
        if match in by_name:
            raise RuleError(f"{match} is entered twice.", f"players[{i}].name")
        by_name[match] = replace(hand, name=match)
        sent_at[match] = i
    missing = [n for n in names if n not in by_name]
    if missing:
        raise RuleError(
            f"Enter the cards of every player; missing: {', '.join(missing)}.", "players"
        )
    return replace(play, hands=tuple(by_name[n] for n in names)), [sent_at[n] for n in names]


def _round_row(game: Game, number: int, closed: bool | None = None) -> Round:
    row = next((r for r in game.rounds if r.number == number), None)
    if row is None:
        row = Round(number=number)
        game.rounds.append(row)
    if closed is not None:
        row.closed = closed
    return row


def _challenge_row(
    number: int, challenge: Challenge, ruling: Ruling, seat_of: dict[str, int], lexicon: str
) -> ChallengeRow:
    return ChallengeRow(
        number=number,
        by_seat=seat_of[challenge.by],
        player_seat=seat_of[challenge.player],
        word=challenge.word,
        legal=ruling.legal,
        decided_by=ruling.decided_by,
        reason=ruling.reason[:80],
        lexicon=lexicon,
    )


def _commit(game: Game, row: Round | None = None) -> None:
    """Bump the versions and commit once; a concurrent change of the round is a Conflict.

    The round's version moves by a compare-and-set in the same transaction, so of
    two saves based on the same version exactly one commits.
    """
    game.version = Game.version + 1  # in SQL: two writers can't lose an increment
    game.updated_at = datetime.now(UTC).replace(tzinfo=None)
    game_id = game.id
    try:
        if row is not None and row.id is not None:
            seen = row.version  # as loaded when this request began
            moved = db.session.execute(
                update(Round)
                .where(Round.id == row.id, Round.version == seen)
                .values(version=seen + 1)
                .execution_options(synchronize_session=False)
            )
            if moved.rowcount != 1:
                raise IntegrityError("round version moved", None, Exception())
        db.session.commit()
        _forget_version(game_id)  # the views ask the database again from now on
    except IntegrityError:
        db.session.rollback()
        raise Conflict(
            "This round was just changed on another phone; here is what is saved now."
        ) from None


# --- solitaire -------------------------------------------------------------------------


def solitaire_game(row: Solitaire) -> solitaire.Game:
    """A stored solitaire game as game/ sees it."""
    practice = solitaire.practice_deck(row.practice_seed) if row.practice_seed is not None else None
    return solitaire.Game(
        face_up=tuple(BY_NAME[c] for c in row.face_up),
        steps=tuple(
            solitaire.Step(
                s["kind"], tuple(s.get("piles", ())), BY_NAME[s["card"]] if s.get("card") else None
            )
            for s in row.steps
        ),
        practice=tuple(practice) if practice is not None else None,
    )


def get_solitaire(game_id: str) -> Solitaire:
    found = db.session.get(Solitaire, game_id[:64])
    if found is None:
        raise NotFound("There is no solitaire game at this address; check the link.")
    return found


def create_solitaire(
    face_up: list[Card] | None, min_word: str, lexicon: str, seed: int | None = None
) -> tuple[Solitaire, str]:
    """Store a new solitaire game (``face_up`` None: practice from a shuffled deck)."""
    if face_up is None:
        seed = secrets.randbelow(2**31) if seed is None else seed
        game = solitaire.new_practice(seed)
    else:
        seed = None
        game = solitaire.Game(tuple(face_up))
        solitaire.deal(game.face_up)  # refuses the wrong number of cards or copies
    token = new_secret()
    row = Solitaire(
        id=secrets.token_urlsafe(16),
        edit_token_hash=token_hash(token),
        face_up=[c.name for c in game.face_up],
        practice_seed=seed,
        steps=[],
        min_word=min_word,
        lexicon=lexicon,
    )
    db.session.add(row)
    db.session.commit()
    return row, token


def save_solitaire(row: Solitaire, game: solitaire.Game) -> None:
    """Keep the game's steps (all of them: the row is rewritten whole)."""
    row.steps = [s.as_dict() for s in game.steps]
    row.version = Solitaire.version + 1
    row.updated_at = datetime.now(UTC).replace(tzinfo=None)
    db.session.commit()
