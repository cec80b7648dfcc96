"""What a player waits for, measured on the real server: ``make bench``.

Starts Referee as ``make run`` does (``python -m referee``: waitress, a SQLite file, here in a
temporary folder) and, beside it, a bare Flask app serving a small fragment on the same server
kind: the yardstick every figure is divided by. Then, in order:

1. the yardstick under load: 30 tablets polling it and 2 acting, at the board's poll cadence
   (half of it now, half at the end, pooled);
2. a 300-unit Black Powder battle (two forces typed into the start form) with 30 tablets polling
   exactly as the board page does (the ``#poll`` element's address, headers, interval and
   spread) and 2 umpires tapping through the real forms (form, odds line, POST with CSRF token
   and version): orders, charges, shots, combat rounds, next phase;
3. a 6-Rigs-a-side Of Oil and Iron engagement played the same way (moves, attacks);
4. quiet measurements: the odds of the heaviest case of each action, a shot on the 300-unit
   battle against one on a 20-unit battle, the log page and a past entry at 10 and 1000 entries,
   the first load of a board as transferred (gzip).

Each acting tablet, and each room of thirty watching tablets, works in a process of its own
(``apart.py``), as real tablets are machines of their own: one simulated tablet reading a form
never holds up another's timing. After each write the acting tablet asks for its board at once,
as the board's poll does on the event ``board-changed``, and that is timed too.

It prints a Markdown table (figure, measured, against the yardstick, target, met or missed) and
the machine's load, and exits 0: it reports, it does not assert.

    .venv/bin/python bench/bench_server.py [--quick]
"""
from __future__ import annotations

import argparse
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Callable
from urllib.parse import urlencode

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from apart import Apart, Room, Watched, open_page, start_watching, stop_watching  # noqa: E402
from play import (  # noqa: E402
    BRIGADE_LINES,
    OVERFLOW,
    SMALL_LINES,
    Board,
    Commits,
    Step,
    battle_steps,
    engagement_steps,
    outcome_steps,
    start_battle,
    start_engagement,
    tap,
)
from report import Report  # noqa: E402
from tablets import Poller, Tablet, Timings, poll_interval, poll_spread, poll_tag  # noqa: E402

POLLERS = 30
# Seconds an umpire takes between taps, drawn anew for each tap: 0.4 s on average. People at a
# table do not tap in step; with the same pause after every tap the two simulated umpires kept
# the step they started in, each tap beside the other's for a whole phase. (Each forked tablet
# process draws its own numbers: Python reseeds ``random`` in a child after a fork.)
THINK = (0.2, 0.6)


def think(low: float = THINK[0], high: float = THINK[1]) -> float:
    return random.uniform(low, high)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A server in its own process, and the most memory it has held."""

    def __init__(self, name: str, argv: list[str], env: dict, folder: Path, cwd: Path = ROOT) -> None:
        self.name, self.port = name, int(env["PORT"])
        self.log = open(folder / f"{name}.log", "w")
        self.process = subprocess.Popen(argv, cwd=cwd, env={**os.environ, **env}, stdout=self.log,
                                        stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        self.peak_rss = 0
        self._sampling = threading.Event()
        self._wait_until_up()
        threading.Thread(target=self._sample, daemon=True).start()

    def _wait_until_up(self) -> None:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"{self.name} exited with {self.process.returncode}: see {self.log.name}")
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/", timeout=2).close()
                return
            except urllib.error.HTTPError:
                return
            except OSError:
                time.sleep(0.1)  # waiting for the process to listen
        raise SystemExit(f"{self.name} did not answer within 240 s: see {self.log.name}")

    def rss_mb(self) -> float:
        try:
            for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        except OSError:
            pass
        return 0.0

    def _sample(self) -> None:
        while not self._sampling.wait(0.25):
            self.peak_rss = max(self.peak_rss, self.rss_mb())

    def stop(self) -> None:
        self._sampling.set()
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


def _room(port: int, path: str, what: str, cadence: tuple[float, float] | None, pollers: int = POLLERS) -> Callable:
    """Thirty tablets (or ``pollers``) showing the page at ``path``, each to start polling at its
    own moment; ``cadence``: the interval and spread to poll at instead of the page's own."""
    def make(timings: Timings, stop: threading.Event) -> list[Poller]:
        out = []
        for n in range(pollers):
            t = Tablet("127.0.0.1", port, f"watcher {n}")
            page, _ = t.open_page(path)
            p = Poller(t, page, timings, stop, offset=0.0, what=what)
            if cadence is not None:
                p.interval, p.spread = cadence
            p.offset = random.uniform(0, p.interval)
            out.append(p)
        for p in out:
            p.start()
        return out
    return make


def watch(port: int, path: str, what: str, timings: Timings, commits: Commits,
          cadence: tuple[float, float] | None = None, pollers: int = POLLERS) -> tuple[Apart, tuple[float, float]]:
    """A room of thirty (or ``pollers``) watching tablets, in a process of its own, polling until
    ``unwatch``; and the interval and spread they poll at."""
    room = Apart(lambda: Room(_room(port, path, what, cadence, pollers)))
    return room, room.call(start_watching, timings, commits)


def unwatch(room: Apart, timings: Timings, commits: Commits) -> list[Watched]:
    watched = room.call(stop_watching, timings, commits)
    room.close()
    return watched


def tablet_apart(port: int, name: str, page: str) -> Apart:
    """An acting tablet in a process of its own, showing ``page``."""
    t = Apart(lambda: Tablet("127.0.0.1", port, name))
    t.call(open_page, Timings(), Commits(), page)
    return t


# --- the phases of the run ----------------------------------------------------------------------

def _bare_taps(t: Tablet, timings: Timings, commits, deadline: float) -> None:
    while time.monotonic() < deadline:
        timings.add("bare-get", t.request("GET", "/fragment?v=1", htmx="panel"))
        timings.add("bare-post", t.request("POST", "/fragment", form=[("version", "1"), ("unit", "a")],
                                           htmx="panel"))
        time.sleep(think())


def yardstick(port: int, cadence: tuple[float, float], seconds: float, timings: Timings) -> None:
    """The bare app under the same load: 30 pollers at the board's cadence, 2 acting, each
    acting tablet and the room of pollers in a process of its own as in the game's phases."""
    commits = Commits()
    room, _ = watch(port, "/board", "bare-poll", timings, commits, cadence)
    deadline = time.monotonic() + seconds
    actors = [tablet_apart(port, f"bare actor {n}", "/board") for n in range(2)]
    threads = [threading.Thread(target=a.call, args=(_bare_taps, timings, commits, deadline)) for a in actors]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    for a in actors:
        a.close()
    unwatch(room, timings, commits)


def phase_taps(t: Tablet, timings: Timings, commits, game_id: int, steps: list[Step],
          sees_it_after: float = 0.0) -> list[int]:
    """An umpire's share of a phase's taps, a moment's thought between them, begun when the
    umpire's board shows the phase (``sees_it_after`` seconds)."""
    time.sleep(sees_it_after)
    out = []
    for step in steps:
        out.append(tap(t, game_id, step, timings, commits).status)
        time.sleep(think())
    return out


def press_button(t: Tablet, timings: Timings, commits, game_id: int, action: str, version: int, fields: dict) -> int:
    return button(t, game_id, action, version, timings, commits, fields).status


def play_battle(port: int, board: Board, game_id: int, seconds: float, timings: Timings,
                commits: Commits) -> list[Watched]:
    """Two umpires play the battle phase by phase, splitting each phase's taps; one of them moves
    the phase on when both are done and begins the next after a moment's thought, the other when
    the board's poll has shown it the new phase (within the poll's interval and spread).
    Thirty tablets watch."""
    room, (polls_every, spread) = watch(port, f"/games/{game_id}", "poll", timings, commits)
    umpires = [tablet_apart(port, f"umpire {n}", f"/games/{game_id}") for n in range(2)]
    deadline = time.monotonic() + seconds
    turn = 0
    moved_on = 0  # the umpire who moved the phase on (the first phase: the one who started it)
    while time.monotonic() < deadline:
        version, state = board.state(game_id)
        if state.get("ended"):
            break
        steps = battle_steps(state, turn)
        other = 1 - moved_on
        # From the moment the phase changed: a moment's thought for the umpire who moved it on, the
        # wait for the next poll for the other.
        sees = {moved_on: think(), other: think(0, polls_every + spread)}
        threads = [threading.Thread(target=umpires[n].call,
                                    args=(phase_taps, timings, commits, game_id, steps[n::2], sees[n]))
                   for n in range(2)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        # Combats fought this phase may wait for the winners' choice before the phase moves on.
        _, state = board.state(game_id)
        outcomes = outcome_steps(state, turn)
        if outcomes:
            umpires[0].call(phase_taps, timings, commits, game_id, outcomes)
        version, state = board.state(game_id)
        if state["phase"] == "hand_to_hand":
            turn += 1
        moved_on = turn % 2
        status = umpires[moved_on].call(press_button, timings, commits, game_id, "next_phase", version, {"confirm": "on"})
        if status != 200:
            print(f"  next phase refused ({status}); the battle stops here", file=sys.stderr)
            break
    time.sleep(2 * polls_every + 1)  # a quiet spell: the watchers' polls find nothing new
    for u in umpires:
        u.close()
    return unwatch(room, timings, commits)


def button(t: Tablet, game_id: int, action: str, version: int, timings: Timings, commits: Commits,
           fields: dict) -> object:
    """A post button on the board (Next phase, End activation): version and CSRF token, no form."""
    form = [("csrf_token", t.csrf), ("version", str(version))] + list(fields.items())
    a = t.request("POST", f"/games/{game_id}/act/{action}", form=form, htmx="panel")
    timings.add(action, a)
    if a.status == 200:
        commits.add(game_id, a.version, time.monotonic())
    t.follow(game_id, str(version), a, timings, action)
    return a


def play_engagement(port: int, board: Board, game_id: int, seconds: float, timings: Timings,
                    commits: Commits) -> list[Watched]:
    """Each player taps for his own Rigs (the first also rolls initiative and ends rounds)."""
    room, (polls_every, _) = watch(port, f"/games/{game_id}", "oi-poll", timings, commits)
    players = {side: tablet_apart(port, f"player {side[-1]}", f"/games/{game_id}") for side in ("p1", "p2")}
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        _, state = board.state(game_id)
        steps = engagement_steps(state)
        if not steps:
            break
        t = players.get(state.get("current_player") or "p1", players["p1"])
        for status in t.call(phase_taps, timings, commits, game_id, steps):
            if status not in (200, 409, 422):
                print(f"  a tap answered {status}", file=sys.stderr)
    time.sleep(2 * polls_every + 1)
    for t in players.values():
        t.close()
    return unwatch(room, timings, commits)


def advance_to(t: Tablet, board: Board, game_id: int, side: str, phase: str, timings: Timings,
               commits: Commits) -> None:
    """Next phase until ``side``'s ``phase`` (at most one whole turn)."""
    for _ in range(7):
        version, state = board.state(game_id)
        if (state["active_side"], state["phase"]) == (side, phase):
            return
        button(t, game_id, "next_phase", version, timings, commits, {"confirm": "on"})
    raise RuntimeError(f"game {game_id} never reached {side} {phase}")


def heaviest_odds(t: Tablet, board: Board, big: int, oi: int, timings: Timings, commits: Commits) -> None:
    """The heaviest case of each action's odds, five times each: an order from far away with the
    General's re-roll, six battalions charging into closing fire, guns at short range, a
    6-against-6 combat, a ROF 6 Full Auto burst. The combat is built by the rules: six
    battalions charge one, and five of the enemy's charge into that fight in their own turn."""
    def odds(game_id: int, action: str, facts: list[tuple[str, str]], label: str) -> None:
        for _ in range(5):
            a = t.request("GET", f"/games/{game_id}/act/{action}/odds?{urlencode(facts)}", htmx="odds")
            timings.add(f"heavy-odds:{label}", a)

    _, state = board.state(big)
    units = state["units"]
    blue = [u for u, d in units.items() if d["side"] == "blue" and d["type"] == "infantry"]
    red = [u for u, d in units.items() if d["side"] == "red" and d["type"] == "infantry"]
    guns = [u for u, d in units.items() if d["side"] == "red" and d["type"] == "artillery"]
    advance_to(t, board, big, "blue", "command", timings, commits)
    odds(big, "order", [("units", blue[0]), ("order", "move"), ("distance_steps", "4"),
                        ("general_present", "on"), ("use_general_reroll", "on")], "order")
    chargers = [("chargers", u) for u in blue[-6:]]
    odds(big, "charge", chargers + [("target", red[-1]), ("response", "closing_fire")], "charge")
    tap(t, big, Step("charge", {"chargers": blue[-6:], "target": red[-1]}, {"chargers": blue[-6]},
                     label="setup"), timings, commits)
    advance_to(t, board, big, "red", "command", timings, commits)
    tap(t, big, Step("charge", {"chargers": red[-6:-1], "target": blue[-6]}, {"chargers": red[-6]},
                     label="setup"), timings, commits)
    advance_to(t, board, big, "red", "shooting", timings, commits)
    odds(big, "shoot", [("shooter", guns[0]), ("target", blue[0]), ("range_band", "short")], "shoot")
    advance_to(t, board, big, "red", "hand_to_hand", timings, commits)
    _, state = board.state(big)
    fight = next((cid for cid, c in (state.get("combats") or {}).items()
                  if len(c["attackers"]) >= 6 and len(c["defenders"]) >= 6), None)
    if fight:
        odds(big, "combat_round", [("combat", fight)], "combat 6 v 6")
    else:
        print("  the 6-against-6 combat did not form; its odds are not measured", file=sys.stderr)
    # Of Oil and Iron: a Rig activated, its Rotary Gun (ROF 4, Full Auto +2) aimed.
    for _ in range(3):
        _, state = board.state(oi)
        if state.get("active_rig"):
            break
        tap(t, oi, engagement_steps(state)[0], timings, commits)
    if state.get("active_rig"):
        me = state["active_rig"]
        enemy = next(r for r, d in state["rigs"].items() if d["player"] != state["rigs"][me]["player"])
        odds(oi, "fire_weapon", [("rig", me), ("weapon", "example_rotary_gun"), ("target", enemy),
                                 ("in_front_arc", "on"), ("in_range", "on"), ("distance", "close")],
             "ROF 6 full auto")
        # What a watching tablet is sent after that burst (two Rigs touched).
        watcher = Tablet("127.0.0.1", t.port, "watcher")
        page, _ = watcher.open_page(f"/games/{oi}")
        tap(t, oi, Step("fire_weapon", {"rig": me, "weapon": "example_rotary_gun", "target": enemy, "in_front_arc": "on",
                                        "in_range": "on", "distance": "close", "overflow_to": OVERFLOW},
                        {"rig": me}, label="setup"), timings, commits)
        a = watcher.request("GET", poll_tag(page.text)["hx-get"], htmx="poll", trigger="poll")
        timings.add(f"oi-poll-after-attack:{a.status}", a)


def shots_by_size(t: Tablet, board: Board, big: int, small: int, timings: Timings, commits: Commits) -> None:
    """The same shot on the 300-unit battle and on the 20-unit one, alternately; one tablet
    watches the big battle and asks after each shot what changed (a shot touches at most three
    units: the shooter, the target, and a unit that breaks)."""
    for game_id in (big, small):
        advance_to(t, board, game_id, "blue", "shooting", timings, commits)
    watcher = Tablet("127.0.0.1", t.port, "watcher")
    page, _ = watcher.open_page(f"/games/{big}")
    poll = poll_tag(page.text)["hx-get"]
    for i in range(12):
        for game_id, label in ((big, "shoot-300"), (small, "shoot-20")):
            _, state = board.state(game_id)
            units = state["units"]
            blue = [u for u, d in units.items() if d["side"] == "blue" and d["type"] == "infantry"]
            red = [u for u, d in units.items() if d["side"] == "red" and d["type"] == "infantry"
                   and not d.get("destroyed")]
            tap(t, game_id, Step("shoot", {"shooter": blue[i % len(blue)], "target": red[i % len(red)]},
                                 {"shooter": blue[i % len(blue)]}, label=label), timings, commits)
            if game_id == big:
                a = watcher.request("GET", poll, htmx="poll", trigger="poll")
                timings.add(f"poll-after-shot:{a.status}", a)
                tag = poll_tag(a.text) if a.status == 200 else None
                poll = tag["hx-get"] if tag else poll


def log_depth(t: Tablet, board: Board, shallow: int, deep: int, timings: Timings, commits: Commits) -> None:
    """The log page and a past entry's view at 10 and at 1000 entries."""
    for game_id in (shallow, deep):
        _, state = board.state(game_id)
        blue = [u for u, d in state["units"].items() if d["side"] == "blue"]
        for u in blue[:10]:
            tap(t, game_id, Step("order", {"units": [u], "order": "move"}, {"units": u}, label="log-setup"),
                timings, commits)
    board.repeat_log(deep, 1000)
    for _ in range(10):  # the two games in turn, so both meet the same moments of the machine's load
        for game_id, depth in ((shallow, 10), (deep, 1000)):
            timings.add(f"log-page:{depth}", t.request("GET", f"/games/{game_id}/log"))
            timings.add(f"log-entry:{depth}", t.request("GET", f"/games/{game_id}/log/3"))
        timings.add("log-page:1000-deep", t.request("GET", f"/games/{deep}/log?before=501"))  # half way down


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a shorter run, for trying the benchmark itself")
    args = parser.parse_args()
    scale = 0.4 if args.quick else 1.0
    random.seed(7)
    load_before = os.getloadavg()
    started = time.monotonic()
    folder = Path(tempfile.mkdtemp(prefix="referee-bench-"))
    db_path = folder / "referee.sqlite"
    env = {"DATABASE_URL": f"sqlite:///{db_path}", "SECRET_KEY": "benchmark", "HOST": "127.0.0.1",
           "PORT": str(free_port()), "PYTHONUNBUFFERED": "1"}
    print(f"Referee and the bare app start (logs in {folder}) ...", file=sys.stderr)
    referee = Server("referee", [sys.executable, "-m", "referee"], env, folder)
    bare_port = free_port()
    bare = Server("bare", [sys.executable, str(HERE / "bare_app.py"), str(bare_port)],
                  {"PYTHONPATH": str(ROOT), "PORT": str(bare_port)}, folder)
    timings, commits = Timings(), Commits()
    board = Board(str(db_path))
    try:
        umpire = Tablet("127.0.0.1", referee.port, "umpire")
        big = start_battle(umpire, "Benchmark: 300 units", 10, BRIGADE_LINES)
        small = start_battle(umpire, "Benchmark: 20 units", 2, SMALL_LINES)
        shallow = start_battle(umpire, "Benchmark: short log", 2, SMALL_LINES)
        deep = start_battle(umpire, "Benchmark: long log", 2, SMALL_LINES)
        oi = start_engagement(umpire, 6)
        first = {}
        for name, game_id in (("battle", big), ("engagement", oi)):
            page, first[name] = Tablet("127.0.0.1", referee.port, "newcomer").open_page(f"/games/{game_id}")
            first[name + "-raw"] = page.size
        tag = poll_tag(page.text)
        cadence = interval, spread = poll_interval(tag), poll_spread(tag)
        # The yardstick half before the games and half after, pooled: a shared machine's load
        # drifts over the run, and the ratios should not rest on one moment of it.
        print(f"Games started; the board polls every {interval:g} s, each poll up to {spread:g} s after its tick. "
              "The yardstick, first half ...", file=sys.stderr)
        yardstick(bare.port, cadence, 12.5 * scale, timings)
        print("Quiet measurements: shots by battle size, the log's depth, the heaviest odds ...", file=sys.stderr)
        shots_by_size(umpire, board, big, small, timings, commits)
        log_depth(umpire, board, shallow, deep, timings, commits)
        heaviest_odds(umpire, board, big, oi, timings, commits)
        print("The battle: 30 tablets watch, 2 umpires play ...", file=sys.stderr)
        battle_pollers = play_battle(referee.port, board, big, 100 * scale, timings, commits)
        print("The engagement: 30 tablets watch, 2 players play ...", file=sys.stderr)
        oi_pollers = play_engagement(referee.port, board, oi, 40 * scale, timings, commits)
        print("The yardstick, second half ...", file=sys.stderr)
        yardstick(bare.port, cadence, 12.5 * scale, timings)
    finally:
        referee.stop()
        bare.stop()
    report = Report(timings, commits, {big: battle_pollers, oi: oi_pollers}, first,
                    rss={"referee": referee.peak_rss, "bare": bare.peak_rss},
                    load=(load_before, os.getloadavg()), seconds=time.monotonic() - started,
                    cadence=cadence)
    for what, reasons in timings.reasons.items():
        for why, n in sorted(reasons.items(), key=lambda kv: -kv[1])[:3]:
            print(f"  {what} refused {n}×: {why}", file=sys.stderr)
    print(report.markdown())


if __name__ == "__main__":
    main()
