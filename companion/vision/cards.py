"""The cards on a photo: where each card lies, its corner indices read, and then the card
logic of ``game/reading.py`` (deck, values, rows to words).

Two ways to a card's index, by what the picture shows:

- a card lying on its own: its outline (a light, unsaturated four-sided shape) is found
  with OpenCV, the card straightened to a portrait rectangle, and both corner indices
  read (the bottom one turned over), so that every card is read twice;
- cards overlapping (a fanned hand, a word laid with its cards over each other), or no
  outline at all: the text of that part of the picture is found and read, and each
  letter line with the value line under it is one card's index; an index upside down
  (its value above it: a card's bottom corner) is the second index of a card already
  read, and is left out.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
from PIL import Image

from companion.game.reading import (
    ReadCard,
    Reading,
    Sighting,
    identify,
    letters_of,
    reading,
    split_line,
)
from companion.vision import model
from companion.vision.photo import shrunk

__all__ = ["ReadCard", "Reading", "read_cards"]

WORK_SIDE = 1600
"""The picture is read at most this many pixels on its longest side."""

CARD_W, CARD_H = 300, 420
"""A straightened card, in pixels (the deck's 63 x 88 mm)."""

CORNER = (0.45, 0.36)
"""The part of a straightened card read for its index: width and height fractions."""

CARD_RATIO = (0.55, 0.85)
"""A lone card's short side over its long side, as photographed (0.72 flat)."""


@dataclass(frozen=True, eq=False)
class _Shape:
    """A light shape found on the picture: its rotated rectangle and corner points."""

    quad: np.ndarray  # 4 x 2, float32
    centre: tuple[float, float]
    size: tuple[float, float]  # short, long
    angle: float  # degrees the card's long side leans from upright
    area: float
    solid: float  # the shape's area over its rectangle's


def read_cards(image: Image.Image) -> Reading:
    """Every card on ``image`` (upright RGB), its words and its cards left over. Boxes
    are in ``image``'s own pixels."""
    small = shrunk(image, WORK_SIDE)
    scale = image.width / small.width
    bgr = np.ascontiguousarray(np.asarray(small)[:, :, ::-1])
    with model.engine() as eng:
        seen = list(_sightings(eng, bgr))
    found = reading(seen)
    return Reading(
        tuple(ReadCard(c.card, c.sure, _scaled(c.box, scale)) for c in found.cards),
        found.words,
        found.unused,
    )


def _scaled(box: tuple[int, int, int, int], scale: float) -> tuple[int, int, int, int]:
    x, y, w, h = box
    return (round(x * scale), round(y * scale), round(w * scale), round(h * scale))


def _shapes(bgr: np.ndarray) -> list[_Shape]:
    """The light, unsaturated shapes big enough to be a card, or cards overlapping."""
    import cv2

    hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)
    value = cv2.GaussianBlur(hsv[..., 2], (5, 5), 0)
    threshold, _ = cv2.threshold(value, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    mask = ((hsv[..., 1] < 80) & (value > threshold)).astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    area = bgr.shape[0] * bgr.shape[1]
    shapes = []
    for contour in contours:
        a = cv2.contourArea(contour)
        if a < 0.004 * area or a > 0.9 * area:
            continue
        (cx, cy), (w, h), angle = cv2.minAreaRect(contour)
        quad = cv2.boxPoints(((cx, cy), (w, h), angle)).astype(np.float32)
        short, long = sorted((w, h))
        lean = angle if h >= w else angle - 90  # the long side's lean from upright
        shapes.append(_Shape(quad, (cx, cy), (short, long), lean, a, a / max(w * h, 1.0)))
    return shapes


def _is_card(shape: _Shape, typical: float | None) -> bool:
    short, long = shape.size
    ratio = short / max(long, 1.0)
    if shape.solid < 0.88 or not CARD_RATIO[0] <= ratio <= CARD_RATIO[1]:
        return False
    return typical is None or 0.55 * typical <= shape.area <= 1.6 * typical


def _portrait(quad: np.ndarray) -> np.ndarray:
    """The four corners clockwise from the top left, the first side a short one."""
    centre = quad.mean(axis=0)
    order = np.argsort(np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0]))
    points = quad[order]
    points = np.roll(points, -int(np.argmin(points.sum(axis=1))), axis=0)
    if np.linalg.norm(points[1] - points[0]) > np.linalg.norm(points[3] - points[0]):
        points = np.roll(points, -1, axis=0)
    return points.astype(np.float32)


def _sightings(eng: Any, bgr: np.ndarray) -> Iterator[Sighting]:
    shapes = _shapes(bgr)
    singles = [s for s in shapes if _is_card(s, None)]
    typical = float(np.median([s.area for s in singles])) if singles else None
    cards = [s for s in shapes if _is_card(s, typical)]
    size = (
        (float(np.median([s.size[0] for s in cards])), float(np.median([s.size[1] for s in cards])))
        if cards
        else None
    )
    numbers = itertools.count()
    doubtful = []
    for shape in cards:
        read = list(_card_indices(eng, bgr, shape, next(numbers)))
        if _one_card(read):
            yield from read
        else:  # not one card after all: cards fanned in a card's shape, or no index
            doubtful.append(shape)
    rest = doubtful + [
        s
        for s in shapes
        if all(s is not c for c in cards) and (typical is None or s.area > 0.4 * typical)
    ]
    if not cards and not rest:
        rest = [None]  # nothing stands out from the table: read the whole picture
    for shape in rest:
        yield from _group_indices(eng, bgr, shape, size, numbers)


def _one_card(read: list[Sighting]) -> bool:
    """Whether a shape's two corners show one card: both read as that card, or one
    read with its value agreeing."""
    found = [identify(s.letters, s.value, s.score) for s in read]
    names = {f[0].name for f in found if f is not None}
    return len(names) == 1 and (len(found) == 2 or any(f is not None and f[1] for f in found))


def _box(quad: np.ndarray) -> tuple[int, int, int, int]:
    x0, y0 = quad.min(axis=0)
    x1, y1 = quad.max(axis=0)
    return (int(x0), int(y0), int(x1 - x0), int(y1 - y0))


def _card_indices(eng: Any, bgr: np.ndarray, shape: _Shape, number: int) -> Iterator[Sighting]:
    """Both corner indices of a card lying on its own."""
    import cv2

    corners = _portrait(shape.quad)
    target = np.float32([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]])
    flat = cv2.warpPerspective(bgr, cv2.getPerspectiveTransform(corners, target), (CARD_W, CARD_H))
    w, h = int(CARD_W * CORNER[0]), int(CARD_H * CORNER[1])
    for turned in (flat, cv2.rotate(flat, cv2.ROTATE_180)):
        texts = model.find_text(eng, np.ascontiguousarray(turned[:h, :w]))
        letters, value, score = _index_of(texts)
        if not letters:
            continue
        yield Sighting(
            letters,
            value,
            score,
            number,
            shape.centre[0],
            shape.centre[1],
            shape.size[0],
            shape.size[1],
            shape.angle,
            _box(shape.quad),
        )


def _centre(quad: tuple[tuple[float, float], ...]) -> tuple[float, float]:
    return (sum(p[0] for p in quad) / 4, sum(p[1] for p in quad) / 4)


def _height(quad: tuple[tuple[float, float], ...]) -> float:
    ys = [p[1] for p in quad]
    return max(ys) - min(ys)


def _index_of(texts: list[model.Text]) -> tuple[str, str, float]:
    """The letter line of a card's corner (the highest line with letters) and the value
    line under it."""
    lettered = [t for t in texts if letters_of(split_line(t.text, "")[0])]
    if not lettered:
        return "", "", 0.0
    top = min(lettered, key=lambda t: _centre(t.quad)[1])
    letters, value = split_line(top.text, "")
    if not value:
        below = [t for t in texts if t is not top and _centre(t.quad)[1] > _centre(top.quad)[1]]
        if below:
            value = min(below, key=lambda t: _centre(t.quad)[1]).text
    return letters, value, top.score


def _crop(bgr: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The text inside ``quad`` (four corners clockwise from its top left), straightened."""
    import cv2

    width = int(max(np.linalg.norm(quad[1] - quad[0]), np.linalg.norm(quad[2] - quad[3])))
    height = int(max(np.linalg.norm(quad[3] - quad[0]), np.linalg.norm(quad[2] - quad[1])))
    target = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    matrix = cv2.getPerspectiveTransform(quad.astype(np.float32), target)
    return cv2.warpPerspective(bgr, matrix, (max(width, 1), max(height, 1)))


def _upside_down(eng: Any, bgr: np.ndarray, text: model.Text, offset: tuple[int, int]) -> bool:
    """Whether a letter line reads better turned over: a card's bottom index, seen from
    the top of the card (its value, above it, may not have been found)."""
    import cv2

    quad = np.array(text.quad, dtype=np.float32) + np.float32(offset)
    turned = cv2.rotate(_crop(bgr, quad), cv2.ROTATE_180)
    ((_, score),) = model.read_lines(eng, [turned])
    return score > text.score + 0.05


def _group_indices(
    eng: Any,
    bgr: np.ndarray,
    shape: _Shape | None,
    size: tuple[float, float] | None,
    numbers: Iterator[int],
) -> Iterator[Sighting]:
    """The indices showing in a group of overlapping cards (or the whole picture): each
    letter line with a value line under it, upright."""
    height, width = bgr.shape[:2]
    if shape is None:
        x0, y0, x1, y1 = 0, 0, width, height
    else:
        x, y, w, h = _box(shape.quad)
        x0, y0 = max(0, x - 8), max(0, y - 8)
        x1, y1 = min(width, x + w + 8), min(height, y + h + 8)
    texts = model.find_text(eng, np.ascontiguousarray(bgr[y0:y1, x0:x1]))
    lines = []
    for t in texts:
        letters, value = split_line(t.text, "")
        cx, cy = _centre(t.quad)
        lines.append((t, letters, value, cx + x0, cy + y0, _height(t.quad)))
    indices = []
    for t, letters, value, cx, cy, th in lines:
        if not letters_of(letters):
            continue
        if not value:
            below = [
                (ly - cy, lt.text)
                for lt, ll, _, lx, ly, lh in lines
                if lt is not t
                and not letters_of(ll)
                and abs(lx - cx) < th
                and 0 < ly - cy < 2.2 * th
            ]
            above = [
                ly
                for lt, ll, _, lx, ly, lh in lines
                if lt is not t
                and not letters_of(ll)
                and abs(lx - cx) < th
                and 0 < cy - ly < 2.2 * th
            ]
            if below:
                value = min(below)[1]
            elif above or _upside_down(eng, bgr, t, (x0, y0)):
                continue  # an index upside down: a card's bottom corner
        indices.append((t, letters, value, cx, cy, th))
    if not indices:
        return
    letter_h = float(np.median([i[5] for i in indices if i[2]] or [i[5] for i in indices]))
    card_w, card_h = size if size else (letter_h * 4.5, letter_h * 6.3)
    for t, letters, value, cx, cy, th in indices:
        if not value and not 0.6 * letter_h <= th <= 1.6 * letter_h:
            continue  # not an index: a card's big middle letter, or other writing
        quad = np.array(t.quad, dtype=np.float32) + np.float32([x0, y0])
        yield Sighting(
            letters,
            value,
            t.score if value else min(t.score, 0.85),
            next(numbers),
            cx + card_w * 0.3,
            cy + card_h * 0.35,
            card_w,
            card_h,
            0.0,
            _box(quad),
        )
