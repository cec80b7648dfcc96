"""Several games on one server, as a club night has them: the several-games part of ``make bench``.

For each number of games (1, 5 and 12 by default), a fresh server (``python -m referee``, SQLite
in a temporary folder) and that many 300-unit Black Powder battles started through the start form;
at each, ten tablets watch (polling as the board does, in a process of their own) and one umpire
plays phase by phase through the real forms, pausing a drawn 0.2-0.6 s between taps. Reported for
each number of games: a tap's p50 and p95 (every action's POST), a poll's p95, how long after a
write the watching tablets showed it (p95: the lag), the server's processor time per second and
its peak memory, and the tap's p95 as a multiple of the one-game figure (the target: at most x2 at
12 games, with the lag at most 1 s). The server's processor is read from ``/proc`` (its whole
process tree) and split by kind of request (``bench/metered.py``): a tap all-in (its form, odds,
POST and every changed poll, with their share of what the process spent outside the app), and a
quiet poll all-in (the tablets watching a while before anyone taps); the simulated tablets' own
processor beside it. ``--workers N`` serves through gunicorn with the club's settings;
``--postgres URL`` (a PostgreSQL server, e.g. ``postgresql+psycopg://postgres@127.0.0.1:5432``)
runs every row twice, on SQLite and on a fresh database of that server, and prints PostgreSQL's
quiet poll and tap against SQLite's.

    python bench/several_games.py [--games 1 5 12] [--seconds 60] [--workers N] [--postgres URL]
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import threading
import time
import uuid
from contextlib import contextmanager
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_server import Server, free_port, phase_taps, press_button, tablet_apart, think, unwatch, watch  # noqa: E402
from play import BRIGADE_LINES, Board, Commits, battle_steps, start_battle  # noqa: E402
from report import ms, pct, seen_delays  # noqa: E402
from tablets import Tablet, Timings  # noqa: E402

WATCHERS = 10
# Seconds the tablets only watch, before the umpires begin: the quiet poll's cost all-in.
QUIET_SECONDS = 6.0
ACTIONS = ("order", "charge", "shoot", "combat_round", "next_phase")


def umpire(port: int, board: Board, game_id: int, deadline: float, timings: Timings, commits: Commits) -> None:
    """One umpire plays the battle alone, phase by phase, until the deadline."""
    t = tablet_apart(port, f"umpire of {game_id}", f"/games/{game_id}")
    turn = 0
    try:
        while time.monotonic() < deadline:
            version, state = board.state(game_id)
            if state.get("ended"):
                break
            steps = battle_steps(state, turn)
            t.call(phase_taps, timings, commits, game_id, steps[:6], think())
            version, state = board.state(game_id)
            if state["phase"] == "hand_to_hand":
                turn += 1
            if t.call(press_button, timings, commits, game_id, "next_phase", version, {"confirm": "on"}) not in (200, 409):
                break
    finally:
        t.close()


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tree_pids(root: int, skip: int = 0) -> set[int]:
    """``root`` and every process it started, but ``skip`` and those ``skip`` started."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parents[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
    mine = {root}
    grew = True
    while grew:
        grew = False
        for pid, ppid in parents.items():
            if ppid in mine and pid not in mine and pid != skip and ppid != skip:
                mine.add(pid)
                grew = True
    return mine


def tree_cpu(root: int, skip: int = 0) -> float:
    """The processor time of ``root`` and every process it started but ``skip`` and its own:
    the server's with its workers, or the simulated tablets' (this process's, less the server)."""
    total = 0.0
    for pid in tree_pids(root, skip):
        try:
            total += cpu_seconds(pid)
        except (OSError, ValueError, IndexError):
            continue
    return total


def tree_rss_mb(root: int) -> float:
    """The resident memory of ``root`` and every process it started (gunicorn's workers), in MB."""
    total = 0.0
    for pid in tree_pids(root):
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) / 1024
        except OSError:
            continue
    return total


class PeakMemory(threading.Thread):
    """The most memory the server's processes held together, sampled every quarter second."""

    def __init__(self, root: int) -> None:
        super().__init__(daemon=True)
        self.root, self.peak, self.stopped = root, 0.0, threading.Event()
        self.start()

    def run(self) -> None:
        while not self.stopped.wait(0.25):
            self.peak = max(self.peak, tree_rss_mb(self.root))


def read_meter(path: Path) -> dict[str, list[float]]:
    """The counts of every process of the server (a file each: bench/metered.py), added up."""
    out: dict[str, list[float]] = {}
    for one in path.parent.glob(path.name + ".*"):
        try:
            found = json.loads(one.read_text())
        except (OSError, ValueError):
            continue
        for kind, (n, cpu) in found.items():
            mine = out.setdefault(kind, [0, 0.0])
            mine[0] += n
            mine[1] += cpu
    return out


def meter_since(before: dict, after: dict) -> dict[str, tuple[int, float]]:
    """Requests and processor seconds by kind between two readings of the meter (bench/metered.py)."""
    out = {}
    for kind, (n, cpu) in after.items():
        n0, cpu0 = before.get(kind, (0, 0.0))
        if n > n0:
            out[kind] = (n - n0, cpu - cpu0)
    return out


# What one tap costs the server all-in: its form, the form's odds line, its POST, and every
# tablet's poll that brought the change (answered 200); not the quiet polls, which cost the same
# whether anyone taps or not (measured apart, before the taps).
TAP_KINDS = ("all form 200", "all odds 200", "all write 200", "all poll 200")


def tap_all_in(kinds: dict[str, tuple[int, float]], cpu_used: float, taps: int) -> float:
    """Seconds of server processor per tap: the app's own for ``TAP_KINDS``, and their share (by
    number of requests) of what the process spent outside the app (sockets, threads, checkpoints)."""
    if not taps:
        return 0.0
    answered = {k: v for k, v in kinds.items() if k.startswith("all ")}
    requests = sum(n for n, _ in answered.values())
    outside = cpu_used - sum(cpu for _, cpu in answered.values())
    mine = [answered.get(k, (0, 0.0)) for k in TAP_KINDS]
    share = outside * sum(n for n, _ in mine) / requests if requests else 0.0
    return (sum(cpu for _, cpu in mine) + share) / taps


def kinds_table(rows: list[dict]) -> None:
    """Each kind of request: how many, and the server's processor per request, by number of games."""
    names = sorted({k for r in rows for k in r["kinds"] if k.startswith("all ")},
                   key=lambda k: -max(r["kinds"].get(k, (0, 0.0))[1] for r in rows))
    print("\n| request (answered by the app / of them through Flask) | "
          + " | ".join(f"{r['games']} game(s), {r['database']}: n, CPU each, per tap" for r in rows) + " |")
    print("|---|" + "---|" * len(rows))
    for name in names:
        cells = []
        for r in rows:
            n, cpu = r["kinds"].get(name, (0, 0.0))
            flask = r["kinds"].get("flask" + name[3:], (0, 0.0))[0]
            per_tap = cpu / r["taps"] * 1000 if r["taps"] else 0.0
            cells.append(f"{n} ({flask} Flask), {cpu / n * 1000:.2f} ms, {per_tap:.2f} ms" if n else "—")
        print(f"| {name[4:]} | " + " | ".join(cells) + " |")
    cells = []
    for r in rows:
        inside = sum(cpu for k, (n, cpu) in r["kinds"].items() if k.startswith("all "))
        outside = r["cpu_used"] - inside
        cells.append(f"{outside / r['taps'] * 1000:.2f} ms a tap" if r["taps"] else "—")
    print("| outside the app (waitress's sockets, the checkpointer, the collector) | " + " | ".join(cells) + " |")


@contextmanager
def fresh_database(server: str):
    """A new, empty database on the PostgreSQL ``server`` for one run, dropped after it; its URL."""
    from sqlalchemy import create_engine, text
    name = f"referee_games_{uuid.uuid4().hex[:10]}"
    admin = create_engine(f"{server.rstrip('/')}/postgres", isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield f"{server.rstrip('/')}/{name}"
    finally:
        with admin.connect() as c:
            c.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def run(games: int, seconds: float, workers: int = 0, database: str = "") -> dict:
    """One row: ``games`` games for ``seconds`` on a fresh server (``database``: its URL, else a
    new SQLite file)."""
    folder = Path(tempfile.mkdtemp(prefix=f"referee-games-{games}-"))
    db_path = folder / "referee.sqlite"
    port = free_port()
    env = {"DATABASE_URL": database or f"sqlite:///{db_path}", "SECRET_KEY": "benchmark", "HOST": "127.0.0.1",
           "PORT": str(port), "PYTHONUNBUFFERED": "1"}
    meter = folder / "meter.json"
    env["METER_FILE"] = str(meter)
    # The real server, each request's processor time counted by kind (bench/metered.py).
    if workers:  # gunicorn with the club's settings (referee/web/serving/workers.py)
        env.update(WORKERS=str(workers), PYTHONPATH=str(HERE))
        argv = [str(Path(sys.executable).parent / "gunicorn"), "-c", "python:referee.web.serving.workers",
                "metered:metered_app()"]
    else:
        argv = [sys.executable, str(HERE / "metered.py")]
    server = Server("referee", argv, env, folder)
    timings, commits, board = Timings(), Commits(), Board(str(db_path), database)
    memory = PeakMemory(server.process.pid)
    try:
        starter = Tablet("127.0.0.1", port, "starter")
        ids = [start_battle(starter, f"Table {n + 1}", 10, BRIGADE_LINES) for n in range(games)]
        rooms = [watch(port, f"/games/{g}", "poll", timings, commits, pollers=WATCHERS)[0] for g in ids]
        # The tablets watch a while before anyone taps: what a quiet poll costs the server all-in
        # (its processor from /proc over the polls the app answered, bench/metered.py).
        time.sleep(2.5)
        quiet0, quiet_cpu0 = read_meter(meter), tree_cpu(server.process.pid)
        time.sleep(QUIET_SECONDS)
        quiet_cpu = tree_cpu(server.process.pid) - quiet_cpu0
        meter0 = read_meter(meter)
        quiet_polls = sum(n for k, (n, _) in meter_since(quiet0, meter0).items() if k.startswith("all poll"))
        cpu0, t0 = tree_cpu(server.process.pid), time.monotonic()
        load0 = tree_cpu(os.getpid(), server.process.pid)
        deadline = t0 + seconds
        threads = [threading.Thread(target=umpire, args=(port, board, g, deadline, timings, commits)) for g in ids]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        cpu_used = tree_cpu(server.process.pid) - cpu0
        time.sleep(1.5)
        kinds = meter_since(meter0, read_meter(meter))
        load_used = tree_cpu(os.getpid(), server.process.pid) - load0
        cpu = cpu_used / (time.monotonic() - t0)
        load_cpu = load_used / (time.monotonic() - t0)
        watched = {g: unwatch(room, timings, commits) for g, room in zip(ids, rooms)}
    finally:
        memory.stopped.set()
        server.stop()
        if board.engine is not None:
            board.engine.dispose()
    taps = [s for a in ACTIONS for s in timings.seconds(a)]
    polls = timings.seconds("poll:200") + timings.seconds("poll:204", (204,))
    changed, quiet = len(timings.seconds("poll:200")), len(timings.seconds("poll:204", (204,)))
    return {"games": games, "taps": len(taps), "tap50": pct(taps, 50), "tap95": pct(taps, 95),
            "poll95": pct(polls, 95), "lag95": pct(seen_delays(watched, commits), 95), "cpu": cpu,
            "cpu_tap": tap_all_in(kinds, cpu_used, len(taps)), "changed": changed, "quiet": quiet,
            "load_cpu": load_cpu, "rss": max(memory.peak, server.peak_rss),
            "quiet_poll": quiet_cpu / quiet_polls if quiet_polls else 0.0, "kinds": kinds, "cpu_used": cpu_used,
            "database": "PostgreSQL" if database else "SQLite"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[1, 5, 12])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--workers", type=int, default=0,
                        help="serve through gunicorn with this many workers (0: python -m referee, waitress)")
    parser.add_argument("--postgres", default=os.environ.get("REFEREE_BENCH_POSTGRES", ""),
                        help="a PostgreSQL server's URL: each row on SQLite, then on a fresh database there")
    args = parser.parse_args()
    load_before = os.getloadavg()
    rows = []
    for n in args.games:
        print(f"{n} game(s), {WATCHERS} watching tablets and an umpire each, {args.seconds:g} s ...", file=sys.stderr)
        rows.append(run(n, args.seconds, args.workers))
        if args.postgres:
            print(f"{n} game(s) on PostgreSQL ...", file=sys.stderr)
            with fresh_database(args.postgres) as url:
                rows.append(run(n, args.seconds, args.workers, url))
    base = {}
    for r in rows:
        base.setdefault(r["database"], r["tap95"])
    print(f"| games × {WATCHERS + 1} tablets | database | taps | tap p50 / p95 | tap p95 against {rows[0]['games']} game(s) "
          "| poll p95 | lag p95 | server processor | server CPU per tap all-in (form, odds, POST, the changed polls) | a quiet poll, all-in | polls changed / quiet "
          "| tablets' own processor | peak memory |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        first = base[r["database"]]
        against = f"×{r['tap95'] / first:.1f}" if first and r["tap95"] else "—"
        print(f"| {r['games']} | {r['database']} | {r['taps']} | {ms(r['tap50'])} / {ms(r['tap95'])} | {against} | {ms(r['poll95'])} "
              f"| {ms(r['lag95'])} | {r['cpu']:.2f} core | {r['cpu_tap'] * 1000:.1f} ms | {r['quiet_poll'] * 1000:.2f} ms "
              f"| {r['changed']} / {r['quiet']} "
              f"| {r['load_cpu']:.2f} core | {r['rss']:.0f} MB |")
    kinds_table(rows)
    if args.postgres:
        print("\n| PostgreSQL against SQLite, same games | " + " | ".join(f"{r['games']} game(s)" for r in rows[::2]) + " |")
        print("|---|" + "---|" * len(rows[::2]))
        for key, what in (("quiet_poll", "a quiet poll all-in"), ("cpu_tap", "server CPU per tap all-in"),
                          ("tap50", "a tap's p50"), ("tap95", "a tap's p95")):
            cells = [f"×{pg[key] / lite[key]:.2f} ({pg[key] * 1000:.2f} / {lite[key] * 1000:.2f} ms)"
                     if lite[key] and pg[key] else "—" for lite, pg in zip(rows[::2], rows[1::2])]
            print(f"| {what} | " + " | ".join(cells) + " |")
    load_after = os.getloadavg()
    print(f"\nLoad average (1 min) {load_before[0]:.2f} before, {load_after[0]:.2f} after, on {os.cpu_count()} cores; "
          f"served by {f'gunicorn, {args.workers} worker(s)' if args.workers else 'python -m referee (waitress)'} "
          f"on {'SQLite, then PostgreSQL' if args.postgres else 'SQLite'}.")


if __name__ == "__main__":
    main()
