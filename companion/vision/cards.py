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

import dataclasses
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
"""The cards' outlines are looked for on the picture shrunk to this many pixels on its
longest side (fewer pixels: quicker, and the table's grain smoothed away)."""

FULL_SIDE = 3000
"""The indices are read from the picture at most this many pixels on its longest side
(a phone's 12 megapixels is 4000)."""

CARD_W, CARD_H = 300, 420
"""A straightened card, in pixels (the deck's 63 x 88 mm)."""

CORNER = (0.45, 0.36)
"""The part of a straightened card read for its index: width and height fractions."""

CARD_RATIO = (0.5, 0.9)
"""A lone card's short side over its long side, as photographed (0.72 flat; a camera
at a slant makes it more or less)."""


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
    full = shrunk(image, FULL_SIDE)
    small = shrunk(full, WORK_SIDE)
    scale = image.width / full.width
    bgr = np.ascontiguousarray(np.asarray(full)[:, :, ::-1])
    outline = np.ascontiguousarray(np.asarray(small)[:, :, ::-1])
    shapes = [_scaled_shape(s, full.width / small.width) for s in _shapes(outline)]
    with model.engine() as eng:
        seen = _once(list(_sightings(eng, bgr, shapes)))
    found = reading(seen)
    return Reading(
        tuple(ReadCard(c.card, c.sure, _scaled(c.box, scale)) for c in found.cards),
        found.words,
        found.unused,
    )


def _once(seen: list[Sighting]) -> list[Sighting]:
    """The sightings without a second reading of one card: the same card named where
    another card's sighting already lies (its big middle letter, a part of it read
    twice), the larger box (the whole card's) kept."""
    kept: list[tuple[Sighting, str]] = []
    for s in sorted(seen, key=lambda s: -s.box[2] * s.box[3]):
        found = identify(s.letters, s.value, s.score)
        name = found[0].name if found else ""
        x, y, w, h = s.box
        centre = (x + w / 2, y + h / 2)
        if not any(
            name and other == name and k.card != s.card and _near(centre, k.box)
            for k, other in kept
        ):
            kept.append((s, name))
    return [s for s in seen if any(s is k for k, _ in kept)]


def _scaled(box: tuple[int, int, int, int], scale: float) -> tuple[int, int, int, int]:
    x, y, w, h = box
    return (round(x * scale), round(y * scale), round(w * scale), round(h * scale))


def _scaled_shape(shape: _Shape, scale: float) -> _Shape:
    """A shape found on the small picture, on the full one."""
    return _Shape(
        shape.quad * np.float32(scale),
        (shape.centre[0] * scale, shape.centre[1] * scale),
        (shape.size[0] * scale, shape.size[1] * scale),
        shape.angle,
        shape.area * scale * scale,
        shape.solid,
    )


def _masks(bgr: np.ndarray) -> Iterator[np.ndarray]:
    """Where cards may lie, two ways: lighter than the table (Otsu's threshold on
    brightness), and inside the outlines their edges draw (a table as light as the
    cards, a cloth, a shadow)."""
    import cv2

    value = cv2.GaussianBlur(cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)[..., 2], (5, 5), 0)
    _, light = cv2.threshold(value, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    edges = cv2.dilate(cv2.Canny(value, 30, 90), np.ones((3, 3), np.uint8), iterations=2)
    outlines, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    drawn = np.zeros_like(value)
    cv2.drawContours(drawn, outlines, -1, 255, thickness=cv2.FILLED)
    drawn = cv2.erode(drawn, np.ones((3, 3), np.uint8), iterations=2)
    for mask in (light, drawn):
        # fill the letters' notches, then cut the thin bridges between cards laid close
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
        yield cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((9, 9), np.uint8))


def _shapes(bgr: np.ndarray) -> list[_Shape]:
    """The shapes big enough to be a card, or cards overlapping, four corners each (the
    card's own, when its outline is four-sided: a card photographed at a slant): by
    the way of finding them (``_masks``) that finds the more lone cards."""
    found = [_shapes_in(bgr, mask) for mask in _masks(bgr)]
    return max(found, key=lambda shapes: sum(_is_card(s, None) for s in shapes))


def _shapes_in(bgr: np.ndarray, mask: np.ndarray) -> list[_Shape]:
    """The shapes of ``mask``."""
    import cv2

    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    area = bgr.shape[0] * bgr.shape[1]
    shapes = []
    for contour in contours:
        a = cv2.contourArea(contour)
        if a < 0.004 * area or a > 0.9 * area:
            continue
        (cx, cy), (w, h), angle = cv2.minAreaRect(contour)
        quad = cv2.boxPoints(((cx, cy), (w, h), angle)).astype(np.float32)
        hull = cv2.convexHull(contour)
        corners = cv2.approxPolyDP(hull, 0.03 * cv2.arcLength(hull, True), True)
        if len(corners) == 4:
            quad = corners.reshape(4, 2).astype(np.float32)
        outline = cv2.contourArea(quad)
        sides = [float(np.linalg.norm(quad[(i + 1) % 4] - quad[i])) for i in range(4)]
        short, long = sorted(((sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2))
        lean = angle if h >= w else angle - 90  # the long side's lean from upright
        shapes.append(_Shape(quad, (cx, cy), (short, long), lean, a, a / max(outline, 1.0)))
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


def _sightings(eng: Any, bgr: np.ndarray, shapes: list[_Shape]) -> Iterator[Sighting]:
    """The indices read on the picture ``bgr``, its cards' outlines being ``shapes``."""
    singles = [s for s in shapes if _is_card(s, None)]
    typical = float(np.median([s.area for s in singles])) if singles else None
    cards = [s for s in shapes if _is_card(s, typical)]
    size = (
        (float(np.median([s.size[0] for s in cards])), float(np.median([s.size[1] for s in cards])))
        if cards
        else None
    )
    numbers = itertools.count()
    groups: list[tuple[_Shape | None, list[Sighting] | None]] = []
    taken: list[np.ndarray] = []  # the outlines of the cards read, each read once
    for shape in cards:
        if _within(shape.centre, taken):
            continue  # a card split in two by a shadow: read from its other part
        read = list(_card_indices(eng, bgr, shape, next(numbers)))
        names = {f[0].name for s in read if (f := identify(s.letters, s.value, s.score))}
        group = None
        if names and (len(read) == 1 or len(cards) == 1):
            # one corner read, or the photo's one card-shaped thing (a fanned hand in a
            # card's shape): one card, or several in its shape?
            group = list(_group_indices(eng, bgr, shape, size, numbers))
        if len(names) == 1 and (group is None or len(group) <= 1):
            taken.append(shape.quad)
            yield from read
        else:  # not one card after all: cards fanned in a card's shape, or no index
            groups.append((shape, group))
    groups += [
        (s, None)
        for s in shapes
        if all(s is not c for c in cards)
        and (typical is None or s.area > (0.15 if len(cards) == 1 else 0.4) * typical)
    ]
    found = bool(taken)
    indices: list[tuple[int, int, int, int]] = []  # the indices read in groups so far
    for part, known in groups:
        for sighting in known or _group_indices(eng, bgr, part, size, numbers):
            x, y, w, h = sighting.box
            centre = (x + w / 2, y + h / 2)
            if _within(centre, taken) or any(_near(centre, box) for box in indices):
                continue  # a card read already: groups' outlines may overlap
            indices.append(sighting.box)
            found = True
            yield sighting
    if not found:  # no card stands out from the table: read the whole picture
        yield from _group_indices(eng, bgr, None, size, numbers)


def _near(point: tuple[float, float], box: tuple[int, int, int, int]) -> bool:
    """Whether ``point`` lies on an index's box."""
    x, y, w, h = box
    return x <= point[0] <= x + w and y <= point[1] <= y + h


def _within(point: tuple[float, float], quads: list[np.ndarray]) -> bool:
    """Whether ``point`` lies on one of the cards already read."""
    import cv2

    spot = (float(point[0]), float(point[1]))
    return any(cv2.pointPolygonTest(q.reshape(-1, 1, 2), spot, False) >= 0 for q in quads)


def _box(quad: np.ndarray) -> tuple[int, int, int, int]:
    x0, y0 = quad.min(axis=0)
    x1, y1 = quad.max(axis=0)
    return (int(x0), int(y0), int(x1 - x0), int(y1 - y0))


def _card_indices(eng: Any, bgr: np.ndarray, shape: _Shape, number: int) -> Iterator[Sighting]:
    """Both corner indices of a card lying on its own."""
    import cv2

    corners = _portrait(shape.quad)
    target = np.array([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]], dtype=np.float32)
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
    """The letter line of a card's corner (the highest line with letters, with any
    letters beside it: QU found as Q and U) and the value line under it."""
    lettered = [t for t in texts if letters_of(split_line(t.text, "")[0])]
    if not lettered:
        return "", "", 0.0
    top = min(lettered, key=lambda t: _centre(t.quad)[1])
    level = _centre(top.quad)[1]
    line = sorted(
        (t for t in lettered if abs(_centre(t.quad)[1] - level) < 0.5 * _height(top.quad)),
        key=lambda t: _centre(t.quad)[0],
    )
    letters, value = split_line("".join(t.text for t in line), "")
    if not value:
        below = [t for t in texts if all(t is not u for u in line) and _centre(t.quad)[1] > level]
        if below:
            value = min(below, key=lambda t: _centre(t.quad)[1]).text
    return letters, value, min(t.score for t in line)


def _crop(bgr: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The text inside ``quad`` (four corners clockwise from its top left), straightened."""
    import cv2

    width = int(max(np.linalg.norm(quad[1] - quad[0]), np.linalg.norm(quad[2] - quad[3])))
    height = int(max(np.linalg.norm(quad[3] - quad[0]), np.linalg.norm(quad[2] - quad[1])))
    target = np.array([[0, 0], [width, 0], [width, height], [0, height]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(quad.astype(np.float32), target)
    return cv2.warpPerspective(bgr, matrix, (max(width, 1), max(height, 1)))


def _upside_down(eng: Any, view: np.ndarray, text: model.Text) -> bool:
    """Whether a letter line reads better turned over: a card's bottom index, seen from
    the top of the card (its value, above it, may not have been found)."""
    import cv2

    turned = cv2.rotate(_crop(view, np.array(text.quad, dtype=np.float32)), cv2.ROTATE_180)
    ((_, score),) = model.read_lines(eng, [turned])
    return score > text.score + 0.05


def _lean(shape: _Shape) -> float:
    """The direction of a group's long side (a row of cards, a fan), in degrees from
    level, -50 to 50: the group is read turned back by it."""
    quad = shape.quad
    sides = [quad[(i + 1) % 4] - quad[i] for i in range(2)]
    dx, dy = max(sides, key=lambda v: float(np.hypot(*v)))
    angle = (float(np.degrees(np.arctan2(dy, dx))) + 90) % 180 - 90
    # a group higher than wide is no row (a hand held with a thumb on it): read as it is
    return angle if abs(angle) <= 50 else 0.0


def _view(
    bgr: np.ndarray, shape: _Shape | None, turn: float
) -> tuple[np.ndarray, np.ndarray, float]:
    """The part of the picture a group covers, turned back by ``turn`` degrees; the
    affine map from that view back to the picture; the turn."""
    import cv2

    height, width = bgr.shape[:2]
    if shape is None:
        return bgr, np.array([[1, 0, 0], [0, 1, 0]], dtype=np.float32), 0.0
    x, y, w, h = _box(shape.quad)
    x0, y0 = max(0, x - 8), max(0, y - 8)
    x1, y1 = min(width, x + w + 8), min(height, y + h + 8)
    crop = bgr[y0:y1, x0:x1]
    if abs(turn) < 8:
        return np.ascontiguousarray(crop), np.array([[1, 0, x0], [0, 1, y0]], dtype=np.float32), 0.0
    ch, cw = crop.shape[:2]
    matrix = cv2.getRotationMatrix2D((cw / 2, ch / 2), turn, 1.0)
    cos, sin = abs(matrix[0, 0]), abs(matrix[0, 1])
    vw, vh = int(ch * sin + cw * cos), int(ch * cos + cw * sin)
    matrix[0, 2] += vw / 2 - cw / 2
    matrix[1, 2] += vh / 2 - ch / 2
    view = cv2.warpAffine(crop, matrix, (vw, vh), borderMode=cv2.BORDER_REPLICATE)
    back = cv2.invertAffineTransform(matrix)
    back[0, 2] += x0
    back[1, 2] += y0
    return view, back.astype(np.float32), turn


def _group_indices(
    eng: Any,
    bgr: np.ndarray,
    shape: _Shape | None,
    size: tuple[float, float] | None,
    numbers: Iterator[int],
) -> Iterator[Sighting]:
    """The indices showing in a group of overlapping cards (or the whole picture): each
    letter line with a value line under it. A group laid askew is read both turned
    level and as it is (a row photographed at a slant only looks turned): the reading
    that finds more indices with their values counts."""
    turns = [0.0] if shape is None else sorted({_lean(shape), 0.0}, key=abs, reverse=True)
    readings = [list(_indices_in_view(eng, bgr, shape, size, turn)) for turn in turns]
    best = max(readings, key=lambda r: (sum(bool(s.value) for s in r), len(r)))
    for sighting in best:
        yield dataclasses.replace(sighting, card=next(numbers))


def _indices_in_view(
    eng: Any,
    bgr: np.ndarray,
    shape: _Shape | None,
    size: tuple[float, float] | None,
    turn: float,
) -> Iterator[Sighting]:
    """The indices of a group read turned back by ``turn`` degrees (card numbers to be
    given)."""
    view, back, turn = _view(bgr, shape, turn)
    lines = []
    for t in model.find_text(eng, view):
        letters, value = split_line(t.text, "")
        cx, cy = _centre(t.quad)
        lines.append((t, letters, value, cx, cy, _height(t.quad)))

    def values(t: model.Text, cx: float, cy: float, th: float, under: bool) -> list[tuple]:
        """The value lines just under a line (``under``), or just over it: (how far,
        the text), nearest first."""
        sign = 1 if under else -1
        return sorted(
            ((ly - cy) * sign, lt.text)
            for lt, ll, _, lx, ly, _ in lines
            if lt is not t
            and not letters_of(ll)
            and abs(lx - cx) < th
            and 0 < (ly - cy) * sign < 2.2 * th
        )

    upright = [
        (t, cy, th)
        for t, ll, v, cx, cy, th in lines
        if letters_of(ll) and (v or values(t, cx, cy, th, under=True))
    ]
    if upright:  # the indices' own height: a big middle letter with a mark under it is none
        usual = float(np.median([h for _, _, h in upright]))
        upright = [(u, y, h) for u, y, h in upright if h <= 1.4 * usual]
    indices = []
    for t, letters, value, cx, cy, th in lines:
        if not letters_of(letters):
            continue
        level = any(u is not t and abs(cy - uy) < 0.7 * uh for u, uy, uh in upright)
        if not value:
            below = values(t, cx, cy, th, under=True)
            above = values(t, cx, cy, th, under=False)
            if below:
                value = below[0][1]
            elif above or (not level and _upside_down(eng, view, t)):
                continue  # an index upside down: a card's bottom corner
        indices.append((t, letters, value, cx, cy, th, level))
    if not indices:
        return
    letter_h = float(np.median([i[5] for i in indices if i[2]] or [i[5] for i in indices]))
    card_w, card_h = size if size else (letter_h * 4.5, letter_h * 6.3)
    for t, letters, value, cx, cy, th, level in indices:
        # a card's middle letter: taller than a quarter of a card (the cards' size known),
        # else much taller than the indices and away from them
        big = th > 0.25 * card_h if size else th > 1.7 * letter_h and not level
        if big or (not value and th < 0.6 * letter_h):
            continue  # not an index: a card's big middle letter, or other writing
        centre = back @ np.array([cx + card_w * 0.3, cy + card_h * 0.35, 1.0], dtype=np.float32)
        quad = np.array([back @ np.array([px, py, 1.0], dtype=np.float32) for px, py in t.quad])
        yield Sighting(
            letters,
            value,
            t.score if value else min(t.score, 0.85),
            -1,
            float(centre[0]),
            float(centre[1]),
            card_w,
            card_h,
            turn,
            _box(quad),
        )
