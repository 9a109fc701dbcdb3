"""Synthetic photos of Quiddler cards laid on a table, the test set of benchmarks/photo.py.

Each photo is drawn from nothing (Pillow, NumPy and OpenCV, the DejaVu fonts; no artwork
of the real cards): portrait cards (63 x 88 mm) with a cream face and a thin frame, the
card's letters in bold serif capitals in the top-left corner with the card's value under
them, the same index turned half a turn in the bottom-right corner, and a big pale letter
in a ring in the middle. The hands are real: words from WORDS, spelled with the deck's
cards (``quiz`` as QU-I-Z), each word in a row left to right, the cards left over at the
end of a row after a gap of about a card; never more copies of a card in one photo than the
deck holds (companion/game/deck.py), 3 to 10 cards in all.

``render_set(seed)`` gives the same photos, byte for byte, for the same seed: each one a
JPEG the size of a phone's (long side 2000-3000 px) with its truth: the words, the cards
left over, and for each card its corners and the centre of each of its corner indexes that
can be seen. The conditions (CONDITIONS): ``straight``, ``overlapping`` (each card of a
word over the one before by 40-60% of its width, its left index showing), ``rotated`` (the
whole layout turned up to 45 degrees, each card up to 5 more), ``perspective`` (a camera
held at a slant), ``fanned`` (one hand held fanned in an arc, a thumb on it; its truth is
one row, one word of all its cards), ``dim`` (a dark, warm, noisy room), ``shadow`` (the
soft shadow of a phone or a hand across some cards) and ``blur`` (focus or motion blur and
a strongly compressed JPEG). The tables (BACKGROUNDS): green felt, wood, a white cloth (light
cards on a light table) and a dark table.

Run ``.venv/bin/python benchmarks/photoset.py DIR [--seed 27] [--per-condition 10]`` to
write the photos and a truth.json into DIR, for looking at.
"""

from __future__ import annotations

import argparse
import io
import json
import math
import random
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from companion.game import deck

CONDITIONS = (
    "straight",
    "overlapping",
    "rotated",
    "perspective",
    "fanned",
    "dim",
    "shadow",
    "blur",
)
BACKGROUNDS = ("felt", "wood", "cloth", "dark")

WORDS = """
qu-i-z qu-i-t qu-e-s-t qu-a-c-k qu-i-l-t qu-o-t-e qu-i-e-t s-qu-a-d e-qu-a-l qu-e-e-n
qu-i-p qu-a-y qu-er-y qu-in-c-e s-qu-i-d qu-i-c-k
th-in-k th-in th-in-g th-e th-e-m th-a-t th-o-r-n th-u-d th-r-e-e m-o-th b-a-th p-a-th
th-i-c-k e-a-r-th th-er-e o-th-er m-o-th-er f-a-th-er w-i-th b-o-th th-u-m-b t-e-e-th
th-er-m
in-k p-in-k s-in-k w-in-d k-in-d m-in-d r-in-g s-in-g in-t-o p-o-in-t j-o-in c-o-in
r-a-in t-r-a-in b-r-a-in in-n l-in-e f-in-e w-in-e m-in-t h-in-t
cl-er-k h-er f-er-n t-er-m h-er-b v-er-b er-a er-r w-a-t-er o-v-er u-n-d-er t-i-g-er
p-a-p-er s-er-v-e n-er-v-e
cl-a-w cl-a-y cl-o-c-k cl-u-b cl-a-p cl-i-p cl-o-th cl-a-m cl-i-f-f cl-o-u-d cl-a-s-s
cl-e-a-n u-n-cl-e c-y-cl-e cl-in-g
cat dog zoo jam box fox wax jog vex jump bike grape house table water cards lamp yak
jolly boxer wizard pixel drive mouse apple happy sky glove frog bread milk sheep storm
dance juice knife voice nest mango lemon quiz joke zebra ox go by me us at be we
""".split()
"""Real English words, each as the cards that spell it: cards joined by ``-`` when the
word holds a two-letter card, else one card a letter (``quiz`` is Q-U-I-Z there)."""

CARD_MM = (63.0, 88.0)
"""A card's width and height in millimetres; the layout's unit is a card's width."""
ASPECT = CARD_MM[1] / CARD_MM[0]

FACE = (247, 242, 228)
FRAME = (70, 58, 118)
INK = (24, 26, 58)
VALUE_INK = (150, 32, 36)
PALE = (229, 214, 186)
GOLD = (212, 182, 126)
SKIN = (212, 158, 128)

Point = tuple[float, float]


@dataclass(frozen=True)
class TruthCard:
    """One card in a photo: its name (``"qu"``), its corners in image pixels (the card's
    own top-left, top-right, bottom-right, bottom-left) and the centre of each of its
    corner indexes (the letters, not the value) that no card or hand covers."""

    card: str
    corners: tuple[Point, Point, Point, Point]
    indexes: tuple[Point, ...]


@dataclass(frozen=True)
class Photo:
    """A rendered photo and its truth: the words as laid (each a list of card names, left
    to right), the cards left over, and every card with its place."""

    jpeg: bytes
    condition: str
    seed: int
    background: str
    width: int
    height: int
    words: list[list[str]]
    unused: list[str]
    cards: list[TruthCard]

    @property
    def name(self) -> str:
        return f"{self.condition}-{self.seed}"

    def truth(self) -> dict[str, object]:
        """Everything but the JPEG, as JSON can hold it."""
        out = asdict(self)
        del out["jpeg"]
        return out


# ---------------------------------------------------------------------------------------
# Hands


def spell(entry: str) -> list[str]:
    """The cards of a WORDS entry: ``"th-in-k"`` -> th, in, k; ``"cat"`` -> c, a, t."""
    names = entry.split("-") if "-" in entry else list(entry)
    for name in names:
        deck.card(name)  # refuses anything the deck doesn't hold
    return names


DECK = [c.name for c in deck.CARDS for _ in range(c.copies)]
"""The 118 cards, one name per copy: the cards left over are drawn from it."""


def deal(seed: int, fanned: bool = False) -> tuple[list[list[str]], list[str]]:
    """A hand for one photo: 1-4 words from WORDS and 0-3 cards left over, 3-10 cards in
    all, no card more often than the deck holds it; a fanned hand is one word of 3-8 cards."""
    rng = random.Random(f"hand {seed}")
    if fanned:
        while True:
            word = spell(rng.choice(WORDS))
            if 3 <= len(word) <= 8 and deck.over_deck(map(deck.card, word)) is None:
                return [word], []
    while True:
        words = [spell(rng.choice(WORDS)) for _ in range(rng.randint(1, 4))]
        unused = [rng.choice(DECK) for _ in range(rng.randint(0, 3))]
        every = [name for word in words for name in word] + unused
        texts = ["".join(word) for word in words]
        if (
            3 <= len(every) <= 10
            and len(set(texts)) == len(texts)
            and deck.over_deck(map(deck.card, every)) is None
        ):
            return words, unused


# ---------------------------------------------------------------------------------------
# A card's face


def font_path() -> str:
    """DejaVu Serif Bold (Debian's fonts-dejavu-core), wherever the system keeps it."""
    for folder in (
        "/usr/share/fonts/truetype/dejavu",
        "/usr/share/fonts/dejavu",
        "/usr/share/fonts/TTF",
        "/usr/local/share/fonts",
        "/Library/Fonts",
    ):
        path = Path(folder) / "DejaVuSerif-Bold.ttf"
        if path.is_file():
            return str(path)
    try:
        found = subprocess.run(
            ["fc-match", "-f", "%{file}", "DejaVu Serif:bold"],
            capture_output=True,
            text=True,
            check=False,
        ).stdout.strip()
    except OSError:
        found = ""
    if found.endswith("DejaVuSerif-Bold.ttf") and Path(found).is_file():
        return found
    raise FileNotFoundError("DejaVuSerif-Bold.ttf not found: install fonts-dejavu-core")


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(font_path(), size)


def cap_font(cap_px: float) -> ImageFont.FreeTypeFont:
    """The font whose capitals stand ``cap_px`` high (DejaVu Serif's capitals: 0.73 em)."""
    return font(max(6, round(cap_px / 0.73)))


@dataclass(frozen=True)
class Face:
    """A card's face as RGBA pixels, and the centre of its top-left index's letters."""

    image: np.ndarray
    index: Point


def draw_face(name: str, width: int) -> Face:
    """The face of card ``name``, ``width`` pixels wide: drawn at twice the size, then
    halved, so its edges and letters are smooth."""
    big = 2 * width
    mm = big / CARD_MM[0]
    w, h = big, round(big * ASPECT)
    image = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(
        (0, 0, w - 1, h - 1),
        radius=3.2 * mm,
        fill=(*FACE, 255),
        outline=(168, 158, 138, 255),
        width=max(1, round(0.25 * mm)),
    )
    inset = 2.6 * mm
    draw.rounded_rectangle(
        (inset, inset, w - 1 - inset, h - 1 - inset),
        radius=2.0 * mm,
        outline=(*FRAME, 255),
        width=max(1, round(0.6 * mm)),
    )
    # The middle: a big pale letter in a ring, with four small diamonds and two scrolls.
    cx, cy = w / 2, h / 2
    rx, ry = 19 * mm, 25 * mm
    draw.ellipse((cx - rx, cy - ry, cx + rx, cy + ry), outline=(*GOLD, 255), width=round(0.9 * mm))
    for dx, dy in ((0, -ry), (rx, 0), (0, ry), (-rx, 0)):
        s = 2.2 * mm
        x, y = cx + dx, cy + dy
        draw.polygon([(x, y - s), (x + s, y), (x, y + s), (x - s, y)], fill=(*GOLD, 255))
    for sign in (-1, 1):
        y = cy + sign * (ry + 4.5 * mm)
        box = (cx - 9 * mm, y - 3 * mm, cx + 9 * mm, y + 3 * mm)
        draw.arc(
            box,
            200 if sign < 0 else 20,
            340 if sign < 0 else 160,
            fill=(*GOLD, 255),
            width=round(0.7 * mm),
        )
    letters = name.upper()
    middle = cap_font((26 if len(name) == 1 else 17) * mm)
    draw.text((cx, cy), letters, font=middle, fill=(*PALE, 255), anchor="mm")
    # The index: the letters, the value under them, in the top-left corner.
    left, top = 5.0 * mm, 5.2 * mm
    face = cap_font((8.6 if len(name) == 1 else 7.4) * mm)
    x0, y0, x1, y1 = draw.textbbox((0, 0), letters, font=face, anchor="ls")
    ox, oy = left - x0, top - y0
    draw.text((ox, oy), letters, font=face, fill=(*INK, 255), anchor="ls")
    letters_box = (x0 + ox, y0 + oy, x1 + ox, y1 + oy)
    value = str(deck.card(name).value)
    small = cap_font(4.6 * mm)
    draw.text(
        ((letters_box[0] + letters_box[2]) / 2, letters_box[3] + 1.6 * mm),
        value,
        font=small,
        fill=(*VALUE_INK, 255),
        anchor="mt",
    )
    # The same index turned half a turn, in the bottom-right corner.
    corner = (0, 0, round(letters_box[2] + 2 * mm), round(letters_box[3] + 8 * mm))
    tile = image.crop(corner).rotate(180)
    image.alpha_composite(tile, (w - corner[2], h - corner[3]))
    image = image.reduce(2)
    index = ((letters_box[0] + letters_box[2]) / 4, (letters_box[1] + letters_box[3]) / 4)
    return Face(np.asarray(image), index)


# ---------------------------------------------------------------------------------------
# Geometry: the layout in card widths on the table, then the camera's homography


def turn(degrees: float) -> np.ndarray:
    """A homography turning clockwise on the screen (y down) about the origin."""
    t = math.radians(degrees)
    return np.array([[math.cos(t), -math.sin(t), 0], [math.sin(t), math.cos(t), 0], [0, 0, 1]])


def shift(x: float, y: float) -> np.ndarray:
    return np.array([[1, 0, x], [0, 1, y], [0, 0, 1]], dtype=float)


def scale(s: float) -> np.ndarray:
    return np.diag([s, s, 1.0])


def apply(matrix: np.ndarray, points: Sequence[Point]) -> list[Point]:
    pts = np.hstack([np.asarray(points, dtype=float), np.ones((len(points), 1))]) @ matrix.T
    return [(float(x / w), float(y / w)) for x, y, w in pts]


def inside(point: Point, polygon: Sequence[Point]) -> bool:
    """Whether ``point`` lies in ``polygon`` (ray casting; any simple polygon)."""
    x, y = point
    found = False
    for (x1, y1), (x2, y2) in zip(polygon, [*polygon[1:], polygon[0]], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            found = not found
    return found


@dataclass(frozen=True)
class Placed:
    """A card on the table: its centre (in card widths) and its turn (degrees, clockwise)."""

    name: str
    x: float
    y: float
    angle: float


def rows_layout(
    rng: random.Random, words: list[list[str]], unused: list[str], overlap: bool, tilt: float
) -> list[Placed]:
    """Each word in a row, left to right; the cards left over at the end of a short row,
    after a gap of about a card (listed last). ``overlap``: each card of a word over the
    one before by 40-60% of its width. ``tilt``: how far (degrees) each card may turn."""
    rows: list[list[tuple[str, float]]] = []  # per row: (card, gap before it)
    for word in words:
        row = []
        for k, name in enumerate(word):
            if k == 0:
                gap = 0.0
            elif overlap:
                gap = -rng.uniform(0.4, 0.6)
            else:
                gap = rng.uniform(0.04, 0.2)
            row.append((name, gap))
        rows.append(row)
    if unused:
        shortest = min(len(row) for row in rows)
        target = rng.choice([row for row in rows if len(row) <= shortest + 1])
        for k, name in enumerate(unused):
            target.append((name, rng.uniform(0.8, 1.2) if k == 0 else rng.uniform(0.06, 0.25)))
    placed, apart = [], []
    y = 0.0
    for r, row in enumerate(rows):
        x = rng.uniform(-0.15, 0.15)
        for k, (name, gap) in enumerate(row):
            x += gap + (1.0 if k else 0.0)
            card = Placed(
                name,
                x + 0.5 + rng.uniform(-0.03, 0.03),
                y + ASPECT / 2 + rng.uniform(-0.04, 0.04),
                rng.uniform(-tilt, tilt),
            )
            (placed if k < len(words[r]) else apart).append(card)
        y += ASPECT + rng.uniform(0.2, 0.45)
    return placed + apart  # the words' cards, then those left over


def fan_layout(rng: random.Random, names: list[str]) -> tuple[list[Placed], Point]:
    """The cards held fanned, left to right, each over the one before and turned 12-14
    degrees further about a point a little below their lower ends (in the hand), so that
    every top-left index shows. Also that point."""
    n = len(names)
    radius = rng.uniform(0.72, 0.8) * ASPECT  # from the hand to the cards' centres
    step = rng.uniform(12.0, 14.0)
    base = rng.uniform(-12, 12)
    placed = []
    for k, name in enumerate(names):
        angle = base + (k - (n - 1) / 2) * step
        t = math.radians(angle)
        placed.append(Placed(name, radius * math.sin(t), -radius * math.cos(t), angle))
    return placed, (0.0, 0.0)


def card_matrix(card: Placed, face_width: int, face_height: int) -> np.ndarray:
    """The homography from a face's pixels to the table (card widths)."""
    return (
        shift(card.x, card.y)
        @ turn(card.angle)
        @ scale(1.0 / face_width)
        @ shift(-face_width / 2, -face_height / 2)
    )


def corners_on_table(card: Placed) -> list[Point]:
    m = shift(card.x, card.y) @ turn(card.angle)
    return apply(
        m, [(-0.5, -ASPECT / 2), (0.5, -ASPECT / 2), (0.5, ASPECT / 2), (-0.5, ASPECT / 2)]
    )


def ellipse(cx: float, cy: float, rx: float, ry: float, angle: float, n: int = 40) -> list[Point]:
    """An ellipse as a polygon (on the table), turned ``angle`` degrees."""
    m = shift(cx, cy) @ turn(angle)
    return apply(
        m,
        [
            (rx * math.cos(2 * math.pi * k / n), ry * math.sin(2 * math.pi * k / n))
            for k in range(n)
        ],
    )


def camera(
    rng: random.Random, table_points: list[Point], condition: str
) -> tuple[int, int, np.ndarray, np.ndarray | None]:
    """The photo's size and the homography from the table to its pixels: the layout fills
    55-85% of the frame, off centre a little. For ``perspective`` a pinhole camera tilted
    22-40 degrees from looking straight down, mostly from the players' side, sometimes
    from the left or the right (turned so the rows still run across the frame); then also
    the homography from a flat picture of the table to the photo, for its texture."""
    pts = np.asarray(table_points)
    cx, cy = (pts.min(0) + pts.max(0)) / 2
    view = shift(-cx, -cy)
    distance = 1.0
    if condition == "perspective":
        extent = float(np.max(np.hypot(pts[:, 0] - cx, pts[:, 1] - cy)))
        distance = extent * rng.uniform(1.5, 2.3)
        tilt = math.radians(rng.uniform(22, 40))
        if rng.random() < 0.7:
            yaw, roll = rng.uniform(-15, 15), rng.uniform(-5, 5)
        else:
            yaw = rng.choice([-1, 1]) * rng.uniform(50, 80)
            roll = -yaw + rng.uniform(-8, 8)
        lens = np.array(
            [[1, 0, 0], [0, math.cos(tilt), 0], [0, -math.sin(tilt), distance]], dtype=float
        )
        view = turn(roll) @ lens @ turn(yaw) @ view
    seen = np.asarray(apply(view, table_points))
    (x0, y0), (x1, y1) = seen.min(0), seen.max(0)
    wide = (x1 - x0) >= (y1 - y0)
    if rng.random() < 0.2:
        wide = not wide
    long_side = 2 * rng.randint(1000, 1500)
    short_side = 2 * round(long_side * (0.75 if rng.random() < 0.8 else 9 / 16) / 2)
    width, height = (long_side, short_side) if wide else (short_side, long_side)
    fill = rng.uniform(0.55, 0.85)
    s = fill * min(width / (x1 - x0), height / (y1 - y0))
    ox = (width - s * (x1 - x0)) * rng.uniform(0.3, 0.7)
    oy = (height - s * (y1 - y0)) * rng.uniform(0.3, 0.7)
    to_image = shift(ox, oy) @ scale(s) @ shift(-x0, -y0) @ view
    if condition != "perspective":
        return width, height, to_image, None
    flat = shift(width / 2, height / 2) @ scale(s / distance) @ shift(-cx, -cy)
    return width, height, to_image, to_image @ np.linalg.inv(flat)


# ---------------------------------------------------------------------------------------
# Pixels


def table(
    rng: random.Random, kind: str, width: int, height: int, slant: np.ndarray | None
) -> np.ndarray:
    """The table's texture, float32 RGB: its shading drawn at a quarter of the size, its
    grain at half, then enlarged; seen through ``slant`` when the camera is slanted."""
    noise = np.random.default_rng(rng.getrandbits(32))
    qw, qh = width // 4 + 1, height // 4 + 1
    y = np.arange(qh, dtype=np.float32)[:, None]
    x = np.arange(qw, dtype=np.float32)[None, :]

    def blobs(sigma: float) -> np.ndarray:
        """Smooth noise, mean 0 and deviation 1, its blobs about ``sigma`` pixels wide:
        drawn on a coarse grid (4 points a sigma), blurred there, then enlarged."""
        step = max(1.0, sigma / 4)
        cw, ch = math.ceil(qw / step) + 1, math.ceil(qh / step) + 1
        field = noise.standard_normal((ch, cw), dtype=np.float32)
        field = cv2.GaussianBlur(field, (0, 0), sigma / step)
        field = cv2.resize(field, (qw, qh), interpolation=cv2.INTER_CUBIC)
        return field / (field.std() + 1e-6)

    if kind == "felt":
        base = np.array([32, 104, 58], np.float32) * rng.uniform(0.85, 1.1)
        small = base + 7 * blobs(qw / 8)[..., None] * np.array([0.6, 1.0, 0.7], np.float32)
        grain = 10.0
    elif kind == "wood":
        base = np.array([150, 102, 60], np.float32) * rng.uniform(0.8, 1.1)
        plank = qh / rng.uniform(3.5, 6)
        streaks = noise.standard_normal((qh, qw), dtype=np.float32)
        streaks = cv2.GaussianBlur(streaks, (0, 0), sigmaX=qw / 15, sigmaY=0.7)
        streaks /= streaks.std() + 1e-6
        bend = 4 * blobs(qw / 6)
        rings = np.sin((y + bend) / rng.uniform(5, 9)) * (0.5 + 0.5 * blobs(qw / 10))
        lines = np.where(((y + 0.2 * bend) % plank) < 1.0, -40, 0).astype(np.float32)
        tint = np.floor(y / plank) % 3 * 8 - 8
        shade = 9 * streaks + 5 * rings + 6 * blobs(qw / 5) + lines + tint
        small = base + shade[..., None] * np.array([1.0, 0.8, 0.6], np.float32)
        grain = 4.0
    elif kind == "cloth":
        base = np.array([234, 231, 222], np.float32) * rng.uniform(0.95, 1.02)
        folds = 10 * blobs(qw / 6) + 5 * blobs(qw / 25)
        small = base + folds[..., None]
        grain = 5.0
    else:  # dark
        base = np.array([42, 37, 35], np.float32) * rng.uniform(0.8, 1.2)
        sx, sy = qw * rng.random(), qh * rng.random()
        sheen = 14 * np.exp(-(((x - sx) / qw) ** 2 + ((y - sy) / qh) ** 2) * 4)
        small = base + (sheen + 3 * blobs(qw / 10))[..., None]
        grain = 3.0
    hw, hh = width // 2 + 1, height // 2 + 1
    half = cv2.resize(small.astype(np.float32), (hw, hh), interpolation=cv2.INTER_LINEAR)
    half += grain * noise.standard_normal((hh, hw, 1), dtype=np.float32)
    if slant is not None:
        m = scale(0.5) @ slant @ scale(2.0)
        half = cv2.warpPerspective(
            half, m, (hw, hh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT
        )
    return cv2.resize(half, (width, height), interpolation=cv2.INTER_LINEAR)


def composite(canvas: np.ndarray, face: np.ndarray, matrix: np.ndarray, lift: float) -> None:
    """Warp ``face`` (RGBA) onto ``canvas`` through ``matrix`` (face pixels -> image
    pixels), with a soft shadow under it ``lift`` pixels long."""
    h, w = face.shape[:2]
    quad = apply(matrix, [(0, 0), (w, 0), (w, h), (0, h)])
    margin = 3 * lift + 4
    x0 = max(0, math.floor(min(p[0] for p in quad) - margin))
    y0 = max(0, math.floor(min(p[1] for p in quad) - margin))
    x1 = min(canvas.shape[1], math.ceil(max(p[0] for p in quad) + margin))
    y1 = min(canvas.shape[0], math.ceil(max(p[1] for p in quad) + margin))
    if x1 <= x0 or y1 <= y0:
        return
    size = (x1 - x0, y1 - y0)
    local = shift(-x0, -y0) @ matrix
    alpha = np.ascontiguousarray(face[..., 3])
    under = cv2.warpPerspective(
        alpha, shift(0.4 * lift, lift) @ local, size, flags=cv2.INTER_LINEAR
    )
    under = cv2.GaussianBlur(under.astype(np.float32) / 255, (0, 0), max(0.8, lift))
    region = canvas[y0:y1, x0:x1]
    region *= (1 - 0.45 * under)[..., None]
    warped = cv2.warpPerspective(face, local, size, flags=cv2.INTER_LINEAR).astype(np.float32)
    a = warped[..., 3:4] / 255
    region *= 1 - a
    region += warped[..., :3] * a


def hand_shapes(rng: random.Random, pivot: Point, angle: float) -> tuple[list[Point], list[Point]]:
    """The hand holding a fan whose middle card is turned ``angle`` degrees: the palm
    around the point ``pivot`` (under the cards) and the thumb up over their lower ends,
    as polygons on the table."""
    px, py = pivot
    t = math.radians(angle)
    up, right = (math.sin(t), -math.cos(t)), (math.cos(t), math.sin(t))
    palm = ellipse(px - 0.3 * up[0], py - 0.3 * up[1], 0.7, 0.55, angle + rng.uniform(-10, 10))
    reach = rng.uniform(0.45, 0.6)
    side = rng.uniform(-0.15, 0.1)
    thumb = ellipse(
        px + reach * up[0] + side * right[0],
        py + reach * up[1] + side * right[1],
        0.17,
        0.45,
        angle + rng.uniform(8, 22),
    )
    return palm, thumb


def skin(canvas: np.ndarray, polygon: list[Point], colour: np.ndarray) -> None:
    """Paint a part of a hand (``polygon``, image pixels) onto ``canvas``, darker toward
    its edges."""
    pts = np.asarray(polygon)
    x0, y0 = np.maximum(np.floor(pts.min(0)).astype(int) - 4, 0)
    x1, y1 = np.minimum(np.ceil(pts.max(0)).astype(int) + 4, canvas.shape[1::-1])
    if x1 <= x0 or y1 <= y0:
        return
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    local = np.round((pts - (x0, y0)) * 4).astype(np.int32)
    cv2.fillPoly(mask, [local], 255, lineType=cv2.LINE_AA, shift=2)
    m = cv2.GaussianBlur(mask.astype(np.float32) / 255, (0, 0), 2.0)
    inner = cv2.GaussianBlur(m, (0, 0), max(2.0, 0.15 * min(mask.shape)))
    shade = (0.72 + 0.35 * inner)[..., None] * colour
    region = canvas[y0:y1, x0:x1]
    region *= 1 - m[..., None]
    region += shade * m[..., None]


def phone_shadow(rng: random.Random, width: int, height: int, near: Point) -> np.ndarray:
    """The soft shadow of a phone or of a hand and arm, across the point ``near``: a mask
    0..1, float32, the image's size."""
    q = 4
    w, h = width // q, height // q
    image = Image.new("L", (w, h), 0)
    draw = ImageDraw.Draw(image)
    side = min(w, h)
    cx, cy = (
        near[0] / q + rng.uniform(-0.1, 0.1) * side,
        near[1] / q + rng.uniform(-0.1, 0.1) * side,
    )
    angle = rng.uniform(0, 360)
    if rng.random() < 0.5:  # a phone held over the table
        pw, ph = side * rng.uniform(0.22, 0.32), side * rng.uniform(0.45, 0.62)
        outline = apply(
            shift(cx, cy) @ turn(angle),
            [(-pw / 2, -ph / 2), (pw / 2, -ph / 2), (pw / 2, ph / 2), (-pw / 2, ph / 2)],
        )
        draw.polygon(outline, fill=255)
    else:  # a hand and the arm behind it, reaching in from the frame's edge
        palm = apply(shift(cx, cy) @ turn(angle), ellipse(0, 0, side * 0.13, side * 0.17, 0))
        draw.polygon(palm, fill=255)
        reach = side * 1.5
        arm = apply(
            shift(cx, cy) @ turn(angle),
            [(-side * 0.09, 0), (side * 0.09, 0), (side * 0.13, reach), (-side * 0.13, reach)],
        )
        draw.polygon(arm, fill=255)
        for k in range(4):
            fx = (k - 1.5) * side * 0.055
            finger = apply(
                shift(cx, cy) @ turn(angle),
                [
                    (fx - side * 0.022, 0),
                    (fx + side * 0.022, 0),
                    (fx + side * 0.02, -side * (0.25 + 0.03 * (k % 3))),
                    (fx - side * 0.02, -side * (0.25 + 0.03 * (k % 3))),
                ],
            )
            draw.polygon(finger, fill=255)
    small = np.asarray(image, np.float32) / 255
    small = cv2.GaussianBlur(small, (0, 0), side * rng.uniform(0.012, 0.03))
    return cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR)


def light(rng: random.Random, width: int, height: int) -> np.ndarray:
    """The room's light over the frame: brighter near one spot, darker in the corners."""
    qw, qh = width // 8 + 1, height // 8 + 1
    y = np.linspace(0, 1, qh, dtype=np.float32)[:, None]
    x = np.linspace(0, 1, qw, dtype=np.float32)[None, :]
    sx, sy = rng.uniform(0.2, 0.8), rng.uniform(0.2, 0.8)
    fall = rng.uniform(0.12, 0.3)
    small = 1.0 - fall * ((x - sx) ** 2 + (y - sy) ** 2)
    return cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR)[..., None]


def render_photo(
    condition: str,
    seed: int,
    words: list[list[str]],
    unused: list[str],
    background: str | None = None,
) -> Photo:
    """One photo of ``words`` (each a list of card names, laid as a row) and the cards left
    over, ``unused``, in ``condition`` on ``background`` (chosen by the seed when None).
    A ``fanned`` photo holds all the cards in one fan, left to right: its truth is that
    single row as one word, nothing left over. The same arguments give the same bytes."""
    if condition not in CONDITIONS:
        raise ValueError(f"unknown condition {condition!r}; one of {', '.join(CONDITIONS)}")
    every = [name for word in words for name in word] + unused
    over = deck.over_deck(map(deck.card, every))
    if over is not None:
        raise ValueError(f"more {over.name!r} cards than the deck holds ({over.copies})")
    rng = random.Random(f"photo {condition} {seed}")
    kind = background or rng.choice(BACKGROUNDS)
    if kind not in BACKGROUNDS:
        raise ValueError(f"unknown background {kind!r}")
    pivot = None
    if condition == "fanned":
        placed, pivot = fan_layout(rng, every)
        words, unused = [every], []
    else:
        tilt = {"rotated": 5.0, "straight": 1.5, "overlapping": 2.0}.get(condition, 2.5)
        placed = rows_layout(rng, words, unused, condition == "overlapping", tilt)
    if condition == "rotated":
        degrees = rng.uniform(-45, 45)
        placed = [
            Placed(c.name, *apply(turn(degrees), [(c.x, c.y)])[0], c.angle + degrees)
            for c in placed
        ]
    table_points = [p for c in placed for p in corners_on_table(c)]
    if pivot is not None:  # the hand holding the fan shows at the frame's edge
        table_points.append(pivot)
    width, height, to_image, slant = camera(rng, table_points, condition)

    canvas = table(rng, kind, width, height, slant)
    # A card's width in pixels where it is widest (the nearest, under a slanted camera).
    card_px = max(math.dist(*apply(to_image, corners_on_table(c)[:2])) for c in placed)
    face_width = max(40, round(card_px))
    faces: dict[str, Face] = {}
    polygons: list[list[Point]] = []
    centres: list[list[Point]] = []
    lift = card_px * 0.012
    shapes: list[list[Point]] = []
    if pivot is not None:
        palm, thumb = hand_shapes(rng, pivot, sum(c.angle for c in placed) / len(placed))
        tone = np.array(SKIN, np.float32) * rng.uniform(0.75, 1.1)
        skin(canvas, apply(to_image, palm), tone * 0.92)  # behind the cards
        shapes.append(apply(to_image, thumb))
    for card in placed:
        face = faces.get(card.name) or draw_face(card.name, face_width)
        faces[card.name] = face
        fh, fw = face.image.shape[:2]
        matrix = to_image @ card_matrix(card, fw, fh)
        composite(canvas, face.image, matrix, lift)
        polygons.append(apply(matrix, [(0, 0), (fw, 0), (fw, fh), (0, fh)]))
        ix, iy = face.index
        centres.append(apply(matrix, [(ix, iy), (fw - ix, fh - iy)]))
    for shape in shapes:  # the thumb, over the cards
        skin(canvas, shape, tone)
    covers = polygons + shapes

    truth = []
    for k, card in enumerate(placed):
        later = covers[k + 1 :]
        seen = tuple(
            (round(x, 1), round(y, 1))
            for x, y in centres[k]
            if 0 <= x < width and 0 <= y < height and not any(inside((x, y), p) for p in later)
        )
        corners = tuple((round(x, 1), round(y, 1)) for x, y in polygons[k])
        truth.append(TruthCard(card.name, corners, seen))  # type: ignore[arg-type]

    canvas = finish(rng, condition, canvas, polygons)
    quality = rng.randint(22, 40) if condition == "blur" else rng.randint(82, 88)
    out = io.BytesIO()
    Image.fromarray(canvas).save(out, format="JPEG", quality=quality)
    return Photo(out.getvalue(), condition, seed, kind, width, height, words, unused, truth)


def finish(
    rng: random.Random, condition: str, canvas: np.ndarray, polygons: list[list[Point]]
) -> np.ndarray:
    """The camera's part: the room's light, the condition's shadow or darkness, the
    sensor's noise, the lens's softness or the blur. Returns uint8 RGB."""
    height, width = canvas.shape[:2]
    gain = light(rng, width, height)  # (h, w, 1)
    if condition == "shadow":
        target = rng.choice(polygons)
        near = (sum(p[0] for p in target) / 4, sum(p[1] for p in target) / 4)
        mask = phone_shadow(rng, width, height, near)[..., None]
        depth = rng.uniform(0.45, 0.62)
        gain = gain * (1 - depth * mask * np.array([1.0, 0.96, 0.88], np.float32))
    sigma = 2.5
    if condition == "dim":
        # Darker, flatter (toward the mean), warm: out = canvas * gain * k + offset.
        bright, contrast = rng.uniform(0.3, 0.5), rng.uniform(0.6, 0.8)
        warm = np.array([1.0, rng.uniform(0.78, 0.86), rng.uniform(0.52, 0.64)], np.float32)
        mean = float((canvas[::8, ::8] * gain[::8, ::8]).mean()) * bright
        gain = gain * (bright * contrast * warm)
        canvas *= gain
        canvas += mean * (1 - contrast) * warm
        sigma = rng.uniform(6, 9)
    else:
        canvas *= gain
    grain = np.empty((height, width), np.float32)
    cv2.setRNGSeed(rng.getrandbits(31))
    cv2.randn(grain, 0.0, sigma)
    image = cv2.add(canvas, cv2.merge([grain, grain, grain]), dtype=cv2.CV_8U)  # 0..255
    if condition == "blur":
        if rng.random() < 0.5:
            return cv2.GaussianBlur(image, (0, 0), rng.uniform(1.6, 3.0))
        length = rng.randint(9, 19)
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1
        middle = ((length - 1) / 2, (length - 1) / 2)
        turned = cv2.warpAffine(
            kernel, cv2.getRotationMatrix2D(middle, rng.uniform(0, 180), 1), (length, length)
        )
        return cv2.filter2D(image, -1, turned / turned.sum())
    return cv2.GaussianBlur(image, (0, 0), 1.1 if condition == "dim" else 0.6)


@dataclass(frozen=True)
class Order:
    """What one photo of a set shows: ``render_photo``'s arguments."""

    condition: str
    seed: int
    words: list[list[str]]
    unused: list[str]
    background: str

    def render(self) -> Photo:
        return render_photo(self.condition, self.seed, self.words, self.unused, self.background)


def plan(
    seed: int = 27, per_condition: int = 10, conditions: Sequence[str] = CONDITIONS
) -> list[Order]:
    """The photos of a set, in CONDITIONS' order: ``per_condition`` of each condition
    named, each with its own seed and hand, the tables taken in turn."""
    orders = []
    for c, condition in enumerate(CONDITIONS):
        if condition not in conditions:
            continue
        for i in range(per_condition):
            photo_seed = seed * 10_000 + c * 1000 + i
            words, unused = deal(photo_seed, fanned=condition == "fanned")
            background = BACKGROUNDS[(i + c) % len(BACKGROUNDS)]
            orders.append(Order(condition, photo_seed, words, unused, background))
    return orders


def render_set(
    seed: int = 27, per_condition: int = 10, conditions: Sequence[str] = CONDITIONS
) -> list[Photo]:
    """The photos of ``plan(seed, per_condition, conditions)``; the same seed gives the
    same photos, byte for byte."""
    return [order.render() for order in plan(seed, per_condition, conditions)]


def save(photos: Sequence[Photo], folder: Path) -> None:
    """Each photo as NN-condition-seed.jpg and all the truth in truth.json, in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    truth = []
    for k, photo in enumerate(photos):
        name = f"{k:02d}-{photo.name}.jpg"
        (folder / name).write_bytes(photo.jpeg)
        truth.append({"file": name, **photo.truth()})
    (folder / "truth.json").write_text(json.dumps(truth, indent=1) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument("--per-condition", type=int, default=10)
    parser.add_argument("--only", choices=CONDITIONS, action="append")
    args = parser.parse_args()
    start = time.perf_counter()
    photos = render_set(args.seed, args.per_condition, args.only or CONDITIONS)
    took = time.perf_counter() - start
    save(photos, args.folder)
    size = sum(len(p.jpeg) for p in photos) / 2**20
    print(
        f"{len(photos)} photos rendered in {took:.1f} s ({size:.1f} MiB) into {args.folder}",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
