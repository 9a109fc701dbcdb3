"""The phone's language: chosen per request, and the catalogs of the Companion's words.

Each phone picks its own: a page's ``?lang=`` (a shared link's language, or the polled
parts asking in their page's), else the language it chose on the switch (kept in its
session), else the best of ``Accept-Language`` (where Slovak, which we don't speak, reads
Czech: ``KIN``), else English. The game's words stay English (the
deck is the English deck); everything around them is looked up in the catalogs under
``companion/translations`` (``make translations`` extracts, updates and compiles them).
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from babel.messages.extract import extract_from_file
from babel.numbers import format_decimal
from flask import has_request_context, request, session
from flask_babel import get_locale, get_translations
from werkzeug.datastructures import LanguageAccept

LANGUAGES: dict[str, str] = {"en": "English", "lt": "Lietuvių", "hu": "Magyar", "cs": "Čeština"}
"""The languages the Companion speaks, each named in itself (as the switch shows them)."""
DEFAULT = "en"
STATIC = Path(__file__).resolve().parent.parent / "static"
JS_KEYWORDS = {"_": None, "ngettext": (1, 2)}
"""How the scripts mark their words: ``_("Next word")``, ``ngettext("{n} card", "{n} cards",
n)``."""


KIN: dict[str, str] = {"sk": "cs"}
"""A language we don't speak -> the one of ours its readers read without effort. Only
where that is really so: Slovak and Czech are mutually intelligible (a Slovak phone
reads Czech far better than English); Latvian and Lithuanian, or Finnish and Hungarian,
are related but not readable one for the other, so those phones get English."""


def with_kin(accepted: LanguageAccept) -> LanguageAccept:
    """``Accept-Language`` as our languages are named: each tag by its language alone
    (``en-GB`` is ``en``: we speak no regional variant, and an exact ``cs`` listed later
    must not beat it), and each kin language (``KIN``) just after the one it stands in
    for, a hair lower (so a Czech also listed at that weight comes first)."""
    best: dict[str, float] = {}
    for value, quality in accepted:
        tag = value.split("-")[0].split("_")[0].lower()
        for name, weight in ((tag, quality), (KIN.get(tag), max(quality - 0.0001, 0.0))):
            if name and weight > best.get(name, -1.0):
                best[name] = weight
    return LanguageAccept(list(best.items()))


def select_locale() -> str:
    """This request's language: the page's ``?lang=``, else the phone's choice, else
    ``Accept-Language`` (with ``KIN``), else English.

    ``?lang=`` speaks for that page only and is not remembered: a link carries the
    language of whoever shared it, while the phone's own choice (the switch) or its
    settings stay in charge of the next pages. It is read before the session, so a
    polled part that asks with it never reads the session (a shared cache may keep it).
    """
    if not has_request_context():
        return DEFAULT
    asked = request.args.get("lang")
    if asked in LANGUAGES:
        return str(asked)
    chosen = session.get("lang")
    if isinstance(chosen, str) and chosen in LANGUAGES:
        return chosen
    return with_kin(request.accept_languages).best_match(list(LANGUAGES), DEFAULT) or DEFAULT


def current() -> str:
    """The language of this request (English outside one)."""
    if not has_request_context():
        return DEFAULT
    return str(get_locale() or DEFAULT).split("_")[0]


def gettext(message: str) -> str:
    """``message`` in this request's language, unformatted (its ``{named}`` parts are
    filled by the caller); English outside a request."""
    if not has_request_context():
        return message
    return get_translations().gettext(message)


def pgettext(context: str, message: str) -> str:
    """``message`` in its ``context`` (msgctxt) in this request's language; English
    outside a request."""
    if not has_request_context():
        return message
    return get_translations().pgettext(context, message)


def ngettext(one: str, other: str, count: int) -> str:
    """The form of ``one``/``other`` for ``count`` in this request's language, unformatted."""
    if not has_request_context():
        return one if count == 1 else other
    return get_translations().ngettext(one, other, count)


MINUS = "\u2212"
"""The minus sign of a number people read (U+2212, not the hyphen), in every language.

CLDR gives it to Lithuanian only (and Babel's patterns still write "-" for all four),
but Czech and Hungarian typography set a negative score with it as well, and the pages
already write it before the points of leftover cards in every language, English too:
one sign for one thing. It is as wide as a digit and screen readers say "minus". Only
what a person reads gets it: the API's JSON numbers, form values and the spreadsheet
keep "-"."""


def number(value: float | int | None, decimals: int | None = None) -> str:
    """``value`` as this request's language writes it for people: its decimal comma or
    point and thousands separator (``4,71`` in lt, hu and cs; ``1 250``), ``decimals``
    places when given, and ``MINUS`` before a negative one; "" for None. (Babel's
    ``format_decimal`` with the request's locale, as Flask-Babel's own does.)"""
    if value is None:
        return ""
    pattern = None if decimals is None else "#,##0." + "0" * decimals if decimals else "#,##0"
    text = str(format_decimal(value, format=pattern, locale=current()))
    return MINUS + text[1:] if text.startswith(("-", MINUS)) else text


@lru_cache(maxsize=1)
def script_messages() -> tuple[tuple[str, ...], ...]:
    """The words the scripts mark (``_()``, ``ngettext()``), read from static/*.js once."""
    found: dict[tuple[str, ...], None] = {}
    for path in sorted(STATIC.glob("*.js")):
        for _line, message, _comments, _context in extract_from_file(
            "javascript", str(path), keywords=JS_KEYWORDS
        ):
            found[message if isinstance(message, tuple) else (message,)] = None
    return tuple(found)


PLURAL_SAMPLES = 200
"""Counts the scripts can put into words (hands hold up to 11 cards; scores stay small)."""


@lru_cache(maxsize=len(LANGUAGES))
def script_catalog(lang: str) -> str:
    """What the scripts need in ``lang``, as JSON: each marked sentence translated, each
    plural as its forms, and which form each count from 0 to 199 takes."""
    from flask_babel import force_locale

    words: dict[str, object] = {}
    with force_locale(lang):
        translations = get_translations()
        for message in script_messages():
            if len(message) == 1:
                words[message[0]] = translations.gettext(message[0])
            else:
                one, other = message[0], message[1]
                forms = [translations.ngettext(one, other, n) for n in range(PLURAL_SAMPLES)]
                distinct = list(dict.fromkeys(forms))
                words[one] = {"forms": distinct, "index": [distinct.index(f) for f in forms]}
    text = json.dumps({"lang": lang, "words": words}, ensure_ascii=False, sort_keys=True)
    return text.replace("</", "<\\/")  # inside <script>: no sentence can close the tag
