"""The leaderboard's polls at table scale: a still-current poll is answered 304 before
Flask (no session read or written, the safety headers still on), anything else goes
through Flask; and a write made by another process reaches the polls within a second."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa
from flask import Flask, appcontext_pushed, request_started
from flask.testing import FlaskClient

from companion import versions
from companion.extensions import db


@pytest.fixture
def through_flask(app: Flask) -> Iterator[list[str]]:
    """The paths of the requests that reached Flask (the quick 304s don't)."""
    seen: list[str] = []

    def started(sender: Flask, **_: object) -> None:
        from flask import request

        seen.append(request.full_path)

    with request_started.connected_to(started, app):
        yield seen


def board_url(client: FlaskClient, game_id: str, lang: str) -> str:
    """The board's address as the game page gives it to its script."""
    page = client.get(f"/games/{game_id}", headers={"Accept-Language": lang}).get_data(True)
    found = re.search(r'data-live-url="([^"]+)"', page)
    assert found, page
    return found[1].replace("&amp;", "&")


def test_the_page_polls_its_board_in_its_own_language(client, new_game):
    game = new_game()
    assert board_url(client, game.id, "lt") == f"/games/{game.id}/board?lang=lt"
    assert board_url(client, game.id, "cs") == f"/games/{game.id}/board?lang=cs"


def test_a_current_poll_is_answered_before_flask(client, new_game, through_flask):
    game = new_game()
    url = board_url(client, game.id, "hu")
    first = client.get(url)
    assert first.status_code == 200
    tag = first.headers["ETag"]
    assert tag == f'"{game.id}-1-hu"'
    through_flask.clear()

    again = client.get(url, headers={"If-None-Match": tag})
    assert again.status_code == 304
    assert again.get_data() == b""
    assert again.headers["ETag"] == tag
    assert again.headers["X-Frame-Options"] == "DENY"
    assert again.headers["X-Content-Type-Options"] == "nosniff"
    assert "frame-ancestors 'none'" in again.headers["Content-Security-Policy"]
    assert "Set-Cookie" not in again.headers  # the session is neither read nor written
    assert through_flask == []  # Flask never saw it
    # Several tags, weak or strong, as a browser may send them:
    listed = client.get(url, headers={"If-None-Match": f'"other", W/{tag}'})
    assert listed.status_code == 304 and through_flask == []


def test_between_looks_a_current_poll_needs_no_app_context(app, client, new_game):
    """While no look is due, the version a 304 needs comes from the watch's memory: no
    app context is pushed (a tenth of a poll's time), no statement runs."""
    game = new_game()
    url = board_url(client, game.id, "cs")
    tag = client.get(url).headers["ETag"]
    assert client.get(url, headers={"If-None-Match": tag}).status_code == 304  # watch known
    with app.app_context():
        versions.watch().looked = time.monotonic()  # just looked
    pushed: list[object] = []
    statements, stop = count_statements(app)
    try:
        with appcontext_pushed.connected_to(lambda sender, **_: pushed.append(sender), app):
            assert client.get(url, headers={"If-None-Match": tag}).status_code == 304
    finally:
        stop()
    assert pushed == [] and statements == []


def test_a_poll_out_of_date_gets_the_new_board(app, client, new_game, through_flask):
    """One process, no shared views (``make run``): the new board is rendered through
    Flask by the first poll that asks for it (with shared views, the save keeps it and
    the poll is answered before Flask: below)."""
    app.config["SHARE_RENDERED"] = False
    game = new_game()
    url = board_url(client, game.id, "en")
    tag = client.get(url).headers["ETag"]
    game.put_round(1, [
        {"name": "Ann", "words": [["C", "A", "T"]], "unused": [], "went_out": True},
        {"name": "Ben", "words": [], "unused": ["Q", "U", "Z"]},
        {"name": "Cy", "words": [["O", "X"]], "unused": ["E"]},
    ])
    through_flask.clear()
    changed = client.get(url, headers={"If-None-Match": tag})
    assert changed.status_code == 200  # this process's own write: at once
    assert changed.headers["ETag"] == f'"{game.id}-2-en"'
    assert through_flask == [url]


def test_another_language_or_no_language_goes_to_flask(client, new_game, through_flask):
    game = new_game()
    tag = client.get(f"/games/{game.id}/board?lang=lt").headers["ETag"]
    through_flask.clear()
    other = client.get(f"/games/{game.id}/board?lang=cs", headers={"If-None-Match": tag})
    assert other.status_code == 200 and other.headers["ETag"] == f'"{game.id}-1-cs"'
    # No language in the address (an older page): Flask works it out from the phone.
    bare = client.get(
        f"/games/{game.id}/board",
        headers={"If-None-Match": tag, "Accept-Language": "lt"},
    )
    assert bare.status_code == 304
    assert through_flask == [
        f"/games/{game.id}/board?lang=cs", f"/games/{game.id}/board?"
    ]


def test_a_stranger_host_or_a_missing_game_is_never_a_quick_304(client, new_game):
    game = new_game()
    url = f"/games/{game.id}/board?lang=en"
    tag = client.get(url).headers["ETag"]
    stranger = client.get(url, headers={"If-None-Match": tag, "Host": "evil.example"})
    assert stranger.status_code == 400  # refused by Flask, as any request to that host
    assert "evil.example" in stranger.get_data(True)
    missing = client.get(
        "/games/no-such-game/board?lang=en", headers={"If-None-Match": '"no-such-game-1-en"'}
    )
    assert missing.status_code == 404


def other_process_writes(app: Flask, game_id: str) -> None:
    """A write as another worker makes it: the row changed, this process not told."""
    with app.app_context(), db.engine.begin() as conn:
        conn.execute(
            sa.text("UPDATE game SET version = version + 1, updated_at = :now WHERE id = :id"),
            {"now": datetime.now(UTC).replace(tzinfo=None), "id": game_id},
        )


def test_a_write_by_another_process_shows_after_the_next_look(app, client, new_game):
    """Versions come from memory between looks (no query per poll), and the next look,
    at most half a second later, brings another worker's write."""
    game = new_game()
    url = f"/games/{game.id}/board?lang=en"
    tag = client.get(url).headers["ETag"]
    assert client.get(url, headers={"If-None-Match": tag}).status_code == 304
    other_process_writes(app, game.id)
    with app.app_context():
        watch = versions.watch()
    assert client.get(url, headers={"If-None-Match": tag}).status_code == 304  # not looked yet
    watch.looked -= versions.LOOK_EVERY  # half a second later
    seen = client.get(url, headers={"If-None-Match": tag})
    assert seen.status_code == 200
    assert seen.headers["ETag"] == f'"{game.id}-2-en"'


def stale_watch(app: Flask, client, new_game):  # type: ignore[no-untyped-def]
    """A game's board held by a phone (its URL and ETag), a write by another process
    since, and this process's watch with its last look a second old (``FRESH``)."""
    game = new_game()
    url = f"/games/{game.id}/board?lang=en"
    tag = client.get(url).headers["ETag"]
    other_process_writes(app, game.id)
    with app.app_context():
        watch = versions.watch()
    watch.looked -= versions.FRESH
    return game, url, tag, watch


def count_statements(app: Flask) -> tuple[list[str], Callable[[], None]]:
    """The statements the app's engine runs from now on, and how to stop counting."""
    with app.app_context():
        engine = db.engine
    statements: list[str] = []

    def count(conn, cursor, statement, *args):  # type: ignore[no-untyped-def]
        statements.append(statement)

    sa.event.listen(engine, "before_cursor_execute", count)
    return statements, lambda: sa.event.remove(engine, "before_cursor_execute", count)


def another_look(watch: versions.Watch, began: float = 0.0) -> threading.Event:
    """A look by another request, under way since ``began`` seconds ago."""
    watch.under_way, watch.began = threading.Event(), time.monotonic() - began
    return watch.under_way


def look_ends_later(
    watch: versions.Watch, game_id: str, version: int, begun: float, after: float
) -> threading.Timer:
    """The look under way (``another_look``) ends in ``after`` seconds, as a look does:
    ``game_id`` found at ``version``, the look counted, its time the one it began at
    (``begun`` seconds before it ended), its waiters woken. Started; join it."""
    under_way = watch.under_way
    assert under_way is not None

    def ends() -> None:
        watch.known[game_id] = (watch.known[game_id][0], version)
        watch.looks += 1
        watch.looked = time.monotonic() - begun
        watch.under_way = None
        under_way.set()

    looker = threading.Timer(after, ends)
    looker.start()
    return looker


def test_a_busy_process_answers_with_what_it_knows_rather_than_read_each_game(
    app, client, new_game, monkeypatch
):
    """Past fresh, with a look under way that doesn't end within ``LOOK_WAIT`` (a busy
    process), a poll answers with the version known (the write shows after that look)
    and reads no game row."""
    monkeypatch.setattr(versions, "LOOK_WAIT", 0.05)
    _, url, tag, watch = stale_watch(app, client, new_game)
    another_look(watch)
    statements, stop = count_statements(app)
    try:
        assert client.get(url, headers={"If-None-Match": tag}).status_code == 304
    finally:
        stop()
    assert statements == []


def test_with_a_look_stuck_the_game_row_is_read(app, client, new_game, monkeypatch):
    """A look under way for ``LOOK_STUCK`` seconds (a database that stopped answering it)
    is not waited for: a poll reads its game, and sees the other process's write."""
    monkeypatch.setattr(versions, "LOOK_WAIT", 0.05)
    game, url, tag, watch = stale_watch(app, client, new_game)
    another_look(watch, began=versions.LOOK_STUCK)
    seen = client.get(url, headers={"If-None-Match": tag})
    assert seen.status_code == 200 and seen.headers["ETag"] == f'"{game.id}-2-en"'


def test_past_fresh_polls_wait_for_the_look_under_way_instead_of_reading_their_games(
    app, client, new_game
):
    """A busy process looks late: the polls of that moment wait for the one look rather
    than each read its own game's row (which would make the process busier still), are
    woken when it ends, and answer what it brought (however long it took)."""
    game, url, tag, watch = stale_watch(app, client, new_game)
    another_look(watch)
    looker = look_ends_later(watch, game.id, 2, begun=versions.FRESH, after=0.3)  # slow
    statements, stop = count_statements(app)
    try:
        seen = client.get(url, headers={"If-None-Match": tag})
    finally:
        stop()
        looker.join()
    assert seen.status_code == 200 and seen.headers["ETag"] == f'"{game.id}-2-en"'
    assert not [s for s in statements if s.lstrip().startswith("SELECT game.version")]


def test_a_board_one_process_rendered_is_served_by_the_others(app, client, new_game):
    """With SHARE_RENDERED (a server database), the first process to render a view keeps
    it in shared_page; another process (its memory empty) serves that copy instead of
    rendering, and a newer version takes the old one's row."""
    from companion.web import rendered

    app.config["SHARE_RENDERED"] = True
    game = new_game()
    url = f"/games/{game.id}/board?lang=lt"
    first = client.get(url)
    assert first.status_code == 200
    with app.app_context(), db.engine.begin() as conn:
        kept = conn.execute(sa.text("SELECT game_id, version, body FROM shared_page")).all()
        assert [(g, v) for g, v, _ in kept] == [(game.id, 1)]
        assert kept[0][2] == first.get_data(True)
        conn.execute(sa.text("UPDATE shared_page SET body = 'kept by another worker'"))
    rendered.pages.clear()  # as a process that never rendered it
    assert client.get(url).get_data(True) == "kept by another worker"

    game.put_round(1, [
        {"name": "Ann", "words": [["C", "A", "T"]], "unused": [], "went_out": True},
        {"name": "Ben", "words": [], "unused": ["Q", "U", "Z"]},
        {"name": "Cy", "words": [["O", "X"]], "unused": ["E"]},
    ])
    newer = client.get(url)
    assert newer.headers["ETag"] == f'"{game.id}-2-lt"'
    with app.app_context(), db.engine.connect() as conn:
        rows = conn.execute(sa.text("SELECT version, body FROM shared_page")).all()
    assert rows == [(2, newer.get_data(True))]  # one row per view: the newest version


ROUND_1 = [
    {"name": "Ann", "words": [["C", "A", "T"]], "unused": [], "went_out": True},
    {"name": "Ben", "words": [], "unused": ["Q", "U", "Z"]},
    {"name": "Cy", "words": [["O", "X"]], "unused": ["E"]},
]


def kept_boards(app: Flask) -> dict[str, tuple[int, str]]:
    """The boards kept in shared_page, by language: their version and body."""
    from companion.pages.games import BOARD_NAMES

    with app.app_context(), db.engine.connect() as conn:
        rows = conn.execute(sa.text("SELECT name, version, body FROM shared_page")).all()
    return {BOARD_NAMES[name]: (version, body) for name, version, body in rows}


def test_a_save_makes_the_new_boards_ready_in_the_languages_its_phones_read(
    app, client, new_game
):
    """With SHARE_RENDERED, the process that saved a round renders the game's new board
    in each language a phone asked for before (and only those), and keeps it: a poll in
    another process (its memory empty) serves it from one row, without loading the game."""
    from companion.web import rendered

    app.config["SHARE_RENDERED"] = True
    game = new_game()
    for lang in ("lt", "hu"):
        assert client.get(f"/games/{game.id}/board?lang={lang}").status_code == 200
    assert {lang: v for lang, (v, _) in kept_boards(app).items()} == {"lt": 1, "hu": 1}

    assert game.put_round(1, ROUND_1).status_code == 200

    kept = kept_boards(app)
    assert {lang: v for lang, (v, _) in kept.items()} == {"lt": 2, "hu": 2}  # no en, cs
    assert 'data-version="2"' in kept["lt"][1]
    assert 'data-total="' in kept["hu"][1] and "Ann" in kept["hu"][1]
    assert kept["lt"][1] != kept["hu"][1]  # each in its own language

    rendered.pages.clear()  # another process: nothing in its memory
    statements, stop = count_statements(app)
    try:
        seen = client.get(f"/games/{game.id}/board?lang=hu")
    finally:
        stop()
    assert seen.status_code == 200 and seen.headers["ETag"] == f'"{game.id}-2-hu"'
    assert seen.get_data(True) == kept["hu"][1]
    assert not [s for s in statements if "FROM round" in s or "FROM player" in s]
    assert kept_boards(app) == kept  # read, not rendered and kept again


def test_after_a_save_the_phones_get_the_kept_board_before_flask(
    app, client, new_game, through_flask
):
    """The phones of the table all ask for the new board after a save: the one the save
    kept (another process's memory empty: one row read) is answered before Flask, with
    what Flask answers (body, ETag and every header, no session cookie); a phone without
    a tag yet gets it too."""
    from companion.web import rendered

    app.config["SHARE_RENDERED"] = True
    game = new_game()
    url = f"/games/{game.id}/board?lang=cs"
    through_flask.clear()
    by_flask = client.get(url)  # rendered through Flask: the answer to match
    assert by_flask.status_code == 200 and through_flask == [url]
    old_tag = by_flask.headers["ETag"]
    assert game.put_round(1, ROUND_1).status_code == 200
    rendered.pages.clear()  # another process
    through_flask.clear()

    seen = client.get(url, headers={"If-None-Match": old_tag})
    assert through_flask == []
    assert seen.status_code == 200
    assert seen.get_data(True) == kept_boards(app)["cs"][1]
    assert seen.headers["ETag"] == f'"{game.id}-2-cs"'
    assert seen.headers["Content-Length"] == str(len(seen.get_data()))
    assert sorted(seen.headers.keys()) == sorted(by_flask.headers.keys())
    for same in ("Content-Type", "Cache-Control", "X-Frame-Options", "X-Content-Type-Options",
                 "Referrer-Policy", "Content-Security-Policy"):
        assert seen.headers[same] == by_flask.headers[same], same
    assert "Set-Cookie" not in seen.headers

    statements, stop = count_statements(app)
    try:  # kept in this process's memory now: no statement
        untagged = client.get(url)
    finally:
        stop()
    assert untagged.status_code == 200 and untagged.get_data() == seen.get_data()
    assert statements == [] and through_flask == []
    current = client.get(url, headers={"If-None-Match": seen.headers["ETag"]})
    assert current.status_code == 304 and through_flask == []


def test_a_board_not_rendered_yet_is_rendered_by_flask(app, client, new_game, through_flask):
    """A board at a version nobody rendered (here or among the shared views) goes on to
    Flask, which renders and keeps it; the next process serves that copy before Flask."""
    from companion.web import rendered

    app.config["SHARE_RENDERED"] = True
    game = new_game()
    assert game.put_round(1, ROUND_1).status_code == 200  # no phone asked before: none kept
    assert kept_boards(app) == {}
    url = f"/games/{game.id}/board?lang=hu"
    through_flask.clear()
    first = client.get(url)
    assert first.status_code == 200 and through_flask == [url]
    assert kept_boards(app)["hu"] == (2, first.get_data(True))
    rendered.pages.clear()
    through_flask.clear()
    assert client.get(url).get_data() == first.get_data() and through_flask == []


def test_a_refused_save_makes_no_board(app, client, new_game):
    """A save refused (nothing written) leaves the kept boards as they were."""
    app.config["SHARE_RENDERED"] = True
    game = new_game()
    assert client.get(f"/games/{game.id}/board?lang=cs").status_code == 200
    before = kept_boards(app)
    broken = [dict(ROUND_1[0], words=[["C", "A", "T"]], unused=["Q"]), *ROUND_1[1:]]
    assert game.put_round(1, broken).status_code == 422
    assert kept_boards(app) == before


def test_without_shared_views_a_save_renders_nothing(app, client, new_game):
    """One process (SQLite, ``make run``): the first poll renders the new board, in memory."""
    app.config["SHARE_RENDERED"] = False
    game = new_game()
    assert client.get(f"/games/{game.id}/board?lang=lt").status_code == 200
    assert game.put_round(1, ROUND_1).status_code == 200
    assert kept_boards(app) == {}
    assert client.get(f"/games/{game.id}/board?lang=lt").headers["ETag"] == f'"{game.id}-2-lt"'


def test_a_board_the_database_refused_to_keep_never_fails_the_save(app, client, new_game):
    """The save is committed before its boards are made ready: if keeping one fails (the
    database refuses the statement), the save still answers its new state, and the next
    poll renders the board itself."""
    app.config["SHARE_RENDERED"] = True
    game = new_game()
    url = f"/games/{game.id}/board?lang=lt"
    assert client.get(url).status_code == 200
    with app.app_context():
        engine = db.engine

    def refuse(conn, cursor, statement, *args):  # type: ignore[no-untyped-def]
        if statement.lstrip().upper().startswith("UPDATE SHARED_PAGE"):
            raise sa.exc.OperationalError(statement, {}, Exception("disk I/O error"))

    sa.event.listen(engine, "before_cursor_execute", refuse)
    try:
        saved = game.put_round(1, ROUND_1)
    finally:
        sa.event.remove(engine, "before_cursor_execute", refuse)
    assert saved.status_code == 200
    assert saved.json["number"] == 1 and saved.json["result"]["players"][0]["score"] == 23
    assert kept_boards(app)["lt"][0] == 1  # not kept
    seen = client.get(url)
    assert seen.headers["ETag"] == f'"{game.id}-2-lt"' and 'data-version="2"' in seen.get_data(True)


def test_a_look_that_took_long_still_answers_its_waiters(app, new_game):
    """A look slower than ``FRESH`` (a busy process): the requests that waited for it
    answer with what it brought, not each with a read of its own game."""
    game = new_game()
    with app.app_context():
        watch = versions.Watch()
        watch.known[game.id] = (time.monotonic(), 1)
        watch.since = datetime.now(UTC).replace(tzinfo=None)
        watch.looked = time.monotonic() - 3 * versions.FRESH
        another_look(watch, began=2 * versions.FRESH)
        looker = look_ends_later(watch, game.id, 7, begun=2 * versions.FRESH, after=0.2)
        statements, stop = count_statements(app)
        try:
            assert watch.version(game.id) == 7
        finally:
            stop()
            looker.join()
    assert statements == []
