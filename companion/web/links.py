"""Links for the other phones at the table: the view link, the edit link, their QR codes.

A link built from the address the organiser's browser used is useless to the other
phones when that address is a loopback one (``127.0.0.1``, ``::1``, ``localhost``):
on another phone it names that phone. So links start, in this order, from

1. ``PUBLIC_URL``, the address this server is reached at, when it is configured;
2. ``LAN_URL``, this computer's address on the local network (the serve command sets
   it when it listens on every interface), when the request came to a loopback host;
3. the request's own address.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal
from urllib.parse import urlsplit

import segno
from flask import current_app, request, url_for

from companion.game.errors import ShapeError

LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")
"""The names this computer always answers to (its own browser, the tests)."""


def trusted_hosts(config: Any) -> list[str] | None:
    """The hosts the app answers to: this computer's loopback names, the host of
    ``PUBLIC_URL`` and of ``LAN_URL`` (the announced addresses), and those of
    ``ALLOWED_HOSTS`` (a list, or names separated by commas; a name starting with a dot
    takes its subdomains). Any other ``Host`` is refused (``untrusted_host``, 400), so
    no link or QR code is ever built for a host a stranger chose. ``ALLOWED_HOSTS =
    "*"`` answers to every host (behind a proxy that checks it): None."""
    extra = config.get("ALLOWED_HOSTS") or ()
    if isinstance(extra, str):
        if extra.strip() == "*":
            return None
        extra = extra.split(",")
    hosts = [*LOOPBACK_HOSTS, *(name.strip().lower() for name in extra if name.strip())]
    for key in ("PUBLIC_URL", "LAN_URL"):
        host = urlsplit(str(config.get(key) or "")).hostname
        if host and host not in hosts:
            hosts.append(host)
    return hosts


def host_allowed(host: str, allowed: list[str] | None) -> bool:
    """Whether a request's ``Host`` (with or without its port) is one of ``allowed``
    (None: any host that names one; no links are built for none)."""
    try:
        name = urlsplit("//" + host).hostname or ""
    except ValueError:  # "[::1" and the like
        return False
    if not name:  # no Host, or one Werkzeug found unreadable (a NUL in it)
        return False
    if allowed is None:
        return True
    return any(name == a or (a.startswith(".") and name.endswith(a)) for a in allowed)


def refuse_strange_hosts() -> None:
    """Before any request: refuse a ``Host`` the app doesn't answer to (the list is made
    from the config each time: the serve command sets ``LAN_URL`` after the app is built)."""
    if not host_allowed(request.host, trusted_hosts(current_app.config)):
        raise ShapeError("untrusted_host", "", host=request.host[:100])


Why = Literal["public", "lan", "here", "loopback"]
"""Where a link base comes from: the configured public address, this computer's local
network address, the address bar; ``loopback``: the address bar, which only this
computer can open."""


@dataclass(frozen=True)
class LinkBase:
    """The root of the app as the links show it (ending in ``/``), why, and the root of
    the address bar, to tell a person when the two differ. Hashable: part of the key of
    a kept page."""

    url: str
    why: Why
    here: str

    @property
    def shown(self) -> str:
        """The base as a person reads it: ``192.168.1.20:5000``, ``quiddler.example.org``."""
        parts = urlsplit(self.url)
        return (parts.netloc + parts.path).rstrip("/")

    @property
    def differs(self) -> bool:
        """Whether the links start elsewhere than the address in the address bar."""
        return self.url != self.here


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a Host header: name or address, maybe with a port) names this
    computer only: ``127.0.0.0/8``, ``::1``, ``localhost`` and ``*.localhost``."""
    try:
        name = (urlsplit(f"//{host}").hostname or "").rstrip(".")
    except ValueError:  # a Host header that is no host at all
        return False
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False
    mapped = getattr(address, "ipv4_mapped", None)
    return address.is_loopback or bool(mapped and mapped.is_loopback)


def root(url: str) -> str:
    """``url`` ending in exactly one ``/``."""
    return url.rstrip("/") + "/"


def link_base() -> LinkBase:
    """Where this request's links to share start, and why (see the module's docstring)."""
    here = request.url_root  # the address bar's root, the app's own prefix included
    public = current_app.config.get("PUBLIC_URL")
    if public:
        return LinkBase(root(public), "public", here)
    if is_loopback(request.host):
        lan = current_app.config.get("LAN_URL")
        if lan:
            return LinkBase(root(root(lan) + request.script_root.lstrip("/")), "lan", here)
        return LinkBase(here, "loopback", here)
    return LinkBase(here, "here", here)


def public_url(endpoint: str, **values: Any) -> str:
    """The absolute address of ``endpoint`` that other phones can open."""
    path = url_for(endpoint, **values).removeprefix(request.script_root)
    return link_base().url + path.lstrip("/")


def check_public_url(url: object) -> None:
    """Refuse, at start, a ``PUBLIC_URL`` links can't start from (no scheme or host)."""
    if not url:
        return
    parts = urlsplit(str(url))
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise ValueError(
            f"PUBLIC_URL must be an http:// or https:// address such as "
            f"https://quiddler.example.org/, not {url!r}"
        )


@lru_cache(maxsize=256)
def qr_svg(url: str) -> str:
    """A QR code of ``url`` as inline SVG, for the other phones at the table to scan."""
    return segno.make(url, error="m").svg_inline(scale=4, border=2, dark="#111111")
