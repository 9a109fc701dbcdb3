"""A process about to serve settles (``serve.settle``): what it loaded at start held out
of the garbage collector's passes, and its youngest generation larger, so that full
collections (which stop every request of the process) come seldom."""

from __future__ import annotations

import gc

from flask import Flask

from companion.serve import start as serve


def test_a_settled_process_freezes_its_start_and_collects_young_objects_less_often(
    app: Flask,
) -> None:
    before = gc.get_threshold()
    try:
        serve.settle(app)
        assert gc.get_threshold() == (serve.YOUNG_OBJECTS, before[1], before[2])
        assert serve.YOUNG_OBJECTS > 700  # Python's own youngest generation
        assert gc.get_freeze_count() > 10_000  # the app, its lexicon and its definitions
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
