"""Challenges: how a disputed word is ruled on, by the table or by a judge."""

from __future__ import annotations

from collections.abc import Callable
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


@dataclass(frozen=True)
class Ruling:
    """The decision on one challenge, who decided it (``table`` or ``dictionary``), and the
    reason code."""

    legal: bool
    decided_by: str
    reason: str


def rule(word_text: str, table_ruling: bool | None, judge: Judge | None, where: str) -> Ruling:
    """Decide a challenge: the table's ruling when given, else the judge's verdict."""
    if table_ruling is not None:
        return Ruling(table_ruling, "table", TABLE_LEGAL if table_ruling else TABLE_ILLEGAL)
    if judge is None:
        raise RuleError("challenge_needs_ruling", f"{where}.ruling", word=word_text)
    verdict = judge(word_text)
    return Ruling(verdict.legal, "dictionary", verdict.reason)
