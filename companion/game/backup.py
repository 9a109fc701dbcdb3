"""The backup of a table: the file read back, checked whole before anything is stored.

A backup (``docs/api.md``, "Backup of a table") holds a table of people, its members
and every game of it, round by round, as entered: hands, challenges with their rulings,
votes, house words. Nothing derived (scores are computed again) and nothing of the
server that wrote it (no ids, no tokens). ``parse_backup`` reads one as plain decoded
JSON and refuses it at the first fault, with a code and the exact JSON path of the
field at fault (``games[3].rounds[1].hands[0].words[2][1]``): every round is replayed
through the one scoring path, so a round the app would not have stored is refused.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from companion.game.challenges import PENDING, SCOREKEEPER, VOTE, Ruling, Verdict
from companion.game.deck import Card, Word, card
from companion.game.errors import RuleError, ShapeError
from companion.game.parse import MAX_CHALLENGES, parse_rules
from companion.game.play import HOUSE_WORD_LETTERS as HOUSE_WORD_LETTERS
from companion.game.play import (
    MAX_PLAYERS,
    Challenge,
    Hand,
    Play,
    check_members,
    check_names,
    check_player_count,
    check_seat,
    check_table_name,
    house_word_key,
)
from companion.game.play import MEMBERS as MEMBERS  # the table's limits, as the app's
from companion.game.play import TABLE_NAME as TABLE_NAME
from companion.game.rules import MAX_LEXICON_NAME, MAX_POINTS, Rules
from companion.game.scoring import score_round

FORMAT = "quiddler-companion/table"
VERSION = 1

MOST_GAMES = 2000
"""The most games one backup holds (a table playing every evening for five years)."""
MOST_HOUSE_WORDS = 1000
"""The most house words one game of a backup holds."""
CODE_LENGTH = 40
"""The longest reason code or lexicon name a challenge row keeps."""
DECIDERS = frozenset({"table", "dictionary", PENDING, VOTE, SCOREKEEPER})
"""Who can have decided a stored challenge."""


@dataclass(frozen=True)
class BackupTable:
    """The table: its name, its bonus rule, whether it was put away, its members in order."""

    name: str
    alternate_bonus: bool
    archived: bool
    members: tuple[str, ...]


@dataclass(frozen=True)
class BackupPlayer:
    """A seat of a game: the name, the member who sat there (index into the table's
    members; None for a guest) and the head start."""

    name: str
    member: int | None
    handicap: int


@dataclass(frozen=True)
class BackupVote:
    seat: int
    legal: bool


@dataclass(frozen=True)
class BackupChallenge:
    """A challenge as stored: seats, the word's index, the ruling and what advised it."""

    number: int
    by_seat: int
    player_seat: int
    word: int
    legal: bool
    decided_by: str
    reason: str
    lexicon: str
    advice_legal: bool | None
    advice_reason: str | None
    votes: tuple[BackupVote, ...]

    @property
    def ruling(self) -> Ruling:
        return Ruling(self.legal, self.decided_by, self.reason)

    @property
    def advice(self) -> Verdict | None:
        if self.advice_legal is None:
            return None
        return Verdict(self.advice_legal, self.advice_reason or "")


@dataclass(frozen=True)
class BackupHand:
    """One seat's hand in one round: words and leftovers as cards, going out."""

    seat: int
    words: tuple[Word, ...]
    unused: tuple[Card, ...]
    went_out: bool


@dataclass(frozen=True)
class BackupRound:
    """A round as entered: the hands in (some of the seats, in seating order), the
    challenges in order of their numbers."""

    number: int
    closed: bool
    hands: tuple[BackupHand, ...]
    challenges: tuple[BackupChallenge, ...]


@dataclass(frozen=True)
class BackupGame:
    created_at: datetime
    """In UTC, without a zone (as the columns keep it)."""
    rules: Rules
    first_dealer: int
    archived: bool
    players: tuple[BackupPlayer, ...]
    house_words: tuple[tuple[str, bool], ...]
    """(word, allowed), in alphabetical order."""
    rounds: tuple[BackupRound, ...]
    keep_photos: bool = False
    """The game keeps a photo of each hand (the photos themselves are never in a backup)."""


@dataclass(frozen=True)
class Backup:
    """A whole backup, checked: what an import stores."""

    exported_at: datetime
    table: BackupTable
    games: tuple[BackupGame, ...]


def parse_backup(data: object) -> Backup:
    """Read and check a decoded backup file: its format and version, every field's type,
    every name, card, seat and member, the rules, and every round replayed through the
    one scoring path. A fault is a ShapeError (a field missing, of the wrong type,
    unknown) or a RuleError, its ``where`` the JSON path of the field at fault."""
    top = _object(data, "", {"format", "version", "exported_at", "table", "games"})
    if _get(top, "format", "") != FORMAT:
        raise RuleError("backup_format", "format", expected=FORMAT)
    version = _int(_get(top, "version", ""), "version")
    if version != VERSION:
        raise RuleError("backup_version", "version", version=version, supported=VERSION)
    exported_at = _time(_get(top, "exported_at", ""), "exported_at")
    table = _table(_get(top, "table", ""), "table")
    raw_games = _list(_get(top, "games", ""), "games")
    if len(raw_games) > MOST_GAMES:
        raise RuleError("backup_too_big", "games", count=len(raw_games), most=MOST_GAMES)
    games = tuple(_game(g, f"games[{i}]", table) for i, g in enumerate(raw_games))
    return Backup(exported_at, table, games)


# --- the table and its games -------------------------------------------------------------


def _table(raw: object, where: str) -> BackupTable:
    obj = _object(raw, where, {"name", "alternate_bonus", "archived", "members"})
    at = _at(where, "name")
    name = check_table_name(_text(_get(obj, "name", where), at), at)
    members_at = _at(where, "members")
    raw_members = _list(_get(obj, "members", where), members_at)
    least, most = MEMBERS
    if not least <= len(raw_members) <= most:  # before reading what may be a huge list
        raise RuleError("member_count", members_at, count=len(raw_members), least=least, most=most)
    members = [_text(m, f"{members_at}[{i}]").strip() for i, m in enumerate(raw_members)]
    check_members(members, members_at)
    return BackupTable(
        name,
        _flag(_get(obj, "alternate_bonus", where), _at(where, "alternate_bonus")),
        _flag(_get(obj, "archived", where), _at(where, "archived")),
        tuple(members),
    )


GAME_FIELDS = {
    "created_at",
    "rules",
    "first_dealer",
    "archived",
    "players",
    "house_words",
    "rounds",
    "keep_photos",
}
"""A game's fields: each given, but ``keep_photos`` (false when left out: a file written
before games kept photos)."""


def _game(raw: object, where: str, table: BackupTable) -> BackupGame:
    obj = _object(raw, where, GAME_FIELDS)
    created_at = _time(_get(obj, "created_at", where), _at(where, "created_at"))
    rules_at = _at(where, "rules")
    rules = parse_rules(_get(obj, "rules", where), rules_at)
    if not rules.lexicon.isprintable():  # a list this server may not have: stored as named
        raise RuleError("lexicon_name", _at(rules_at, "lexicon"), most=MAX_LEXICON_NAME)
    players = _players(_get(obj, "players", where), _at(where, "players"), table)
    dealer_at = _at(where, "first_dealer")
    first_dealer = _int(_get(obj, "first_dealer", where), dealer_at)
    if not 0 <= first_dealer < len(players):
        raise RuleError("first_dealer_range", dealer_at, seats=len(players))
    house_words = _house_words(_get(obj, "house_words", where), _at(where, "house_words"))
    rounds_at = _at(where, "rounds")
    raw_rounds = _list(_get(obj, "rounds", where), rounds_at)
    if len(raw_rounds) > rules.rounds:
        raise RuleError("backup_too_big", rounds_at, count=len(raw_rounds), most=rules.rounds)
    names = tuple(p.name for p in players)
    rounds: list[BackupRound] = []
    for i, r in enumerate(raw_rounds):
        at = f"{rounds_at}[{i}]"
        parsed = _round(r, at, rules, len(names))
        _in_order(rounds, parsed, at, len(names))
        _replay(parsed, at, rules, names)
        rounds.append(parsed)
    return BackupGame(
        created_at,
        rules,
        first_dealer,
        _flag(_get(obj, "archived", where), _at(where, "archived")),
        players,
        house_words,
        tuple(rounds),
        _flag(obj.get("keep_photos", False), _at(where, "keep_photos")),
    )


def _players(raw: object, where: str, table: BackupTable) -> tuple[BackupPlayer, ...]:
    listed = _list(raw, where)
    if len(listed) > MAX_PLAYERS:
        check_player_count(len(listed))  # refused before reading a long list
    players = []
    seen: dict[int, int] = {}
    for i, p in enumerate(listed):
        at = f"{where}[{i}]"
        obj = _object(p, at, {"name", "member", "handicap"})
        name = _text(_get(obj, "name", at), _at(at, "name")).strip()
        member = _get(obj, "member", at)
        if member is not None:
            member = _int(member, _at(at, "member"))
            if not 0 <= member < len(table.members):
                raise RuleError(
                    "backup_no_member", _at(at, "member"), member=member, members=len(table.members)
                )
            if member in seen:
                raise RuleError(
                    "backup_member_twice", _at(at, "member"), name=table.members[member]
                )
            seen[member] = i
        handicap = _int(_get(obj, "handicap", at), _at(at, "handicap"))
        if not 0 <= handicap <= MAX_POINTS:
            raise RuleError("points_range", _at(at, "handicap"), most=MAX_POINTS)
        players.append(BackupPlayer(name, member, handicap))
    check_names([p.name for p in players], where + "[{i}].name")
    return tuple(players)


def _house_words(raw: object, where: str) -> tuple[tuple[str, bool], ...]:
    listed = _list(raw, where)
    if len(listed) > MOST_HOUSE_WORDS:
        raise RuleError("backup_too_big", where, count=len(listed), most=MOST_HOUSE_WORDS)
    words: list[tuple[str, bool]] = []
    for i, h in enumerate(listed):
        at = f"{where}[{i}]"
        obj = _object(h, at, {"word", "allowed"})
        word = _text(_get(obj, "word", at), _at(at, "word"))
        if house_word_key(word, _at(at, "word")) != word:  # as stored: lower case, no spaces
            least, most = HOUSE_WORD_LETTERS
            raise RuleError("house_word_letters", _at(at, "word"), least=least, most=most)
        if words and word <= words[-1][0]:
            raise RuleError("backup_not_increasing", _at(at, "word"), field="word")
        words.append((word, _flag(_get(obj, "allowed", at), _at(at, "allowed"))))
    return tuple(words)


# --- rounds ------------------------------------------------------------------------------


def _round(raw: object, where: str, rules: Rules, seats: int) -> BackupRound:
    obj = _object(raw, where, {"number", "closed", "hands", "challenges"})
    number_at = _at(where, "number")
    number = _int(_get(obj, "number", where), number_at)
    if number not in rules.round_numbers():
        raise RuleError("no_such_round", number_at, number=number, rounds=rules.rounds)
    closed = _flag(_get(obj, "closed", where), _at(where, "closed"))
    hands_at = _at(where, "hands")
    raw_hands = _list(_get(obj, "hands", where), hands_at)
    if len(raw_hands) > seats:
        raise RuleError("backup_too_big", hands_at, count=len(raw_hands), most=seats)
    hands: list[BackupHand] = []
    for k, h in enumerate(raw_hands):
        at = f"{hands_at}[{k}]"
        hand = _hand(h, at, rules, seats)
        if hands and hand.seat <= hands[-1].seat:
            raise RuleError("backup_not_increasing", _at(at, "seat"), field="seat")
        hands.append(hand)
    challenges_at = _at(where, "challenges")
    raw_challenges = _list(_get(obj, "challenges", where), challenges_at)
    if len(raw_challenges) > MAX_CHALLENGES:
        raise RuleError("challenges_too_many", challenges_at, count=len(raw_challenges))
    challenges: list[BackupChallenge] = []
    for n, c in enumerate(raw_challenges):
        at = f"{challenges_at}[{n}]"
        challenge = _challenge(c, at, seats)
        if challenges and challenge.number <= challenges[-1].number:
            raise RuleError("backup_not_increasing", _at(at, "number"), field="number")
        challenges.append(challenge)
    return BackupRound(number, closed, tuple(hands), tuple(challenges))


def _hand(raw: object, where: str, rules: Rules, seats: int) -> BackupHand:
    obj = _object(raw, where, {"seat", "words", "unused", "went_out"})
    seat = _seat(_get(obj, "seat", where), _at(where, "seat"), seats)
    words_at = _at(where, "words")
    raw_words = _list(_get(obj, "words", where), words_at)
    if len(raw_words) > rules.largest_hand:
        raise RuleError("words_too_many", words_at, most=rules.largest_hand)
    words = tuple(_cards(w, f"{words_at}[{j}]") for j, w in enumerate(raw_words))
    for j, word in enumerate(words):
        if not word:
            raise RuleError("word_empty", f"{words_at}[{j}]")
    unused = _cards(_get(obj, "unused", where), _at(where, "unused"))
    went_out = _flag(_get(obj, "went_out", where), _at(where, "went_out"))
    return BackupHand(seat, words, unused, went_out)


def _cards(raw: object, where: str) -> tuple[Card, ...]:
    """Card names, as a list (what an export writes), each through the card parser."""
    listed = _list(raw, where)
    if len(listed) > MOST_CARDS_LISTED:
        raise RuleError("cards_too_many", where, count=len(listed))
    return tuple(card(c, f"{where}[{k}]") for k, c in enumerate(listed))


MOST_CARDS_LISTED = 60


CHALLENGE_FIELDS = {
    "number",
    "by_seat",
    "player_seat",
    "word",
    "legal",
    "decided_by",
    "reason",
    "lexicon",
    "advice_legal",
    "advice_reason",
    "votes",
}


def _challenge(raw: object, where: str, seats: int) -> BackupChallenge:
    obj = _object(raw, where, CHALLENGE_FIELDS)
    number_at = _at(where, "number")
    number = _int(_get(obj, "number", where), number_at)
    if number < 1:
        raise RuleError("backup_challenge_number", number_at)
    decided_at = _at(where, "decided_by")
    decided_by = _text(_get(obj, "decided_by", where), decided_at)
    if decided_by not in DECIDERS:
        raise RuleError("choice_unknown", decided_at, choices=sorted(DECIDERS))
    advice_legal = _get(obj, "advice_legal", where)
    if advice_legal is not None:
        advice_legal = _flag(advice_legal, _at(where, "advice_legal"))
    advice_reason = _get(obj, "advice_reason", where)
    if advice_reason is not None:
        advice_reason = _code(advice_reason, _at(where, "advice_reason"))
    votes_at = _at(where, "votes")
    raw_votes = _list(_get(obj, "votes", where), votes_at)
    if len(raw_votes) > seats:
        raise RuleError("backup_too_big", votes_at, count=len(raw_votes), most=seats)
    votes: list[BackupVote] = []
    for i, v in enumerate(raw_votes):
        at = f"{votes_at}[{i}]"
        vote = _object(v, at, {"seat", "legal"})
        seat = _seat(_get(vote, "seat", at), _at(at, "seat"), seats)
        if votes and seat <= votes[-1].seat:
            raise RuleError("backup_not_increasing", _at(at, "seat"), field="seat")
        votes.append(BackupVote(seat, _flag(_get(vote, "legal", at), _at(at, "legal"))))
    return BackupChallenge(
        number=number,
        by_seat=_seat(_get(obj, "by_seat", where), _at(where, "by_seat"), seats),
        player_seat=_seat(_get(obj, "player_seat", where), _at(where, "player_seat"), seats),
        word=_int(_get(obj, "word", where), _at(where, "word")),
        legal=_flag(_get(obj, "legal", where), _at(where, "legal")),
        decided_by=decided_by,
        reason=_code(_get(obj, "reason", where), _at(where, "reason")),
        lexicon=_code(_get(obj, "lexicon", where), _at(where, "lexicon")),
        advice_legal=advice_legal,
        advice_reason=advice_reason,
        votes=tuple(votes),
    )


def _in_order(before: Sequence[BackupRound], current: BackupRound, where: str, seats: int) -> None:
    """Rounds come in order of their numbers, each once; a round holds hands only once
    every earlier round has every hand in. The app enters round n after round n-1 was
    closed; an earlier round reopened later to fix a mistake keeps every hand, so an open
    round before a closed one is one reopened, unless a hand of it is missing."""
    if before and current.number <= before[-1].number:
        raise RuleError("backup_not_increasing", _at(where, "number"), field="number")
    if not current.hands and not current.closed:
        return
    numbers = {r.number: r for r in before}
    for earlier in range(1, current.number):
        found = numbers.get(earlier)
        if found is None or not found.hands:
            raise RuleError(
                "previous_round_not_started", where, number=current.number, previous=earlier
            )
        if len(found.hands) < seats:
            raise RuleError("previous_round_open", where, number=current.number, previous=earlier)


def _replay(current: BackupRound, where: str, rules: Rules, names: tuple[str, ...]) -> None:
    """Refuse a round the app would not have stored: each hand in checked as its phone's
    save is; a round with every hand in (and every closed round, every round with a
    challenge) scored through the one scoring path with its recorded rulings."""
    at_seat = {h.seat: k for k, h in enumerate(current.hands)}
    hands = {h.seat: Hand(names[h.seat], h.words, h.unused, h.went_out) for h in current.hands}
    complete = len(hands) == len(names)
    if not complete:
        if current.closed or current.challenges:
            missing = [n for i, n in enumerate(names) if i not in hands]
            raise RuleError(
                "round_waiting", _at(where, "hands"), number=current.number, waiting=missing
            )
        seated = [hands.get(i) for i in range(len(names))]
        for seat in hands:
            try:
                check_seat(seated, seat, rules, current.number)
            except RuleError as exc:
                exc.where = _joined(f"{where}.hands[{at_seat[seat]}]", exc.where)
                raise
        return
    challenges = tuple(
        Challenge(
            names[c.by_seat],
            names[c.player_seat],
            c.word,
            recorded=c.ruling,
            advice=c.advice,
            votes=tuple((names[v.seat], v.legal) for v in c.votes),
        )
        for c in current.challenges
    )
    play = Play(tuple(hands[i] for i in range(len(names))), challenges, current.number)
    try:
        score_round(play, rules)
    except RuleError as exc:
        exc.where = _moved(exc.where, where, at_seat)
        raise
    if current.closed:
        for n, c in enumerate(current.challenges):
            if c.decided_by == PENDING:
                raise RuleError(
                    "backup_vote_open", f"{where}.challenges[{n}].decided_by", number=c.number
                )


PLAYER_PATH = re.compile(r"^players\[(\d+)\]")
CHALLENGE_PATH = re.compile(r"^(challenges\[\d+\])\.(by|player)$")


def _moved(path: str, where: str, at_seat: Mapping[int, int]) -> str:
    """A path of the scoring path's (``players[2].words[0]``, ``challenges[1].by``) as the
    backup's field (``games[0].rounds[3].hands[2].words[0]``, ``...challenges[1].by_seat``)."""
    found = PLAYER_PATH.match(path)
    if found:
        return f"{where}.hands[{at_seat[int(found[1])]}]{path[found.end() :]}"
    found = CHALLENGE_PATH.match(path)
    if found:
        return f"{where}.{found[1]}.{found[2]}_seat"
    if path.startswith("challenges["):
        return f"{where}.{path}"
    return _joined(where, path) if path not in ("round", "players") else where


def _joined(where: str, path: str) -> str:
    return f"{where}.{path}" if path else where


# --- fields ------------------------------------------------------------------------------


def _at(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


def _object(raw: object, where: str, keys: set[str]) -> Mapping[str, object]:
    if not isinstance(raw, dict):
        raise ShapeError("backup_field_type", where, expected="object")
    unknown = sorted(str(k) for k in raw if k not in keys)
    if unknown:
        raise ShapeError(
            "unknown_field", _at(where, unknown[0][:40]), field=unknown[0][:40], keys=sorted(keys)
        )
    return raw


def _get(obj: Mapping[str, object], key: str, where: str) -> object:
    """Field ``key`` of ``obj``: every field of a backup is given (null where it may be)."""
    if key not in obj:
        raise ShapeError("backup_field_missing", _at(where, key), field=key)
    return obj[key]


def _list(raw: object, where: str) -> list[object]:
    if not isinstance(raw, list):
        raise ShapeError("backup_field_type", where, expected="list")
    return raw


def _text(raw: object, where: str) -> str:
    if not isinstance(raw, str):
        raise ShapeError("backup_field_type", where, expected="text")
    return raw


def _int(raw: object, where: str) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise ShapeError("backup_field_type", where, expected="whole_number")
    return raw


def _flag(raw: object, where: str) -> bool:
    if not isinstance(raw, bool):
        raise ShapeError("backup_field_type", where, expected="true_or_false")
    return raw


def _seat(raw: object, where: str, seats: int) -> int:
    seat = _int(raw, where)
    if not 0 <= seat < seats:
        raise RuleError("no_such_seat", where, seat=seat, seats=seats)
    return seat


def _code(raw: object, where: str) -> str:
    """A reason code or a lexicon's name, as a challenge row keeps it (1 to 40 characters)."""
    code = _text(raw, where)
    if not code or len(code) > CODE_LENGTH or not code.isprintable():
        raise RuleError("backup_code", where, most=CODE_LENGTH)
    return code


def _time(raw: object, where: str) -> datetime:
    """An ISO 8601 date and time, in UTC without a zone (a time without one is UTC)."""
    text = _text(raw, where)
    try:
        found = datetime.fromisoformat(text)
        if found.tzinfo is not None:
            found = found.astimezone(UTC).replace(tzinfo=None)
    except (ValueError, OverflowError):  # not a time; in UTC before year 1 or after 9999
        raise ShapeError("backup_field_type", where, expected="time") from None
    return found
