"""Simulated tablets each in a process of their own, as real tablets are machines of their own.

Inside one Python process every simulated tablet shares one interpreter lock: while one umpire's
tablet reads a 40 kB action form (Python's HTML parser, some 10 ms) no other tablet's thread can
take in its answer, and the time it waits is counted against the server. So the benchmark keeps
each acting tablet, and each room's thirty watching tablets, in a process of its own
(``Apart``), and gathers what each measured when it answers.
"""
from __future__ import annotations

import multiprocessing
import threading
from dataclasses import dataclass
from typing import Any, Callable

from play import Commits
from tablets import Poller, Tablet, Timings

# Forked: the child starts with the parent's modules and needs nothing pickled to begin.
CONTEXT = multiprocessing.get_context("fork")


def _serve(conn, make: Callable[[], Any]) -> None:
    held = make()
    while True:
        asked = conn.recv()
        if asked is None:
            break
        fn, args = asked
        timings, commits = Timings(), Commits()
        try:
            answer, ok = fn(held, timings, commits, *args), True
        except Exception as e:  # noqa: BLE001 - handed back to the parent, which raises it
            answer, ok = f"{type(e).__name__}: {e}", False
        conn.send((ok, answer, timings.answers, timings.reasons, commits.at))
    conn.close()


class Apart:
    """One process holding what ``make`` builds (a tablet, or a room of watching tablets); ``call``
    runs ``fn(held, timings, commits, *args)`` there and merges what it measured into the
    parent's ``timings`` and ``commits``. Calls on one ``Apart`` run one at a time."""

    def __init__(self, make: Callable[[], Any]) -> None:
        self.conn, child = CONTEXT.Pipe()
        self.lock = threading.Lock()
        self.process = CONTEXT.Process(target=_serve, args=(child, make), daemon=True)
        self.process.start()

    def call(self, fn: Callable, timings: Timings, commits, *args):
        with self.lock:
            self.conn.send((fn, args))
            ok, answer, answers, reasons, committed = self.conn.recv()
        with timings.lock:
            for what, found in answers.items():
                timings.answers.setdefault(what, []).extend(found)
            for what, counts in reasons.items():
                mine = timings.reasons.setdefault(what, {})
                for why, n in counts.items():
                    mine[why] = mine.get(why, 0) + n
        for game_id, versions in committed.items():
            for version, when in versions.items():
                commits.add(game_id, version, when)
        if not ok:
            raise RuntimeError(f"a tablet apart failed: {answer}")
        return answer

    def close(self) -> None:
        with self.lock:
            self.conn.send(None)
        self.process.join(30)


# --- what a tablet apart is asked to do ---------------------------------------------------------

def open_page(t: Tablet, timings, commits, path: str) -> int:
    page, total = t.open_page(path)
    return total


@dataclass
class Watched:
    """What the report needs of a watching tablet: the version it first showed, when it first
    showed each later one, and its poll interval."""
    first_version: int
    seen: dict[int, float]
    interval: float


class Room:
    """Thirty tablets watching one page, polling as its poll element says, in one process."""

    def __init__(self, pollers: Callable[[Timings, threading.Event], list[Poller]]) -> None:
        self.make_pollers = pollers
        self.timings = Timings()
        self.stop = threading.Event()
        self.pollers: list[Poller] = []


def start_watching(room: Room, timings, commits) -> tuple[float, float]:
    """The room's tablets start polling; the interval and spread they poll at."""
    room.pollers = room.make_pollers(room.timings, room.stop)
    return room.pollers[0].interval, room.pollers[0].spread


def stop_watching(room: Room, timings: Timings, commits) -> list[Watched]:
    room.stop.set()
    for p in room.pollers:
        p.join(30)
    timings.answers.update(room.timings.answers)
    return [Watched(p.first_version, dict(p.seen), p.interval) for p in room.pollers]
