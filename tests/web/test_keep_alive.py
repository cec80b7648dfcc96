"""A tablet's quiet poll (an empty 204) keeps its connection for the next poll
(``web/serving/keep_alive.py``): waitress on its own closes it after every answer without a
Content-Length, which a 204 never has."""
from __future__ import annotations

import http.client
import threading

import pytest
from waitress.server import create_server

from referee.web.serving.keep_alive import keep_alive_server


def _app(environ, start_response):
    if environ["PATH_INFO"] == "/quiet":
        start_response("204 NO CONTENT", [])
        return []
    if environ["PATH_INFO"] == "/unsized":  # a body of unknown length: only the connection's end says where it stops
        start_response("200 OK", [("Content-Type", "text/plain")])
        return iter([b"a", b"b"])
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "2")])
    return [b"ok"]


def _serving(make):
    server = make(_app, host="127.0.0.1", port=0, threads=2)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    return server, thread


@pytest.fixture
def port():
    server, thread = _serving(keep_alive_server)
    yield server.effective_port
    server.close()
    thread.join(5)


def _socket_after(conn: http.client.HTTPConnection, path: str, headers: dict | None = None):
    conn.request("GET", path, headers=headers or {})
    r = conn.getresponse()
    r.read()
    return r, conn.sock


def test_a_quiet_answer_keeps_the_connection(port):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    r, sock = _socket_after(conn, "/quiet")
    assert r.status == 204 and r.getheader("Connection") is None and not r.will_close
    for path in ("/quiet", "/sized", "/quiet"):
        r, again = _socket_after(conn, path)
        assert again is sock, f"{path}: a new connection"
    assert r.status == 204
    conn.close()


def test_a_connection_is_still_closed_when_the_tablet_asks_or_the_length_is_unknown(port):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    r, _ = _socket_after(conn, "/quiet", {"Connection": "close"})
    assert r.will_close and r.getheader("Connection") == "close"
    conn.close()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    conn.request("GET", "/unsized", headers={})
    r = conn.getresponse()
    assert r.read() == b"ab"
    conn.close()


def test_waitress_alone_closes_after_a_quiet_answer():
    """What ``keep_alive`` is for: if this fails, waitress keeps the connection by itself now and
    ``keep_alive`` can go."""
    server, thread = _serving(create_server)
    try:
        conn = http.client.HTTPConnection("127.0.0.1", server.effective_port, timeout=5)
        r, _ = _socket_after(conn, "/quiet")
        assert r.status == 204 and r.will_close
        conn.close()
    finally:
        server.close()
        thread.join(5)
