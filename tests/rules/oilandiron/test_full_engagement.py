"""Whole engagements played with seeded dice and random (legal or refused) choices: every step
keeps structure and heat within bounds, a destroyed Rig never acts, undo restores the document
exactly, and every engagement comes to an end with a result."""
import random

import pytest
from _oi_helpers import COLOSSAL, HEAVY, LIGHT, gun, make_doc, rig_spec

from referee.core.dice import SeededDice
from referee.core.docstate import apply_changes, revert_changes
from referee.oilandiron import SYSTEM
from referee.oilandiron.model import LOCATIONS, Engagement, RuleError

ALL = list(LOCATIONS)


def squadrons():
    p1 = [rig_spec("a", weapons=[gun("cannon", rof=2, strength=7, perks=["hot"]), gun("claw", perks=["melee"])],
                   equipment=["extinguisher", "smoke_dispensers"]),
          rig_spec("b", LIGHT, weapons=[gun("mg", rof=3, strength=4, perks=["full_auto"])])]
    p2 = [rig_spec("t", HEAVY, weapons=[gun("mortar", strength=8, perks=[("explosive", 3), "bombardment"])],
                   equipment=["reinforced_iron_plating"]),
          rig_spec("c", COLOSSAL, weapons=[gun("x", rof=2, strength=6), gun("y", strength=9, perks=["hull"])],
                   equipment=["emergency_repair_kit"])]
    return p1, p2


def check(doc: dict) -> None:
    eng = Engagement.from_doc(doc)
    for r in eng.rigs.values():
        assert all(0 <= r.structure[k] <= r.structure_max[k] for k in LOCATIONS)
        assert 0 <= r.heat <= r.heat_track
        if r.is_catastrophic("engine") and not r.destroyed:
            assert r.heat >= r.first_numbered_heat_space
        if r.destroyed:
            assert eng.active_rig != r.id or r.actions_left == 0


def step(doc: dict, name: str, facts: dict, dice) -> dict:
    spec = SYSTEM.action(name)
    try:
        result = spec.resolve(doc, spec.facts(**facts), dice)
    except RuleError:
        return doc
    after = apply_changes(doc, result.all_changes)
    assert revert_changes(after, result.all_changes) == doc
    check(after)
    return after


def random_action(rng: random.Random, eng: Engagement, rid: str) -> tuple[str, dict]:
    rig = eng.rig(rid)
    enemies = [r.id for r in eng.rigs.values() if r.player != rig.player and r.in_play] or ["t"]
    kind = rng.choice(["move", "fire", "fire", "called", "reload", "repair", "prepare", "ram", "equipment"])
    if kind in ("fire", "called"):
        facts = {"rig": rid, "weapon": rng.choice(list(rig.weapons)), "target": rng.choice(enemies),
                 "in_front_arc": rng.random() < 0.9, "in_range": rng.random() < 0.8,
                 "distance": rng.choice(["melee", "close", "mid", "far"]),
                 "line_of_sight": rng.choice(["clear", "clear", "obscured_25", "obscured_50", "none"]),
                 "target_arc": rng.choice(["front", "side", "rear"]), "overflow_to": ALL}
        if kind == "called":
            return "called_shot", {**facts, "location": rng.choice(ALL)}
        return "fire_weapon", facts
    if kind == "repair":
        return "repair", {"rig": rid, "location": rng.choice(ALL)}
    if kind == "prepare":
        return "prepare", {"rig": rid, "token": "Brace"}
    if kind == "ram":
        return "ram", {"rig": rid, "target": rng.choice(enemies), "moved_2_inches": True, "overflow_to": ALL}
    if kind == "equipment" and rig.equipment:
        return "use_equipment", {"rig": rid, "equipment": rng.choice(list(rig.equipment)), "location": "hull"}
    return ("reload" if kind == "reload" else "move"), {"rig": rid}


@pytest.mark.parametrize("seed", range(12))
def test_a_whole_engagement_plays_to_a_result(seed):
    rng = random.Random(seed)
    p1, p2 = squadrons()
    doc = make_doc(p1=p1, p2=p2, engagement="iron_clash")
    dice = SeededDice(seed)
    for _ in range(400):
        eng = Engagement.from_doc(doc)
        if eng.ended:
            break
        if eng.phase == "initiative":
            doc = step(doc, "initiative", {}, dice)
        elif eng.phase == "activation":
            if eng.active_rig is None:
                ready = [r.id for r in eng.rigs_of(eng.current_player) if r.in_play and not r.activated]
                doc = step(doc, "activate", {"rig": rng.choice(ready), "overflow_to": ALL}, dice)
            elif eng.rig(eng.active_rig).actions_left == 0 or rng.random() < 0.15:
                doc = step(doc, "end_activation", {}, dice)
            else:
                name, facts = random_action(rng, eng, eng.active_rig)
                doc = step(doc, name, facts, dice)
        else:
            hot = [r.id for r in eng.rigs.values() if r.in_play and r.above_threshold and r.heat_rolled != eng.round]
            if hot:
                doc = step(doc, "heat_roll", {"rig": hot[0], "overflow_to": ALL}, dice)
            else:
                doc = step(doc, "end_round", {}, dice)
    assert doc["ended"] and doc["winner"] in ("p1", "p2", "draw")
    assert 1 <= doc["round"] <= 6
