"""``N_``: marks a sentence for translation where it is written, without translating it.

The rules and the refusal catalog are plain data; the words a person reads are looked up
in their language when shown (``companion/web/i18n.py``). Marking them lets ``pybabel
extract`` find them (``babel.cfg``); the mark itself changes nothing, so game/ stays pure.
"""

from __future__ import annotations


def N_(text: str) -> str:  # the name gettext tools look for
    """``text`` as it is: only a mark for the message extractor."""
    return text


def NC_(context: str, text: str) -> str:  # extracted as pgettext (Makefile: -k NC_:1c,2)
    """``text`` as it is, marked with a ``context`` (a msgctxt) for a word that means
    something else elsewhere ("standard" the dictionary); looked up with ``pgettext``."""
    return text
