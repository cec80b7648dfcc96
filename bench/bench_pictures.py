"""What each picture costs the server: the median time to draw it and its size in bytes.

Not a test (a timed test fails at random on a loaded machine). Each picture is drawn from what
the engines work out for a real game: the odds bars of a shot, a break test, an order and a Heat
Threshold roll; every brigade strip of the day of Waterloo (about 300 units); every Rig card of
an Iron Clash; the scenario picker's bars and timelines; and the story of a battle played twenty
turns (the day of Waterloo, every phase stepped, a unit shaken or lost each turn); and a Hundred
Days campaign with 16 June fought and Waterloo begun, and an Of Oil and Iron campaign's roster after
its first Aftermath (the campaign tests' battles and engagement). The budget is
5 ms and 10 kB a picture (issue 48); the ratio column is the median over it.

    .venv/bin/python bench/bench_pictures.py --rounds 200
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "campaigns"))  # the Hundred Days played with the tests' battles

from test_aftermath import in_aftermath  # noqa: E402
from test_hundred_days import campaign, fight, ligny, quatre_bras  # noqa: E402

from referee.blackpowder.board_view import sides as board_sides  # noqa: E402
from referee.blackpowder.model import Battle  # noqa: E402
from referee.blackpowder.story import story  # noqa: E402
from referee.campaigns import day_by_day, roster_by_engagement  # noqa: E402
from referee.core.dice import SeededDice  # noqa: E402
from referee.core.docstate import apply_changes  # noqa: E402
from referee.core.errors import RuleError  # noqa: E402
from referee.data import list_scenarios  # noqa: E402
from referee.data.scenarios import new_battle_from_scenario  # noqa: E402
from referee.data.starts import EXAMPLE_SQUADRONS, build_engagement  # noqa: E402
from referee.oilandiron.board_view import card as rig_card  # noqa: E402
from referee.oilandiron.model import Engagement  # noqa: E402
from referee.oilandiron.story import ScoreStory  # noqa: E402
from referee.systems import BLACK_POWDER, OIL_AND_IRON, system_for  # noqa: E402
from referee.systems.replay import initial_state  # noqa: E402
from referee.table.write_path import odds_of  # noqa: E402
from referee.web.pictures import (  # noqa: E402
    arrivals_timeline,
    battle_story,
    brigade_strip,
    campaign_timeline,
    odds_bars,
    rig_diagram,
    roster_timeline,
    score_by_round,
    strength_bars,
)

BUDGET_MS, BUDGET_BYTES = 5.0, 10_000


def start_form() -> dict:
    """The Of Oil and Iron start form with the example squadrons, as a person posts it."""
    data = {"name": "", "engagement": "iron_clash", "aggressor": "p1", "p1-name": "Anna", "p2-name": "Ben"}
    for side, rigs in EXAMPLE_SQUADRONS.items():
        data[f"{side}-n"] = str(len(rigs))
        for i, r in enumerate(rigs):
            key = f"{side}-r{i}"
            data.update({f"{key}-name": r["name"], f"{key}-chassis": r["chassis"], f"{key}-engine": r["engine"]})
            for n, w in enumerate(r["weapons"]):
                data[f"{key}-w{n}"] = w
            data[f"{key}-equipment"] = list(r["equipment"])
    return data


def timed(draw, rounds: int) -> tuple[float, int]:
    """The median milliseconds of ``draw()`` and the bytes of what it drew."""
    out = draw()
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        draw()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000, len(str(out).encode())


def played_waterloo(turns: int = 20) -> tuple[dict, list[dict]]:
    """The day of Waterloo stepped through ``turns`` turns phase by phase, one unit shaken or lost
    on each side each turn (as the umpire's corrections), kept as the log keeps it."""
    game = system_for(BLACK_POWDER)
    doc = new_battle_from_scenario("waterloo")
    first, entries, dice = doc, [], SeededDice(7)
    victims = {s: [u for u, raw in doc["units"].items() if raw["side"] == s and not raw.get("awaiting")]
               for s in ("blue", "red")}
    while doc["turn"] <= turns and not doc.get("ended"):
        if doc["phase"] == "command" and len(entries) % 3 == 0:
            for s in ("blue", "red"):
                if victims[s]:
                    uid = victims[s].pop()
                    field = "destroyed" if len(victims[s]) % 2 else "casualties"
                    value = True if field == "destroyed" else doc["units"][uid].get("stamina") or 3
                    facts = {"unit": uid, "field": field, "value": str(value)}
                    r = game.resolve(doc, "adjust_unit", game.action("adjust_unit").facts.model_validate(facts), dice)
                    entries.append({"changes": [c.to_dict() for c in r.all_changes], "facts": facts, "dice": []})
                    doc = apply_changes(doc, r.all_changes)
        spec = game.action("next_phase")
        try:
            r = game.resolve(doc, "next_phase", spec.facts.model_validate({}), dice)
        except RuleError:  # the turn limit reached
            break
        entries.append({"changes": [c.to_dict() for c in r.all_changes], "facts": {}, "dice": []})
        doc = apply_changes(doc, r.all_changes)
    return first, entries


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200, help="times each picture is drawn")
    args = parser.parse_args()
    rows: list[tuple[str, float, int]] = []

    bp, demo = system_for(BLACK_POWDER), new_battle_from_scenario("demo")
    for what, action, facts in (
            ("odds bars: a shot's hits", "shoot", {"shooter": "11th-leger", "target": "1-7th-musketeers", "range_band": "short"}),
            ("odds bars: a break test", "break_test", {"unit": "11th-leger", "context": "shooting"}),
            ("odds bars: an order test", "order", {"units": ["11th-leger"], "order": "move"})):
        line = next(x for x in odds_of(bp, demo, action, facts) if getattr(x, "outcomes", None))
        rows.append((what, *timed(lambda line=line: odds_bars(line), args.rounds)))
    eng_doc = build_engagement(start_form(), {s: len(r) for s, r in EXAMPLE_SQUADRONS.items()})
    hot = dict(eng_doc, phase="maintenance", rigs=dict(eng_doc["rigs"]))
    hot["rigs"]["p1-1"] = dict(hot["rigs"]["p1-1"], heat=hot["rigs"]["p1-1"]["heat_threshold"] + 2)
    line = odds_of(system_for(OIL_AND_IRON), hot, "heat_roll", {"rig": "p1-1"})[0]
    rows.append(("odds bars: a Heat Threshold roll", *timed(lambda: odds_bars(line), args.rounds)))

    waterloo = Battle.from_doc(new_battle_from_scenario("waterloo"))
    brigades = [b for s in board_sides(waterloo) for b in s.brigades]
    biggest = max(brigades, key=lambda b: len(b.cards))
    rows.append((f"brigade strip ({len(biggest.cards)} units)",
                 *timed(lambda: brigade_strip(biggest.name, biggest.facts, biggest.broken), args.rounds)))
    whole_ms, whole_bytes = timed(lambda: [brigade_strip(b.name, b.facts, b.broken) for b in brigades], args.rounds // 4 or 1)
    whole_bytes = sum(len(str(brigade_strip(b.name, b.facts, b.broken)).encode()) for b in brigades)
    print(f"every strip of the day of Waterloo ({len(brigades)} brigades): {whole_ms:.2f} ms, {whole_bytes} bytes")

    eng = Engagement.from_doc(eng_doc)
    cards = [rig_card(eng, r) for r in eng.rigs.values()]
    score = ScoreStory(list(range(1, 7)), {"p1": [0, 1, 3, 3, 5, 8], "p2": [1, 1, 2, 4, 4, 6]},
                       {"p1": "Anna", "p2": "Ben"})
    rows.append(("score by round (6 rounds)", *timed(lambda: score_by_round(score), args.rounds)))
    rows.append(("Rig diagram and heat", *timed(lambda: rig_diagram(cards[0].rig.name, cards[0].locations, cards[0].heat),
                                               args.rounds)))

    scenarios = {s.id: s for s in list_scenarios()}
    big = scenarios["waterloo"]
    rows.append(("strength bars (Waterloo)", *timed(lambda: strength_bars(big.strengths), args.rounds)))
    rows.append(("arrivals timeline (Quatre Bras)",
                 *timed(lambda: arrivals_timeline(scenarios["quatre-bras"].strengths, 12, scenarios["quatre-bras"].clock),
                        args.rounds)))

    first, entries = played_waterloo()
    told = story(first, entries)
    rows.append((f"battle story ({len(told.turns)} turns)", *timed(lambda: battle_story(told), args.rounds)))
    worked, _ = timed(lambda: story(first, entries), max(5, args.rounds // 20))
    print(f"working the story out from {len(entries)} log entries of the day of Waterloo: {worked:.1f} ms "
          "(on the story page and the report only, never on the board or a poll)")

    step = campaign()
    first = step.doc
    fight(step, "ligny", ligny())
    fight(step, "quatre-bras", quatre_bras(winner="red", british_broken=0), game_id=2)
    step("end_day", day="16")
    step("game_started", step="waterloo", game_id=3, name="waterloo")
    days = day_by_day(first, [{"changes": [c.to_dict() for c in r.all_changes]} for r in step.results])
    rows.append(("the Hundred Days day by day", *timed(lambda: campaign_timeline(days), args.rounds)))

    oi = in_aftermath()
    for action, dice, facts in (("recovery_roll", [12], {"rig": "p2/r1"}), ("salvage_roll", [1], {"player": "p1"}),
                                ("salvage_roll", [1], {"player": "p2"}), ("experience", [], {}), ("close_aftermath", [], {})):
        oi(action, dice=dice, **facts)
    steps = [{"changes": [c.to_dict() for c in r.all_changes]} for r in oi.results]
    roster = roster_by_engagement(initial_state(oi.doc, steps), steps)
    rows.append(("a campaign's roster by engagement", *timed(lambda: roster_timeline(roster), args.rounds)))

    print()
    print("| picture | median ms | bytes | of 5 ms | of 10 kB |")
    print("|---|---|---|---|---|")
    for what, ms, size in rows:
        print(f"| {what} | {ms:.3f} | {size} | {ms / BUDGET_MS:.0%} | {size / BUDGET_BYTES:.0%} |")


if __name__ == "__main__":
    main()
