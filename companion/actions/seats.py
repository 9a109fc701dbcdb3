"""Seats: each player enters their own hand on their own phone.

A phone claims a seat from the game's view link and gets that seat's secret (shown
once, stored hashed). With it, the phone saves that seat's hand and nothing else;
the edit link (the scorekeeper) may save any seat, and releases a seat whose phone
is lost. Each hand has its own version, so phones saving different seats never
conflict; the round is scored once every seat is in.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from companion import store
from companion.actions.games import (
    check_open,
    check_previous_closed,
    editable,
    seat_name,
    still_standing,
)
from companion.actions.judging import game_judge
from companion.game.errors import Conflict, Forbidden, RuleError
from companion.game.play import Hand, Play, check_seat
from companion.game.scoring import score_round
from companion.lexicon import LexiconStore
from companion.store import GameState, RoundState
from companion.store.models import Game
from companion.vision.photo import keepable_jpeg, open_picture


@dataclass(frozen=True)
class Claimed:
    """A seat given to a phone, and its secret (shown once; None when the phone held
    that seat already), with the game as the claim left it."""

    seat: int
    name: str
    token: str | None
    game: GameState


@dataclass(frozen=True)
class SeatsSaved:
    """Hands saved, the round as that save left it, and the words of the challenges
    dropped because their word changed."""

    round: RoundState
    dropped: tuple[str, ...] = ()


def claim_seat(game_id: str, seat: int, held: str | None = None) -> Claimed:
    """Give seat ``seat`` to the phone asking (anyone with the view link), which holds the
    seat secret ``held`` of this game, if any. Tapped twice: it is that phone's already
    (nothing changes); a phone holding another seat is refused; Conflict when another
    phone holds it: the scorekeeper releases it first."""
    with store.transaction("game_changed"):
        game = store.locked_game(game_id)
        name = seat_name(game, seat)
        mine = store.seat_of_token(game, held)
        if mine == seat:
            return Claimed(seat, name, None, store.state_of(game))
        if mine is not None:
            raise RuleError("seat_already_held", "", name=game.players[mine].name)
        if game.players[seat].seat_token_hash is not None:
            raise Conflict("seat_taken", "", seat=seat, name=name)
        token = store.claim_seat(game, seat)
        store.touch(game)
        state = store.state_of(game)
    return Claimed(seat, name, token, state)


def release_seat(game_id: str, token: str | None, seat: int) -> GameState:
    """Free seat ``seat`` (a phone lost, a player moving to another phone): edit link only.
    Releasing a seat nobody holds changes nothing."""
    with store.transaction("game_changed"):
        game = editable(game_id, token)
        seat_name(game, seat)
        if game.players[seat].seat_token_hash is not None:
            store.release_seat(game, seat)
            store.touch(game)
        state = store.state_of(game)
    return state


def save_seats(
    lexicons: LexiconStore,
    game_id: str,
    token: str | tuple[str | None, ...] | None,
    number: int,
    hands: Mapping[int, Hand],
    expected: Mapping[int, int | None] | None = None,
    photos: Mapping[int, bytes] | None = None,
) -> SeatsSaved:
    """Save the hands of some seats of open round ``number``, all or none.

    ``token`` is the edit token (any seat) or a seat's secret (that seat only), or the
    tokens a phone holds (the first that gives the right counts): the page passes what
    it holds unchecked, and the game is loaded once, here.
    ``expected`` is, per seat, the version the sender's page showed: a seat whose hand
    was changed since is a Conflict, and nothing is saved. Each hand is checked on its
    own and against every hand entered (the deck's copies, one player going out);
    paths in a refusal are ``players[<seat>]...``. Challenges stay unless their word
    changed.

    ``photos`` are, per seat saved, the picture a phone sent with that hand: in a game
    that keeps photos, each is kept (shrunk, its metadata gone) with the hand, in the same
    transaction, replacing the one kept before; one that is not a picture or too large
    refuses the whole save (``players[<seat>].photo``). A game that doesn't keep photos
    ignores them, and so does a seat not saved here.
    """
    shrunk = _kept_photos(game_id, token, hands, photos) if photos else {}
    with store.transaction("round_changed", number=number):
        game = store.locked_game(game_id)
        names, rules = store.names_of(game), store.rules_of(game)
        for seat in hands:
            seat_name(game, seat)
        _check_right(game, token, hands)
        current = store.round_state(game, number)
        check_previous_closed(game, number)
        check_open(current)
        merged: list[Hand | None] = [s.hand for s in current.seats]
        for seat, hand in hands.items():
            merged[seat] = replace(hand, name=names[seat])
        for seat, version in (expected or {}).items():
            moved = version is not None and current.seats[seat].version != version
            if moved and merged[seat] != current.seats[seat].hand:  # the same hand sent again
                raise Conflict("seat_changed", "", number=number, seat=seat, name=names[seat])
        for seat in sorted(hands):
            try:
                check_seat(merged, seat, rules, number)
            except RuleError as exc:
                exc.where = f"players[{seat}]" + (f".{exc.where}" if exc.where else "")
                raise
        dropped: tuple[str, ...] = ()
        row = store.new_round_row(game, number)
        if all(h is not None for h in merged):
            play = Play(tuple(h for h in merged if h is not None), round_number=number)
            kept, dropped = still_standing(current, play)
            play = replace(play, challenges=kept)
            judge = game_judge(lexicons, rules, store.house_words_of(game))
            score_round(play, rules, judge)
            gone = [c for c in current.play.challenges if c not in kept] if current.play else []
            store.drop_challenges(row, [(names.index(c.player), c.word) for c in gone])
        for seat, hand in hands.items():
            store.put_hand(row, seat, hand)
        for seat, jpeg in shrunk.items():
            store.put_photo(game, number, seat, jpeg)
        store.touch(game, row)
        saved = SeatsSaved(store.round_state(game, number), dropped)
    return saved


def _kept_photos(
    game_id: str,
    token: str | tuple[str | None, ...] | None,
    hands: Mapping[int, Hand],
    photos: Mapping[int, bytes],
) -> dict[int, bytes]:
    """The photos sent with ``hands`` as they would be kept (``vision.photo``), or a
    refusal: read and shrunk before the save takes the game's lock (a few tenths of a
    second each, which the other phones' saves would otherwise wait for), and only for
    whoever may save those hands (checked again under the lock). None in a game that
    doesn't keep photos."""
    sent = {seat: data for seat, data in photos.items() if seat in hands}
    if not sent:
        return {}
    game = store.get_game(game_id)
    if not game.keep_photos:
        return {}
    for seat in hands:
        seat_name(game, seat)
    _check_right(game, token, hands)
    return {
        seat: keepable_jpeg(open_picture(data, f"players[{seat}].photo"))
        for seat, data in sorted(sent.items())
    }


def _check_right(
    game: Game, token: str | tuple[str | None, ...] | None, seats: Mapping[int, object]
) -> None:
    """The edit token may save any seat; a seat's secret only that seat."""
    tokens = token if isinstance(token, tuple) else (token,)
    if any(store.can_edit(game, t) for t in tokens):
        return
    mine = next((s for t in tokens if (s := store.seat_of_token(game, t)) is not None), None)
    if mine is None:
        raise Forbidden("seat_link_needed")
    other = next((s for s in sorted(seats) if s != mine), None)
    if other is not None:
        raise Forbidden(
            "seat_not_yours",
            "",
            seat=other,
            name=game.players[other].name,
            yours=game.players[mine].name,
        )
