"""The seal of the session cookie's tokens (companion/web/sealed.py): every token and game
id round-trips, the same token seals to the same text, nothing of the token shows, and
anything else unseals to None without raising."""

from __future__ import annotations

import base64
import secrets

from flask import Flask
from hypothesis import example, given, settings
from hypothesis import strategies as st

from companion.web.sealed import Keys, seal, unseal

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
def test_an_app_token_seals_to_43_characters_that_show_nothing_of_it(
    kind: str, game_id: str, token: str
) -> None:
    sealed = seal(kind, game_id, token, KEYS)
    assert len(sealed) == 43
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
def test_an_altered_value_unseals_to_none(kind: str, game_id: str, token: str, data) -> None:  # type: ignore[no-untyped-def]
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


def test_two_tokens_of_one_game_never_share_a_pad() -> None:
    """A seat taken again gets a new secret: its old and new values differ from the IV on,
    and each is XOR-ed with a pad of its own (with one pad, XOR-ing the two values would
    give the XOR of the two secrets)."""

    def iv_and_pad(token: str) -> tuple[bytes, bytes]:
        sealed = base64.urlsafe_b64decode(seal("seats", "game", token, KEYS) + "=")
        plain = base64.urlsafe_b64decode(token)
        return sealed[:8], bytes(x ^ y for x, y in zip(sealed[8:], plain, strict=True))

    first, second = iv_and_pad(secrets.token_urlsafe(24)), iv_and_pad(secrets.token_urlsafe(24))
    assert first[0] != second[0]
    assert first[1] != second[1]


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
    assert Keys.of("one key").mac != Keys.of("one key").pad  # a key per use, by its label
    assert Keys.of(b"one key") == Keys.of("one key")
