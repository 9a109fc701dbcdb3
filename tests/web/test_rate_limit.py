"""Rate limits: new games, word checks, best plays and seat claims are limited per client (a
browser's session, else its address), under a looser ceiling per address, and seat claims
per game: a script can't fill the server, and the 80 phones of a venue behind one router
are never limited in play. A 429 says what was limited and when to try again."""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Callable, Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from companion import create_app, upgrade_database
from companion.web import messages
from companion.web.extensions import limiter

GAME = {"players": ["Ann", "Ben"]}


@pytest.fixture(autouse=True)
def limits_off_afterwards() -> Iterator[None]:
    """The app's Limiter is one for every app a worker makes, and an app made with
    ``RATELIMIT_ENABLED`` turns it on for all: turned off again, and its counts
    emptied, the tests after these run without limits, as their apps say."""
    yield
    limiter.reset()
    limiter.enabled = False


def limited_app(app: Flask, tmp_path, **limits: object) -> Flask:
    """An app of its own with rate limits on, as configured by ``limits``."""
    config = {k: v for k, v in app.config.items() if k != "SQLALCHEMY_DATABASE_URI"}
    config.update(
        DATABASE_URL=f"sqlite:///{tmp_path / 'limited.sqlite3'}", RATELIMIT_ENABLED=True, **limits
    )
    made = create_app(config)
    upgrade_database(made)
    limiter.reset()
    return made


def phone(app: Flask) -> FlaskClient:
    """A browser with a session of its own (a language chosen writes it), on the same
    address as every other test client."""
    client = app.test_client()
    assert client.get("/language/en?next=/").status_code == 302
    return client


def test_game_creation_stops_at_the_limit_and_stores_nothing_more(app: Flask, tmp_path) -> None:
    limited = limited_app(app, tmp_path, GAME_CREATION_LIMIT="3 per minute")
    client = limited.test_client()
    made = [client.post("/api/v1/games", json=GAME).status_code for _ in range(3)]
    assert made == [201, 201, 201]
    refused = client.post("/api/v1/games", json=GAME)
    assert refused.status_code == 429
    assert refused.get_json()["code"] == "too_many_new_games"
    assert "Too many new games" in refused.get_json()["error"]
    page = client.post("/games/new", data={})
    assert page.status_code == 429  # the page's form counts the same games
    other = limited.test_client()
    answer = other.post("/api/v1/games", json=GAME, environ_base={"REMOTE_ADDR": "10.1.2.3"})
    assert answer.status_code == 201  # a client without a cookie is its address
    with limited.app_context():
        from companion.store.db import db
        from companion.store.models import Game

        assert db.session.query(Game).count() == 4


def test_new_tables_count_with_new_games(app: Flask, tmp_path) -> None:
    """A new table, like a new game, is a row anyone may make: it counts in the same
    limit, and the refused form stores nothing."""
    limited = limited_app(app, tmp_path, GAME_CREATION_LIMIT="2 per minute")
    client = phone(limited)
    table = {"name": "Sundays", "members-0-name": "Ann", "members-1-name": "Ben"}
    assert client.post("/api/v1/games", json=GAME).status_code == 201
    assert client.post("/tables/new", data=table).status_code == 302
    refused = client.post("/tables/new", data=table)
    assert refused.status_code == 429
    assert "Too many new games" in refused.get_data(as_text=True)
    with limited.app_context():
        from companion.store.db import db
        from companion.store.models import Group

        assert db.session.query(Group).count() == 1


def test_word_lookups_share_one_limit_across_api_and_pages(app: Flask, tmp_path) -> None:
    limited = limited_app(app, tmp_path, WORD_LOOKUP_LIMIT="4 per minute")
    client = limited.test_client()
    assert client.get("/api/v1/words/quiz").status_code == 200
    assert client.post("/api/v1/judge", json={"words": ["quiz"]}).status_code == 200
    assert client.get("/words?word=quiz").status_code == 200
    assert client.get("/judge").status_code == 200  # the empty form is not a lookup
    assert client.post("/api/v1/score", json={"players": []}).status_code != 429
    refused = client.get("/api/v1/words/quiz")
    assert refused.status_code == 429
    assert refused.get_json()["code"] == "too_many_word_checks"
    assert client.get("/words?word=quiz").status_code == 429
    assert client.get("/judge").status_code == 200
    # Another client address has its own count; the solver has its own limit.
    other = {"REMOTE_ADDR": "10.9.8.7"}
    assert client.get("/api/v1/words/quiz", environ_base=other).status_code == 200
    best = client.post("/api/v1/best", json={"cards": ["QU", "I", "Z"]})
    assert best.status_code == 200, best.get_json()


def test_the_solver_stops_at_its_limit(app: Flask, tmp_path) -> None:
    limited = limited_app(app, tmp_path, SOLVER_LIMIT="2 per minute")
    client = limited.test_client()
    hand = {"cards": ["C", "A", "T", "S"]}
    assert [client.post("/api/v1/best", json=hand).status_code for _ in range(3)] == [200, 200, 429]


def test_photo_reads_stop_at_their_limit(app: Flask, tmp_path) -> None:
    """Each read counts, a refused one too (the model's time is what is limited)."""
    limited = limited_app(app, tmp_path, PHOTO_READ_LIMIT="2 per minute")
    client = limited.test_client()

    def send() -> TestResponse:
        return client.post("/api/v1/cards/read", data=b"no picture", content_type="image/jpeg")

    assert [send().status_code for _ in range(2)] == [400, 400]
    third = send()
    assert third.status_code == 429
    assert third.get_json()["code"] == "too_many_photo_reads"
    assert third.get_json()["params"]["per"] == "client"


def test_behind_a_trusted_proxy_the_limit_counts_each_phone(app: Flask, tmp_path) -> None:
    """With ``TRUSTED_PROXIES = 1`` the client's address is the proxy's X-Forwarded-For;
    without it that header is ignored (a client could write any address there)."""
    trusting = limited_app(app, tmp_path, GAME_CREATION_LIMIT="1 per minute", TRUSTED_PROXIES="1")
    client = trusting.test_client()
    phone_a = {"X-Forwarded-For": "203.0.113.5"}
    assert client.post("/api/v1/games", json=GAME, headers=phone_a).status_code == 201
    assert client.post("/api/v1/games", json=GAME, headers=phone_a).status_code == 429
    other = {"X-Forwarded-For": "203.0.113.6"}
    assert client.post("/api/v1/games", json=GAME, headers=other).status_code == 201

    plain = limited_app(app, tmp_path / "plain", GAME_CREATION_LIMIT="1 per minute")
    client = plain.test_client()
    assert client.post("/api/v1/games", json=GAME, headers=phone_a).status_code == 201
    assert client.post("/api/v1/games", json=GAME, headers=other).status_code == 429


def test_each_session_is_a_client_of_its_own_under_the_addresss_ceiling(
    app: Flask, tmp_path
) -> None:
    """Phones behind one address count apart; a phone refused at its own limit uses up
    nothing of the ceiling they share, which bounds them all together."""
    limits = {"GAME_CREATION_LIMIT": "2 per minute", "GAME_CREATION_ADDRESS_LIMIT": "5 per minute"}
    limited = limited_app(app, tmp_path, **limits)
    greedy = phone(limited)
    made = [greedy.post("/api/v1/games", json=GAME).status_code for _ in range(10)]
    assert made == [201, 201] + [429] * 8
    others = [phone(limited) for _ in range(3)]
    assert [o.post("/api/v1/games", json=GAME).status_code for o in others] == [201] * 3
    refused = phone(limited).post("/api/v1/games", json=GAME)  # the address's sixth game
    assert refused.status_code == 429
    assert refused.get_json()["params"]["per"] == "address"


def hit_limit(client: FlaskClient, send: Callable[[], TestResponse]) -> TestResponse:
    """Send until refused (at most 50 times): the refusal."""
    for _ in range(50):
        answer = send()
        if answer.status_code == 429:
            return answer
    raise AssertionError("never limited")


LIMITS = {
    "GAME_CREATION_LIMIT": "2 per minute",
    "WORD_LOOKUP_LIMIT": "2 per minute",
    "SOLVER_LIMIT": "2 per minute",
    "SEAT_CLAIM_LIMIT": "2 per minute",
}


@pytest.mark.parametrize(
    ("code", "named"),
    [
        ("too_many_new_games", "new games"),
        ("too_many_word_checks", "words checked"),
        ("too_many_best_plays", "best plays"),
        ("too_many_seat_claims", "seat claims"),
    ],
)
def test_a_429_names_what_was_limited_and_when_to_try_again(
    app: Flask, tmp_path, code: str, named: str
) -> None:
    limited = limited_app(app, tmp_path, **LIMITS)
    client = limited.test_client()
    game = client.post("/api/v1/games", json=GAME).get_json()
    claim = f"/api/v1/games/{game['id']}/seats/0/claim"
    auth = {"Authorization": f"Bearer {game['edit_token']}"}

    def send(lang: str = "en") -> TestResponse:
        said = {"Accept-Language": lang}
        if code == "too_many_new_games":
            return client.post("/api/v1/games", json=GAME, headers=said)
        if code == "too_many_word_checks":
            return client.get("/api/v1/words/quiz", headers=said)
        if code == "too_many_best_plays":
            return client.post("/api/v1/best", json={"cards": ["A", "T"]}, headers=said)
        client.delete(claim, json={}, headers=auth)  # free the seat: claim it again
        return client.post(claim, json={}, headers=said)

    refused = hit_limit(client, send)
    body = refused.get_json()
    assert body["code"] == code
    assert (body["params"]["count"], body["params"]["seconds"]) == (2, 60)
    assert body["params"]["per"] in ("client", "game")
    wait = int(refused.headers["Retry-After"])
    assert 1 <= wait <= 60 and body["params"]["retry_after"] == wait
    assert named in body["error"] and f"try again in {wait} second" in body["error"]
    assert body["error"] == messages.render(code, body["params"])
    for lang in ("lt", "hu", "cs"):
        again = send(lang)
        assert again.status_code == 429 and again.get_json()["code"] == code
        words, wait = again.get_json()["error"], again.get_json()["params"]["retry_after"]
        assert "Too many" not in words and f" {wait} " in words, (lang, words)
    if code == "too_many_new_games":  # the page says it too, in its own words
        page = client.post("/games/new", data={})
        assert page.status_code == 429 and page.headers["Retry-After"]
        assert "Too many new games" in html.unescape(page.get_data(as_text=True))


# --- a venue: 80 phones behind one home router, one round each ---------------------------

TABLES = 20
NAMES = ["Ann", "Ben", "Cy", "Di"]
HANDS = [("c-a-t", ""), ("d-o-g", ""), ("o-x", "m"), ("t-o-p", "")]
"""Round 1 (3 cards) of four players, within the deck's copies."""
CSRF = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')


class Phone:
    """One phone of the venue: its own cookies (its session), the address all share."""

    def __init__(self, app: Flask, statuses: Counter[int]) -> None:
        self.client = app.test_client()
        self.statuses = statuses
        self.token = ""

    def get(self, url: str) -> TestResponse:
        answer = self.client.get(url)
        self.statuses[answer.status_code] += 1
        found = CSRF.search(answer.get_data(as_text=True))
        if found:
            self.token = found.group(1)
        return answer

    def post(self, url: str, data: dict[str, str]) -> TestResponse:
        answer = self.client.post(url, data={**data, "csrf_token": self.token})
        self.statuses[answer.status_code] += 1
        return answer


def new_game_form(names: list[str]) -> dict[str, str]:
    """The new-game form as a browser sends it, house rules left as they are."""
    rules = {
        "min_word": "cards",
        "two_player_bonus": "longest",
        "bonus": "10",
        "zero_floor": "y",
        "false_out_penalty": "0",
        "lexicon": "standard",
    }
    data = {f"players-{i}-name": n for i, n in enumerate(names)}
    return {**data, "first_dealer": "1", **{f"rules-{k}": v for k, v in rules.items()}}


def play_a_round(app: Flask, statuses: Counter[int]) -> None:
    """Twenty tables of four: the scorekeeper starts the game, every phone opens it, claims
    its seat, polls the board, checks three words and asks the judge once, saves its hand;
    the scorekeeper closes the round; one phone a table starts a solitaire game."""
    for _ in range(TABLES):
        phones = [Phone(app, statuses) for _ in NAMES]
        keeper = phones[0]
        keeper.get("/games/new")
        made = keeper.post("/games/new", new_game_form(NAMES))
        assert made.status_code == 302, made.get_data(as_text=True)[:300]
        game = made.headers["Location"].split("?")[0]
        for seat, one in enumerate(phones):
            one.get(game)
            one.get(f"{game}/seats/{seat}")
            assert one.post(f"{game}/seats/{seat}", {}).status_code == 302
            for _ in range(3):
                one.get(f"{game}/board")
            for word in ("quiz", "qi", "zax"):
                one.get(f"/words?word={word}")
            one.get("/judge")
            one.post("/judge", {"words": "cat dog", "lexicon": "standard", "second": ""})
        for seat, one in enumerate(phones):
            one.get(f"{game}/rounds/1")
            words, unused = HANDS[seat]
            form = {"words": words, "unused": unused, "version": "0"}
            if seat == 0:
                form["went_out"] = "y"
            saved = one.post(f"{game}/rounds/1/seats/{seat}", form)
            assert saved.status_code == 302, saved.get_data(as_text=True)[:300]
        keeper.get(f"{game}/rounds/1")
        assert keeper.post(f"{game}/rounds/1/close", {}).status_code == 302
        player = phones[1]
        player.get("/solitaire")
        solitaire = {"face_up": "t o p a th e r s", "min_word": "cards", "lexicon": "standard"}
        assert player.post("/solitaire", {**solitaire, "cards": "1"}).status_code == 302


def test_eighty_phones_behind_one_address_are_never_limited(app: Flask, tmp_path) -> None:
    """One address, 80 phones each with its own session, a round's requests each (the
    default limits, CSRF on as served): not one 429. Per address (before), the room's
    word checks and new games went over the limits of one client."""
    venue = limited_app(app, tmp_path, WTF_CSRF_ENABLED=True)
    statuses: Counter[int] = Counter()
    play_a_round(venue, statuses)
    assert statuses[429] == 0, statuses
    assert sum(statuses.values()) == TABLES * 58  # every request of the round was answered


def test_one_client_hammering_is_limited_and_the_others_are_not(app: Flask, tmp_path) -> None:
    """On the venue's address: a phone checking words without end, and a script without a
    cookie making games, are refused at their own limits; the phones beside them go on."""
    venue = limited_app(app, tmp_path)
    hammer = phone(venue)
    checks = [hammer.get("/words?word=quiz").status_code for _ in range(130)]
    assert checks.count(429) == 10 and checks[:120] == [200] * 120
    script = venue.test_client()  # no cookie: its address is the client
    games = [script.post("/api/v1/games", json=GAME).status_code for _ in range(35)]
    assert games == [201] * 30 + [429] * 5
    for _ in range(40):  # the other phones behind the same address
        other = phone(venue)
        assert other.get("/words?word=quiz").status_code == 200
        assert other.post("/api/v1/games", json=GAME).status_code == 201


def test_seat_claims_are_limited_per_client_and_per_game(app: Flask, tmp_path) -> None:
    """Claims that go on and on (a seat taken, released, taken again) are stopped: per
    game whoever sends them, and per client across games; other games claim on."""
    limited = limited_app(app, tmp_path, SEAT_CLAIM_LIMIT="3 per minute")
    client = limited.test_client()
    games = [client.post("/api/v1/games", json=GAME).get_json() for _ in range(3)]

    def claim(game: dict, seat: int, address: str) -> TestResponse:
        return client.post(
            f"/api/v1/games/{game['id']}/seats/{seat}/claim",
            json={},
            environ_base={"REMOTE_ADDR": address},
        )

    def release(game: dict, seat: int) -> None:
        auth = {"Authorization": f"Bearer {game['edit_token']}"}
        client.delete(f"/api/v1/games/{game['id']}/seats/{seat}/claim", json={}, headers=auth)

    first = games[0]
    statuses = []
    for n in range(4):  # four scripts from four addresses: the game's count is one
        statuses.append(claim(first, 0, f"10.0.0.{n}").status_code)
        release(first, 0)
    assert statuses == [201, 201, 201, 429]
    refused = claim(first, 1, "10.0.0.9")
    assert refused.get_json()["code"] == "too_many_seat_claims"
    assert refused.get_json()["params"]["per"] == "game"
    # One client (here, an address without a cookie) in other games: its own count.
    mine = [claim(games[1], 0, "10.0.1.1").status_code, claim(games[1], 1, "10.0.1.1").status_code]
    mine += [claim(games[2], 0, "10.0.1.1").status_code, claim(games[2], 1, "10.0.1.1").status_code]
    assert mine == [201, 201, 201, 429]
    assert claim(games[2], 1, "10.0.1.2").status_code == 201  # another client: the seat
    page = phone(limited)  # the page's "I am Ben" counts the same claims
    assert page.post(f"/games/{first['id']}/seats/1").status_code == 429
