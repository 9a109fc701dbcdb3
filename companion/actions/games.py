"""The use cases of a game at the table: one function per thing a person does.

Each takes plain values and parsed game objects, runs in one transaction (the
game's row locked first, so two phones writing the same game take turns), and
returns the state *that write produced*, read inside the transaction. A refusal
leaves the database as it was.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion import store
from companion.actions.judging import game_judge, lexicon
from companion.game.challenges import PENDING, tally, vote_ruling
from companion.game.deck import text
from companion.game.errors import Conflict, Forbidden, NotFound, RuleError
from companion.game.play import HOUSE_WORD_LETTERS as HOUSE_WORD_LETTERS
from companion.game.play import Challenge, Play, check_names, house_word_key
from companion.game.rules import Rules
from companion.game.scoring import ChallengeResult, score_round
from companion.lexicon import LexiconStore
from companion.store import GameState, RoundState
from companion.store.models import Challenge as ChallengeRow
from companion.store.models import Game


@dataclass(frozen=True)
class Created:
    """A new game and its edit token (shown once, stored hashed)."""

    state: GameState
    token: str


@dataclass(frozen=True)
class Challenged:
    """A ruled challenge: the round rescored, the challenge's number, the game's lexicon."""

    round: RoundState
    number: int
    lexicon: str

    def ruled(self) -> ChallengeResult:
        """The challenge as the rescored round rules it."""
        result = self.round.result
        assert result is not None  # challenge() refuses a round with a hand missing
        return result.challenges[self.round.challenge_numbers.index(self.number)]


def create_game(
    lexicons: LexiconStore,
    names: list[str],
    first_dealer: int,
    rules: Rules,
    handicap: tuple[int, ...] = (),
    group_id: str | None = None,
    members: tuple[int | None, ...] = (),
    keep_photos: bool = False,
) -> Created:
    """Start a game: names in seating order, the first dealer's seat, the house rules,
    and each seat's head start in points (``handicap``, none: zero); of table
    ``group_id``, with the member at each seat (None: a guest), when started from one;
    keeping a photo of each hand sent, or not."""
    check_names(names, "players[{i}]")
    if not 0 <= first_dealer < len(names):
        raise RuleError("first_dealer_range", "first_dealer", seats=len(names))
    if handicap and len(handicap) != len(names):
        raise RuleError("handicap_count", "handicap", count=len(handicap), players=len(names))
    lexicon(lexicons, rules.lexicon, "rules.lexicon")  # refuse an unknown lexicon now
    with store.transaction("game_changed"):
        game, token = store.insert_game(
            names, first_dealer, rules, handicap, group_id, members, keep_photos
        )
        state = store.state_of(game)
    return Created(state, token)


def editable(game_id: str, token: str | None) -> Game:
    """Lock the game for this write and check the edit right; NotFound or Forbidden."""
    game = store.locked_game(game_id)
    if not store.can_edit(game, token):
        raise Forbidden("edit_link_needed")
    return game


def save_round(
    lexicons: LexiconStore,
    game_id: str,
    token: str | None,
    number: int,
    play: Play,
    expected_version: int | None = None,
) -> RoundState:
    """Enter (or replace) everything laid down in open round ``number``, refused whole or
    saved whole: ``play.challenges`` replace the round's. ``expected_version`` is the
    round's version the sender saw: another is a Conflict.
    """
    with store.transaction("round_changed", number=number):
        game = editable(game_id, token)
        current = store.round_state(game, number)
        names, rules = store.names_of(game), store.rules_of(game)
        check_previous_closed(game, number)
        check_open(current)
        if expected_version is not None and expected_version != current.version:
            raise Conflict("round_changed", "", number=number)
        play, sent_at = _seated(play, names)
        play = replace(play, round_number=number)
        judge = game_judge(lexicons, rules, store.house_words_of(game))
        try:
            result = score_round(play, rules, judge)  # refuses a round against the rules
        except RuleError as exc:  # point at the player as the request listed them
            exc.where = _resent(exc.where, sent_at)
            raise
        row = store.new_round_row(game, number)
        for seat, hand in enumerate(play.hands):
            store.put_hand(row, seat, hand)
        store.put_challenges(row, result.challenges, rules.lexicon)
        store.touch(game, row)
        saved = store.round_state(game, number)
    return saved


def challenge(
    lexicons: LexiconStore, game_id: str, token: str | None, number: int, typed: Challenge
) -> Challenged:
    """Challenge a word of open round ``number``: the house words, then the lexicon rule,
    unless the table gave its ruling. Returns the rescored round and the challenge's number."""
    with store.transaction("round_changed", number=number):
        game = editable(game_id, token)
        current = store.round_state(game, number)
        rules = store.rules_of(game)
        check_complete(current)
        check_open(current)
        assert current.play is not None
        play = replace(current.play, challenges=(*current.play.challenges, typed))
        prefix = f"challenges[{len(play.challenges) - 1}]"
        judge = game_judge(lexicons, rules, store.house_words_of(game))
        try:
            result = score_round(play, rules, judge)  # refuses own word, twice, no such word
        except RuleError as exc:  # point at the fields of the one challenge sent
            if exc.where.startswith(prefix):
                exc.where = exc.where.removeprefix(prefix).lstrip(".")
            raise
        ruled = result.challenges[-1]
        row = store.new_round_row(game, number)
        n = store.add_challenge_row(row, ruled, rules.lexicon)
        store.touch(game, row)
        done = Challenged(store.round_state(game, number), n, rules.lexicon)
    return done


def withdraw(game_id: str, token: str | None, number: int, n: int) -> RoundState:
    """Take challenge ``n`` of open round ``number`` back."""
    with store.transaction("round_changed", number=number):
        game = editable(game_id, token)
        check_open(store.round_state(game, number))
        row = store.round_row(game, number)
        found = store.challenge_row(row, n)
        if row is None or found is None:
            raise NotFound("no_such_challenge", "", number=number, n=n)
        row.challenges.remove(found)
        store.touch(game, row)
        state = store.round_state(game, number)
    return state


def set_closed(game_id: str, token: str | None, number: int, closed: bool) -> RoundState:
    """Close round ``number`` (its scores count on the leaderboard), or reopen it to fix a
    mistake (it leaves the leaderboard until closed again)."""
    with store.transaction("round_changed", number=number):
        game = editable(game_id, token)
        current = store.round_state(game, number)
        if closed and current.closed:
            raise RuleError("round_already_closed", "round", number=number)
        if not closed and not current.closed:
            raise RuleError("round_not_closed", "round", number=number)
        check_complete(current)
        if closed:
            check_votes_decided(current)
        row = store.new_round_row(game, number)
        row.closed = closed
        store.touch(game, row)
        state = store.round_state(game, number)
    return state


def vote(
    game_id: str, token: str | None, number: int, n: int, seat: int, legal: bool
) -> Challenged:
    """Seat ``seat`` votes on challenge ``n`` of open round ``number``: a seat's phone for
    its own seat, the scorekeeper (edit token) for any seat. The vote's outcome is applied
    once no vote still to come could change it (``tally``)."""
    with store.transaction("round_changed", number=number):
        game = store.locked_game(game_id)
        name = seat_name(game, seat)
        if not store.can_edit(game, token):
            held = store.seat_of_token(game, token)
            if held is None:
                raise Forbidden("vote_not_seated")
            if held != seat:
                raise Forbidden("vote_other_seat", "", seat=seat, name=name)
        rules = store.rules_of(game)
        found = _open_vote(game, number, n)
        store.put_vote(found, seat, legal)
        votes = [v.legal for v in found.votes]
        outcome = tally(votes, len(game.players), rules.challenge_ruling)
        if outcome is not None:
            store.settle(found, vote_ruling(outcome))
        store.touch(game, found.round)
        done = Challenged(store.round_state(game, number), n, rules.lexicon)
    return done


def decide(game_id: str, token: str | None, number: int, n: int, legal: bool) -> Challenged:
    """The scorekeeper settles the open vote on challenge ``n`` (a tie, or a phone that
    will not vote): the ruling is the scorekeeper's, the votes cast stay on record."""
    with store.transaction("round_changed", number=number):
        game = editable(game_id, token)
        found = _open_vote(game, number, n)
        store.settle(found, vote_ruling(legal, by_scorekeeper=True))
        store.touch(game, found.round)
        done = Challenged(store.round_state(game, number), n, store.rules_of(game).lexicon)
    return done


def seat_name(game: Game, seat: int) -> str:
    """The name at seat ``seat``, or NotFound."""
    if not 0 <= seat < len(game.players):
        raise NotFound("no_such_seat", "", seat=seat, seats=len(game.players))
    return game.players[seat].name


def _open_vote(game: Game, number: int, n: int) -> ChallengeRow:
    """Challenge ``n`` of open round ``number`` with its vote still open; refusals say why not."""
    current = store.round_state(game, number)
    check_open(current)
    found = store.challenge_row(store.round_row(game, number), n)
    if found is None:
        raise NotFound("no_such_challenge", "", number=number, n=n)
    if found.decided_by != PENDING:
        word = _challenged_text(current, n)
        raise RuleError("vote_decided", "", n=n, word=word)
    return found


def _challenged_text(current: RoundState, n: int) -> str:
    """The word of challenge ``n`` as laid down (in capitals), for a message."""
    if current.result is None or n not in current.challenge_numbers:
        return ""
    return current.result.challenges[current.challenge_numbers.index(n)].text.upper()


def check_votes_decided(current: RoundState) -> None:
    """Refuse closing a round while the table is still voting on a challenge."""
    if current.result is None:
        return
    waiting = [c.text.upper() for c in current.result.challenges if c.pending]
    if waiting:
        raise RuleError("vote_open", "round", number=current.number, words=waiting)


def set_house_word(game_id: str, token: str | None, word: str, allowed: bool) -> GameState:
    """Allow or ban ``word`` in this game; it overrides the lexicon."""
    key = house_word_key(word)
    with store.transaction("house_word_changed", word=key):
        game = editable(game_id, token)
        store.put_house_word(game, key, allowed)
        store.touch(game)
        state = store.state_of(game)
    return state


def remove_house_word(game_id: str, token: str | None, word: str) -> GameState:
    """Forget a house word: the lexicon decides again."""
    key = word.strip().lower()[:40]
    with store.transaction("house_word_changed", word=key):
        game = editable(game_id, token)
        store.drop_house_word(game, key)
        store.touch(game)
        state = store.state_of(game)
    return state


def check_previous_closed(game: Game, number: int) -> None:
    """Refuse entering round ``number`` before the round before it is closed."""
    if number > 1:
        previous = store.round_state(game, number - 1)
        if not previous.started:
            raise RuleError(
                "previous_round_not_started", "round", number=number, previous=number - 1
            )
        if not previous.closed:
            raise RuleError("previous_round_open", "round", number=number, previous=number - 1)


def check_complete(current: RoundState) -> None:
    """Refuse what needs every hand (a challenge, closing) while a seat is still entering."""
    if not current.started:
        raise RuleError("round_empty", "round", number=current.number)
    if current.play is None:
        raise RuleError(
            "round_waiting", "round", number=current.number, waiting=current.waiting_for
        )


def check_open(current: RoundState) -> None:
    """Refuse changing a closed round."""
    if current.closed:
        raise RuleError("round_closed", "round", number=current.number)


def _seated(play: Play, names: tuple[str, ...]) -> tuple[Play, list[int]]:
    """The hands in seating order, each player exactly once, and where each seat was sent."""
    by_name = {}
    sent_at = {}
    for i, hand in enumerate(play.hands):
        match = next((n for n in names if n.casefold() == hand.name.casefold()), None)
        if match is None:
            raise RuleError("not_a_player", f"players[{i}].name", name=hand.name[:40], names=names)
        if match in by_name:
            raise RuleError("player_twice", f"players[{i}].name", name=match)
        by_name[match] = replace(hand, name=match)
        sent_at[match] = i
    missing = [n for n in names if n not in by_name]
    if missing:
        raise RuleError("players_missing", "players", names=missing)
    return replace(play, hands=tuple(by_name[n] for n in names)), [sent_at[n] for n in names]


def _resent(where: str, sent_at: list[int]) -> str:
    """A path into the seated hands (``players[2]...``) as the request listed them."""
    head, sep, tail = where.partition("]")
    if not head.startswith("players[") or not sep:
        return where
    return f"players[{sent_at[int(head.removeprefix('players['))]}]{tail}"


def still_standing(
    current: RoundState, play: Play
) -> tuple[tuple[Challenge, ...], tuple[str, ...]]:
    """The challenges already ruled whose word is still entered, unchanged, where it was;
    and the words of those that no longer apply."""
    if current.play is None:
        return (), ()
    kept, dropped = [], []
    for ch in current.play.challenges:
        before = current.play.hand(ch.player).words[ch.word]
        after = play.hand(ch.player).words
        if ch.word < len(after) and after[ch.word] == before:
            kept.append(ch)
        else:
            dropped.append(text(before))
    return tuple(kept), tuple(dropped)
