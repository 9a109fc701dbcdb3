"""The referee as pages and the API use it: the running app's lexicons, by name."""

from __future__ import annotations

from collections.abc import Mapping

from flask import current_app
from wtforms import SelectChoice

from companion.actions import judging
from companion.game.challenges import Judge
from companion.game.deck import value
from companion.game.errors import RuleError
from companion.game.spelling import spellings
from companion.lexicon import Lexicon, LexiconStore, sources
from companion.lexicon.lexicon import frequency_band
from companion.web import i18n, messages


def store() -> LexiconStore:
    """The lexicons of the running app."""
    return current_app.extensions["lexicons"]


def title(name: str) -> str:
    """A lexicon's title as pages show it, in the reader's language (a group's own list
    keeps its name: "Your list: family")."""
    built_in = sources.BUILT_IN.get(name)
    if built_in:
        return i18n.gettext(built_in)
    return i18n.gettext(sources.OWN_TITLE).format(name=name)


def lexicon_choices() -> list[SelectChoice]:
    """The lexicons on offer as menu choices for the forms."""
    return [SelectChoice(name, title(name)) for name in store().names()]


def lexicon(name: str, where: str = "lexicon") -> Lexicon:
    """The lexicon called ``name``, or a 422 that lists the ones there are."""
    return judging.lexicon(store(), name, where)


def lazy_judge(name: str, where: str) -> Judge:
    """A judge that loads lexicon ``name`` only when a challenge needs it."""
    return judging.lazy_judge(store(), name, where)


def solver_index(
    lexicon_name: str, house_words: dict[str, bool] | None = None, where: str = "rules.lexicon"
) -> Mapping[str, str]:
    """The best-play index of a lexicon with a game's house words (see ``judging``)."""
    return judging.solver_index(store(), lexicon_name, house_words, where)


def spellings_json(letters: str, where: str = "letters") -> list[dict[str, object]]:
    """The card spellings of ``letters`` as the API writes them, best value first."""
    return [{"cards": [c.name for c in s], "value": value(s)} for s in spellings(letters, where)]


def word_report(
    word: str, lexicon_name: str, house_words: dict[str, bool] | None = None
) -> dict[str, object]:
    """The verdict on ``word`` with its reason, frequency and card spellings (API and pages).

    ``house_words`` (a game's) overrule the lexicon.
    """
    found = lexicon(lexicon_name)
    verdict = judging.house_judge(house_words or {}, found.verdict)(word)
    try:
        cards = spellings_json(word)
    except RuleError:  # not letters, or longer than any hand: nothing to lay down
        cards = []
    frequency = found.frequency(word)
    return {
        "word": word.strip().lower(),
        "legal": verdict.legal,
        "reason": messages.reason(verdict.reason),
        "code": str(verdict.reason),
        "lexicon": found.name,
        "frequency": frequency,
        "band": frequency_band(frequency),
        "spellings": cards,
    }
