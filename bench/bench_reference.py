"""How fast the rules reference answers: search, ask and rule links over the whole reference.

Not a test (a timed test fails at random on a loaded machine): it loads the rulebook, builds the
in-memory FTS5 index as the app does at start-up, then times every search word and question of
tests/reference/questions.yaml, every entry title typed as a search, and every rule name the
engines print resolved to its entry. Offline: nothing leaves the process.

    .venv/bin/python bench/bench_reference.py --rounds 20
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.reference import build  # noqa: E402
from referee.reference.engine_names import is_wrapper, modifier_rule_names  # noqa: E402


def percentiles(samples: list[float]) -> str:
    ms = sorted(s * 1000 for s in samples)
    q = statistics.quantiles(ms, n=100)
    return f"p50 {q[49]:.2f} ms · p90 {q[89]:.2f} ms · p99 {q[98]:.2f} ms · max {ms[-1]:.2f} ms ({len(ms)} runs)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20, help="times each query is run")
    args = parser.parse_args()

    t = time.perf_counter()
    import referee.blackpowder  # noqa: F401  the engines load anyway when the app starts
    import referee.oilandiron  # noqa: F401
    engines = time.perf_counter() - t
    t = time.perf_counter()
    ref = build()
    built = time.perf_counter() - t
    entries, lines = ref.index.size
    print(f"engines imported in {engines * 1000:.0f} ms; rulebook loaded and indexed in {built * 1000:.0f} ms: "
          f"{entries} entries, {lines} lines")

    questions = yaml.safe_load((ROOT / "tests" / "reference" / "questions.yaml").read_text())
    asks = [(g, q["ask"]) for g, items in questions.items() for q in items if "ask" in q]
    words = [(g, q["search"]) for g, items in questions.items() for q in items if "search" in q]
    words += [(None, e.title) for b in ref.books.values() for e in b.entries.values()]
    words += [(None, w) for w in ("morale", "overheat", "closing fi", "re-roll one missed shot", "charge")]
    names = [(g, n) for g, rows in modifier_rule_names().items() for n, _ in rows if not is_wrapper(n)]

    for label, run, items in (("search", lambda g, q: ref.search(q, g), words),
                              ("ask", lambda g, q: ref.ask(q, g), asks),
                              ("rule link", lambda g, q: ref.rule_entry(q, g), names)):
        samples = []
        for _ in range(args.rounds):
            for g, q in items:
                t = time.perf_counter()
                run(g, q)
                samples.append(time.perf_counter() - t)
        print(f"{label:9}: {percentiles(samples)}")


if __name__ == "__main__":
    main()
