"""The fixed set of reasons a verdict gives, and the kinds of entry a word list holds."""

from __future__ import annotations

from enum import IntEnum, StrEnum


class Reason(StrEnum):
    """Why a word is legal or not: a stable code (the API's ``code``), never a sentence.

    The words a person reads ("proper noun") are rendered from it at the edge.
    """

    IN_DICTIONARY = "in_dictionary"
    HOUSE_WORD = "house_word"
    NOT_IN_DICTIONARY = "not_in_dictionary"
    PROPER_NOUN = "proper_noun"
    ABBREVIATION = "abbreviation"
    CONTRACTION = "contraction"
    AFFIX = "affix"
    TOO_SHORT = "too_short"
    NOT_LETTERS = "not_letters"
    BANNED_HOUSE_WORD = "banned_house_word"


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
