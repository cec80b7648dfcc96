"""Properties that hold whatever the dice: structure never goes negative, a destroyed Rig takes no
actions, heat stays between its floor and the end of its track."""
import pytest
from _oi_helpers import COLOSSAL, SHOT, activated, gun, make_doc, rig, rig_spec, run, set_rig
from hypothesis import given
from hypothesis import strategies as st

from referee.core.docstate import apply_changes
from referee.oilandiron import SYSTEM
from referee.oilandiron.model import LOCATIONS, RuleError


class StreamDice:
    """Any stream of numbers becomes legal dice: each value is folded onto the die asked for."""

    def __init__(self, values):
        self.values, self.pos, self.history = list(values), 0, []

    def roll(self, count, sides, purpose):
        out = []
        for _ in range(count):
            v = self.values[self.pos % len(self.values)] if self.values else 1
            self.pos += 1
            out.append(v % sides + 1)
        return out


ALL = list(LOCATIONS)
structure = st.fixed_dictionaries({loc: st.integers(0, 6) for loc in LOCATIONS})


@given(structure=structure, strength=st.integers(0, 16), rof=st.integers(1, 4),
       arc=st.sampled_from(["front", "side", "rear"]), stream=st.lists(st.integers(0, 11), min_size=1, max_size=60),
       perks=st.lists(st.sampled_from(["armour_piercing", "flak", "sustained_fire", "charged_shot", "impale",
                                       "shock", "staggering"]), unique=True, max_size=3),
       colossal=st.booleans())
def test_structure_never_negative(structure, strength, rof, arc, stream, perks, colossal):
    target = [rig_spec("t", COLOSSAL if colossal else "example_heavy_siege", weapons=[gun("x"), gun("y")])]
    doc = activated(make_doc(p1=[rig_spec("a", weapons=[gun(rof=rof, strength=strength, perks=perks)])], p2=target),
                    "a")
    top = rig(doc, "t").structure_max
    doc = set_rig(doc, "t", structure={k: min(v, top[k]) for k, v in structure.items()},
                  catastrophic=[k for k, v in structure.items() if v == 0])
    if rig(doc, "t").destroyed or all(v == 0 for v in structure.values()):
        return
    spec = SYSTEM.action("fire_weapon")
    result = spec.resolve(doc, spec.facts(**SHOT, target_arc=arc, overflow_to=ALL), StreamDice(stream))
    after = rig(apply_changes(doc, result.all_changes), "t")
    assert all(0 <= after.structure[k] <= top[k] for k in LOCATIONS)
    if all(after.structure[k] == 0 for k in LOCATIONS):
        assert after.destroyed


ACTIONS = [
    ("move", {}), ("fire_weapon", {k: v for k, v in SHOT.items() if k != "rig"}), ("reload", {}),
    ("repair", {"location": "hull"}), ("shut_down", {}), ("prepare", {"token": "Brace"}),
    ("ram", {"target": "t", "moved_2_inches": True}), ("called_shot", {**{k: v for k, v in SHOT.items() if k != "rig"},
                                                                      "location": "hull"}),
]


@pytest.mark.parametrize("name,facts", ACTIONS)
def test_a_destroyed_rig_takes_no_actions(name, facts):
    doc = set_rig(activated(make_doc(), "a"), "a", destroyed=True,
                  structure={"hull": 0, "arms": 0, "legs": 0, "engine": 0})
    with pytest.raises(RuleError, match="destroyed"):
        run(name, doc, [6] * 10, rig="a", **facts)


@given(stream=st.lists(st.integers(0, 11), min_size=1, max_size=80), strength=st.integers(6, 16),
       action=st.sampled_from(ACTIONS))
def test_a_rig_destroyed_in_play_takes_no_further_actions(stream, strength, action):
    """Shoot the target until it falls (or the shots run out); a fallen Rig is refused every action."""
    doc = activated(make_doc(p1=[rig_spec("a", weapons=[gun(rof=4, strength=strength)])]), "a")
    dice = StreamDice(stream)
    for _ in range(5):
        doc["rigs"]["a"]["weapons"]["gun"]["loaded"] = True
        doc["rigs"]["a"]["actions_left"] = 5
        spec = SYSTEM.action("fire_weapon")
        result = spec.resolve(doc, spec.facts(**SHOT, target_arc="rear", overflow_to=ALL), dice)
        doc = apply_changes(doc, result.all_changes)
        if rig(doc, "t").destroyed:
            break
    if not rig(doc, "t").destroyed:
        return
    name, facts = action
    facts = {**facts, "target": "a"} if "target" in facts else facts
    facts = {**facts, "weapon": "gun"} if "weapon" in facts else facts
    with pytest.raises(RuleError, match="destroyed"):
        run(name, activated(doc, "t"), [6] * 10, rig="t", **facts)
    doc.update(phase="activation", current_player="p2", active_rig=None)
    with pytest.raises(RuleError, match="destroyed"):
        run("activate", doc, rig="t")


@given(start=st.integers(0, 12), engine_lost=st.booleans(), stream=st.lists(st.integers(0, 11), min_size=1,
                                                                             max_size=20),
       steps=st.lists(st.sampled_from(["heat_roll", "end_round", "shut_down", "move"]), min_size=1, max_size=8))
def test_heat_stays_between_floor_and_track(start, engine_lost, stream, steps):
    doc = make_doc()
    if engine_lost:
        doc = set_rig(doc, "a", catastrophic=["engine"], structure={"hull": 4, "arms": 3, "legs": 3, "engine": 0},
                      heat=max(start, 7))
    else:
        doc = set_rig(doc, "a", heat=start)
    dice = StreamDice(stream)
    for step in steps:
        if step in ("shut_down", "move"):
            doc = activated(dict(doc, ended=False), "a") if not rig(doc, "a").destroyed else doc
            doc["rigs"]["a"]["activated"] = False
            facts = {"rig": "a"}
        elif step == "heat_roll":
            doc = dict(doc, phase="maintenance", active_rig=None)
            facts = {"rig": "a", "overflow_to": ALL}
        else:
            doc = dict(doc, phase="maintenance", active_rig=None, ended=False)
            facts = {}
        spec = SYSTEM.action(step)
        try:
            result = spec.resolve(doc, spec.facts(**facts), dice)
        except RuleError:
            continue
        doc = apply_changes(doc, result.all_changes)
        a = rig(doc, "a")
        assert 0 <= a.heat <= a.heat_track
        if a.is_catastrophic("engine"):
            assert a.heat >= a.first_numbered_heat_space
