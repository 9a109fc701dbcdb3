"""Races on a real server: waitress with 8 threads, the real app (CSRF on), many clients at once.

(a) One browser holding the edit link challenges, closes, reopens, withdraws and sets house
words on a round while API clients save the same round again: no request may fail with a
server error, and every 409 says the round (or the house words) changed on another phone.
(b) The same solitaire step sent twice at once: one is made, the other refused with 409.
(c) Eight API clients each saving a round of their own game at once: all saved.
(d) Eight phones each saving their own seat of one round at once: all saved, none lost.
(e) Two saves of one seat from the same version at once: one saved, the other 409.

Each test is bounded: a few seconds of load, or a fixed number of tries.
"""

from __future__ import annotations

import html
import http.client
import json
import logging
import re
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

import pytest
from flask import Flask
from waitress import wasyncore
from waitress.server import create_server

import companion
from companion import create_app

CONFLICT_CODES = {"round_changed", "house_word_changed", "solitaire_changed"}
CHANGED_ELSEWHERE = re.compile(r"changed on another phone", re.IGNORECASE)
SECONDS = 3.0
"""How long the mixed writes of (a) run."""
PER_THREAD = 150
"""And at most this many requests per thread."""
NAMES = ["Ann", "Ben", "Cy"]
ROUND_1 = {
    "players": [
        {"name": "Ann", "words": [["c", "a", "t"]], "unused": []},
        {"name": "Ben", "words": [["x", "z"]], "unused": ["q"], "went_out": True},
        {"name": "Cy", "words": [["t", "o", "p"]], "unused": []},
    ]
}
"""Round 1 (3 cards each): CAT and TOP are words, XZ is not (a challenge to rule on)."""
OPENING = "t o p a th e r s"
"""Solitaire piles 1-8: TOP is piles 1 2 3."""


# --- the server --------------------------------------------------------------------------


class Logged(logging.Handler):
    """The exceptions the app logs while serving (each 500 logs one)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.seen: list[str] = []
        self._lock = threading.Lock()

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            with self._lock:
                self.seen.append(f"{type(exc).__name__}: {str(exc)[:160]}")

    def summary(self) -> str:
        counts: dict[str, int] = {}
        for line in self.seen:
            counts[line] = counts.get(line, 0) + 1
        return "; ".join(f"{n} x {line}" for line, n in counts.items()) or "nothing logged"


@dataclass
class Live:
    app: Flask
    port: int
    logged: Logged

    def connect(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=15)


@pytest.fixture
def live(tmp_path: Path, lexicon_cache: Path) -> Iterator[Live]:
    """The real app, CSRF on, served by waitress (8 threads) on a free loopback port."""
    app = create_app(
        {
            "SECRET_KEY": "race-tests",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'race.sqlite3'}",
            "LEXICON_DIR": str(tmp_path / "lexicons"),
            "LEXICON_CACHE_DIR": str(lexicon_cache),
            "AUTO_MIGRATE": True,
            # Races, not limits: 20 tries of two claims from one cookieless address would
            # pass the claim limit (tests/web/test_rate_limit.py tests the limits).
            "RATELIMIT_ENABLED": False,
        }
    )
    upgrade = getattr(companion, "upgrade_database", None)
    if upgrade is not None:
        upgrade(app)
    lexicons = app.extensions["lexicons"]
    lexicons.build("standard")  # as companion/serve/start.py: loaded before the first request
    lexicons.solver_index("standard")
    logged = Logged()
    app.logger.addHandler(logged)
    server = create_server(app, host="127.0.0.1", port=0, threads=8)
    stop = threading.Event()

    def serve() -> None:
        """waitress's loop, a few milliseconds at a time, until the test is over (closing
        its sockets while it polls them would fail in this thread)."""
        while not stop.is_set():
            wasyncore.loop(timeout=0.05, map=server._map, count=1)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield Live(app, server.effective_port, logged)
    stop.set()
    thread.join(5)
    server.task_dispatcher.shutdown()
    server.close()
    wasyncore.close_all(server._map)
    app.logger.removeHandler(logged)
    with app.app_context():
        from companion.store.db import db

        db.engine.dispose()


# --- a small HTTP client -------------------------------------------------------------------


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: str

    def json(self) -> object:
        try:
            return json.loads(self.body)
        except ValueError:
            return None

    @property
    def is_json(self) -> bool:
        return self.headers.get("content-type", "").startswith("application/json")


def send(
    conn: http.client.HTTPConnection,
    method: str,
    path: str,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> Answer:
    conn.request(method, path, body=body, headers=headers or {})
    response = conn.getresponse()
    data = response.read().decode("utf-8", "replace")
    found = {k.lower(): v for k, v in response.getheaders()}
    cookies = response.headers.get_all("Set-Cookie") or []
    if cookies:
        found["set-cookie"] = "\n".join(cookies)
    return Answer(response.status, found, data)


NO_BODY = (b"{}", {"Content-Type": "application/json"})
"""What an API write without a body sends (every write says it is JSON)."""

NO_ANSWER = 599
"""The status recorded when the server closed the connection or did not answer in time."""


def attempt(
    conn: http.client.HTTPConnection, request: Callable[..., Answer], *args: object, **kw: str
) -> Answer:
    """``request(conn, *args, **kw)``, or a NO_ANSWER answer if the connection failed (it is
    then reset: the next request opens it again)."""
    try:
        return request(conn, *args, **kw)
    except (OSError, http.client.HTTPException) as exc:
        conn.close()
        return Answer(NO_ANSWER, {}, f"no answer: {exc!r}")


def session_cookie(answer: Answer, before: str = "") -> str:
    """The ``Cookie`` header to send after ``answer`` (its session cookie, else ``before``)."""
    jar: SimpleCookie = SimpleCookie()
    for line in answer.headers.get("set-cookie", "").split("\n"):
        if line:
            jar.load(line)
    if "session" in jar:
        return f"session={jar['session'].value}"
    return before


def csrf_of(page: str) -> str:
    found = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page) or re.search(
        r'name="csrf_token"[^>]*value="([^"]+)"', page
    )
    assert found, "no csrf_token on the page"
    return found.group(1)


def version_of(page: str) -> str | None:
    """The ``version`` hidden field of a page's forms, if it has one."""
    found = re.search(r'name="version"[^>]*value="(\d+)"', page) or re.search(
        r'value="(\d+)"[^>]*name="version"', page
    )
    return found.group(1) if found else None


@dataclass
class Browser:
    """One browser session: its cookie (with the edit right and the CSRF secret), a token."""

    cookie: str
    csrf: str

    def post(self, conn: http.client.HTTPConnection, path: str, **fields: str) -> Answer:
        data = urlencode({"csrf_token": self.csrf, **fields}).encode()
        return send(
            conn,
            "POST",
            path,
            data,
            {"Cookie": self.cookie, "Content-Type": "application/x-www-form-urlencoded"},
        )


def api_game(live: Live, names: list[str] = NAMES) -> tuple[str, str]:
    """A new game made through the API: its id and edit token."""
    conn = live.connect()
    made = send(
        conn,
        "POST",
        "/api/v1/games",
        json.dumps({"players": names}).encode(),
        {"Content-Type": "application/json"},
    )
    conn.close()
    assert made.status == 201, made.body
    data = made.json()
    assert isinstance(data, dict)
    return data["id"], data["edit_token"]


def put_json(
    conn: http.client.HTTPConnection,
    path: str,
    token: str,
    body: object,
    if_match: str | None = None,
) -> Answer:
    """PUT ``body`` as JSON with a bearer token and, if given, an ``If-Match`` version."""
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    if if_match is not None:
        headers["If-Match"] = f'"{if_match}"'
    return send(conn, "PUT", path, json.dumps(body).encode(), headers)


def put_round(
    conn: http.client.HTTPConnection,
    game_id: str,
    token: str,
    number: int = 1,
    if_match: str | None = None,
) -> Answer:
    return put_json(conn, f"/api/v1/games/{game_id}/rounds/{number}", token, ROUND_1, if_match)


def joined(live: Live, game_id: str, token: str) -> Browser:
    """A browser that opened the edit link, then the round page (which gives the CSRF token)."""
    conn = live.connect()
    link = send(conn, "GET", f"/games/{game_id}/edit/{token}")
    assert link.status == 302, link.status
    cookie = session_cookie(link)
    page = send(conn, "GET", f"/games/{game_id}/rounds/1", headers={"Cookie": cookie})
    assert page.status == 200, page.status
    conn.close()
    return Browser(session_cookie(page, cookie), csrf_of(page.body))


# --- checks ------------------------------------------------------------------------------


@dataclass
class Sent:
    who: str
    action: str
    answer: Answer


@dataclass
class Log:
    sent: list[Sent] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, who: str, action: str, answer: Answer) -> None:
        with self.lock:
            self.sent.append(Sent(who, action, answer))


def conflict_problem(s: Sent) -> str | None:
    """Why a 409 does not say what changed, if it does not."""
    if s.who == "api":
        body = s.answer.json()
        code = body.get("code") if isinstance(body, dict) else None
        if code not in CONFLICT_CODES:
            return f"API 409 of {s.action} without a conflict code: {s.answer.body[:200]}"
        return None
    if not CHANGED_ELSEWHERE.search(html.unescape(s.answer.body)):
        return f"page 409 of {s.action} does not say it changed on another phone"
    return None


def run_for(seconds: float, workers: list[Callable[[Callable[[], bool]], None]]) -> None:
    """Start every worker at once; each loops while ``going()`` (until ``seconds`` passed)."""
    start = threading.Barrier(len(workers))
    deadline: list[float] = []

    def going() -> bool:
        return time.monotonic() < deadline[0]

    def wrap(work: Callable[[Callable[[], bool]], None]) -> Callable[[], None]:
        def run() -> None:
            if start.wait() == 0:
                deadline.append(time.monotonic() + seconds)
            while not deadline:
                time.sleep(0.001)
            work(going)

        return run

    threads = [threading.Thread(target=wrap(w), daemon=True) for w in workers]
    for t in threads:
        t.start()
    for t in threads:
        t.join(seconds + 30)
    assert not any(t.is_alive() for t in threads), "a client thread hung"


# --- (a) page writes against API saves of the same round ---------------------------------


def test_page_writes_race_api_saves_of_the_same_round(live: Live) -> None:
    game_id, token = api_game(live)
    conn = live.connect()
    assert put_round(conn, game_id, token).status == 200
    conn.close()
    browser = joined(live, game_id, token)
    log = Log()
    base = f"/games/{game_id}"

    def page_worker(offset: int) -> Callable[[Callable[[], bool]], None]:
        def work(going: Callable[[], bool]) -> None:
            conn = live.connect()
            for i in range(PER_THREAD):
                if not going():
                    break
                action = ACTIONS[(i + offset) % len(ACTIONS)]
                answer = attempt(conn, action, i)
                log.add("page", action.__name__, answer)
            conn.close()

        def challenge(conn: http.client.HTTPConnection, i: int) -> Answer:
            seat, by = [(0, 1), (1, 2), (2, 0)][i % 3]
            return browser.post(
                conn, f"{base}/rounds/1/challenges", by=str(by), word=f"{seat}:0", ruling=""
            )

        def close(conn: http.client.HTTPConnection, i: int) -> Answer:
            return browser.post(conn, f"{base}/rounds/1/close")

        def reopen(conn: http.client.HTTPConnection, i: int) -> Answer:
            return browser.post(conn, f"{base}/rounds/1/reopen")

        def withdraw(conn: http.client.HTTPConnection, i: int) -> Answer:
            game = send(conn, "GET", f"/api/v1/games/{game_id}").json()
            n = 1
            if isinstance(game, dict):
                result = game["rounds"][0]["result"] or {"challenges": []}
                numbers = [c["n"] for c in result["challenges"]]
                n = numbers[-1] if numbers else 1
            return browser.post(conn, f"{base}/rounds/1/challenges/{n}/delete")

        def house_word(conn: http.client.HTTPConnection, i: int) -> Answer:
            return browser.post(
                conn, f"{base}/house-words", word="zax", allowed="allow" if i % 2 else "ban"
            )

        def house_word_delete(conn: http.client.HTTPConnection, i: int) -> Answer:
            return browser.post(conn, f"{base}/house-words/zax/delete")

        ACTIONS = [challenge, close, reopen, withdraw, house_word, house_word_delete]
        return work

    def api_worker(use_if_match: bool) -> Callable[[Callable[[], bool]], None]:
        def work(going: Callable[[], bool]) -> None:
            conn = live.connect()
            seen: str | None = None
            for _ in range(PER_THREAD):
                if not going():
                    break
                match = seen if use_if_match else None
                answer = attempt(conn, put_round, game_id, token, 1, match)
                log.add("api", "PUT round" + (" If-Match" if use_if_match else ""), answer)
                body = answer.json()
                if isinstance(body, dict):
                    saved = body.get("round", body)
                    if isinstance(saved, dict) and "version" in saved:
                        seen = str(saved["version"])
            conn.close()

        return work

    run_for(
        SECONDS,
        [page_worker(k) for k in range(4)] + [api_worker(k % 2 == 0) for k in range(4)],
    )

    statuses: dict[tuple[str, str, int], int] = {}
    for s in log.sent:
        key = (s.who, s.action, s.answer.status)
        statuses[key] = statuses.get(key, 0) + 1
    print(f"\n{len(log.sent)} requests in {SECONDS} s, by (who, action, status): {statuses}")
    assert {s.who for s in log.sent} == {"page", "api"}, statuses
    errors = [s for s in log.sent if s.answer.status >= 500]
    unexplained = [p for s in log.sent if s.answer.status == 409 if (p := conflict_problem(s))]
    assert not errors and not unexplained, (
        f"of {len(log.sent)} requests, {len(errors)} got a server error and "
        f"{len(unexplained)} got a 409 without the conflict message (first: "
        f"{unexplained[:2]}); by (who, action, status): {statuses}; the server logged: "
        f"{live.logged.summary()}"
    )


# --- (b) the same solitaire step twice at once ---------------------------------------------


def solitaire_browser(live: Live) -> tuple[str, Browser]:
    """A solitaire game started from its page: its id, the browser that holds the right."""
    conn = live.connect()
    page = send(conn, "GET", "/solitaire")
    cookie = session_cookie(page)
    browser = Browser(cookie, csrf_of(page.body))
    started = browser.post(
        conn, "/solitaire", face_up=OPENING, min_word="cards", lexicon="standard", cards="1"
    )
    assert started.status == 302, started.body[:300]
    found = re.search(r"/solitaire/([\w-]+)$", started.headers["location"])
    assert found, started.headers["location"]
    browser.cookie = session_cookie(started, cookie)
    conn.close()
    return found.group(1), browser


def steps_of(app: Flask, game_id: str) -> int:
    with app.app_context():
        from companion import store
        from companion.store.db import db

        count = len(store.get_solitaire(game_id).steps)
        db.session.remove()
        return count


def step_fields(live: Live, browser: Browser, game_id: str, **fields: str) -> dict[str, str]:
    """The step form's fields as the page shows them now (with its version, if it has one)."""
    conn = live.connect()
    page = send(conn, "GET", f"/solitaire/{game_id}", headers={"Cookie": browser.cookie})
    conn.close()
    assert page.status == 200, page.status
    version = version_of(page.body)
    return {**fields, **({"version": version} if version is not None else {})}


def test_the_same_solitaire_step_twice_at_once_is_made_once(live: Live) -> None:
    game_id, browser = solitaire_browser(live)
    outcomes = []
    for _ in range(20):
        before = steps_of(live.app, game_id)
        fields = step_fields(live, browser, game_id, piles="1 2 3")
        conns = [live.connect() for _ in range(2)]
        for c in conns:
            c.connect()
        ready = threading.Barrier(2)
        answers: list[int] = []

        def post(
            conn: http.client.HTTPConnection,
            fields: dict[str, str],
            ready: threading.Barrier,
            answers: list[int],
        ) -> None:
            ready.wait()
            answer = attempt(conn, browser.post, f"/solitaire/{game_id}/word", **fields)
            answers.append(answer.status)

        threads = [
            threading.Thread(target=post, args=(c, fields, ready, answers), daemon=True)
            for c in conns
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(15)
        for c in conns:
            c.close()
        made = steps_of(live.app, game_id) - before
        outcomes.append((sorted(answers), made))
        # take the word back for the next try
        undo = step_fields(live, browser, game_id)
        conn = live.connect()
        browser.post(conn, f"/solitaire/{game_id}/undo", **undo)
        conn.close()
        assert steps_of(live.app, game_id) == before, "undo did not take the word back"

    def right(statuses: list[int], made: int) -> bool:
        accepted = [s for s in statuses if s in (200, 302, 303)]
        return len(accepted) == 1 and statuses.count(409) == 1 and made == 1

    wrong = [o for o in outcomes if not right(*o)]
    assert not wrong, (
        f"{len(wrong)} of {len(outcomes)} tries did not make the step exactly once with the "
        f"other refused (409); (statuses, steps made): {wrong[:5]}; the server logged: "
        f"{live.logged.summary()}"
    )


# --- (c) eight games saved at once --------------------------------------------------------


def test_eight_api_saves_of_different_games_at_once_all_succeed(live: Live) -> None:
    games = [api_game(live) for _ in range(8)]
    statuses: list[int] = []
    lock = threading.Lock()
    for _ in range(5):
        ready = threading.Barrier(len(games))

        def save(game_id: str, token: str, ready: threading.Barrier) -> None:
            conn = live.connect()
            conn.connect()
            ready.wait()
            answer = attempt(conn, put_round, game_id, token)
            conn.close()
            with lock:
                statuses.append(answer.status)

        threads = [threading.Thread(target=save, args=(*g, ready), daemon=True) for g in games]
        for t in threads:
            t.start()
        for t in threads:
            t.join(15)
    counts = {s: statuses.count(s) for s in sorted(set(statuses))}
    assert statuses == [200] * 40, (
        f"statuses of 40 saves (8 games at once, 5 times): {counts}; the server logged: "
        f"{live.logged.summary()}"
    )


# --- (d) seats: eight phones saving their own hands at once -------------------------------

EIGHT = ["Ann", "Ben", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
SEAT_HANDS = [
    {"words": [["t", "e", "a"]], "unused": [], "went_out": True},
    {"words": [["o", "n", "e"]], "unused": [], "went_out": False},
    {"words": [["a", "r"]], "unused": ["e"], "went_out": False},
    {"words": [], "unused": ["t", "i", "e"], "went_out": False},
    {"words": [["o", "a", "t"]], "unused": [], "went_out": False},
    {"words": [["r", "a"]], "unused": ["n"], "went_out": False},
    {"words": [["t", "o", "e"]], "unused": [], "went_out": False},
    {"words": [["e", "r", "a"]], "unused": [], "went_out": False},
]
"""Round 1 (3 cards) of eight players, within the deck's copies (T 4 of 6, E 6 of 12...)."""


def claim(live: Live, game_id: str, seat: int) -> str:
    """Take seat ``seat`` of the game from its view link: the seat's secret."""
    conn = live.connect()
    answer = send(conn, "POST", f"/api/v1/games/{game_id}/seats/{seat}/claim", *NO_BODY)
    conn.close()
    assert answer.status == 201, answer.body
    body = answer.json()
    assert isinstance(body, dict)
    return body["seat_token"]


def put_seat(
    conn: http.client.HTTPConnection,
    game_id: str,
    seat: int,
    token: str,
    hand: dict[str, object],
    if_match: str | None = None,
) -> Answer:
    return put_json(conn, f"/api/v1/games/{game_id}/rounds/1/seats/{seat}", token, hand, if_match)


def stored_hands(app: Flask, game_id: str) -> list[tuple[int, dict[str, object]]]:
    """Each seat's version and hand of round 1, as the database holds them."""
    with app.app_context():
        from companion import store
        from companion.store.db import db

        current = store.round_state(store.get_game(game_id), 1)
        out = [
            (
                s.version,
                {
                    "words": [[c.name for c in w] for w in s.hand.words],
                    "unused": [c.name for c in s.hand.unused],
                    "went_out": s.hand.went_out,
                }
                if s.hand is not None
                else {},
            )
            for s in current.seats
        ]
        db.session.remove()
        return out


def at_once(calls: list[Callable[[], Answer]]) -> list[Answer]:
    """Run every call in its own thread, released together by a barrier; their answers."""
    ready = threading.Barrier(len(calls))
    answers: list[Answer | None] = [None] * len(calls)

    def run(i: int) -> None:
        ready.wait()
        answers[i] = calls[i]()

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert not any(t.is_alive() for t in threads), "a client thread hung"
    return [a if a is not None else Answer(NO_ANSWER, {}, "") for a in answers]


def turned(hand: dict[str, object], k: int) -> dict[str, object]:
    """``hand`` as saved the ``k``-th time: the same cards, each word's and the leftovers'
    order reversed every other time, so each save changes the hand (and its version) while
    the deck's copies hold whatever mix of old and new hands the other seats have."""
    if k % 2 == 0:
        return hand
    return {
        **hand,
        "words": [list(reversed(w)) for w in hand["words"]],
        "unused": list(reversed(hand["unused"])),
    }


def test_eight_seats_saved_at_once_all_land(live: Live) -> None:
    """Eight phones, each with its own connection and seat secret, save their own hands of
    one round at the same moment, 50 times: no conflict, and every hand is stored."""
    game_id, _token = api_game(live, EIGHT)
    tokens = [claim(live, game_id, seat) for seat in range(8)]
    conns = [live.connect() for _ in range(8)]
    for c in conns:
        c.connect()
    statuses: list[int] = []
    lost: list[str] = []
    for k in range(50):
        hands = [turned(h, k) for h in SEAT_HANDS]
        answers = at_once(
            [
                partial(attempt, conns[seat], put_seat, game_id, seat, tokens[seat], hands[seat])
                for seat in range(8)
            ]
        )
        statuses += [a.status for a in answers]
        stored = stored_hands(live.app, game_id)
        if stored != [(k + 1, hand) for hand in hands]:
            lost.append(f"save {k}: {stored}")
    for c in conns:
        c.close()
    counts = {s: statuses.count(s) for s in sorted(set(statuses))}
    assert counts == {200: 400}, (
        f"statuses of 400 seat saves (8 at once, 50 times): {counts}; the server logged: "
        f"{live.logged.summary()}"
    )
    assert lost == []


def test_two_saves_of_one_seat_with_the_same_if_match_one_lands(live: Live) -> None:
    """The seat's phone and the scorekeeper save the same seat at once, both from the same
    version: one is saved, the other gets 409 seat_changed with the hand saved; 20 times."""
    game_id, edit_token = api_game(live)
    seat_token = claim(live, game_id, 0)
    letters = "bcdfghjklmnpqrstvwxy"
    outcomes = []
    for k in range(20):
        version, _ = stored_hands(live.app, game_id)[0]
        mine = {"words": [], "unused": [letters[k], "a", "a"], "went_out": False}
        theirs = {"words": [], "unused": [letters[k], "e", "e"], "went_out": False}
        conns = [live.connect() for _ in range(2)]
        for c in conns:
            c.connect()
        answers = at_once(
            [
                partial(attempt, conns[0], put_seat, game_id, 0, seat_token, mine, str(version)),
                partial(attempt, conns[1], put_seat, game_id, 0, edit_token, theirs, str(version)),
            ]
        )
        for c in conns:
            c.close()
        statuses = sorted(a.status for a in answers)
        sent = zip(answers, (mine, theirs), strict=True)
        winner = next((hand for a, hand in sent if a.status == 200), None)
        refusal = next((a.json() for a in answers if a.status == 409), None)
        stored = stored_hands(live.app, game_id)[0]
        right = (
            statuses == [200, 409]
            and isinstance(refusal, dict)
            and refusal.get("code") == "seat_changed"
            and refusal.get("seat", {}).get("unused") == (winner or {}).get("unused")
            and stored == (version + 1, winner)
        )
        outcomes.append((statuses, right))
    wrong = [o for o in outcomes if not o[1]]
    assert not wrong, (
        f"{len(wrong)} of 20 tries did not save exactly one of the two (statuses: "
        f"{[o[0] for o in outcomes]}); the server logged: {live.logged.summary()}"
    )


def test_two_phones_claiming_one_seat_at_once_one_gets_it(live: Live) -> None:
    """Two phones tap "I am Ann" at the same moment, 20 times: one holds the seat, the
    other is told it is taken; the seat's stored secret is the winner's."""
    outcomes = []
    for _ in range(20):
        game_id, _token = api_game(live)
        conns = [live.connect() for _ in range(2)]
        for c in conns:
            c.connect()
        path = f"/api/v1/games/{game_id}/seats/0/claim"
        answers = at_once([partial(attempt, c, send, "POST", path, *NO_BODY) for c in conns])
        for c in conns:
            c.close()
        statuses = sorted(a.status for a in answers)
        won = next((a.json() for a in answers if a.status == 201), None)
        lost = next((a.json() for a in answers if a.status == 409), None)
        with live.app.app_context():
            from companion import store
            from companion.store.db import db

            held = store.seat_of_token(store.get_game(game_id), (won or {}).get("seat_token"))
            db.session.remove()
        outcomes.append(
            statuses == [201, 409]
            and isinstance(lost, dict)
            and lost["code"] == "seat_taken"
            and held == 0
        )
    assert all(outcomes), f"{outcomes.count(False)} of 20 tries did not give the seat to one"
