"""How long the Foe takes to decide for a whole side, and how many questions it asks a turn.

Not a test: it times the Black Powder Foe deciding the Command phase for every brigade of one
side at Waterloo (about 150 units in 20+ brigades), each brigade's questions answered by a fixed
script, in process and with nothing written (target: at most 100 ms at the median); then it plays
whole turns through ``foe_decide`` with seeded dice and counts the questions the Foe put, a turn
at Waterloo, and a round and an activation of an Of Oil and Iron Point of Control engagement and
Iron Clash (an activation asks at most four).

    .venv/bin/python bench/bench_foe.py --repeats 15
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.blackpowder import GAME as BLACK_POWDER  # noqa: E402
from referee.blackpowder.foe import brigade_decision, brigade_order, foe_step  # noqa: E402
from referee.blackpowder.model import Battle  # noqa: E402
from referee.core.dice import SeededDice  # noqa: E402
from referee.core.docstate import apply_changes  # noqa: E402
from referee.core.foe import CANT_TELL, Decision, FoeSettings, Question, run  # noqa: E402
from referee.data.scenarios import new_battle_from_scenario  # noqa: E402
from referee.selfplay.lone_player import engagement, play_engagement  # noqa: E402

TARGET_MS = 100


def answer(q: Question, n: int) -> str:
    """A scripted player: bands that vary, the first enemy named, now and then "can't tell"."""
    values = [v for v, _ in q.options if v != CANT_TELL]
    if n % 7 == 6:
        return CANT_TELL
    return values[n % 5] if q.kind == "band" else values[n % len(values)]


def act(doc: dict, action: str, facts: dict, dice) -> dict:
    spec = BLACK_POWDER.action(action)
    return apply_changes(doc, spec.resolve(doc, spec.facts.model_validate(facts), dice).all_changes)


def waterloo(side: str) -> dict:
    doc = new_battle_from_scenario("waterloo")
    doc = act(doc, "foe_settings", {"side": side}, SeededDice(0))
    if doc["active_side"] != side:
        for _ in range(3):
            doc = act(doc, "next_phase", {}, SeededDice(0))
    return doc


def whole_side(doc: dict) -> tuple[int, int]:
    """Every brigade's Command decision, answered by the script: (decisions, questions)."""
    battle, settings = Battle.from_doc(doc), FoeSettings.of(doc)
    decisions = questions = 0
    for b in brigade_order(doc, battle, settings.side):
        answers: dict[str, str] = {}
        while isinstance(found := run(lambda a, b=b: brigade_decision(a, doc, battle, settings, b), answers), Question):
            answers[found.key] = answer(found, questions)
            questions += 1
        decisions += isinstance(found, Decision)
    return decisions, questions


def one_turn(doc: dict, seed: str) -> tuple[dict, int, int]:
    """The Foe's whole turn (every phase) through ``foe_decide``: (doc, decisions, questions)."""
    decisions = questions = 0
    for i in range(500):
        answers: dict[str, str] = {}
        while isinstance(found := foe_step(doc, answers), Question):
            answers[found.key] = answer(found, questions)
            questions += 1
        if found is None:
            return doc, decisions, questions
        doc = act(doc, "foe_decide", {"answers": answers}, SeededDice(f"{seed}:{i}"))
        decisions += 1
    raise RuntimeError("the Foe never finished its turn")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()

    side = max(("blue", "red"), key=lambda s: len(Battle.from_doc(new_battle_from_scenario("waterloo"))
                                                 .brigades_of_side(s)))
    doc = waterloo(side)
    battle = Battle.from_doc(doc)
    units = [u for u in battle.units_of_side(side) if u.in_play]
    brigades = [b for b in battle.brigades_of_side(side) if any(u.in_play for u in battle.units_of_brigade(b.id))]
    times, counts = [], None
    for _ in range(args.repeats):
        start = time.perf_counter()
        counts = whole_side(doc)
        times.append((time.perf_counter() - start) * 1000)
    median = statistics.median(times)
    print(f"Waterloo, {battle.sides[side].name}: {len(units)} units on the table in {len(brigades)} brigades")
    print(f"  a Command decision for the whole side: median {median:.1f} ms, best {min(times):.1f} ms, "
          f"worst {max(times):.1f} ms over {args.repeats} ({counts[0]} decisions, {counts[1]} questions)"
          f" — target {TARGET_MS} ms: {'met' if median <= TARGET_MS else 'MISSED'}")

    turn_doc, decisions, questions = one_turn(doc, "bench")
    print(f"  questions in one whole Foe turn at Waterloo: {questions} ({decisions} decisions, "
          f"{questions / max(1, len(brigades)):.1f} a brigade)")

    for kind, label in (("point_of_control", "Point of Control"), ("iron_clash", "Iron Clash")):
        asked_by_round: dict[int, int] = {}
        per_activation: dict[tuple[str, str], set[str]] = {}

        def count(d, decision, answers):
            asked_by_round[d["round"]] = asked_by_round.get(d["round"], 0) + len(answers)
            for key in answers:  # "rig:round:…": a Rig activates once a round
                rig, rnd = key.split(":")[:2]
                per_activation.setdefault((rig, rnd), set()).add(key)
        play_engagement(engagement(kind, "p2"), "bench", on_decision=count)
        total = sum(asked_by_round.values())
        sizes = sorted(len(v) for v in per_activation.values())
        spread = ", ".join(f"{n}: {sizes.count(n)}" for n in sorted(set(sizes)))
        print(f"Of Oil and Iron, {label} (three Rigs a side): {total} questions in {len(asked_by_round)} rounds, "
              f"{total / max(1, len(asked_by_round)):.1f} a round; {len(sizes)} activations asked, "
              f"{statistics.mean(sizes) if sizes else 0:.1f} questions each, at most {max(sizes, default=0)} "
              f"(activations by questions asked: {spread})")
    return 0 if median <= TARGET_MS else 1


if __name__ == "__main__":
    raise SystemExit(main())
