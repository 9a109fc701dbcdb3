"""The use cases of a table of people who play together: start one, change its members,
start its games, the rematch, and putting tables and games away.

Like the game's use cases, each runs in one transaction with the row it changes locked
first, and returns what that write produced; a refusal changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion import store
from companion.actions.games import Created, create_game, editable
from companion.game.errors import Conflict, Forbidden, RuleError
from companion.game.play import MEMBERS as MEMBERS  # the limits the pages show
from companion.game.play import TABLE_NAME as TABLE_NAME
from companion.game.play import check_members, check_table_name
from companion.game.rules import Rules, TwoPlayerBonus
from companion.lexicon import LexiconStore
from companion.store import groups
from companion.store.models import Group, Member


@dataclass(frozen=True)
class GroupState:
    """A table as its pages show it: its members in order and its games (oldest first)."""

    id: str
    version: int
    name: str
    members: tuple[tuple[int, str], ...]
    """(member id, name), in the table's order."""
    alternate_bonus: bool
    archived: bool
    games: tuple[groups.GroupGame, ...]

    def member_name(self, member: int) -> str | None:
        return next((n for m, n in self.members if m == member), None)


@dataclass(frozen=True)
class CreatedGroup:
    """A new table and its edit token (shown once, stored hashed)."""

    state: GroupState
    token: str


def group_state(group: Group) -> GroupState:
    """A stored table as its pages show it."""
    return GroupState(
        group.id,
        group.version,
        group.name,
        tuple((m.id, m.name) for m in sorted(group.members, key=lambda m: m.position)),
        group.alternate_bonus,
        group.archived,
        tuple(groups.group_games(group.id)),
    )


def read_group(group_id: str) -> GroupState:
    """Table ``group_id`` as its pages show it, or NotFound."""
    return group_state(groups.get_group(group_id))


def create_group(name: str, members: list[str], alternate_bonus: bool = False) -> CreatedGroup:
    """Start a table: its name and its members in order."""
    name = check_table_name(name)
    members = [m.strip() for m in members]
    check_members(members)
    with store.transaction("table_changed"):
        group, token = groups.insert_group(name, members, alternate_bonus)
        state = group_state(group)
    return CreatedGroup(state, token)


def editable_group(group_id: str, token: str | None) -> Group:
    """Lock the table for this write and check its edit right; NotFound or Forbidden."""
    group = groups.locked_group(group_id)
    if not store.can_edit(group, token):
        raise Forbidden("table_link_needed")
    return group


def update_group(
    group_id: str,
    token: str | None,
    name: str,
    members: list[tuple[int | None, str]],
    alternate_bonus: bool,
    expected_version: int | None = None,
) -> GroupState:
    """Rename the table and its members, add members (id None), take off those left out
    (only one who never sat at a game of it: their records would go with them), and set
    whether two-player games alternate the bonus. ``expected_version``: the table's
    version the sender's form showed; another (a change made meanwhile on another phone,
    which this list would undo) is a Conflict."""
    name = check_table_name(name)
    members = [(m, n.strip()) for m, n in members]
    check_members([n for _, n in members])
    with store.transaction("table_changed"):
        group = editable_group(group_id, token)
        if expected_version is not None and expected_version != group.version:
            raise Conflict("table_changed")
        by_id = {m.id: m for m in group.members}
        for i, (member, _) in enumerate(members):
            if member is not None and member not in by_id:
                raise RuleError("no_such_member", f"members[{i}]", member=member)
        kept = {m for m, _ in members if m is not None}
        gone = [m for m in group.members if m.id not in kept]
        played = groups.played_by([m.id for m in gone])
        for m in gone:
            if m.id in played:
                raise RuleError("member_played", "members", name=m.name)
        for m in gone:
            group.members.remove(m)
        for position, (member, member_name) in enumerate(members):
            if member is None:
                group.members.append(Member(position=position, name=member_name))
            else:
                by_id[member].position, by_id[member].name = position, member_name
        group.name, group.alternate_bonus = name, alternate_bonus
        groups.touch_group(group)
        state = group_state(group)
    return state


def seat_members(group: Group, names: list[str]) -> tuple[int | None, ...]:
    """Per seat, the member of ``group`` of that name (any case), or None for a guest."""
    by_name = {m.name.casefold(): m.id for m in group.members}
    return tuple(by_name.get(n.strip().casefold()) for n in names)


def start_game(
    lexicons: LexiconStore,
    group_id: str,
    token: str | None,
    names: list[str],
    first_dealer: int,
    rules: Rules,
    handicap: tuple[int, ...] = (),
    keep_photos: bool = False,
) -> Created:
    """Start a game of table ``group_id`` (its edit right): names in seating order, each a
    member's (any case) or a guest's, the first dealer's seat, the house rules, and
    whether a photo of each hand is kept."""
    group = groups.get_group(group_id)
    if not store.can_edit(group, token):
        raise Forbidden("table_link_needed")
    members = seat_members(group, names)
    return create_game(
        lexicons, names, first_dealer, rules, handicap, group.id, members, keep_photos
    )


def last_settings(state: GroupState) -> tuple[Rules, bool] | None:
    """The house rules of the table's latest game and whether it kept photos: the next
    game's defaults."""
    if not state.games:
        return None
    game = store.get_game(state.games[-1].id)
    return store.rules_of(game), game.keep_photos


def switched_bonus(rules: Rules, players: int) -> Rules:
    """The rules of the next two-player game where the one bonus alternates game by game:
    longest word after most words, most words after longest word."""
    if players != 2 or rules.two_player_bonus == "both":
        return rules
    other: TwoPlayerBonus = "most" if rules.two_player_bonus == "longest" else "longest"
    return replace(rules, two_player_bonus=other)


@dataclass(frozen=True)
class Rematch:
    """The rematch of a game: the new game, and its edit token when this tap started it
    (None when an earlier tap did: the game is opened again, none is started twice)."""

    game_id: str
    token: str | None


def rematch(lexicons: LexiconStore, game_id: str, token: str | None) -> Rematch:
    """The next game of the same table (or the same players), with the same seats, house
    rules, head starts and keeping of photos, dealt first by the seat after this game's
    first dealer; in a two-player game of a table that alternates the bonus, the other
    bonus. The game's edit right; a finished game only. Two taps start one game."""
    with store.transaction("game_changed"):
        game = editable(game_id, token)
        if game.rematch_id is not None and _exists(game.rematch_id):
            return Rematch(game.rematch_id, None)
        state = store.state_of(game)
        if not state.finished:
            raise RuleError(
                "game_not_finished", "", closed=state.closed_rounds, rounds=state.rules.rounds
            )
        rules = state.rules
        group = game.group
        if group is not None and group.alternate_bonus:
            rules = switched_bonus(rules, len(state.names))
        members = tuple(p.member_id for p in game.players)
        new, new_token = store.insert_game(
            list(state.names),
            (game.first_dealer + 1) % len(state.names),
            rules,
            state.handicap,
            game.group_id,
            members,
            game.keep_photos,
        )
        game.rematch_id = new.id
        store.touch(game)
        if group is not None:
            groups.touch_group(group)
    return Rematch(new.id, new_token)


def _exists(game_id: str) -> bool:
    try:
        store.game_version(game_id)
    except store.NotFound:
        return False
    return True


def set_game_archived(game_id: str, token: str | None, archived: bool) -> None:
    """Put a game away (off the home page's list, still in its table's records), or back."""
    with store.transaction("game_changed"):
        game = editable(game_id, token)
        game.archived = archived
        store.touch(game)


def delete_game(game_id: str, token: str | None) -> None:
    """Delete a game and everything entered in it, its photos too, for good (its table's
    records lose it)."""
    with store.transaction("game_changed"):
        game = editable(game_id, token)
        if game.group is not None:
            groups.touch_group(game.group)
        store.drop_photos(game)
        store.db.session.delete(game)


def set_group_archived(group_id: str, token: str | None, archived: bool) -> None:
    """Put a table away (off the home page's list), or back."""
    with store.transaction("table_changed"):
        group = editable_group(group_id, token)
        group.archived = archived
        groups.touch_group(group)


def delete_group(group_id: str, token: str | None) -> None:
    """Delete a table and its members; its games stay, each on its own (whoever holds a
    game's link keeps it), and no longer count in any records."""
    with store.transaction("table_changed"):
        group = editable_group(group_id, token)
        store.db.session.delete(group)
