"""The word referee: word lists built once into a compact cache, verdicts with reasons.

``standard`` is Hunspell's en_US (SCOWL) as shipped by spylls; ``broad`` adds
the lowercase entries of Webster's Second (english-words); any
``instance/lexicons/NAME.txt`` is a group's own list. No Flask here.
"""

from companion.lexicon.lexicon import Lexicon
from companion.lexicon.reasons import Reason
from companion.lexicon.store import LexiconStore, UnknownLexicon

__all__ = ["Lexicon", "LexiconStore", "Reason", "UnknownLexicon"]
