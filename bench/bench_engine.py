"""How fast one tap is resolved: Black Powder orders and shots through the table service.

Not a test: it times ``referee.table.service.perform`` end to end (load the game, check the
version, resolve with the engine, apply the changes, write the log entry, commit) against a
SQLite file, the way the app runs at the table. Each "game" is a short scripted turn on a fresh
battle: every blue unit is given an order, the phase moves on, and every blue unit fires at a
red unit still on the field.

    .venv/bin/python bench/bench_engine.py --games 50
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee import migrations  # noqa: E402
from referee.blackpowder.battle_setup import new_battle_doc  # noqa: E402
from referee.table import service  # noqa: E402
from referee.table.db import make_engine, session  # noqa: E402

INFANTRY = dict(type="infantry", hand_to_hand=6, shooting=3, morale=4, stamina=3, formation="line")
GUNS = dict(type="artillery", hand_to_hand=1, shooting=None, morale=4, stamina=2, formation="deployed",
            artillery_kind="foot", weapon_range=48)


def battle_doc() -> dict:
    """Two brigades a side: four battalions and a foot battery each, commanders rated 8."""
    sides = {s: {"id": s, "name": name} for s, name in (("blue", "Allies"), ("red", "French"))}
    brigades, units = {}, {}
    for side in ("blue", "red"):
        for b in (1, 2):
            bid = f"{side}{b}"
            brigades[bid] = {"id": bid, "name": f"{side.title()} brigade {b}", "side": side,
                             "commander": {"name": f"General {side} {b}", "staff_rating": 8}}
            for n in range(1, 5):
                uid = f"{bid}-bn{n}"
                units[uid] = {"id": uid, "name": f"{n}th Battalion ({bid})", "side": side, "brigade": bid,
                              **INFANTRY}
            units[f"{bid}-guns"] = {"id": f"{bid}-guns", "name": f"Battery ({bid})", "side": side,
                                    "brigade": bid, **GUNS}
    return new_battle_doc("Benchmark", sides, brigades, units)


def in_play(state: dict, side: str) -> list[str]:
    return [uid for uid, u in state["units"].items()
            if u["side"] == side and not u.get("destroyed") and not u.get("off_table")]


class Timer:
    def __init__(self) -> None:
        self.samples: dict[str, list[float]] = defaultdict(list)
        self.refused: dict[str, int] = defaultdict(int)

    def perform(self, s, game, action: str, facts: dict):
        start = time.perf_counter()
        try:
            done = service.perform(s, game.id, game.version, action, facts)
        except service.TableError:
            # Still a full round trip; counted apart so a refusal never hides in the timings.
            self.refused[action] += 1
            return game
        self.samples[action].append(time.perf_counter() - start)
        return done.game


def play_one_game(s, timer: Timer, number: int) -> None:
    game = service.create_game(s, f"Benchmark {number}", "blackpowder", battle_doc(), seed=number)
    for uid in in_play(game.state, "blue"):
        game = timer.perform(s, game, "order", {"units": [uid], "order": "move", "distance_steps": 0})
    game = timer.perform(s, game, "next_phase", {"confirm": True})
    shooters = [u for u in in_play(game.state, "blue") if not u.endswith("guns")]
    shooters += [u for u in in_play(game.state, "blue") if u.endswith("guns")]
    for i, uid in enumerate(shooters):
        targets = in_play(game.state, "red")
        if not targets:
            break
        facts = {"shooter": uid, "target": targets[i % len(targets)], "range_band": "medium"}
        game = timer.perform(s, game, "shoot", facts)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    k = (len(ordered) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def report(timer: Timer, games: int, elapsed: float) -> str:
    lines = [f"{'action':<12}{'count':>7}{'p50 ms':>9}{'p90 ms':>9}{'p99 ms':>9}{'max ms':>9}{'mean ms':>9}"]
    everything: list[float] = []
    for action, values in sorted(timer.samples.items()):
        everything += values
        lines.append(_row(action, values))
    if everything:
        lines.append(_row("all", everything))
    for action, n in sorted(timer.refused.items()):
        lines.append(f"refused by the rules: {n} × {action}")
    total = sum(len(v) for v in timer.samples.values())
    lines.append(f"{games} games, {total} actions in {elapsed:.2f}s: "
                 f"{games / elapsed:.1f} games/s, {total / elapsed:.0f} actions/s")
    return "\n".join(lines)


def _row(name: str, values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    return (f"{name:<12}{len(ms):>7}{percentile(ms, 50):>9.2f}{percentile(ms, 90):>9.2f}"
            f"{percentile(ms, 99):>9.2f}{max(ms):>9.2f}{statistics.fmean(ms):>9.2f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Time Black Powder orders and shots through the table service.")
    parser.add_argument("--games", type=int, default=50, help="short scripted turns to play (default 50)")
    parser.add_argument("--database", help="SQLAlchemy URL (default: a new SQLite file in a temporary folder)")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory() as folder:
        url = args.database or f"sqlite:///{Path(folder) / 'bench.db'}"
        engine = make_engine(url)
        migrations.upgrade(engine)
        timer = Timer()
        with session(engine) as s:
            play_one_game(s, Timer(), 0)  # warm-up: imports, caches, first statements
            start = time.perf_counter()
            for n in range(1, args.games + 1):
                play_one_game(s, timer, n)
            elapsed = time.perf_counter() - start
        engine.dispose()
    print(f"Referee engine benchmark ({url.split(':')[0]}, {args.games} games)")
    print(report(timer, args.games, elapsed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
