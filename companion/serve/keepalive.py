"""Waitress, keeping the connection open after a 304 (or 204) answer.

Waitress 3 closes an HTTP/1.1 connection after any answer that has no Content-Length,
and it drops that header from answers that may not have a body: so every 304 ends with
``Connection: close``. A phone polling the leaderboard every 3 s then opens a new
connection for each poll, and after a save all of a table's phones reconnect at once.
A 304 or 204 ends where its headers end (RFC 9112, section 6.3), so the connection can
stay open: this task keeps it open unless the client asked to close it.
"""

from __future__ import annotations

from typing import Any

from waitress.channel import HTTPChannel
from waitress.task import WSGITask


class KeepAliveTask(WSGITask):
    """A WSGI task whose bodiless answers keep an HTTP/1.1 connection alive."""

    def build_response_header(self) -> bytes:
        asked_to_close = self.request.headers.get("CONNECTION", "").lower() == "close"
        if self.has_body or self.version != "1.1" or asked_to_close or self.close_on_finish:
            return super().build_response_header()
        header = super().build_response_header()
        if self.close_on_finish:  # set only because the answer has no Content-Length
            self.close_on_finish = False
            header = header.replace(b"\r\nConnection: close", b"", 1)
        return header


class KeepAliveChannel(HTTPChannel):
    """Waitress's channel, running ``KeepAliveTask``."""

    task_class = KeepAliveTask


def keep_alive_after_304(server: Any) -> Any:
    """Make a server from ``waitress.create_server`` serve its connections with
    ``KeepAliveChannel`` (every connection accepted from now on); give it back."""
    server.channel_class = KeepAliveChannel
    return server
