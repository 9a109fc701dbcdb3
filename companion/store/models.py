"""The stored game: SQLAlchemy 2 typed models. Entries only; scores are always derived.

A round keeps what the players laid down (``Entry``) and the challenges with
the ruling that decided them (``Challenge``); nothing stores a computed score
that could disagree with the entries.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, LargeBinary, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from companion.game.rules import MinWord
from companion.store.db import Model


def now() -> datetime:
    """The time now, in UTC, as the columns keep it (without a zone)."""
    return datetime.now(UTC).replace(tzinfo=None)


class Game(Model):
    """One game at one table: players in seating order, house rules, eight rounds."""

    __tablename__ = "game"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    """Random, unguessable: it is the view link."""
    edit_token_hash: Mapped[str] = mapped_column(String(64))
    """SHA-256 of the edit token; the token itself is shown once and never stored."""
    first_dealer: Mapped[int]
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(default=1)
    """Bumped by every change: the ETag of the views, and how a stale save is caught."""
    created_at: Mapped[datetime] = mapped_column(default=now)
    updated_at: Mapped[datetime] = mapped_column(default=now, index=True)
    group_id: Mapped[str | None] = mapped_column(
        ForeignKey("groups.id", ondelete="SET NULL"), index=True, default=None
    )
    """The table (group of people) this game was started from; None for a game started
    on its own. A deleted table leaves its games, on their own."""
    archived: Mapped[bool] = mapped_column(default=False, server_default="0")
    """Put away: off the home page's list, still counted in its table's records."""
    rematch_id: Mapped[str | None] = mapped_column(String(32), default=None)
    """The game started as this one's rematch: a second tap on rematch opens it again."""
    keep_photos: Mapped[bool] = mapped_column(default=False, server_default="0")
    """The table keeps a photo of each hand with its round (``RoundPhoto``), if one is sent."""

    group: Mapped[Group | None] = relationship(back_populates="games")
    players: Mapped[list[Player]] = relationship(
        back_populates="game", order_by="Player.seat", cascade="all, delete-orphan"
    )
    rounds: Mapped[list[Round]] = relationship(
        back_populates="game", order_by="Round.number", cascade="all, delete-orphan"
    )
    house_words: Mapped[list[HouseWord]] = relationship(
        back_populates="game", order_by="HouseWord.word", cascade="all, delete-orphan"
    )
    photos: Mapped[list[RoundPhoto]] = relationship(
        back_populates="game", cascade="all, delete-orphan", passive_deletes=True
    )
    """Never loaded with the game: deleting it leaves them to the database's ON DELETE
    CASCADE (their bytes are not read to be deleted)."""


class Group(Model):
    """A table of people who play together again and again: its members, its games, and
    the records derived from them (nothing stored that could disagree with the games)."""

    __tablename__ = "groups"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    """Random, unguessable: it is the view link."""
    edit_token_hash: Mapped[str] = mapped_column(String(64))
    """SHA-256 of the edit token; the token itself is shown once and never stored."""
    name: Mapped[str] = mapped_column(String(60))
    alternate_bonus: Mapped[bool] = mapped_column(default=False, server_default="0")
    """Two-player games: the one bonus switches (longest word, most words) game by game."""
    archived: Mapped[bool] = mapped_column(default=False, server_default="0")
    version: Mapped[int] = mapped_column(default=1)
    created_at: Mapped[datetime] = mapped_column(default=now)
    updated_at: Mapped[datetime] = mapped_column(default=now)

    members: Mapped[list[Member]] = relationship(
        back_populates="group", order_by="Member.position", cascade="all, delete-orphan"
    )
    games: Mapped[list[Game]] = relationship(back_populates="group", passive_deletes=True)


class Member(Model):
    """A person of a table: the same person in every game of it, whatever seat."""

    __tablename__ = "member"

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[str] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"), index=True)
    position: Mapped[int]
    """Their place in the table's list (the seating of its next game, until changed)."""
    name: Mapped[str] = mapped_column(String(40))

    group: Mapped[Group] = relationship(back_populates="members")


class Player(Model):
    """A seat at the table."""

    __tablename__ = "player"
    __table_args__ = (UniqueConstraint("game_id", "seat"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int]
    name: Mapped[str] = mapped_column(String(40))
    handicap: Mapped[int] = mapped_column(default=0, server_default="0")
    """Points this player starts the game with (a head start at a mixed-skill table)."""
    seat_token_hash: Mapped[str | None] = mapped_column(String(64), default=None)
    """SHA-256 of the seat token of the phone that claimed this seat; None while unclaimed."""
    claimed_at: Mapped[datetime | None] = mapped_column(default=None)
    member_id: Mapped[int | None] = mapped_column(
        ForeignKey("member.id", ondelete="SET NULL"), index=True, default=None
    )
    """The table's member who sat here; None for a guest or a game started on its own."""

    game: Mapped[Game] = relationship(back_populates="players")


class Round(Model):
    """One of the eight rounds, once something was entered for it."""

    __tablename__ = "round"
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    closed: Mapped[bool] = mapped_column(default=False)
    version: Mapped[int] = mapped_column(default=1)
    challenges_made: Mapped[int] = mapped_column(default=0, server_default="0")
    """How many challenges this round ever had: a withdrawn one's number is never reused."""

    game: Mapped[Game] = relationship(back_populates="rounds")
    entries: Mapped[list[Entry]] = relationship(
        back_populates="round", order_by="Entry.seat", cascade="all, delete-orphan"
    )
    challenges: Mapped[list[Challenge]] = relationship(
        back_populates="round", order_by="Challenge.number", cascade="all, delete-orphan"
    )


class Entry(Model):
    """What one player laid down in one round: words as card names, leftovers, going out.

    A round is scored once every seat has its entry (each phone saves its own)."""

    __tablename__ = "entry"
    __table_args__ = (UniqueConstraint("round_id", "seat"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("round.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int]
    words: Mapped[list[list[str]]] = mapped_column(JSON)
    unused: Mapped[list[str]] = mapped_column(JSON)
    went_out: Mapped[bool] = mapped_column(default=False)
    version: Mapped[int] = mapped_column(default=1, server_default="1")
    """Bumped by every save of this hand: how a save based on a stale page of this seat is
    caught, while saves of the other seats go through."""

    round: Mapped[Round] = relationship(back_populates="entries")


class Challenge(Model):
    """A challenge with the ruling that decided it, kept so it can be seen later."""

    __tablename__ = "challenge"
    __table_args__ = (UniqueConstraint("round_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("round.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    """Stable within the round: the <n> of DELETE .../challenges/<n>."""
    by_seat: Mapped[int]
    player_seat: Mapped[int]
    word: Mapped[int]
    legal: Mapped[bool]
    decided_by: Mapped[str] = mapped_column(String(20))
    reason_code: Mapped[str] = mapped_column(String(40))
    """Why, as a code (``proper_noun``, ``table_legal``...): the words are rendered when shown."""
    lexicon: Mapped[str] = mapped_column(String(40))
    advice_legal: Mapped[bool | None] = mapped_column(default=None)
    advice_reason: Mapped[str | None] = mapped_column(String(40), default=None)
    """The dictionary's verdict, kept when the table votes (``decided_by`` is ``pending``
    until the vote is decided, then ``vote`` or ``scorekeeper``); None when the
    dictionary or the table's own ruling decided."""
    created_at: Mapped[datetime] = mapped_column(default=now)

    round: Mapped[Round] = relationship(back_populates="challenges")
    votes: Mapped[list[Vote]] = relationship(
        back_populates="challenge", order_by="Vote.seat", cascade="all, delete-orphan"
    )


class Vote(Model):
    """One seat's vote on a challenge the table settles by vote: legal or not."""

    __tablename__ = "vote"
    __table_args__ = (UniqueConstraint("challenge_id", "seat"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    challenge_id: Mapped[int] = mapped_column(
        ForeignKey("challenge.id", ondelete="CASCADE"), index=True
    )
    seat: Mapped[int]
    legal: Mapped[bool]
    created_at: Mapped[datetime] = mapped_column(default=now)

    challenge: Mapped[Challenge] = relationship(back_populates="votes")


class HouseWord(Model):
    """A word the group allows or bans; it overrides the lexicon."""

    __tablename__ = "house_word"
    __table_args__ = (UniqueConstraint("game_id", "word"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    word: Mapped[str] = mapped_column(String(40))
    allowed: Mapped[bool]

    game: Mapped[Game] = relationship(back_populates="house_words")


class RoundPhoto(Model):
    """The photo of one hand of one round, as a phone sent it with that hand: kept only in
    a game that keeps photos, shrunk and stripped of its metadata (``vision.photo``). A new
    photo of the same hand replaces it; it goes with its game."""

    __tablename__ = "round_photo"
    __table_args__ = (UniqueConstraint("game_id", "round_number", "seat"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    round_number: Mapped[int]
    seat: Mapped[int]
    jpeg: Mapped[bytes] = mapped_column(LargeBinary, deferred=True)
    """The JPEG's bytes: read only when the photo itself is asked for."""
    size: Mapped[int]
    taken_at: Mapped[datetime] = mapped_column(default=now)
    """When it was sent (its camera's own time is not kept)."""

    game: Mapped[Game] = relationship(back_populates="photos")


class Solitaire(Model):
    """A game of Solitaire Quiddler: the opening face-up cards and every step since."""

    __tablename__ = "solitaire"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    edit_token_hash: Mapped[str] = mapped_column(String(64))
    face_up: Mapped[list[str]] = mapped_column(JSON)
    practice_seed: Mapped[int | None]
    """Set for practice with a virtual deck: the Companion deals and reveals."""
    steps: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)
    min_word: Mapped[MinWord] = mapped_column(String(10), default="cards")
    lexicon: Mapped[str] = mapped_column(String(40), default="standard")
    version: Mapped[int] = mapped_column(default=1)
    created_at: Mapped[datetime] = mapped_column(default=now)
    updated_at: Mapped[datetime] = mapped_column(default=now)
