"""Photos of hands, action by action: kept with the hand's save in a game that keeps them
(shrunk, no camera or place), refused whole when not a picture, ignored in a game that
doesn't keep them, carried to the rematch and the table's next game, deleted with the game.
"""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image
from sqlalchemy import select

from companion.actions import games, groups, seats
from companion.game.errors import Forbidden, NotFound, RuleError, ShapeError
from companion.game.rules import Rules
from companion.lexicon import LexiconStore
from companion.store.models import Game, RoundPhoto
from companion.vision.photo import MOST_BYTES
from tests.actions.support import ROUND_1, THREE, Act, assert_kept_photo, camera_jpeg

ANN, BEN, CY = ROUND_1.hands


def photos(act: Act, game_id: str | None = None) -> list[tuple[Any, ...]]:
    """The photos stored (of one game or all): (game, round, seat, size, bytes)."""
    query = select(
        RoundPhoto.game_id,
        RoundPhoto.round_number,
        RoundPhoto.seat,
        RoundPhoto.size,
        RoundPhoto.jpeg,
    ).order_by(RoundPhoto.game_id, RoundPhoto.round_number, RoundPhoto.seat)
    if game_id is not None:
        query = query.where(RoundPhoto.game_id == game_id)
    return act.query(query)


@pytest.fixture
def keeping(act: Act, lexicons: LexiconStore) -> games.Created:
    """Ann, Ben and Cy, in a game that keeps a photo of each hand."""
    return act(games.create_game, lexicons, list(THREE), 0, Rules(), keep_photos=True)


def test_a_photo_is_kept_shrunk_without_camera_or_place(
    act: Act, lexicons: LexiconStore, keeping: games.Created
) -> None:
    gid = keeping.state.id
    assert keeping.state.keep_photos and act.query(select(Game.keep_photos)) == [(True,)]
    sent = camera_jpeg(3000, 2000)
    assert Image.open(io.BytesIO(sent)).getexif()[0x0110] == "Pixel Test 8"  # the camera's
    saved = act(seats.save_seats, lexicons, gid, keeping.token, 1, {1: BEN}, {1: 0}, {1: sent})
    [(game, number, seat, size, jpeg)] = photos(act)
    assert (game, number, seat, size) == (gid, 1, 1, len(jpeg))
    assert assert_kept_photo(jpeg) == (1600, 1067)
    assert saved.round.seats[1].entered
    assert act.read(gid).photos == frozenset({(1, 1)})
    assert act.entries(gid, 1)[0][:2] == (1, [["d", "o", "g"]])


def test_a_photo_turned_by_its_camera_is_kept_upright(
    act: Act, lexicons: LexiconStore, keeping: games.Created
) -> None:
    """Orientation 6: the camera held upright, the pixels sideways."""
    sent = camera_jpeg(3000, 2000, orientation=6)
    act(seats.save_seats, lexicons, keeping.state.id, keeping.token, 1, {0: ANN}, None, {0: sent})
    [(*_, jpeg)] = photos(act)
    width, height = assert_kept_photo(jpeg)
    assert (max(width, height), height > width) == (1600, True)


def test_a_new_photo_of_the_hand_replaces_the_old(
    act: Act, lexicons: LexiconStore, keeping: games.Created
) -> None:
    gid, token = keeping.state.id, keeping.token
    act(seats.save_seats, lexicons, gid, token, 1, {1: BEN}, None, {1: camera_jpeg(3000, 2000)})
    [first] = photos(act)
    act(seats.save_seats, lexicons, gid, token, 1, {1: BEN}, None, {1: camera_jpeg(800, 600)})
    [second] = photos(act)
    assert second[:3] == first[:3] and second[4] != first[4]
    assert assert_kept_photo(second[4]) == (800, 600)  # never enlarged


def test_the_every_hand_save_keeps_a_photo_per_hand_sent(
    act: Act, lexicons: LexiconStore, keeping: games.Created
) -> None:
    gid = keeping.state.id
    sent = {0: camera_jpeg(3000, 2000), 2: camera_jpeg(1200, 1600)}
    act(seats.save_seats, lexicons, gid, keeping.token, 1, {0: ANN, 1: BEN, 2: CY}, None, sent)
    stored = photos(act)
    assert [(n, s) for _, n, s, _, _ in stored] == [(1, 0), (1, 2)]
    assert [assert_kept_photo(p[4]) for p in stored] == [(1600, 1067), (1200, 1600)]
    assert act.read(gid).photos == frozenset({(1, 0), (1, 2)})


def test_a_photo_beside_a_hand_not_saved_is_ignored(
    act: Act, lexicons: LexiconStore, keeping: games.Created
) -> None:
    gid = keeping.state.id
    act(seats.save_seats, lexicons, gid, keeping.token, 1, {0: ANN}, None, {2: b"not a photo"})
    assert photos(act) == []
    assert [e[0] for e in act.entries(gid, 1)] == [0]


@pytest.mark.parametrize(
    ("sent", "kind", "code", "params"),
    [
        (b"GIF89a not really", ShapeError, "not_a_picture", {}),
        (b"%PDF-1.4 a document", ShapeError, "not_a_picture", {}),
        (b"", ShapeError, "photo_missing", {}),
        (b"\xff\xd8\xff" + b"\0" * MOST_BYTES, RuleError, "photo_too_large", {"most": 12}),
    ],
    ids=["gif-text", "pdf", "empty", "too-large"],
)
def test_a_refused_photo_refuses_the_hand_and_stores_nothing(
    act: Act,
    lexicons: LexiconStore,
    keeping: games.Created,
    sent: bytes,
    kind: type,
    code: str,
    params: dict[str, object],
) -> None:
    gid, token = keeping.state.id, keeping.token
    act(seats.save_seats, lexicons, gid, token, 1, {0: ANN})  # something stored before
    with act.refused(kind, code, "players[1].photo", **params):
        act(seats.save_seats, lexicons, gid, token, 1, {1: BEN}, None, {1: sent})
    assert photos(act) == [] and [e[0] for e in act.entries(gid, 1)] == [0]


def test_only_who_may_save_the_hand_sends_its_photo(
    act: Act, lexicons: LexiconStore, keeping: games.Created
) -> None:
    gid = keeping.state.id
    ben = act(seats.claim_seat, gid, 1).token
    with act.refused(Forbidden, "seat_link_needed"):
        act(seats.save_seats, lexicons, gid, None, 1, {1: BEN}, None, {1: camera_jpeg()})
    with act.refused(Forbidden, "seat_not_yours", "", seat=2, name="Cy", yours="Ben"):
        act(seats.save_seats, lexicons, gid, ben, 1, {2: CY}, None, {2: camera_jpeg()})
    with act.refused(NotFound, "no_such_seat", "", seat=7, seats=3):
        act(seats.save_seats, lexicons, gid, ben, 1, {7: CY}, None, {7: camera_jpeg()})
    act(seats.save_seats, lexicons, gid, ben, 1, {1: BEN}, None, {1: camera_jpeg()})
    assert [(n, s) for _, n, s, _, _ in photos(act)] == [(1, 1)]


def test_a_game_that_keeps_no_photos_stores_none(
    act: Act, lexicons: LexiconStore, new_game: Any
) -> None:
    created = new_game()
    gid = created.state.id
    assert not created.state.keep_photos
    sent = {0: camera_jpeg(), 1: b"not a picture either"}  # not even read
    act(seats.save_seats, lexicons, gid, created.token, 1, {0: ANN, 1: BEN}, None, sent)
    assert photos(act) == []
    assert [e[0] for e in act.entries(gid, 1)] == [0, 1]
    assert act.read(gid).photos == frozenset()


def test_deleting_the_game_deletes_its_photos(
    act: Act, lexicons: LexiconStore, keeping: games.Created
) -> None:
    gid, token = keeping.state.id, keeping.token
    other = act(games.create_game, lexicons, list(THREE), 0, Rules(), keep_photos=True)
    for game, edit in ((gid, token), (other.state.id, other.token)):
        act(seats.save_seats, lexicons, game, edit, 1, {0: ANN}, None, {0: camera_jpeg()})
    assert len(photos(act)) == 2
    act(groups.delete_game, gid, token)
    assert photos(act, gid) == []
    assert [p[0] for p in photos(act)] == [other.state.id]  # another game's stay


def test_the_rematch_and_the_tables_next_game_keep_photos_as_the_game_did(
    act: Act, lexicons: LexiconStore
) -> None:
    table = act(groups.create_group, "Sunday", ["Ann", "Ben"])
    token = table.token
    gid = table.state.id
    rules = Rules(hands=(3,))
    kept = act(groups.start_game, lexicons, gid, token, ["Ann", "Ben"], 0, rules, (), True)
    plain = act(groups.start_game, lexicons, gid, token, ["Ann", "Ben"], 0, rules)
    assert (kept.state.keep_photos, plain.state.keep_photos) == (True, False)
    for created in (kept, plain):
        game = created.state.id
        hands = {0: ROUND_1.hands[0], 1: ROUND_1.hands[1]}
        act(seats.save_seats, lexicons, game, created.token, 1, hands)
        act(games.set_closed, game, created.token, 1, True)
    again = act(groups.rematch, lexicons, kept.state.id, kept.token)
    other = act(groups.rematch, lexicons, plain.state.id, plain.token)
    assert act.read(again.game_id).keep_photos and not act.read(other.game_id).keep_photos
    state = act(groups.read_group, gid)
    last = act(groups.last_settings, state)
    assert last is not None and last[1] is False  # the latest game: the plain one's rematch
