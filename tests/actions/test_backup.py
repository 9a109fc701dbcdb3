"""The backup of a table: exported, imported into an empty database, scored the same;
and every broken file refused whole, with its code and the exact JSON path at fault."""

from __future__ import annotations

import copy
import shutil
from collections.abc import Callable, Iterator
from dataclasses import asdict, is_dataclass
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from companion import create_app
from companion.actions import backup, games, groups, records
from companion.game import backup as parsed
from companion.game.errors import RuleError
from companion.game.play import Challenge
from companion.game.rules import Rules
from companion.lexicon import LexiconStore
from companion.store import get_game, state_of
from tests.actions.support import ROUND_1, ROUND_2, Act, hand
from tests.conftest import base_config, dispose

MEMBERS = ["Ann", "Ben", "Cy", "Dee"]


@pytest.fixture
def empty_app(tmp_path: Path, lexicon_cache: Path, template_database: Path) -> Iterator[Flask]:
    """A second app on a database of its own, migrated and empty: another server."""
    path = tmp_path / "other.sqlite3"
    shutil.copyfile(template_database, path)
    config = {**base_config(tmp_path / "other", lexicon_cache), "DATABASE_URL": f"sqlite:///{path}"}
    other = create_app(config)
    yield other
    dispose(other)


def made_table(act: Act, lexicons: LexiconStore) -> str:
    """A table of four with three games: one finished with a challenge and a house word
    (then archived), one played by vote with a vote cast and an open round, one not begun."""
    made = act(groups.create_group, "Sunday family", MEMBERS, True)
    table, token = made.state.id, made.token
    first = act(
        groups.start_game, lexicons, table, token, ["Ann", "Ben", "Cy"], 0, Rules(hands=(3, 4))
    )
    g1, t1 = first.state.id, first.token
    act(games.save_round, lexicons, g1, t1, 1, ROUND_1)
    act(games.set_closed, g1, t1, 1, True)
    act(games.set_house_word, g1, t1, "zax", True)
    act(games.save_round, lexicons, g1, t1, 2, ROUND_2)
    act(games.challenge, lexicons, g1, t1, 2, Challenge("Ben", "Ann", 0))
    act(games.set_closed, g1, t1, 2, True)
    act(groups.set_game_archived, g1, t1, True)
    voted = Rules(challenge_ruling="majority", bonus=5)
    second = act(
        groups.start_game, lexicons, table, token, ["Cy", "Guest", "Ann"], 2, voted, (0, 15, 0)
    )
    g2, t2 = second.state.id, second.token
    round_1 = ROUND_1.__class__(
        (hand("Cy", "cat", out=True), hand("Guest", "dog"), hand("Ann", "ox", unused="m"))
    )
    act(games.save_round, lexicons, g2, t2, 1, round_1)
    act(games.challenge, lexicons, g2, t2, 1, Challenge("Ann", "Guest", 0))
    act(games.vote, g2, t2, 1, 1, 0, True)
    act(groups.start_game, lexicons, table, token, ["Dee", "Ben"], 1, Rules())
    return table


def exported(act: Act, table: str) -> dict[str, Any]:
    """The table's backup without the time it was made."""
    data = act(backup.export_group, table)
    assert isinstance(data["exported_at"], str)
    return {k: v for k, v in data.items() if k != "exported_at"}


def scored(act: Act, table: str) -> list[tuple[object, ...]]:
    """Every game of the table as its pages score it: the standings, every round."""
    found = []
    for game in act(groups.read_group, table).games:
        state = act.read(game.id)
        found.append((state.names, state.table, [(r.closed, r.result) for r in state.rounds]))
    return found


def records_of(act: Act, lexicons: LexiconStore, table: str) -> object:
    """The table's records with this server's ids put as what they stand for: a game as
    its place in the table (1 the oldest), a member as their name."""
    found = act(records.group_records, lexicons, table)
    place = {g.id: n for n, g in enumerate(found.group.games, 1)}
    names = dict(found.group.members)

    def plain(value: object) -> object:
        if is_dataclass(value) and not isinstance(value, type):
            return plain(asdict(value))
        if isinstance(value, dict):
            return {
                (names[k] if isinstance(k, int) and k in names else k): (
                    place[v] if k == "game_id" else names.get(v, v) if k == "member" else plain(v)
                )
                for k, v in value.items()
            }
        if isinstance(value, list | tuple):
            return [place.get(v, v) if isinstance(v, str) else plain(v) for v in value]
        return value

    return plain(found.records)


def test_a_table_imported_elsewhere_scores_the_same(
    act: Act, lexicons: LexiconStore, empty_app: Flask
) -> None:
    table = made_table(act, lexicons)
    data = act(backup.export_group, table)
    there = Act(empty_app)
    created = there(backup.import_group, copy.deepcopy(data))
    assert created.state.id != table and created.token
    assert created.state.name == "Sunday family"
    assert [n for _, n in created.state.members] == MEMBERS
    assert created.state.alternate_bonus is True
    assert scored(there, created.state.id) == scored(act, table)
    assert exported(there, created.state.id) == exported(act, table)
    lexicons_there = empty_app.extensions["lexicons"]
    before = records_of(act, lexicons, table)
    assert records_of(there, lexicons_there, created.state.id) == before
    assert before["games"] == 1  # type: ignore[index]  (the finished, archived one)
    # Nothing of this server travels: no ids, no tokens.
    text = repr(data)
    for game in act(groups.read_group, table).games:
        assert game.id not in text
    assert table not in text


def test_the_file_holds_what_was_entered(act: Act, lexicons: LexiconStore) -> None:
    table = made_table(act, lexicons)
    data = exported(act, table)
    assert data["format"] == "quiddler-companion/table" and data["version"] == 1
    assert data["table"] == {
        "name": "Sunday family",
        "alternate_bonus": True,
        "archived": False,
        "members": MEMBERS,
    }
    first, second, third = data["games"]
    assert first["archived"] is True and second["archived"] is False
    assert first["players"] == [
        {"name": "Ann", "member": 0, "handicap": 0},
        {"name": "Ben", "member": 1, "handicap": 0},
        {"name": "Cy", "member": 2, "handicap": 0},
    ]
    assert second["players"][1] == {"name": "Guest", "member": None, "handicap": 15}
    assert first["house_words"] == [{"word": "zax", "allowed": True}]
    assert first["rounds"][1]["hands"][0] == {
        "seat": 0,
        "words": [["qu", "i", "z"]],
        "unused": ["m"],
        "went_out": False,
    }
    [ruled] = first["rounds"][1]["challenges"]
    assert ruled["by_seat"] == 1 and ruled["player_seat"] == 0 and ruled["word"] == 0
    assert ruled["decided_by"] == "dictionary" and ruled["legal"] is True
    [pending] = second["rounds"][0]["challenges"]
    assert pending["decided_by"] == "pending" and pending["votes"] == [{"seat": 0, "legal": True}]
    assert pending["advice_legal"] is True and pending["advice_reason"] == "in_dictionary"
    assert third["rounds"] == [] and third["first_dealer"] == 1


def test_importing_twice_makes_two_tables(act: Act, lexicons: LexiconStore) -> None:
    table = made_table(act, lexicons)
    data = act(backup.export_group, table)
    one = act(backup.import_group, copy.deepcopy(data))
    two = act(backup.import_group, copy.deepcopy(data))
    assert len({table, one.state.id, two.state.id}) == 3
    assert one.token != two.token
    assert exported(act, one.state.id) == exported(act, two.state.id) == exported(act, table)
    assert scored(act, two.state.id) == scored(act, table)
    # The imported games are the table's, with its members at their seats.
    with act.app.app_context():
        game = get_game(one.state.games[0].id)
        assert game.group_id == one.state.id and game.rematch_id is None
        assert [p.member_id for p in game.players] == [m for m, _ in one.state.members[:3]]
        assert state_of(game).finished


def test_the_limits_are_the_tables_own() -> None:
    assert parsed.TABLE_NAME == groups.TABLE_NAME
    assert parsed.MEMBERS == groups.MEMBERS
    assert parsed.HOUSE_WORD_LETTERS == games.HOUSE_WORD_LETTERS


def valid() -> dict[str, Any]:
    """A small backup by hand: a table of three, one game, round 1 closed, round 2 open
    with a challenge the dictionary ruled."""

    def seat(n: int, words: list[list[str]], unused: list[str], out: bool = False) -> dict:
        return {"seat": n, "words": words, "unused": unused, "went_out": out}

    return {
        "format": "quiddler-companion/table",
        "version": 1,
        "exported_at": "2026-12-06T20:00:00+00:00",
        "table": {
            "name": "Sunday family",
            "alternate_bonus": False,
            "archived": False,
            "members": ["Ann", "Ben", "Cy"],
        },
        "games": [
            {
                "created_at": "2026-12-06T19:00:00+00:00",
                "rules": Rules().as_dict(),
                "first_dealer": 0,
                "archived": False,
                "players": [
                    {"name": "Ann", "member": 0, "handicap": 0},
                    {"name": "Ben", "member": 1, "handicap": 0},
                    {"name": "Cy", "member": 2, "handicap": 0},
                ],
                "house_words": [{"word": "zax", "allowed": True}],
                "rounds": [
                    {
                        "number": 1,
                        "closed": True,
                        "hands": [
                            seat(0, [["c", "a", "t"]], [], True),
                            seat(1, [["d", "o", "g"]], []),
                            seat(2, [["o", "x"]], ["m"]),
                        ],
                        "challenges": [],
                    },
                    {
                        "number": 2,
                        "closed": False,
                        "hands": [
                            seat(0, [["qu", "i", "z"]], ["m"]),
                            seat(1, [["t", "o", "p"]], ["a"]),
                            seat(2, [["j", "a", "b", "s"]], [], True),
                        ],
                        "challenges": [
                            {
                                "number": 1,
                                "by_seat": 1,
                                "player_seat": 0,
                                "word": 0,
                                "legal": True,
                                "decided_by": "dictionary",
                                "reason": "in_dictionary",
                                "lexicon": "standard",
                                "advice_legal": None,
                                "advice_reason": None,
                                "votes": [],
                            }
                        ],
                    },
                ],
                "keep_photos": False,
            }
        ],
    }


def test_the_hand_made_backup_is_taken(act: Act) -> None:
    created = act(backup.import_group, valid())
    [game] = created.state.games
    state = act.read(game.id)
    assert [p.score for p in state.rounds[0].result.players] == [13, 13, 9]  # type: ignore[union-attr]
    assert state.rounds[1].result.challenges[0].charged_to == "Ben"  # type: ignore[union-attr]
    assert exported(act, created.state.id) == {
        k: v for k, v in valid().items() if k != "exported_at"
    }


Change = Callable[[dict[str, Any]], object]


def test_a_game_keeping_photos_is_backed_up_without_them(act: Act) -> None:
    """``keep_photos`` goes with the game; a file written before it existed still imports
    (a game that keeps none). The photos themselves are never in the file."""
    data = valid()
    data["games"][0]["keep_photos"] = True
    created = act(backup.import_group, data)
    [game] = created.state.games
    assert act.read(game.id).keep_photos
    assert exported(act, created.state.id)["games"][0]["keep_photos"] is True
    older = valid()
    del older["games"][0]["keep_photos"]
    [game] = act(backup.import_group, older).state.games
    assert not act.read(game.id).keep_photos


def at(path: str, value: object) -> Change:
    """Set the field at ``path`` (``games.0.rounds.1.closed``) to ``value``."""

    def change(data: dict[str, Any]) -> None:
        *head, last = path.split(".")
        target: Any = data
        for key in head:
            target = target[int(key)] if key.isdigit() else target[key]
        target[int(last) if last.isdigit() else last] = value

    return change


def dropped(path: str) -> Change:
    def change(data: dict[str, Any]) -> None:
        *head, last = path.split(".")
        target: Any = data
        for key in head:
            target = target[int(key)] if key.isdigit() else target[key]
        del target[int(last) if last.isdigit() else last]

    return change


def both(*changes: Change) -> Change:
    def change(data: dict[str, Any]) -> None:
        for one in changes:
            one(data)

    return change


def too_many_games(data: dict[str, Any]) -> None:
    data["games"] = data["games"] * 2001


G, R0, R1 = "games[0]", "games[0].rounds[0]", "games[0].rounds[1]"

BROKEN: list[tuple[str, Change | list[object], str, str, dict[str, object]]] = [
    ("not an object", [1, 2], "backup_field_type", "", {"expected": "object"}),
    ("wrong format", at("format", "quiddler/game"), "backup_format", "format",
     {"expected": "quiddler-companion/table"}),
    ("wrong version", at("version", 2), "backup_version", "version",
     {"version": 2, "supported": 1}),
    ("field missing", dropped("table.members"), "backup_field_missing", "table.members",
     {"field": "members"}),
    ("wrong type", at("games.0.archived", "no"), "backup_field_type", f"{G}.archived",
     {"expected": "true_or_false"}),
    ("photos not a flag", at("games.0.keep_photos", "yes"), "backup_field_type",
     f"{G}.keep_photos", {"expected": "true_or_false"}),
    ("bad time", at("games.0.created_at", "yesterday"), "backup_field_type", f"{G}.created_at",
     {"expected": "time"}),
    ("unknown field", at("table.colour", "red"), "unknown_field", "table.colour",
     {"field": "colour", "keys": ["alternate_bonus", "archived", "members", "name"]}),
    ("unknown card", at("games.0.rounds.0.hands.0.words.0.1", "ä"), "not_a_card",
     f"{R0}.hands[0].words[0][1]", {"card": "ä"}),
    ("bad rules", at("games.0.rules.bonus", -1), "points_range", f"{G}.rules.bonus",
     {"most": 1000}),
    ("table name missing", at("table.name", "  "), "table_name_missing", "table.name", {}),
    ("member index out of range", at("games.0.players.2.member", 3), "backup_no_member",
     f"{G}.players[2].member", {"member": 3, "members": 3}),
    ("member at two seats", at("games.0.players.2.member", 0), "backup_member_twice",
     f"{G}.players[2].member", {"name": "Ann"}),
    ("player named twice", at("games.0.players.2.name", "ann"), "name_twice",
     f"{G}.players[2].name", {"name": "ann"}),
    ("first dealer out of range", at("games.0.first_dealer", 3), "first_dealer_range",
     f"{G}.first_dealer", {"seats": 3}),
    ("seat out of range", at("games.0.rounds.1.challenges.0.by_seat", 3), "no_such_seat",
     f"{R1}.challenges[0].by_seat", {"seat": 3, "seats": 3}),
    ("hand seat out of range", at("games.0.rounds.0.hands.2.seat", 5), "no_such_seat",
     f"{R0}.hands[2].seat", {"seat": 5, "seats": 3}),
    ("round number past the plan", at("games.0.rounds.1.number", 9), "no_such_round",
     f"{R1}.number", {"number": 9, "rounds": 8}),
    ("round numbers out of order", at("games.0.rounds.1.number", 1), "backup_not_increasing",
     f"{R1}.number", {"field": "number"}),
    ("a round skipped", at("games.0.rounds.1.number", 3), "previous_round_not_started", R1,
     {"number": 3, "previous": 2}),
    ("wrong hand size", at("games.0.rounds.0.hands.2.unused", []), "hand_size",
     f"{R0}.hands[2]", {"player": "Cy", "have": 2, "need": 3, "round": 1}),
    ("a closed round after an open one",
     both(at("games.0.rounds.0.closed", False), dropped("games.0.rounds.0.hands.2"),
          at("games.0.rounds.1.closed", True)),
     "previous_round_open", R1, {"number": 2, "previous": 1}),
    ("a closed round with a hand missing", dropped("games.0.rounds.0.hands.1"), "round_waiting",
     f"{R0}.hands", {"number": 1, "waiting": ["Ben"]}),
    ("two hands going out", at("games.0.rounds.0.hands.1.went_out", True), "went_out_twice",
     f"{R0}.hands[1].went_out", {"first": "Ann", "second": "Ben"}),
    ("two going out, round half in", both(at("games.0.rounds.1.challenges", []),
                                          dropped("games.0.rounds.1.hands.1"),
                                          at("games.0.rounds.1.hands.0.went_out", True)),
     "went_out_twice", f"{R1}.hands[0].went_out", {"first": "Cy", "second": "Ann"}),
    ("too many copies of a card", both(at("games.0.rounds.0.hands.2.words", [["c", "o"]]),
                                       at("games.0.rounds.0.hands.2.unused", ["c"])),
     "deck_copies", f"{R0}.hands[2].unused[0]", {"card": "c", "copies": 2, "count": 3}),
    ("a word of one card", at("games.0.rounds.0.hands.2.words", [["o"], ["x"]]), "word_one_card",
     f"{R0}.hands[2].words[0]", {"player": "Cy", "card": "o", "double": False}),
    ("a challenge of a word that doesn't exist", at("games.0.rounds.1.challenges.0.word", 5),
     "challenge_no_word", f"{R1}.challenges[0].word", {"player": "Ann", "count": 1}),
    ("a challenge of one's own word", at("games.0.rounds.1.challenges.0.by_seat", 0),
     "challenge_own_word", f"{R1}.challenges[0].by_seat", {"player": "Ann"}),
    ("an unknown decider", at("games.0.rounds.1.challenges.0.decided_by", "coin"),
     "choice_unknown", f"{R1}.challenges[0].decided_by",
     {"choices": ["dictionary", "pending", "scorekeeper", "table", "vote"]}),
    ("a vote still open in a closed round",
     both(at("games.0.rounds.1.challenges.0.decided_by", "pending"),
          at("games.0.rounds.1.closed", True)),
     "backup_vote_open", f"{R1}.challenges[0].decided_by", {"number": 1}),
    ("a house word not letters", at("games.0.house_words.0.word", "za x"), "house_word_letters",
     f"{G}.house_words[0].word", {"least": 2, "most": 40}),
    ("too many games", too_many_games, "backup_too_big", "games", {"count": 2001, "most": 2000}),
]  # fmt: skip


@pytest.mark.parametrize(
    ("change", "code", "where", "params"),
    [pytest.param(*case[1:], id=case[0]) for case in BROKEN],
)
def test_a_broken_file_is_refused_whole(
    act: Act, change: Change | list[object], code: str, where: str, params: dict[str, object]
) -> None:
    act(groups.create_group, "Already here", ["Zed", "Yan"])  # rows that must stay as they are
    data: object = change
    if callable(change):
        data = valid()
        change(data)  # type: ignore[arg-type]
    with act.refused(RuleError, code, where, **params):
        act(backup.import_group, data)
