"""The fixed set of reasons a verdict gives, and the kinds of entry a word list holds."""

from __future__ import annotations

from enum import IntEnum, StrEnum


class Reason(StrEnum):
    """Why a word is legal or not; the strings are part of the API."""

    IN_DICTIONARY = "in dictionary"
    HOUSE_WORD = "house word"
    NOT_IN_DICTIONARY = "not in dictionary"
    PROPER_NOUN = "proper noun"
    ABBREVIATION = "abbreviation"
    CONTRACTION = "contraction"
    AFFIX = "prefix or suffix"
    TOO_SHORT = "too short"
    NOT_LETTERS = "not letters"
    BANNED_HOUSE_WORD = "banned house word"


class Kind(IntEnum):
    """What a lexicon entry is; only WORD is legal. Stored in the cache as a number.

    Where one string is several things, the lower number wins: ``us`` is a word
    though ``US`` is an abbreviation; ``un`` is a prefix though ``UN`` is one too.
    """

    WORD = 1
    AFFIX = 2
    ABBREVIATION = 3
    PROPER_NOUN = 4
    CONTRACTION = 5


KIND_REASON = {
    Kind.WORD: Reason.IN_DICTIONARY,
    Kind.PROPER_NOUN: Reason.PROPER_NOUN,
    Kind.ABBREVIATION: Reason.ABBREVIATION,
    Kind.CONTRACTION: Reason.CONTRACTION,
    Kind.AFFIX: Reason.AFFIX,
}
