"""The benchmark's battle played in this process, through Flask's test client: what each kind of
request costs the processor when nothing else runs (no network, no server threads, no other
tablet), for looking into a figure of ``make bench``.

One umpire plays the 300-unit battle ``make bench`` plays, with the same forces, the same taps
(``play.battle_steps``) and the same requests (``tablets.Tablet``: the form, its odds line, the
POST with its CSRF token, the board's poll after the write), and moves the phase on. It prints,
for each kind of request, how many, the median, the 90th percentile and the total, in ms; then
the benchmark's yardstick (``bare_app.py``) asked the same way, as many times as the umpire tapped.

    .venv/bin/python bench/in_process.py [--turns 4] [--pause 0.05] [--profile post] [--cpu]

``--pause``: seconds of sleep before each request, as a tablet's requests come with a player's
pauses between them. ``--profile KIND``: a cProfile of that kind's requests (form, odds, post,
poll, next), sorted by cumulative time. ``--cpu``: the processor time the request's thread used
(``time.thread_time``) instead of the time it took: on a shared machine whose load swings, what the
code costs, apart from the waits for a core.
"""
from __future__ import annotations

import argparse
import cProfile
import pstats
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from play import BRIGADE_LINES, Board, Commits, battle_steps, outcome_steps, start_battle, tap  # noqa: E402
from tablets import Tablet, Timings  # noqa: E402

# The clock every request is timed by (``--cpu``: the thread's processor time).
CLOCK = {"clock": time.perf_counter}
REQUESTS = ("form", "odds", "post", "poll", "next")  # of the battle, each may be profiled
KINDS = REQUESTS + ("other", "bare get", "bare post")


def kind_of(method: str, path: str) -> str:
    """What a request is for, by its address: the groups this harness reports."""
    path = path.split("?", 1)[0]
    if path.endswith("/poll"):
        return "poll"
    if "/act/" in path:
        if path.endswith("/odds"):
            return "odds"
        if method == "POST":
            return "next" if path.endswith("/next_phase") else "post"
        return "form"
    return "other"


class InProcess(Tablet):
    """A benchmark tablet whose requests go to the app through Flask's test client (its own
    cookies, headers and CSRF token, as over the network), timed by kind."""

    def __init__(self, app, name: str = "umpire", pause: float = 0.0, profile: str | None = None) -> None:
        super().__init__("localhost", 80, name)
        self.client = app.test_client(use_cookies=False)  # the tablet sends its own Cookie header
        self.pause = pause
        self.profile = profile
        self.profiler = cProfile.Profile() if profile else None
        self.times: dict[str, list[float]] = {k: [] for k in KINDS}

    def _send(self, method: str, path: str, body: bytes | None,
              headers: dict) -> tuple[int, float, bytes, list[tuple[str, str]]]:
        if self.pause:
            time.sleep(self.pause)
        kind = kind_of(method, path)
        profiling = self.profiler is not None and kind == self.profile
        if profiling:
            self.profiler.enable()
        start = CLOCK["clock"]()
        r = self.client.open(path, method=method, data=body, headers=headers)
        raw = r.get_data()
        seconds = CLOCK["clock"]() - start
        if profiling:
            self.profiler.disable()
        self.times[kind].append(seconds * 1000)
        return r.status_code, seconds, raw, list(r.headers.items())


def yardstick(pause: float, times: int) -> dict[str, list[float]]:
    """The bare app's fragment, GET and POST, through the test client with the same pauses."""
    from bare_app import make_app as make_bare

    client = make_bare(Path(tempfile.mkdtemp(prefix="referee-bare-"))).test_client()
    token = re.search(r'"X-CSRFToken": "([^"]+)"', client.get("/board").get_data(as_text=True)).group(1)
    posting = {"HX-Request": "true", "X-CSRFToken": token}
    out: dict[str, list[float]] = {"bare get": [], "bare post": []}
    for _ in range(times):
        for kind, ask in (("bare get", lambda: client.get("/fragment?v=1", headers={"HX-Request": "true"})),
                          ("bare post", lambda: client.post("/fragment", data={"version": "1", "unit": "a"},
                                                            headers=posting))):
            time.sleep(pause)
            start = CLOCK["clock"]()
            ask()
            out[kind].append((CLOCK["clock"]() - start) * 1000)
    return out


def make_app(folder: Path):
    from referee import create_app
    from referee.web.serving import serve

    app = create_app({"DATABASE_URL": f"sqlite:///{folder / 'referee.sqlite'}", "SECRET_KEY": "in process",
                      "SEED_DEMO": False})
    serve.compile_templates(app)  # as the server does before it serves
    serve.settle_memory()
    return app


def play(t: InProcess, board: Board, game_id: int, turns: int) -> None:
    from bench_server import button

    timings, commits = Timings(), Commits()
    t.open_page(f"/games/{game_id}")
    turn = 0
    for _ in range(turns * 4):
        _, state = board.state(game_id)
        for step in battle_steps(state, turn):
            tap(t, game_id, step, timings, commits)
        _, state = board.state(game_id)
        for step in outcome_steps(state, turn):
            tap(t, game_id, step, timings, commits)
        version, state = board.state(game_id)
        if state["phase"] == "hand_to_hand":
            turn += 1
        moved = button(t, game_id, "next_phase", version, timings, commits, {"confirm": "on"})
        if moved.status != 200:
            raise RuntimeError(f"next phase answered {moved.status}: the battle is stuck")


def report(times: dict[str, list[float]]) -> str:
    lines = [f"{'kind':9} {'n':>5} {'p50':>7} {'p90':>7} {'p95':>7} {'total':>8}   (ms)"]
    for kind, xs in times.items():
        if kind == "other" or not xs:
            continue
        ordered = sorted(xs)
        p90, p95 = ordered[int(len(xs) * 0.9)], ordered[min(len(xs) - 1, int(len(xs) * 0.95))]
        lines.append(f"{kind:9} {len(xs):5} {statistics.median(xs):7.2f} {p90:7.2f} {p95:7.2f} {sum(xs):8.1f}")
    post, bare = times.get("post") or [], times.get("bare post") or []
    if post and bare:
        def p95_of(xs):
            return sorted(xs)[min(len(xs) - 1, int(len(xs) * 0.95))]
        lines.append(f"a tap (post) against the yardstick (bare post): p50 x{statistics.median(post) / statistics.median(bare):.1f}, "
                     f"p95 x{p95_of(post) / p95_of(bare):.1f}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=4, help="whole turns to play (default 4)")
    parser.add_argument("--pause", type=float, default=0.0, help="seconds of sleep before each request")
    parser.add_argument("--profile", choices=REQUESTS, help="profile this kind of request")
    parser.add_argument("--dump", help="with --profile: also write the profile to this file (pstats)")
    parser.add_argument("--cpu", action="store_true", help="time by the thread's processor time, not the clock")
    args = parser.parse_args()
    if args.cpu:
        CLOCK["clock"] = time.thread_time
    folder = Path(tempfile.mkdtemp(prefix="referee-in-process-"))
    app = make_app(folder)
    t = InProcess(app, pause=args.pause, profile=args.profile)
    game_id = start_battle(t, "In process: 300 units", 10, BRIGADE_LINES)
    for kind in KINDS:
        t.times[kind].clear()  # the start form and the first page are not what is measured
    play(t, Board(str(folder / "referee.sqlite")), game_id, args.turns)
    t.times.update(yardstick(args.pause, len(t.times["post"])))
    print(report(t.times))
    if t.profiler is not None:
        pstats.Stats(t.profiler).sort_stats("cumulative").print_stats(40)
        if args.dump:
            t.profiler.dump_stats(args.dump)


if __name__ == "__main__":
    main()
