"""The words a person reads, rendered from a refusal's code and parameters, in the
reader's language.

The catalog itself (every code's English template) is ``companion.web.refusals``, plain
data the command line reads too; here it is rendered through the request's translations
(English outside a request), and lists of people by the locale's list pattern.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from babel.lists import format_list

from companion.game.errors import Refusal
from companion.web import i18n, refusals


def people(names: object) -> str:
    """Names as a sentence lists them, in the reader's language: "Ann, Ben and Cy",
    "Ann, Ben ir Cy", "Ann, Ben és Cy", "Ann, Ben a Cy" (the locale's list pattern; English
    without the serial comma, as the rest of the Companion writes)."""
    listed = [str(n) for n in names] if isinstance(names, list | tuple) else [str(names)]
    lang = i18n.current()
    return format_list(listed, locale="en_GB" if lang == "en" else lang) if listed else ""


def reason(code: str) -> str:
    """The words of a reason code (``proper_noun`` -> "proper noun"), in the reader's language."""
    return refusals.reason(code, i18n.gettext)


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def writable(text: str) -> str:
    """``text`` with each lone surrogate (which UTF-8 can't write: a JSON file or body may
    hold one, escaped) shown as U+FFFD, so a refusal quoting it can be sent."""
    return _LONE_SURROGATE.sub("\ufffd", text)


def render(code: str, params: Mapping[str, object] | None = None) -> str:
    """The message of refusal ``code`` with ``params`` filled in, in the reader's language
    (English outside a request); a lone surrogate quoted from the request shown as U+FFFD."""
    return writable(refusals.render(code, params, i18n.gettext, i18n.ngettext, people))


def text(exc: Refusal) -> str:
    """The message of a refusal."""
    return render(exc.code, exc.params)
