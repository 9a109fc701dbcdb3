"""The referee as the web layer uses it: the app's lexicons, by name, with clear refusals."""

from __future__ import annotations

from flask import current_app
from wtforms import SelectChoice

from companion.game.challenges import Judge, Verdict
from companion.game.deck import value
from companion.game.errors import RuleError
from companion.game.spelling import spellings
from companion.lexicon import Lexicon, LexiconStore, UnknownLexicon
from companion.lexicon.lexicon import frequency_band
from companion.lexicon.reasons import Reason


def store() -> LexiconStore:
    """The lexicons of the running app."""
    return current_app.extensions["lexicons"]


def lexicon_choices() -> list[SelectChoice]:
    """The lexicons on offer as menu choices for the forms."""
    return [SelectChoice(name, store().title(name)) for name in store().names()]


def lexicon(name: str, where: str = "lexicon") -> Lexicon:
    """The lexicon called ``name``, or a 422 that lists the ones there are."""
    try:
        return store().get(name)
    except UnknownLexicon as exc:
        raise RuleError(str(exc), where) from None


def lazy_judge(name: str, where: str) -> Judge:
    """A judge that loads lexicon ``name`` only when a challenge needs it."""

    def judge(word: str) -> Verdict:
        return lexicon(name, where).verdict(word)

    return judge


def spellings_json(letters: str, where: str = "letters") -> list[dict[str, object]]:
    """The card spellings of ``letters`` as the API writes them, best value first."""
    return [{"cards": [c.name for c in s], "value": value(s)} for s in spellings(letters, where)]


def house_judge(house_words: dict[str, bool], lexicon_judge: Judge) -> Judge:
    """A game's own words first (allowed or banned), then the lexicon."""

    def judge(word: str) -> Verdict:
        allowed = house_words.get(word.strip().lower())
        if allowed is True:
            return Verdict(True, str(Reason.HOUSE_WORD))
        if allowed is False:
            return Verdict(False, str(Reason.BANNED_HOUSE_WORD))
        return lexicon_judge(word)

    return judge


def word_report(
    word: str, lexicon_name: str, house_words: dict[str, bool] | None = None
) -> dict[str, object]:
    """The verdict on ``word`` with its reason, frequency and card spellings (API and pages).

    ``house_words`` (a game's) overrule the lexicon.
    """
    found = lexicon(lexicon_name)
    verdict = house_judge(house_words or {}, found.verdict)(word)
    try:
        cards = spellings_json(word)
    except RuleError:  # not letters, or longer than any hand: nothing to lay down
        cards = []
    frequency = found.frequency(word)
    return {
        "word": word.strip().lower(),
        "legal": verdict.legal,
        "reason": verdict.reason,
        "lexicon": found.name,
        "frequency": frequency,
        "band": frequency_band(frequency),
        "spellings": cards,
    }
