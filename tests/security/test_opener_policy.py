"""Cross-Origin-Opener-Policy is sent where a browser honours it (HTTPS, or an address of the
machine itself) and left off over plain HTTP on a club's network, where Chromium would ignore it
and log an error in the console of every page (Lighthouse's "no browser errors" audit)."""
from __future__ import annotations

import pytest

COOP = "Cross-Origin-Opener-Policy"


@pytest.mark.parametrize("base", ["http://localhost", "http://127.0.0.1:5000", "http://[::1]:5000",
                                  "http://referee.localhost:8080", "https://192.168.1.20",
                                  "https://referee.example.org"])
def test_sent_over_https_and_to_the_machine_itself(laptop_app, base):
    for path in ("/", "/games/1", "/nope"):
        r = laptop_app.test_client().get(path, base_url=base)
        assert r.headers.get(COOP) == "same-origin", (base, path)


@pytest.mark.parametrize("base", ["http://192.168.1.20:5000", "http://referee.lan", "http://10.0.0.7"])
def test_left_off_over_plain_http_on_the_network_and_the_other_headers_kept(laptop_app, base):
    for path in ("/", "/games/1", "/nope"):
        r = laptop_app.test_client().get(path, base_url=base)
        assert COOP not in r.headers, (base, path)
        assert r.headers["X-Content-Type-Options"] == "nosniff"
        assert "frame-ancestors 'none'" in r.headers["Content-Security-Policy"]


def test_sent_over_http_behind_a_tls_proxy(database_url, monkeypatch):
    """With REFEREE_HTTPS=1 the tablets reach the server over HTTPS whatever the proxy forwards."""
    from _security_helpers import make_app, seed
    monkeypatch.setenv("REFEREE_HTTPS", "1")
    app = make_app(database_url, MODE="laptop")
    seed(app)
    assert app.test_client().get("/", base_url="http://192.168.1.20").headers.get(COOP) == "same-origin"
