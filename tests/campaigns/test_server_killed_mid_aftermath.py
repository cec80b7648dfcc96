"""A server killed (SIGKILL, no goodbye) in the middle of an Aftermath loses nothing it showed as
done: each step it answered is in the database when a new server starts, and a step that was in
flight at the kill is either wholly there or wholly absent."""
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

import pytest
from _campaign_play import new_oi_campaign, wreck_and_finish

from referee import migrations
from referee.table import campaign_games as cg
from referee.table import campaigns as tc
from referee.table.db import make_engine
from referee.table.db import session as db_session

ROOT = Path(__file__).resolve().parents[2]


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, url: str, log: Path):
        self.db_url, self.log, self.port, self.proc = url, log, _port(), None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> "Server":
        env = {**os.environ, "DATABASE_URL": self.db_url, "SECRET_KEY": "kill-test", "HOST": "127.0.0.1",
               "PORT": str(self.port), "REFEREE_MODE": "laptop", "PYTHONUNBUFFERED": "1"}
        with open(self.log, "a") as out:
            self.proc = subprocess.Popen([sys.executable, "-m", "referee"], cwd=ROOT, env=env, stdout=out,
                                         stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 120  # a guard: on a busy machine a start takes tens of seconds
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.base + "/campaigns", timeout=2):
                    return self
            except urllib.error.HTTPError:
                return self
            except OSError:
                time.sleep(0.1)  # polling for the process to listen
        raise RuntimeError(self.log.read_text())

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()


class Tablet:
    """A browser without a browser: cookies, the form's CSRF token, no redirects followed."""

    def __init__(self, server: Server):
        self.server = server
        jar = http.cookiejar.CookieJar()

        class NoRedirect(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *a, **k):
                return None
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), NoRedirect)

    def get(self, path: str) -> str:
        with self.opener.open(self.server.base + path, timeout=10) as r:
            return r.read().decode()

    def post(self, path: str, page: str, **fields) -> int:
        token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
        version = re.search(r'name="version" value="(\d+)"', page).group(1)
        data = urllib.parse.urlencode({"csrf_token": token, "version": version, **fields}).encode()
        try:
            with self.opener.open(self.server.base + path, data=data, timeout=10) as r:
                return r.status
        except urllib.error.HTTPError as e:
            return e.code


@pytest.fixture
def prepared(tmp_path):
    """A campaign whose first engagement is over (every Rig of Ben's destroyed), in a SQLite file."""
    url = f"sqlite:///{tmp_path / 'kill.db'}"
    engine = make_engine(url)
    migrations.upgrade(engine)
    with db_session(engine) as db:
        c = new_oi_campaign(db)
        tc.perform(db, c.id, c.version, "plan_engagement", {"engagement": "iron_clash", "deployment": "Battle Lines",
                                                            "battlefield": "Open Plains"})
        game = cg.start_engagement(db, c.id, tc.get_campaign(db, c.id).version)
        wreck_and_finish(db, game.id, hurt={"p1-r1": {"hull": 1}})
        cid = c.id
    engine.dispose()
    return url, cid


def _state(url: str, cid: int):
    engine = make_engine(url)
    try:
        with db_session(engine) as db:
            c = tc.get_campaign(db, cid)
            return c.version, c.state, tc.log(db, cid), {r.key: r.latest for r in tc.rosters(db, cid)}
    finally:
        engine.dispose()


def test_a_killed_server_keeps_every_aftermath_step_it_showed_done(prepared, tmp_path):
    url, cid = prepared
    server = Server(url, tmp_path / "server.log").start()
    tablet = Tablet(server)
    page = tablet.get(f"/campaigns/{cid}")
    assert tablet.post(f"/campaigns/{cid}/aftermath", page) == 303
    page = tablet.get(f"/campaigns/{cid}")
    assert tablet.post(f"/campaigns/{cid}/act/recovery_roll", page, rig="p2/r1", typed="12") == 303
    page = tablet.get(f"/campaigns/{cid}")
    assert tablet.post(f"/campaigns/{cid}/act/salvage_roll", page, player="p1", typed="10") == 303
    shown = tablet.get(f"/campaigns/{cid}")
    assert "Recovered whole" in shown and "Anna: 3 Iron from 1 roll." in shown

    # One more step in flight as the server dies.
    in_flight = threading.Thread(target=lambda: tablet.post(f"/campaigns/{cid}/act/recovery_roll", shown,
                                                            rig="p2/r2", typed="1"), daemon=True)
    in_flight.start()
    time.sleep(0.05)
    server.kill()
    in_flight.join(timeout=10)

    version, state, log, rosters = _state(url, cid)
    assert [e.action for e in sorted(log, key=lambda e: e.seq)][:5] == [
        "plan_engagement", "game_started", "begin_aftermath", "recovery_roll", "salvage_roll"]
    assert state["aftermath"]["recovery"]["p2/r1"]["outcome"] == "recovered"
    assert state["aftermath"]["salvage"]["p1"] == {"iron": 3, "rolls": 1}
    # The step in flight landed whole or not at all: the version, the log and the rosters agree.
    assert version == 1 + len(log)
    assert ("p2/r2" in state["aftermath"]["recovery"]) == (len(log) == 6)
    assert (state["rosters"]["p2"]["rigs"]["r2"]["status"] == "lost") == (len(log) == 6)

    again = Server(url, tmp_path / "server.log").start()
    try:
        page = Tablet(again).get(f"/campaigns/{cid}")
        assert "Recovered whole" in page and "Anna: 3 Iron from 1 roll." in page
    finally:
        again.kill()
