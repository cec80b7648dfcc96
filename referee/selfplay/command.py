"""``python -m referee selfplay``: the Foe plays both sides of many games on the simulated table
and the command prints what came of them.

    python -m referee selfplay --game blackpowder --scenario quatre-bras --battles 20 --seed 1 --json
    python -m referee selfplay --game blackpowder --scenario all --battles 40 --markdown --write-balance
    python -m referee selfplay --game oilandiron --scenario iron_clash --battles 40 --difficulty hard,easy --swap

``--difficulty A,B`` gives the first side (Blue, the first player) A and the second B; ``--swap``
plays every other game with the sides' difficulties swapped, so a side's own advantage cancels
out of the difficulty's win rate. Every game is checked (``--no-check`` leaves the log's replay
and undo out, for timing): no exception, no refusal, an end, the log replaying and undoing to
its documents, and the first game of each scenario played again from its seed to the same end.
"""
from __future__ import annotations

import argparse
import json
import sys

from ..core.foe import DIFFICULTIES
from ..data import list_scenarios
from ..data.oilandiron import load_engagements
from ..data.scenario_balance import BALANCE_FILE
from ..systems import BLACK_POWDER, OIL_AND_IRON
from .blackpowder_play import play_battle
from .match import Outcome
from .oilandiron_play import play_engagement
from .reports import balance_file, markdown, summary

SIDES = {BLACK_POWDER: ("blue", "red"), OIL_AND_IRON: ("p1", "p2")}


def keys(game: str, scenario: str) -> list[str]:
    if game == BLACK_POWDER:
        known = [s.id for s in list_scenarios(BLACK_POWDER)]
    else:
        known = [e.key for e in load_engagements().engagements]
    if scenario == "all":
        return known
    wanted = scenario.split(",")
    unknown = [k for k in wanted if k not in known]
    if unknown:
        raise SystemExit(f"No {game} scenario named {', '.join(unknown)}: choose from {', '.join(known)}.")
    return wanted


def play_many(game: str, scenario: str, battles: int, seed: int, levels: tuple[str, str], swap: bool,
              check: bool = True) -> list[Outcome]:
    first, second = SIDES[game]
    out = []
    for n in range(battles):
        a, b = (levels[1], levels[0]) if swap and n % 2 else levels
        difficulty = {first: a, second: b}
        play = play_battle if game == BLACK_POWDER else play_engagement
        out.append(play(scenario, seed + n, difficulty, repeat_check=check and n == 0, check=check))
    return out


def parse(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m referee selfplay", description=__doc__.split("\n\n")[0])
    p.add_argument("--game", choices=(BLACK_POWDER, OIL_AND_IRON), required=True)
    p.add_argument("--scenario", required=True, help="a scenario's file name (quatre-bras), an engagement's key "
                                                     "(iron_clash), several with commas, or all")
    p.add_argument("--battles", type=int, default=10)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--difficulty", default="normal,normal", help="the first side's and the second's: hard,easy")
    p.add_argument("--swap", action="store_true", help="swap the difficulties every other game")
    p.add_argument("--json", action="store_true", help="print the summary as JSON (the default)")
    p.add_argument("--markdown", action="store_true", help="print a Markdown table instead")
    p.add_argument("--no-check", action="store_true", help="leave out the log's replay and undo (for timing)")
    p.add_argument("--write-balance", action="store_true",
                   help="write the measured balance where the scenario picker reads it (Black Powder)")
    args = p.parse_args(argv)
    levels = tuple(args.difficulty.split(","))
    if len(levels) != 2 or any(v not in DIFFICULTIES for v in levels):
        p.error(f"--difficulty takes two of {', '.join(DIFFICULTIES)} with a comma: hard,easy")
    if not 1 <= args.battles <= 100000:
        p.error("--battles is at least 1")
    args.levels = levels
    return args


def main(argv: list[str]) -> int:
    args = parse(argv)
    summaries = []
    for key in keys(args.game, args.scenario):
        outcomes = play_many(args.game, key, args.battles, args.seed, args.levels, args.swap, not args.no_check)
        summaries.append(summary(args.game, key, outcomes))
    command = "python -m referee selfplay " + " ".join(argv)
    if args.write_balance and args.game == BLACK_POWDER:
        if args.levels[0] != args.levels[1]:
            raise SystemExit("The balance is measured with equal Foes: give one difficulty to both sides.")
        BALANCE_FILE.parent.mkdir(exist_ok=True)
        before = json.loads(BALANCE_FILE.read_text(encoding="utf-8")) if BALANCE_FILE.exists() else {}
        BALANCE_FILE.write_text(json.dumps(balance_file(before, summaries, command), indent=1, ensure_ascii=False)
                                + "\n", encoding="utf-8")
    if args.markdown:
        print(markdown(summaries, command, swap=args.swap))
    else:
        print(json.dumps(summaries[0] if len(summaries) == 1 else summaries, indent=1, ensure_ascii=False))
    broken = any(s["exceptions"] or s["refused"] or s["invariant_failures"] or s["finished"] < s["battles"]
                 for s in summaries)
    return 1 if broken else 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main(sys.argv[1:]))
