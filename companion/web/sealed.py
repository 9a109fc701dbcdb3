"""Tokens sealed for the session cookie: the cookie holds no edit token or seat secret in
clear, yet the server gets each back (the game page rebuilds the edit link and its QR
code from it; the actions take a seat's secret and hash it under their lock).

Flask's session cookie is signed, not encrypted: anyone who sees it (a shared computer,
a screenshot of the developer tools, a proxy's log) can base64-decode it. So each token
is sealed with AES-SIV (RFC 5297, ``cryptography``'s ``AESSIV``), a key derived from
``SECRET_KEY`` by HKDF-SHA256, and the entry's kind and game id as associated data:

- deterministic: the same token always seals to the same value, so writing the cookie
  again changes nothing, and no nonce has to be kept (SIV is safe without one);
- authenticated: a value altered, sealed for another game or kind, or under another
  key unseals to None, never to an error;
- short: every token the app makes is URL-safe base64 (32 characters for 24 random
  bytes), so those 24 bytes are sealed (and a byte that says so), with the 16-byte synthetic IV: 55
  characters
  (``access.COOKIE_BUDGET`` holds dozens of games).

Values sealed by the previous build (an HMAC-based SIV of the app's own, 43
characters) are still read (``_unseal_before``), and ``access`` seals them again with
AES-SIV on the next request; that reader goes once no cookie can hold such a value.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import re
from dataclasses import dataclass
from functools import lru_cache

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESSIV
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from flask import current_app

MAX_SEALED = 4096
"""The longest value unsealed: no cookie is longer, so a longer value is not ours."""

_BASE64URL = re.compile(r"[A-Za-z0-9_-]*")


@dataclass(frozen=True)
class Keys:
    """The seal's cipher, and the keys of the previous build's seal (read only)."""

    siv: AESSIV
    mac: bytes
    pad: bytes

    @staticmethod
    @lru_cache(maxsize=8)
    def of(secret: str | bytes) -> Keys:
        """The keys derived from ``secret`` (an app's ``SECRET_KEY``), computed once each."""
        key = secret.encode("utf-8") if isinstance(secret, str) else bytes(secret)
        derived = HKDF(hashes.SHA256(), 64, salt=None, info=b"companion.cookie.siv").derive(key)
        return Keys(
            siv=AESSIV(derived),
            mac=hmac.digest(key, b"companion.cookie.mac", hashlib.sha256),
            pad=hmac.digest(key, b"companion.cookie.pad", hashlib.sha256),
        )


def app_keys() -> Keys:
    """The keys of the current app (its ``SECRET_KEY``)."""
    return Keys.of(current_app.config["SECRET_KEY"])


def _text(value: str) -> bytes:
    return value.encode("utf-8", "surrogatepass")


def _packed(token: str) -> bytes:
    """The bytes sealed for ``token``: those it spells when it is URL-safe base64 without
    padding (every token the app makes: a quarter shorter), else its UTF-8 text."""
    if len(token) % 4 == 0 and _BASE64URL.fullmatch(token):
        return b"b" + base64.urlsafe_b64decode(token)
    return b"t" + _text(token)


def _unpacked(packed: bytes) -> str | None:
    """The token ``_packed`` made ``packed`` from."""
    kind, body = packed[:1], packed[1:]
    if kind == b"b":
        return base64.urlsafe_b64encode(body).decode("ascii")
    with contextlib.suppress(UnicodeDecodeError):
        return body.decode("utf-8", "surrogatepass") if kind == b"t" else None
    return None


def _raw(value: object) -> bytes | None:
    """The bytes of a sealed value in the one spelling ``seal`` writes, else None."""
    if not isinstance(value, str) or len(value) > MAX_SEALED or len(value) % 4 == 1:
        return None
    if not _BASE64URL.fullmatch(value):
        return None
    raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    return raw if _spelled(raw) == value else None


def _spelled(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def seal(kind: str, game_id: str, token: str, keys: Keys | None = None) -> str:
    """``token`` sealed for the entry ``kind`` ("edit", "seats") of ``game_id``: always
    the same text for the same token, and nothing of the token readable in it."""
    keys = keys or app_keys()
    return _spelled(keys.siv.encrypt(_packed(token), [_text(kind), _text(game_id)]))


def unseal(kind: str, game_id: str, value: object, keys: Keys | None = None) -> str | None:
    """The token ``value`` seals for the entry ``kind`` of ``game_id``, or None when it
    seals none (altered, malformed, another game's or kind's, another key's)."""
    raw = _raw(value)
    if raw is None:
        return None
    keys = keys or app_keys()
    found = _open(keys, kind, game_id, raw)
    return found if found is not None else _unseal_before(keys, kind, game_id, raw)


def sealed_now(kind: str, game_id: str, value: object, keys: Keys | None = None) -> bool:
    """Whether ``value`` is sealed the way this build seals (not by the previous one):
    one AES-SIV opening, no sealing again (``access`` asks it of every entry)."""
    raw = _raw(value)
    return raw is not None and _open(keys or app_keys(), kind, game_id, raw) is not None


def _open(keys: Keys, kind: str, game_id: str, raw: bytes) -> str | None:
    """The token AES-SIV finds sealed in ``raw`` for this entry, or None."""
    try:
        return _unpacked(keys.siv.decrypt(raw, [_text(kind), _text(game_id)]))
    except (InvalidTag, ValueError):
        return None


# --- the previous build's seal, read only ---------------------------------------------


def _fields(*parts: bytes) -> bytes:
    return b"".join(len(p).to_bytes(4, "big") + p for p in parts)


def _unseal_before(keys: Keys, kind: str, game_id: str, raw: bytes) -> str | None:
    """A value sealed by the previous build: an 8-byte IV (the HMAC of the token), then
    the token's bytes XOR an HMAC-SHA256 pad; None unless the IV checks."""
    iv, data = raw[:8], raw[8:]
    if len(iv) < 8:
        return None
    head = _fields(_text(kind), _text(game_id), iv)
    pad = b"".join(
        hmac.digest(keys.pad, head + n.to_bytes(4, "big"), hashlib.sha256)
        for n in range(-(-len(data) // 32))
    )
    packed = bytes(a ^ b for a, b in zip(data, pad, strict=False))
    spellings = [base64.urlsafe_b64encode(packed).decode("ascii")] if len(packed) % 3 == 0 else []
    with contextlib.suppress(UnicodeDecodeError):
        spellings.append(packed.decode("utf-8", "surrogatepass"))
    for token in spellings:
        message = _fields(_text(kind), _text(game_id), _text(token))
        if hmac.compare_digest(iv, hmac.digest(keys.mac, message, hashlib.sha256)[:8]):
            return token
    return None
