"""The seal of the session cookie's tokens (companion/web/sealed.py, AES-SIV): every token
and game id round-trips, the same token seals to the same text, nothing of the token shows,
anything else unseals to None without raising, and a value sealed by the previous build
is still read."""

from __future__ import annotations

import base64
import secrets

from flask import Flask
from hypothesis import example, given, settings
from hypothesis import strategies as st

from companion.web.sealed import Keys, seal, sealed_now, unseal

KEYS = Keys.of("test")
KINDS = st.sampled_from(["edit", "seats"])
GAME_IDS = st.text(max_size=70) | st.from_regex(r"[A-Za-z0-9_-]{22}", fullmatch=True)
APP_TOKENS = st.binary(min_size=24, max_size=24).map(lambda b: base64.urlsafe_b64encode(b).decode())
"""Tokens as the app makes them (``secrets.token_urlsafe(24)``)."""
TOKENS = (
    APP_TOKENS
    | st.text(max_size=80)
    | st.text(st.characters(min_codepoint=0x10000), min_size=60, max_size=200)  # 4 bytes each
    | st.from_regex(r"[A-Za-z0-9_-]{0,48}", fullmatch=True)
)


@settings(max_examples=300)
@given(kind=KINDS, game_id=GAME_IDS, token=TOKENS)
@example(kind="edit", game_id="g" * 64, token="\U0001f0a1" * 200)  # the longest the edit link takes
def test_any_token_round_trips_for_any_game(kind: str, game_id: str, token: str) -> None:
    sealed = seal(kind, game_id, token, KEYS)
    assert unseal(kind, game_id, sealed, KEYS) == token
    assert seal(kind, game_id, token, KEYS) == sealed  # deterministic: a rewrite changes nothing
    assert set(sealed) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


@settings(max_examples=300)
@given(kind=KINDS, game_id=GAME_IDS, token=APP_TOKENS)
def test_an_app_token_seals_to_55_characters_that_show_nothing_of_it(
    kind: str, game_id: str, token: str
) -> None:
    sealed = seal(kind, game_id, token, KEYS)
    assert len(sealed) == 55
    assert token not in sealed
    assert not any(token[i : i + 8] in sealed for i in range(0, 25, 8))


@settings(max_examples=300)
@given(value=st.text(max_size=120) | st.from_regex(r"[A-Za-z0-9_-]{0,80}", fullmatch=True))
def test_arbitrary_text_unseals_to_none(value: str) -> None:
    assert unseal("edit", "game", value, KEYS) is None
    assert unseal("seats", "game", value, KEYS) is None


@given(value=st.none() | st.integers() | st.lists(st.text()) | st.binary() | st.floats())
def test_anything_but_text_unseals_to_none(value: object) -> None:
    assert unseal("edit", "game", value, KEYS) is None


@settings(max_examples=200)
@given(kind=KINDS, game_id=GAME_IDS, token=TOKENS, data=st.data())
def test_an_altered_value_unseals_to_none(kind: str, game_id: str, token: str, data) -> None:
    sealed = seal(kind, game_id, token, KEYS)
    at = data.draw(st.integers(0, len(sealed) - 1))
    other = data.draw(st.sampled_from("AQgw-_09aZ").filter(lambda c: c != sealed[at]))
    assert unseal(kind, game_id, sealed[:at] + other + sealed[at + 1 :], KEYS) is None
    assert unseal(kind, game_id, sealed[:-1], KEYS) is None
    assert unseal(kind, game_id, sealed + "A", KEYS) is None


@settings(max_examples=200)
@given(game_id=GAME_IDS, other=GAME_IDS, token=TOKENS)
def test_a_value_is_good_only_for_its_game_kind_and_key(
    game_id: str, other: str, token: str
) -> None:
    sealed = seal("edit", game_id, token, KEYS)
    if other != game_id:
        assert unseal("edit", other, sealed, KEYS) is None
    assert unseal("seats", game_id, sealed, KEYS) is None
    assert unseal("edit", game_id, sealed, Keys.of("another key")) is None


def test_two_tokens_of_one_game_share_no_bytes_of_their_seal() -> None:
    """A seat taken again gets a new secret: its old and new values differ from the IV on
    (a synthetic IV per token), so neither tells anything of the other."""
    first = seal("seats", "game", secrets.token_urlsafe(24), KEYS)
    second = seal("seats", "game", secrets.token_urlsafe(24), KEYS)
    assert first[:22] != second[:22]


PREVIOUS_BUILD = [
    # (kind, game, token, the value the previous build's own seal wrote under key "test")
    (
        "edit",
        "g1",
        "J2xQ4m1ZrKq9sV7tW0aB3cD5eF6gH8iK",
        "hpXVI5BJn2wzvmn4JRcdyRyNfBnTTtQ_ZsOF_kpsrSM",
    ),
    ("seats", "g1", "not a base64 token \u2713", "GOWoq3yzEN1jSHU3mYct78wQ2MT5tfSPQJ0uvJfX"),
]


def test_a_value_sealed_by_the_previous_build_is_still_read_and_is_sealed_again() -> None:
    for kind, game, token, value in PREVIOUS_BUILD:
        assert unseal(kind, game, value, KEYS) == token
        assert not sealed_now(kind, game, value, KEYS)  # access.py seals it again
        assert sealed_now(kind, game, seal(kind, game, token, KEYS), KEYS)
        assert unseal(kind, "g2", value, KEYS) is None
        assert unseal(kind, game, value, Keys.of("another key")) is None
        assert unseal(kind, game, value[:-1] + ("A" if value[-1] != "A" else "B"), KEYS) is None


def test_the_keys_come_from_the_apps_secret_key() -> None:
    app = Flask("sealing")
    app.secret_key = "one key"
    token = secrets.token_urlsafe(24)
    with app.app_context():
        sealed = seal("edit", "game", token)
        assert sealed == seal("edit", "game", token, Keys.of("one key"))
        assert unseal("edit", "game", sealed) == token
        app.secret_key = "another key"
        assert unseal("edit", "game", sealed) is None
    assert seal("edit", "game", token, Keys.of(b"one key")) == sealed  # bytes or text alike
