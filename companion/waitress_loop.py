"""Waitress's event loop on epoll, asking only the connections at work what they wait for.

Waitress's own loop (``wasyncore.poll2``) asks every open connection, on every turn,
whether it wants to read or to write, and registers each one with a new poll object.
At a room of tables every phone holds a connection between its polls: at 600 tables
(3,700 connections) those questions and the poll over every descriptor were a quarter
of the server's CPU (benchmarks/tables.py). This loop keeps one epoll registration per
connection and, on each turn, asks again only the connections that had an event, are
serving a request or still have bytes to send, and the server's own dispatchers (the
listening socket, whose question also runs the housekeeping, and the trigger), and
looks for new connections after the listening socket accepted. Twice a second it asks
every connection, for what changes without an event (a connection the housekeeping
timed out). An idle keep-alive connection costs nothing until its next
request arrives. Linux only (epoll); elsewhere waitress's loop runs as before.
"""

from __future__ import annotations

import select
import time
from typing import Any

from waitress import wasyncore
from waitress.channel import HTTPChannel

EVERY_CONNECTION_S = 0.5
"""Seconds between two turns that ask every connection (see the module)."""
IDLE = select.POLLIN | select.POLLPRI
"""What a connection between two requests waits for: the next one."""


class EpollLoop:
    """The loop over one waitress map (descriptor -> dispatcher)."""

    def __init__(self, socket_map: dict[int, Any]) -> None:
        self.map = socket_map
        self.epoll = select.epoll()
        self.registered: dict[int, tuple[Any, int]] = {}  # fd -> (dispatcher, mask)
        self.active: set[int] = set()
        self.asked_all = 0.0
        self.accepted = False  # the listening socket had an event: look for new fds

    def turn(self, timeout: float) -> None:
        """One turn: update what changed, wait up to ``timeout`` s, handle the events."""
        now = time.monotonic()
        if now - self.asked_all >= EVERY_CONNECTION_S:
            self.asked_all = now
            asking = self.map.keys() | self.registered.keys()
        elif self.accepted:  # new connections: only the listening socket makes them
            asking = self.active | (self.map.keys() ^ self.registered.keys())
        else:
            asking = set(self.active)
        self.accepted = False
        for fd in asking:
            self._ask(fd)
        try:
            events = self.epoll.poll(timeout)
        except InterruptedError:
            return
        for fd, flags in events:
            obj = self.map.get(fd)
            self.active.add(fd)  # asked again next turn (closed: forgotten then)
            if obj is not None:
                if obj.accepting:
                    self.accepted = True
                wasyncore.readwrite(obj, flags)  # epoll's flags are poll's, on Linux

    def _ask(self, fd: int) -> None:
        """Register ``fd`` for what its dispatcher waits for now (as ``poll2`` asks)."""
        obj = self.map.get(fd)
        known = self.registered.get(fd)
        if obj is None:  # closed: the kernel dropped it with its socket, or drop it now
            self.active.discard(fd)
            if known is not None:
                del self.registered[fd]
                self._forget(fd)
            return
        mask = 0
        if obj.readable():
            mask |= IDLE
        if obj.writable() and not obj.accepting:
            mask |= select.POLLOUT
        if known is not None and known[0] is not obj:  # a new connection on a reused fd
            self._forget(fd)
            known = None
        if known is None or known[1] != mask:
            if mask:
                if known is None:
                    try:
                        self.epoll.register(fd, mask)
                    except FileExistsError:
                        self.epoll.modify(fd, mask)
                else:
                    self.epoll.modify(fd, mask)
                self.registered[fd] = (obj, mask)
            else:
                self._forget(fd)
                self.registered.pop(fd, None)
        if mask == IDLE and isinstance(obj, HTTPChannel) and not obj.requests:
            self.active.discard(fd)  # between requests: nothing changes until one comes
        else:
            self.active.add(fd)

    def _forget(self, fd: int) -> None:
        try:  # noqa: SIM105 - cheaper than contextlib.suppress, and run once per request
            self.epoll.unregister(fd)
        except OSError:  # closed already: the kernel forgot it with its socket
            pass

    def close(self) -> None:
        self.epoll.close()


class EpollAsyncore:
    """What a waitress server calls its ``asyncore``: the loop on epoll (see the module)."""

    dispatcher = wasyncore.dispatcher

    @staticmethod
    def loop(
        timeout: float = 30.0,
        use_poll: bool = False,
        map: dict[int, Any] | None = None,  # waitress's own keyword
        count: int | None = None,
    ) -> None:
        socket_map = wasyncore.socket_map if map is None else map
        loop = EpollLoop(socket_map)
        try:
            while socket_map and (count is None or count > 0):
                loop.turn(timeout)
                if count is not None:
                    count -= 1
        finally:
            loop.close()


def loop_on_epoll(server: Any) -> Any:
    """Make a server from ``waitress.create_server`` run its loop on epoll where the
    system has it (Linux); give it back."""
    if hasattr(select, "epoll"):
        server.asyncore = EpollAsyncore()
    return server
