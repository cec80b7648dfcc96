"""Of Oil and Iron: the target's player rolls the hit location (the rules summary's attack
sequence); the attacker rolls everything else. The typed-dice request says so."""
from __future__ import annotations

import pytest
from _oi_helpers import SHOT, activated, gun, make_doc, rig_spec

from referee.core.dice import DiceNeeded, ScriptedDice
from referee.systems import system_for


def asked(resolve, dice) -> DiceNeeded:
    with pytest.raises(DiceNeeded) as e:
        resolve(ScriptedDice(dice))
    return e.value


def test_an_oil_and_iron_hit_location_is_rolled_by_the_targets_player():
    doc = activated(make_doc(p1=[rig_spec("a", weapons=[gun()])],
                             p2=[rig_spec("t", "example_heavy_siege")]), "a")
    spec = system_for("oilandiron").action("fire_weapon")
    facts = spec.facts(**SHOT)
    to_hit = asked(lambda d: spec.resolve(doc, facts, d), [])
    assert to_hit.side is None
    location = asked(lambda d: spec.resolve(doc, facts, d), [6])
    assert location.sides == 12 and "hit location" in location.purpose and location.side == "p2"
    impact = asked(lambda d: spec.resolve(doc, facts, d), [6, 1])
    assert impact.purpose == "impact" and impact.side is None  # the attacker rolls the impact
