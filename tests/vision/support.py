"""Photos of cards for the tests, drawn by benchmarks/photoset.py (the benchmark's own
renderer: cards, tables and light drawn from nothing, the same bytes for the same seed)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

PHOTOSET = Path(__file__).resolve().parents[2] / "benchmarks" / "photoset.py"


def photoset() -> ModuleType:
    """benchmarks/photoset.py as a module (benchmarks/ is not a package)."""
    found = sys.modules.get("companion_photoset")
    if found is not None:
        return found
    spec = importlib.util.spec_from_file_location("companion_photoset", PHOTOSET)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["companion_photoset"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def hand(
    words: list[list[str]],
    unused: list[str] | None = None,
    *,
    condition: str = "straight",
    seed: int = 1,
    background: str = "felt",
):  # -> photoset.Photo (the module is loaded at run time)
    """A photo of ``words`` laid in rows and ``unused`` set apart, with its truth."""
    return photoset().render_photo(condition, seed, words, unused or [], background)


def hand_photo(words: list[list[str]], unused: list[str] | None = None, **how: object) -> bytes:
    """The JPEG of ``hand(words, unused, **how)``, as a phone sends it."""
    return bytes(hand(words, unused, **how).jpeg)  # type: ignore[arg-type]
