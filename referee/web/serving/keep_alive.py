"""A "nothing changed" poll keeps its tablet's connection.

Waitress (3.0.2) closes the connection after every HTTP/1.1 answer that has no Content-Length,
and an answer without a body (a 204, a 304) has none by definition (RFC 9110 forbids it on a 204),
so every quiet poll of every tablet ended its connection and the next one opened a new one: some
three-quarters of a quiet poll's cost to the server was that reconnection, not the app. An answer
without a body ends where its header does, so the connection can carry the next request; it is
still closed when the tablet asks for that (``Connection: close``) or something else already
decided to close it.
"""
from __future__ import annotations

from waitress.channel import HTTPChannel
from waitress.server import create_server
from waitress.task import WSGITask


class KeepAliveTask(WSGITask):
    """Waitress's task, which keeps an HTTP/1.1 connection after an answer without a body."""

    _keep = False

    def build_response_header(self):
        self._keep = (not self.has_body and self.version == "1.1" and not self.close_on_finish
                      and self.request.headers.get("CONNECTION", "").lower() != "close")
        try:
            return super().build_response_header()
        finally:
            self._keep = False

    def set_close_on_finish(self) -> None:
        if self._keep:
            return  # only waitress's "no Content-Length" reason: a bodiless answer needs none
        super().set_close_on_finish()


class KeepAliveChannel(HTTPChannel):
    task_class = KeepAliveTask


def keep_alive_server(app, **kw):
    """``waitress.create_server`` whose connections are ``KeepAliveChannel``s (``waitress.serve``'s
    ``_server``): every listening server it made (one per address) hands its connections to one."""
    servers: dict = {}
    server = create_server(app, map=servers, **kw)
    for one in (server, *servers.values()):
        if hasattr(one, "channel_class"):
            one.channel_class = KeepAliveChannel
    return server
