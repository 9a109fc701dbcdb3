"""What the action tests share: hands as a phone types them, the rounds they play, and
``Act``, which runs an action as one request would and reads back what is stored.

``Act(app)(action, *args)`` runs one action in an app context of its own (its own database
session, as one request has). ``rows()`` reads every row of every table through a
connection of its own, so it sees what was committed and nothing else; ``refused(...)``
asserts the refusal a block raises (its class, code, place and parameters, exactly) and
that the stored rows are as before.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, ParamSpec, TypeVar

import pytest
from flask import Flask
from PIL import Image, ImageDraw
from PIL.ExifTags import GPS, IFD, Base
from sqlalchemy import select
from sqlalchemy.sql import Executable

from companion.game.deck import Card
from companion.game.errors import Refusal
from companion.game.parse import parse_cards
from companion.game.play import Hand, Play
from companion.store import GameState, get_game, state_of
from companion.store.db import db
from companion.store.models import Challenge, Entry, Game, HouseWord, Player, Round, Solitaire

P = ParamSpec("P")
T = TypeVar("T")

Rows = dict[str, list[tuple[str, ...]]]

THREE = ("Ann", "Ben", "Cy")


def cards(typed: str) -> tuple[Card, ...]:
    """Cards as a phone types them: ``"cat"`` by letter, ``"qu-i-z"`` by card."""
    return parse_cards(typed, "") if typed else ()


def hand(name: str, *words: str, unused: str = "", out: bool = False) -> Hand:
    """A hand: its words (each typed as ``cards`` reads it), the cards left over, going out."""
    return Hand(name, tuple(cards(w) for w in words), cards(unused), out)


ROUND_1 = Play((hand("Ann", "cat", out=True), hand("Ben", "dog"), hand("Cy", "ox", unused="m")))
"""Round 1 (3 cards): Ann CAT 8+2+3 = 13 and out, Ben DOG 5+2+6 = 13, Cy OX 2+12 = 14 less
M 5 = 9. CAT and DOG tie for the longest word and all three for the most words: no bonus."""
ROUND_1_SCORES = [13, 13, 9]

ROUND_2 = Play(
    (
        hand("Ann", "qu-i-z", unused="m"),
        hand("Ben", "top", unused="a"),
        hand("Cy", "jabs", out=True),
    )
)
"""Round 2 (4 cards): Ann QU-I-Z 25 - M 5 = 20; Ben TOP 11 - A 2 = 9; Cy JABS 26 and out.
QUIZ and JABS tie for the longest word (4 letters), all three for the most words: no bonus."""
ROUND_2_SCORES = [20, 9, 26]


def token_hash(token: str) -> str:
    """How a token is stored: its SHA-256 in hex."""
    return hashlib.sha256(token.encode()).hexdigest()


class Act:
    """Runs the actions as requests do, each in an app context of its own, and reads back
    what is stored."""

    def __init__(self, app: Flask) -> None:
        self.app = app

    def __call__(self, action: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run ``action`` as one request would: its own app context and session."""
        with self.app.app_context():
            return action(*args, **kwargs)

    def read(self, game_id: str) -> GameState:
        """The game as stored now, scored (what the next request would read)."""
        with self.app.app_context():
            return state_of(get_game(game_id))

    def rows(self) -> Rows:
        """Every committed row of every table, sorted: the whole stored state."""
        with self.app.app_context(), db.engine.connect() as conn:
            return {
                table.name: sorted(tuple(map(repr, row)) for row in conn.execute(table.select()))
                for table in db.metadata.sorted_tables
            }

    @contextmanager
    def refused(
        self, kind: type[Refusal], code: str, where: str = "", **params: object
    ) -> Iterator[None]:
        """The block raises exactly a ``kind`` with this code, place and parameters, and
        leaves every stored row as it was."""
        before = self.rows()
        with pytest.raises(Refusal) as caught:
            yield
        error = caught.value
        assert type(error) is kind, error
        assert (error.code, error.where, error.params) == (code, where, params), error
        assert self.rows() == before, f"{error} changed the stored rows"

    def query(self, statement: Executable) -> list[tuple[Any, ...]]:
        """The rows a select gives, as plain tuples."""
        with self.app.app_context():
            return [tuple(row) for row in db.session.execute(statement)]

    def game_row(self, game_id: str) -> tuple[Any, ...]:
        """The game's own row: edit token's hash, first dealer, rules, version."""
        [row] = self.query(
            select(Game.edit_token_hash, Game.first_dealer, Game.rules, Game.version).where(
                Game.id == game_id
            )
        )
        return row

    def players(self, game_id: str) -> list[tuple[Any, ...]]:
        """The seats: (seat, name, seat secret's hash, claimed at some time)."""
        return [
            (seat, name, digest, claimed is not None)
            for seat, name, digest, claimed in self.query(
                select(Player.seat, Player.name, Player.seat_token_hash, Player.claimed_at)
                .where(Player.game_id == game_id)
                .order_by(Player.seat)
            )
        ]

    def round_row(self, game_id: str, number: int) -> tuple[Any, ...] | None:
        """Round ``number``'s row: (closed, version, challenges ever made), or None."""
        found = self.query(
            select(Round.closed, Round.version, Round.challenges_made).where(
                Round.game_id == game_id, Round.number == number
            )
        )
        return found[0] if found else None

    def entries(self, game_id: str, number: int) -> list[tuple[Any, ...]]:
        """The hands stored for round ``number``: (seat, words, unused, went out, version)."""
        return self.query(
            select(Entry.seat, Entry.words, Entry.unused, Entry.went_out, Entry.version)
            .join(Round)
            .where(Round.game_id == game_id, Round.number == number)
            .order_by(Entry.seat)
        )

    def challenges(self, game_id: str, number: int) -> list[tuple[Any, ...]]:
        """The challenges stored for round ``number``: (number, by seat, player seat, word,
        legal, decided by, reason, lexicon)."""
        return self.query(
            select(
                Challenge.number,
                Challenge.by_seat,
                Challenge.player_seat,
                Challenge.word,
                Challenge.legal,
                Challenge.decided_by,
                Challenge.reason_code,
                Challenge.lexicon,
            )
            .join(Round)
            .where(Round.game_id == game_id, Round.number == number)
            .order_by(Challenge.number)
        )

    def house_words(self, game_id: str) -> list[tuple[Any, ...]]:
        """The game's house words: (word, allowed)."""
        return self.query(
            select(HouseWord.word, HouseWord.allowed)
            .where(HouseWord.game_id == game_id)
            .order_by(HouseWord.word)
        )

    def solitaire_row(self, game_id: str) -> tuple[Any, ...]:
        """A solitaire game's row: (edit token's hash, face up, practice seed, steps,
        min word, lexicon, version)."""
        [row] = self.query(
            select(
                Solitaire.edit_token_hash,
                Solitaire.face_up,
                Solitaire.practice_seed,
                Solitaire.steps,
                Solitaire.min_word,
                Solitaire.lexicon,
                Solitaire.version,
            ).where(Solitaire.id == game_id)
        )
        return row


# --- photos of hands ------------------------------------------------------------------------

MODEL = "Pixel Test 8"
"""The camera model the test photo's EXIF names."""


def camera_jpeg(width: int = 3000, height: int = 2000, orientation: int = 1) -> bytes:
    """A phone camera's photo as it arrives: a JPEG of ``width`` x ``height`` pixels (cards on
    a table: flat colours, some edges) whose EXIF names the camera and where it was taken
    (GPS), and the camera's ``orientation`` tag."""
    image = Image.new("RGB", (width, height), (30, 110, 60))
    draw = ImageDraw.Draw(image)
    for i in range(7):
        left = 150 + i * (width - 300) // 7
        draw.rectangle((left, height // 4, left + width // 9, height * 3 // 4), fill="ivory")
        draw.text((left + 20, height // 4 + 20), "QU", fill="black")
    exif = Image.Exif()
    exif[Base.Make] = "Test"
    exif[Base.Model] = MODEL
    exif[Base.Orientation] = orientation
    gps = exif.get_ifd(IFD.GPSInfo)
    gps[GPS.GPSLatitudeRef] = "N"
    gps[GPS.GPSLatitude] = (54.0, 41.0, 12.5)
    gps[GPS.GPSLongitudeRef] = "E"
    gps[GPS.GPSLongitude] = (25.0, 16.0, 48.0)
    out = io.BytesIO()
    image.save(out, format="JPEG", quality=90, exif=exif)
    return out.getvalue()


def assert_kept_photo(jpeg: bytes) -> tuple[int, int]:
    """``jpeg`` is a photo as the Companion keeps one: a JPEG of at most 1600 px a side and
    a few hundred KB, with no EXIF (no camera, no place), no ICC profile, no comment; its
    size."""
    assert len(jpeg) < 500 * 1024, len(jpeg)
    kept = Image.open(io.BytesIO(jpeg))
    assert kept.format == "JPEG"
    assert max(kept.size) <= 1600, kept.size
    assert not kept.getexif(), dict(kept.getexif())
    assert not {"exif", "icc_profile", "comment"} & set(kept.info), kept.info
    assert MODEL.encode() not in jpeg and b"Exif" not in jpeg and b"GPS" not in jpeg
    return kept.size
