"""A club server killed (SIGKILL) while a tablet starts a game (issue 46, 7): a game is there with
its umpire's seat or not at all, and the same form sent again from the cookies the tablet held
before (the answer never came) shows the one game it started, which that tablet opens."""
from __future__ import annotations

import http.cookiejar
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from sqlmodel import select

from referee import migrations
from referee.table import accounts
from referee.table.db import make_engine
from referee.table.db import session as db_session
from referee.table.models import Game, Seat

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "correct horse battery"
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, url: str, log: Path):
        self.url, self.log, self.port = url, log, _port()
        env = {**os.environ, "DATABASE_URL": url, "SECRET_KEY": "kill-test", "HOST": "127.0.0.1",
               "PORT": str(self.port), "REFEREE_MODE": "club", "REFEREE_SEED_DEMO": "0", "PYTHONUNBUFFERED": "1"}
        with open(log, "a") as out:
            self.proc = subprocess.Popen([sys.executable, "-m", "referee"], cwd=ROOT, env=env, stdout=out,
                                         stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 120  # a guard: on a busy machine a start takes tens of seconds
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.base + "/login", timeout=2).close()
                return
            except OSError:
                time.sleep(0.1)  # polling for the process to listen
        raise RuntimeError(log.read_text())

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()


class Tablet:
    """Cookies kept, redirects not followed; ``cookies_before`` is what it held before a tap."""

    def __init__(self, jar: http.cookiejar.CookieJar | None = None):
        self.jar = jar or http.cookiejar.CookieJar()

        class NoRedirect(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *a, **k):
                return None
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), NoRedirect)

    def held(self) -> "Tablet":
        """The same tablet as its cookies are now, for when the next answer is lost."""
        jar = http.cookiejar.CookieJar()
        for cookie in self.jar:
            jar.set_cookie(cookie)
        return Tablet(jar)

    def get(self, server: Server, path: str) -> tuple[int, str]:
        try:
            with self.opener.open(server.base + path, timeout=20) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode()

    def post(self, server: Server, path: str, form: dict) -> tuple[int, str]:
        try:
            with self.opener.open(server.base + path, data=urllib.parse.urlencode(form).encode(), timeout=20) as r:
                return r.status, r.headers.get("Location", "")
        except urllib.error.HTTPError as e:
            return e.code, e.headers.get("Location", "")


def _games(url: str) -> dict[int, list[str]]:
    engine = make_engine(url)
    try:
        with db_session(engine) as s:
            seats = s.exec(select(Seat)).all()
            return {g.id: [x.role for x in seats if x.game_id == g.id] for g in s.exec(select(Game)).all()}
    finally:
        engine.dispose()


def test_a_game_started_as_the_server_is_killed_has_its_umpire_and_is_shown_once(tmp_path):
    url = f"sqlite:///{tmp_path / 'kill.db'}"
    engine = make_engine(url)
    migrations.upgrade(engine)
    with db_session(engine) as s:
        accounts.register(s, "Ann", PASSWORD, admin=True)
        accounts.register(s, "Bob", PASSWORD)
        accounts.set_mode(s, accounts.CLUB)
    engine.dispose()
    log = tmp_path / "server.log"
    server = Server(url, log)
    bob = Tablet()
    _, page = bob.get(server, "/login")
    assert bob.post(server, "/login", {"name": "Bob", "password": PASSWORD, "csrf_token": CSRF.search(page).group(1)})[0] == 303
    for round_, wait in enumerate((0.0, 0.05)):
        _, page = bob.get(server, "/games/new")
        form = {"scenario": "demo", "csrf_token": CSRF.search(page).group(1), "token": f"killedStart{round_}x"}
        before = bob.held()
        started = len(_games(url))
        def send(tablet=bob, server=server):
            try:
                tablet.post(server, "/games/new", form)
            except OSError:
                pass  # the server died under it: the answer is lost
        in_flight = threading.Thread(target=send, daemon=True)
        in_flight.start()
        time.sleep(wait)
        server.kill()
        in_flight.join(timeout=20)
        games = _games(url)
        # Whole or not at all: every game has its umpire.
        assert all(roles == ["umpire"] for roles in games.values()), games
        assert len(games) in (started, started + 1)

        server = Server(url, log)
        bob = before  # the answer, and whatever cookies it set, never reached the tablet
        status, where = bob.post(server, "/games/new", form)
        assert status == 303 and re.fullmatch(r"/games/\d+", where), (status, where)
        assert len(_games(url)) == started + 1  # one game for the tap, whether it landed before the kill or now
        assert bob.get(server, where)[0] == 200
        assert bob.post(server, "/games/new", form)[1] == where  # and again: the same game
    server.kill()
