"""Tokens sealed for the session cookie: the cookie holds no edit token or seat secret in
clear, yet the server gets each back (the game page rebuilds the edit link and its QR
code from it; the actions take a seat's secret and hash it under their lock).

Flask's session cookie is signed, not encrypted: anyone who sees it (a shared computer,
a screenshot of the developer tools, a proxy's log) can base64-decode it. So each token
is kept encrypted with keys derived from ``SECRET_KEY``, in the style of SIV
(synthetic IV, RFC 5297), with HMAC-SHA256 as the only primitive:

- ``iv = HMAC(mac_key, kind | game | token)[:8]``: the IV is a MAC of the plaintext, so
  the same token always seals to the same value (writing the cookie again changes
  nothing) and two different tokens never share a pad (a seat claimed again after a
  release gets a new secret, and its old and new values reveal nothing of each other);
- ``pad = HMAC(pad_key, kind | game | iv | counter)``, blocks until the token's length,
  and ``ct = token XOR pad``, where the token is taken as the bytes it spells: every
  token the app makes is URL-safe base64 (32 characters for 24 random bytes), so those
  24 bytes are sealed, not its 32 characters; any other text is sealed as UTF-8;
- the value kept is ``urlsafe-base64(iv + ct)``, unpadded. To unseal, the pad is
  computed again from the IV, and the IV must be the MAC of what comes out (compared in
  constant time): a value altered, sealed for another game or kind, or sealed under
  another key unseals to None, never to an error.

The kind and game id are inside both MACs, so a value copied to another game's entry
is worthless. The IV doubles as the tag: 64 bits, behind the cookie's own signature.

Why not a library cipher (Fernet, AES-GCM): a cookie must stay under 4 KB, and a
browser keeps dozens of games in it (``access.COOKIE_BUDGET``). A 32-character token
sealed here takes 43 characters; Fernet would take about 140 (version, timestamp,
16-byte IV, padding, a 32-byte tag), AES-GCM about 80 (12-byte nonce, 16-byte tag), so
a cookie would hold half as many games or fewer; both need a package the app does not
otherwise use, and neither is deterministic, so every write would change every entry.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import re
from dataclasses import dataclass
from functools import lru_cache

from flask import current_app

IV_BYTES = 8
"""The synthetic IV, which is also the tag: 64 bits."""

MAX_SEALED = 4096
"""The longest value unsealed: no cookie is longer, so a longer value is not ours."""

_BASE64URL = re.compile(r"[A-Za-z0-9_-]*")


@dataclass(frozen=True)
class Keys:
    """The two keys of the seal, each an HMAC of ``SECRET_KEY`` with a label of its own."""

    mac: bytes
    pad: bytes

    @staticmethod
    @lru_cache(maxsize=8)
    def of(secret: str | bytes) -> Keys:
        """The keys derived from ``secret`` (an app's ``SECRET_KEY``), computed once each."""
        key = secret.encode("utf-8") if isinstance(secret, str) else bytes(secret)
        return Keys(
            mac=hmac.digest(key, b"companion.cookie.mac", hashlib.sha256),
            pad=hmac.digest(key, b"companion.cookie.pad", hashlib.sha256),
        )


def app_keys() -> Keys:
    """The keys of the current app (its ``SECRET_KEY``)."""
    return Keys.of(current_app.config["SECRET_KEY"])


def _text(value: str) -> bytes:
    return value.encode("utf-8", "surrogatepass")


def _fields(*parts: bytes) -> bytes:
    """The parts joined unambiguously: each after its length (no separator to escape)."""
    return b"".join(len(p).to_bytes(4, "big") + p for p in parts)


def _packed(token: str) -> bytes:
    """The bytes sealed for ``token``: those it spells when it is URL-safe base64 without
    padding (every token the app makes: a quarter shorter), else its UTF-8 text."""
    if len(token) % 4 == 0 and _BASE64URL.fullmatch(token):
        return base64.urlsafe_b64decode(token)
    return _text(token)


def _spellings(packed: bytes) -> list[str]:
    """The tokens whose ``_packed`` bytes ``packed`` may be: base64 of them, their text."""
    found = [base64.urlsafe_b64encode(packed).decode("ascii")] if len(packed) % 3 == 0 else []
    with contextlib.suppress(UnicodeDecodeError):
        found.append(packed.decode("utf-8", "surrogatepass"))
    return found


def _iv(keys: Keys, kind: str, game_id: str, token: bytes) -> bytes:
    message = _fields(_text(kind), _text(game_id), token)
    return hmac.digest(keys.mac, message, hashlib.sha256)[:IV_BYTES]


def _xor_pad(keys: Keys, kind: str, game_id: str, iv: bytes, data: bytes) -> bytes:
    """``data`` XOR the pad of ``iv``: sealing and unsealing are the same operation."""
    head = _fields(_text(kind), _text(game_id), iv)
    pad = b"".join(
        hmac.digest(keys.pad, head + n.to_bytes(4, "big"), hashlib.sha256)
        for n in range(-(-len(data) // 32))
    )
    return bytes(a ^ b for a, b in zip(data, pad, strict=False))


def seal(kind: str, game_id: str, token: str, keys: Keys | None = None) -> str:
    """``token`` sealed for the entry ``kind`` ("edit", "seats") of ``game_id``: always
    the same text for the same token, and nothing of the token readable in it."""
    keys = keys or app_keys()
    iv = _iv(keys, kind, game_id, _text(token))
    sealed = iv + _xor_pad(keys, kind, game_id, iv, _packed(token))
    return base64.urlsafe_b64encode(sealed).rstrip(b"=").decode("ascii")


def unseal(kind: str, game_id: str, value: object, keys: Keys | None = None) -> str | None:
    """The token ``value`` seals for the entry ``kind`` of ``game_id``, or None when it
    seals none (altered, malformed, another game's or kind's, another key's)."""
    if not isinstance(value, str) or len(value) > MAX_SEALED or len(value) % 4 == 1:
        return None
    if not _BASE64URL.fullmatch(value):
        return None
    raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    if len(raw) < IV_BYTES or base64.urlsafe_b64encode(raw).rstrip(b"=").decode() != value:
        return None  # too short, or not the one spelling seal() writes
    keys = keys or app_keys()
    iv = raw[:IV_BYTES]
    packed = _xor_pad(keys, kind, game_id, iv, raw[IV_BYTES:])
    for token in _spellings(packed):
        if _packed(token) == packed and hmac.compare_digest(
            iv, _iv(keys, kind, game_id, _text(token))
        ):
            return token
    return None
