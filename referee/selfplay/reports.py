"""What many self-played games came to: the JSON summary the command prints, the Markdown tables
of ``docs/foe.md``, and the balance the scenario picker shows (``scenarios/balance/``)."""
from __future__ import annotations

import statistics
from collections import Counter

from .match import Outcome

SAMPLES = 5  # of each kind of failure, the first few are printed in full


def summary(game: str, scenario: str, outcomes: list[Outcome]) -> dict:
    sides = list(outcomes[0].losses or outcomes[0].difficulty)
    names = outcomes[0].names
    by_side = Counter(o.winner or "unfinished" for o in outcomes)
    by_difficulty: Counter = Counter()
    for o in outcomes:
        if o.winner in o.difficulty:
            by_difficulty[o.difficulty[o.winner]] += 1
        else:
            by_difficulty[o.winner or "unfinished"] += 1
    seconds = [o.seconds for o in outcomes]

    def samples(kind: str) -> list[str]:
        return [f"seed {o.seed}: {m}" for o in outcomes for m in getattr(o, kind)][:SAMPLES]

    return {
        "game": game, "scenario": scenario, "battles": len(outcomes),
        "finished": sum(o.finished for o in outcomes),
        "exceptions": sum(len(o.exceptions) for o in outcomes), "exception_samples": samples("exceptions"),
        "refused": sum(len(o.refused) for o in outcomes), "refused_samples": samples("refused"),
        "invariant_failures": sum(len(o.invariant_failures) for o in outcomes),
        "invariant_samples": samples("invariant_failures"),
        "wins": {"by_side": {names.get(s, s): by_side[s] for s in sides} | {"draw": by_side["draw"]},
                 "by_side_key": {s: by_side[s] for s in sides},
                 "by_difficulty": dict(sorted(by_difficulty.items()))},
        "mean_turns": round(statistics.mean(o.turns for o in outcomes), 2),
        "mean_losses": {names.get(s, s): round(statistics.mean(o.losses.get(s, 0) for o in outcomes), 2)
                        for s in sides},
        "mean_questions": round(statistics.mean(o.questions for o in outcomes), 1),
        "unanswered": sum(o.unanswered for o in outcomes),
        "foe_fallbacks": sum(o.fallbacks for o in outcomes),
        "seconds_median": round(statistics.median(seconds), 3),
        "games_per_second": round(1 / statistics.median(seconds), 2) if statistics.median(seconds) else None,
    }


def pct(n: int, of: int) -> str:
    return f"{100 * n / of:.0f}%" if of else "–"


def markdown(summaries: list[dict], command: str, swap: bool = False) -> str:
    """A balance table (equal Foes) or a difficulty table (``swap``: one difficulty against another)."""
    lines = [f"Measured with `{command}`:", ""]
    if swap:
        lines += ["| scenario | games | " + " | ".join(f"{d} wins" for d in difficulties(summaries)) +
                  " | drawn | mean turns | refused | invariant failures |",
                  "|---" * (6 + len(difficulties(summaries))) + "|"]
        for s in summaries:
            n, wins = s["battles"], s["wins"]["by_difficulty"]
            lines.append(f"| {s['scenario']} | {n} | " + " | ".join(pct(wins.get(d, 0), n)
                                                                   for d in difficulties(summaries)) +
                         f" | {pct(wins.get('draw', 0), n)} | {s['mean_turns']} | {s['refused']} | "
                         f"{s['invariant_failures']} |")
        return "\n".join(lines)
    lines += ["| scenario | games | first side wins | second side wins | drawn | mean turns | mean losses "
              "(units or Rigs) | refused | invariant failures |", "|---" * 9 + "|"]
    for s in summaries:
        n = s["battles"]
        (a, wa), (b, wb) = list(s["wins"]["by_side"].items())[:2]
        losses = ", ".join(f"{k} {v}" for k, v in s["mean_losses"].items())
        lines.append(f"| {s['scenario']} | {n} | {a} {pct(wa, n)} | {b} {pct(wb, n)} | "
                     f"{pct(s['wins']['by_side']['draw'], n)} | {s['mean_turns']} | {losses} | {s['refused']} | "
                     f"{s['invariant_failures']} |")
    return "\n".join(lines)


def difficulties(summaries: list[dict]) -> list[str]:
    return sorted({d for s in summaries for d in s["wins"]["by_difficulty"] if d not in ("draw", "unfinished")})


def balance_file(before: dict, summaries: list[dict], command: str) -> dict:
    """Each scenario's balance with equal Foes, as the scenario picker shows it: the scenarios just
    measured replace what was measured of them before, the rest are kept."""
    measured = dict(before.get("scenarios") or {})
    for s in summaries:
        measured[s["scenario"]] = {"battles": s["battles"], "wins": s["wins"]["by_side_key"],
                                   "draws": s["wins"]["by_side"]["draw"], "mean_turns": s["mean_turns"],
                                   "mean_losses": list(s["mean_losses"].values()), "measured_by": command}
    return {"scenarios": dict(sorted(measured.items()))}
