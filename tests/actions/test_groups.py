"""Tables of people who play together (``companion.actions.groups``), action by action:
the rows each write stores, the state it answers, and every refusal exactly, with every
stored row as it was."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from companion.actions import games, groups
from companion.game.errors import Conflict, Forbidden, NotFound, RuleError
from companion.game.play import Play
from companion.game.rules import Rules
from companion.lexicon import LexiconStore
from companion.store.models import Game, Group, Member, Player
from tests.actions.support import ROUND_1, Act, hand, token_hash

ONE_ROUND = Rules(hands=(3,))
"""A game of one round of three cards: finished once ROUND_1 is closed."""

TWO_ROUND_1 = Play((hand("Ann", "cat", out=True), hand("Ben", "dog")))


def members(act: Act, group_id: str) -> list[tuple[int, str]]:
    return [
        (position, name)
        for position, name in act.query(
            select(Member.position, Member.name)
            .where(Member.group_id == group_id)
            .order_by(Member.position)
        )
    ]


def seats(act: Act, game_id: str) -> list[tuple[str, int | None]]:
    """(name, member id) per seat."""
    return act.query(
        select(Player.name, Player.member_id).where(Player.game_id == game_id).order_by(Player.seat)
    )


def finished(
    act: Act, lexicons: LexiconStore, created: games.Created, play: Play = ROUND_1
) -> None:
    """Play and close the one round of a ONE_ROUND game."""
    act(games.save_round, lexicons, created.state.id, created.token, 1, play)
    act(games.set_closed, created.state.id, created.token, 1, True)


def pair_game(act: Act, lexicons: LexiconStore, table: groups.CreatedGroup) -> games.Created:
    """A one-round game of Ann and Ben, started from ``table``."""
    names = ["Ann", "Ben"]
    return act(groups.start_game, lexicons, table.state.id, table.token, names, 0, ONE_ROUND)


@pytest.fixture
def table(act: Act) -> groups.CreatedGroup:
    return act(groups.create_group, " Sunday family ", ["Ann", " Ben", "Cy", "Dee"])


def test_create_group_stores_the_table_and_its_members_in_order(
    act: Act, table: groups.CreatedGroup
) -> None:
    state = table.state
    assert (state.name, state.version, state.alternate_bonus, state.archived) == (
        "Sunday family",
        1,
        False,
        False,
    )
    assert [n for _, n in state.members] == ["Ann", "Ben", "Cy", "Dee"]
    assert state.games == ()
    [row] = act.query(select(Group.name, Group.edit_token_hash).where(Group.id == state.id))
    assert row == ("Sunday family", token_hash(table.token))
    assert members(act, state.id) == [(0, "Ann"), (1, "Ben"), (2, "Cy"), (3, "Dee")]


@pytest.mark.parametrize(
    ("name", "names", "code", "where", "params"),
    [
        ("  ", ["Ann", "Ben"], "table_name_missing", "name", {}),
        ("x" * 61, ["Ann", "Ben"], "table_name_too_long", "name", {"most": 60}),
        ("a\tb", ["Ann", "Ben"], "table_name_unprintable", "name", {}),
        ("T", ["Ann"], "member_count", "members", {"count": 1, "least": 2, "most": 20}),
        ("T", ["P"] * 21, "member_count", "members", {"count": 21, "least": 2, "most": 20}),
        ("T", ["Ann", "ann"], "name_twice", "members[1]", {"name": "ann"}),
        ("T", ["Ann", ""], "name_missing", "members[1]", {"seat": 2}),
    ],
)
def test_create_group_refuses_a_bad_table(
    act: Act, name: str, names: list[str], code: str, where: str, params: dict[str, object]
) -> None:
    with act.refused(RuleError, code, where, **params):
        act(groups.create_group, name, names)


def test_update_group_renames_adds_and_takes_off_a_member_who_never_played(
    act: Act, table: groups.CreatedGroup
) -> None:
    ids = [m for m, _ in table.state.members]
    state = act(
        groups.update_group,
        table.state.id,
        table.token,
        "Sundays",
        [(ids[1], "Benny"), (ids[0], "Ann"), (None, "Eve"), (ids[3], "Dee")],
        True,
    )
    assert (state.name, state.alternate_bonus, state.version) == ("Sundays", True, 2)
    assert members(act, table.state.id) == [(0, "Benny"), (1, "Ann"), (2, "Eve"), (3, "Dee")]
    assert state == act(groups.read_group, table.state.id)


def test_update_group_refuses_taking_off_a_member_who_played(
    act: Act, lexicons: LexiconStore, table: groups.CreatedGroup
) -> None:
    act(groups.start_game, lexicons, table.state.id, table.token, ["Ann", "Cy"], 0, Rules())
    ids = [m for m, _ in table.state.members]
    keep = [(ids[0], "Ann"), (ids[1], "Ben"), (ids[3], "Dee")]
    with act.refused(RuleError, "member_played", "members", name="Cy"):
        act(groups.update_group, table.state.id, table.token, "T", keep, False)


def test_update_group_needs_the_edit_right_and_a_member_of_this_table(
    act: Act, table: groups.CreatedGroup
) -> None:
    other = act(groups.create_group, "Other", ["Zed", "Yan"])
    stranger = other.state.members[0][0]
    ids = [m for m, _ in table.state.members]
    sent: list[tuple[int | None, str]] = list(zip(ids, ["A", "B", "C", "D"], strict=True))
    with act.refused(Forbidden, "table_link_needed"):
        act(groups.update_group, table.state.id, other.token, "T", sent, False)
    with act.refused(RuleError, "no_such_member", "members[1]", member=stranger):
        act(
            groups.update_group, table.state.id, table.token, "T", [sent[0], (stranger, "Z")], False
        )
    with act.refused(NotFound, "no_such_table"):
        act(groups.update_group, "nope", table.token, "T", sent, False)


def test_start_game_ties_members_to_their_seats_and_guests_to_none(
    act: Act, lexicons: LexiconStore, table: groups.CreatedGroup
) -> None:
    ann, ben, cy, _ = (m for m, _ in table.state.members)
    created = act(
        groups.start_game, lexicons, table.state.id, table.token, ["cy", "Guest", "ANN"], 2, Rules()
    )
    assert seats(act, created.state.id) == [("cy", cy), ("Guest", None), ("ANN", ann)]
    [(group_id,)] = act.query(select(Game.group_id).where(Game.id == created.state.id))
    assert group_id == table.state.id
    assert [g.id for g in act(groups.read_group, table.state.id).games] == [created.state.id]
    with act.refused(Forbidden, "table_link_needed"):
        act(groups.start_game, lexicons, table.state.id, "wrong", ["Ann", "Ben"], 0, Rules())
    assert ben not in {m for _, m in seats(act, created.state.id)}


def test_rematch_keeps_seats_rules_and_head_starts_and_passes_the_first_deal(
    act: Act, lexicons: LexiconStore, table: groups.CreatedGroup
) -> None:
    rules = Rules(hands=(3,), bonus=15)
    created = act(
        games.create_game,
        lexicons,
        ["Ann", "Ben", "Cy"],
        2,
        rules,
        (5, 0, 0),
        table.state.id,
        tuple(m for m, _ in table.state.members[:3]),
    )
    finished(act, lexicons, created)
    again = act(groups.rematch, lexicons, created.state.id, created.token)
    assert again.token is not None
    new = act.read(again.game_id)
    assert (new.names, new.rules, new.handicap) == (("Ann", "Ben", "Cy"), rules, (5, 0, 0))
    [(first, group_id)] = act.query(
        select(Game.first_dealer, Game.group_id).where(Game.id == again.game_id)
    )
    assert (first, group_id) == (0, table.state.id)  # seat 2 dealt first, now seat 0
    assert seats(act, again.game_id) == seats(act, created.state.id)
    # A second tap (another phone) opens the same game: none is started twice.
    before = act.rows()
    assert act(groups.rematch, lexicons, created.state.id, created.token) == groups.Rematch(
        again.game_id, None
    )
    assert act.rows() == before


def test_rematch_of_a_two_player_table_that_alternates_switches_the_bonus(
    act: Act, lexicons: LexiconStore
) -> None:
    pair = act(groups.create_group, "Us two", ["Ann", "Ben"], True)
    rules = Rules(hands=(3,), two_player_bonus="longest")
    created = act(groups.start_game, lexicons, pair.state.id, pair.token, ["Ann", "Ben"], 0, rules)
    finished(act, lexicons, created, TWO_ROUND_1)
    second = act(groups.rematch, lexicons, created.state.id, created.token)
    assert act.read(second.game_id).rules.two_player_bonus == "most"
    assert second.token is not None
    finished(act, lexicons, games.Created(act.read(second.game_id), second.token), TWO_ROUND_1)
    third = act(groups.rematch, lexicons, second.game_id, second.token)
    assert act.read(third.game_id).rules.two_player_bonus == "longest"


def test_rematch_without_alternating_keeps_the_bonus_and_works_without_a_table(
    act: Act, lexicons: LexiconStore
) -> None:
    rules = Rules(hands=(3,), two_player_bonus="most")
    created = act(games.create_game, lexicons, ["Ann", "Ben"], 1, rules)
    finished(act, lexicons, created, TWO_ROUND_1)
    again = act(groups.rematch, lexicons, created.state.id, created.token)
    new = act.read(again.game_id)
    assert new.rules.two_player_bonus == "most"
    assert act.query(select(Game.group_id, Game.first_dealer).where(Game.id == again.game_id)) == [
        (None, 0)
    ]


def test_rematch_refuses_an_unfinished_game_and_a_viewer(act: Act, lexicons: LexiconStore) -> None:
    created = act(games.create_game, lexicons, ["Ann", "Ben", "Cy"], 0, Rules(hands=(3, 4)))
    finished(act, lexicons, created)
    with act.refused(RuleError, "game_not_finished", closed=1, rounds=2):
        act(groups.rematch, lexicons, created.state.id, created.token)
    with act.refused(Forbidden, "edit_link_needed"):
        act(groups.rematch, lexicons, created.state.id, None)


def test_archive_and_delete_a_game(
    act: Act, lexicons: LexiconStore, table: groups.CreatedGroup
) -> None:
    created = act(
        groups.start_game, lexicons, table.state.id, table.token, ["Ann", "Ben"], 0, ONE_ROUND
    )
    gid = created.state.id
    act(groups.set_game_archived, gid, created.token, True)
    assert act.query(select(Game.archived).where(Game.id == gid)) == [(True,)]
    with act.refused(Forbidden, "edit_link_needed"):
        act(groups.set_game_archived, gid, table.token, False)
    act(groups.set_game_archived, gid, created.token, False)
    assert act.query(select(Game.archived).where(Game.id == gid)) == [(False,)]
    with act.refused(Forbidden, "edit_link_needed"):
        act(groups.delete_game, gid, None)
    act(groups.delete_game, gid, created.token)
    assert act.query(select(Game.id).where(Game.id == gid)) == []
    assert act.query(select(Player.id).where(Player.game_id == gid)) == []
    assert act(groups.read_group, table.state.id).games == ()


def test_delete_a_table_leaves_its_games_on_their_own(
    act: Act, lexicons: LexiconStore, table: groups.CreatedGroup
) -> None:
    created = act(
        groups.start_game, lexicons, table.state.id, table.token, ["Ann", "Ben"], 0, ONE_ROUND
    )
    act(groups.set_group_archived, table.state.id, table.token, True)
    assert act(groups.read_group, table.state.id).archived is True
    with act.refused(Forbidden, "table_link_needed"):
        act(groups.delete_group, table.state.id, created.token)
    act(groups.delete_group, table.state.id, table.token)
    assert act.query(select(Group.id)) == []
    assert act.query(select(Member.id)) == []
    assert act.query(select(Game.group_id).where(Game.id == created.state.id)) == [(None,)]
    assert seats(act, created.state.id) == [("Ann", None), ("Ben", None)]
    assert act.read(created.state.id).names == ("Ann", "Ben")


def test_update_group_refuses_a_form_of_an_older_version(
    act: Act, table: groups.CreatedGroup
) -> None:
    ids = [m for m, _ in table.state.members]
    sent: list[tuple[int | None, str]] = list(zip(ids, ["Ann", "Ben", "Cy", "Dee"], strict=True))
    state = act(groups.update_group, table.state.id, table.token, "T", sent, False, 1)
    assert state.version == 2
    with act.refused(Conflict, "table_changed"):
        act(groups.update_group, table.state.id, table.token, "U", sent[:2], False, 1)
