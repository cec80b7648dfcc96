"""End-to-end fixtures: the real app in its own process, driven by Debian's Chromium at the two
tablet sizes with touch.

- ``live_server``: one server for the whole session (its own temporary SQLite database, the demo
  seeded by ``create_app``). ``live_server.restart()`` stops the process and starts a new one on
  the same port and database, so a test can show that nothing lived only in memory.
- ``make_live_server()``: a server with a database of its own, for a test that must not share.
- Every test that uses ``page`` runs at 1024×768 (``landscape``) and 768×1024 (``portrait``);
  ``@pytest.mark.tablet("portrait")`` keeps one of them.
- Any request a page makes to a host other than this machine is refused and fails the test:
  the tablets may have no internet at the table.
"""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from _databases import new_database

from referee.table.db import make_engine
from referee.table.db import session as db_session

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
TABLETS = {
    "landscape": {"width": 1024, "height": 768},
    "portrait": {"width": 768, "height": 1024},
}
LOCAL_HOSTS = {"127.0.0.1", "localhost", "[::1]", "::1"}
START_TIMEOUT = 120.0  # s: a guard against a server that never starts; on a busy machine a start takes tens of seconds


def pytest_configure(config):
    config.addinivalue_line("markers", "tablet(*names): run only at these tablet sizes (landscape, portrait)")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    # ``xdist_group``: with ``make test``'s two processes (``-n 2 --dist loadgroup``) every
    # end-to-end test runs in one of them, one browser at a time, while the other takes the rest.
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.e2e)
            item.add_marker(pytest.mark.xdist_group("browser"))


def pytest_generate_tests(metafunc):
    if "tablet" not in metafunc.fixturenames:
        return
    marker = metafunc.definition.get_closest_marker("tablet")
    names = list(marker.args) if marker else list(TABLETS)
    unknown = set(names) - set(TABLETS)
    if unknown:
        raise pytest.UsageError(f"unknown tablet size {sorted(unknown)}; use {sorted(TABLETS)}")
    metafunc.parametrize("tablet", names, indirect=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class LiveServer:
    """Referee running as ``make run`` runs it, on 127.0.0.1, in a child process."""

    database_url: str
    log_path: Path
    port: int = field(default_factory=free_port)
    env: dict = field(default_factory=dict)
    process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> "LiveServer":
        if self.process is not None:
            raise RuntimeError("the server is already running")
        env = {**os.environ, **self.env, "DATABASE_URL": self.database_url, "PYTHONUNBUFFERED": "1",
               "HOST": "127.0.0.1", "PORT": str(self.port)}
        env.setdefault("SECRET_KEY", "e2e-tests")
        log = open(self.log_path, "a")
        log.write(f"--- start on port {self.port}\n")
        log.flush()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "referee"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        log.close()
        self._wait_until_up()
        return self

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None

    def restart(self) -> "LiveServer":
        """A new process on the same port and database: nothing survives but what was stored."""
        self.stop()
        return self.start()

    def log(self) -> str:
        return self.log_path.read_text() if self.log_path.exists() else ""

    def _wait_until_up(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with {self.process.returncode}:\n{self.log()}")
            try:
                with urllib.request.urlopen(self.url + "/", timeout=2) as resp:
                    if resp.status < 500:
                        return
            except urllib.error.HTTPError as e:
                if e.code < 500:
                    return
            except OSError:
                pass
            time.sleep(0.1)  # polling for the process to listen, not waiting on the page
        self.stop()
        raise RuntimeError(f"the server did not answer within {START_TIMEOUT:.0f}s:\n{self.log()}")


@pytest.fixture(scope="session")
def make_live_server(tmp_path_factory):
    """Start a server with its own fresh database: ``make_live_server()``."""
    started: list[LiveServer] = []
    databases = []

    def make(**env) -> LiveServer:
        folder = tmp_path_factory.mktemp("live")
        url, drop = new_database(folder)
        databases.append(drop)
        server = LiveServer(database_url=url, log_path=folder / "server.log", env=env)
        started.append(server)
        return server.start()

    yield make
    for server in started:
        server.stop()
    for drop in databases:
        drop()


@pytest.fixture(scope="session")
def live_server(make_live_server) -> LiveServer:
    return make_live_server()


@pytest.fixture(scope="module")
def server(make_live_server) -> LiveServer:
    """A server of one test file's own, as a "this laptop only" table (the campaign files)."""
    return make_live_server(REFEREE_MODE="laptop")


@pytest.fixture
def db(server):
    """A session on that server's database: a second "tablet" playing through the table service."""
    engine = make_engine(server.database_url)
    with db_session(engine) as s:
        yield s
    engine.dispose()


@pytest.fixture
def tablet(request) -> str:
    return getattr(request, "param", "landscape")


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        # As root in a container without GPU, and on a network that reaches only package
        # registries: no sandbox, no GPU, and none of Chromium's own calls home.
        "args": ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    }


@pytest.fixture
def browser_context_args(browser_context_args, live_server, tablet):
    return {
        **browser_context_args,
        "base_url": live_server.url,
        "viewport": TABLETS[tablet],
        "has_touch": True,
        "is_mobile": False,
    }


@pytest.fixture
def outside_requests(context) -> list[str]:
    """Every request a page tried to send off this machine (refused before it leaves)."""
    tried: list[str] = []

    def guard(route):
        url = route.request.url
        host = urlsplit(url).hostname or ""
        if url.startswith(("data:", "blob:", "about:")) or host in LOCAL_HOSTS or f"[{host}]" in LOCAL_HOSTS:
            route.continue_()
        else:
            tried.append(url)
            route.abort()

    context.route("**/*", guard)
    return tried


@pytest.fixture(autouse=True)
def _nothing_leaves_this_machine(request):
    if "page" not in request.fixturenames:
        yield
        return
    tried = request.getfixturevalue("outside_requests")
    yield
    assert tried == [], f"the page tried to reach other hosts: {tried}"


class ConsoleWatch:
    """What a page said in its console that a test did not expect: errors and warnings, uncaught
    exceptions, and requests that failed (one cut short because the page was left is not a
    failure of the app). A test that provokes one on purpose says so first: ``console.expect(text)``
    (a part of the message, e.g. "status of 409")."""

    def __init__(self) -> None:
        self.said: list[str] = []
        self.expected: list[str] = []

    def watch(self, page) -> None:
        page.on("console", lambda m: self.said.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None)
        page.on("pageerror", lambda e: self.said.append(f"uncaught: {e}"))
        page.on("requestfailed", lambda r: None if "ERR_ABORTED" in (r.failure or "")
                else self.said.append(f"failed: {r.method} {r.url} {r.failure}"))

    def expect(self, text: str) -> None:
        self.expected.append(text)

    def unexpected(self) -> list[str]:
        return [s for s in self.said if not any(e in s for e in self.expected)]


@pytest.fixture
def console(request) -> ConsoleWatch:
    watch = ConsoleWatch()
    if "page" in request.fixturenames:
        watch.watch(request.getfixturevalue("page"))
    return watch


@pytest.fixture(autouse=True)
def _the_console_stays_quiet(request):
    """Every test that uses ``page`` fails on a console error or warning, or a failed request, it
    did not expect (``console.expect``): noise in the console hides the real errors."""
    if "page" not in request.fixturenames:
        yield
        return
    watch = request.getfixturevalue("console")
    yield
    left = watch.unexpected()
    assert left == [], f"the page said what the test did not expect: {left}"
