"""The photo half of the JSON API: the cards on a photo, read (``POST /cards/read``).

The body is the picture itself (``Content-Type: image/jpeg``, ``image/png`` or
``image/webp``), which a browser sends from another site only after asking first
(CORS preflight), as with JSON. Nothing is stored.
"""

from __future__ import annotations

from flask import Response, jsonify, request

from companion.actions.reading import read_photo
from companion.api import bp
from companion.game.errors import UnsupportedMedia
from companion.vision.photo import MOST_BYTES, TYPES
from companion.web.errors import takes_file
from companion.web.extensions import limited


@bp.post("/cards/read")
@takes_file(MOST_BYTES)
@limited("photo-reads")
def read_cards() -> Response:
    """Every card on the photo (once each, with ``sure`` and its ``box``: x, y, width,
    height in the picture's pixels), its words (one a row) and the cards left over."""
    if request.mimetype not in TYPES:
        raise UnsupportedMedia("photo_content_type", "", types=list(TYPES))
    request.max_content_length = MOST_BYTES  # a bigger body is refused unread (413)
    found = read_photo(request.get_data(cache=False))
    return jsonify(
        cards=[{"card": c.card, "sure": c.sure, "box": list(c.box)} for c in found.cards],
        words=[list(word) for word in found.words],
        unused=list(found.unused),
    )
