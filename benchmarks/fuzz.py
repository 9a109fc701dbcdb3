"""Send many odd requests to every route of the app: none may answer with a server error.

Run: ``.venv/bin/python benchmarks/fuzz.py [--requests 100000] [--seed 1] [--examples]``.

The real app (``create_app``: CSRF on, a SQLite file and the lexicons in a temporary
folder) gets a few games made through the API (rounds entered, closed, challenged, house
words), two solitaire games started from their page, and two tables of people started
through their action: one whose members (and a guest) played a finished game of it, one
with no game. Browser-like test clients hold the edit right: the editor opened every
edit link, of the games and of the tables, and started the solitaire games (the start
page keeps the right in the session). The tables' requests get their ids and their
members' ids (and other tables'), the table form, the new-game form of a table, the
import of the first table's export (as it is, mutated, cut short, or another file), and
now and then a confirmed delete: the game or table is then made again
(``Setup.restore``); the tables an import made are kept for later requests
(``Setup.adopt``). Then every route of ``app.url_map`` gets
requests through the Flask test client: valid ones, and valid ones mutated (wrong types,
5000-digit numbers, negative numbers, lone surrogates, unicode digits, empty and very
long strings, nested lists, null), malformed JSON, wrong content types, missing, foreign
or junk CSRF tokens, multipart bodies with files or CR/LF in part names, odd headers
(If-Match, If-None-Match, Authorization, Accept-Language, Cookie, Range), odd query
strings and odd path segments. The same seed sends the same requests.

It prints the count of requests, the count per status, the rate, and every distinct
(method, route rule, exception) that answered 500 or more, with the smallest request
that did; the exit code is 1 if any did. ``tests/web/test_fuzz_routes.py`` runs a small
size of the same mix.
"""

from __future__ import annotations

import argparse
import base64
import json
import logging
import random
import re
import shutil
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

from flask import Flask, has_request_context, request
from flask.testing import FlaskClient

# The checkout this script is in, before an installed copy of the app (a virtualenv shared
# between checkouts would otherwise send the requests to another checkout's code).
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import companion
from companion import create_app
from companion.game.deck import CARDS

SECRET = "fuzz-not-secret"
TINY_WORDS = ("top", "tops", "pat", "pats", "quiz", "the", "sort", "star", "rats", "tar", "er")
"""A custom lexicon ``tiny`` (instance/lexicons/tiny.txt) offered beside the packaged ones."""
LEXICONS = ("standard", "standard", "standard", "wordgame", "broad", "tiny")
CARD_NAMES = [c.name for c in CARDS]
DECK = [c.name for c in CARDS for _ in range(c.copies)]
THREE = ["Ann", "Ben", "Cy"]
EIGHT = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
OPENING = "t o p a th e r s"
"""Solitaire piles 1-8: TOP (1 2 3) and PAT (3 4 1) are words."""
WORDS = ["quiz", "top", "qat", "zax", "xyzzy", "cat", "the", "in", "qu", "queen", "Paris", "e'er"]
HOUSE_WORDS = ["zax", "qat", "zzq", "blorf", "ok"]

HUGE = "9" * 5000
"""Longer than Python converts to int by default (4300 digits)."""


class Raw(str):
    """A JSON literal written into the body as is: ``NaN``, ``1e400``, 5000 digits."""


NESTED: Any = []
for _ in range(60):
    NESTED = [NESTED]

JUNK_STRINGS = [
    "", " ", "0", "-1", "-5", "1e9", "²", "\u0661", "\uff11", "\ud800", "\udfff", HUGE, "-" + HUGE,
    "a" * 5000, "İ", "ß", "ǅ", "\x00", "\u202e", "\ufeff", "qu", "null", "[]", "Ann", " ann ",
    "qu-i-z", "in-", "--", "1:1", "0:0", "9:9", "-1:-1", "²:²", "%", "<b>x</b>", "'; --",
]
JUNK_VALUES: list[Any] = [
    None, True, False, 0, 1, -1, -(2**63), 2**64, 1.5, -0.0, 1e308, [], {}, [[]], [None],
    [["qu", "i"]], {"a": []}, {"name": None}, NESTED, Raw("NaN"), Raw("Infinity"),
    Raw("-Infinity"), Raw("1e400"), Raw(HUGE), Raw("-" + HUGE), Raw("1E2"), Raw("-0"),
    *JUNK_STRINGS,
]
JUNK_SEGMENTS = [
    "0", "9", "10", "-1", "00001", HUGE, "%C2%B2", "%D9%A1", "%EF%BC%91", "%ff", "%00",
    "%ED%A0%80", "%2F", "..", "%20", "a" * 300, "x", "%0D%0A", "1.5", "%2E%2E",
]
JUNK_QUERIES = [
    "%ff", "%", "%zz", "%00", "%ED%A0%80", "a=" + HUGE, "=&&=", "a[]=1&a[]=2", "a=1;b=2", "+",
    "lexicon=%C2%B2", "lexicon=", "lexicon=nope", "game=%ff", "game=" + "x" * 300, "hint",
    "created=1", "word=" + "a" * 5000, "word=%ED%A0%80", "word=", "csrf_token=x", "page=-1",
]
CONTENT_TYPES = [
    None, "", "application/json", "text/plain", "application/x-www-form-urlencoded",
    "multipart/form-data", "multipart/form-data; boundary=", "application/json; charset=utf-16",
    "application/json; charset=bogus", "application/octet-stream", "text/html; charset=\xb2",
    "application/x-www-form-urlencoded; charset=latin-1", "*/*", "application/merge-patch+json",
]
MALFORMED = [
    b"", b"{", b"[", b'{"players": [', b"}", b"null", b"0", b'"x"', b"[1, 2", b"\xff\xfe\x00",
    b"\xed\xa0\x80", b"{'a': 1}", b'{"a": 1,}', b"[" * 20000, b'{"a":' * 20000, b"\x00" * 10,
    "\ufeff{}".encode(), '{"players": []}'.encode("utf-16"), b"a=1&b=2", b"NaN", b"1e400",
    HUGE.encode(), b"x" * 300_000,
]
ODD_HEADERS: dict[str, list[str]] = {
    "If-Match": [
        '"²"', "²", f'"{HUGE}"', HUGE, '"-1"', "*", 'W/"1"', '"1", "2"', '""', '"1 "', '" 1"',
        '"\u0661"', '"1', "1", '"0"', '"99999999999999999999"', "\x00",
    ],
    "If-None-Match": [
        '"', "W/", "*", '"' * 100, "a" * 5000, "\xb2", '"x", W/"y"', ",,,", 'W/"', '"a-1"',
    ],
    "Authorization": [
        "Bearer", "Bearer ", "bearer x", "Bearer \xb2", "Bearer " + "a" * 5000, "Basic !!!",
        "Basic " + base64.b64encode(b"a:b").decode(), "Basic", "Digest x=", "Bearer \x00",
        "Bearer  ", "Token abc", "\xb2",
    ],
    "Accept-Language": ["*;q=x", "\xb2", "en;q=1e400", "," * 1000, "en-US;q=-1", "zz" * 2000],
    "Accept": ["application/json;q=", "*/*;q=\xb2", "text/html;level=" + HUGE, ";;;"],
    "Cookie": [
        "session=junk", "session=" + "a" * 5000, "lexicon=\xb2", "lexicon=broad", "lexicon=",
        "=;=;", "session=.eJx", "lexicon=" + "x" * 3000,
    ],
    "Range": ["bytes=9999999999999999999-", "bytes=-0", "bytes=5-1", "bytes=" + HUGE, "x"],
    "If-Modified-Since": ["\xb2", "Thu, 01 Jan 1970 00:00:00 GMT", HUGE, "Mon, 99 Foo 20000"],
    "X-CSRFToken": ["", "junk", HUGE, "\xb2"],
    "Content-Encoding": ["gzip", "deflate", "\xb2"],
    "Transfer-Encoding": ["chunked"],
    "X-Requested-With": ["XMLHttpRequest"],
}


def seg(text: str) -> str:
    """A path segment or query value, percent-encoded (lone surrogates as their bytes)."""
    return quote(text, safe="", errors="surrogatepass")


def latin1(value: str) -> str:
    """A header value as a WSGI server hands it over: its UTF-8 bytes read as Latin-1."""
    try:
        value.encode("latin-1")
    except UnicodeEncodeError:
        return value.encode("utf-8", "surrogatepass").decode("latin-1")
    return value


# --- the app and what is stored in it ------------------------------------------------------


def build_app(folder: Path, lexicon_cache: Path | None = None) -> Flask:
    """The real app on ``folder``: a SQLite file, lexicons (with ``tiny``), CSRF on."""
    lexicons = folder / "lexicons"
    lexicons.mkdir(parents=True, exist_ok=True)
    (lexicons / "tiny.txt").write_text("\n".join(TINY_WORDS) + "\n")
    app = create_app(
        {
            "SECRET_KEY": SECRET,
            "WTF_CSRF_ENABLED": True,
            "DATABASE_URL": f"sqlite:///{folder / 'fuzz.sqlite3'}",
            "LEXICON_DIR": str(lexicons),
            "LEXICON_CACHE_DIR": str(lexicon_cache or folder / "lexicon-cache"),
            "AUTO_MIGRATE": True,
            "RATELIMIT_ENABLED": False,  # one address makes every request here
        }
    )
    companion.upgrade_database(app)
    return app


@dataclass
class Table:
    """A stored game, solitaire game or table of people: its id, its edit token, its
    players (a table: its members' names) and, for a table, its members' ids."""

    id: str
    token: str
    names: list[str] = field(default_factory=list)
    members: list[int] = field(default_factory=list)
    remake: Callable[[], Table] | None = field(default=None, repr=False, compare=False)
    """Makes it again as it was set up (a request may delete it), None if it can't be."""


@dataclass
class Setup:
    """The app, its clients and what they may change."""

    app: Flask
    clients: dict[str, FlaskClient]
    """``editor`` holds every edit right, ``creator`` starts games from the pages,
    ``anon`` has a session but no right, ``bare`` keeps no cookies."""
    csrf: dict[str, str]
    """A valid CSRF token of each client's session (none for ``bare``)."""
    games: list[Table]
    solitaire: list[Table]
    static: list[str]
    lexicons: tuple[str, ...] = LEXICONS
    """The lexicon names the requests pick from (besides junk ones)."""
    tables: list[Table] = field(default_factory=list)
    """Tables of people: one whose members played a finished game, one with no game."""
    backup: bytes = b""
    """The backup file of the first table (GET /tables/<id>/export.json): the valid import."""
    imported: list[Table] = field(default_factory=list)
    """The latest tables made by an import (no edit token here), and their games below:
    the requests reach what a file stored, as well as what the pages did."""
    imported_games: list[Table] = field(default_factory=list)

    def adopt(self, location: str) -> None:
        """Keep the table an import made (its page is ``location``) and its games."""
        from companion import store
        from companion.actions import groups
        from companion.store import groups as stored
        from companion.store.db import db

        found = re.search(r"/tables/([\w-]+)$", location)
        if not found:
            return
        with self.app.app_context():
            state = groups.group_state(stored.get_group(found[1]))
            games = [
                Table(g.id, "", list(store.names_of(store.get_game(g.id))))
                for g in state.games
            ]
            db.session.remove()
        members = [m for m, _ in state.members]
        self.imported = [*self.imported, Table(state.id, "", [n for _, n in state.members],
                                               members)][-IMPORTED:]
        self.imported_games = [*self.imported_games, *games][-IMPORTED:]

    def rejoin(self) -> None:
        """Open every edit link again with the editor (new games may have pushed some out)."""
        editor = self.clients["editor"]
        for t in self.games:
            editor.get(f"/games/{t.id}/edit/{t.token}")
        for t in self.tables:
            editor.get(f"/tables/{t.id}/edit/{t.token}")

    def restore(self) -> None:
        """Make again each game or table a request deleted (in place: same object, new id
        and token), so later requests still have something to hit."""
        from companion.store.db import db
        from companion.store.models import Game, Group

        for kept, model in ((self.tables, Group), (self.games, Game)):  # a table makes a game
            with self.app.app_context():
                gone = [t for t in kept if t.remake and db.session.get(model, t.id) is None]
                db.session.remove()
            for t in gone:
                assert t.remake is not None
                again = t.remake()
                t.id, t.token, t.names = again.id, again.token, again.names
                t.members = again.members

    def drain(self) -> None:
        """Show the editor's flashed messages once, so its session cookie stays small."""
        for name in ("editor", "creator", "anon"):
            client = self.clients[name]
            cookie = client.get_cookie("session")
            if cookie is not None and len(cookie.value) > 2500:
                client.get("/score")


def round_body(rng: random.Random, names: list[str], number: int) -> dict[str, Any]:
    """Every player's cards for round ``number``, dealt from one deck; one player went out."""
    size = number + 2 if 1 <= number <= 8 else rng.randint(3, 10)
    deck = DECK[:]
    rng.shuffle(deck)
    out = rng.randrange(len(names)) if names else -1
    players = []
    for seat, name in enumerate(names):
        hand = deck[seat * size : (seat + 1) * size]
        keep = 0 if seat == out else rng.randint(0, min(3, max(size - 2, 0)))
        laid, words = hand[keep:], []
        while laid:
            k = len(laid) if len(laid) <= 3 else (2 if len(laid) == 4 else rng.choice((2, 3)))
            words.append(laid[:k])
            laid = laid[k:]
        player: dict[str, Any] = {
            "name": name,
            "words": [w if rng.random() < 0.7 else "-".join(w) for w in words],
            "unused": hand[:keep],
        }
        if seat == out:
            player["went_out"] = True
        players.append(player)
    return {"players": players}


def scrape_csrf(html: str) -> str:
    found = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html) or re.search(
        r'name="csrf_token"[^>]*value="([^"]+)"', html
    )
    if not found:
        raise RuntimeError("no csrf_token on the page")
    return found.group(1)


def _api_game(
    client: FlaskClient,
    names: list[str],
    first: int,
    rules: dict[str, Any] | None,
    closed: int,
    open_round: bool,
    house: dict[str, bool] | None = None,
) -> Table:
    body: dict[str, Any] = {"players": names, "first_dealer": first}
    if rules is not None:
        body["rules"] = rules
    made = client.post("/api/v1/games", json=body)
    if made.status_code != 201:
        raise RuntimeError(f"POST /api/v1/games: {made.status_code} {made.get_data(as_text=True)}")
    table = Table(made.json["id"], made.json["edit_token"], names)
    _play(client, table, closed, open_round, house)
    return table


def _play(
    client: FlaskClient,
    table: Table,
    closed: int,
    open_round: bool,
    house: dict[str, bool] | None = None,
) -> None:
    """Rounds 1 to ``closed`` entered and closed through the API, the next one entered
    and challenged if ``open_round``, then the house words."""
    names = table.names
    auth = {"Authorization": f"Bearer {table.token}"}
    base = f"/api/v1/games/{table.id}"
    for number in range(1, closed + (2 if open_round else 1)):
        if number > 8:
            break
        sent = round_body(random.Random(number), names, number)
        saved = client.put(f"{base}/rounds/{number}", json=sent, headers=auth)
        if saved.status_code != 200:
            raise RuntimeError(f"PUT round {number}: {saved.get_data(as_text=True)}")
        if number <= closed:
            shut = client.post(f"{base}/rounds/{number}/close", json={}, headers=auth)
            if shut.status_code != 200:
                raise RuntimeError(f"close round {number}: {shut.get_data(as_text=True)}")
        else:
            challenge = {"by": names[1], "player": names[0], "word": 0}
            client.post(f"{base}/rounds/{number}/challenges", json=challenge, headers=auth)
    for word, allowed in (house or {}).items():
        client.put(f"{base}/house-words/{word}", json={"allowed": allowed}, headers=auth)


IMPORTED = 6
"""Tables (and games) made by imports that the requests pick from besides the set-up ones."""
BACKUP_ODD: list[Any] = [
    "\ud800", "a\udfffb", "\x00", "\u202e", "0001-01-01T00:00:00+14:00",
    "9999-12-31T23:59:59-14:00", "0001-01-01T00:00:00", "9999-12-31T23:59:59.999999",
    "2026-02-30T00:00:00", -1, 2**31, 2**63, 10**6, Raw(HUGE), Raw("1e400"), "", "x" * 100,
]
"""Values a backup file's fields get in place of theirs: ones the JSON mutations rarely pick."""
FAMILY = ["Ann", "Ben", "Cy", "Dee", "Eve"]
"""The members of the table that played: Eve sat in no game (she may be taken off)."""
FAMILY_GAME = ["Ann", "Ben", "Cy", "Zed"]
"""The players of its finished game: three members and a guest."""
SHORT_PLAN = {"hands": [3, 4, 5]}
"""Three rounds: the table's game is finished after three closes."""


def _new_table(app: Flask, editor: FlaskClient, name: str, members: list[str],
               alternate: bool) -> Table:
    """A table started through its action; the editor opens its edit link."""
    from companion.actions import groups

    with app.app_context():
        created = groups.create_group(name, members, alternate)
    table = Table(created.state.id, created.token, list(members),
                  [m for m, _ in created.state.members])
    joined = editor.get(f"/tables/{table.id}/edit/{table.token}")
    if joined.status_code != 302:
        raise RuntimeError(f"edit link of table {table.id}: {joined.status_code}")
    return table


def _table_game(app: Flask, api: FlaskClient, editor: FlaskClient, table: Table) -> Table:
    """A game of ``table`` started through its action, played to its end through the API;
    the editor opens its edit link."""
    from companion.actions import groups
    from companion.game.parse import parse_rules

    with app.app_context():
        created = groups.start_game(
            app.extensions["lexicons"], table.id, table.token, FAMILY_GAME, 0,
            parse_rules(SHORT_PLAN), (), True,  # it keeps photos: the hand forms read them
        )
    game = Table(created.state.id, created.token, list(FAMILY_GAME))
    _play(api, game, len(SHORT_PLAN["hands"]), False)
    editor.get(f"/games/{game.id}/edit/{game.token}")
    return game


def set_up(app: Flask, lexicons: tuple[str, ...] = LEXICONS) -> Setup:
    """Games made through the API, solitaire games from their page, two tables of people
    (one whose members played a finished game, one with none), the clients.

    The lexicons are built (and their best-play indexes) first, as companion/serve/start.py
    does before serving, so that the requests measure the app rather than the builds."""
    store = app.extensions["lexicons"]
    for name in sorted(set(lexicons)):
        store.build(name)
        store.solver_index(name)
    api = app.test_client()
    clients = {name: app.test_client() for name in ("editor", "creator", "anon")}
    clients["bare"] = app.test_client(use_cookies=False)
    editor = clients["editor"]
    specs: list[tuple[Any, ...]] = [
        (THREE, 0, None, 3, True, {"zax": True, "qat": False}),
        (["Dee", "Eve"], 1, {"two_player_bonus": "both"}, 0, False),
        (EIGHT, 0, None, 8, False),
        (
            ["Ann", "Bob", "Cyd", "Dot"],
            2,
            {"min_word": "letters", "lexicon": "tiny", "bonus": 0, "zero_floor": False},
            1,
            True,
        ),
        (
            THREE,
            1,
            {"challenge_ruling": "majority", "floor": "total", "hands": [3, 4, 5, 4, 3]},
            1,
            True,
        ),
    ]

    def api_game(spec: tuple[Any, ...]) -> Table:
        made = _api_game(api, *spec)
        joined = editor.get(f"/games/{made.id}/edit/{made.token}")
        if joined.status_code != 302:
            raise RuntimeError(f"edit link of {made.id}: {joined.status_code}")
        return made

    games = []
    for spec in specs:
        game = api_game(spec)
        game.remake = lambda spec=spec: api_game(spec)
        games.append(game)

    played = _new_table(app, editor, "Sunday family", FAMILY, False)
    empty = _new_table(app, editor, "Empty table", ["Kit", "Lou"], True)
    family_game = _table_game(app, api, editor, played)

    def remake_played() -> Table:
        again = _new_table(app, editor, "Sunday family", FAMILY, False)
        fresh = _table_game(app, api, editor, again)
        family_game.id, family_game.token = fresh.id, fresh.token
        return again

    played.remake = remake_played
    family_game.remake = lambda: _table_game(app, api, editor, played)
    empty.remake = lambda: _new_table(app, editor, "Empty table", ["Kit", "Lou"], True)
    games.append(family_game)
    exported = editor.get(f"/tables/{played.id}/export.json")
    if exported.status_code != 200:
        raise RuntimeError(f"export of table {played.id}: {exported.status_code}")
    csrf = {
        "editor": scrape_csrf(editor.get("/solitaire").get_data(as_text=True)),
        "creator": scrape_csrf(clients["creator"].get("/games/new").get_data(as_text=True)),
        "anon": scrape_csrf(clients["anon"].get("/score").get_data(as_text=True)),
    }
    solitaire = []
    for form in (
        {"face_up": OPENING, "min_word": "cards", "lexicon": "standard", "cards": "1"},
        {"face_up": "", "min_word": "letters", "lexicon": "standard", "practice": "1"},
    ):
        started = editor.post("/solitaire", data={**form, "csrf_token": csrf["editor"]})
        found = re.search(r"/solitaire/([\w-]+)$", started.headers.get("Location", ""))
        if started.status_code != 302 or not found:
            raise RuntimeError(f"POST /solitaire: {started.status_code}")
        solitaire.append(Table(found.group(1), ""))
    static = sorted(
        p.relative_to(app.static_folder).as_posix()
        for p in Path(app.static_folder or ".").rglob("*")
        if p.is_file()
    )
    return Setup(
        app, clients, csrf, games, solitaire, static, lexicons, [played, empty], exported.data
    )


# --- requests ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Route:
    rule: str
    endpoint: str
    method: str


def routes(app: Flask) -> list[Route]:
    """Every (rule, method) of the app, HEAD and OPTIONS aside, in a stable order."""
    found = [
        Route(rule.rule, rule.endpoint, method)
        for rule in app.url_map.iter_rules()
        for method in (rule.methods or set()) - {"HEAD", "OPTIONS"}
    ]
    return sorted(found, key=lambda r: (r.rule, r.method))


_ARG = re.compile(r"<(?:(\w+)(?:\(([^)]*)\))?:)?(\w+)>")

NOTHING = object()


@dataclass
class Upload:
    """A file part of a multipart body, sent where the form expects text."""

    filename: str
    data: bytes


def _pictures() -> list[bytes]:
    """What a phone may send as the photo of its hand: small pictures (JPEG, PNG, WebP,
    a GIF), one cut short, one whose header says huge, and things that are no picture."""
    import io

    from PIL import Image

    made = []
    for kind in ("JPEG", "PNG", "WEBP", "GIF"):
        out = io.BytesIO()
        Image.new("RGB", (40, 30), (200, 30, 90)).save(out, format=kind)
        made.append(out.getvalue())
    huge = bytearray(made[1])
    huge[16:24] = (60000).to_bytes(4, "big") + (60000).to_bytes(4, "big")  # PNG's IHDR
    return [*made, made[0][: len(made[0]) // 2], bytes(huge), b"", b"%PDF-1.4", b"\0" * 64]


PICTURES = _pictures()


@dataclass
class Draft:
    """A request before it is encoded, as the generators and the mutations shape it."""

    route: Route
    table: Table | None
    client: str = "anon"
    args: dict[str, str] = field(default_factory=dict)
    query: list[tuple[str, str]] = field(default_factory=list)
    raw_query: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    json: Any = NOTHING
    form: list[tuple[str, Any]] | None = None
    csrf: bool = False
    """The form takes a CSRF token (added when it is encoded, unless a mutation chose one)."""
    csrf_token: str | None = None
    raw: bytes | None = None
    content_type: str | None = NOTHING
    multipart: bool = False
    method: str = ""
    notes: list[str] = field(default_factory=list)


@dataclass
class Req:
    """One request as sent."""

    method: str
    path: str
    rule: str
    client: str
    query: str
    headers: list[tuple[str, str]]
    body: bytes
    content_type: str | None
    notes: tuple[str, ...] = ()

    def size(self) -> int:
        return (
            len(self.path)
            + len(self.query)
            + len(self.body)
            + sum(len(k) + len(v) for k, v in self.headers)
        )

    def describe(self) -> str:
        """The request in a few lines, long runs of one character shortened."""
        target = self.path + (f"?{self.query}" if self.query else "")
        lines = [f"{self.method} {_short(target)}   (client: {self.client})"]
        lines += [f"{k}: {_short(v)}" for k, v in self.headers]
        if self.content_type is not None:
            lines.append(f"Content-Type: {_short(self.content_type)}")
        if self.body:
            lines.append("body: " + _short(repr(self.body)[2:-1], 400))
        if self.notes:
            lines.append("mutated: " + ", ".join(self.notes))
        return "\n".join(lines)


def _short(text: str, limit: int = 200) -> str:
    """``text`` with long repeats written as ``(unit)*count``, cut at ``limit``."""
    text = re.sub(
        r"(.{1,8}?)\1{9,}", lambda m: f"({m[1]})*{len(m[0]) // len(m[1])}", text, flags=re.S
    )
    return text if len(text) <= limit else text[:limit] + f"...<{len(text)} chars>"


# --- valid requests, route by route --------------------------------------------------------


def _names(rng: random.Random, t: Table | None) -> list[str]:
    names = list(t.names) if t and t.names else rng.choice([THREE, EIGHT[:2], EIGHT])
    if rng.random() < 0.1:
        names = [n.upper() if rng.random() < 0.5 else f" {n.lower()} " for n in names]
    return names


def _number(rng: random.Random) -> int:
    return rng.choice([1, 2, 3, 4, 4, 4, 5, 8, 2, 1])


def _rules(rng: random.Random, s: Setup) -> dict[str, Any]:
    rules: dict[str, Any] = {}
    if rng.random() < 0.5:
        rules["min_word"] = rng.choice(["cards", "letters", "one_card"])
    if rng.random() < 0.3:
        rules["hands"] = rng.choice(
            [[3, 4, 5], list(range(2, 8)), [10] * 20, [1], [11], [], "3-10", [3, None]]
        )
    if rng.random() < 0.3:
        rules["floor"] = rng.choice(["round", "before_bonus", "total", "off", "none", 0])
    if rng.random() < 0.2:
        rules["leftover_penalty"] = rng.random() < 0.5
    if rng.random() < 0.2:
        rules["proper_nouns"] = rng.choice([True, False, "yes"])
    if rng.random() < 0.3:
        rules["challenge_ruling"] = rng.choice(["dictionary", "majority", "unanimous", "vote"])
    if rng.random() < 0.3:
        rules["two_player_bonus"] = rng.choice(["longest", "most", "both"])
    if rng.random() < 0.3:
        rules["bonus"] = rng.choice([0, 10, 1000])
    if rng.random() < 0.3:
        rules["zero_floor"] = rng.random() < 0.5
    if rng.random() < 0.3:
        rules["false_out_penalty"] = rng.choice([0, 5, 1000])
    if rng.random() < 0.4:
        rules["lexicon"] = rng.choice(s.lexicons)
    return rules


def _hand(rng: random.Random, low: int = 3, high: int = 11) -> list[str]:
    return rng.sample(DECK, rng.randint(low, high))


def _challenge(rng: random.Random, names: list[str]) -> dict[str, Any]:
    by, player = rng.sample(names, 2) if len(names) >= 2 else (names * 2)[:2]
    body: dict[str, Any] = {"by": by, "player": player, "word": rng.randint(0, 3)}
    if rng.random() < 0.4:
        body["ruling"] = rng.choice(["legal", "illegal"])
    return body


def _auth(rng: random.Random, d: Draft) -> None:
    if d.table is not None and rng.random() < 0.93:
        d.headers["Authorization"] = f"Bearer {d.table.token}"


def _rules_form(rng: random.Random, s: Setup, prefix: str = "rules-") -> list[tuple[str, Any]]:
    return [
        (f"{prefix}hands", rng.choice(["standard", "full", "junior", "short", "mega", ""])),
        (f"{prefix}hands_first", rng.choice(["2", "10", "11", "", "x", "99999999"])),
        (f"{prefix}hands_last", rng.choice(["3", "6", "1", ""])),
        (f"{prefix}min_word", rng.choice(["cards", "letters", "one_card"])),
        (f"{prefix}two_player_bonus", rng.choice(["longest", "most", "both"])),
        (f"{prefix}bonus", str(rng.choice([0, 10, 25]))),
        (f"{prefix}floor", rng.choice(["round", "before_bonus", "total", "off", "up"])),
        *([(f"{prefix}leftover_penalty", "y")] if rng.random() < 0.7 else []),
        (f"{prefix}challenge_ruling", rng.choice(["dictionary", "majority", "unanimous"])),
        *([(f"{prefix}proper_nouns", "y")] if rng.random() < 0.3 else []),
        (f"{prefix}false_out_penalty", str(rng.choice([0, 5]))),
        (f"{prefix}lexicon", rng.choice(s.lexicons)),
    ]


def g_cards(rng: random.Random, s: Setup, d: Draft) -> None:
    return None


def g_spell(rng: random.Random, s: Setup, d: Draft) -> None:
    d.json = {"letters": rng.choice(["quiz", "thin", "qu", "xyzzy", "", "inter", "a" * 30, "th"])}


def g_score(rng: random.Random, s: Setup, d: Draft) -> None:
    names = _names(rng, None)
    number = _number(rng)
    body = round_body(rng, names, number)
    if rng.random() < 0.5:
        body["round"] = number
    if rng.random() < 0.4:
        body["challenges"] = [_challenge(rng, names) for _ in range(rng.randint(1, 2))]
    if rng.random() < 0.4:
        body["rules"] = _rules(rng, s)
    d.json = body


def g_word(rng: random.Random, s: Setup, d: Draft) -> None:
    d.args["word"] = seg(rng.choice(WORDS + HOUSE_WORDS))
    if rng.random() < 0.4:
        d.query.append(("lexicon", rng.choice(s.lexicons)))
    if d.table is not None and rng.random() < 0.4:
        d.query.append(("game", d.table.id))


def g_judge_api(rng: random.Random, s: Setup, d: Draft) -> None:
    d.json = {"words": rng.sample(WORDS, rng.randint(1, 4))}
    if rng.random() < 0.6:
        d.json["lexicon"] = rng.choice(s.lexicons)


def g_best(rng: random.Random, s: Setup, d: Draft) -> None:
    cards = _hand(rng)
    d.json = {"cards": cards, "discard": len(cards) == 11 or rng.random() < 0.2}
    if rng.random() < 0.4:
        d.json["rules"] = _rules(rng, s)


def g_create_game(rng: random.Random, s: Setup, d: Draft) -> None:
    names = rng.choice([THREE, EIGHT[:2], EIGHT, ["Zoe", "Yan", "Xi", "Wu"]])
    d.json = {"players": names, "first_dealer": rng.randrange(len(names))}
    if rng.random() < 0.5:
        d.json["rules"] = _rules(rng, s)
    if rng.random() < 0.3:
        d.json["handicap"] = rng.choice(
            [[0] * len(names), [15] * len(names), [0, 5], [-1] * len(names), "10", [1.5, 0, 0]]
        )


def g_get_game(rng: random.Random, s: Setup, d: Draft) -> None:
    if d.table is not None and rng.random() < 0.4:
        d.headers["If-None-Match"] = f'"{d.table.id}-{rng.randint(1, 60)}"'


def g_put_round(rng: random.Random, s: Setup, d: Draft) -> None:
    _auth(rng, d)
    number = _number(rng)
    d.args["number"] = str(number)
    body = round_body(rng, _names(rng, d.table), number)
    if rng.random() < 0.3:
        body["challenges"] = [_challenge(rng, _names(rng, d.table))]
    d.json = body
    if rng.random() < 0.4:
        d.headers["If-Match"] = f'"{rng.randint(0, 30)}"'


def g_post_challenge(rng: random.Random, s: Setup, d: Draft) -> None:
    _auth(rng, d)
    d.json = _challenge(rng, _names(rng, d.table))


def g_vote(rng: random.Random, s: Setup, d: Draft) -> None:
    """A vote or the scorekeeper's decision: mostly well formed, sometimes not."""
    _auth(rng, d)
    d.json = rng.choice([{"legal": True}, {"legal": False}, {"legal": "yes"}, {}, []])


def g_auth_only(rng: random.Random, s: Setup, d: Draft) -> None:
    _auth(rng, d)
    d.json = {}  # a write without a body still says it is JSON


def g_put_house_word(rng: random.Random, s: Setup, d: Draft) -> None:
    _auth(rng, d)
    d.json = {"allowed": rng.random() < 0.5}


def _page_form(d: Draft, client: str = "editor") -> None:
    d.client = client
    d.csrf = True
    d.form = []


def g_home(rng: random.Random, s: Setup, d: Draft) -> None:
    d.client = rng.choice(["anon", "editor", "bare"])


def g_new_game(rng: random.Random, s: Setup, d: Draft) -> None:
    """The new-game page and form; a third of them of a table (``table``: its id, the
    editor holds its right; its members, a guest, or the id of another table)."""
    table = rng.choice(s.tables) if s.tables and rng.random() < 0.35 else None
    if d.route.method == "GET":
        d.client = rng.choice(["anon", "creator", "bare"])
        if table is not None:
            d.client = rng.choice(["editor", "editor", "anon", "bare"])
            d.query.append(("table", table.id))
        return
    _page_form(d, "creator")
    names = rng.choice([THREE, EIGHT[:2], EIGHT, ["", "Ann", "", "Ben"]])
    assert d.form is not None
    if table is not None:
        d.client = rng.choice(["editor", "editor", "editor", "creator"])
        names = list(table.names)
        if rng.random() < 0.3:
            names = rng.sample(names, rng.randint(1, len(names)))
        if rng.random() < 0.3:
            names.insert(rng.randint(0, len(names)), rng.choice(["Zed", "ann", " BEN ", ""]))
        names = names[:8]
        d.form.append(("table", table.id))
    for i, name in enumerate(names):
        d.form.append((f"players-{i}-name", name))
        if rng.random() < 0.3:
            d.form.append((f"players-{i}-handicap", rng.choice(["0", "15", "-5", "x", ""])))
    d.form.append(("first_dealer", str(rng.randint(1, max(len(names), 1)))))
    d.form += _rules_form(rng, s)
    if rng.random() < 0.3:
        d.form.append(("keep_photos", rng.choice(["y", "", "no"])))


def _photo(rng: random.Random, d: Draft, name: str) -> None:
    """Now and then, a photo of the hand in field ``name`` (the form then multipart)."""
    if rng.random() < 0.3:
        assert d.form is not None
        filename = rng.choice(["IMG_0001.jpg", "", "hand.png", "\r\n.jpg"])
        d.form.append((name, Upload(filename, rng.choice(PICTURES))))
        d.multipart = True


def g_join(rng: random.Random, s: Setup, d: Draft) -> None:
    d.client = rng.choice(["bare", "bare", "editor"])
    if d.table is not None:
        other = rng.choice(s.games).token
        d.args["token"] = seg(d.table.token if rng.random() < 0.7 else other)


def g_view(rng: random.Random, s: Setup, d: Draft) -> None:
    d.client = rng.choice(["anon", "editor", "bare", "creator"])
    if rng.random() < 0.2:
        d.query.append(("created", "1"))


def g_board(rng: random.Random, s: Setup, d: Draft) -> None:
    d.client = rng.choice(["anon", "bare"])
    if d.table is not None and rng.random() < 0.5:
        d.headers["If-None-Match"] = f'"{d.table.id}-{rng.randint(1, 60)}"'


def g_add_house_word(rng: random.Random, s: Setup, d: Draft) -> None:
    _page_form(d)
    d.form = [("word", rng.choice(HOUSE_WORDS)), ("allowed", rng.choice(["allow", "ban"]))]


def g_page_action(rng: random.Random, s: Setup, d: Draft) -> None:
    """A button: only the CSRF token (house word delete, withdraw, close, reopen)."""
    _page_form(d)
    if "word" in d.route.rule:
        d.args["word"] = seg(rng.choice(HOUSE_WORDS))


def g_read(rng: random.Random, s: Setup, d: Draft) -> None:
    d.client = rng.choice(["anon", "editor", "bare"])


def g_save_round(rng: random.Random, s: Setup, d: Draft) -> None:
    _page_form(d)
    number = _number(rng)
    d.args["number"] = str(number)
    body = round_body(rng, _names(rng, d.table), number)
    assert d.form is not None
    out = ""
    for seat, p in enumerate(body["players"]):
        words = " ".join(w if isinstance(w, str) else "-".join(w) for w in p["words"])
        d.form.append((f"players-{seat}-words", words))
        d.form.append((f"players-{seat}-unused", " ".join(p["unused"])))
        if p.get("went_out"):
            out = str(seat)
    d.form.append(("went_out", out))
    for seat in range(len(body["players"])):
        if rng.random() < 0.5:
            d.form.append((f"players-{seat}-version", str(rng.randint(0, 5))))
        _photo(rng, d, f"players-{seat}-photo")


def _seat_hand(rng: random.Random, d: Draft) -> dict[str, Any]:
    """One player's hand of a round, as a seat saves it (no name)."""
    number = int(d.args.get("number", "1")) if d.args.get("number", "1").isdigit() else 1
    body = round_body(rng, _names(rng, d.table) or ["Ann", "Ben"], number)
    hand = dict(rng.choice(body["players"]))
    hand.pop("name", None)
    return hand


def g_seat_claim(rng: random.Random, s: Setup, d: Draft) -> None:
    """Take (POST, no token: the view link) or release (DELETE, the edit token) a seat."""
    d.args["seat"] = str(rng.randint(-1, 9))
    d.json = {}  # a write without a body still says it is JSON
    if d.route.method == "DELETE":
        _auth(rng, d)


def g_put_seat(rng: random.Random, s: Setup, d: Draft) -> None:
    _auth(rng, d)
    d.args["seat"] = str(rng.randint(-1, 9))
    d.args["number"] = str(_number(rng))
    d.json = _seat_hand(rng, d)
    if rng.random() < 0.4:
        d.headers["If-Match"] = f'"{rng.randint(0, 5)}"'


def g_seat_page(rng: random.Random, s: Setup, d: Draft) -> None:
    """The "Are you Ben?" page and its button, the scorekeeper's release."""
    d.args["seat"] = str(rng.randint(0, 9))
    if d.route.method == "GET":
        d.client = rng.choice(["anon", "editor", "bare"])
        return
    _page_form(d, rng.choice(["editor", "anon"]))


def g_save_seat(rng: random.Random, s: Setup, d: Draft) -> None:
    _page_form(d, rng.choice(["editor", "anon"]))
    d.args["seat"] = str(rng.randint(0, 9))
    d.args["number"] = str(_number(rng))
    hand = _seat_hand(rng, d)
    words = " ".join(w if isinstance(w, str) else "-".join(w) for w in hand["words"])
    assert d.form is not None
    d.form += [("words", words), ("unused", " ".join(hand["unused"]))]
    if hand.get("went_out"):
        d.form.append(("went_out", "y"))
    if rng.random() < 0.7:
        d.form.append(("version", str(rng.randint(0, 5))))
    _photo(rng, d, "photo")


def g_round_live(rng: random.Random, s: Setup, d: Draft) -> None:
    d.client = rng.choice(["anon", "editor", "bare"])
    if d.table is not None and rng.random() < 0.5:
        d.headers["If-None-Match"] = f'"{d.table.id}-{rng.randint(1, 60)}-1-0-"'


def g_page_challenge(rng: random.Random, s: Setup, d: Draft) -> None:
    _page_form(d)
    count = len(d.table.names) if d.table and d.table.names else 3
    by, seat = rng.sample(range(count), 2)
    d.form = [
        ("by", str(by)),
        ("word", f"{seat}:{rng.randint(0, 3)}"),
        ("ruling", rng.choice(["", "legal", "illegal"])),
    ]


def g_solitaire_start(rng: random.Random, s: Setup, d: Draft) -> None:
    if d.route.method == "GET":
        d.client = rng.choice(["anon", "creator", "bare"])
        return
    _page_form(d, "creator")
    cards = OPENING if rng.random() < 0.5 else " ".join(rng.sample(DECK, rng.choice([8, 8, 7, 9])))
    d.form = [
        ("face_up", cards),
        ("min_word", rng.choice(["cards", "letters"])),
        ("lexicon", rng.choice(s.lexicons)),
    ]
    d.form.append(("practice", "1") if rng.random() < 0.3 else ("cards", "1"))


def g_solitaire_show(rng: random.Random, s: Setup, d: Draft) -> None:
    d.client = rng.choice(["editor", "editor", "anon", "bare"])
    if rng.random() < 0.3:
        d.query.append(("hint", "1"))


def g_solitaire_step(rng: random.Random, s: Setup, d: Draft) -> None:
    _page_form(d)
    kind = rng.choice(["word", "word", "reveal", "refill", "undo"])
    d.args["kind"] = kind
    piles = {
        "word": rng.choice(["1 2 3", "3 4 1", "8 7", "1 2 3 4 5 6 7 8", "5 6"]),
        "reveal": str(rng.randint(1, 8)),
        "refill": f"{rng.randint(1, 8)} {rng.randint(1, 8)}",
        "undo": "",
    }[kind]
    d.form = [("piles", piles)]
    if kind == "reveal":
        d.form.append(("card", rng.choice(CARD_NAMES)))
    if rng.random() < 0.3:
        d.form.append(("version", str(rng.randint(0, 40))))


def g_score_page(rng: random.Random, s: Setup, d: Draft) -> None:
    if d.route.method == "GET":
        d.client = rng.choice(["anon", "bare"])
        return
    _page_form(d, "anon")
    names = _names(rng, None)
    number = _number(rng)
    body = round_body(rng, names, number)
    assert d.form is not None
    if rng.random() < 0.5:
        d.form.append(("round", str(number)))
    for i, p in enumerate(body["players"]):
        d.form.append((f"players-{i}-name", p["name"]))
        words = " ".join(w if isinstance(w, str) else "-".join(w) for w in p["words"])
        d.form.append((f"players-{i}-words", words))
        d.form.append((f"players-{i}-unused", " ".join(p["unused"])))
        if p.get("went_out"):
            d.form.append((f"players-{i}-went_out", "y"))
    if rng.random() < 0.4:
        by, player = rng.sample(range(1, len(names) + 1), 2)
        d.form += [
            ("challenges-0-by", str(by)),
            ("challenges-0-player", str(player)),
            ("challenges-0-word", str(rng.randint(1, 3))),
            ("challenges-0-ruling", rng.choice(["", "legal", "illegal"])),
        ]
    d.form += _rules_form(rng, s)


def g_check_word(rng: random.Random, s: Setup, d: Draft) -> None:
    d.client = rng.choice(["anon", "bare"])
    if rng.random() < 0.9:
        d.query.append(("word", rng.choice(WORDS)))
    if rng.random() < 0.6:
        d.query.append(("lexicon", rng.choice(s.lexicons)))


def g_judge_page(rng: random.Random, s: Setup, d: Draft) -> None:
    if d.route.method == "GET":
        d.client = rng.choice(["anon", "bare"])
        return
    _page_form(d, "anon")
    d.form = [
        ("words", " ".join(rng.sample(WORDS, rng.randint(1, 4)))),
        ("lexicon", rng.choice(s.lexicons)),
        ("second", rng.choice(["", *s.lexicons])),
    ]


def g_confirm(rng: random.Random, s: Setup, d: Draft) -> None:
    """Delete a game or a table: mostly its confirm page, rarely for good (the fuzzer makes
    it again: ``Setup.restore``)."""
    _page_form(d)
    assert d.form is not None
    pick = rng.random()
    if pick < 0.06:
        d.form.append(("confirm", "yes"))
    elif pick < 0.3:
        d.form.append(("confirm", rng.choice(["no", "YES", "yes ", "", "1", "\ud800"])))


def g_table_read(rng: random.Random, s: Setup, d: Draft) -> None:
    """A table's page or backup: by anyone with its link, or its editor."""
    d.client = rng.choice(["anon", "editor", "editor", "bare"])
    if rng.random() < 0.15:
        d.query.append(("created", "1"))


def g_table_join(rng: random.Random, s: Setup, d: Draft) -> None:
    """A table's edit link: its own token, another table's, or a game's."""
    d.client = rng.choice(["bare", "bare", "anon", "editor"])
    if d.table is not None:
        pick = rng.random()
        token = d.table.token
        if pick > 0.85:
            token = rng.choice(s.games).token
        elif pick > 0.7 and s.tables:
            token = rng.choice(s.tables).token
        d.args["token"] = seg(token)


def g_table_player(rng: random.Random, s: Setup, d: Draft) -> None:
    """A member's records: a member of this table, of the other, or no member's id."""
    d.client = rng.choice(["anon", "editor", "bare"])
    pick = rng.random()
    own = d.table.members if d.table else []
    others = [m for t in s.tables for m in t.members]
    if pick < 0.75 and own:
        d.args["member_id"] = str(rng.choice(own))
    elif pick < 0.9 and others:
        d.args["member_id"] = str(rng.choice(others))
    else:
        d.args["member_id"] = rng.choice(["0", "-1", "99999", str(2**63), "9" * 30, "00001"])


def _table_form(rng: random.Random, s: Setup, table: Table | None) -> list[tuple[str, Any]]:
    """The table form: its name, its rows of members (name, member id), the bonus box.
    For a stored table its members as they are, then some changed: renamed, reordered,
    one taken off (blank name), one added, another table's member id, blank rows, 21."""
    rows: list[tuple[str, str]] = []
    if table is not None:
        rows = [(n, str(m)) for n, m in zip(table.names, table.members, strict=False)]
    else:
        rows = [(n, "") for n in rng.choice([THREE, EIGHT, ["Ann", "ann"], ["Solo"]])]
    for _ in range(rng.choice([0, 0, 1, 2])):
        op = rng.random()
        if op < 0.2 and rows:
            i = rng.randrange(len(rows))
            rows[i] = (rng.choice(["", " ", rows[i][0].upper(), rows[i][0] + "y"]), rows[i][1])
        elif op < 0.35:
            rows.insert(rng.randint(0, len(rows)), (rng.choice(["Zed", "Ann", "ÅSA"]), ""))
        elif op < 0.5:
            rng.shuffle(rows)
        elif op < 0.6 and rows:
            other = [m for t in s.tables for m in t.members]
            i = rng.randrange(len(rows))
            rows[i] = (rows[i][0], str(rng.choice(other)) if other else "1")
        elif op < 0.7:
            rows.insert(rng.randint(0, len(rows)), ("", ""))
        elif op < 0.8:
            rows = [(f"P{i}", "") for i in range(rng.choice([19, 20, 21]))]
        elif rows:
            i = rng.randrange(len(rows))
            rows[i] = (rows[i][0], rng.choice(["x", "-1", "0", "1.5", "9" * 40, " 3 "]))
    form: list[tuple[str, Any]] = [
        ("name", rng.choice(["Sunday family", "", "T" * 61, "Friends", "  ", table.names[0]
                             if table and table.names else "X"])),
    ]
    for i, (name, member) in enumerate(rows):
        form.append((f"members-{i}-name", name))
        if member or rng.random() < 0.3:
            form.append((f"members-{i}-member", member))
    if rng.random() < 0.5:
        form.append(("alternate_bonus", rng.choice(["y", "y", "on", ""])))
    return form


def g_table_new(rng: random.Random, s: Setup, d: Draft) -> None:
    if d.route.method == "GET":
        d.client = rng.choice(["anon", "creator", "bare"])
        return
    _page_form(d, "creator")
    d.form = _table_form(rng, s, None)


def g_table_update(rng: random.Random, s: Setup, d: Draft) -> None:
    _page_form(d, rng.choice(["editor", "editor", "editor", "anon"]))
    d.form = _table_form(rng, s, d.table)


def _odd_backup(rng: random.Random, s: Setup) -> bytes:
    """A backup file: the export of a table as it is, or changed (JSON mutations: wrong
    types, huge numbers, lone surrogates, deep nesting, a key dropped or added), cut
    short, re-encoded, or another kind of file."""
    base = s.backup or b"{}"
    pick = rng.random()
    if pick < 0.15:
        return base
    if pick < 0.45:
        value = json.loads(base)
        for _ in range(rng.choice([1, 1, 2, 3])):
            value, _note = mutate_json(rng, value)
        return encode_json(rng, value)
    if pick < 0.6:
        value = json.loads(base)
        leaves = [p for p in _paths(value) if p and not isinstance(_get(value, p), dict | list)]
        value = _replace(value, rng.choice(leaves), rng.choice(BACKUP_ODD))
        return encode_json(rng, value)
    if pick < 0.7:
        return base[: rng.randrange(len(base))]
    if pick < 0.75:
        return base.decode().encode(rng.choice(["utf-16", "utf-32", "latin-1"]), "replace")
    if pick < 0.8:
        return b"\xef\xbb\xbf" + base
    if pick < 0.85:
        depth = rng.choice([100, 1000, 100_000])
        return b'{"format": ' + b"[" * depth + b"]" * depth + b"}"
    if pick < 0.9:
        value = json.loads(base)
        value[rng.choice(["version", "format", "games", "table"])] = Raw(
            rng.choice(["1e400", HUGE, "-" + HUGE, "NaN"])
        )
        return encode_json(rng, value)
    if pick < 0.998:
        return rng.choice(MALFORMED)
    return b" " * (16 * 1024 * 1024 + 1)  # over the largest file taken


def g_table_import(rng: random.Random, s: Setup, d: Draft) -> None:
    if d.route.method == "GET":
        d.client = rng.choice(["anon", "creator", "bare"])
        return
    _page_form(d, rng.choice(["creator", "anon"]))
    name = rng.choice(["backup.json", "backup.json", "", "t.csv", "\r\n.json", "ü.json"])
    d.form = [("file", Upload(name, _odd_backup(rng, s)))]
    d.multipart = True


def g_static(rng: random.Random, s: Setup, d: Draft) -> None:
    d.client = "bare"
    if s.static:
        d.args["filename"] = "/".join(seg(p) for p in rng.choice(s.static).split("/"))
    if rng.random() < 0.2:
        d.headers["Range"] = rng.choice(["bytes=0-10", "bytes=5-", "bytes=-3"])


def g_generic(rng: random.Random, s: Setup, d: Draft) -> None:
    """A route this script does not know yet: a JSON body for the API, a form elsewhere."""
    if d.route.method == "GET":
        d.client = rng.choice(["anon", "editor", "bare"])
        return
    if d.route.rule.startswith("/api/"):
        _auth(rng, d)
        d.json = rng.choice([{}, _challenge(rng, _names(rng, d.table)), {"allowed": True}])
    else:
        _page_form(d)
        d.form = [(k, rng.choice(JUNK_STRINGS[:8])) for k in ("word", "piles", "name", "version")]


GENERATORS: dict[str, Callable[[random.Random, Setup, Draft], None]] = {
    "api.cards": g_cards,
    "api.spell": g_spell,
    "api.score": g_score,
    "api.word": g_word,
    "api.judge": g_judge_api,
    "api.best": g_best,
    "api.create_game": g_create_game,
    "api.get_game": g_get_game,
    "api.put_round": g_put_round,
    "api.post_challenge": g_post_challenge,
    "api.delete_challenge": g_auth_only,
    "api.put_vote": g_vote,
    "api.decide_vote": g_vote,
    "api.close_or_reopen": g_auth_only,
    "api.put_house_word": g_put_house_word,
    "api.delete_house_word": g_auth_only,
    "games.home": g_home,
    "games.new_game": g_new_game,
    "games.join": g_join,
    "games.view": g_view,
    "games.board": g_board,
    "games.add_house_word": g_add_house_word,
    "games.remove_house_word": g_page_action,
    "games.export_json": g_read,
    "games.export_csv": g_read,
    "rounds.show": g_read,
    "rounds.save": g_save_round,
    "rounds.challenge": g_page_challenge,
    "rounds.withdraw": g_page_action,
    "rounds.close_or_reopen": g_page_action,
    "rounds.save_seat": g_save_seat,
    "rounds.live": g_round_live,
    "api.claim_seat": g_seat_claim,
    "api.release_seat": g_seat_claim,
    "api.put_seat": g_put_seat,
    "seats.claim_page": g_seat_page,
    "seats.claim": g_seat_page,
    "seats.release": g_seat_page,
    "solitaire.start": g_solitaire_start,
    "solitaire.show": g_solitaire_show,
    "solitaire.step": g_solitaire_step,
    "scorer.index": g_score_page,
    "referee.check_word": g_check_word,
    "referee.judge": g_judge_page,
    "static": g_static,
    "games.rematch": g_page_action,
    "games.put_away": g_page_action,
    "games.delete": g_confirm,
    "recap.page": g_read,
    "recap.svg": g_read,
    "recap.png": g_read,
    "tables.new_table": g_table_new,
    "tables.view": g_table_read,
    "tables.update": g_table_update,
    "tables.join": g_table_join,
    "tables.put_away": g_page_action,
    "tables.delete": g_confirm,
    "tables.player": g_table_player,
    "backup.export_json": g_table_read,
    "backup.export_csv": g_table_read,
    "backup.import_table": g_table_import,
}


def _default_arg(
    rng: random.Random, s: Setup, d: Draft, conv: str, conv_args: str, name: str
) -> str:
    if name in ("game_id", "group_id"):
        return seg(d.table.id) if d.table else "nope"
    if name == "member_id":
        return str(rng.choice(d.table.members)) if d.table and d.table.members else "1"
    if name == "token":
        return seg(d.table.token) if d.table else "nope"
    if name == "number":
        return str(_number(rng))
    if name == "n":
        return str(rng.randint(0, 6))
    if name == "word":
        return seg(rng.choice(HOUSE_WORDS))
    if name == "filename":
        return rng.choice(s.static) if s.static else "style.css"
    if conv == "any":
        return seg(rng.choice([a.strip().strip("'\"") for a in conv_args.split(",")]))
    if conv == "int":
        return str(rng.randint(0, 10))
    return seg(rng.choice(WORDS))


# --- mutations -----------------------------------------------------------------------------


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            found += _paths(v, (*path, k))
    elif isinstance(value, list) and value is not NESTED:
        for i, v in enumerate(value):
            found += _paths(v, (*path, i))
    return found


def _replace(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _replace(value[head], rest, new)}
    copy = list(value)
    copy[head] = _replace(copy[head], rest, new)
    return copy


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


def mutate_json(rng: random.Random, value: Any) -> tuple[Any, str]:
    path = rng.choice(_paths(value))
    target = _get(value, path)
    op = rng.random()
    where = "/".join(map(str, path)) or "body"
    if op < 0.55:
        return _replace(value, path, rng.choice(JUNK_VALUES)), f"json {where}=junk"
    if op < 0.65 and isinstance(target, dict) and target:
        key = rng.choice(sorted(target))
        return _replace(value, path, {k: v for k, v in target.items() if k != key}), (
            f"json drop {where}/{key}"
        )
    if op < 0.75 and isinstance(target, dict):
        key = rng.choice(["extra", "", "\ud800", "²", "a" * 500, "players", "rules", "round"])
        return _replace(value, path, {**target, key: rng.choice(JUNK_VALUES)}), (
            f"json add key at {where}"
        )
    if op < 0.85:
        return _replace(value, path, [target]), f"json wrap {where} in a list"
    if op < 0.92 and isinstance(target, list):
        many = target * rng.choice([50, 1000]) if target else [None] * 1000
        return _replace(value, path, many), f"json repeat {where}"
    return _replace(value, path, Raw(rng.choice(["NaN", "1e400", HUGE, "-" + HUGE]))), (
        f"json {where}=literal"
    )


def mutate_form(rng: random.Random, d: Draft) -> str:
    form = d.form if d.form is not None else []
    op = rng.random()
    if op < 0.45 and form:
        i = rng.randrange(len(form))
        form[i] = (form[i][0], rng.choice(JUNK_STRINGS))
        return f"form {form[i][0]}=junk"
    if op < 0.55 and form:
        i = rng.randrange(len(form))
        name = form.pop(i)[0]
        return f"form drop {name}"
    if op < 0.65 and form:
        i = rng.randrange(len(form))
        form.append((form[i][0], rng.choice(JUNK_STRINGS)))
        return f"form repeat {form[i][0]}"
    if op < 0.72:
        name = rng.choice(
            ["extra", "players-9-words", "players-99-name", "challenges-7-by", "rules-x", "a" * 300]
        )
        form.append((name, rng.choice(JUNK_STRINGS)))
        return f"form add {name[:20]}"
    if op < 0.85 and form:
        i = rng.randrange(len(form))
        form[i] = (form[i][0], Upload(rng.choice(["a.txt", "", "\r\n.txt"]), b"qu-i-z"))
        d.multipart = True
        return f"form {form[i][0]} as a file"
    if op < 0.93:
        d.multipart = True
        name = rng.choice(["a\r\nb", "word\r\n\r\nx", 'we"ird', "x\nContent-Type: text/plain",
                           "\r\n", "csrf_token\r\n", "players-0-words\rX"])
        form.append((name, "qu-i-z"))
        return "multipart part name with CR/LF"
    d.multipart = True
    return "form as multipart"


def csrf_choice(rng: random.Random, s: Setup, d: Draft) -> tuple[str | None, str]:
    own = s.csrf.get(d.client)
    other = s.csrf["anon" if d.client != "anon" else "editor"]
    pick = rng.random()
    if pick < 0.2:
        return None, "no CSRF token"
    if pick < 0.4:
        return other, "another session's CSRF token"
    if pick < 0.5 and own:
        return own[:-3] + "abc", "a changed CSRF token"
    if pick < 0.6 and own:
        d.headers["X-CSRFToken"] = own
        return None, "CSRF token in the header"
    return rng.choice(["", "junk", HUGE, "²", "\ud800", "a.b.c"]), "junk CSRF token"


def mutate(rng: random.Random, s: Setup, d: Draft) -> None:
    """One change to a valid request."""
    op = rng.random()
    if op < 0.25 and d.json is not NOTHING:
        d.json, note = mutate_json(rng, d.json)
        d.notes.append(note)
    elif op < 0.25 and d.form is not None:
        d.notes.append(mutate_form(rng, d))
    elif op < 0.32 and d.csrf:
        d.csrf_token, note = csrf_choice(rng, s, d)
        d.csrf = False
        d.notes.append(note)
    elif op < 0.38 and d.form is not None and s.csrf.get(d.client):
        # the form sent as JSON, with the CSRF token in the header: Flask-WTF reads it
        d.json = {k: v for k, v in d.form if not isinstance(v, Upload)}
        if rng.random() < 0.7:
            d.json, _ = mutate_json(rng, d.json)
        if rng.random() < 0.2:
            d.json = rng.choice([[1, 2], ["a"], [["word", "a", "b"]], "x", 5, None, NESTED])
        d.headers["X-CSRFToken"] = s.csrf[d.client]
        d.form, d.csrf = None, False
        d.notes.append("form sent as JSON")
    elif op < 0.45:
        d.raw = rng.choice(MALFORMED)
        d.notes.append("malformed body")
    elif op < 0.52:
        d.content_type = rng.choice(CONTENT_TYPES)
        d.notes.append("content type")
    elif op < 0.68:
        name = rng.choice(sorted(ODD_HEADERS))
        d.headers[name] = rng.choice(ODD_HEADERS[name])
        if name == "Cookie":
            d.client = "bare"
        d.notes.append(f"header {name}")
    elif op < 0.76:
        d.raw_query = rng.choice(JUNK_QUERIES)
        if rng.random() < 0.5:
            d.raw_query = "&".join(f"{k}={seg(v)}" for k, v in d.query) + "&" + d.raw_query
        d.notes.append("query")
    elif op < 0.86:
        names = [m[3] for m in _ARG.finditer(d.route.rule)]
        if names:
            name = rng.choice(names)
            d.args[name] = rng.choice(JUNK_SEGMENTS)
            d.notes.append(f"path {name}")
    elif op < 0.9:
        d.client = rng.choice(["anon", "bare", "creator"])
        d.notes.append("client without the edit right")
    elif op < 0.93:
        d.method = rng.choice(["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "FOO"])
        d.notes.append("method")
    elif op < 0.97 and d.table is not None:
        d.headers["Authorization"] = rng.choice(
            [f"Bearer {rng.choice(s.games).token}", f"Bearer {d.table.token}x",
             f"bearer  {d.table.token} ", f"Bearer {d.table.token[:-1]}\xb2"]
        )
        d.notes.append("bearer token")
    else:
        d.query.append((rng.choice(["lexicon", "game", "word", "hint", "created"]),
                        rng.choice(JUNK_STRINGS)))
        d.notes.append("query value")


# --- encoding and sending ------------------------------------------------------------------


def encode_json(rng: random.Random, value: Any) -> bytes:
    raws: list[Raw] = []

    def swap(v: Any) -> Any:
        if isinstance(v, Raw):
            raws.append(v)
            return f"\x01RAW{len(raws) - 1}\x01"
        if isinstance(v, dict):
            return {k: swap(x) for k, x in v.items()}
        if isinstance(v, list):
            return [swap(x) for x in v]
        return v

    ascii_only = rng.random() < 0.5
    text = json.dumps(swap(value), ensure_ascii=ascii_only)
    for i, raw in enumerate(raws):
        text = text.replace(json.dumps(f"\x01RAW{i}\x01", ensure_ascii=ascii_only), str(raw))
    return text.encode("utf-8", "surrogatepass")


def encode_multipart(rng: random.Random, pairs: list[tuple[str, Any]]) -> tuple[bytes, str]:
    boundary = f"fuzz{rng.randrange(10**8)}".encode()
    out = b""
    for name, value in pairs:
        nb = name.encode("utf-8", "surrogatepass")
        if isinstance(value, Upload):
            head = (
                b'Content-Disposition: form-data; name="' + nb + b'"; filename="'
                + value.filename.encode() + b'"\r\nContent-Type: text/plain'
            )
            data = value.data
        else:
            head = b'Content-Disposition: form-data; name="' + nb + b'"'
            data = str(value).encode("utf-8", "surrogatepass")
        out += b"--" + boundary + b"\r\n" + head + b"\r\n\r\n" + data + b"\r\n"
    if rng.random() < 0.9:
        out += b"--" + boundary + b"--\r\n"
    return out, "multipart/form-data; boundary=" + boundary.decode()


def make_request(rng: random.Random, s: Setup, route: Route) -> Req:
    """A request for ``route``: valid, or (most often) with one to three mutations."""
    pool = s.games
    if route.rule.startswith("/solitaire/"):
        pool = s.solitaire
    elif route.rule.startswith("/tables/"):
        pool = s.tables
    if pool is not s.solitaire and rng.random() < 0.15:  # what an import stored, if any
        pool = (s.imported if pool is s.tables else s.imported_games) or pool
    table = rng.choice(pool) if pool else None
    d = Draft(route, table, method=route.method)
    GENERATORS.get(route.endpoint, g_generic)(rng, s, d)
    if rng.random() < 0.65:
        for _ in range(rng.choice([1, 1, 1, 2, 3])):
            mutate(rng, s, d)
    return encode(rng, s, d)


def encode(rng: random.Random, s: Setup, d: Draft) -> Req:
    values = {
        m[3]: d.args.get(m[3]) or _default_arg(rng, s, d, m[1] or "", m[2] or "", m[3])
        for m in _ARG.finditer(d.route.rule)
    }
    path = _ARG.sub(lambda m: values[m[3]], d.route.rule)
    if d.csrf:
        d.csrf_token = s.csrf.get(d.client)
    body, ctype = b"", None
    if d.raw is not None:
        body = d.raw
        ctype = "application/json" if d.json is not NOTHING else None
        if d.form is not None:
            ctype = "application/x-www-form-urlencoded"
    elif d.json is not NOTHING:
        body, ctype = encode_json(rng, d.json), "application/json"
    elif d.form is not None:
        pairs = list(d.form)
        if d.csrf_token is not None:
            pairs.insert(rng.randrange(len(pairs) + 1), ("csrf_token", d.csrf_token))
        if d.multipart:
            body, ctype = encode_multipart(rng, pairs)
        else:
            text = urlencode([(k, str(v)) for k, v in pairs], errors="surrogatepass")
            body, ctype = text.encode("ascii"), "application/x-www-form-urlencoded"
    if d.content_type is not NOTHING:
        ctype = d.content_type
    query = d.raw_query or "&".join(f"{seg(k)}={seg(v)}" for k, v in d.query)
    headers = [(k, latin1(v)) for k, v in d.headers.items()]
    return Req(d.method, path, d.route.rule, d.client, query, headers, body, ctype,
               tuple(d.notes))


# --- running and reporting -----------------------------------------------------------------


@dataclass
class Failure:
    """One distinct (method, route rule, exception): how often, and the smallest example."""

    method: str
    rule: str
    cause: str
    message: str
    status: int
    count: int
    example: Req
    trace: str


@dataclass
class Report:
    requests: int = 0
    statuses: Counter[int] = field(default_factory=Counter)
    seconds: float = 0.0
    failures: dict[tuple[str, str, str], Failure] = field(default_factory=dict)
    unsent: Counter[str] = field(default_factory=Counter)
    """Requests the test client refused to build (a bug of this script, not of the app)."""
    slow: Counter[str] = field(default_factory=Counter)
    """Seconds spent per route rule."""

    @property
    def server_errors(self) -> int:
        return sum(n for status, n in self.statuses.items() if status >= 500)

    def summary(self) -> str:
        rate = self.requests / self.seconds if self.seconds else 0.0
        lines = [
            f"{self.requests} requests in {self.seconds:.1f} s: {rate:,.0f} requests/s",
            "status counts: " + ", ".join(f"{k}: {n}" for k, n in sorted(self.statuses.items())),
        ]
        if self.unsent:
            lines.append(f"not sent (client-side errors): {dict(self.unsent)}")
        slowest = ", ".join(f"{rule} {secs:.1f} s" for rule, secs in self.slow.most_common(4))
        lines.append(f"most time: {slowest}")
        lines.append(
            f"responses >= 500: {self.server_errors}, distinct (method, route, exception): "
            f"{len(self.failures)}"
        )
        return "\n".join(lines)

    def describe_failures(self, traces: bool = False) -> str:
        out = []
        for f in sorted(self.failures.values(), key=lambda f: (f.rule, f.method, f.cause)):
            out.append(f"[{f.status}] {f.method} {f.rule}  x{f.count}\n    {f.cause}: "
                       f"{_short(f.message, 160)}")
            example = f.example.describe().replace("\n", "\n      ")
            out.append(f"    smallest example:\n      {example}")
            if traces:
                out.append("    " + f.trace.rstrip().replace("\n", "\n    "))
        return "\n".join(out)


def smaller(req: Req) -> Iterator[Req]:
    """Requests a little smaller than ``req``, smallest change first."""
    for i in range(len(req.headers)):
        yield replace(req, headers=req.headers[:i] + req.headers[i + 1 :])
    if req.query:
        yield replace(req, query="")
    if not req.body:
        return
    yield replace(req, body=b"")
    ctype = req.content_type or ""
    body = req.body
    if ctype.startswith("application/x-www-form-urlencoded"):
        parts = body.split(b"&")
        for i in range(len(parts)):
            yield replace(req, body=b"&".join(parts[:i] + parts[i + 1 :]))
    elif ctype.startswith("multipart/form-data") and "boundary=" in ctype:
        boundary = b"--" + ctype.split("boundary=", 1)[1].encode("latin-1")
        chunks = body.split(boundary)
        for i in range(1, len(chunks) - 1):
            yield replace(req, body=boundary.join(chunks[:i] + chunks[i + 1 :]))
    else:
        try:
            value = json.loads(body)
        except (ValueError, RecursionError):
            value = NOTHING
        if value is not NOTHING:
            for less in _smaller_json(value):
                text = json.dumps(less, ensure_ascii=False).encode("utf-8", "surrogatepass")
                if len(text) < len(body):
                    yield replace(req, body=text)
        if len(body) > 32:
            yield replace(req, body=body[: len(body) // 2])
    if req.content_type is not None:
        yield replace(req, content_type=None)


def _smaller_json(value: Any, depth: int = 0) -> Iterator[Any]:
    """``value`` with one key or item left out (two levels deep)."""
    if isinstance(value, dict):
        for key in list(value):
            yield {k: v for k, v in value.items() if k != key}
        if depth < 1:
            for key, inner in value.items():
                for less in _smaller_json(inner, depth + 1):
                    yield {**value, key: less}
    elif isinstance(value, list):
        if len(value) > 4:
            yield value[: len(value) // 2]
        for i in range(len(value)):
            yield value[:i] + value[i + 1 :]
        if depth < 1:
            for i, inner in enumerate(value):
                for less in _smaller_json(inner, depth + 1):
                    yield [*value[:i], less, *value[i + 1 :]]


class Catcher(logging.Handler):
    """Keeps the exceptions the app logs (every 500 logs one) with the rule that raised."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.caught: list[tuple[str, BaseException]] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info and record.exc_info[1] is not None:
            rule = "(no route)"
            if has_request_context() and request.url_rule is not None:
                rule = request.url_rule.rule
            self.caught.append((rule, record.exc_info[1]))


def _where(exc: BaseException) -> str:
    """Where ``exc`` was raised: its type and the innermost frame of the app (else the last)."""
    frames = traceback.extract_tb(exc.__traceback__)
    ours = [f for f in frames if "companion" in Path(f.filename).parts]
    name = type(exc).__qualname__
    if not frames:
        return name
    frame = (ours or frames)[-1]
    where = f"{name} at {_file(frame.filename)}:{frame.lineno} in {frame.name}"
    if frames[-1] is not frame:
        where += f" (raised in {_file(frames[-1].filename)}:{frames[-1].lineno})"
    return where


def _file(filename: str) -> str:
    """A source file named from its package down (companion/..., werkzeug/...)."""
    parts = Path(filename).parts
    if "companion" in parts:
        return "/".join(parts[parts.index("companion") :])
    if "site-packages" in parts:
        return "/".join(parts[parts.index("site-packages") + 1 :])
    return "/".join(parts[-2:])


class Fuzzer:
    """Sends requests to the app of ``setup`` and keeps the report."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        app = setup.app
        self.catcher = Catcher()
        from flask.logging import default_handler

        app.logger.removeHandler(default_handler)
        app.logger.addHandler(self.catcher)
        app.logger.propagate = False
        inner = app.wsgi_app
        catcher = self.catcher

        def guarded(environ: dict[str, Any], start_response: Any) -> Any:
            try:
                return inner(environ, start_response)
            except Exception as exc:  # escaped the app: a real server answers 500
                catcher.caught.append(("(escaped the app)", exc))
                start_response("500 INTERNAL SERVER ERROR", [("Content-Type", "text/plain")])
                return [b"escaped"]

        app.wsgi_app = guarded
        self.report = Report()
        self.location = ""
        """The Location of the latest answer (where an import's new table is)."""

    def _open(self, req: Req) -> int | None:
        """Send ``req``; its status (None if the test client could not send it)."""
        client = self.setup.clients[req.client]
        self.catcher.caught.clear()
        try:
            response = client.open(
                req.path,
                method=req.method,
                query_string=req.query,
                headers=req.headers,
                data=req.body,
                content_type=req.content_type,
            )
        except Exception as exc:  # the test client could not build or send it
            self.report.unsent[type(exc).__name__] += 1
            return None
        status = response.status_code
        self.location = response.headers.get("Location", "")
        response.close()
        return status

    def _cause(self, req: Req, status: int) -> tuple[tuple[str, str, str], str, str]:
        """The failure's key (method, rule, cause), its message and traceback."""
        if self.catcher.caught:
            rule, exc = self.catcher.caught[-1]
            return ((req.method, rule, _where(exc)), str(exc),
                    "".join(traceback.format_exception(exc)))
        return (req.method, req.rule, "no exception logged"), f"status {status}", ""

    def send(self, req: Req) -> int | None:
        """Send ``req`` and count it; keep the failure if it answered 500 or more."""
        started = time.perf_counter()
        status = self._open(req)
        if status is None:
            return None
        self.report.slow[req.rule] += time.perf_counter() - started
        self.report.requests += 1
        self.report.statuses[status] += 1
        if status >= 500:
            key, message, trace = self._cause(req, status)
            found = self.report.failures.get(key)
            if found is None:
                self.report.failures[key] = Failure(*key, message, status, 1, req, trace)
            else:
                found.count += 1
                if req.size() < found.example.size():
                    found.example, found.message = req, message
        return status

    def shrink(self, budget: int = 40) -> None:
        """Make each failure's example smaller: drop headers, the query, parts of the body,
        keeping each change only if the request still fails the same way (at most
        ``budget`` requests per failure; they are not counted in the report)."""
        for key, failure in self.report.failures.items():
            best, left = failure.example, budget
            improved = True
            while improved and left > 0:
                improved = False
                for candidate in smaller(best):
                    if left <= 0:
                        break
                    left -= 1
                    status = self._open(candidate)
                    if status is not None and status >= 500:
                        found, message, _ = self._cause(candidate, status)
                        if found == key:
                            best, failure.message, improved = candidate, message, True
                            break
            if best is not failure.example:
                failure.example = replace(best, notes=(*best.notes, "then shrunk"))

    def run(self, requests: int, seed: int, progress: bool = False) -> Report:
        """Send ``requests`` requests drawn from ``seed`` (the same seed, the same requests)."""
        rng = random.Random(seed)
        table = routes(self.setup.app)
        started = time.perf_counter()
        for i in range(requests):
            route = rng.choice(table)
            if rng.random() < 0.01:  # an address no route has
                route = Route("/" + rng.choice(JUNK_SEGMENTS) + "/x", "(none)", rng.choice(
                    ["GET", "POST"]))
            status = self.send(make_request(rng, self.setup, route))
            if route.endpoint.endswith(".delete") and status is not None and status < 400:
                self.setup.restore()  # a game or table deleted for good: made again
            if route.endpoint == "backup.import_table" and status == 303:
                self.setup.adopt(self.location)
            if i % 200 == 199:
                self.setup.drain()
            if i % 2000 == 1999:
                self.setup.rejoin()
            if progress and i % 10000 == 9999:
                rate = (i + 1) / (time.perf_counter() - started)
                print(f"  {i + 1} requests, {self.report.server_errors} >= 500, {rate:.0f}/s",
                      file=sys.stderr)
        self.report.seconds += time.perf_counter() - started
        return self.report


def fuzz(folder: Path, requests: int, seed: int, lexicon_cache: Path | None = None,
         progress: bool = False) -> Report:
    """Build the app on ``folder``, set it up, send the requests; the report."""
    app = build_app(folder, lexicon_cache)
    setup = set_up(app)
    try:
        fuzzer = Fuzzer(setup)
        report = fuzzer.run(requests, seed, progress)
        fuzzer.shrink()
        return report
    finally:
        with app.app_context():
            from companion.store.db import db

            db.engine.dispose()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--traces", action="store_true", help="print each failure's traceback")
    parser.add_argument(
        "--lexicon-cache", type=Path, help="keep the built lexicons here (default: the temp folder)"
    )
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="fuzz-"))
    try:
        started = time.perf_counter()
        report = fuzz(folder, args.requests, args.seed, args.lexicon_cache, progress=True)
        print(f"seed {args.seed}; set-up and run in {time.perf_counter() - started:.1f} s")
        print(report.summary())
        if report.failures:
            print()
            print(report.describe_failures(args.traces))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 1 if report.server_errors else 0


if __name__ == "__main__":
    sys.exit(main())
