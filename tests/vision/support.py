"""Photos of cards for the tests, drawn by benchmarks/photoset.py (the benchmark's own
renderer: cards, tables and light drawn from nothing, the same bytes for the same seed)."""

from __future__ import annotations

from types import ModuleType

from tests.benchmark_modules import benchmark


def photoset() -> ModuleType:
    """benchmarks/photoset.py as a module."""
    return benchmark("photoset")


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
