"""Whole numbers typed or sent as text, read without surprises.

``"²".isdigit()`` is true and ``int()`` of 5,000 digits raises, so every number a
request carries as text is read here: ASCII digits, a bounded length, or None.
"""

from __future__ import annotations

MAX_DIGITS = 9


def small_int(text: object) -> int | None:
    """``text`` as a whole number >= 0 when it is 1 to 9 ASCII digits, else None."""
    if not isinstance(text, str):
        return None
    text = text.strip()
    if not text or len(text) > MAX_DIGITS or not (text.isascii() and text.isdigit()):
        return None
    return int(text)
