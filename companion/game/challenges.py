"""Challenges: how a disputed word is ruled on, by the table or by a judge."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from companion.game.errors import RuleError


@dataclass(frozen=True)
class Verdict:
    """A dictionary's answer on one word: legal or not, and why."""

    legal: bool
    reason: str
    """A reason code (``proper_noun``...), rendered into words at the edge."""


Judge = Callable[[str], Verdict]
"""Rules on a word given as lower-case letters (``"steve"``)."""

TABLE_LEGAL = "table_legal"
TABLE_ILLEGAL = "table_illegal"
"""Reason codes of a ruling the table made itself."""
VOTE_LEGAL = "vote_legal"
VOTE_ILLEGAL = "vote_illegal"
"""Reason codes of a challenge settled by the table's vote."""
PROPER_NOUN_ALLOWED = "proper_noun_allowed"
"""A proper noun, legal by the house rule (Junior)."""

PENDING = "pending"
"""``decided_by`` of a challenge whose vote is still open: its legal and reason are the
dictionary's advice, and the word stands, unpenalised, until the vote is decided."""
VOTE = "vote"
SCOREKEEPER = "scorekeeper"
"""``decided_by`` of a vote the table decided, or the scorekeeper settled."""


@dataclass(frozen=True)
class Ruling:
    """The decision on one challenge, who decided it (``table`` or ``dictionary``), and the
    reason code."""

    legal: bool
    decided_by: str
    reason: str

    @property
    def pending(self) -> bool:
        """The table's vote on it is still open."""
        return self.decided_by == PENDING


def rule(
    word_text: str,
    table_ruling: bool | None,
    judge: Judge | None,
    where: str,
    vote: bool = False,
) -> Ruling:
    """Decide a challenge: the table's ruling when given, else the judge's verdict; with
    ``vote`` (the table votes) the verdict is only advice, and the ruling is pending."""
    if table_ruling is not None:
        return Ruling(table_ruling, "table", TABLE_LEGAL if table_ruling else TABLE_ILLEGAL)
    if judge is None:
        raise RuleError("challenge_needs_ruling", f"{where}.ruling", word=word_text)
    verdict = judge(word_text)
    return Ruling(verdict.legal, PENDING if vote else "dictionary", verdict.reason)


def tally(votes: Sequence[bool], seats: int, mode: str) -> bool | None:
    """The outcome of a table vote once no vote still to come could change it: legal
    (True), not legal (False), or None while undecided.

    ``majority``: more than half of the ``seats`` vote the same way; a tie once everyone
    has voted stays undecided (stalled) until the scorekeeper settles it. ``unanimous``:
    legal only if every seat votes legal, so one "not legal" decides it.
    """
    legal = sum(votes)
    illegal = len(votes) - legal
    if mode == "unanimous":
        if illegal:
            return False
        return True if legal == seats else None
    if 2 * legal > seats:
        return True
    if 2 * illegal > seats:
        return False
    return None


def stalled(votes: Sequence[bool], seats: int, mode: str) -> bool:
    """Everyone has voted and the vote is still undecided (a majority vote tied)."""
    return len(votes) >= seats and tally(votes, seats, mode) is None


def vote_ruling(legal: bool, by_scorekeeper: bool = False) -> Ruling:
    """The ruling that closes a vote: the table's, or the scorekeeper's for a stalled one."""
    if by_scorekeeper:
        return Ruling(legal, SCOREKEEPER, TABLE_LEGAL if legal else TABLE_ILLEGAL)
    return Ruling(legal, VOTE, VOTE_LEGAL if legal else VOTE_ILLEGAL)
