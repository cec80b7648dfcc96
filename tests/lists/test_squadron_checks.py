"""The squadron builder's checks against the squadron-building rules."""
from __future__ import annotations

import pytest

from referee.data.oilandiron import Chassis, load_equipment
from referee.lists.formations import load_tiers
from referee.lists.games import engagement_from_squadrons
from referee.lists.oilandiron import (
    Cards,
    EquipmentPick,
    Squadron,
    SquadronRig,
    WeaponPick,
    check_squadron,
    equipment_for,
    rig_iron,
    squadron_rigs,
)

LIGHT, MEDIUM, HEAVY, COLOSSAL = ("example_light_scout", "example_medium_brawler", "example_heavy_siege",
                                  "example_colossal_walker")


def rig(chassis=LIGHT, weapons=("example_autocannon",), equipment=(), name="R", **kw):
    return SquadronRig(name=name, chassis=chassis, weapons=[WeaponPick(card=w) for w in weapons],
                       equipment=[EquipmentPick(key=e) if isinstance(e, str) else e for e in equipment], **kw)


def sword(*rigs, **over) -> Squadron:
    rigs = rigs or (rig(name="A"), rig(name="B"), rig(MEDIUM, name="C"))
    return Squadron(**{"name": "S", "tier": "skirmish", "formation": "sword", "rigs": list(rigs), **over})


def messages(sq):
    return [p.message for p in check_squadron(sq)]


def test_a_sword_of_two_lights_and_a_medium_is_ready():
    assert check_squadron(sword()) == []


def test_every_formation_of_every_tier_has_rigs():
    tiers = load_tiers()
    assert set(tiers) == {"skirmish", "operation", "warfront"}
    assert [f.name for f in tiers["warfront"].formations][-1] == "Maul"
    for t in tiers.values():
        for f in t.formations:
            assert sum(f.counts().values()) >= 2


def test_weight_class_counts_must_match_the_formation():
    msgs = messages(sword(rig(name="A"), rig(MEDIUM, name="B"), rig(MEDIUM, name="C")))
    assert any("Sword fields 2 Light, 1 Medium: 1 Light missing, 1 Medium too many" in m for m in msgs)


def test_a_formation_from_another_tier_is_refused():
    assert any("not a Skirmish formation" in m for m in messages(sword(formation="maul")))


def test_a_third_weapon_needs_a_colossal():
    msgs = messages(sword(rig(weapons=("example_autocannon",) * 3, name="A"), rig(name="B"), rig(MEDIUM, name="C")))
    assert any("3 weapons, but a Light Rig has 2 weapon slots" in m for m in msgs)


def test_a_hull_weapon_needs_a_colossal():
    msgs = messages(sword(rig(MEDIUM, weapons=("example_siege_howitzer",), name="C"), rig(name="A"), rig(name="B")))
    assert any("only a Colossal Rig has a Hull mount" in m for m in msgs)


def test_one_hull_mount_per_rig():
    claymore = Squadron(name="C", tier="operation", formation="claymore", rigs=[
        rig(name="L"), rig(MEDIUM, name="M"), rig(HEAVY, name="H"),
        rig(COLOSSAL, name="Big", weapons=("example_siege_howitzer", "example_siege_howitzer"))])
    assert any("only one per Rig" in m for m in messages(claymore))


def test_iron_is_counted_against_the_chassis():
    heavy_load = rig(weapons=("example_field_gun", "example_mortar"), equipment=("extinguisher",), name="A")
    used, cap = rig_iron(sword(), heavy_load)
    assert (used, cap) == (5, 4)
    assert any("weigh 5 Iron; the chassis carries 4" in m for m in messages(sword(heavy_load, rig(name="B"), rig(MEDIUM))))


def test_each_equipment_once_per_rig():
    twice = rig(equipment=("extinguisher", "extinguisher"), name="A")
    assert any("taken twice" in m for m in messages(sword(twice, rig(name="B"), rig(MEDIUM, name="C"))))


def test_campaign_only_equipment_needs_a_campaign():
    cached = rig(MEDIUM, weapons=(), equipment=("black_market_parts_cache",), name="C")
    sq = sword(rig(name="A"), rig(name="B"), cached)
    assert any("for campaigns only" in m for m in messages(sq))
    assert check_squadron(sq.model_copy(update={"campaign": True})) == []
    assert all(not c.campaign_only for c in equipment_for(sq))
    assert any(c.campaign_only for c in equipment_for(sq.model_copy(update={"campaign": True})))


def test_load_bearing_frame_carries_one_more_iron():
    frame = rig(MEDIUM, weapons=("example_field_gun",), equipment=("experimental_load_bearing_frame",), name="C")
    assert rig_iron(sword(), frame) == (5, 6)


def test_high_calibre_ammunition_names_one_of_the_rigs_weapons():
    two_guns = rig(weapons=("example_autocannon", "example_flamer"), equipment=("high_calibre_ammunition",), name="A")
    assert any("must name one of the Rig's weapons" in m for m in messages(sword(two_guns, rig(name="B"), rig(MEDIUM))))
    named = rig(weapons=("example_autocannon", "example_flamer"),
                equipment=(EquipmentPick(key="high_calibre_ammunition", weapon="example_flamer"),), name="A")
    sq = sword(named, rig(name="B"), rig(MEDIUM, name="C"))
    assert check_squadron(sq) == []
    doc = squadron_rigs(sq, "p1")["p1-r1"]
    assert doc["equipment"]["high_calibre_ammunition"]["weapon"] == "example_flamer"


def test_a_typed_in_chassis_travels_in_the_list_and_may_not_reuse_an_example_key():
    mine = Chassis(key="my_scout", name="My Scout", weight_class="light", speed=9, pivot=3, aim=4, iron=3,
                   structure={"hull": 2, "arms": 2, "legs": 2, "engine": 2},
                   armour={"direct": 6, "severe": 9, "critical": 11}, exhaust=2, heat_threshold=4, heat_track=9)
    sq = sword(rig("my_scout", name="A"), rig(name="B"), rig(MEDIUM, name="C"), cards=Cards(chassis=[mine]))
    assert check_squadron(sq) == []
    assert squadron_rigs(sq, "p2")["p2-r1"]["speed"] == 9
    clash = sq.model_copy(update={"cards": Cards(chassis=[mine.model_copy(update={"key": LIGHT})])})
    assert any("taken by a shipped example card" in m for m in messages(clash))


def test_unknown_cards_are_named():
    msgs = messages(sword(rig("no_such_chassis", weapons=("no_gun",), equipment=("no_kit",), name="A")))
    assert any("no chassis card “no_such_chassis”" in m for m in msgs)
    assert any("no weapon card “no_gun”" in m for m in msgs)
    assert any("no equipment card “no_kit”" in m for m in msgs)


def test_both_squadrons_must_share_a_tier():
    mace_free = Squadron(name="O", tier="operation", formation="axe",
                         rigs=[rig(MEDIUM, name="M")] + [rig(HEAVY, name=f"H{i}") for i in range(3)])
    assert check_squadron(mace_free) == []
    with pytest.raises(ValueError, match="same tier"):
        engagement_from_squadrons("x", sword(), mace_free)


def test_an_engagement_holds_both_squadrons():
    doc = engagement_from_squadrons("Clash", sword(name="North"), sword(name="South"), engagement_type="iron_clash")
    assert doc["players"]["p1"]["name"] == "North" and doc["players"]["p2"]["name"] == "South"
    assert sorted(r["player"] for r in doc["rigs"].values()) == ["p1"] * 3 + ["p2"] * 3


def test_every_equipment_card_can_be_fitted_somewhere():
    for key, card in load_equipment().items():
        carrier = rig(COLOSSAL, weapons=("example_autocannon",), equipment=(key,), name="Big")
        sq = Squadron(name="W", tier="operation", formation="broadsword", campaign=card.campaign_only,
                      rigs=[rig(name=f"L{i}") for i in range(3)] + [rig(MEDIUM, name="M"), carrier])
        assert check_squadron(sq) == [], key


def test_a_broken_formations_file_names_itself(tmp_path):
    from referee.data.oilandiron import DataError
    bad = tmp_path / "formations.yaml"
    bad.write_text("tiers:\n  - key: skirmish\n    name: Skirmish\n    formations:\n"
                   "      - {key: sword, name: Sword, light: two, medium: 1, heavy: 0, colossal: 0}\n")
    with pytest.raises(DataError, match=r"formations.yaml: tiers\[0\] \(skirmish\): formations.0.light"):
        load_tiers(bad)
