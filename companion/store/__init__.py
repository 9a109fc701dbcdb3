"""Loading a stored game as game/ objects, and writing its rows atomically. No rule logic.

A write starts by locking the row it changes (``locked_game``, ``locked_solitaire``:
an UPDATE of that row, so writers to one game wait for each other, on SQLite and
on PostgreSQL alike), reads it fresh inside the transaction, and ends with
``commit``: a refused request rolls back and leaves the database as it was. Every
write bumps the game's version (the ETag of every view) and the round's version
(how a save based on a stale page is caught).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import threading
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import TypeVar

from cachetools import LRUCache, cached
from sqlalchemy import delete, select, update
from sqlalchemy.engine import CursorResult
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import joinedload, selectinload

from companion.game import solitaire
from companion.game.challenges import PENDING, Ruling, Verdict, stalled
from companion.game.deck import BY_NAME
from companion.game.errors import Conflict
from companion.game.errors import NotFound as NotFound  # the web raises store.NotFound
from companion.game.parse import parse_rules
from companion.game.play import Challenge, Hand, Play
from companion.game.rules import MinWord, Rules
from companion.game.scoring import BonusRace, ChallengeResult, RoundScore, bonus_race, score_round
from companion.game.standings import (
    Standing,
    dealer,
    first_player,
    running_totals,
    standings,
    winners,
)
from companion.store.db import db
from companion.store.models import Challenge as ChallengeRow
from companion.store.models import (
    Entry,
    Game,
    Group,
    HouseWord,
    Player,
    Round,
    RoundPhoto,
    Solitaire,
    Vote,
    now,
)

STORABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
"""What the id of a stored game or solitaire game can be (``secrets.token_urlsafe``, in a
column of 32 characters). Any other id is no game's: it is not found without a query
(PostgreSQL refuses text holding a NUL, a 500 if it were sent)."""


def storable_id(game_id: str) -> bool:
    """Whether ``game_id`` could be the id of a stored game or solitaire game."""
    return STORABLE_ID.fullmatch(game_id) is not None


Row = TypeVar("Row", Game, Solitaire, Group)


def new_secret() -> str:
    """A random URL-safe secret of 192 bits (edit tokens)."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    """How an edit token is stored: its SHA-256 (the token is random, so no salt is needed)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def can_edit(row: Game | Solitaire | Group, token: str | None) -> bool:
    """Whether ``token`` is the edit token of ``row`` (compared in constant time)."""
    return bool(token) and hmac.compare_digest(token_hash(token or ""), row.edit_token_hash)


# --- reading ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatState:
    """One player's hand in one round: saved on its own, from that player's phone."""

    seat: int
    name: str
    entered: bool
    version: int
    """0 until the hand is first saved; bumped by every save that changes it."""
    hand: Hand | None


@dataclass(frozen=True)
class RoundState:
    """One round as the pages and the API show it, scored through the one scoring path
    once every seat is in (``play`` and ``result`` are None until then)."""

    number: int
    hand_size: int
    dealer: str
    first_player: str
    closed: bool
    version: int
    entered: bool
    """Every seat is in: the round is scored."""
    play: Play | None
    result: RoundScore | None
    challenge_numbers: tuple[int, ...]
    seats: tuple[SeatState, ...] = ()
    race: BonusRace | None = None
    """The bonus to beat, once any seat is in, while the round is open."""
    challenge_ruling: str = "dictionary"
    """How the game settles a challenge: the dictionary, or the table's vote."""

    def stalled(self, ruled: ChallengeResult) -> bool:
        """The table has all voted on ``ruled`` and it is still undecided (a tie)."""
        votes = [legal for _, legal in ruled.challenge.votes]
        return ruled.pending and stalled(votes, len(self.seats), self.challenge_ruling)

    @property
    def started(self) -> bool:
        """Some seat is in."""
        return any(s.entered for s in self.seats)

    @property
    def waiting_for(self) -> tuple[str, ...]:
        """The players whose hand is not in yet, in seating order."""
        return tuple(s.name for s in self.seats if not s.entered)

    @property
    def went_out(self) -> str | None:
        if self.play is None:
            return None
        return next((h.name for h in self.play.hands if h.went_out), None)


@dataclass(frozen=True)
class GameState:
    """A whole game, derived from its stored entries: plain values, read in one transaction."""

    id: str
    version: int
    names: tuple[str, ...]
    rules: Rules
    rounds: tuple[RoundState, ...]
    """Every round of the game, entered or not."""
    table: tuple[Standing, ...]
    house_words: dict[str, bool]
    claimed: tuple[bool, ...] = ()
    """Per seat: a phone holds it."""
    handicap: tuple[int, ...] = ()
    """Per seat: the points that player started with."""
    keep_photos: bool = False
    """The game keeps a photo of each hand sent with it."""
    photos: frozenset[tuple[int, int]] = frozenset()
    """The (round, seat) of every hand with a photo kept."""

    def running(self) -> list[list[int]]:
        """Each seat's running total from its handicap after each closed round, as the
        leaderboard, its chart and the exports show it (the ``total`` floor applied)."""
        closed = [[p.score for p in r.result.players] for r in self.rounds if r.closed and r.result]
        start = self.handicap or (0,) * len(self.names)
        return running_totals(closed, start, self.rules.floor == "total")

    @property
    def next_round(self) -> int | None:
        return next((r.number for r in self.rounds if not r.closed), None)

    @property
    def closed_rounds(self) -> int:
        return sum(1 for r in self.rounds if r.closed)

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
        """Round ``number``, or NotFound."""
        _check_round_number(self.rules, number)
        return self.rounds[number - 1]


def _check_round_number(rules: Rules, number: int) -> None:
    if number not in rules.round_numbers():
        raise NotFound("no_such_round", "", number=number, rounds=rules.rounds)


def get_game(game_id: str) -> Game:
    """The stored game ``game_id`` with everything it holds (players, house words, rounds,
    entries and challenges), or NotFound."""
    if not storable_id(game_id):
        raise NotFound("no_such_game")
    query = (
        select(Game)
        .where(Game.id == game_id)
        .options(
            # Three queries, not six: each is a round trip, and a busy worker waits for
            # every one (the players with the game; every round with its entries and
            # challenges, a few rows each).
            joinedload(Game.players),
            selectinload(Game.house_words),
            selectinload(Game.rounds).joinedload(Round.entries),
            selectinload(Game.rounds).joinedload(Round.challenges).selectinload(ChallengeRow.votes),
        )
    )
    game = db.session.scalars(query).unique().first()
    if game is None:
        raise NotFound("no_such_game")
    return game


def game_version(game_id: str) -> int:
    """Just the version of a game, or NotFound: enough to answer a conditional GET with
    304, or to serve a kept page (one indexed read of one column)."""
    version = None
    if storable_id(game_id):
        version = db.session.scalar(select(Game.version).where(Game.id == game_id))
    if version is None:
        raise NotFound("no_such_game")
    return version


@dataclass(frozen=True)
class GameSummary:
    """A line of the games list."""

    id: str
    names: tuple[str, ...]
    closed: int
    rounds: int
    updated_at: datetime


def list_games(ids: Collection[str], limit: int = 50) -> list[GameSummary]:
    """The games of ``ids`` (those one browser knows) not archived, the most recently
    changed first."""
    if not ids:
        return []
    games = db.session.scalars(
        select(Game)
        .where(Game.id.in_(sorted(ids)[:200]), Game.archived.is_(False))
        .options(selectinload(Game.players), selectinload(Game.rounds))
        .order_by(Game.updated_at.desc())
        .limit(limit)
    )
    return [
        GameSummary(
            g.id,
            names_of(g),
            sum(1 for r in g.rounds if r.closed),
            rules_of(g).rounds,
            g.updated_at,
        )
        for g in games
    ]


def rules_of(game: Game) -> Rules:
    """The house rules stored with ``game`` (stored by this app, so they parse)."""
    return parse_rules(game.rules)


KEPT_STATES = 256
"""Scored games kept per process: those whose phones are asking for their new views."""


def state_at(game_id: str, version: int) -> GameState:
    """The scored state of ``game_id`` as the views at ``version`` show it: computed once
    per process and version, for the board and the page in every language. (If the game
    moved on meanwhile, the newer state is what is computed; it is kept under the version
    asked for, which the next write leaves behind.)"""
    return _scored(db.engine.url.render_as_string(), game_id, version)


@cached(LRUCache(KEPT_STATES), lock=threading.Lock())
def _scored(database: str, game_id: str, version: int) -> GameState:
    """``state_at``, kept per database (tests run many), game and version."""
    return state_of(get_game(game_id))


def state_of(game: Game) -> GameState:
    """Score every entered round of ``game`` and rank the players on the closed ones."""
    names, rules = names_of(game), rules_of(game)
    stored = {r.number: r for r in game.rounds}
    rounds = [_round_state(game, names, rules, n, stored.get(n)) for n in rules.round_numbers()]
    closed = [[p.score for p in r.result.players] for r in rounds if r.closed and r.result]
    handicap = tuple(p.handicap or 0 for p in game.players)
    return GameState(
        game.id,
        game.version,
        names,
        rules,
        tuple(rounds),
        tuple(standings(names, closed, handicap, rules.floor == "total")),
        house_words_of(game),
        tuple(p.seat_token_hash is not None for p in game.players),
        handicap,
        game.keep_photos,
        photo_keys(game) if game.keep_photos else frozenset(),
    )


def photo_keys(game: Game) -> frozenset[tuple[int, int]]:
    """The (round, seat) of every photo kept of ``game``'s hands (one query; no bytes)."""
    rows = db.session.execute(
        select(RoundPhoto.round_number, RoundPhoto.seat).where(RoundPhoto.game_id == game.id)
    )
    return frozenset((number, seat) for number, seat in rows)


def photo_of(game_id: str, number: int, seat: int) -> bytes | None:
    """The JPEG kept of seat ``seat``'s hand in round ``number`` of ``game_id``, if any (a
    game that no longer keeps photos shows none)."""
    if not storable_id(game_id):
        return None
    return db.session.scalar(
        select(RoundPhoto.jpeg)
        .join(Game, Game.id == RoundPhoto.game_id)
        .where(
            RoundPhoto.game_id == game_id,
            RoundPhoto.round_number == number,
            RoundPhoto.seat == seat,
            Game.keep_photos.is_(True),
        )
    )


def names_of(game: Game) -> tuple[str, ...]:
    """The players' names in seating order."""
    return tuple(p.name for p in game.players)


def house_words_of(game: Game) -> dict[str, bool]:
    """The game's house words: allowed (True) or banned."""
    return {h.word: h.allowed for h in game.house_words}


def round_state(game: Game, number: int) -> RoundState:
    """One round of ``game``, scored alone (what a write needs: no other round is scored)."""
    rules = rules_of(game)
    _check_round_number(rules, number)
    return _round_state(game, names_of(game), rules, number, round_row(game, number))


def _round_state(
    game: Game, names: tuple[str, ...], rules: Rules, number: int, row: Round | None
) -> RoundState:
    entries = {e.seat: e for e in row.entries} if row is not None else {}
    seats = tuple(_seat_state(i, name, entries.get(i)) for i, name in enumerate(names))
    complete = row is not None and len(entries) == len(names)
    play = _play_of(row, seats) if complete and row is not None else None
    race = None
    if entries and not (row is not None and row.closed):  # shown only while the round is open
        race = bonus_race(tuple(s.hand for s in seats if s.hand is not None), len(names), rules)
    return RoundState(
        number=number,
        hand_size=rules.hand_size(number),
        dealer=names[dealer(game.first_dealer, number, len(names))],
        first_player=names[first_player(game.first_dealer, number, len(names))],
        closed=bool(row and row.closed),
        version=row.version if row else 0,
        entered=play is not None,
        play=play,
        result=score_round(play, rules) if play is not None else None,
        challenge_numbers=tuple(c.number for c in row.challenges) if row else (),
        seats=seats,
        race=race,
        challenge_ruling=rules.challenge_ruling,
    )


def _seat_state(seat: int, name: str, entry: Entry | None) -> SeatState:
    """One seat of a round: its stored hand as game/ sees it, if it is in."""
    if entry is None:
        return SeatState(seat, name, False, 0, None)
    words = tuple(tuple(BY_NAME[c] for c in w) for w in entry.words)
    hand = Hand(name, words, tuple(BY_NAME[c] for c in entry.unused), entry.went_out)
    return SeatState(seat, name, True, entry.version, hand)


def _play_of(row: Round, seats: tuple[SeatState, ...]) -> Play:
    """A stored round as game/ sees it: hands in seating order, challenges with their rulings."""
    hands = tuple(s.hand for s in seats if s.hand is not None)
    names = tuple(s.name for s in seats)
    challenges = tuple(
        Challenge(
            names[c.by_seat],
            names[c.player_seat],
            c.word,
            recorded=Ruling(c.legal, c.decided_by, c.reason_code),
            advice=(
                Verdict(c.advice_legal, c.advice_reason or "")
                if c.advice_legal is not None
                else None
            ),
            votes=tuple((names[v.seat], v.legal) for v in c.votes),
        )
        for c in row.challenges
    )
    return Play(hands, challenges, row.number)


def round_row(game: Game, number: int) -> Round | None:
    """The stored row of round ``number``, if anything was ever entered for it."""
    return next((r for r in game.rounds if r.number == number), None)


# --- writing ---------------------------------------------------------------------------


@contextmanager
def transaction(conflict: str, **params: object) -> Iterator[None]:
    """One write: committed whole when the block ends, rolled back whole when it raises.

    A clash the database itself detects (two phones creating the same round or house
    word at once, a lock not granted in time) is a ``Conflict`` with code ``conflict``.
    """
    try:
        yield
        db.session.commit()
    except (IntegrityError, OperationalError) as exc:
        db.session.rollback()
        if isinstance(exc, OperationalError) and not _clashed(exc):
            raise  # a refused or broken connection is not "changed on another phone": 503
        raise Conflict(conflict, "", **params) from None
    except BaseException:  # a refusal, or anything else: nothing of it is kept
        db.session.rollback()
        raise


LOCK_CLASHES = ("locked", "busy", "deadlock", "could not serialize", "lock timeout")
"""What a database says when a lock was not granted in time (SQLite, PostgreSQL)."""


def _clashed(exc: OperationalError) -> bool:
    """Whether ``exc`` is a lock not granted (another writer), not a broken database."""
    return any(word in str(exc.orig).lower() for word in LOCK_CLASHES)


def lock_row(model: type[Game] | type[Solitaire] | type[Group], row_id: str, missing: str) -> None:
    """Lock one row for this transaction: an UPDATE of it, so a second writer of the same
    game (or table) waits until this transaction ends, then reads what it wrote; NotFound
    (code ``missing``) if none."""
    if not storable_id(row_id):
        raise NotFound(missing)
    found = db.session.execute(
        update(model)
        .where(model.id == row_id)
        .values(version=model.version)
        .execution_options(synchronize_session=False)
    )
    assert isinstance(found, CursorResult)  # an UPDATE's result: it has a row count
    if found.rowcount != 1:
        raise NotFound(missing)
    db.session.expire_all()  # what this session read before the lock may be stale


def locked_game(game_id: str) -> Game:
    """Lock game ``game_id`` for this transaction and read it fresh, or NotFound."""
    lock_row(Game, game_id, "no_such_game")
    return get_game(game_id)


def touch(game: Game, *changed: Round) -> None:
    """Bump the versions of ``game`` and of the rounds ``changed``, and flush: what the
    state read after this shows is what the commit will store."""
    game.version += 1
    game.updated_at = now()
    for row in changed:
        row.version += 1
    db.session.flush()


def insert_row(model: type[Row], **columns: object) -> tuple[Row, str]:
    """Add a new row of a game, solitaire game or table, with a random id (its view link);
    return it and its edit token (shown once, stored hashed)."""
    token = new_secret()
    row = model(id=secrets.token_urlsafe(16), edit_token_hash=token_hash(token), **columns)
    db.session.add(row)
    db.session.flush()
    return row, token


def insert_game(
    names: list[str],
    first_dealer: int,
    rules: Rules,
    handicap: tuple[int, ...] = (),
    group_id: str | None = None,
    members: tuple[int | None, ...] = (),
    keep_photos: bool = False,
) -> tuple[Game, str]:
    """Add a new game's rows, of table ``group_id`` with its ``members`` per seat (None: a
    guest) when it was started from one, keeping a photo of each hand or not; return it
    and its edit token."""
    start = handicap or (0,) * len(names)
    sat = members or (None,) * len(names)
    players = [
        Player(seat=i, name=n, handicap=h, member_id=m)
        for i, (n, h, m) in enumerate(zip(names, start, sat, strict=True))
    ]
    return insert_row(
        Game,
        first_dealer=first_dealer,
        rules=rules.as_dict(),
        players=players,
        group_id=group_id,
        keep_photos=keep_photos,
    )


def new_round_row(game: Game, number: int) -> Round:
    """The row of round ``number``, added if nothing was entered for it yet."""
    row = round_row(game, number)
    if row is None:
        row = Round(number=number, version=0, challenges_made=0, closed=False)
        game.rounds.append(row)
    return row


def put_hand(row: Round, seat: int, hand: Hand) -> None:
    """Set one seat's hand; its version moves only when what it holds changes (so a
    whole-round save that leaves a hand as it was doesn't make that phone's page stale)."""
    words = [[c.name for c in w] for w in hand.words]
    unused = [c.name for c in hand.unused]
    entry = next((e for e in row.entries if e.seat == seat), None)
    if entry is None:
        row.entries.append(
            Entry(seat=seat, words=words, unused=unused, went_out=hand.went_out, version=1)
        )
    elif (entry.words, entry.unused, entry.went_out) != (words, unused, hand.went_out):
        entry.words, entry.unused, entry.went_out = words, unused, hand.went_out
        entry.version += 1


def put_photo(game: Game, number: int, seat: int, jpeg: bytes) -> None:
    """Keep ``jpeg`` (already shrunk and stripped) as the photo of seat ``seat``'s hand in
    round ``number``, replacing the one kept before. In the transaction of that hand's
    save, under the game's lock: two saves of one hand can't both add a row."""
    found = db.session.scalar(
        select(RoundPhoto).where(
            RoundPhoto.game_id == game.id,
            RoundPhoto.round_number == number,
            RoundPhoto.seat == seat,
        )
    )
    if found is None:
        db.session.add(
            RoundPhoto(game_id=game.id, round_number=number, seat=seat, jpeg=jpeg, size=len(jpeg))
        )
    else:
        found.jpeg, found.size, found.taken_at = jpeg, len(jpeg), now()


def drop_photos(game: Game) -> None:
    """Delete every photo kept of ``game``'s hands (before the game itself: its rows go by
    ON DELETE CASCADE too, but this needs no foreign keys switched on, and reads no bytes)."""
    db.session.execute(delete(RoundPhoto).where(RoundPhoto.game_id == game.id))


def claim_seat(game: Game, seat: int) -> str:
    """Give seat ``seat`` (unclaimed, checked) to a phone; return its secret (stored hashed)."""
    token = new_secret()
    player = game.players[seat]
    player.seat_token_hash = token_hash(token)
    player.claimed_at = now()
    return token


def release_seat(game: Game, seat: int) -> None:
    """Free seat ``seat``: its phone's secret no longer works, another phone may claim it."""
    player = game.players[seat]
    player.seat_token_hash = None
    player.claimed_at = None


def seat_of_token(game: Game, token: str | None) -> int | None:
    """The seat whose secret ``token`` is, if any (compared in constant time)."""
    if not token:
        return None
    digest = token_hash(token)
    found = None
    for p in game.players:
        if p.seat_token_hash is not None and hmac.compare_digest(digest, p.seat_token_hash):
            found = p.seat
    return found


def put_challenges(row: Round, rulings: tuple[ChallengeResult, ...], lexicon: str) -> None:
    """Replace the challenges of a round; each new one gets a number never used before."""
    if row.id is not None and row.challenges:  # (round, number) is unique
        row.challenges.clear()
        db.session.flush()
    row.challenges = []
    for ruled in rulings:
        add_challenge_row(row, ruled, lexicon)


def add_challenge_row(row: Round, ruled: ChallengeResult, lexicon: str) -> int:
    """Keep one ruled challenge in round ``row`` (decided with ``lexicon``); its number."""
    seat_of = {p.name: p.seat for p in row.game.players}
    challenge, ruling = ruled.challenge, ruled.ruling
    n = (row.challenges_made or 0) + 1
    row.challenges_made = n
    advice = ruled.advice
    row.challenges.append(
        ChallengeRow(
            number=n,
            by_seat=seat_of[challenge.by],
            player_seat=seat_of[challenge.player],
            word=challenge.word,
            legal=ruling.legal,
            decided_by=ruling.decided_by,
            reason_code=ruling.reason,
            lexicon=lexicon,
            advice_legal=advice.legal if advice else None,
            advice_reason=advice.reason if advice else None,
        )
    )
    return n


def challenge_row(row: Round | None, n: int) -> ChallengeRow | None:
    """Challenge number ``n`` of a stored round, if there is one."""
    return next((c for c in row.challenges if c.number == n), None) if row else None


def put_vote(found: ChallengeRow, seat: int, legal: bool) -> None:
    """Keep (or change) seat ``seat``'s vote on an open challenge."""
    vote = next((v for v in found.votes if v.seat == seat), None)
    if vote is None:
        found.votes.append(Vote(seat=seat, legal=legal))
    else:
        vote.legal = legal


def settle(found: ChallengeRow, ruling: Ruling) -> None:
    """Close the vote on a challenge with ``ruling`` (its advice stays as it was)."""
    assert found.decided_by == PENDING
    found.legal, found.decided_by, found.reason_code = (
        ruling.legal,
        ruling.decided_by,
        ruling.reason,
    )


def drop_challenges(row: Round, keys: list[tuple[int, int]]) -> None:
    """Forget the challenges of words ``(seat, word)`` (their word changed); the others keep
    their numbers."""
    for found in [c for c in row.challenges if (c.player_seat, c.word) in keys]:
        row.challenges.remove(found)


def put_house_word(game: Game, word: str, allowed: bool) -> None:
    """Allow or ban ``word`` (already checked) in ``game``."""
    found = next((h for h in game.house_words if h.word == word), None)
    if found is None:
        game.house_words.append(HouseWord(word=word, allowed=allowed))
    else:
        found.allowed = allowed


def drop_house_word(game: Game, word: str) -> None:
    """Forget a house word of ``game``, or NotFound."""
    found = next((h for h in game.house_words if h.word == word), None)
    if found is None:
        raise NotFound("no_such_house_word", "", word=word[:40])
    game.house_words.remove(found)


# --- solitaire -------------------------------------------------------------------------


def solitaire_game(row: Solitaire) -> solitaire.Game:
    """A stored solitaire game as game/ sees it."""
    seed = row.practice_seed
    return solitaire.Game(
        face_up=tuple(BY_NAME[c] for c in row.face_up),
        steps=tuple(
            solitaire.Step(
                s["kind"], tuple(s.get("piles", ())), BY_NAME[s["card"]] if s.get("card") else None
            )
            for s in row.steps
        ),
        practice=solitaire.practice_deck(seed) if seed is not None else None,
    )


def get_solitaire(game_id: str) -> Solitaire:
    """The stored solitaire game ``game_id``, or NotFound."""
    found = db.session.get(Solitaire, game_id) if storable_id(game_id) else None
    if found is None:
        raise NotFound("no_such_solitaire")
    return found


def locked_solitaire(game_id: str) -> Solitaire:
    """Lock solitaire game ``game_id`` for this transaction and read it fresh, or NotFound."""
    lock_row(Solitaire, game_id, "no_such_solitaire")
    return get_solitaire(game_id)


def insert_solitaire(
    game: solitaire.Game, seed: int | None, min_word: MinWord, lexicon: str
) -> tuple[Solitaire, str]:
    """Add a new solitaire game's row; return it and its edit token."""
    cards = [c.name for c in game.face_up]
    return insert_row(
        Solitaire, face_up=cards, practice_seed=seed, min_word=min_word, lexicon=lexicon
    )


def put_steps(row: Solitaire, game: solitaire.Game) -> None:
    """Keep the game's steps (all of them: the row is rewritten whole) and bump its version."""
    row.steps = [s.as_dict() for s in game.steps]
    row.version += 1
    row.updated_at = now()
    db.session.flush()


def new_solitaire_seed() -> int:
    """A seed for a practice deck."""
    return secrets.randbelow(2**31)
