"""Exact odds for attacks (icepool): hits, expected damage, catastrophic results."""
from fractions import Fraction

from _oi_helpers import SHOT, activated, gun, make_doc, odds, rig_spec, set_rig

from referee.oilandiron.odds import LOCATION_CHANCE, catastrophic_chance, impact_damage_dist


def doc_with(weapon=None, equipment=(), **target_fields):
    doc = activated(make_doc(p1=[rig_spec("a", weapons=[weapon or gun()], equipment=equipment)]), "a")
    return set_rig(doc, "t", **target_fields) if target_fields else doc


def test_single_die_against_aim_four():
    lines = odds("fire_weapon", doc_with(), **SHOT)
    assert lines[:3] == ["At least one hit: 50.0%", "Expected hits: 0.50", "Expected damage: 0.25 SP"]


def test_three_dice_at_least_one_hit():
    lines = odds("fire_weapon", doc_with(gun(rof=3)), **SHOT)
    assert lines[0] == "At least one hit: 87.5%" and lines[1] == "Expected hits: 1.50"


def test_sustained_fire_counts_sixes_twice():
    lines = odds("fire_weapon", doc_with(gun(perks=["sustained_fire"])), **SHOT)
    assert lines[1] == "Expected hits: 0.67"


def test_advanced_ammo_storage_rerolls_in_the_odds():
    lines = odds("fire_weapon", doc_with(equipment=["advanced_ammo_storage"]), use_advanced_ammo_storage=True, **SHOT)
    assert lines[0] == "At least one hit: 75.0%"


def test_called_shot_catastrophic_chance_for_the_location():
    doc = doc_with(structure={"hull": 5, "arms": 4, "legs": 4, "engine": 1})
    lines = odds("called_shot", doc, location="engine", target_arc="side", **SHOT)
    assert lines[-1] == "Catastrophic result to the Engine: 13.9%"  # 1/6 to hit (6+), 5/6 to hurt


def test_catastrophic_chance_over_the_hit_location_table():
    doc = doc_with(gun(strength=20), structure={"hull": 1, "arms": 1, "legs": 1, "engine": 1})
    assert odds("fire_weapon", doc, **SHOT)[-1] == "A catastrophic result somewhere: 50.0%"


def test_out_of_range_odds_say_so():
    assert odds("fire_weapon", doc_with(), **dict(SHOT, in_range=False))[0].startswith("Out of range")


def test_impact_distribution_with_flak_and_armour_piercing():
    plain = impact_damage_dist(5, 0, {"direct": 9, "severe": 12, "critical": 14}, False, False)
    assert plain == {0: Fraction(1, 2), 1: Fraction(1, 2)}
    ap = impact_damage_dist(5, 0, {"direct": 9, "severe": 12, "critical": 14}, True, False)
    assert ap[3] == Fraction(1, 6) * Fraction(1, 3)  # 6 then D3 of 3: 14
    flak = impact_damage_dist(5, 0, {"direct": 9, "severe": 12, "critical": 14}, False, True)
    assert flak[1] == Fraction(1, 2) + Fraction(1, 6) * Fraction(1, 2)


def test_catastrophic_chance_accumulates_over_hits():
    hits = {2: Fraction(1)}
    damage = {1: Fraction(1)}
    p = catastrophic_chance(hits, damage, {"hull": 2, "arms": 9, "legs": 9, "engine": 9}, {"hull": Fraction(1)})
    assert p == 1
    p = catastrophic_chance(hits, damage, {"hull": 2, "arms": 9, "legs": 9, "engine": 9}, LOCATION_CHANCE)
    assert p == Fraction(4, 12) ** 2
