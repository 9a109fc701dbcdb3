"""Properties of a table's records over random finished games dealt from a real deck."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.game.deck import CARDS
from companion.game.parse import parse_play, parse_rules
from companion.game.records import PlayedGame, game_recap, table_records
from companion.game.scoring import score_round
from companion.game.standings import running_totals

FULL_DECK = tuple(c for c in CARDS for _ in range(c.copies))
SETTINGS = settings(max_examples=60, deadline=None)
MEMBERS = {1: "Ann", 2: "Ben", 3: "Cy", 4: "Dee"}
START = datetime(2024, 3, 1, 19, 0)


@st.composite
def words_and_unused(draw, cards):
    """Some of ``cards`` as words of at least two cards, the rest unused."""
    in_words = draw(st.sampled_from([0, *range(2, len(cards) + 1)]))
    words, rest = [], list(cards[:in_words])
    while rest:
        size = draw(st.integers(2, len(rest)))
        if len(rest) - size == 1:
            size += 1
        words.append([c.name for c in rest[:size]])
        rest = rest[size:]
    return words, [c.name for c in cards[in_words:]]


@st.composite
def played_game(draw, n):
    """A finished game of 2 to 5 seats (members or guests) and 1 to 3 rounds."""
    seats = draw(st.integers(2, 5))
    members = draw(
        st.lists(st.sampled_from([*MEMBERS, None]), min_size=seats, max_size=seats).filter(
            lambda ms: len([m for m in ms if m]) == len({m for m in ms if m})
        )
    )
    names = [f"P{i}" for i in range(seats)]
    rules_raw = {
        "floor": draw(st.sampled_from(["round", "before_bonus", "total", "off"])),
        "bonus": draw(st.sampled_from([0, 10])),
    }
    rules = parse_rules(rules_raw)
    rounds = []
    for number in range(1, draw(st.integers(1, 3)) + 1):
        deck = list(FULL_DECK)
        random.Random(draw(st.integers(0, 2**32 - 1))).shuffle(deck)
        size = rules.hand_size(number)
        players = []
        for i, name in enumerate(names):
            words, unused = draw(words_and_unused(deck[i * size : (i + 1) * size]))
            players.append({"name": name, "words": words, "unused": unused})
        challenges = [
            {"by": names[(i + 1) % seats], "player": p["name"], "word": j, "ruling": ruling}
            for i, p in enumerate(players)
            for j in range(len(p["words"]))
            if (ruling := draw(st.sampled_from([None, "legal", "illegal"])))
        ]
        raw = {"round": number, "players": players, "challenges": challenges}
        rounds.append(score_round(parse_play(raw, rules), rules))
    handicap = draw(st.lists(st.integers(0, 20), min_size=seats, max_size=seats))
    lines = running_totals(
        [[p.score for p in r.players] for r in rounds], handicap, rules_raw["floor"] == "total"
    )
    hours = draw(st.integers(0, 30))
    left = draw(st.none() | st.lists(st.integers(0, 50), min_size=seats, max_size=seats))
    return PlayedGame(
        game_id=f"g{n}",
        started=START + timedelta(hours=hours),
        members=tuple(members),
        names=tuple(names),
        rounds=tuple(rounds),
        numbers=tuple(range(1, len(rounds) + 1)),
        totals=tuple(line[-1] for line in lines),
        left=None if left is None else tuple(left),
    )


@st.composite
def played_games(draw):
    return [draw(played_game(n)) for n in range(draw(st.integers(0, 4)))]


def member_words(games, member):
    """Each word ``member`` laid down and kept (not struck), over the games they sat in."""
    return [
        w
        for g in games
        if member in g.members
        for r in g.rounds
        for w in r.players[g.members.index(member)].standing_words
    ]


def member_rounds(games, member):
    """Each round score of ``member``, over the games they sat in."""
    return [
        r.players[g.members.index(member)].score
        for g in games
        if member in g.members
        for r in g.rounds
    ]


@SETTINGS
@given(played_games())
def test_each_members_figures_add_up(games):
    """Round points sum their round scores, rounds count them, a win (alone or shared)
    only in a game played, the best round is the highest round score, the best and longest
    words the highest and longest kept; left on the table and head-to-head agree."""
    records = table_records(games, MEMBERS)
    assert [p.member for p in records.players] == list(MEMBERS)
    for p in records.players:
        scores = member_rounds(games, p.member)
        played = [g for g in games if p.member in g.members]
        assert p.round_points == sum(scores)
        assert p.rounds == len(scores)
        assert p.games == len(played)
        assert p.wins + p.shared_wins <= p.games
        assert p.best_round is None if not scores else p.best_round.score == max(scores)
        assert (
            p.best_game is None
            if not played
            else p.best_game.total == max(g.totals[g.members.index(p.member)] for g in played)
        )
        if any(g.left is None for g in played):
            assert p.left_on_table is None
        else:
            assert p.left_on_table == sum(g.left[g.members.index(p.member)] for g in played)
        for other, h2h in p.head_to_head.items():
            both = [g for g in played if other in g.members]
            assert h2h.ahead + h2h.behind + h2h.level == len(both)
            mirror = records.player(other).head_to_head[p.member]
            assert (h2h.ahead, h2h.behind, h2h.level) == (mirror.behind, mirror.ahead, mirror.level)


@SETTINGS
@given(played_games())
def test_the_tables_feats_are_the_best_of_its_members(games):
    """The table's best round and game are the highest of any member's; evenings hold
    every game once, newest first."""
    records = table_records(games, MEMBERS)
    rounds = [s for m in MEMBERS for s in member_rounds(games, m)]
    assert (records.best_round.score if records.best_round else None) == max(rounds, default=None)
    words = [p.best_word.value for p in records.players if p.best_word]
    assert (records.best_word.value if records.best_word else None) == max(words, default=None)
    assert records.games == len(games)
    assert sorted(g for e in records.evenings for g in e.games) == sorted(g.game_id for g in games)
    starts = [e.started for e in records.evenings]
    assert starts == sorted(starts, reverse=True)


@SETTINGS
@given(played_game(0))
def test_a_recap_agrees_with_the_game(game):
    """Each seat's round scores and total are the game's, the winners the seats with the
    highest total; a bonus line for every round, a line for every challenge."""
    recap = game_recap(game)
    for seat in recap.seats:
        assert seat.rounds == tuple(r.players[seat.seat].score for r in game.rounds)
        assert seat.total == game.totals[seat.seat]
    best = max(game.totals)
    assert recap.winners == tuple(
        n for n, t in zip(game.names, game.totals, strict=True) if t == best
    )
    assert len(recap.bonuses) == len(game.rounds)
    assert len(recap.challenges) == sum(len(r.challenges) for r in game.rounds)
