"""Properties of round scoring over random legal rounds dealt from a real shuffled deck."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.game.deck import CARDS
from companion.game.parse import parse_play, parse_rules
from companion.game.scoring import score_round
from companion.game.standings import running_totals

FULL_DECK = tuple(c for c in CARDS for _ in range(c.copies))
SETTINGS = settings(max_examples=100, deadline=None)  # new random rounds every run


@st.composite
def split_into_words(draw, cards):
    """Some of ``cards`` as words of at least two cards, the rest unused."""
    in_words = draw(st.sampled_from([0, *range(2, len(cards) + 1)]))
    words, rest = [], list(cards[:in_words])
    while rest:
        size = draw(st.integers(2, len(rest)))
        if len(rest) - size == 1:
            size += 1
        words.append(rest[:size])
        rest = rest[size:]
    return words, list(cards[in_words:])


@st.composite
def rules(draw):
    """Every combination of the house rules scoring reads (every variant)."""
    return {
        "min_word": draw(st.sampled_from(["cards", "letters", "one_card"])),
        "two_player_bonus": draw(st.sampled_from(["longest", "most", "both"])),
        "bonus": draw(st.sampled_from([0, 10, 25])),
        "floor": draw(st.sampled_from(["round", "before_bonus", "total", "off"])),
        "leftover_penalty": draw(st.booleans()),
        "false_out_penalty": draw(st.sampled_from([0, 15])),
    }


@st.composite
def rounds(draw):
    """A round as the API takes it: hands dealt from one shuffled deck, words, challenges."""
    count = draw(st.integers(2, 8))
    round_number = draw(st.integers(1, 8))
    size = round_number + 2
    deck = list(FULL_DECK)
    random.Random(draw(st.integers(0, 2**32 - 1))).shuffle(deck)  # one draw: fast, replayable
    went_out = draw(st.none() | st.integers(0, count - 1))
    players = []
    for i in range(count):
        words, unused = draw(split_into_words(deck[i * size : (i + 1) * size]))
        players.append({
            "name": f"P{i}",
            "words": [[c.name for c in w] for w in words],
            "unused": [c.name for c in unused],
            "went_out": went_out == i,
        })  # fmt: skip
    challenges = []
    for i, player in enumerate(players):
        for j in range(len(player["words"])):
            if draw(st.booleans()):
                by = draw(st.sampled_from([k for k in range(count) if k != i]))
                challenges.append({
                    "by": f"P{by}",
                    "player": player["name"],
                    "word": j,
                    "ruling": draw(st.sampled_from(["legal", "illegal"])),
                })  # fmt: skip
    challenges = draw(st.permutations(challenges))
    return {"round": round_number, "players": players, "challenges": list(challenges)}


def scored(raw, rules_raw):
    return score_round(parse_play(raw), parse_rules(rules_raw))


@SETTINGS
@given(rounds(), rules())
def test_score_is_the_total_floored_where_the_floor_says(raw, rules_raw):
    """Zero floor: with "round" or "before_bonus" no round score is negative; "round" is
    the total floored, "before_bonus" floors the part without bonuses and adds them;
    "total" and "off" keep the signed total."""
    for p in scored(raw, rules_raw).players:
        bonuses = p.bonus_most_words + p.bonus_longest_word
        if rules_raw["floor"] == "round":
            assert p.score == max(p.total, 0) >= 0
        elif rules_raw["floor"] == "before_bonus":
            assert p.score == max(p.total - bonuses, 0) + bonuses >= bonuses >= 0
        else:
            assert p.score == p.total
        left = p.unused_points if rules_raw["leftover_penalty"] else 0
        assert p.unused_penalty == left


@SETTINGS
@given(rounds(), rules(), st.data())
def test_seating_order_changes_no_result(raw, rules_raw, data):
    """Reordering the players changes nobody's result, nor any ruling."""
    order = data.draw(st.permutations(range(len(raw["players"]))))
    reordered = {**raw, "players": [raw["players"][i] for i in order]}
    before, after = scored(raw, rules_raw), scored(reordered, rules_raw)
    assert {p.name: p.as_dict() for p in before.players} == {
        p.name: p.as_dict() for p in after.players
    }
    assert [c.as_dict() for c in before.challenges] == [c.as_dict() for c in after.challenges]


@SETTINGS
@given(rounds(), rules())
def test_each_bonus_goes_to_the_strict_leader_among_standing_words(raw, rules_raw):
    """Bonuses: at most one player gets each, the strict leader on the words left standing."""
    result = scored(raw, rules_raw)
    two = len(result.players) == 2 and rules_raw["two_player_bonus"] != "both"
    for kind, in_play, measure in (
        ("bonus_most_words", not two or rules_raw["two_player_bonus"] == "most", len),
        (
            "bonus_longest_word",
            not two or rules_raw["two_player_bonus"] == "longest",
            lambda ws: max((w.letters for w in ws), default=0),
        ),
    ):
        got = {p.name: getattr(p, kind) for p in result.players}
        assert sum(1 for v in got.values() if v) <= 1
        counts = {p.name: measure(p.standing_words) for p in result.players}
        best = max(counts.values())
        leaders = [n for n, c in counts.items() if c == best]
        expected = leaders[0] if in_play and best > 0 and len(leaders) == 1 else None
        assert got == {n: rules_raw["bonus"] if n == expected else 0 for n in got}


@SETTINGS
@given(rounds(), rules())
def test_a_struck_word_moves_its_value_from_words_to_unused(raw, rules_raw):
    """Challenges: striking a word moves exactly its value from word points to unused points."""
    result = scored(raw, rules_raw)
    for n, ch in enumerate(raw["challenges"]):
        if ch["ruling"] != "illegal":
            continue
        without = {**raw, "challenges": raw["challenges"][:n] + raw["challenges"][n + 1 :]}
        other = scored(without, rules_raw)
        moved = result.challenges[n].points
        for p, q in zip(result.players, other.players, strict=True):
            shift = moved if p.name == ch["player"] else 0
            assert p.word_points == q.word_points - shift
            assert p.unused_points == q.unused_points + shift


@SETTINGS
@given(rounds(), rules())
def test_every_dealt_card_is_counted_once_whatever_the_challenges(raw, rules_raw):
    """Words and unused together hold every dealt card's value, with or without challenges."""
    dealt = sum(c.value for c, _ in parse_play(raw).placed_cards())
    result = scored(raw, rules_raw)
    unchallenged = scored({**raw, "challenges": []}, rules_raw)
    for r in (result, unchallenged):
        assert sum(p.word_points + p.unused_points for p in r.players) == dealt


@SETTINGS
@given(rounds(), rules())
def test_total_is_the_sum_of_its_parts(raw, rules_raw):
    """Scoring: total = words - unused (unless the house rule leaves leftovers out) +
    bonuses - challenge penalty - false-out penalty."""
    result = scored(raw, rules_raw)
    for p in result.players:
        d = p.as_dict()
        assert d["unused_penalty"] == (d["unused_points"] if rules_raw["leftover_penalty"] else 0)
        assert d["total"] == (
            d["word_points"]
            - d["unused_penalty"]
            + d["bonus_most_words"]
            + d["bonus_longest_word"]
            - d["challenge_penalty"]
            - d["false_out_penalty"]
        )
        assert d["word_points"] == sum(w["value"] for w in d["words"] if not w["struck"])
        assert d["unused_points"] == sum(c.value for c in p.unused)


@SETTINGS
@given(rounds(), rules())
def test_penalties_follow_the_rulings(raw, rules_raw):
    """Challenges: a legal ruling charges the challenger the word's value; a false out pays once."""
    result = scored(raw, rules_raw)
    expected = {p.name: 0 for p in result.players}
    for c in result.challenges:
        if c.ruling.legal:
            expected[c.challenge.by] += c.points
    assert {p.name: p.challenge_penalty for p in result.players} == expected
    for p in result.players:
        false_out = p.went_out and len(p.unused) > 0
        assert p.false_out_penalty == (rules_raw["false_out_penalty"] if false_out else 0)


@SETTINGS
@given(
    st.lists(st.lists(st.integers(-120, 120), min_size=3, max_size=3), max_size=20),
    st.lists(st.integers(0, 50), min_size=3, max_size=3),
)
def test_the_total_floor_never_leaves_a_running_total_below_zero(scores, handicap):
    """With the "total" floor no running total is negative after any round, it starts at
    the handicap, and it moves by the round's score whenever that keeps it at 0 or more."""
    lines = running_totals(scores, handicap, floor_total=True)
    for seat, line in enumerate(lines):
        assert line[0] == handicap[seat]
        assert all(t >= 0 for t in line)
        for k, score in enumerate(s[seat] for s in scores):
            assert line[k + 1] == max(line[k] + score, 0)
    plain = running_totals(scores, handicap)
    assert [line[-1] for line in plain] == [
        handicap[seat] + sum(s[seat] for s in scores) for seat in range(3)
    ]
