"""The referee as the web layer uses it: the app's lexicons, by name, with clear refusals."""

from __future__ import annotations

from flask import current_app
from wtforms import SelectChoice

from companion.game.challenges import Judge, Verdict
from companion.game.deck import value
from companion.game.errors import RuleError
from companion.game.parse import parse_rules
from companion.game.solver import build_index
from companion.game.spelling import spellings
from companion.lexicon import Lexicon, LexiconStore, UnknownLexicon
from companion.lexicon.lexicon import frequency_band
from companion.lexicon.reasons import Reason
from companion.models import Game


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


def game_judge(game: Game) -> Judge:
    """A stored game's judge: its house words first, then its lexicon (loaded only if a
    challenge needs it)."""
    house = {h.word: h.allowed for h in game.house_words}
    name = parse_rules(game.rules).lexicon
    return house_judge(house, lazy_judge(name, "rules.lexicon"))


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


def solver_index(
    lexicon_name: str, house_words: dict[str, bool] | None = None, where: str = "rules.lexicon"
) -> dict[str, str]:
    """The best-play index of a lexicon, with a game's allowed words added and banned ones out.

    A banned word's card multiset stays playable when another word of the lexicon
    has the same cards (ban ``cat`` and ``act`` still stands).
    """
    try:
        base = store().solver_index(lexicon_name)
    except UnknownLexicon as exc:
        raise RuleError(str(exc), where) from None
    if not house_words:
        return base
    index = dict(base)
    banned = {w for w, allowed in house_words.items() if not allowed}
    for key in [k for k, w in index.items() if w in banned]:
        del index[key]
    if banned:
        letters = {"".join(sorted(w)) for w in banned}
        others = (
            w
            for w in lexicon(lexicon_name).words()
            if w not in banned and "".join(sorted(w)) in letters
        )
        for key, word in build_index(others).items():
            index.setdefault(key, word)
    allowed = [w for w, ok in house_words.items() if ok]
    for key, word in build_index(allowed).items():
        index.setdefault(key, word)
    return index
