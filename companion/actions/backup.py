"""The backup of a table: every game of it written to one file, and read back as a new
table on this server or another.

The file (``docs/api.md``, "Backup of a table") holds what was entered, nothing derived
and nothing of this server: no ids, no tokens, not the rematch link. An import is
checked whole first (``game.backup.parse_backup``: every round replayed through the
one scoring path), then stored in one transaction: the whole table, or nothing. It gets
new ids and a new edit token, so a file imported twice makes two tables.
"""

from __future__ import annotations

from datetime import UTC, datetime

from companion import store
from companion.actions.groups import CreatedGroup, group_state
from companion.game.backup import FORMAT, VERSION, Backup, BackupGame, parse_backup
from companion.game.errors import RuleError, ShapeError
from companion.store import groups
from companion.store.db import db
from companion.store.models import Challenge as ChallengeRow
from companion.store.models import Entry, Game, Group, HouseWord, Round, Vote


def export_group(group_id: str) -> dict[str, object]:
    """Table ``group_id`` and every game of it, oldest first, as a backup file holds it;
    NotFound for no such table."""
    group = groups.get_group(group_id)
    members = {m.id: i for i, m in enumerate(group.members)}
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": _iso(datetime.now(UTC)),
        "table": {
            "name": group.name,
            "alternate_bonus": group.alternate_bonus,
            "archived": group.archived,
            "members": [m.name for m in group.members],
        },
        "games": [_game(store.get_game(g.id), members) for g in groups.group_games(group.id)],
    }


def _iso(at: datetime) -> str:
    """A time as the file writes it: ISO 8601 in UTC (a stored time has no zone: UTC)."""
    if at.tzinfo is None:
        at = at.replace(tzinfo=UTC)
    return at.astimezone(UTC).isoformat()


def _game(game: Game, members: dict[int, int]) -> dict[str, object]:
    return {
        "created_at": _iso(game.created_at),
        "rules": store.rules_of(game).as_dict(),
        "first_dealer": game.first_dealer,
        "archived": game.archived,
        "players": [
            {
                "name": p.name,
                "member": members.get(p.member_id) if p.member_id is not None else None,
                "handicap": p.handicap or 0,
            }
            for p in game.players
        ],
        "house_words": [{"word": h.word, "allowed": h.allowed} for h in game.house_words],
        "rounds": [_round(r) for r in game.rounds],
        "keep_photos": game.keep_photos,
    }


def _round(row: Round) -> dict[str, object]:
    return {
        "number": row.number,
        "closed": row.closed,
        "hands": [
            {
                "seat": e.seat,
                "words": [list(w) for w in e.words],
                "unused": list(e.unused),
                "went_out": e.went_out,
            }
            for e in row.entries
        ],
        "challenges": [
            {
                "number": c.number,
                "by_seat": c.by_seat,
                "player_seat": c.player_seat,
                "word": c.word,
                "legal": c.legal,
                "decided_by": c.decided_by,
                "reason": c.reason_code,
                "lexicon": c.lexicon,
                "advice_legal": c.advice_legal,
                "advice_reason": c.advice_reason,
                "votes": [{"seat": v.seat, "legal": v.legal} for v in c.votes],
            }
            for c in row.challenges
        ],
    }


def import_group(data: object) -> CreatedGroup:
    """A backup file (decoded JSON) stored as a new table with all its games, or refused
    whole, nothing stored. A file is a document, not a request: any fault in it, a
    malformed field too, is a RuleError naming the field (HTTP 422)."""
    try:
        backup = parse_backup(data)
    except ShapeError as exc:
        raise RuleError(exc.code, exc.where, **exc.params) from None
    with store.transaction("table_changed"):
        group, token = _insert(backup)
        state = group_state(group)
    return CreatedGroup(state, token)


def _insert(backup: Backup) -> tuple[Group, str]:
    """Every row of the backup, in this transaction: the table, its members, its games."""
    table = backup.table
    group, token = groups.insert_group(table.name, list(table.members), table.alternate_bonus)
    group.archived = table.archived
    member_ids = [m.id for m in group.members]
    for game in backup.games:
        _insert_game(game, group.id, member_ids)
    db.session.flush()
    return group, token


def _insert_game(game: BackupGame, group_id: str, member_ids: list[int]) -> None:
    row, _ = store.insert_game(  # its edit token is the table's to hand out: none is kept
        [p.name for p in game.players],
        game.first_dealer,
        game.rules,
        tuple(p.handicap for p in game.players),
        group_id,
        tuple(member_ids[p.member] if p.member is not None else None for p in game.players),
    )
    row.created_at = game.created_at
    row.archived = game.archived
    row.keep_photos = game.keep_photos
    row.house_words = [HouseWord(word=w, allowed=a) for w, a in game.house_words]
    for r in game.rounds:
        row.rounds.append(
            Round(
                number=r.number,
                closed=r.closed,
                version=1,
                challenges_made=max((c.number for c in r.challenges), default=0),
                entries=[
                    Entry(
                        seat=h.seat,
                        words=[[c.name for c in w] for w in h.words],
                        unused=[c.name for c in h.unused],
                        went_out=h.went_out,
                        version=1,
                    )
                    for h in r.hands
                ],
                challenges=[
                    ChallengeRow(
                        number=c.number,
                        by_seat=c.by_seat,
                        player_seat=c.player_seat,
                        word=c.word,
                        legal=c.legal,
                        decided_by=c.decided_by,
                        reason_code=c.reason,
                        lexicon=c.lexicon,
                        advice_legal=c.advice_legal,
                        advice_reason=c.advice_reason,
                        votes=[Vote(seat=v.seat, legal=v.legal) for v in c.votes],
                    )
                    for c in r.challenges
                ],
            )
        )
