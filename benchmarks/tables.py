"""Many tables on one server, played as phones play them: every request a phone's browser
makes, in its order, through the HTML pages and their forms.

Run (from the checkout, with the app's virtualenv)::

    .venv/bin/python benchmarks/tables.py [--tables 100,300,1000] [--seconds 30] [--runs 3]
        [--round-seconds 180] [--starts run,production] [--generators 2]
        [--database URL] [--url URL [--server-pids PID,...]] [--statuses]

e.g. ``--starts run --tables 5 --seconds 10 --runs 1 --round-seconds 20`` to see the
flow work in a minute (``--statuses`` prints every status the phones got).

For each start and each N of ``--tables``, N games are made through the server's API
(4 to 8 players each, ``POST /api/v1/games``); six more are played through one round,
phone after phone, to warm the server up (every page rendered once per worker process,
as on a server that has run a while); then N tables of phones sit down and play:

- The room fills at 100 phones a second. Each phone has its own cookie jar, its own
  keep-alive connection, its language (``Accept-Language``: the table's, or another one
  for a quarter of the phones) and a browser's cache (``If-None-Match`` /
  ``If-Modified-Since`` for the style sheet and scripts each page names, fetched after the
  page as a browser does, three at a time: two more connections are opened for them the
  first time and kept, as a browser keeps them; ``gzip`` accepted).
- A player's phone opens the view link (``/games/<id>``), waits a moment (2-6 s) while
  the page's script polls the leaderboard, opens its "I am <name>" link (the claim page),
  taps the button after 1-3 s (the form ``POST`` with the CSRF token of the page), and
  follows the redirect to the round page like a browser. The table's scorekeeper is the
  first player's phone: it opens the edit link the API gave before the view link, so it
  holds the edit right in its session, and then claims its seat like the others.
- Every page's live parts (the elements with ``data-live-url``, polled every
  ``data-poll-ms``) are polled as ``static/board.js`` does: at once when the page loads,
  then that long after each answer, with the ETag held (the browser's cache adds it to the
  first poll too); a 200 replaces the part, and on the round page a part whose
  ``data-form`` no longer matches the page's makes the phone load the page again.
  The addresses are read from the markup, never built here.
- One more phone per table (a TV on the table) opens the view link and polls the
  leaderboard fragment (``/games/<id>/board?lang=..``) the game page names.
- A round lasts about ``--round-seconds``: each phone saves its own hand through the seat
  form of its round page (``data-hand`` cards, dealt with the rest of its table from one
  shuffled real deck, so no card goes over its copies) at a random moment between a tenth
  and nine tenths of the round after its page loaded, and loads the page the save sends
  it to. Once its live part shows every hand in, the scorekeeper taps "Close round"
  (1-4 s later, the form in the part), loads the game page it is sent to, and after 1-4 s
  opens "Enter my hand for round n+1". The other phones see the round close in their
  poll, load the round page again (the part's form changed), and 2-8 s later open the
  next round's page from its link. Each table's first round is cut to a random part of
  a round, as if its game had started earlier, so that the saves and closes of the room
  are spread over the measured windows rather than all at their end.
- A page or form that fails is tried again 3 s later, as a person taps again; a form
  refused with a page (a clash, a taken seat) leaves that page shown, its form posted
  again; a seat refused three times makes its phone watch the game page instead.

Once the room has filled and settled (every phone watching its round page or the TV's
board, then 5 s; at most 120 s after the last phone sat down), ``--runs`` windows of
``--seconds`` are measured back to back. Per kind of request (page: every HTML page and
redirect; static: the style sheet and scripts; claim; live poll: the round page's part;
board poll: the leaderboard's; save: a hand; close) it prints how many a second, p50 and
p99 in ms and the errors: a failed connection, no answer in 10 s, or a status a browser
would not expect (a poll: 200/304; a page: 200, or 302/303 for an edit link; a form:
302/303). Each figure is the median of the windows, the worst in brackets. Also: the
errors while the room filled; the CPU of each group of processes, found by their process
ids (the server's process tree; the PostgreSQL backends serving the benchmark's
database; nginx's master and workers; Redis, which other users on this machine may
share; the load generator's own processes; and everything else this machine ran
meanwhile, its other users' work included) in cores (CPU seconds per second); their
memory at the end (proportional set size, MiB); and the staleness: from the moment a
save's or a close's answer arrived, how long until each other phone of that table
watching the game by then (its round page or the leaderboard shown) has seen the change
(a ``data-version`` at least the one the saving phone's next page shows) in a poll
answer or a page, p50/p99/max over every phone and change in the windows (the phones
keep going 8 s past the last window so that none is cut short). At the end the games are
read back through ``/api/v1/games/<id>``: the hands entered and rounds closed there must
equal the saves and closes the phones saw succeed.

The starts (``--starts``), each on a database and instance folder of its own:

- ``run``: ``make run``'s server, ``python -m companion.serve`` (waitress, SQLite), with
  its instance folder in a new temporary folder (never the checkout's);
- ``production``: ``gunicorn -c gunicorn.conf.py`` on PostgreSQL (``scripts/postgres.sh``
  with a database of its own, or ``--database URL``, emptied first) and Redis
  (``scripts/redis.sh``), behind nginx (``scripts/nginx.sh``, the repository's config):
  the phones talk to nginx only.

``--url URL`` loads a server already running instead (games are made there through its
API: its limit on new games must allow N + 6; ``--server-pids`` names its processes for the
CPU and memory figures). Everything listens and is loaded on loopback only.

The load generator (``--generators`` processes, asyncio, keep-alive connections of its
own for each phone, the tables shared out between the processes) shares this machine's
cores with the server: its own CPU is printed, and what the rest of the machine ran
meanwhile ("others"), so that the figures can be read with them in mind. A run fills the
room in N x 7 / 100 seconds (70 s at 1,000 tables), lets it settle (up to 120 s), then
measures the windows.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import json
import math
import multiprocessing
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from html import unescape
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

import psutil
from serving import ROOT, SECRET, deal, free_port

from companion.serve.start import raise_open_files_limit

JOINS_PER_S = 100.0  # phones sitting down a second while the room fills
SETTLE_S = 5.0  # after every phone watches its page (claim made, round page open)
SETTLE_LIMIT_S = 120.0  # the longest wait for that after the last phone sat down
TAIL_S = 8.0  # the phones go on after the last window, for the staleness of its changes
TIMEOUT_S = 10.0
POLL_MS = 3000  # board.js's default, when a page names none
LANGUAGES = ("en", "lt", "hu", "cs")
OTHER_LANGUAGE = 0.25  # the phones reading another language than their table
KINDS = ("page", "static", "claim", "live poll", "board poll", "save", "close")
THINK = {  # a person's pause before the next tap, seconds (low, high)
    "claim link": (2.0, 6.0),
    "claim button": (1.0, 3.0),
    "next round": (2.0, 8.0),
    "close": (1.0, 4.0),
    "after close": (1.0, 4.0),
}
LEXICONS = Path(tempfile.gettempdir()) / "companion-bench-lexicons"  # kept between runs
USER_AGENT = b"Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/126 Mobile Safari"
STATIC_CONNECTIONS = 3  # a page's assets come over this many connections at once
GAME_LIMIT = "1000000 per minute"  # the benchmark makes every game from one address
WARM_UP_TABLES = 6  # played through before measuring: twice per production worker
NGINX = ROOT / "scripts" / "nginx.sh"  # renders the repository's config, starts nginx


# --- pages: what a browser reads in them -----------------------------------------------


TAG = re.compile(rb"<([a-z]+)\b([^>]*)>", re.S)
ATTRIBUTE = re.compile(rb'([a-zA-Z_:-][-a-zA-Z0-9_:.]*)="([^"]*)"')
FORM = re.compile(rb"<form\b([^>]*)>(.*?)</form>", re.S)
INPUT = re.compile(rb"<input\b([^>]*)>", re.S)
VERSION = re.compile(rb'data-version="(\d+)"')


def attributes(text: bytes) -> dict[bytes, str]:
    """The quoted attributes of a tag's text, unescaped."""
    return {k.lower(): unescape(v.decode()) for k, v in ATTRIBUTE.findall(text)}


@dataclass
class Part:
    """A live part of a page (an element with ``data-live-url``), as board.js polls it."""

    url: str
    every: float  # seconds between an answer and the next poll
    form: str | None  # the page's ``data-form`` on it (the round page's), else None
    due: float = 0.0
    first: bool = True  # board.js's first poll only takes the tag


def live_parts(page: bytes) -> list[Part]:
    """The live parts a page's script polls, in the page's order."""
    parts = []
    for _tag, text in TAG.findall(page):
        if b"data-live-url=" not in text:
            continue
        found = attributes(text)
        every = int(found.get(b"data-poll-ms") or POLL_MS) / 1000
        parts.append(Part(found[b"data-live-url"], every, found.get(b"data-form")))
    return parts


def assets(page: bytes) -> list[str]:
    """The style sheets and scripts a page makes the browser fetch, in order."""
    found = []
    for tag, text in TAG.findall(page):
        named = attributes(text)
        if tag == b"link" and named.get(b"rel") == "stylesheet" and b"href" in named:
            found.append(named[b"href"])
        elif tag == b"script" and b"src" in named:
            found.append(named[b"src"])
    return found


@dataclass
class Form:
    action: str
    fields: dict[str, str]
    attributes: dict[bytes, str]


def forms(page: bytes) -> list[Form]:
    """The page's forms: where each posts and its fields' values (the hidden CSRF token
    and version among them; a checkbox only when checked, as a browser sends it)."""
    found = []
    for head, inner in FORM.findall(page):
        named = attributes(head)
        fields = {}
        for text in INPUT.findall(inner):
            one = attributes(text)
            if b"name" not in one:
                continue
            if one.get(b"type") in ("checkbox", "radio") and b"checked" not in text:
                continue
            fields[one[b"name"]] = one.get(b"value", "")
        found.append(Form(named.get(b"action", ""), fields, named))
    return found


def link(page: bytes, pattern: str) -> str | None:
    """The first link whose address matches ``pattern`` (a regular expression)."""
    for tag, text in TAG.findall(page):
        if tag == b"a":
            href = attributes(text).get(b"href", "")
            if re.search(pattern, href):
                return href
    return None


def version_of(body: bytes) -> int | None:
    """The game version a page or a part shows (its ``data-version``), if any."""
    found = VERSION.findall(body)
    return max(int(v) for v in found) if found else None


# --- the wire ------------------------------------------------------------------------------


class Connection:
    """One keep-alive HTTP/1.1 connection, reopened when the server closes it."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def exchange(
        self, request: bytes
    ) -> tuple[int, dict[bytes, bytes], list[bytes], bytes]:
        """Send ``request``, read the whole answer: status, headers, Set-Cookie headers,
        body (gzip undone). A kept connection the server closed meanwhile (idle past its
        keep-alive) is opened again and the request sent once more, as browsers do."""
        reused = self.writer is not None
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None and self.writer is not None
        try:
            self.writer.write(request)
            head = await self.reader.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, ConnectionError) as closed:
            if not reused or (isinstance(closed, asyncio.IncompleteReadError) and closed.partial):
                raise
            self.close()
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
            self.writer.write(request)
            head = await self.reader.readuntil(b"\r\n\r\n")
        lines = head.split(b"\r\n")
        status = int(lines[0].split(b" ", 2)[1])
        headers: dict[bytes, bytes] = {}
        cookies = []
        for line in lines[1:]:
            key, _, value = line.partition(b":")
            key = key.strip().lower()
            if key == b"set-cookie":
                cookies.append(value.strip())
            elif key:
                headers[key] = value.strip()
        body = b""
        if b"chunked" in headers.get(b"transfer-encoding", b"").lower():
            while True:
                size = int((await self.reader.readuntil(b"\r\n")).split(b";")[0], 16)
                body += (await self.reader.readexactly(size + 2))[:size]
                if size == 0:
                    break
        elif length := int(headers.get(b"content-length", b"0")):
            body = await self.reader.readexactly(length)
        if headers.get(b"connection", b"").lower() == b"close":
            self.close()
        if body and headers.get(b"content-encoding", b"").lower() == b"gzip":
            body = zlib.decompress(body, 16 + zlib.MAX_WBITS)
        return status, headers, cookies, body

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


FAILURES = (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError,
            zlib.error)
"""What a failed exchange raises (a timeout is an OSError too, counted apart)."""


# --- what the phones saw -----------------------------------------------------------------


@dataclass
class Tally:
    """What one generator process saw in one stretch of time (a window, or the filling)."""

    times: dict[str, list[float]] = field(default_factory=lambda: {k: [] for k in KINDS})
    errors: Counter[str] = field(default_factory=Counter)
    statuses: Counter[str] = field(default_factory=Counter)

    def as_dict(self) -> dict[str, Any]:
        return {"times": self.times, "errors": dict(self.errors), "statuses": dict(self.statuses)}


@dataclass
class Clock:
    """The run's moments in loop time: the first window (not known while the room fills:
    infinite until then), its length, how many; and the phones still on their way to
    the page they watch, shared with the main process (``arrived``)."""

    first: float
    seconds: float
    windows: list[Tally]
    filling: Tally
    tail: float = TAIL_S
    pending: Any = None  # a multiprocessing Value: phones of this process not watching yet

    def arrived(self) -> None:
        """A phone shows the page it watches from now on (its round, the TV's board)."""
        if self.pending is not None:
            with self.pending.get_lock():
                self.pending.value -= 1

    def tally(self, moment: float) -> Tally | None:
        """The tally a request sent at ``moment`` counts in: the filling's before the first
        window, a window's, or none after the last (the tail)."""
        if moment < self.first:
            return self.filling
        index = int((moment - self.first) // self.seconds)
        return self.windows[index] if index < len(self.windows) else None

    @property
    def end(self) -> float:
        return self.first + self.seconds * len(self.windows)

    @property
    def stop(self) -> float:
        return self.end + self.tail


@dataclass(frozen=True)
class TableSpec:
    """A game made for the benchmark, as the API gave it."""

    game_id: str
    view: str  # the view link's path
    edit: str  # the edit link's path
    names: tuple[str, ...]
    language: str
    seed: int
    first_round: float  # the part of a round the table's first round lasts


@dataclass
class TableRun:
    """A table while it plays: its phones, and the changes made to its game (the moment
    a save or close was answered, the version it made) for the staleness."""

    spec: TableSpec
    phones: list[Phone] = field(default_factory=list)
    changes: list[tuple[float, int, Phone]] = field(default_factory=list)
    saves: int = 0  # answered as a browser expects (303/302), all run long
    closes: int = 0


class Stop(Exception):
    """The run is over for this phone."""


class Phone:
    """One phone's browser: a connection, a cookie jar, a cache, the page it shows."""

    def __init__(self, table: TableRun, language: str, clock: Clock, host: str, port: int,
                 rng: random.Random) -> None:
        self.table, self.language, self.clock, self.rng = table, language, clock, rng
        self.host = f"{host}:{port}".encode()
        self.connection = Connection(host, port)
        self.more: list[Connection] = []  # the connections a page's assets come over too
        self.cookies: dict[bytes, bytes] = {}
        self.cache: dict[str, tuple[bytes, bytes, float]] = {}  # url: etag, date, fresh to
        self.url = ""
        self.page = b""
        self.parts: list[Part] = []
        self.live = b""  # the round page's live part as last shown
        self.refused = b""  # the page a refused form came back with (its forms again)
        self.seen: list[tuple[float, int]] = []  # (moment, version) each time it grew
        self.joined = math.inf  # when it first showed a page it watches (a round's, the TV's)
        self.watching = False  # set once the phone is past joining and claiming
        self.loop = asyncio.get_running_loop()

    # -- one request --

    def _head(self, method: str, url: str, extra: Sequence[bytes]) -> bytes:
        accept = [] if any(h.startswith(b"Accept:") for h in extra) else [b"Accept: */*"]
        lines = [
            f"{method} {url} HTTP/1.1".encode(), b"Host: " + self.host,
            b"User-Agent: " + USER_AGENT, *accept,
            b"Accept-Language: " + self.language.encode() + b",en;q=0.5",
            b"Accept-Encoding: gzip", *extra,
        ]
        if self.cookies:
            lines.append(b"Cookie: " + b"; ".join(k + b"=" + v for k, v in self.cookies.items()))
        return b"\r\n".join(lines) + b"\r\n\r\n"

    async def request(
        self, method: str, url: str, kind: str, ok: tuple[int, ...],
        extra: Sequence[bytes] = (), body: bytes = b"", via: Connection | None = None,
    ) -> tuple[int, dict[bytes, bytes], bytes] | None:
        """One exchange, timed into the tally of the moment it was sent (none after the
        last window); None on an error (counted). Raises Stop once the run is over.
        ``via``: another connection than the phone's own."""
        connection = via or self.connection
        sent = self.loop.time()
        if sent >= self.clock.stop:
            raise Stop
        tally = self.clock.tally(sent)
        try:
            async with asyncio.timeout(TIMEOUT_S):  # no task of its own, as wait_for has
                status, headers, cookies, answer = await connection.exchange(
                    self._head(method, url, extra) + body
                )
        except FAILURES as error:
            connection.close()
            if tally is not None:
                reason = "timeout" if isinstance(error, TimeoutError) else type(error).__name__
                tally.errors[f"{kind}: {reason}"] += 1
            return None
        took = self.loop.time() - sent
        for cookie in cookies:
            name, _, rest = cookie.partition(b"=")
            value = rest.split(b";")[0]
            if value and b"max-age=0" not in cookie.lower():
                self.cookies[name.strip()] = value
            else:
                self.cookies.pop(name.strip(), None)
        if tally is not None:
            tally.statuses[f"{kind} {status}"] += 1
            if status in ok:
                tally.times[kind].append(took)
            else:
                tally.errors[f"{kind}: status {status}"] += 1
        if status not in ok:
            self.refused = answer if b"<form" in answer else b""
            return None
        if answer:
            self.saw(answer)
        return status, headers, answer

    def saw(self, body: bytes) -> None:
        """Note the game version ``body`` shows, for the staleness."""
        version = version_of(body)
        if version is not None and (not self.seen or version > self.seen[-1][1]):
            self.seen.append((self.loop.time(), version))

    # -- a browser's pages --

    async def open(self, url: str, redirects: bool = False) -> bool:
        """Load the page at ``url`` as a browser does (following a redirect), then its
        style sheet and scripts; its live parts start polling. False on an error."""
        for _ in range(5):
            answer = await self.request(
                "GET", url, "page", (200, 302, 303) if redirects else (200,),
                [b"Accept: text/html,application/xhtml+xml"],
            )
            if answer is None:
                return False
            status, headers, body = answer
            if status == 200:
                break
            url = self.location(headers)
        else:
            return False
        await self.fetch_all(assets(body))
        self.show(url, body)
        return True

    async def fetch_all(self, urls: list[str]) -> None:
        """A page's style sheets and scripts, fetched side by side as a browser does:
        over its connection and up to ``STATIC_CONNECTIONS - 1`` more, opened the first
        time and kept (a browser keeps a used connection for minutes; the server may
        close it sooner, and it is opened again when next needed)."""
        wanted = [u for u in urls if not self.fresh(u)]
        while len(self.more) < min(len(wanted), STATIC_CONNECTIONS) - 1:
            self.more.append(Connection(self.connection.host, self.connection.port))
        lanes = [self.connection, *self.more][: max(1, len(wanted))]

        async def lane(connection: Connection, share: list[str]) -> None:
            for url in share:
                await self.fetch(url, connection)

        await asyncio.gather(*(lane(c, wanted[n :: len(lanes)]) for n, c in enumerate(lanes)))

    def hang_up(self) -> None:
        """Close every connection of this phone."""
        for connection in (self.connection, *self.more):
            connection.close()

    def fresh(self, url: str) -> bool:
        """Whether the browser's cache holds ``url`` fresh (not to be asked at all)."""
        held = self.cache.get(url)
        return held is not None and held[2] > self.loop.time()

    def show(self, url: str, body: bytes) -> None:
        """The page ``body`` is the one shown now: its live parts start polling."""
        self.url, self.page, self.live = url, body, body
        self.parts = live_parts(body)
        now = self.loop.time()
        for part in self.parts:
            part.due = now
        if self.watching and self.parts and self.joined == math.inf:
            self.joined = now
            self.clock.arrived()

    def location(self, headers: dict[bytes, bytes]) -> str:
        """Where a redirect sends the browser: its path, without the fragment."""
        target = urlsplit(headers.get(b"location", b"/").decode())
        return target.path + (f"?{target.query}" if target.query else "")

    async def fetch(self, url: str, via: Connection) -> None:
        """A style sheet or script through the browser's cache: not asked while fresh
        (``max-age``), else asked again with what validates the copy held."""
        held = self.cache.get(url)
        if self.fresh(url):
            return
        extra = []
        if held is not None and held[0]:
            extra.append(b"If-None-Match: " + held[0])
        if held is not None and held[1]:
            extra.append(b"If-Modified-Since: " + held[1])
        answer = await self.request("GET", url, "static", (200, 304), extra, via=via)
        if answer is not None:
            self.remember(url, answer[1], held)

    def remember(self, url: str, headers: dict[bytes, bytes],
                 held: tuple[bytes, bytes, float] | None) -> None:
        """Keep an answer's validators and freshness (``max-age``; none under
        ``no-cache``/``no-store``), as a browser's cache does."""
        control = headers.get(b"cache-control", b"").lower()
        fresh = 0.0
        if b"no-store" in control:
            self.cache.pop(url, None)
            return
        found = re.search(rb"max-age=(\d+)", control)
        if found and b"no-cache" not in control:
            fresh = float(found[1])
        tag = headers.get(b"etag") or (held[0] if held else b"")
        date = headers.get(b"last-modified") or (held[1] if held else b"")
        self.cache[url] = (tag, date, self.loop.time() + fresh)

    async def submit(self, form: Form, kind: str, fields: dict[str, str] | None = None) -> bool:
        """Post ``form`` (with ``fields`` changed) as a browser does, and load the page its
        answer sends the browser to. False on an error."""
        data = {**form.fields, **(fields or {})}
        body = urlencode(data).encode()
        origin = b"http://" + self.host
        answer = await self.request(
            "POST", form.action or self.url, kind, (302, 303),
            [b"Content-Type: application/x-www-form-urlencoded",
             b"Content-Length: " + str(len(body)).encode(), b"Origin: " + origin,
             b"Referer: " + origin + self.url.encode()],
            body,
        )
        if answer is None:
            if self.refused:  # the browser shows the page it got: its form, what is saved
                self.show(self.url, self.refused)
                self.refused = b""
            return False
        if kind == "save":
            self.table.saves += 1
        elif kind == "close":
            self.table.closes += 1
        answered = self.loop.time()
        target = self.location(answer[1])
        await retrying(self, lambda: self.open(target))
        if kind in ("save", "close") and self.seen:
            self.table.changes.append((answered, self.seen[-1][1], self))
        return True

    async def poll(self, part: Part) -> bool:
        """One poll of a live part, as board.js makes it; True when the page must be loaded
        again (a round page whose part's form changed)."""
        held = self.cache.get(part.url)
        # fetch(url, {cache: "no-cache"}) adds "max-age=0" (the Fetch standard), and the
        # tag held: the script's, or on its first poll the browser cache's
        extra = [b"Cache-Control: max-age=0"]
        if held and held[0]:
            extra.append(b"If-None-Match: " + held[0])
        kind = "board poll" if "/board" in urlsplit(part.url).path else "live poll"
        answer = await self.request("GET", part.url, kind, (200, 304), extra)
        part.due = self.loop.time() + part.every
        first, part.first = part.first, False
        if answer is None:
            return False
        status, headers, body = answer
        self.remember(part.url, headers, held)
        if status != 200 or first:
            return False
        if part.form is not None:
            self.live = body
            shown = re.search(rb'data-form="([^"]*)"', body)
            if shown and shown[1].decode() != part.form:
                return True
        return False

    async def dwell(self, until: float, done: Callable[[], bool] = lambda: False) -> str:
        """Stay on the page, its parts polled, until ``until`` ("time"), a part asks for
        the page again ("reload"), or ``done()`` after an answer ("done")."""
        while True:
            now = self.loop.time()
            if now >= self.clock.stop:
                raise Stop
            due = min((p.due for p in self.parts), default=math.inf)
            if until <= due:  # nothing to poll first (the end may not be known yet)
                await asyncio.sleep(max(0.0, min(until, self.clock.stop, now + 1.0) - now))
                if self.loop.time() >= self.clock.stop:
                    raise Stop
                if self.loop.time() >= until:
                    return "time"
                continue
            await asyncio.sleep(max(0.0, due - now))
            part = min(self.parts, key=lambda p: p.due)
            if await self.poll(part):
                return "reload"
            if done():
                return "done"

    async def think(self, what: str) -> None:
        """A person's pause before the next tap, the page's parts polled meanwhile; a
        reload asked for meanwhile is made."""
        low, high = THINK[what]
        until = self.loop.time() + self.rng.uniform(low, high)
        while await self.dwell(until) == "reload":
            await retrying(self, lambda: self.open(self.url))


async def retrying(phone: Phone, step: Callable[[], Any], tries: float = math.inf) -> bool:
    """Run ``step()`` (a page or a form) until it works, 3 s between tries (a person
    tapping again after an error), at most ``tries`` times: whether it worked."""
    while not await step():
        tries -= 1
        if tries <= 0:
            return False
        await asyncio.sleep(3.0)
        if phone.loop.time() >= phone.clock.stop:
            raise Stop
    return True


async def watch(phone: Phone) -> None:
    """Stay on the page shown, its parts polled, to the end."""
    while True:
        if await phone.dwell(math.inf) == "reload":
            await retrying(phone, lambda: phone.open(phone.url))


# --- the people ---------------------------------------------------------------------------


async def viewer(phone: Phone, start: float) -> None:
    """The TV on the table: the view link, its leaderboard polled until the end."""
    await asyncio.sleep(max(0.0, start - phone.loop.time()))
    phone.watching = True
    await retrying(phone, lambda: phone.open(phone.table.spec.view))
    await watch(phone)


def all_in_shown(phone: Phone, watching: bool) -> bool:
    """Whether the scorekeeper, ``watching`` for it, sees every hand in."""
    return watching and all_in(phone.live)


def all_in(part: bytes) -> bool:
    """Whether a round's live part shows every hand in, with a form to close it."""
    waiting = part.count(b'class="seat-state waiting"')
    entered = part.count(b'class="seat-state in"')
    return entered > 0 and waiting == 0 and b"/close" in part


async def player(phone: Phone, seat: int, start: float, round_seconds: float) -> None:
    """A player's phone (the first one the scorekeeper's): join, claim the seat, then
    every round save the hand, and (the scorekeeper) close the round once all are in."""
    spec = phone.table.spec
    keeper = seat == 0
    rng = phone.rng
    await asyncio.sleep(max(0.0, start - phone.loop.time()))
    if keeper:  # the edit link: this phone may change the game from now on
        await retrying(phone, lambda: phone.open(spec.edit, redirects=True))
    else:
        await retrying(phone, lambda: phone.open(spec.view))
    await phone.think("claim link")
    claim = link(phone.page, rf"/seats/{seat}$")
    if claim is None:
        raise RuntimeError("no claim link for its seat on the game page")
    await retrying(phone, lambda: phone.open(claim))
    await phone.think("claim button")

    async def claim_seat() -> bool:
        form = next((f for f in forms(phone.page) if f.action.endswith(f"/seats/{seat}")), None)
        if form is None:  # the claim page again after an error: load it
            await phone.open(claim)
            return False
        return await phone.submit(form, "claim")

    phone.watching = True
    if not await retrying(phone, claim_seat, tries=3):  # refused: watch the game instead
        await retrying(phone, lambda: phone.open(spec.view))
        await watch(phone)
    part_of_round = spec.first_round
    while True:  # on a round page
        number_found = re.search(r"/rounds/(\d+)", phone.url)
        if number_found is None:
            raise RuntimeError("a form sent the phone elsewhere than a round page")
        number = int(number_found[1])
        seat_form = next((f for f in forms(phone.page) if f.attributes.get(b"id") == "seat-form"),
                         None)
        save_at = math.inf
        if seat_form is not None:
            span = round_seconds * part_of_round
            save_at = phone.loop.time() + rng.uniform(0.1 * span, 0.9 * span)
        part_of_round = 1.0
        close_at = math.inf
        while True:
            if keeper and close_at == math.inf and all_in(phone.live):
                low, high = THINK["close"]
                close_at = phone.loop.time() + rng.uniform(low, high)
            waiting_to_close = keeper and close_at == math.inf
            waited = await phone.dwell(
                min(save_at, close_at), partial(all_in_shown, phone, waiting_to_close)
            )
            if waited == "reload":
                await retrying(phone, lambda: phone.open(phone.url))
                if not any(part.form == "seat" for part in phone.parts):
                    break  # the round closed (or can't be entered): on to the next
                continue
            if waited == "done":
                continue
            if phone.loop.time() >= save_at:
                save_at = math.inf
                await retrying(phone, partial(save_hand, phone, seat, number))
            elif phone.loop.time() >= close_at:
                form = next((f for f in forms(phone.live) if f.action.endswith("/close")), None)
                if form is None:
                    close_at = math.inf
                    continue
                await retrying(phone, lambda form=form: phone.submit(form, "close"))
                await phone.think("after close")
                break
        if phone.url.endswith(f"/rounds/{number}"):  # the scorekeeper thought already
            await phone.think("next round")
        following = link(phone.page, rf"/rounds/{number + 1}$")
        if following is None:  # the game is over: stay on the page
            await watch(phone)
        await retrying(phone, lambda following=following: phone.open(following))


async def save_hand(phone: Phone, seat: int, number: int) -> bool:
    """Save this seat's hand through the seat form on the page: the hand dealt to it
    from the table's deck for this round, as the boxes take it (words as card names
    joined by dashes, leftovers separated by spaces)."""
    form = next((f for f in forms(phone.page) if f.attributes.get(b"id") == "seat-form"), None)
    if form is None:
        await phone.open(phone.url)
        return False
    spec = phone.table.spec
    size = int(form.attributes.get(b"data-hand") or number + 2)
    hand = deal(number, len(spec.names), size, spec.seed)[seat]
    fields = {
        "words": " ".join("-".join(w) for w in hand["words"]),
        "unused": " ".join(hand["unused"]),
    }
    if hand["went_out"]:
        fields["went_out"] = "y"
    return await phone.submit(form, "save", fields)


# --- a generator process ------------------------------------------------------------------


def generate(specs: list[TableSpec], host: str, port: int, begin: float, joins: list[float],
             shared: tuple[Any, Any], seconds: float, runs: int, round_seconds: float,
             seed: int, out: Any) -> None:
    """A generator process: its share of the tables (``joins``: the moments after
    ``begin``, wall clock, their phones sit down; ``shared``: the first window's moment,
    wall clock, once the main process sets it, and this process's phones not watching
    yet); sends what it saw through ``out``."""
    raise_open_files_limit()  # every phone is a connection: a file descriptor
    result = asyncio.run(
        drive(specs, host, port, begin, joins, shared, seconds, runs, round_seconds, seed)
    )
    out.send(result)
    out.close()


async def drive(specs: list[TableSpec], host: str, port: int, begin: float, joins: list[float],
                shared: tuple[Any, Any], seconds: float, runs: int, round_seconds: float,
                seed: int) -> dict[str, Any]:
    """Every phone of ``specs`` as a task, until the tail after the last window; what
    they saw (per window, while the room filled), the staleness, the saves and closes."""
    loop = asyncio.get_running_loop()
    zero = loop.time() + (begin - time.time())
    first, pending = shared
    clock = Clock(math.inf, seconds, [Tally() for _ in range(runs)], Tally(), pending=pending)

    async def windows_start() -> None:  # the main process says when the room has settled
        while first.value == 0.0:
            await asyncio.sleep(0.1)
        clock.first = loop.time() + (first.value - time.time())

    follow = asyncio.create_task(windows_start())
    rng = random.Random(seed)
    tables, tasks = [], []
    for spec, table_joins in zip(specs, joins_per_table(specs, joins), strict=True):
        table = TableRun(spec)
        tables.append(table)
        for seat, moment in enumerate(table_joins):
            language = spec.language
            if rng.random() < OTHER_LANGUAGE:
                language = rng.choice([x for x in LANGUAGES if x != language])
            phone = Phone(table, language, clock, host, port, random.Random(rng.random()))
            table.phones.append(phone)
            if seat < len(spec.names):
                work = player(phone, seat, zero + moment, round_seconds)
            else:
                work = viewer(phone, zero + moment)
            tasks.append(asyncio.create_task(until_stopped(phone, work)))
    await asyncio.gather(*tasks)
    await follow
    return {
        "windows": [t.as_dict() for t in clock.windows],
        "filling": clock.filling.as_dict(),
        "staleness": staleness(tables, clock),
        "saves": sum(t.saves for t in tables),
        "closes": sum(t.closes for t in tables),
        "phones": sum(len(t.phones) for t in tables),
    }


def joins_per_table(specs: list[TableSpec], joins: list[float]) -> list[list[float]]:
    """``joins`` (one a phone, the tables' players then their TV, table by table) cut
    per table."""
    out, at = [], 0
    for spec in specs:
        count = len(spec.names) + 1
        out.append(joins[at : at + count])
        at += count
    return out


async def until_stopped(phone: Phone, work: Any) -> None:
    """Run a phone's ``work`` to the end of the run; a page without what the phone
    needs next (a link, a form) ends that phone, counted among the errors."""
    try:
        await work
    except Stop:
        pass
    except RuntimeError as lost:
        tally = phone.clock.tally(phone.loop.time())
        if tally is not None:
            tally.errors[f"page: {lost}"] += 1
    finally:
        phone.hang_up()


def staleness(tables: list[TableRun], clock: Clock) -> dict[str, Any]:
    """For each save or close answered within the windows, each other phone of its table
    that watched the game by then (its round page, or the TV's leaderboard, loaded):
    seconds until that phone saw the version it made."""
    delays, unseen, changes = [], 0, 0
    for table in tables:
        for moment, version, maker in table.changes:
            if not clock.first <= moment < clock.end:
                continue
            changes += 1
            for phone in table.phones:
                if phone is maker or phone.joined > moment:
                    continue
                seen = next((t for t, v in phone.seen if v >= version), None)
                if seen is None:
                    unseen += 1
                else:
                    delays.append(max(0.0, seen - moment))
    return {"delays": delays, "unseen": unseen, "changes": changes}


# --- the games ----------------------------------------------------------------------------


def make_games(host: str, port: int, count: int, rng: random.Random) -> list[TableSpec]:
    """``count`` new games made through the server's API, as a scorekeeper's app would:
    4 to 8 players, the first dealing; their view and edit links as the API gives them."""
    connection = http.client.HTTPConnection(host, port, timeout=60)
    specs = []
    try:
        for n in range(count):
            names = [f"Player {n + 1}-{seat + 1}" for seat in range(rng.randint(4, 8))]
            body = json.dumps({"players": names, "first_dealer": 0})
            connection.request("POST", "/api/v1/games", body,
                               {"Content-Type": "application/json"})
            answer = connection.getresponse()
            data = answer.read()
            if answer.status == 429:
                raise Unavailable(f"the server's limit on new games refused game {n + 1}: "
                                  "start it with higher GAME_CREATION_LIMIT and "
                                  "GAME_CREATION_ADDRESS_LIMIT")
            if answer.status != 201:
                raise RuntimeError(f"game {n + 1} not made: {answer.status} {data[:300]!r}")
            made = json.loads(data)
            specs.append(TableSpec(
                game_id=made["id"],
                view=urlsplit(made["view_url"]).path,
                edit=urlsplit(made["edit_url"]).path,
                names=tuple(names),
                language=rng.choice(LANGUAGES),
                seed=n + 1,
                first_round=rng.uniform(0.1, 1.0),
            ))
    finally:
        connection.close()
    return specs


def read_back(host: str, port: int, specs: list[TableSpec]) -> tuple[int, int] | str:
    """The hands entered and rounds closed in the games, read through the API once the
    phones have stopped (a server left behind by them gets a few minutes to catch up);
    or why they could not be read."""
    hands = closed = 0
    deadline = time.monotonic() + 300
    connection = http.client.HTTPConnection(host, port, timeout=60)
    try:
        for spec in specs:
            while True:
                try:
                    connection.request("GET", f"/api/v1/games/{spec.game_id}")
                    answer = connection.getresponse()
                    data = answer.read()
                    if answer.status < 500 or time.monotonic() > deadline:
                        break
                    time.sleep(1.0)  # a proxy's 502/504 while the server catches up
                except OSError as error:
                    connection.close()
                    if time.monotonic() > deadline:
                        return f"no answer from the server ({error!r})"
            if answer.status != 200:
                return f"game {spec.game_id}: {answer.status} {data[:300]!r}"
            for played in json.loads(data)["rounds"]:
                closed += bool(played["closed"])
                hands += sum(bool(s["entered"]) for s in played["seats"])
    finally:
        connection.close()
    return hands, closed


async def play_through(host: str, port: int, spec: TableSpec) -> Counter[str]:
    """One table's round 1 played at once, phone after phone (the scorekeeper's edit link,
    every claim and save, the close, round 2's page): every page and part a round
    shows rendered once; the errors met."""
    loop = asyncio.get_running_loop()
    clock = Clock(loop.time() + 3600, 60.0, [], Tally())  # all before the "windows"
    table = TableRun(spec)
    phones = [Phone(table, LANGUAGES[seat % len(LANGUAGES)], clock, host, port,
                    random.Random(seat)) for seat in range(len(spec.names))]
    await phones[0].open(spec.edit, redirects=True)
    for seat, phone in enumerate(phones):
        if seat:
            await phone.open(spec.view)
        await phone.open(link(phone.page, rf"/seats/{seat}$") or spec.view)
        claim = next((f for f in forms(phone.page) if f.action.endswith(f"/seats/{seat}")), None)
        if claim is not None and await phone.submit(claim, "claim"):
            await save_hand(phone, seat, 1)
    keeper = phones[0]
    await keeper.open(keeper.url)
    close = next((f for f in forms(keeper.page) if f.action.endswith("/close")), None)
    if close is not None and await keeper.submit(close, "close"):
        following = link(keeper.page, r"/rounds/2$")
        if following:
            await keeper.open(following)
    for phone in phones:
        for part in phone.parts:
            await phone.poll(part)
        phone.hang_up()
    return clock.filling.errors


def warm_up(host: str, port: int, count: int) -> None:
    """Play ``count`` throwaway tables' first round through the server before the
    phones come (a server that has run a while has rendered every page once per worker
    process: its templates compiled, its caches filled); raise on an error."""
    specs = make_games(host, port, count, random.Random(1))
    errors: Counter[str] = Counter()
    for spec in specs:
        errors.update(asyncio.run(play_through(host, port, spec)))
    if errors:
        raise RuntimeError(f"the warm-up met errors: {dict(errors)}")


# --- the starts ---------------------------------------------------------------------------


class Unavailable(Exception):
    """A start that can't be made on this machine (said why)."""


@dataclass
class Started:
    """A server to load: where, the groups of processes to weigh, how to stop it."""

    name: str
    host: str
    port: int
    groups: dict[str, Callable[[], list[psutil.Process]]]
    stop: Callable[[], None] = lambda: None


def tree(pid: int) -> list[psutil.Process]:
    """A process and its descendants (none when it is gone)."""
    try:
        root = psutil.Process(pid)
        return [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return []


def postgres_backends(database: str) -> list[psutil.Process]:
    """The PostgreSQL processes serving ``database`` (their title names it)."""
    found = []
    for p in psutil.process_iter(["name", "cmdline"]):
        if p.info["name"] == "postgres" and database in " ".join(p.info["cmdline"] or ()):
            found.append(p)
    return found


def named(name: str) -> list[psutil.Process]:
    return [p for p in psutil.process_iter(["name"]) if p.info["name"] == name]


INSTANCE_HOOK = '''"""Benchmark: the app's instance folder at BENCH_INSTANCE_PATH."""
import os

if os.environ.get("BENCH_INSTANCE_PATH"):
    import flask

    flask.Flask.auto_find_instance_path = lambda self: os.environ["BENCH_INSTANCE_PATH"]
'''


def server_env(folder: Path, database: str, port: int) -> dict[str, str]:
    """A server's environment: its database, the benchmark's secret, the lexicons kept
    between runs, loopback ``port``, and its instance folder inside ``folder`` (a
    ``sitecustomize`` module on its path moves Flask's instance path there, for every
    process of the start)."""
    hook = folder / "hook"
    hook.mkdir(exist_ok=True)
    (hook / "sitecustomize.py").write_text(INSTANCE_HOOK)
    return {
        **os.environ,
        "DATABASE_URL": database,
        "SECRET_KEY": SECRET,
        "LEXICON_DIR": str(LEXICONS / "lists"),
        "LEXICON_CACHE_DIR": str(LEXICONS),
        "GAME_CREATION_LIMIT": GAME_LIMIT,
        "GAME_CREATION_ADDRESS_LIMIT": GAME_LIMIT,
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "BIND": f"127.0.0.1:{port}",
        "BENCH_INSTANCE_PATH": str(folder / "instance"),
        "PYTHONPATH": os.pathsep.join([str(hook), str(ROOT)]),
    }


def launch(name: str, command: list[str], env: dict[str, str], folder: Path, port: int) -> Any:
    from serving import Server, ready, spawn

    server = spawn(name, command, folder, port, env, Server, preexec_fn=raise_open_files_limit)
    return ready(server, "/health", 240)


def start_run(folder: Path) -> Started:
    """``make run``'s server: ``python -m companion.serve`` on a new SQLite file."""
    port = free_port()
    env = server_env(folder, f"sqlite:///{folder / 'tables.sqlite3'}", port)
    server = launch("run", [sys.executable, "-m", "companion.serve"], env, folder, port)
    return Started("run", "127.0.0.1", port, {"server": lambda: tree(server.process.pid)},
                   server.stop)


def script(path: Path, env: dict[str, str] | None = None, *args: str) -> str:
    """The last line a script prints (the URL it made)."""
    made = subprocess.run([str(path), *args], env=env, check=False,
                          capture_output=True, text=True, timeout=300)
    if made.returncode != 0 or not made.stdout.strip():
        raise Unavailable(f"{path.name} failed ({made.returncode}): {made.stderr[-2000:]}")
    return made.stdout.strip().splitlines()[-1]


def empty_database(url: str) -> None:
    """Drop every table of the database at ``url``: the start migrates a new one."""
    import sqlalchemy

    engine = sqlalchemy.create_engine(url)
    with engine.begin() as conn:
        meta = sqlalchemy.MetaData()
        meta.reflect(conn)
        meta.drop_all(conn)
    engine.dispose()


def start_production(folder: Path, database: str | None) -> Started:
    """gunicorn on PostgreSQL and Redis, behind nginx (``scripts/nginx.sh``)."""
    if not NGINX.exists():
        raise Unavailable("scripts/nginx.sh is missing: the production start is served "
                          "behind nginx, which that script starts")
    scripts = ROOT / "scripts"
    url = database or script(
        scripts / "postgres.sh", {**os.environ, "PG_DATABASE": "companion_bench_tables"}
    )
    empty_database(url)
    redis = script(scripts / "redis.sh")
    port = free_port()
    env = {**server_env(folder, url, port), "RATELIMIT_STORAGE_URI": redis,
           "TRUSTED_PROXIES": "1"}
    command = [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "gunicorn.conf.py")]
    server = launch("production", command, env, folder, port)
    deadline = time.monotonic() + 240
    while True:  # every worker has built its app and said so, not only the first
        workers = len(psutil.Process(server.process.pid).children())
        if server.log.read_text().count("Worker serving") >= workers > 0:
            break
        if time.monotonic() > deadline:
            server.stop()
            raise Unavailable(f"gunicorn's workers did not all start: {server.log}")
        time.sleep(0.5)
    run_dir = folder / "nginx"
    listen = free_port()
    try:
        front = script(NGINX, None, "--run-dir", str(run_dir), "--listen", str(listen),
                       "--upstream", f"127.0.0.1:{port}")
    except Unavailable:
        server.stop()
        raise
    address = urlsplit(front)
    host, front_port = address.hostname or "127.0.0.1", address.port or listen
    master = int((run_dir / "nginx.pid").read_text().split()[0])

    def stop() -> None:
        subprocess.run(["nginx", "-c", str(run_dir / "nginx.conf"), "-s", "quit"],
                       check=False, capture_output=True)
        with contextlib.suppress(psutil.NoSuchProcess, psutil.TimeoutExpired):
            psutil.Process(master).wait(10)
        with contextlib.suppress(ProcessLookupError):
            os.kill(master, 9)
        server.stop()

    database_name = urlsplit(url).path.lstrip("/")
    started = Started("production", host, front_port, {
        "server": lambda: tree(server.process.pid),
        "database": lambda: postgres_backends(database_name),
        "nginx": lambda: tree(master),
        "redis (shared)": lambda: named("redis-server"),
    }, stop)
    deadline = time.monotonic() + 30
    while True:  # nginx passes the app's answer on
        with contextlib.suppress(OSError):
            probe = http.client.HTTPConnection(host, front_port, timeout=10)
            probe.request("GET", "/health")
            if probe.getresponse().status == 200:
                break
        if time.monotonic() > deadline:
            stop()
            raise Unavailable(f"nginx at {front} did not answer /health with 200")
        time.sleep(0.2)
    return started


def start_url(url: str, pids: list[int]) -> Started:
    """A server already running at ``url``; ``pids``: its processes (and their children)."""
    address = urlsplit(url)
    groups = {"server": lambda: [p for pid in pids for p in tree(pid)]} if pids else {}
    return Started("url", address.hostname or "127.0.0.1", address.port or 80, groups)


# --- a measurement -----------------------------------------------------------------------


class CpuMeter:
    """The CPU seconds each group of processes used between two samples, by process id
    (a process started since counts from nothing)."""

    def __init__(self, groups: dict[str, Callable[[], list[psutil.Process]]]) -> None:
        self.groups = groups
        self.last: dict[str, dict[int, float]] = {}
        self.at = 0.0
        self.busy = 0.0

    @staticmethod
    def machine_busy() -> float:
        """CPU seconds this machine's cores have been busy, all processes together."""
        times = psutil.cpu_times()
        return sum(times) - times.idle - getattr(times, "iowait", 0.0)

    def sample(self) -> dict[str, float] | None:
        """Cores used by each group since the last sample (None at the first)."""
        now = time.monotonic()
        current: dict[str, dict[int, float]] = {}
        for name, find in self.groups.items():
            current[name] = {}
            for p in find():
                with contextlib.suppress(psutil.NoSuchProcess, psutil.AccessDenied):
                    times = p.cpu_times()
                    current[name][p.pid] = times.user + times.system
        busy = self.machine_busy()
        used = None
        if self.last:
            span = now - self.at
            used = {
                name: sum(cpu - self.last[name].get(pid, 0.0) for pid, cpu in pids.items()) / span
                for name, pids in current.items()
            }
            # what else ran on this machine meanwhile (other users' work, the kernel)
            used["others"] = max(0.0, (busy - self.busy) / span - sum(used.values()))
        self.last, self.at, self.busy = current, now, busy
        return used


def memory(groups: dict[str, Callable[[], list[psutil.Process]]]) -> dict[str, float]:
    """Each group's memory now: proportional set size (resident, where PSS can't be
    read), MiB."""
    out = {}
    for name, find in groups.items():
        total = 0
        for p in find():
            with contextlib.suppress(psutil.NoSuchProcess, psutil.AccessDenied):
                try:
                    total += p.memory_full_info().pss
                except (psutil.AccessDenied, AttributeError):
                    total += p.memory_info().rss
        out[name] = total / 2**20
    return out


def measure(started: Started, specs: list[TableSpec], args: argparse.Namespace) -> dict[str, Any]:
    """Seat ``specs``' phones at ``started``, measure ``args.runs`` windows: what every
    generator saw, the CPU of each group per window, the memory at the end."""
    context = multiprocessing.get_context("spawn")
    per_table = [len(s.names) + 1 for s in specs]
    phones = sum(per_table)
    joins, at = [], 0
    for count in per_table:
        joins.append([(at + i) / JOINS_PER_S for i in range(count)])
        at += count
    begin = time.time() + 3.0  # every generator process is up by then
    first = context.Value("d", 0.0)
    pipes, processes, pendings = [], [], []
    for g in range(args.generators):
        receive, send = context.Pipe(duplex=False)
        share = [j for table in joins[g :: args.generators] for j in table]
        pending = context.Value("i", len(share))
        process = context.Process(target=generate, args=(
            specs[g :: args.generators], started.host, started.port, begin, share,
            (first, pending), args.seconds, args.runs, args.round_seconds, 7 + g, send,
        ))
        process.start()
        send.close()
        pipes.append(receive)
        processes.append(process)
        pendings.append(pending)
    seated = begin + phones / JOINS_PER_S  # the last phone sits down
    time.sleep(max(0.0, seated - time.time()))
    while time.time() < seated + SETTLE_LIMIT_S and sum(p.value for p in pendings) > 0:
        time.sleep(0.2)  # until every phone watches its page (its claim made)
    settled = time.time() - seated
    on_their_way = sum(p.value for p in pendings)
    first.value = start = time.time() + SETTLE_S
    groups = {**started.groups,
              "generator": lambda: [p for q in processes if q.pid for p in tree(q.pid)]}
    meter = CpuMeter(groups)
    cpu = []
    for n in range(args.runs + 1):
        time.sleep(max(0.0, start + n * args.seconds - time.time()))
        used = meter.sample()
        if used is not None:
            cpu.append(used)
    mem = memory(groups)
    results = [pipe.recv() for pipe in pipes]
    for process in processes:
        process.join()
    return {"results": results, "cpu": cpu, "memory": mem, "phones": phones,
            "settled": settled, "on their way": on_their_way}


# --- the report ---------------------------------------------------------------------------


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def both(values: list[float], fmt: str = "{:.0f}") -> str:
    """The median of the windows' figures, the worst (highest) in brackets."""
    shown = [v for v in values if not math.isnan(v)]
    if not shown:
        return "-"
    middle = fmt.format(statistics.median(shown))
    return middle if len(values) == 1 else f"{middle} ({fmt.format(max(shown))})"


TARGETS = {"live poll": 0.25, "board poll": 0.25, "save": 0.5, "claim": 0.5, "page": 1.0,
           "close": 0.5}
"""The p99 each kind should stay under, seconds (issue 21)."""


def report(name: str, tables: int, measured: dict[str, Any], seconds: float,
           statuses: bool = False) -> tuple[list[str], list[str]]:
    """The lines for one start at N tables (``statuses``: every answer's status too), and
    the targets it missed."""
    results = measured["results"]
    runs = len(measured["cpu"])
    players = sum(r["phones"] for r in results) - tables
    lines = [f"== {name}: {tables} tables, {measured['phones']} phones ({players} players, "
             f"{tables} on the table's TV), {runs} windows of {seconds:.0f} s =="]
    lines.append(f"{'kind':<11} {'per s':>12} {'p50 ms':>14} {'p99 ms':>14} {'errors':>10}")
    missed = []
    for kind in KINDS:
        windows = [[v for r in results for v in r["windows"][n]["times"][kind]]
                   for n in range(runs)]
        errors = [sum(c for r in results for k, c in r["windows"][n]["errors"].items()
                      if k.startswith(kind + ":")) for n in range(runs)]
        p99s = [pct(w, 0.99) * 1000 for w in windows]
        lines.append(
            f"{kind:<11} {both([len(w) / seconds for w in windows], '{:.1f}'):>12} "
            f"{both([pct(w, 0.5) * 1000 for w in windows], '{:.1f}'):>14} "
            f"{both(p99s, '{:.1f}'):>14} {both([float(e) for e in errors]):>10}"
        )
        shown = [v for v in p99s if not math.isnan(v)]
        if kind in TARGETS and shown and max(shown) > TARGETS[kind] * 1000:
            missed.append(f"{kind} p99 {max(shown):.0f} ms > {TARGETS[kind] * 1000:.0f}")
    errors: Counter[str] = Counter()
    filling: Counter[str] = Counter()
    for r in results:
        for window in r["windows"]:
            errors.update(window["errors"])
        filling.update(r["filling"]["errors"])
    if errors:
        missed.append(f"{sum(errors.values())} errors")
        lines.append(f"errors in the windows: {dict(sorted(errors.items()))}")
    lines.append(f"errors while the room filled: {dict(sorted(filling.items())) or 0}")
    if measured["on their way"]:
        lines.append(f"the room never settled: {measured['on their way']} phones were not "
                     f"watching their page {SETTLE_LIMIT_S:.0f} s after the last sat down")
    else:
        lines.append(f"the room settled {measured['settled']:.1f} s after the last phone "
                     "sat down (every phone on its round page or the TV's board)")
    if statuses:
        seen: Counter[str] = Counter()
        for r in results:
            seen.update(r["filling"]["statuses"])
            for window in r["windows"]:
                seen.update(window["statuses"])
        lines.append(f"statuses (filling and windows): {dict(sorted(seen.items()))}")
    names = list(measured["cpu"][0]) if measured["cpu"] else []
    lines.append("CPU, cores: " + " | ".join(
        f"{g} {both([c[g] for c in measured['cpu']], '{:.2f}')}" for g in names))
    lines.append("memory at the end, MiB (PSS): " + " | ".join(
        f"{g} {v:.0f}" for g, v in measured["memory"].items()))
    delays = [d for r in results for d in r["staleness"]["delays"]]
    unseen = sum(r["staleness"]["unseen"] for r in results)
    changes = sum(r["staleness"]["changes"] for r in results)
    if delays:
        lines.append(
            f"staleness, s: p50 {pct(delays, 0.5):.2f}, p99 {pct(delays, 0.99):.2f}, max "
            f"{max(delays):.2f} over {len(delays)} phones x changes ({changes} saves and "
            f"closes in the windows); never seen: {unseen}"
        )
        poll = POLL_MS / 1000
        if max(delays) > 1.0 + poll or unseen:
            missed.append(f"staleness max {max(delays):.2f} s > 1 s + one poll ({poll:.0f} s)")
    else:
        lines.append(f"staleness: no change seen in the windows ({changes} saves and closes; "
                     "do the pages still carry data-version?)")
    return lines, missed


def landed(measured: dict[str, Any], read: tuple[int, int] | str,
           missed: list[str]) -> list[str]:
    """The saves and closes the phones saw answered against the games as the server
    keeps them; and the targets missed (``missed``, with a loss added)."""
    results = measured["results"]
    saves = sum(r["saves"] for r in results)
    closes = sum(r["closes"] for r in results)
    lines = []
    if isinstance(read, str):
        lines.append(f"landed: {saves} saves and {closes} closes answered; the games could "
                     f"not be read back: {read}")
        missed.append("games not read back")
    else:
        hands, closed = read
        if (hands, closed) == (saves, closes):
            same = "as the phones saw"
        elif hands >= saves and closed >= closes:
            same = "more than answered: forms whose answer failed landed all the same"
        else:
            same = "LOST: fewer than the phones saw answered"
            missed.append("saves or closes lost")
        lines.append(f"landed: {saves} saves and {closes} closes answered; the games show "
                     f"{hands} hands entered and {closed} rounds closed ({same})")
    lines.append("targets: " + ("met" if not missed else "missed: " + "; ".join(missed)))
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="100,300,1000", help="N, comma separated")
    parser.add_argument("--seconds", type=float, default=30.0, help="a window's length")
    parser.add_argument("--runs", type=int, default=3, help="windows measured")
    parser.add_argument("--round-seconds", type=float, default=180.0)
    parser.add_argument("--starts", default="run,production")
    parser.add_argument("--generators", type=int, default=2, help="load generator processes")
    parser.add_argument("--database", help="PostgreSQL URL for the production start")
    parser.add_argument("--url", help="load this running server instead of starting one")
    parser.add_argument("--server-pids", default="", help="its processes, comma separated")
    parser.add_argument("--statuses", action="store_true", help="print every status seen")
    args = parser.parse_args()
    counts = [int(n) for n in args.tables.split(",")]
    raise_open_files_limit()
    failed = False
    starts = ["url"] if args.url else args.starts.split(",")
    for name in starts:
        for count in counts:
            with tempfile.TemporaryDirectory(prefix="companion-tables-") as temp:
                folder = Path(temp)
                try:
                    if name == "url":
                        pids = [int(p) for p in args.server_pids.split(",") if p]
                        started = start_url(args.url, pids)
                    elif name == "run":
                        started = start_run(folder)
                    elif name == "production":
                        started = start_production(folder, args.database)
                    else:
                        raise Unavailable(f"no start called {name!r} (run, production)")
                except Unavailable as why:
                    print(f"== {name}: not measured: {why}", flush=True)
                    failed = True
                    break
                try:
                    made = time.perf_counter()
                    specs = make_games(started.host, started.port, count,
                                       random.Random(2026 + count))
                    print(f"# {name}: {count} games made through the API in "
                          f"{time.perf_counter() - made:.0f} s", flush=True)
                    warm_up(started.host, started.port, WARM_UP_TABLES)
                    measured = measure(started, specs, args)
                    lines, missed = report(name, count, measured, args.seconds, args.statuses)
                    print("\n".join(lines), flush=True)
                    read = read_back(started.host, started.port, specs)
                    print("\n".join(landed(measured, read, missed)), flush=True)
                except Unavailable as why:
                    print(f"== {name}: not measured: {why}", flush=True)
                    failed = True
                    break
                finally:
                    started.stop()
    print("\nFigures: median of the windows, worst in brackets.")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
