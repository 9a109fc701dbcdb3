"""Use case: read the cards on a photo (``POST /api/v1/cards/read``). Nothing is stored:
the phone puts the cards in its form, and the player saves them as a typed hand."""

from __future__ import annotations

from companion.game.reading import Reading
from companion.vision.cards import read_cards
from companion.vision.photo import open_picture


def read_photo(data: bytes) -> Reading:
    """The cards, words and cards left over on the picture in ``data`` (JPEG, PNG or
    WebP); refused when it is none of those or too big (``vision/photo.py``)."""
    return read_cards(open_picture(data, "photo"))
