"""Every repair trait of the shipped campaign tables, and a Rig's rank, as an engagement plays
them: a Rig carried from its roster (``campaigns.oilandiron.carry_into``) shows each on its card
and lives by it in its actions' limits, their resolution (fixed dice) and their odds; so does a
lasting effect it carries."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from _oi_helpers import HEAVY, MEDIUM, SHOT, activated, gun, make_doc, odds, rig, rig_spec, run, set_rig

from referee.campaigns.oilandiron import carry_into
from referee.campaigns.oilandiron_tables import read_tables
from referee.oilandiron.board_view import card
from referee.oilandiron.model import Engagement

ROOT = Path(__file__).resolve().parents[3]
TABLES = read_tables(yaml.safe_load((ROOT / "scenarios" / "campaigns" / "oilandiron-example-tables.yaml").read_text()))
TRAITS = {t.name: t for t in TABLES.repair_traits}
FULL_A = {"hull": 4, "arms": 3, "legs": 3, "engine": 3}  # the Medium Brawler "a"


def record(*traits: str, xp: int = 0, damage=None) -> dict:
    """A roster Rig as the Aftermath leaves it: traits as rolled (with what they do), xp, damage."""
    return {"name": "A", "xp": xp, "damage": damage or {"hull": 0, "arms": 0, "legs": 0, "engine": 0},
            "lasting": [], "traits": [{"name": n, "effect": TRAITS[n].effect, "negative": TRAITS[n].negative,
                                       "ignored": False, "apply": dict(TRAITS[n].apply)} for n in traits]}


def carried(*traits: str, doc=None, **kw) -> dict:
    """An engagement whose Rig "a" comes from a roster with these traits."""
    doc = doc or make_doc(p1=[rig_spec("a", weapons=[gun("left_gun"), gun("right_gun")])])
    rig_doc, _ = carry_into(doc["rigs"]["a"], record(*traits, **kw), True, TABLES)
    return set_rig(doc, "a", **rig_doc)


def the_card(doc: dict):
    eng = Engagement.from_doc(doc)
    return card(eng, eng.rig("a"))


def test_every_trait_of_the_shipped_tables_has_a_test_here():
    tested = {"Seized Servos", "Cracked Heat Sink", "Warped Barrel Mount", "Leaking Coolant", "Twisted Frame",
              "Patched Hull", "Sticky Loader", "Jury-Rigged Controls", "Scavenged Plating", "Tuned Governor",
              "Hardened Joints", "Lucky Machine"}
    assert set(TRAITS) == tested
    # each says what it does, except the one that does nothing
    assert [n for n, t in TRAITS.items() if not t.apply] == ["Scavenged Plating"]


def test_every_trait_is_named_on_the_rig_card_with_its_effect():
    for name, t in TRAITS.items():
        c = the_card(carried(name))
        assert (name, t.effect) in c.traits


def test_rank_and_experience_are_on_the_rig_card():
    assert the_card(carried(xp=5)).campaign == "XP 5 · Blooded"
    assert the_card(carried(xp=0)).campaign == "XP 0 · Green"
    assert the_card(make_doc()).campaign == ""  # a game outside a campaign


def test_seized_servos_speed_minus_one_on_the_card_and_the_move():
    plain, worn = activated(carried(), "a"), activated(carried("Seized Servos"), "a")
    assert rig(worn, "a").speed == rig(plain, "a").speed - 1
    assert run("move", worn, rig="a")[0].data["forward"] == run("move", plain, rig="a")[0].data["forward"] - 1
    assert f"Move {rig(worn, 'a').speed}\"" in the_card(worn).speed


def test_twisted_frame_one_pivot_fewer():
    plain, worn = activated(carried(), "a"), activated(carried("Twisted Frame"), "a")
    assert run("move", worn, rig="a")[0].data["pivots"] == run("move", plain, rig="a")[0].data["pivots"] - 1
    assert f"{rig(worn, 'a').pivot} pivots" in the_card(worn).speed


def test_cracked_heat_sink_lowers_the_threshold_so_a_heat_roll_comes_sooner():
    plain, worn = carried(), carried("Cracked Heat Sink")
    threshold = rig(plain, "a").heat_threshold
    assert rig(worn, "a").heat_threshold == threshold - 1 == the_card(worn).heat.threshold
    at = set_rig(worn, "a", heat=threshold)
    assert rig(at, "a").above_threshold and not rig(set_rig(plain, "a", heat=threshold), "a").above_threshold


def test_tuned_governor_exhaust_plus_one_lowers_heat_further():
    plain, worn = carried(), carried("Tuned Governor")
    assert rig(worn, "a").exhaust == rig(plain, "a").exhaust + 1
    for doc in (plain, worn):
        doc.update(phase="maintenance", round=1)
    _, after_plain = run("end_round", set_rig(plain, "a", heat=5))
    _, after_worn = run("end_round", set_rig(worn, "a", heat=5))
    assert rig(after_worn, "a").heat == rig(after_plain, "a").heat - 1


def test_patched_hull_one_structure_fewer_on_the_hull():
    doc = carried("Patched Hull")
    assert rig(doc, "a").structure_max["hull"] == FULL_A["hull"] - 1 == rig(doc, "a").structure["hull"]
    hull = next(x for x in the_card(doc).locations if x.key == "hull")
    assert (hull.sp, hull.max) == (3, 3)


def test_hardened_joints_one_structure_more_on_the_legs_even_when_damaged():
    doc = carried("Hardened Joints", damage={"hull": 0, "arms": 0, "legs": 1, "engine": 0})
    legs = next(x for x in the_card(doc).locations if x.key == "legs")
    assert (legs.sp, legs.max) == (3, 4)  # the roster's 1 SP lost, out of 3 + 1


def test_warped_barrel_mount_minus_one_acc_with_the_left_mount_weapon_only():
    plain, worn = activated(carried(), "a"), activated(carried("Warped Barrel Mount"), "a")
    assert rig(worn, "a").weapons["left_gun"].mount == "left"
    left = dict(SHOT, weapon="left_gun")
    result, _ = run("fire_weapon", worn, [4, 1, 1], **left)
    assert any("Warped Barrel Mount" in m.rule and m.amount == -1 for m in result.modifiers)
    # Aim 4+, now 5+: a 4 to hit misses with the warped mount and hits without it
    assert result.data["hits"] == 0
    assert run("fire_weapon", plain, [4, 1, 1], **left)[0].data["hits"] == 1
    assert odds("fire_weapon", worn, **left) != odds("fire_weapon", plain, **left)
    right = dict(SHOT, weapon="right_gun")
    assert odds("fire_weapon", worn, **right) == odds("fire_weapon", plain, **right)


def test_leaking_coolant_keeps_one_heat_after_a_shut_down():
    worn = activated(set_rig(carried("Leaking Coolant"), "a", heat=9), "a")
    result, after = run("shut_down", worn, rig="a")
    assert rig(after, "a").heat == 1 and any("Leaking Coolant" in n for n in result.notes)
    _, plain = run("shut_down", activated(set_rig(carried(), "a", heat=9), "a"), rig="a")
    assert rig(plain, "a").heat == 0


def test_sticky_loader_a_reload_costs_two_heat():
    def emptied(doc):
        doc = activated(doc, "a")
        doc["rigs"]["a"]["weapons"]["left_gun"]["loaded"] = False
        return doc
    _, after = run("reload", emptied(carried("Sticky Loader")), rig="a")
    assert rig(after, "a").heat == 2
    _, plain = run("reload", emptied(carried()), rig="a")
    assert rig(plain, "a").heat == 1


def test_jury_rigged_controls_minus_one_on_the_first_repair_roll_only():
    doc = activated(set_rig(carried("Jury-Rigged Controls"), "a", structure=dict(FULL_A, hull=1)), "a")
    assert odds("repair", doc, rig="a", location="hull")[:3] == ["Fails: 50.0%", "1 SP back: 33.3%", "2 SP back: 16.7%"]
    first, after = run("repair", doc, [6], rig="a", location="hull")  # 6 − 1 = 5: fails
    assert first.data["restored"] == 0 and first.modifiers[0].amount == -1
    second, after = run("repair", after, [6], rig="a", location="hull")  # the second roll as rolled
    assert second.data["restored"] == 1 and not second.modifiers
    assert odds("repair", after, rig="a", location="hull") == ["Fails: 41.7%", "1 SP back: 33.3%", "2 SP back: 25.0%"]


def test_scavenged_plating_changes_nothing_but_is_shown():
    plain, worn = carried(), carried("Scavenged Plating")
    fields = ("speed", "pivot", "aim", "exhaust", "heat_threshold", "structure_max", "structure")
    assert all(getattr(rig(worn, "a"), f) == getattr(rig(plain, "a"), f) for f in fields)
    assert the_card(worn).traits == [("Scavenged Plating", TRAITS["Scavenged Plating"].effect)]


def test_a_lasting_effect_carried_in_is_on_the_card_as_the_engines_own_status():
    rec = record()
    rec["lasting"] = ["hydraulic_blowout"]
    doc = make_doc()
    worn = set_rig(doc, "a", **carry_into(doc["rigs"]["a"], rec, True, TABLES)[0])
    assert rig(worn, "a").status == {"hydraulic_blowout": "until_repaired"}
    assert the_card(worn).statuses == [('Hydraulic Blowout: Speed −2"', "until repaired")]
    assert f'Move {rig(doc, "a").speed - 2}"' in the_card(worn).speed
    # a game started before, with the effect kept as {"until": ...}, is drawn the same
    old = set_rig(doc, "a", status={"hydraulic_blowout": {"until": "until_repaired"}})
    assert the_card(old).statuses == the_card(worn).statuses


def test_a_trait_struck_by_the_black_market_does_not_apply():
    rec = record("Twisted Frame")
    rec["traits"][0]["ignored"] = True
    doc = make_doc()
    rig_doc, notes = carry_into(doc["rigs"]["a"], rec, True, TABLES)
    assert rig_doc["pivot"] == doc["rigs"]["a"]["pivot"] and not notes


def test_a_trait_recorded_without_what_it_does_takes_it_from_the_campaign_tables():
    rec = record("Twisted Frame")
    del rec["traits"][0]["apply"]  # rolled before traits carried their effect
    doc = make_doc()
    rig_doc, _ = carry_into(doc["rigs"]["a"], rec, True, TABLES)
    assert rig_doc["pivot"] == doc["rigs"]["a"]["pivot"] - 1


@pytest.mark.parametrize("chassis", [MEDIUM, HEAVY])
def test_two_traits_on_one_figure_add_up(chassis):
    rec = record("Seized Servos")
    rec["traits"].append(dict(rec["traits"][0], name="Seized Servos again"))
    doc = make_doc(p1=[rig_spec("a", chassis)])
    rig_doc, _ = carry_into(doc["rigs"]["a"], rec, True, TABLES)
    assert rig_doc["speed"] == doc["rigs"]["a"]["speed"] - 2
