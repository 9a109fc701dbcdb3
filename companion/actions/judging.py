"""Who rules on a word: a game's house words first, then its lexicon, by name; and
which definition is shown beside a verdict or a ruling.

These take the app's ``LexiconStore`` (or ``Definitions``) as an argument (no Flask
here), and turn a missing lexicon into a refusal that lists the ones there are.
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.game.challenges import PROPER_NOUN_ALLOWED, TABLE_ILLEGAL, Judge, Verdict
from companion.game.errors import RuleError
from companion.game.rules import Rules
from companion.lexicon import Lexicon, LexiconStore, UnknownLexicon
from companion.lexicon.definitions import Definition, Definitions
from companion.lexicon.house import HouseIndex
from companion.lexicon.reasons import Reason


def lexicon(lexicons: LexiconStore, name: str, where: str = "lexicon") -> Lexicon:
    """The lexicon called ``name``, or a 422 that lists the ones there are."""
    try:
        return lexicons.get(name)
    except UnknownLexicon as exc:
        raise RuleError("unknown_lexicon", where, name=name[:40], names=exc.names) from None


def lazy_judge(lexicons: LexiconStore, name: str, where: str) -> Judge:
    """A judge that loads lexicon ``name`` only when a challenge needs it."""

    def judge(word: str) -> Verdict:
        return lexicon(lexicons, name, where).verdict(word)

    return judge


def house_judge(house_words: dict[str, bool], lexicon_judge: Judge) -> Judge:
    """A game's own words first (allowed or banned), then the lexicon."""

    def judge(word: str) -> Verdict:
        allowed = house_words.get(word.strip().lower())
        if allowed is True:
            return Verdict(True, Reason.HOUSE_WORD)
        if allowed is False:
            return Verdict(False, Reason.BANNED_HOUSE_WORD)
        return lexicon_judge(word)

    return judge


def game_judge(lexicons: LexiconStore, rules: Rules, house_words: dict[str, bool]) -> Judge:
    """A stored game's judge: its house words, then its lexicon (loaded only when needed),
    with proper nouns legal where the house rule allows them."""
    judge = lazy_judge(lexicons, rules.lexicon, "rules.lexicon")
    return house_judge(house_words, by_house_rules(judge, rules))


def by_house_rules(lexicon_judge: Judge, rules: Rules) -> Judge:
    """A lexicon's judge as a game's house rules amend it: A and I stand where one card
    may be a word, proper nouns where the rule allows them."""
    judge = lexicon_judge
    if rules.min_word == "one_card":
        judge = one_letter_judge(judge)
    if rules.proper_nouns:
        judge = proper_nouns_judge(judge)
    return judge


ONE_LETTER_WORDS = frozenset({"a", "i"})
"""English's words of one letter. The lexicons refuse every word shorter than two letters
(the rule book's minimum); a game whose house rule lets one card be a word (Junior)
needs A and I to stand when challenged."""


def one_letter_judge(lexicon_judge: Judge) -> Judge:
    """A judge that rules A and I legal (a one-card word, by house rule)."""

    def judge(word: str) -> Verdict:
        if word.strip().lower() in ONE_LETTER_WORDS:
            return Verdict(True, Reason.IN_DICTIONARY)
        return lexicon_judge(word)

    return judge


def proper_nouns_judge(lexicon_judge: Judge) -> Judge:
    """A judge that rules a proper noun legal (Junior's house rule), saying so."""

    def judge(word: str) -> Verdict:
        verdict = lexicon_judge(word)
        if not verdict.legal and verdict.reason == Reason.PROPER_NOUN:
            return Verdict(True, PROPER_NOUN_ALLOWED)
        return verdict

    return judge


def definition(
    definitions: Definitions,
    word: str,
    legal: bool,
    reason: str,
    lexicon_judge: Judge | None = None,
) -> Definition | None:
    """The short definition to show beside a verdict or ruling on ``word``, if any: only
    for a word the referee accepts. A word it refused, for any reason (a name, an
    abbreviation, a contraction, not in the dictionary, a banned house word...), gets
    none: a ruling must not seem to define, as a word, what it refused (WordNet defines
    "ft", the foot). A word the table voted down is shown one only when its lexicon
    (``lexicon_judge``, without house words) accepts it: the table refused a dictionary
    word, and the definition says what it means; without that judge, or when its
    lexicon is gone, none."""
    if not legal:
        if reason != TABLE_ILLEGAL or lexicon_judge is None:
            return None
        try:
            if not lexicon_judge(word).legal:
                return None
        except RuleError:  # the game's own list was removed: nothing to go by
            return None
    return definitions.lookup(word)


def solver_index(
    lexicons: LexiconStore,
    lexicon_name: str,
    house_words: dict[str, bool] | None = None,
    where: str = "rules.lexicon",
) -> Mapping[str, str]:
    """The best-play index of a lexicon, with a game's allowed words added and banned ones out.

    A banned word's card multiset stays playable when another word of the lexicon
    has the same cards (ban ``cat`` and ``act`` still stands). The game's words are an
    overlay on the lexicon's one index (``HouseIndex``), made for each call: no game
    keeps a copy of the index, and nothing is kept between calls.
    """
    try:
        base = lexicons.solver_index(lexicon_name)
    except UnknownLexicon as exc:
        raise RuleError("unknown_lexicon", where, name=lexicon_name[:40], names=exc.names) from None
    if not house_words:
        return base

    def anagrams(word: str) -> tuple[str, ...]:  # the lexicon loaded only if a ban needs it
        return lexicon(lexicons, lexicon_name, where).anagrams(word)

    return HouseIndex(base, house_words, anagrams)


def game_solver_index(
    lexicons: LexiconStore, rules: Rules, house_words: dict[str, bool]
) -> Mapping[str, str]:
    """The best-play index a game's rules play by: its lexicon's with its house words,
    and A and I where one card may be a word (unless the game banned them)."""
    if rules.min_word == "one_card":
        house_words = {**dict.fromkeys(ONE_LETTER_WORDS, True), **house_words}
    return solver_index(lexicons, rules.lexicon, house_words)
