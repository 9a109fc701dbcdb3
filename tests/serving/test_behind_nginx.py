"""The production start behind nginx (deploy/nginx.conf, started by scripts/nginx.sh):
pages, forms and the API work through it, nginx serves the static files itself, the polls
every phone shares come from its one-second micro-cache (the answers the app marks with
``X-Accel-Expires: 1``) and nothing else is ever cached, a client's own X-Forwarded-*
headers never reach the app, and two gunicorn instances behind one nginx serve one table.
"""

from __future__ import annotations

import json
import re
import time
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

import sqlalchemy

ROOT = Path(__file__).resolve().parent.parent.parent
STATIC = ROOT / "companion" / "static"
JSON = {"Content-Type": "application/json"}
FORM = {"Content-Type": "application/x-www-form-urlencoded"}
BEHIND_NGINX = {"TRUSTED_PROXIES": "1", "ACCESS_LOG": "-"}
"""The app trusts nginx's X-Forwarded-* (one proxy); gunicorn logs every request it gets."""

CACHE_LIFETIME = 2.0
"""Seconds a cached answer may be served at most: the app's ``X-Accel-Expires: 1``, which
nginx counts in whole seconds of its clock (one second more at worst)."""

HANDS = {"words": [["C", "A", "T"]], "unused": [], "went_out": False}
"""A hand of round 1 (3 cards) Ann saves for her seat: CAT."""


def new_game(front, names: list[str], headers: dict[str, str] | None = None) -> dict:
    asked = json.dumps({"players": names}).encode()
    status, body = front.request("POST", "/api/v1/games", asked, {**JSON, **(headers or {})})
    assert status == 201, body
    return json.loads(body)


def games_stored(url: str) -> int:
    engine = sqlalchemy.create_engine(url)
    try:
        with engine.connect() as conn:
            return conn.execute(sqlalchemy.text("SELECT count(*) FROM game")).scalar_one()
    finally:
        engine.dispose()


def cookie_of(headers: dict) -> str:
    """The ``Cookie`` header that sends back the session cookie ``headers`` set."""
    jar: SimpleCookie = SimpleCookie()
    jar.load(headers["Set-Cookie"])
    return f"session={jar['session'].value}"


def save_seat(front, game: dict, seat: int) -> None:
    """Claim ``seat`` and save its hand of round 1 (``HANDS``), through ``front``."""
    status, body = front.request(
        "POST", f"/api/v1/games/{game['id']}/seats/{seat}/claim", b"", JSON
    )
    assert status == 201, body
    token = json.loads(body)["seat_token"]
    status, body = front.request(
        "PUT",
        f"/api/v1/games/{game['id']}/rounds/1/seats/{seat}",
        json.dumps(HANDS).encode(),
        {**JSON, "Authorization": f"Bearer {token}"},
    )
    assert status == 200, body


def test_pages_forms_and_the_api_work_through_nginx(empty_database, gunicorn, nginx):
    server = gunicorn(empty_database, workers=2, **BEHIND_NGINX)
    assert server.serving() == 2, server.text()
    front = nginx(server)
    # A page, and the new-game form: its CSRF cookie, the POST, the redirect to the game.
    status, headers, page = front.get("/games/new")
    assert status == 200
    assert headers["Server"] == "nginx"
    csrf = re.search(rb'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert csrf
    form = {
        "csrf_token": csrf.group(1).decode(),
        "players-0-name": "Ann",
        "players-1-name": "Ben",
        "first_dealer": "1",
    }
    status, headers, _ = front.exchange(
        "POST", "/games/new", urlencode(form).encode(), {**FORM, "Cookie": cookie_of(headers)}
    )
    assert status == 302
    made = re.fullmatch(r"/games/([\w-]+)\?created=1", headers["Location"])
    assert made, headers["Location"]
    status, headers, page = front.get(headers["Location"])
    assert status == 200 and b'data-player="Ann"' in page and b'data-player="Ben"' in page
    # The API: the links it gives name the address the client asked nginx for (the Host
    # and port nginx forwards), not gunicorn's.
    game = new_game(front, ["Cy", "Di"])
    assert game["view_url"] == f"http://127.0.0.1:{front.port}/games/{game['id']}"
    assert games_stored(empty_database) == 2
    # A body over the app's 256 KiB: refused unread by nginx, in the app's own words.
    big = json.dumps({"players": ["A" * (300 * 1024)]}).encode()
    status, headers, body = front.exchange("POST", "/api/v1/games", big, JSON)
    assert status == 413
    assert json.loads(body)["code"] == "too_large"
    assert games_stored(empty_database) == 2
    assert server.asked("POST", "/api/v1/games", 2) == 2  # the big one came without its body


def test_nginx_serves_the_static_files_itself(empty_database, gunicorn, nginx):
    server = gunicorn(empty_database, workers=1, **BEHIND_NGINX)
    assert server.serving() == 1, server.text()
    front = nginx(server)
    status, headers, body = front.get("/static/style.css")
    assert status == 200
    assert body == (STATIC / "style.css").read_bytes()
    assert headers["Content-Type"] == "text/css; charset=utf-8"
    assert headers["Cache-Control"] == "no-cache"  # unversioned: asked again each time
    assert headers["X-Content-Type-Options"] == "nosniff"
    status, _, _ = front.get("/static/style.css", {"If-None-Match": headers["ETag"]})
    assert status == 304
    status, headers, body = front.get("/static/board.js")
    assert status == 200 and body == (STATIC / "board.js").read_bytes()
    assert headers["Content-Type"] == "application/javascript; charset=utf-8"
    for icon in ("/static/icon.svg", "/favicon.ico"):
        status, headers, _ = front.get(icon)
        assert status == 200
        assert headers["Cache-Control"] == f"max-age={30 * 24 * 3600}"
    assert front.get("/static/no-such-file.js")[0] == 404
    assert front.get("/health")[0] == 200  # through gunicorn: its line ends the log
    assert server.asked("GET", "/health", 1) == 1
    log = server.text()
    assert "/static/" not in log and "favicon" not in log, log


def test_the_shared_polls_come_from_the_cache_and_nothing_else_does(
    empty_database, gunicorn, nginx
):
    """The board and the round's live part, marked by the app, are answered by nginx for
    a second (a HIT, and a 304 for the ETag a phone holds); a game page and an API GET
    always reach gunicorn, so a change shows there at once."""
    server = gunicorn(empty_database, workers=1, **BEHIND_NGINX)
    assert server.serving() == 1, server.text()
    front = nginx(server)
    game = new_game(front, ["Ann", "Ben"])
    board = f"/games/{game['id']}/board?lang=en"
    status, headers, first = front.get(board)
    assert (status, headers["X-Cache-Status"]) == (200, "MISS")
    assert headers["Cache-Control"] == "no-cache"  # browsers ask again every poll
    assert "X-Accel-Expires" not in headers  # nginx's mark, not the browsers'
    status, again, body = front.get(board)
    assert (status, again["X-Cache-Status"], body) == (200, "HIT", first)
    status, held, body = front.get(board, {"If-None-Match": headers["ETag"]})
    assert (status, held["X-Cache-Status"], body) == (304, "HIT", b"")
    assert held["ETag"] == headers["ETag"]
    assert server.asked("GET", board, 1) == 1
    # Another language is another entry.
    status, headers, body = front.get(f"/games/{game['id']}/board?lang=lt")
    assert (status, headers["X-Cache-Status"]) == (200, "MISS")

    # Not marked, never cached: every request reaches gunicorn, a change shows at once.
    page, api = f"/games/{game['id']}", f"/api/v1/games/{game['id']}"
    for path in (page, api):
        status, headers, _ = front.get(path)
        assert status == 200 and "X-Cache-Status" not in headers
    before = json.loads(front.get(api)[2])["version"]
    save_seat(front, game, 0)
    status, _, body = front.get(api)
    assert json.loads(body)["version"] > before
    status, _, body = front.get(page)
    assert b"Round 1: waiting for Ben to enter their hand." in body
    assert server.asked("GET", page, 2) == 2 and server.asked("GET", api, 3) == 3


def test_the_round_s_live_part_comes_from_the_cache(empty_database, gunicorn, nginx):
    """The part of the round page every phone at the table polls: the same for all of
    them, marked by the app, answered by nginx for a second."""
    server = gunicorn(empty_database, workers=1, **BEHIND_NGINX)
    assert server.serving() == 1, server.text()
    front = nginx(server)
    game = new_game(front, ["Ann", "Ben"])
    live = f"/games/{game['id']}/rounds/1/live?lang=en"
    status, headers, first = front.get(live)
    assert (status, headers["X-Cache-Status"]) == (200, "MISS")
    assert "Set-Cookie" not in headers  # an answer setting a cookie is never stored
    status, headers, body = front.get(live)
    assert (status, headers["X-Cache-Status"], body) == (200, "HIT", first)
    status, headers, body = front.get(live, {"If-None-Match": headers["ETag"]})
    assert (status, headers["X-Cache-Status"], body) == (304, "HIT", b"")
    assert server.asked("GET", live, 1) == 1


def forwarded_headers_read_behind_nginx() -> set[str]:
    """Every forwarded header a part behind nginx knows, from the parts themselves:
    Werkzeug's ProxyFix (the app), gunicorn's secure-scheme headers (read from a proxy it
    is told to trust), waitress's proxy headers; and X-Real-IP."""
    import gunicorn.config
    import waitress.proxy_headers
    import werkzeug.middleware.proxy_fix

    proxy_fix = Path(werkzeug.middleware.proxy_fix.__file__).read_text()
    environ_keys = set(re.findall(r'"HTTP_(X_FORWARDED_[A-Z]+)"', proxy_fix))
    environ_keys |= set(waitress.proxy_headers.PROXY_HEADERS)
    names = {key.replace("_", "-").lower() for key in environ_keys}
    names |= {name.lower() for name in gunicorn.config.Config().secure_scheme_headers}
    assert {"x-forwarded-prefix", "x-forwarded-ssl", "forwarded"} <= names  # read at all
    return names | {"x-real-ip"}


def test_nginx_sets_or_removes_every_forwarded_header() -> None:
    """deploy/nginx.conf sets every forwarded header a part behind it knows, to nginx's
    own value or to none (a client's own is then never passed on), in the server and in
    the one location that sets headers of its own (which replace the server's)."""
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    server = conf[conf.index("    server {") : conf.index("        location / {")]
    too_large = conf[conf.index("location @too_large {") :]
    too_large = too_large[: too_large.index("}")]
    wanted = forwarded_headers_read_behind_nginx()
    for block in (server, too_large):
        named = {n.lower() for n in re.findall(r"^\s*proxy_set_header\s+(\S+)", block, re.M)}
        assert wanted <= named, sorted(wanted - named)
    assert conf.count("proxy_set_header X-Forwarded-For $remote_addr;") == 2


def test_a_client_s_forwarded_headers_never_reach_the_app(empty_database, gunicorn, nginx):
    """The app trusts X-Forwarded-* (TRUSTED_PROXIES=1) because nginx sets them from its
    own values: a client's own never changes a link, not in its answer nor in the board
    the cache then gives everyone else, nor in the game page the app keeps."""
    server = gunicorn(empty_database, workers=1, **BEHIND_NGINX)
    assert server.serving() == 1, server.text()
    front = nginx(server)
    forged = {
        "X-Forwarded-Host": "evil.example",
        "X-Forwarded-Prefix": "//evil.example",
        "X-Forwarded-Proto": "https",
        "X-Forwarded-Port": "8443",
        "X-Forwarded-For": "203.0.113.9",
        "X-Forwarded-Ssl": "on",
        "X-Forwarded-Protocol": "ssl",
        "Forwarded": "for=203.0.113.9;host=evil.example;proto=https",
    }
    game = new_game(front, ["Ann", "Ben"], forged)
    assert game["view_url"] == f"http://127.0.0.1:{front.port}/games/{game['id']}"
    board = f"/games/{game['id']}/board?lang=en"
    status, headers, body = front.get(board, forged)  # the first: it fills the cache
    assert (status, headers["X-Cache-Status"]) == (200, "MISS")
    status, headers, seen = front.get(board)
    assert (status, headers["X-Cache-Status"], seen) == (200, "HIT", body)
    links = re.findall(rb'href="([^"]*)"', seen)  # one to each round
    assert [link.decode() for link in links] == [
        f"/games/{game['id']}/rounds/{n}" for n in range(1, len(links) + 1)
    ]
    assert len(links) >= 8 and b"evil" not in seen
    page = f"/games/{game['id']}"
    for headers in (forged, {}):  # the page the app keeps for its viewers
        status, _, body = front.get(page, headers)
        assert status == 200 and b"evil" not in body
        assert f'href="/games/{game["id"]}/rounds/1"'.encode() in body


def test_two_instances_behind_one_nginx_serve_one_table(empty_database, redis_url, gunicorn, nginx):
    """A second machine, simulated: two gunicorn instances on one PostgreSQL and one
    Redis, behind one nginx. A game made through one is served by the other, a seat
    saved through nginx shows on the board polled through nginx once the cached copy's
    second is over (the next poll), and the limit on new games is one for both."""
    shared = {
        **BEHIND_NGINX,
        "RATELIMIT_ENABLED": "1",
        "RATELIMIT_STORAGE_URI": redis_url,
        "GAME_CREATION_LIMIT": "4 per minute",
    }
    one = gunicorn(empty_database, workers=1, **shared)
    two = gunicorn(empty_database, workers=1, **shared)
    assert one.serving() == 1 and two.serving() == 1, one.text() + two.text()
    front = nginx(one, two)

    game = new_game(one, ["Ann", "Ben"])  # straight to the first instance
    status, _, body = two.get(f"/api/v1/games/{game['id']}")
    assert status == 200
    assert [p["name"] for p in json.loads(body)["players"]] == ["Ann", "Ben"]

    board = f"/games/{game['id']}/board?lang=en"
    status, headers, before = front.get(board)  # a phone's poll: now in the cache
    assert status == 200 and b"waiting for" not in before
    save_seat(front, game, 0)
    # The phone goes on polling (every half second here) as board.js does: once the
    # cached copy's second is over, a poll brings the board that shows the seat.
    deadline = time.monotonic() + 30 * CACHE_LIFETIME  # a bound for a loaded box, not a target
    after = b""
    while b"waiting for Ben" not in after and time.monotonic() < deadline:
        time.sleep(0.5)  # the phone's poll interval, not a wait for a state
        status, answer, body = front.get(board, {"If-None-Match": headers["ETag"]})
        assert status in (200, 304), answer
        after = body if status == 200 else after
    assert b"Round 1: waiting for Ben to enter their hand." in after
    # Both instances answered requests through nginx (it spreads them).
    claim = f"/api/v1/games/{game['id']}/seats/0/claim"
    assert one.asked("POST", claim) + two.asked("POST", claim) == 1

    # The limit on new games (4 a minute per client: a script, its address) counted across both.
    made = [new_game(front, ["Cy", "Di"]) for _ in range(3)]  # with the first: 4
    assert len({m["id"] for m in made}) == 3
    assert min(one.asked("POST", "/api/v1/games"), two.asked("POST", "/api/v1/games")) >= 1
    refused = json.dumps({"players": ["Eve"]}).encode()
    status, body = front.request("POST", "/api/v1/games", refused, JSON)
    assert status == 429, body
    assert json.loads(body)["code"] == "too_many_new_games"
    assert games_stored(empty_database) == 4


def test_nginx_takes_the_hand_forms_photos_up_to_the_pages_own_limits() -> None:
    """deploy/nginx.conf lets the two hand forms' bodies through up to the app's limits of
    those pages (a photo per hand), and no more; every other body stays at 256 KiB."""
    from companion.pages import rounds
    from companion.vision.photo import MOST_BYTES
    from companion.web.forms import BACKUP_MOST_BYTES

    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    found = dict(re.findall(r"location ~ (\S+) \{\s*client_max_body_size (\d+)m;", conf, re.M))
    seat = r"^/games/[^/]+/rounds/[0-9]+/seats/[0-9]+$"
    every = r"^/games/[^/]+/rounds/[0-9]+$"
    read = r"^/api/v1/cards/read$"
    backup = r"^/tables/import$"
    assert set(found) == {seat, every, read, backup}
    mib = 1024 * 1024
    limits = (
        (seat, rounds.SEAT_BODY),
        (every, rounds.ROUND_BODY),
        (read, MOST_BYTES),
        (backup, BACKUP_MOST_BYTES + 64 * 1024),
    )
    for where, limit in limits:
        assert limit <= int(found[where]) * mib < limit + mib, where
    assert re.fullmatch(seat, "/games/abc_-9/rounds/3/seats/1")
    assert re.fullmatch(every, "/games/abc_-9/rounds/3")
    assert not re.fullmatch(every, "/games/abc/rounds/3/live")
    assert conf.count("client_max_body_size") == 5


def multipart(fields: dict[str, str], files: dict[str, bytes]) -> tuple[bytes, str]:
    """A form's body as a browser sends it with a file (``multipart/form-data``)."""
    boundary = "----companion-test-boundary"
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode()
        for k, v in fields.items()
    ]
    parts += [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"; filename="{k}.jpg"\r\n'
        f"Content-Type: image/jpeg\r\n\r\n".encode()
        + data
        + b"\r\n"
        for k, data in files.items()
    ]
    body = b"".join(parts) + f"--{boundary}--\r\n".encode()
    return body, f"multipart/form-data; boundary={boundary}"


def test_a_hand_with_its_photo_goes_through_nginx(empty_database, gunicorn, nginx):
    """A phone camera's photo of a few MB, with the hand, through nginx to the app: kept."""
    import io

    from PIL import Image

    server = gunicorn(empty_database, workers=1, **BEHIND_NGINX)
    assert server.serving() == 1, server.text()
    front = nginx(server)
    status, headers, page = front.get("/games/new")
    csrf = re.search(rb'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert status == 200 and csrf
    form = {
        "csrf_token": csrf.group(1).decode(),
        "players-0-name": "Ann",
        "players-1-name": "Ben",
        "first_dealer": "1",
        "keep_photos": "y",
    }
    status, headers, _ = front.exchange(
        "POST", "/games/new", urlencode(form).encode(), {**FORM, "Cookie": cookie_of(headers)}
    )
    assert status == 302
    cookie = cookie_of(headers)
    game = re.fullmatch(r"/games/([\w-]+)\?created=1", headers["Location"])
    assert game
    status, _, page = front.get(f"/games/{game[1]}/rounds/1", {"Cookie": cookie})
    csrf = re.search(rb'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert status == 200 and csrf
    noisy = io.BytesIO()
    Image.effect_noise((2400, 1800), 60).convert("RGB").save(noisy, "JPEG", quality=95)
    photo = noisy.getvalue()
    assert len(photo) > 1024 * 1024  # far over nginx's 256 KiB elsewhere
    body, content_type = multipart(
        {"csrf_token": csrf.group(1).decode(), "words": "cat", "version": "0"}, {"photo": photo}
    )
    status, headers, answer = front.exchange(
        "POST",
        f"/games/{game[1]}/rounds/1/seats/0",
        body,
        {"Content-Type": content_type, "Cookie": cookie},
    )
    assert status == 302, answer[:500]
    status, headers, kept = front.get(f"/games/{game[1]}/rounds/1/photos/0.jpg")
    assert status == 200 and headers["Content-Type"] == "image/jpeg"
    assert max(Image.open(io.BytesIO(kept)).size) == 1600
    assert headers.get("X-Cache-Status") is None  # never nginx's micro-cache
