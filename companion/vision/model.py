"""The OCR model: RapidOCR's PP-OCR text detector and recogniser, run by ONNX Runtime on
the CPU, from the model files its wheel ships (no network, no download).

Loaded once per process, and only when a photo is first read: importing this module
costs nothing, so ``make run`` starts as fast as before. One lock around every use: the
model runs one picture at a time per process, on one thread (``OCR_THREADS``), so a
read never takes both cores of a small server from the pages.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

_lock = threading.Lock()
_engine: Any = None


@dataclass(frozen=True)
class Text:
    """A line of text found in a picture: its corners (four points, clockwise from the
    top left of the text), what was read and the recogniser's confidence (0 to 1)."""

    quad: tuple[tuple[float, float], ...]
    text: str
    score: float


def threads() -> int:
    """ONNX Runtime's threads per model: ``OCR_THREADS`` (1 unless set)."""
    try:
        return max(1, int(os.environ.get("OCR_THREADS", "1")))
    except ValueError:
        return 1


def _load() -> Any:
    """The engine, built on first use (under the lock). The detector looks at the
    picture at most 736 px on its longest side (measured: 960 read 1 card in 100
    more, for a second more at worst and 75 MiB more); text below 0.3 confidence is kept (the
    card logic weighs it)."""
    global _engine
    if _engine is None:
        import logging

        from rapidocr import RapidOCR

        logging.getLogger("RapidOCR").setLevel(logging.WARNING)
        n = threads()
        _engine = RapidOCR(
            params={
                "Global.log_level": "error",
                "Global.text_score": 0.0,
                "Global.use_cls": False,
                "Global.max_side_len": 2000,
                "Global.min_side_len": 32,  # smaller rounds to 0 in its stride of 32
                "EngineConfig.onnxruntime.intra_op_num_threads": n,
                "EngineConfig.onnxruntime.inter_op_num_threads": 1,
                "Det.limit_type": "max",
                "Det.limit_side_len": 736,
                "Det.box_thresh": 0.4,
            }
        )
    return _engine


@contextmanager
def engine() -> Iterator[Any]:
    """The loaded engine, held for one picture's work."""
    with _lock:
        yield _load()


def loaded() -> bool:
    """Whether this process has loaded the model yet."""
    return _engine is not None


SMALLEST = 8
"""An image narrower or lower than this (pixels) holds no card's letter: not read."""

LONGEST = 20
"""An image more than this many times as wide as high (or high as wide) is no card's
index, and RapidOCR can't scale it: not read."""


def _readable(image: np.ndarray) -> bool:
    h, w = image.shape[:2]
    return min(h, w) >= SMALLEST and max(h, w) <= LONGEST * min(h, w)


def find_text(eng: Any, image: np.ndarray) -> list[Text]:
    """Every line of text in ``image`` (BGR pixels), read."""
    if not _readable(image):
        return []
    result = eng(image, use_det=True, use_cls=False, use_rec=True)
    if result.boxes is None or result.txts is None:
        return []
    return [
        Text(tuple((float(x), float(y)) for x, y in quad), str(text), float(score))
        for quad, text, score in zip(result.boxes, result.txts, result.scores, strict=False)
    ]


def read_lines(eng: Any, images: Sequence[np.ndarray]) -> list[tuple[str, float]]:
    """What each image (one line of text, BGR) reads, with its confidence."""
    out = []
    for image in images:
        if not _readable(image):
            out.append(("", 0.0))
            continue
        result = eng(image, use_det=False, use_cls=False, use_rec=True)
        texts = list(result.txts or ())
        scores = list(result.scores or ())
        out.append((str(texts[0]), float(scores[0])) if texts else ("", 0.0))
    return out
