"""Exact odds for attacks (icepool): hits, expected damage, catastrophic results."""
from fractions import Fraction

from _oi_helpers import SHOT, activated, gun, make_doc, odds, rig_spec, set_rig
from hypothesis import given, settings
from hypothesis import strategies as st

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
    assert odds("fire_weapon", doc_with(), **dict(SHOT, distance="far", in_range=False))[0].startswith("Out of range")


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


def _reference_catastrophic_chance(hits, damage, structure, locations, only=None):
    """The chance worked out the plain way, a Fraction for every state after every hit."""
    from referee.oilandiron.model import LOCATIONS
    outcomes = [(loc, d, pl * pd) for loc, pl in locations.items() for d, pd in damage.items()]
    states = {tuple(0 for _ in LOCATIONS): Fraction(1)}
    done, result = Fraction(0), Fraction(0)
    for n in range(1, max(hits, default=0) + 1):
        nxt = {}
        for state, p in states.items():
            for loc, d, po in outcomes:
                i = LOCATIONS.index(loc)
                taken = list(state)
                taken[i] += d
                hit_lost = d > 0 and structure[loc] == 0
                reached = structure[loc] > 0 and state[i] < structure[loc] <= taken[i]
                if (hit_lost or reached) and (only is None or only == loc):
                    done += p * po
                    continue
                taken[i] = min(taken[i], structure[loc])
                nxt[tuple(taken)] = nxt.get(tuple(taken), Fraction(0)) + p * po
        states = nxt
        result += hits.get(n, Fraction(0)) * done
    return result


@settings(max_examples=40)
@given(rof=st.integers(1, 7), strength=st.integers(1, 7), modifier=st.integers(-2, 2), flak=st.booleans(),
       piercing=st.booleans(), sp=st.tuples(*(st.integers(0, 7) for _ in range(4))),
       only=st.sampled_from([None, "hull", "engine"]))
def test_the_whole_number_working_gives_the_plain_fraction_answer(rof, strength, modifier, flak, piercing, sp, only):
    hits = {n: Fraction(1, rof + 1) for n in range(rof + 1)}
    damage = impact_damage_dist(strength, modifier, {"direct": 6, "severe": 9, "critical": 12}, piercing, flak)
    structure = dict(zip(("hull", "arms", "legs", "engine"), sp))
    locations = LOCATION_CHANCE if only != "engine" else {"engine": Fraction(1)}
    assert catastrophic_chance(hits, damage, structure, locations, only) == \
        _reference_catastrophic_chance(hits, damage, structure, locations, only)
