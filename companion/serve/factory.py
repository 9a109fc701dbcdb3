"""The app factory: ``create_app`` builds the Flask app; ``companion`` re-exports it lazily."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from flask import Flask, current_app
from flask.json.provider import DefaultJSONProvider

from companion.serve.instance import ENVIRONMENT_KEYS, lexicon_store

PACKAGE = Path(__file__).resolve().parent.parent
TEMPLATES = PACKAGE.parent / "templates"
"""Top-level templates in a checkout; packed into the wheel as ``companion/templates``."""


MIGRATIONS = PACKAGE / "store" / "migrations"


def upgrade_database(app: Flask) -> None:
    """Bring the database to the newest schema (Alembic), creating its folder if need be."""
    import flask_migrate

    url = app.config["SQLALCHEMY_DATABASE_URI"]
    if url.startswith("sqlite:///") and url != "sqlite:///:memory:":
        Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    with app.app_context():
        flask_migrate.upgrade(directory=str(MIGRATIONS))


def database_revision(app: Flask) -> str | None:
    """The schema revision the database is at (None: an empty database)."""
    from alembic.runtime.migration import MigrationContext

    from companion.store.db import db

    with app.app_context(), db.engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def _template_folder() -> Path:
    packed = PACKAGE / "templates"
    return packed if packed.is_dir() else TEMPLATES


def create_app(
    config: dict[str, Any] | None = None, *, server_reads_proxies: bool = False
) -> Flask:
    """Build the app: defaults, then ``instance/config.py``, then the environment, then ``config``.

    ``DATABASE_URL`` (key or environment variable) selects the database; the
    default is a SQLite file in the instance folder. The schema is not touched
    here (several worker processes may build the app at once): ``upgrade_database``
    runs the migrations, once per start, from the serve command or ``flask db
    upgrade``; ``AUTO_MIGRATE`` makes this app run them itself. docs/configuration.md
    lists every key. ``server_reads_proxies``: the WSGI server itself reads the
    ``TRUSTED_PROXIES`` proxies' headers (``make run``'s waitress), so the app does not.
    """
    # "companion", not __name__: the instance folder, static files and the name are the package's.
    app = Flask(
        "companion",
        instance_path=os.environ.get("INSTANCE_PATH") or None,  # default: next to the package
        instance_relative_config=True,
        template_folder=str(_template_folder()),
    )
    app.config.from_mapping(
        DATABASE_URL="sqlite:///" + str(Path(app.instance_path) / "companion.sqlite3"),
        MAX_CONTENT_LENGTH=256 * 1024,
        SESSION_COOKIE_SAMESITE="Lax",  # not sent with another site's forms or frames
        SESSION_COOKIE_SECURE=None,  # unset: from PUBLIC_URL below
        # Written when it changes, not on every answer: a poll's 304 sets no cookie.
        SESSION_REFRESH_EACH_REQUEST=False,
        AUTO_MIGRATE=False,
        BOARD_POLL_MS=3000,
        RATELIMIT_STORAGE_URI="memory://",  # one process; workers share Redis (production)
        TRUSTED_PROXIES=0,
    )
    app.config.from_pyfile("config.py", silent=True)
    for key in ENVIRONMENT_KEYS:
        if os.environ.get(key):
            app.config[key] = os.environ[key]
    app.config.update(config or {})
    for key in ("RATELIMIT_ENABLED", "SESSION_COOKIE_SECURE"):
        if isinstance(app.config.get(key), str):  # from the environment
            app.config[key] = _flag(app.config[key])
    if not app.config.get("SECRET_KEY"):
        # No configured key (e.g. `flask run` before `make run` made one):
        # a random per-process key, never a fixed one.
        app.config["SECRET_KEY"] = secrets.token_hex(32)
    assert isinstance(app.json, DefaultJSONProvider)  # Flask's own: this app sets no other
    app.json.sort_keys = False  # keep the API's field order as documented

    from companion.web.links import check_public_url, refuse_strange_hosts

    check_public_url(app.config.get("PUBLIC_URL"))  # a wrong address fails now, not on a phone
    app.before_request(refuse_strange_hosts)  # another Host: 400, before anything is built
    from companion.web.ids import refuse_unstorable_ids

    app.url_value_preprocessor(refuse_unstorable_ids)  # /games/%00: 404, before any query
    if app.config["SESSION_COOKIE_SECURE"] is None:
        # Served over HTTPS (its public address says so): the cookie never travels in clear.
        public = str(app.config.get("PUBLIC_URL") or "")
        app.config["SESSION_COOKIE_SECURE"] = public.startswith("https://")
    from companion.web.session import SessionCookie

    app.session_interface = SessionCookie()  # and Secure on any request that came over HTTPS

    app.extensions["lexicons"] = store = lexicon_store(app.config, Path(app.instance_path))
    from companion.store.cache import cache

    app.config.setdefault("CACHE_TYPE", "FileSystemCache")
    if not app.config.get("CACHE_DIR"):  # beside the lexicons' cache: every cache in one place
        app.config["CACHE_DIR"] = str(store.cache_folder / "records")
    app.config.setdefault("CACHE_DEFAULT_TIMEOUT", 0)  # kept until pruned: keys name versions
    app.config.setdefault("CACHE_THRESHOLD", 20_000)  # files kept at most (some 40 tables of 500)
    cache.init_app(app)
    from companion.lexicon.definitions import Definitions

    app.extensions["definitions"] = Definitions(store.folder, store.cache_folder)

    from companion.store.db import db, migrate
    from companion.web import i18n
    from companion.web.extensions import babel, csrf, limiter

    app.config["SQLALCHEMY_DATABASE_URI"] = app.config["DATABASE_URL"]
    on_sqlite = str(app.config["DATABASE_URL"]).startswith("sqlite")
    pool = app.config.get("DATABASE_POOL_SIZE")
    if pool and not on_sqlite:
        # Connections per process, all kept open (the production start: one per thread),
        # with no overflow: connections opened for a burst
        # and closed after it (overflow) cost the server a new backend each (measured at
        # 1,000 tables); the server's max_connections must hold every worker's.
        options = dict(app.config.get("SQLALCHEMY_ENGINE_OPTIONS") or {})
        options.update(pool_size=int(pool), max_overflow=0, pool_timeout=10)
        app.config["SQLALCHEMY_ENGINE_OPTIONS"] = options
    from companion.web.errors import refuse_unreadable_forms

    app.before_request(refuse_unreadable_forms)  # before CSRFProtect reads the form
    csrf.init_app(app)
    limiter.init_app(app)
    babel.init_app(
        app,
        locale_selector=i18n.select_locale,
        default_translation_directories=str(PACKAGE / "translations"),
        default_timezone="UTC",
    )
    db.init_app(app)
    migrate.init_app(app, db, directory=str(MIGRATIONS))
    from companion.store import models  # noqa: F401  (register the tables)

    if _flag(app.config.get("AUTO_MIGRATE")):
        upgrade_database(app)

    from companion import api
    from companion.api import games as api_games  # noqa: F401  (it adds routes)
    from companion.api import photos as api_photos  # noqa: F401  (it adds routes)
    from companion.api import seats as api_seats  # noqa: F401  (it adds routes)
    from companion.commands import cli
    from companion.game.rules import RULES, plan_label
    from companion.pages import (
        backup,
        games,
        health,
        icon,
        install,
        language,
        recap,
        referee,
        rounds,
        rules,
        scorer,
        seats,
        solitaire,
        tables,
    )
    from companion.web import errors, headers, messages
    from companion.web import referee as web_referee

    app.register_blueprint(api.bp)
    csrf.exempt(api.bp)  # JSON clients send no cookie-based forms
    for page in (
        games,
        backup,
        rounds,
        seats,
        tables,
        solitaire,
        scorer,
        referee,
        rules,
        health,
        icon,
        install,
        language,
        recap,
    ):
        app.register_blueprint(page.bp)
    app.cli.add_command(cli.lexicon)
    app.jinja_env.globals["house_rule_specs"] = RULES
    app.jinja_env.filters["reason"] = messages.reason
    app.jinja_env.filters["people"] = messages.people
    app.jinja_env.filters["num"] = i18n.number
    app.jinja_env.filters["lexicon_name"] = web_referee.name
    app.jinja_env.filters["lexicon_title"] = web_referee.title
    app.jinja_env.filters["plan_label"] = lambda hands: plan_label(tuple(hands))
    app.jinja_env.globals["languages"] = i18n.LANGUAGES
    app.jinja_env.globals["current_lang"] = i18n.current
    app.jinja_env.globals["script_catalog"] = lambda: i18n.script_catalog(i18n.current())
    errors.register(app)
    headers.register(app)
    from companion.web.build import build_id

    app.config["BUILD"] = build_id(Path(app.template_folder or TEMPLATES))
    app.url_defaults(_versioned_static)
    proxies = trusted_proxies(app.config)  # a wrong value stops the start here
    if proxies and not server_reads_proxies:
        trust_proxies(app, proxies)  # outermost: the layers inside see the client's host
    return app


def trusted_proxies(config: Any) -> int:
    """``TRUSTED_PROXIES``: how many reverse proxies in front set the X-Forwarded-* headers
    (0: none, their headers are anyone's to write and never read); ValueError if it is
    no number of proxies."""
    value = config.get("TRUSTED_PROXIES") or 0
    try:
        count = int(value)
    except (TypeError, ValueError):
        raise ValueError(f"TRUSTED_PROXIES must be a number of proxies, not {value!r}") from None
    if count < 0:
        raise ValueError(f"TRUSTED_PROXIES must be 0 or more, not {count}")
    return count


def trust_proxies(app: Flask, count: int) -> None:
    """Behind ``count`` reverse proxies, read the client's address, scheme, host, port and
    prefix from their X-Forwarded-* headers (Werkzeug's ProxyFix), so that links, the Host
    check, Secure cookies and rate limits see what the phone sent. The production start's
    way (gunicorn reads none of them); ``make run``'s waitress reads them itself
    (``companion.serve.start.proxy_options``)."""
    from werkzeug.middleware.proxy_fix import ProxyFix

    # Flask's documented way to wrap its WSGI app; mypy sees a method assigned to.
    app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
        app.wsgi_app, x_for=count, x_proto=count, x_host=count, x_port=count, x_prefix=count
    )


def _versioned_static(endpoint: str, values: dict[str, Any]) -> None:
    """Static files' addresses carry the build (``?v=``): a browser or proxy that keeps
    them for long gets the new file after a deploy."""
    if endpoint == "static":
        values.setdefault("v", current_app.config["BUILD"])


def _flag(value: object) -> bool:
    """A config flag given as a bool or as text from the environment ("1", "true", "yes")."""
    if isinstance(value, str):
        return value.strip().lower() in ("1", "true", "yes", "on")
    return bool(value)
