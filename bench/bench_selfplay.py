"""How long a whole game takes when the Foe plays both sides on the simulated table (issue 50).

Not a test: it plays whole games (``referee/selfplay/``, the same code as ``python -m referee
selfplay``) with the invariant checks left out, and times each on this process's own CPU clock
(``time.process_time``: one core, however busy the machine is). Prints, per game, the median and
best of the repeats, the median's ratio to its target (Quatre Bras 2 s, the day of Waterloo 15 s,
an Iron Clash 1 s; a ratio at most 1 meets it) and whole games a second at the median. Each repeat
has its own seed, so the games differ in length: the median is the figure to read.

    .venv/bin/python bench/bench_selfplay.py --repeats 5
"""
from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.selfplay.blackpowder_play import play_battle  # noqa: E402
from referee.selfplay.oilandiron_play import play_engagement  # noqa: E402

EQUAL_BP = {"blue": "normal", "red": "normal"}
EQUAL_OI = {"p1": "normal", "p2": "normal"}
GAMES = (  # (label, how to play one with a seed, target in seconds, repeats at most)
    ("Quatre Bras", lambda seed: play_battle("quatre-bras", seed, EQUAL_BP, check=False), 2.0, 99),
    ("The day of Waterloo", lambda seed: play_battle("waterloo", seed, EQUAL_BP, check=False), 15.0, 3),
    ("Iron Clash", lambda seed: play_engagement("iron_clash", seed, EQUAL_OI, check=False), 1.0, 99),
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    print("| game | games | median CPU s | best | turns (median) | ratio to target | games a second |")
    print("|---|---|---|---|---|---|---|")
    worst = 0.0
    for label, play, target, most in GAMES:
        outcomes = [play(seed) for seed in range(1, min(args.repeats, most) + 1)]
        broken = [o for o in outcomes if not o.finished or o.exceptions or o.refused]
        times = [o.seconds for o in outcomes]
        median = statistics.median(times)
        worst = max(worst, median / target)
        print(f"| {label} | {len(outcomes)} | {median:.2f} | {min(times):.2f} | "
              f"{statistics.median(o.turns for o in outcomes):g} | {median / target:.2f} | {1 / median:.2f} |"
              + (f" {len(broken)} unfinished or refused!" if broken else ""))
    return 0 if worst <= 1 else 1


if __name__ == "__main__":
    raise SystemExit(main())
