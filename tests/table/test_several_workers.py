"""Several server processes on one database, as a club runs them behind one address: a write
taken by one process is seen by the other, and a tablet that acts on what it saw before that is
refused, whichever process it talks to. Real ``python -m referee`` processes (waitress), on a
SQLite file (or PostgreSQL with REFEREE_TEST_POSTGRES)."""
from __future__ import annotations

import http.cookiejar
import os
import re
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

ROOT = Path(__file__).resolve().parents[2]
TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')
VERSION = re.compile(r'data-version="(\d+)"')


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Worker:
    """A server process (``python -m referee`` unless told otherwise) on a port of its own."""

    def __init__(self, database_url: str, log: Path, argv: list[str] | None = None, **env: str) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "DATABASE_URL": database_url, "SECRET_KEY": "one key for every worker",
               "HOST": "127.0.0.1", "PORT": str(self.port), "THREADS": "4", **env}
        self.log = log
        with open(log, "w") as out:
            self.process = subprocess.Popen(argv or [sys.executable, "-m", "referee"], cwd=ROOT, env=env,
                                            stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 120  # a guard: on a busy machine a start takes tens of seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the worker exited: {log.read_text()}")
            try:
                urllib.request.urlopen(self.url + "/", timeout=2).close()
                return
            except OSError:
                time.sleep(0.1)  # waiting for the process to listen
        raise RuntimeError(f"the worker did not answer: {log.read_text()}")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(10)


class Tablet:
    """A browser without JavaScript: cookies kept, forms posted, redirects followed."""

    def __init__(self, worker: Worker) -> None:
        self.worker = worker
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def get(self, path: str) -> str:
        with self.opener.open(self.worker.url + path, timeout=30) as r:
            return r.read().decode()

    def post(self, path: str, form: dict) -> tuple[int, str]:
        data = urllib.parse.urlencode(form).encode()
        try:
            with self.opener.open(self.worker.url + path, data=data, timeout=30) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode()


@pytest.fixture()
def workers(database_url, tmp_path):
    first = Worker(database_url, tmp_path / "first.log")  # brings the schema up and seeds the demo
    second = Worker(database_url, tmp_path / "second.log")
    yield first, second
    for w in (first, second):
        w.stop()


def _game_id(tablet: Tablet) -> int:
    return int(re.search(r'href="/games/(\d+)"', tablet.get("/")).group(1))


def test_a_stale_write_is_refused_across_worker_processes(workers):
    first, second = workers
    here, there = Tablet(first), Tablet(second)
    game = _game_id(here)
    page_here, page_there = here.get(f"/games/{game}"), there.get(f"/games/{game}")
    seen = int(VERSION.search(page_here).group(1))
    assert int(VERSION.search(page_there).group(1)) == seen

    # One tablet, served by the first process, moves the battle on.
    status, _ = here.post(f"/games/{game}/act/next_phase",
                          {"csrf_token": TOKEN.search(page_here).group(1), "version": seen, "confirm": "on"})
    assert status == 200  # the redirect to the game page, followed
    assert int(VERSION.search(there.get(f"/games/{game}")).group(1)) == seen + 1  # the other process sees it

    # The other tablet, served by the second process, acts on the page it had before.
    status, body = there.post(f"/games/{game}/act/next_phase",
                              {"csrf_token": TOKEN.search(page_there).group(1), "version": seen, "confirm": "on"})
    assert status == 409
    assert "another tablet changed the turn and phase first" in body.lower()
    assert int(VERSION.search(body).group(1)) == seen + 1  # it is shown the game as it now is
    assert int(VERSION.search(here.get(f"/games/{game}")).group(1)) == seen + 1  # nothing more was applied


def test_gunicorn_workers_refuse_the_second_of_two_writes_on_the_same_version(database_url, tmp_path):
    """The README's several-worker set-up: gunicorn with the settings in referee.web.serving.workers."""
    pytest.importorskip("gunicorn")
    server = Worker(database_url, tmp_path / "gunicorn.log",
                    [sys.executable, "-m", "gunicorn", "-c", "python:referee.web.serving.workers", "referee:create_app()"],
                    WORKERS="2", THREADS="2")
    try:
        tablets = [Tablet(server), Tablet(server)]
        game = _game_id(tablets[0])
        pages = [t.get(f"/games/{game}") for t in tablets]
        seen = int(VERSION.search(pages[0]).group(1))
        outcomes = sorted(
            t.post(f"/games/{game}/act/next_phase",
                   {"csrf_token": TOKEN.search(page).group(1), "version": seen, "confirm": "on"})[0]
            for t, page in zip(tablets, pages))
        assert outcomes == [200, 409]
        assert int(VERSION.search(tablets[0].get(f"/games/{game}")).group(1)) == seen + 1
        assert len(re.findall(r'href="/games/\d+"', tablets[0].get("/"))) == 1  # the demo seeded once
    finally:
        server.stop()


ROUNDS = 25


def test_gunicorn_workers_land_writes_to_different_units_at_the_same_moment(database_url, tmp_path):
    """Issue 46, 3: two tablets correct units of different brigades at the same moment, on the
    same version, through four gunicorn workers. Neither touched what the other did, so both land,
    on SQLite and on PostgreSQL alike (on PostgreSQL 58 of 200 were refused before a write waited
    for the game's row in the database, as it waits for the game's lock in one process)."""
    pytest.importorskip("gunicorn")
    server = Worker(database_url, tmp_path / "gunicorn.log",
                    [sys.executable, "-m", "gunicorn", "-c", "python:referee.web.serving.workers", "referee:create_app()"],
                    WORKERS="4", THREADS="2")
    try:
        tablets = [Tablet(server), Tablet(server)]
        game = _game_id(tablets[0])
        units = ("11th-leger", "1-7th-musketeers")  # the 7th Division's, the 3rd Brigade's
        refused, barrier = [], threading.Barrier(2)
        for n in range(ROUNDS):
            pages = [t.get(f"/games/{game}") for t in tablets]
            seen, tokens = int(VERSION.search(pages[0]).group(1)), [TOKEN.search(p).group(1) for p in pages]
            answers = [None, None]

            def correct(i: int) -> None:
                barrier.wait()
                answers[i] = tablets[i].post(f"/games/{game}/act/adjust_unit", {
                    "csrf_token": tokens[i], "version": seen, "unit": units[i], "field": "casualties",
                    "value": str(1 + n % 2)})
            threads = [threading.Thread(target=correct, args=(i,)) for i in (0, 1)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            refused += [(n, status, body[:200]) for status, body in answers if status != 200]
            assert int(VERSION.search(tablets[0].get(f"/games/{game}")).group(1)) == seen + 2 - len(
                [a for a in answers if a[0] != 200])
        assert refused == []
    finally:
        server.stop()
