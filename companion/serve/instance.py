"""The instance folder: where it is, what its ``config.py`` says, and its lexicon store.

``ensure_instance`` creates it on first run, with a random secret key kept in it. The
rest finds the folder and reads its settings without Flask, so the command line
(``python -m companion.commands.solve``) uses the same lexicons as the app without building one.
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Mapping
from pathlib import Path

TYPE_CHECKING = False  # (not typing's: the command line loads no more than it needs)
if TYPE_CHECKING:
    from companion.lexicon import LexiconStore

ENVIRONMENT_KEYS = (
    "DATABASE_URL",
    "SECRET_KEY",
    "LEXICON_DIR",
    "LEXICON_CACHE_DIR",
    "AUTO_MIGRATE",
    "PUBLIC_URL",
    "ALLOWED_HOSTS",
    "TRUSTED_PROXIES",
    "RATELIMIT_STORAGE_URI",
    "RATELIMIT_ENABLED",
    "GAME_CREATION_LIMIT",
    "WORD_LOOKUP_LIMIT",
    "SOLVER_LIMIT",
    "GAME_CREATION_ADDRESS_LIMIT",
    "WORD_LOOKUP_ADDRESS_LIMIT",
    "SOLVER_ADDRESS_LIMIT",
    "SEAT_CLAIM_LIMIT",
    "PHOTO_READ_LIMIT",
    "PHOTO_READ_ADDRESS_LIMIT",
    "SESSION_COOKIE_SECURE",
    "DATABASE_POOL_SIZE",
    "CACHE_TYPE",
    "CACHE_DIR",
    "CACHE_REDIS_URL",
)
"""Config keys the environment may set (over instance/config.py)."""


def ensure_instance(path: Path) -> Path:
    """Create ``path`` and its ``config.py`` with a fresh random ``SECRET_KEY`` if missing."""
    import secrets  # here: the command line, which only reads the folder, needs none of it

    path.mkdir(parents=True, exist_ok=True)
    config = path / "config.py"
    if not config.exists():
        config.write_text(
            "# Made on first run; keep it secret. Delete it to get a new key.\n"
            f"SECRET_KEY = {secrets.token_hex(32)!r}\n"
        )
        config.chmod(0o600)
    return config


def folder(package_path: str | None = None, prefix: str | None = None) -> Path:
    """The instance folder of the app, found as Flask finds it for ``Flask("companion")``.

    ``package_path`` is the folder the package is imported from (the checkout, or
    site-packages), ``prefix`` the interpreter's (``sys.prefix``). Not installed: the
    checkout's ``instance/``; installed: ``<prefix>/var/companion-instance``. The
    environment's ``INSTANCE_PATH`` (an absolute path) names another folder.
    """
    if os.environ.get("INSTANCE_PATH"):
        return Path(os.environ["INSTANCE_PATH"])
    if package_path is None:
        package_path = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    prefix = os.path.abspath(sys.prefix if prefix is None else prefix)
    installed: str | None = None
    parent, site = os.path.split(package_path)
    if Path(package_path).is_relative_to(prefix):
        installed = prefix
    elif site.lower() == "site-packages":
        above, lib = os.path.split(parent)
        if lib.lower() == "lib":  # prefix/lib/site-packages
            installed = above
        elif os.path.basename(above).lower() == "lib":  # prefix/lib/pythonX.Y/site-packages
            installed = os.path.dirname(above)
        else:  # prefix/site-packages
            installed = parent
    if installed is None:
        return Path(package_path, "instance")
    return Path(installed, "var", "companion-instance")


def settings(path: Path | None = None) -> dict[str, object]:
    """The config ``create_app`` starts from, read without Flask: the upper-case names of
    ``config.py`` in the instance folder (run as Flask runs it), then the environment's
    ``ENVIRONMENT_KEYS``."""
    config_file = (path or folder()) / "config.py"
    found: dict[str, object] = {}
    try:
        source = config_file.read_bytes()
    except OSError as exc:
        if exc.errno not in (errno.ENOENT, errno.EISDIR, errno.ENOTDIR):
            raise
    else:
        module: dict[str, object] = {"__file__": str(config_file), "__name__": "config"}
        exec(compile(source, str(config_file), "exec"), module)  # as Flask runs it
        found = {k: v for k, v in module.items() if k.isupper()}
    for key in ENVIRONMENT_KEYS:
        if os.environ.get(key):
            found[key] = os.environ[key]
    return found


def lexicon_folders(config: Mapping[str, object], path: Path) -> tuple[Path, Path]:
    """The folders of instance ``path``'s own lists and of their caches under ``config``:
    ``LEXICON_DIR`` (default ``lexicons/`` there) and ``LEXICON_CACHE_DIR`` (default
    ``cache/`` inside it)."""
    lists = Path(str(config.get("LEXICON_DIR") or path / "lexicons"))
    cache_folder = config.get("LEXICON_CACHE_DIR")
    return lists, Path(str(cache_folder)) if cache_folder else lists / "cache"


def lexicon_store(config: Mapping[str, object], path: Path) -> LexiconStore:
    """The lexicons of instance folder ``path`` under ``config`` (``lexicon_folders``)."""
    from companion.lexicon import LexiconStore  # the list builders load only when asked

    return LexiconStore(*lexicon_folders(config, path))
