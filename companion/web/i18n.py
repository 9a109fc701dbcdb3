"""The phone's language: chosen per request, and the catalogs of the Companion's words.

Each phone picks its own: the language it chose on the switch (kept in its session),
else the best of ``Accept-Language``, else English. The game's words stay English (the
deck is the English deck); everything around them is looked up in the catalogs under
``companion/translations`` (``make translations`` extracts, updates and compiles them).
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from babel.messages.extract import extract_from_file
from flask import has_request_context, request, session
from flask_babel import get_locale, get_translations

LANGUAGES: dict[str, str] = {"en": "English", "lt": "Lietuvių", "hu": "Magyar", "cs": "Čeština"}
"""The languages the Companion speaks, each named in itself (as the switch shows them)."""
DEFAULT = "en"
STATIC = Path(__file__).resolve().parent.parent / "static"
JS_KEYWORDS = {"_": None, "ngettext": (1, 2)}
"""How the scripts mark their words: ``_("Next word")``, ``ngettext("{n} card", "{n} cards",
n)``."""


def select_locale() -> str:
    """This request's language: the phone's choice, else ``Accept-Language``, else English."""
    if not has_request_context():
        return DEFAULT
    chosen = session.get("lang")
    if isinstance(chosen, str) and chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(list(LANGUAGES), DEFAULT) or DEFAULT


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


def ngettext(one: str, other: str, count: int) -> str:
    """The form of ``one``/``other`` for ``count`` in this request's language, unformatted."""
    if not has_request_context():
        return one if count == 1 else other
    return get_translations().ngettext(one, other, count)


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
