"""A table's records read from the stored games (``companion.actions.records``): every
figure of known games exactly, the figures following the games when one changes, and a
property: each member's statistics agree with summing the rounds their games export.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from dataclasses import replace
from datetime import datetime, timedelta

from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import update

from companion.actions import games, groups, records
from companion.game.deck import CARDS, Card
from companion.game.play import Hand, Play
from companion.game.records import HeadToHead
from companion.game.rules import Rules
from companion.lexicon import LexiconStore
from companion.store.cache import cache
from companion.store.db import db
from companion.store.models import Game
from tests.actions.support import ROUND_1, ROUND_2, Act, hand

TWO_ROUNDS = Rules(hands=(3, 4))
"""ROUND_1 then ROUND_2 (tests/actions/support.py): Ann 13 + 20, Ben 13 + 9, Cy 9 + 26."""


def play_game(act: Act, lexicons: LexiconStore, created: games.Created, *plays: Play) -> None:
    """Save and close each round of ``plays`` in turn."""
    for number, play in enumerate(plays, 1):
        act(games.save_round, lexicons, created.state.id, created.token, number, play)
        act(games.set_closed, created.state.id, created.token, number, True)


def started(act: Act, game_id: str, when: datetime) -> None:
    """Say when a game was started (the evenings are told apart by it)."""
    with act.app.app_context():
        db.session.execute(update(Game).where(Game.id == game_id).values(created_at=when))
        db.session.commit()


def left_of(act: Act, lexicons: LexiconStore, game_id: str) -> list[int]:
    """The points each seat left on the table, as the rounds' best-play reviews say."""
    from companion import store
    from companion.actions.review import review_round

    with act.app.app_context():
        state = store.state_of(store.get_game(game_id))
        totals = [0] * len(state.names)
        for r in state.rounds:
            for seat, review in enumerate(review_round(lexicons, state, r)):
                totals[seat] += review.left
    return totals


def test_records_of_known_games_every_figure(act: Act, lexicons: LexiconStore) -> None:
    table = act(groups.create_group, "Sundays", ["Ann", "Ben", "Cy", "Dee"])
    ann, ben, cy, dee = (m for m, _ in table.state.members)
    first = act(
        groups.start_game,
        lexicons,
        table.state.id,
        table.token,
        ["Ann", "Ben", "Cy"],
        0,
        TWO_ROUNDS,
    )
    play_game(act, lexicons, first, ROUND_1, ROUND_2)  # Ann 33, Ben 22, Cy 35: Cy wins
    second = act(
        groups.start_game,
        lexicons,
        table.state.id,
        table.token,
        ["Ann", "Ben", "Cy"],
        1,
        TWO_ROUNDS,
    )
    # Round 1 again; round 2 with Ben's TOP for Cy's JABS: Ann 33, Ben 13 + 26, Cy 9 + 9.
    swapped = Play(
        (
            hand("Ann", "qu-i-z", unused="m"),
            hand("Ben", "jabs", out=True),
            hand("Cy", "top", unused="a"),
        )
    )
    play_game(act, lexicons, second, ROUND_1, swapped)  # Ann 33, Ben 39, Cy 18: Ben wins
    unfinished = act(
        groups.start_game, lexicons, table.state.id, table.token, ["Ann", "Ben"], 0, TWO_ROUNDS
    )
    monday = datetime(2026, 11, 30, 19, 0)
    started(act, first.state.id, monday)
    started(act, second.state.id, monday + timedelta(hours=1))
    started(act, unfinished.state.id, monday + timedelta(days=2))

    found = act(records.group_records, lexicons, table.state.id)
    assert [c.finished for c in found.counted] == [True, True, False]
    rec = found.records
    assert rec.games == 2
    by = {p.member: p for p in rec.players}
    assert [p.name for p in rec.players] == ["Ann", "Ben", "Cy", "Dee"]
    a, b, c, d = by[ann], by[ben], by[cy], by[dee]
    assert (a.games, a.wins, a.shared_wins, a.rounds, a.round_points) == (2, 0, 0, 4, 66)
    assert (b.games, b.wins, b.shared_wins, b.rounds, b.round_points) == (2, 1, 0, 4, 61)
    assert (c.games, c.wins, c.shared_wins, c.rounds, c.round_points) == (2, 1, 0, 4, 53)
    assert (d.games, d.rounds, d.best_word, d.average_round) == (0, 0, None, None)
    assert a.average_round == 16.5
    assert b.best_round is not None and (b.best_round.score, b.best_round.round) == (26, 2)
    assert b.best_round.game_id == second.state.id
    assert c.best_game is not None and (c.best_game.total, c.best_game.game_id) == (
        35,
        first.state.id,
    )
    assert a.best_word is not None
    assert (a.best_word.text, a.best_word.value, a.best_word.round) == ("quiz", 25, 2)
    assert [card.name for card in a.best_word.cards] == ["qu", "i", "z"]
    assert rec.best_word is not None and rec.best_word.name == "Cy"  # JABS 26, the earlier
    assert (rec.best_word.text, rec.best_word.game_id) == ("jabs", first.state.id)
    assert rec.best_game is not None and (rec.best_game.name, rec.best_game.total) == ("Ben", 39)
    assert a.head_to_head[ben] == HeadToHead(ahead=1, behind=1, level=0)
    assert b.head_to_head[cy] == HeadToHead(ahead=1, behind=1, level=0)
    assert a.head_to_head[dee] == HeadToHead()
    # One evening (the two games an hour apart): Ben and Cy one win each; Ben's totals
    # 22 + 39 = 61 beat Cy's 35 + 18 = 53.
    [evening] = rec.evenings
    assert evening.games == (first.state.id, second.state.id)
    assert evening.winners == (ben,)
    # Points left on the table: the sums of the rounds' best-play reviews.
    left = [
        x + y
        for x, y in zip(*(left_of(act, lexicons, g.state.id) for g in (first, second)), strict=True)
    ]
    assert [a.left_on_table, b.left_on_table, c.left_on_table] == left


def test_records_follow_a_game_reopened_and_changed(act: Act, lexicons: LexiconStore) -> None:
    table = act(groups.create_group, "Pair", ["Ann", "Ben"])
    created = act(
        groups.start_game,
        lexicons,
        table.state.id,
        table.token,
        ["Ann", "Ben"],
        0,
        Rules(hands=(3,)),
    )
    play_game(act, lexicons, created, Play((hand("Ann", "cat", out=True), hand("Ben", "dog"))))
    before = act(records.group_records, lexicons, table.state.id).records
    assert [p.round_points for p in before.players] == [13, 13]
    gid, token = created.state.id, created.token
    act(games.set_closed, gid, token, 1, False)
    assert act(records.group_records, lexicons, table.state.id).records.games == 0
    changed = Play((hand("Ann", "cat", out=True), hand("Ben", "ox", unused="m")))
    act(games.save_round, lexicons, gid, token, 1, changed)
    act(games.set_closed, gid, token, 1, True)
    after = act(records.group_records, lexicons, table.state.id).records
    assert [p.round_points for p in after.players] == [23, 9]  # CAT the longest: +10
    assert [p.wins for p in after.players] == [1, 0]


# --- the property --------------------------------------------------------------------


def within_deck(cards: list[Card]) -> bool:
    return all(n <= card.copies for card, n in Counter(cards).items())


@st.composite
def round_ones(draw: st.DrawFn, seated: tuple[str, ...]) -> Play:
    """A round 1 that could happen: each hand of three cards a word of three, a word of
    two and a card left over, or nothing laid down."""
    dealt = draw(st.lists(st.sampled_from(CARDS), min_size=9, max_size=9).filter(within_deck))
    out = draw(st.none() | st.integers(0, len(seated) - 1))
    hands = []
    for seat, name in enumerate(seated):
        mine = tuple(dealt[3 * seat : 3 * seat + 3])
        split = draw(st.sampled_from((0, 2, 3)))
        words = (mine[:split],) if split else ()
        hands.append(Hand(name, words, mine[split:], out == seat))
    return Play(tuple(hands))


MEMBERS = ("Ann", "Ben", "Cy", "Dee")


@st.composite
def evenings(draw: st.DrawFn) -> list[Played]:
    """One to four one-round games of two or three of the members (and a guest)."""
    out = []
    for _ in range(draw(st.integers(1, 4))):
        seated = tuple(
            draw(st.lists(st.sampled_from((*MEMBERS, "Gus")), min_size=2, max_size=3, unique=True))
        )
        rules = Rules(
            hands=(3,),
            floor=draw(st.sampled_from(("round", "total", "off"))),
            two_player_bonus=draw(st.sampled_from(("longest", "most", "both"))),
        )
        out.append((seated, rules, draw(round_ones(seated))))
    return out


Played = tuple[tuple[str, ...], Rules, Play]


def exported(client: FlaskClient, game_id: str) -> dict[str, tuple[list[int], int]]:
    """Each player's round scores and final total as the game's CSV export has them."""
    body = client.get(f"/games/{game_id}/export.csv").get_data(as_text=True)
    out: dict[str, tuple[list[int], int]] = {}
    for row in csv.DictReader(io.StringIO(body)):
        if row["closed"] == "yes":
            scores, _ = out.get(row["player"], ([], 0))
            out[row["player"]] = ([*scores, int(row["score"])], int(row["running_total"]))
    return out


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(games_played=evenings())
def test_each_members_statistics_agree_with_their_exported_rounds(
    app: Flask,
    act: Act,
    lexicons: LexiconStore,
    games_played: list[tuple[tuple[str, ...], Rules, Play]],
) -> None:
    table = act(groups.create_group, "Any", list(MEMBERS))
    ids = {n: m for m, n in table.state.members}
    for seated, rules, play in games_played:
        created = act(
            groups.start_game, lexicons, table.state.id, table.token, list(seated), 0, rules
        )
        play_game(act, lexicons, created, play)
    found = act(records.group_records, lexicons, table.state.id)
    client = app.test_client()
    games_out = [exported(client, c.summary.game_id) for c in found.counted]
    for name in MEMBERS:
        mine = [s for game in games_out if name in game for s in game[name][0]]
        totals = [game[name][1] for game in games_out if name in game]
        player = found.records.player(ids[name])
        assert player.games == len(totals)
        assert player.rounds == len(mine)
        assert player.round_points == sum(mine)
        assert (player.best_round.score if player.best_round else None) == max(mine, default=None)
        assert (player.best_game.total if player.best_game else None) == max(totals, default=None)
        firsts = [
            game[name][1] == max(t for _, t in game.values()) for game in games_out if name in game
        ]
        assert player.wins + player.shared_wins == sum(firsts)


def test_a_fresh_process_reads_the_summaries_another_kept(act: Act, lexicons: LexiconStore) -> None:
    """The summaries are kept across processes (Flask-Caching): a worker with nothing in
    its own LRU reads the kept one (here altered, to tell it from one worked out again),
    and a game changed since is worked out again under its new version."""
    table = act(groups.create_group, "Pair", ["Ann", "Ben"])
    created = act(
        groups.start_game,
        lexicons,
        table.state.id,
        table.token,
        ["Ann", "Ben"],
        0,
        Rules(hands=(3,)),
    )
    play_game(act, lexicons, created, Play((hand("Ann", "cat", out=True), hand("Ben", "dog"))))
    first = act(records.group_records, lexicons, table.state.id)
    [game] = first.group.games
    with act.app.app_context():
        key = records._key(game)
        assert cache.get(key) == first.counted[0]
        altered = replace(first.counted[0].summary, totals=(99, 0))
        cache.set(key, replace(first.counted[0], summary=altered))
    records._kept.clear()  # a fresh worker: nothing in its own LRU
    found = act(records.group_records, lexicons, table.state.id).records
    assert found.best_game is not None and found.best_game.total == 99
    act(groups.set_game_archived, created.state.id, created.token, True)  # a new version
    found = act(records.group_records, lexicons, table.state.id).records
    assert found.best_game is not None and found.best_game.total == 13


def test_a_big_table_seen_first_is_worked_out_over_several_requests(
    act: Act, lexicons: LexiconStore
) -> None:
    """With no time left to work games out, a request works out one game (never none, so
    the page's own refreshes get through the table) and says how many are left; the
    records leave those out until then."""
    table = act(groups.create_group, "Pair", ["Ann", "Ben"])
    for _ in range(3):
        created = act(
            groups.start_game,
            lexicons,
            table.state.id,
            table.token,
            ["Ann", "Ben"],
            0,
            Rules(hands=(3,)),
        )
        play = Play((hand("Ann", "cat", out=True), hand("Ben", "dog")))
        play_game(act, lexicons, created, play)
    records._kept.clear()
    with act.app.app_context():
        cache.clear()
    seen = [act(records.group_records, lexicons, table.state.id, 0.0) for _ in range(3)]
    assert [(3 - s.pending, s.pending, s.records.games) for s in seen] == [
        (1, 2, 1),
        (2, 1, 2),
        (3, 0, 3),
    ]
    assert [p.round_points for p in seen[-1].records.players] == [39, 39]
