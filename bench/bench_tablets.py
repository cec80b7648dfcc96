"""Two tablets acting at once on one Waterloo battle: how many taps are refused as stale.

Before, every write bumped the game's version and any tap from a screen drawn before another
tablet's write was refused ("Another tablet changed this game first"): with two people acting at
once, about half the taps. Now a tap is refused only when the writes since its screen touched
what it reads or would change (its units, their brigade, the phase, a combat they are in;
``referee/core/footprint.py``). This counts, for two tablets tapping together:

- ``different brigades``: each corrects units of a brigade of its own (an umpire and a player, or
  two players of one side): nothing should be refused;
- ``same brigade``: both correct units of one brigade: refusals are right, and counted;
- for each, how many of the taps that landed would have been refused by the version alone (the
  rule before), which is what a club saw.

Each tablet keeps the version its screen shows as a tablet does: its board's poll brings the
newest version every ``--poll`` seconds, its own write's answer names the version it made, and a
refusal shows the fresh view. Between taps it pauses a drawn 0.2-0.6 s. In this process, through
Flask's test client, on a temporary SQLite file (the logic counted, not the server's speed: see
``bench_server.py`` for that).

    .venv/bin/python bench/bench_tablets.py [--taps 40] [--poll 0.75] [--seed 1]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from referee import create_app  # noqa: E402
from referee.data.scenarios import new_battle_from_scenario  # noqa: E402
from referee.table import service  # noqa: E402
from referee.table.db import session as db_session  # noqa: E402

HTMX = {"HX-Request": "true"}


@dataclass
class Counts:
    taps: int = 0
    landed: int = 0
    refused: int = 0
    other: int = 0
    # Taps that landed from a screen another tablet's write had overtaken: refused by the old rule.
    overtaken: int = 0
    reasons: dict[str, int] = field(default_factory=dict)

    def add(self, other: "Counts") -> None:
        for name in ("taps", "landed", "refused", "other", "overtaken"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for k, v in other.reasons.items():
            self.reasons[k] = self.reasons.get(k, 0) + v


class Game:
    """The battle's version as the database holds it, read as a board's poll would."""

    def __init__(self, app, game_id: int) -> None:
        self.app, self.id = app, game_id

    def version(self) -> int:
        with db_session(self.app.extensions["referee.engine"]) as s:
            return service.get_game(s, self.id).version


def tablet(app, game: Game, units: list[str], taps: int, poll: float, rng: random.Random, start: threading.Barrier,
           counts: Counts) -> None:
    client = app.test_client()
    shown, polled = game.version(), time.monotonic()
    marked = {u: False for u in units}
    start.wait()
    for i in range(taps):
        time.sleep(rng.uniform(0.2, 0.6))
        if time.monotonic() - polled >= poll:  # the board's poll has brought the newest version
            shown, polled = game.version(), time.monotonic()
        unit = units[i % len(units)]
        before = game.version()
        r = client.post(f"/games/{game.id}/act/adjust_unit", headers=HTMX, data={
            "version": str(shown), "unit": unit, "field": "disordered", "value": "no" if marked[unit] else "yes"})
        counts.taps += 1
        if r.status_code == 200:
            counts.landed += 1
            counts.overtaken += before != shown
            marked[unit] = not marked[unit]
            trigger = json.loads(r.headers.get("HX-Trigger", "{}")).get("board-changed", {})
            shown = int(trigger.get("version", shown))  # this tablet's board now shows its own change
        elif r.status_code == 409:
            counts.refused += 1
            text = r.get_data(as_text=True)
            reason = text[text.find("Another tablet changed"):][:60].split(" first")[0] if "Another tablet" in text else "?"
            counts.reasons[reason] = counts.reasons.get(reason, 0) + 1
            shown = game.version()  # the refusal shows the fresh view
        else:
            counts.other += 1


def run(app, scenario: str, brigades: tuple[list[str], list[str]], taps: int, poll: float, seed: int) -> Counts:
    with db_session(app.extensions["referee.engine"]) as s:
        game_id = service.create_game(s, scenario, "blackpowder", new_battle_from_scenario("waterloo"), seed=seed).id
    game = Game(app, game_id)
    start = threading.Barrier(2)
    per = [Counts(), Counts()]
    threads = [threading.Thread(target=tablet, args=(app, game, brigades[n], taps, poll, random.Random(seed * 10 + n),
                                                     start, per[n])) for n in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    total = Counts()
    for c in per:
        total.add(c)
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--taps", type=int, default=40, help="taps per tablet in each part")
    parser.add_argument("--poll", type=float, default=0.75, help="seconds between a board's polls")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="bench-tablets-")
    app = create_app({"TESTING": True, "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False, "SEED_DEMO": False,
                      "DATABASE_URL": f"sqlite:///{folder}/bench.db"})
    doc = new_battle_from_scenario("waterloo")
    by_brigade: dict[str, list[str]] = {}
    for unit in doc["units"].values():
        if not unit.get("off_table") and not unit.get("awaiting"):
            by_brigade.setdefault(unit["brigade"], []).append(unit["id"])
    big = sorted((b for b in by_brigade if len(by_brigade[b]) >= 4), key=lambda b: (-len(by_brigade[b]), b))
    one, two = by_brigade[big[0]][:4], by_brigade[big[1]][:4]
    same = by_brigade[big[0]]
    parts = {
        "different brigades": (one, two),
        "same brigade": (same[0::2][:4], same[1::2][:4]),
    }
    load = os.getloadavg()
    print(f"Two tablets at once on Waterloo ({len(doc['units'])} units), {args.taps} taps each, "
          f"polls every {args.poll:.2f} s; load average {load[0]:.2f} on {os.cpu_count()} cores.\n")
    print("| two tablets | taps | landed | refused | refused share | landed from an overtaken screen "
          "(refused by the version alone) | reasons |")
    print("|---|---|---|---|---|---|---|")
    for name, brigades in parts.items():
        c = run(app, name, brigades, args.taps, args.poll, args.seed)
        reasons = ", ".join(f"{k} ×{v}" for k, v in sorted(c.reasons.items())) or "—"
        print(f"| {name} | {c.taps} | {c.landed} | {c.refused} | {c.refused / max(c.taps, 1):.0%} | "
              f"{c.overtaken} ({c.overtaken / max(c.taps, 1):.0%}) | {reasons} |")
        if c.other:
            print(f"\n{c.other} taps in '{name}' got another answer than 200 or 409.")


if __name__ == "__main__":
    main()
