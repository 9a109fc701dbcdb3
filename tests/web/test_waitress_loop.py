"""``make run``'s server loop on epoll (companion/waitress_loop.py), with real sockets: many
kept-alive connections answered in any order, connections closed and new ones opened
on the same descriptors, an answer bigger than the socket takes at once sent whole to a
slow reader, and an idle connection closed by the housekeeping."""

from __future__ import annotations

import contextlib
import http.client
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask
from waitress import wasyncore

from companion.serve import build_server
from companion.waitress_loop import EpollAsyncore

BIG = 8 * 1024 * 1024


def big_answer(environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
    """A plain WSGI app: 8 MiB, far more than a socket's buffers hold."""
    start_response("200 OK", [("Content-Type", "application/octet-stream"),
                              ("Content-Length", str(BIG))])
    return [bytes(range(256)) * (BIG // 256)]


@pytest.fixture
def serving() -> Iterator[Callable[..., int]]:
    """``serving(app, **options)``: the app served by ``build_server`` on a thread; its port."""
    servers: list[tuple[Any, threading.Thread]] = []

    def start(app: Any, **options: Any) -> int:
        server = build_server(
            app, host="127.0.0.1", port=0, threads=4, connection_limit=1000, **options
        )
        assert isinstance(server.asyncore, EpollAsyncore)

        def run() -> None:
            with contextlib.suppress(Exception):  # closed under its loop when the test ends
                server.run()

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        servers.append((server, thread))
        return int(server.effective_port)

    yield start
    for server, thread in servers:
        server.close()
        wasyncore.close_all(server._map)
        server.task_dispatcher.shutdown()
        thread.join(5)


def test_many_kept_alive_connections_are_answered_in_any_order(
    app: Flask, serving: Callable[..., int]
) -> None:
    port = serving(app)
    connections = [http.client.HTTPConnection("127.0.0.1", port, timeout=10) for _ in range(120)]
    sockets: list[object] = []
    for turn in range(3):
        for conn in connections:  # every request sent before any answer is read
            conn.request("GET", "/health")
        answers = [conn.getresponse() for conn in reversed(connections)]
        assert [(a.status, a.read()) for a in answers] == [(200, b'{"status":"ok"}\n')] * 120
        if turn == 0:
            sockets = [conn.sock for conn in connections]
            for conn in connections[::10]:  # some phones leave; others come, on their fds
                conn.close()
            connections = [c for c in connections if c.sock is not None]
            connections += [
                http.client.HTTPConnection("127.0.0.1", port, timeout=10) for _ in range(12)
            ]
    kept = [conn for conn in connections if conn.sock in sockets]
    assert len(kept) == 108  # the connections that stayed were kept alive all along
    for conn in connections:
        conn.close()


def test_an_answer_bigger_than_the_socket_reaches_a_slow_reader_whole(
    serving: Callable[..., int],
) -> None:
    port = serving(big_answer)
    with socket.socket() as conn:
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        conn.settimeout(20)
        conn.connect(("127.0.0.1", port))
        conn.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        received = bytearray()
        time.sleep(0.3)  # the server's socket fills; the rest waits for the reader
        while len(received) < BIG + 100:
            chunk = conn.recv(65536)
            if not chunk:
                break
            received += chunk
            if b"\r\n\r\n" in received and len(received) - received.index(b"\r\n\r\n") - 4 >= BIG:
                break
    head, _, body = bytes(received).partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200")
    assert body == bytes(range(256)) * (BIG // 256)


def test_an_idle_connection_is_closed_by_the_housekeeping(
    app: Flask, serving: Callable[..., int]
) -> None:
    port = serving(app, channel_timeout=1, cleanup_interval=1)
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        first = b""
        while not first.endswith(b'{"status":"ok"}\n'):  # the whole answer, then silence
            first += conn.recv(4096)
        assert first.startswith(b"HTTP/1.1 200")
        started = time.monotonic()
        assert conn.recv(4096) == b""  # closed by the server, not by this test's timeout
        assert time.monotonic() - started < 5
