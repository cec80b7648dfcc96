"""What goes over the network: pages compressed for a browser that accepts it, static files under
an address that names their content and cached for a year there, briefly anywhere else."""
from __future__ import annotations

import gzip
import hashlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STATIC = re.compile(r'(?:href|src)="(/static/v-([0-9a-f]+)/([^"?]+))"')


def _page(client, game_id) -> str:
    r = client.get(f"/games/{game_id}", headers={"Accept-Encoding": "gzip"})
    assert r.status_code == 200
    assert r.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in r.headers["Vary"]
    return gzip.decompress(r.data).decode()


def test_a_page_is_sent_compressed_only_to_a_browser_that_accepts_it(client, game_id):
    html = _page(client, game_id)
    plain = client.get(f"/games/{game_id}")
    assert "Content-Encoding" not in plain.headers
    # Signed afresh each time, and each form's one-time tap token drawn afresh.
    unsigned = re.compile(r'(csrf_token" value="|"X-CSRFToken": "|name="token" value=")[^"]+')
    assert unsigned.sub(r"\1", plain.get_data(as_text=True)) == unsigned.sub(r"\1", html)


def test_every_static_address_carries_its_contents_hash_and_is_cached_for_a_year(client, game_id):
    found = STATIC.findall(_page(client, game_id))
    assert {name for _, _, name in found} >= {"referee.css", "referee.js", "vendor/htmx.min.js"}
    for url, digest, name in found:
        content = (ROOT / "referee" / "static" / name).read_bytes()
        assert hashlib.sha256(content).hexdigest().startswith(digest)
        r = client.get(url, headers={"Accept-Encoding": "gzip"})
        assert r.status_code == 200
        assert r.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        packed = r.headers.get("Content-Encoding") == "gzip"
        if name.endswith((".css", ".js")) and len(content) >= 500:  # a smaller file gains nothing
            assert packed
        assert (gzip.decompress(r.data) if packed else r.data) == content


def test_a_static_address_without_the_current_hash_is_cached_briefly(client):
    for url in ("/static/referee.css", "/static/v-0000/referee.css"):
        r = client.get(url)
        assert r.status_code == 200
        assert "immutable" not in r.headers["Cache-Control"]
        assert "max-age=60" in r.headers["Cache-Control"]


def test_a_static_file_is_not_sent_again_to_a_browser_that_has_it(client):
    first = client.get("/static/referee.js")
    again = client.get("/static/referee.js", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    assert again.data == b""


def test_nothing_outside_the_static_folder_is_served(client):
    for url in ("/static/../web/app.py", "/static/%2e%2e/web/app.py", "/static/nope.css", "/static/vendor"):
        assert client.get(url).status_code == 404


def test_an_htmx_fragment_is_compressed_at_gzips_quickest_level(client, game_id):
    """A poll's answer to thirty tablets, each with its own token: gzip level 1 (web/serving/compression.py)."""
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    seen = int(re.search(r'id="poll"[^>]*data-version="(\d+)"', page).group(1))
    done = client.post(f"/games/{game_id}/act/next_phase", data={"version": seen, "confirm": "on"},
                       headers={"HX-Request": "true"})
    assert done.status_code == 200
    r = client.get(f"/games/{game_id}/poll?v={seen}", headers={"HX-Request": "true", "Accept-Encoding": "gzip"})
    assert r.status_code == 200 and r.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in r.headers["Vary"]
    body = r.get_data()
    assert body[8] == 4  # gzip's header: extra flags 4, the fastest compression
    html = gzip.decompress(body).decode()
    assert 'id="poll"' in html and int(r.headers["Content-Length"]) == len(body)
    # Without gzip in Accept-Encoding the fragment comes as it is.
    plain = client.get(f"/games/{game_id}/act/next_phase", headers={"HX-Request": "true"})
    assert "Content-Encoding" not in plain.headers


def test_the_server_compiles_every_template_before_the_first_tablet_asks(app, client, game_id):
    """``python -m referee`` compiles the templates as it starts (``serve.compile_templates``):
    the board, an action's form, its result and the log then draw without compiling any."""
    from referee.web.serving import serve
    assert serve.compile_templates(app) == len(app.jinja_env.list_templates()) > 50
    compiled: list[str] = []
    real = app.jinja_env.compile

    def compile(source, name=None, *args, **kwargs):
        compiled.append(name)
        return real(source, name, *args, **kwargs)

    app.jinja_env.compile = compile
    htmx = {"HX-Request": "true"}
    assert client.get(f"/games/{game_id}").status_code == 200
    assert client.get(f"/games/{game_id}/act/shoot?shooter=11th-leger", headers=htmx).status_code == 200
    version = re.search(r'name="version" value="(\d+)"', client.get(f"/games/{game_id}").get_data(as_text=True))[1]
    r = client.post(f"/games/{game_id}/act/adjust_unit", headers=htmx,
                    data={"version": version, "unit": "82nd-ligne", "field": "casualties", "value": "1"})
    assert r.status_code == 200
    assert client.get(f"/games/{game_id}/poll?v={version}", headers=htmx).status_code == 200
    assert client.get(f"/games/{game_id}/log").status_code == 200
    assert compiled == []


def test_a_forms_tap_token_is_twenty_letters_drawn_afresh_each_time():
    """``taps.write_token``: letters only (a long run of digits is refused as a number), a tap
    token the input check takes, never the same twice, every letter in use."""
    from referee.web.taps import LETTERS, TOKEN, write_token

    tokens = [write_token() for _ in range(3000)]
    assert all(len(t) == 20 and t.isascii() and t.isalpha() and TOKEN.fullmatch(t) for t in tokens)
    assert len(set(tokens)) == len(tokens)
    assert set("".join(tokens)) == set(LETTERS)


def test_the_server_accepts_a_club_nights_connections():
    """Every tablet keeps its connection between polls: 12 games of 11 tablets and their umpires
    held 144 at once in the benchmark; waitress refused new ones past the old limit of 128."""
    from referee.web.serving import serve

    assert serve.connection_limit(32) >= 12 * 11 * 3
    assert serve.connection_limit(256) == 256 * 4
