"""Web hygiene: security headers on every response, no inline script anywhere, cookie flags, the
body size limit, redirects that stay on the site, and the secret key's start-up cases."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from _security_helpers import make_app

from referee.web.serving import config, security

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def client(laptop_app):
    return laptop_app.test_client()


@pytest.mark.parametrize("path,htmx", [("/", False), ("/games/1", False), ("/games/1", True), ("/games/1/poll?v=0", True),
                                       ("/lists/", False), ("/nope", False), ("/games/1/act/nope", True),
                                       ("/static/referee.js", False), ("/rules/", False)])
def test_every_response_carries_the_security_headers(client, path, htmx):
    r = client.get(path, headers={"HX-Request": "true"} if htmx else {})
    csp = r.headers["Content-Security-Policy"]
    script = re.search(r"script-src ([^;]+)", csp).group(1)
    assert script.strip() == "'self'"  # no 'unsafe-inline', no 'unsafe-eval'
    assert "frame-ancestors 'none'" in csp
    assert r.headers["X-Content-Type-Options"] == "nosniff"
    assert r.headers["Referrer-Policy"] == "same-origin"
    assert r.headers["X-Frame-Options"] == "DENY"


def test_a_refused_post_and_a_server_error_carry_them_too(laptop_app):
    @laptop_app.get("/boom-for-test")
    def boom():
        raise RuntimeError("a fault")
    c = laptop_app.test_client()
    assert c.post("/games/1/undo", data={"version": "x"}).headers["X-Content-Type-Options"] == "nosniff"
    r = c.get("/boom-for-test")
    assert r.status_code == 500 and "Content-Security-Policy" in r.headers


def test_no_template_holds_inline_script_or_event_handlers():
    """The CSP forbids inline script, so none may be written: every script is a static file."""
    for path in (ROOT / "templates").rglob("*.html"):
        html = path.read_text()
        for tag in re.findall(r"<script\b[^>]*>", html):
            assert "src=" in tag, f"{path}: inline <script>"
        assert not re.search(r"\son[a-z]+\s*=", html), f"{path}: an on…= handler"
        assert "javascript:" not in html, f"{path}: a javascript: address"


def test_pages_hold_no_inline_script_as_served(client):
    for path in ("/", "/games/1", "/games/2", "/lists/", "/games/new", "/lists/new/oilandiron"):
        html = client.get(path).get_data(as_text=True)
        assert all("src=" in tag for tag in re.findall(r"<script\b[^>]*>", html)), path
        assert not re.search(r"<[^>]+\son[a-z]+\s*=", html), path


def test_session_cookies_are_httponly_and_samesite(client):
    r = client.post("/lists/owner", data={"owner": "Ann"})
    cookie = r.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie


def test_the_remember_cookie_of_a_login_is_httponly_and_samesite(club_app):
    r = club_app.test_client().post("/login", data={"name": "Ann", "password": "correct horse battery"})
    cookies = r.headers.getlist("Set-Cookie")
    assert cookies and all("HttpOnly" in c and "SameSite=Lax" in c for c in cookies)


def test_a_body_over_the_limit_is_refused_with_a_sentence(client, laptop_app):
    before = len(client.get("/lists/").get_data())
    r = client.post("/lists/import", data={"text": "x" * (security.MAX_BODY + 10)})
    assert r.status_code == 413
    assert "too much to send at once" in r.get_data(as_text=True)
    assert len(client.get("/lists/").get_data()) == before


@pytest.mark.parametrize("target", ["//evil.example/", "/\\evil.example", "/\t/evil.example/", "/%09/evil.example/",
                                    "/%2F/evil.example", "/%5Cevil.example", "https://evil.example/"])
def test_a_game_action_never_redirects_off_site(laptop_app, target):
    c = laptop_app.test_client()
    r = c.post("/games/1/act/break_test", data={"version": "1", "unit": "11th-leger", "next": target})
    assert r.status_code == 303 and r.headers["Location"].startswith("/games/1")


@pytest.mark.parametrize("target", ["//evil.example/", "/\\evil.example", "/\t/evil.example/", "/%09/evil.example/",
                                    "https://evil.example/"])
def test_a_login_never_redirects_off_site(club_app, target):
    r = club_app.test_client().post("/login", data={"name": "Ann", "password": "correct horse battery", "next": target})
    assert r.status_code == 303 and r.headers["Location"] == "/"


# --- the secret key -------------------------------------------------------------------------------

def test_an_empty_secret_key_file_is_replaced_at_start_with_a_note(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    (tmp_path / "secret_key").write_text("  \n")
    key = config.secret_key(tmp_path)
    assert len(key) >= 32 and (tmp_path / "secret_key").read_text() == key
    assert "was empty, so a new key was written" in capsys.readouterr().err
    assert config.secret_key(tmp_path) == key


def test_an_unreadable_secret_key_file_stops_the_start_with_what_to_do(tmp_path, monkeypatch):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    (tmp_path / "secret_key").mkdir()  # cannot be read as a file, even by root
    with pytest.raises(config.SecretKeyError) as err:
        config.secret_key(tmp_path)
    assert "cannot read its secret key file" in str(err.value) and "SECRET_KEY" in str(err.value)


def test_an_app_given_an_empty_secret_refuses_to_start(database_url):
    with pytest.raises(config.SecretKeyError):
        make_app(database_url, SECRET_KEY="   ")


def test_the_start_prints_the_sentence_not_a_traceback(tmp_path):
    """SecretKeyError is a SystemExit: ``python -m referee`` stops with the sentence alone."""
    (tmp_path / "secret_key").mkdir()
    script = f"from pathlib import Path; from referee.web.serving import config; config.secret_key(Path({str(tmp_path)!r}))"
    env = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"}
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 1
    assert "cannot read its secret key file" in out.stderr
    assert "Traceback" not in out.stderr


def test_an_empty_secret_key_file_serves_pages_not_errors(tmp_path, monkeypatch, database_url):
    """The case from the issue: an empty file used to make every page a 500."""
    monkeypatch.delenv("SECRET_KEY", raising=False)
    (tmp_path / "secret_key").write_text("")
    app = make_app(database_url, SECRET_KEY=config.from_environment(tmp_path)["SECRET_KEY"])
    c = app.test_client()
    assert c.get("/").status_code == 200
    assert c.post("/lists/owner", data={"owner": "Ann"}).status_code == 303
