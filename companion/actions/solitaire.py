"""The use cases of Solitaire Quiddler: start a game, make a step, undo the last one.

A step is a compare-and-set: it names the version of the game it was made on,
and a game that moved on since (a second tap, another phone) refuses it.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion import store
from companion.actions.judging import lexicon
from companion.game import solitaire
from companion.game.deck import Card
from companion.game.errors import Conflict, Forbidden
from companion.game.rules import MinWord
from companion.lexicon import LexiconStore
from companion.store.models import Solitaire


@dataclass(frozen=True)
class Started:
    """A new solitaire game: its id and edit token (shown once, stored hashed)."""

    id: str
    token: str


@dataclass(frozen=True)
class Stepped:
    """The game after a step or an undo, its table, and the version it is at now."""

    game: solitaire.Game
    table: solitaire.Table
    version: int


def start(
    lexicons: LexiconStore,
    face_up: list[Card] | None,
    min_word: MinWord,
    lexicon_name: str,
) -> Started:
    """Store a new game (``face_up`` None: practice with a shuffled virtual deck)."""
    lexicon(lexicons, lexicon_name, "lexicon")  # refuse an unknown lexicon now
    seed = None
    if face_up is None:
        seed = store.new_solitaire_seed()
        game = solitaire.new_practice(seed)
    else:
        game = solitaire.Game(tuple(face_up))
        solitaire.deal(game.face_up)  # refuses the wrong number of cards or copies
    with store.transaction("solitaire_changed"):
        row, token = store.insert_solitaire(game, seed, min_word, lexicon_name)
        started = Started(row.id, token)
    return started


def step(
    lexicons: LexiconStore,
    game_id: str,
    token: str | None,
    made: solitaire.Step,
    expected_version: int | None,
) -> Stepped:
    """Make a word, enter a revealed card, or refill an empty pile, checked by the rules."""
    with store.transaction("solitaire_changed"):
        row = _editable(game_id, token, expected_version)
        judge = lexicon(lexicons, row.lexicon, "lexicon").verdict
        game = store.solitaire_game(row).play(made, judge, row.min_word)
        done = _keep(row, game)
    return done


def undo(game_id: str, token: str | None, expected_version: int | None) -> Stepped:
    """Take the last step back (in practice mode with the reveals that followed it)."""
    with store.transaction("solitaire_changed"):
        row = _editable(game_id, token, expected_version)
        game = store.solitaire_game(row).undo()
        done = _keep(row, game)
    return done


def _editable(game_id: str, token: str | None, expected_version: int | None) -> Solitaire:
    row = store.locked_solitaire(game_id)
    if not store.can_edit(row, token):
        raise Forbidden("edit_link_needed")
    if expected_version is not None and expected_version != row.version:
        raise Conflict("solitaire_changed")
    return row


def _keep(row: Solitaire, game: solitaire.Game) -> Stepped:
    store.put_steps(row, game)
    return Stepped(game, game.replay(row.min_word), row.version)
