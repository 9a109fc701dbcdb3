"""No route answers a server error: a small run of benchmarks/fuzz.py's request mix.

The app is built as the fuzz script builds it (CSRF on, a SQLite file, a custom lexicon),
with a few games and solitaire games set up and clients holding the edit right; then a
fixed seed sends the same few thousand requests every time, valid and mutated, over every
route of ``app.url_map``. ``python benchmarks/fuzz.py --requests 100000`` runs the long mix.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from tests.benchmark_modules import benchmark

REQUESTS = 700
SEED = 20240601
LEXICONS = ("standard", "standard", "tiny")
"""Not ``wordgame`` here: building it would double this test's time when its cache is cold."""


def load_fuzz() -> ModuleType:
    """benchmarks/fuzz.py as a module."""
    return benchmark("fuzz")


def test_every_route_answers_without_a_server_error(tmp_path: Path, lexicon_cache: Path) -> None:
    fuzz = load_fuzz()
    app = fuzz.build_app(tmp_path, lexicon_cache)
    assert app.config["WTF_CSRF_ENABLED"]
    setup = fuzz.set_up(app, LEXICONS)
    fuzzer = fuzz.Fuzzer(setup)
    try:
        report = fuzzer.run(REQUESTS, SEED)
        fuzzer.shrink(budget=25)  # smaller examples for the message (only when some failed)
    finally:
        with app.app_context():
            from companion.store.db import db

            db.engine.dispose()
    assert report.requests == REQUESTS, report.summary()
    assert not report.unsent, report.summary()
    covered = {rule for rule in report.slow}
    assert covered >= {r.rule for r in fuzz.routes(app)}, "some routes got no request"
    errors = report.server_errors
    assert errors == 0, report.summary() + "\n" + report.describe_failures()
