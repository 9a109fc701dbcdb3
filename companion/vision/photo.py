"""A picture sent by a phone: checked, turned upright, and shrunk for keeping.

Pillow decodes it (JPEG, PNG or WebP only); anything else, a picture too big to decode
safely or a broken file is refused with a code the pages and the API render. A kept
photo is written again from its pixels alone, so no location, camera or other metadata
survives it.
"""

from __future__ import annotations

import io
import warnings

from PIL import Image, ImageOps, UnidentifiedImageError

from companion.game.errors import RuleError, ShapeError

FORMATS = ("JPEG", "PNG", "WEBP")
"""What a phone's camera or gallery sends."""

TYPES = ("image/jpeg", "image/png", "image/webp")
"""The body types ``POST /api/v1/cards/read`` takes, and the file input accepts."""

MOST_BYTES = 12 * 1024 * 1024
"""A picture's largest file: a phone camera's full-size JPEG is 2-8 MB."""

MOST_PIXELS = 50_000_000
"""A picture's most pixels (a 50-megapixel camera): a bigger one is refused unread,
so that a small file that decodes to a huge image can't use up the server's memory."""

KEPT_SIDE = 1600
"""A kept photo's longest side, in pixels."""

KEPT_QUALITY = 80
"""JPEG quality of a kept photo: a 1600-px photo of cards comes to 150-400 KB."""


def open_picture(data: bytes, where: str = "photo") -> Image.Image:
    """The picture in ``data`` as RGB pixels, upright (the camera's orientation tag
    applied). Refused: ``photo_missing`` (nothing sent), ``photo_too_large`` (over
    MOST_BYTES or MOST_PIXELS), ``not_a_picture`` (not a JPEG, PNG or WebP picture, or
    broken)."""
    if not data:
        raise ShapeError("photo_missing", where)
    if len(data) > MOST_BYTES:
        raise RuleError("photo_too_large", where, most=MOST_BYTES // (1024 * 1024))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data), formats=FORMATS)
            if image.width * image.height > MOST_PIXELS:
                raise RuleError("photo_too_large", where, most=MOST_BYTES // (1024 * 1024))
            image.load()
            upright = ImageOps.exif_transpose(image)
            return upright.convert("RGB")
    except RuleError:
        raise
    except (
        UnidentifiedImageError,
        Image.DecompressionBombError,
        Image.DecompressionBombWarning,
        OSError,
        ValueError,
        SyntaxError,  # PIL raises it for some broken PNG chunks
        EOFError,
    ):
        raise ShapeError("not_a_picture", where) from None


def shrunk(image: Image.Image, side: int) -> Image.Image:
    """``image`` with its longest side at most ``side`` pixels (a copy; never enlarged)."""
    copy = image.copy()
    copy.thumbnail((side, side), Image.Resampling.LANCZOS)
    return copy


def keepable_jpeg(image: Image.Image) -> bytes:
    """The photo as it is kept with a round: at most KEPT_SIDE pixels, JPEG, its pixels
    only (no EXIF, no ICC profile, no comment: nothing says where or with what)."""
    small = shrunk(image, KEPT_SIDE)
    clean = Image.new("RGB", small.size)
    clean.paste(small)
    out = io.BytesIO()
    clean.save(out, format="JPEG", quality=KEPT_QUALITY, optimize=True, progressive=True)
    return out.getvalue()
