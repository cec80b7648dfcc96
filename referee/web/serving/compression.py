"""The fragments htmx asks for, compressed quickly.

Flask-Compress compresses every page, script and style sheet at its default level, which is
right for a first load (the 300-unit board is 430 kB of HTML and must reach a tablet as about
50 kB). But htmx asks for fragments of a few kilobytes all evening (forms, odds, results, what
changed), and at its default level compressing them was a twelfth of the server's time. A
fragment of that size compresses almost as well at gzip's fastest level, in a third of the time;
this compresses htmx's requests so, before Flask-Compress (which leaves a response that already
says how it is encoded alone). What changed after a version, sent to thirty tablets, is
compressed once at the same level and kept with its drawing (``web/live.py``,
``Drawings.known_answer``), for the poll route and ``web/quick_poll.py`` alike.
"""
from __future__ import annotations

import gzip

from flask import Flask, Response, request

# gzip's fastest level, and the smallest fragment worth compressing (Flask-Compress's own floor).
LEVEL = 1
MIN_SIZE = 500


def pack(data: bytes) -> bytes:
    """A fragment gzipped at the quickest level (the same bytes every time: no time stamp)."""
    return gzip.compress(data, compresslevel=LEVEL, mtime=0)


def gzipped(packed: bytes) -> Response:
    """An htmx fragment already gzipped by ``pack`` (kept from an earlier answer), as a response."""
    return _marked(Response(packed, mimetype="text/html"))


def _marked(response: Response) -> Response:
    response.headers["Content-Encoding"] = "gzip"
    response.vary.add("Accept-Encoding")
    return response


def _quick(response):
    if (request.headers.get("HX-Request") != "true" or request.headers.get("HX-History-Restore-Request")
            or response.direct_passthrough or response.is_streamed
            or not 200 <= response.status_code < 300 or response.mimetype != "text/html"
            or "Content-Encoding" in response.headers or request.accept_encodings["gzip"] <= 0):
        return response
    data = response.get_data()
    if len(data) < MIN_SIZE:
        return response
    response.set_data(pack(data))  # sets Content-Length too
    return _marked(response)


def init_app(app: Flask) -> None:
    """Call after ``Compress(app)``: Flask runs the hooks registered last first."""
    app.after_request(_quick)
