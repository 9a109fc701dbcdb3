"""The referee as pages and the API use it: the running app's lexicons, by name."""

from __future__ import annotations

from flask import current_app
from wtforms import SelectChoice

from companion.actions import judging
from companion.game.deck import value
from companion.game.errors import RuleError
from companion.game.rules import Rules
from companion.game.scoring import ChallengeResult
from companion.game.spelling import spellings
from companion.lexicon import LexiconStore, sources
from companion.lexicon.definitions import Definition, Definitions
from companion.lexicon.lexicon import frequency_band
from companion.web import i18n, messages


def store() -> LexiconStore:
    """The lexicons of the running app."""
    return current_app.extensions["lexicons"]


def definitions() -> Definitions:
    """The short definitions of the running app (WordNet), read on first use."""
    return current_app.extensions["definitions"]


def title(name: str) -> str:
    """A lexicon's title as pages show it, in the reader's language (a group's own list
    keeps its name: "Your list: family")."""
    name = sources.ALIASES.get(name, name)
    built_in = sources.BUILT_IN.get(name)
    if built_in:
        return i18n.gettext(built_in)
    return i18n.gettext(sources.OWN_TITLE).format(name=name)


def name(lexicon: str) -> str:
    """A lexicon's name as a sentence says it, in the reader's language ("standard" is
    lt "standartinis", cs "standardní"); a group's own list keeps the name it was given."""
    lexicon = sources.ALIASES.get(lexicon, lexicon)
    short = sources.SHORT_NAME.get(lexicon)
    return i18n.pgettext("lexicon", short) if short else lexicon


def lexicon_choices() -> list[SelectChoice]:
    """The lexicons on offer as menu choices for the forms."""
    return [SelectChoice(name, title(name)) for name in store().names()]


def spellings_json(letters: str, where: str = "letters") -> list[dict[str, object]]:
    """The card spellings of ``letters`` as the API writes them, best value first."""
    return [{"cards": [c.name for c in s], "value": value(s)} for s in spellings(letters, where)]


def word_report(
    word: str,
    lexicon_name: str,
    house_words: dict[str, bool] | None = None,
    rules: Rules | None = None,
) -> dict[str, object]:
    """The verdict on ``word`` with its reason, frequency and card spellings (API and pages).

    ``house_words`` (a game's) overrule the lexicon; a game's ``rules`` amend it (proper
    nouns allowed, A and I where one card is a word).
    """
    found = judging.lexicon(store(), lexicon_name)
    judge = judging.by_house_rules(found.verdict, rules) if rules else found.verdict
    verdict = judging.house_judge(house_words or {}, judge)(word)
    try:
        cards = spellings_json(word)
    except RuleError:  # not letters, or longer than any hand: nothing to lay down
        cards = []
    frequency = found.frequency(word)
    defined = judging.definition(definitions(), word, verdict.legal, verdict.reason)
    return {
        "word": word.strip().lower(),
        "legal": verdict.legal,
        "reason": messages.reason(verdict.reason),
        "code": str(verdict.reason),
        "lexicon": found.name,
        "frequency": frequency,
        "band": frequency_band(frequency),
        "spellings": cards,
        "definition": definition_json(defined),
    }


def ruling_definition(ruled: ChallengeResult, lexicon_name: str) -> dict[str, object] | None:
    """The definition shown beside a challenge's ruling (see ``judging``), as the API
    writes it. The game's lexicon (``lexicon_name``) is asked only about a word the table
    refused."""
    judge = judging.lazy_judge(store(), lexicon_name, "rules.lexicon")
    legal, reason = ruled.ruling.legal, ruled.ruling.reason
    return definition_json(judging.definition(definitions(), ruled.text, legal, reason, judge))


def definition_json(found: Definition | None) -> dict[str, object] | None:
    """A short definition as the API writes it (its text in English, as WordNet is), or
    None: the main sense's text and part of speech, the source, the lemma it was found as
    (``ran`` -> ``run``) and every sense shown (one or two)."""
    if found is None:
        return None
    return {
        "text": found.text,
        "part_of_speech": found.part_of_speech,
        "source": found.source,
        "lemma": found.lemma,
        "senses": [{"part_of_speech": s.part_of_speech, "text": s.text} for s in found.senses],
    }
