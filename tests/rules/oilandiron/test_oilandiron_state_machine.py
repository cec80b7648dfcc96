"""Random sequences of the engagement's actions on squadrons built from the shipped example cards.

Each step resolves one action through the registry with seeded dice (a refusal leaves the game as
it was) and then checks what must hold whatever happened: structure within 0..start, a destroyed
Rig refused every action and holding no actions, heat between its floor and the end of its track,
actions left never negative, and the result's changes taken back restore the document exactly.
"""
from __future__ import annotations

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from referee.core.dice import SeededDice
from referee.core.docstate import apply_changes, revert_changes
from referee.data.oilandiron import setup_engagement, squadron_state
from referee.oilandiron import SYSTEM
from referee.oilandiron.model import LOCATIONS, Engagement, RuleError

SQUADRONS = {
    "p1": [
        {"id": "brawler", "name": "Brawler", "chassis": "example_medium_brawler", "engine": "example_standard_diesel",
         "weapons": ["example_autocannon", "example_hydraulic_claw"], "equipment": ["extinguisher"]},
        {"id": "scout", "name": "Scout", "chassis": "example_light_scout",
         "weapons": ["example_rotary_gun", "example_flamer"]},
    ],
    "p2": [
        {"id": "siege", "name": "Siege", "chassis": "example_heavy_siege", "engine": "example_cold_runner",
         "weapons": ["example_field_gun", "example_tesla_lance"]},
        {"id": "walker", "name": "Walker", "chassis": "example_colossal_walker",
         "weapons": ["example_mortar", "example_autocannon", "example_siege_howitzer"],
         "equipment": ["reinforced_iron_plating"]},
    ],
}
RIGS = [spec["id"] for side in SQUADRONS.values() for spec in side]
# Actions a Rig takes in its activation: each must be refused for a destroyed Rig.
RIG_ACTIONS = {"activate", "move", "fire_weapon", "called_shot", "ram", "reload", "repair", "shut_down"}

seeds = st.integers(0, 2 ** 32 - 1)
picks = st.integers(0, 7)
arcs = st.sampled_from(["front", "front", "side", "rear"])
overflow = st.permutations(list(LOCATIONS))


def acting(machine) -> bool:
    """Steers the random walk to the steps the phase allows, so games get deep; refusals are still
    tried through the picks that name another Rig."""
    return bool(machine.doc["active_rig"])


def example_engagement() -> dict:
    rigs = {**squadron_state("p1", SQUADRONS["p1"]), **squadron_state("p2", SQUADRONS["p2"])}
    players = {"p1": {"name": "Anna"}, "p2": {"name": "Ben"}}
    return setup_engagement("State machine", players, rigs, "iron_clash")


class EngagementMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.doc = example_engagement()

    # --- choosing who acts and against whom ---------------------------------------------------

    @property
    def eng(self) -> Engagement:
        # Read once per document: the four invariants run after every step.
        if getattr(self, "_read", (None,))[0] is not self.doc:
            self._read = (self.doc, Engagement.from_doc(self.doc))
        return self._read[1]

    def actor(self, pick: int) -> str:
        """Mostly the activated Rig (so the game moves on), sometimes any Rig (so refusals are tried)."""
        active = self.doc.get("active_rig")
        return active if active and pick < 6 else RIGS[pick % len(RIGS)]

    def enemy_of(self, rid: str, pick: int) -> str:
        player = self.doc["rigs"][rid]["player"]
        enemies = [r for r in RIGS if self.doc["rigs"][r]["player"] != player]
        return enemies[pick % len(enemies)]

    def weapon_of(self, rid: str, pick: int) -> str:
        weapons = sorted(self.doc["rigs"][rid]["weapons"])
        return weapons[pick % len(weapons)]

    # --- one step -----------------------------------------------------------------------------

    def step(self, name: str, seed: int, **facts) -> None:
        spec = SYSTEM.action(name)
        before = self.doc
        acting = facts.get("rig")
        was_destroyed = acting is not None and before["rigs"][acting]["destroyed"]
        try:
            result = spec.resolve(before, spec.facts(**facts), SeededDice(seed))
        except RuleError:
            return
        assert not (was_destroyed and name in RIG_ACTIONS), f"destroyed {acting} was allowed to {name}"
        after = apply_changes(before, result.all_changes)
        assert revert_changes(after, result.all_changes) == before
        self.doc = after

    # --- the rules ----------------------------------------------------------------------------

    @precondition(lambda self: self.doc["phase"] == "initiative")
    @rule(seed=seeds)
    def initiative(self, seed):
        self.step("initiative", seed)

    @precondition(lambda self: self.doc["phase"] == "activation" and not self.doc["active_rig"])
    @rule(seed=seeds, pick=picks)
    def activate(self, seed, pick):
        rid = RIGS[pick % len(RIGS)]
        if self.doc.get("current_player") and pick < 6:
            own = [r for r in RIGS if self.doc["rigs"][r]["player"] == self.doc["current_player"]]
            rid = own[pick % len(own)]
        self.step("activate", seed, rig=rid, overflow_to=list(LOCATIONS))

    @precondition(acting)
    @rule(seed=seeds, pick=picks)
    def move(self, seed, pick):
        self.step("move", seed, rig=self.actor(pick))

    @precondition(acting)
    @rule(seed=seeds, pick=picks, weapon=picks, enemy=picks, arc=arcs, order=overflow,
          in_range=st.booleans(), distance=st.sampled_from(["melee", "close", "mid", "far"]))
    def fire_weapon(self, seed, pick, weapon, enemy, arc, order, in_range, distance):
        rid = self.actor(pick)
        self.step("fire_weapon", seed, rig=rid, weapon=self.weapon_of(rid, weapon), target=self.enemy_of(rid, enemy),
                  in_front_arc=True, in_range=in_range or pick < 6, distance=distance, target_arc=arc,
                  overflow_to=list(order))

    @precondition(acting)
    @rule(seed=seeds, pick=picks, weapon=picks, enemy=picks, arc=arcs, order=overflow,
          location=st.sampled_from(LOCATIONS))
    def called_shot(self, seed, pick, weapon, enemy, arc, order, location):
        rid = self.actor(pick)
        self.step("called_shot", seed, rig=rid, weapon=self.weapon_of(rid, weapon),
                  target=self.enemy_of(rid, enemy), in_front_arc=True, in_range=True, distance="melee",
                  target_arc=arc, location=location, overflow_to=list(order))

    @precondition(acting)
    @rule(seed=seeds, pick=picks, enemy=picks, arc=arcs, order=overflow)
    def ram(self, seed, pick, enemy, arc, order):
        rid = self.actor(pick)
        self.step("ram", seed, rig=rid, target=self.enemy_of(rid, enemy), moved_2_inches=True, target_arc=arc,
                  overflow_to=list(order))

    @precondition(acting)
    @rule(seed=seeds, pick=picks)
    def reload(self, seed, pick):
        self.step("reload", seed, rig=self.actor(pick))

    @precondition(acting)
    @rule(seed=seeds, pick=picks, location=st.sampled_from(LOCATIONS))
    def repair(self, seed, pick, location):
        self.step("repair", seed, rig=self.actor(pick), location=location)

    @precondition(acting)
    @rule(seed=seeds, pick=picks)
    def shut_down(self, seed, pick):
        self.step("shut_down", seed, rig=self.actor(pick))

    @precondition(lambda self: self.doc["phase"] == "maintenance")
    @rule(seed=seeds, pick=picks, order=overflow)
    def heat_roll(self, seed, pick, order):
        hot = [r for r in RIGS if self.doc["rigs"][r]["heat"] > self.doc["rigs"][r]["heat_threshold"]]
        rid = hot[pick % len(hot)] if hot and pick < 6 else RIGS[pick % len(RIGS)]
        self.step("heat_roll", seed, rig=rid, overflow_to=list(order))

    @precondition(lambda self: acting(self) and self.doc["rigs"][self.doc["active_rig"]]["actions_left"] <= 2)
    @rule(seed=seeds)
    def end_activation(self, seed):
        self.step("end_activation", seed)

    @precondition(lambda self: self.doc["phase"] == "maintenance")
    @rule(seed=seeds)
    def end_round(self, seed):
        self.step("end_round", seed)

    # --- what always holds --------------------------------------------------------------------

    @invariant()
    def structure_within_bounds(self):
        for r in self.eng.rigs.values():
            for loc in LOCATIONS:
                assert 0 <= r.structure[loc] <= r.structure_max[loc], (r.id, loc, r.structure)

    @invariant()
    def heat_between_floor_and_track(self):
        for r in self.eng.rigs.values():
            assert r.heat_floor <= r.heat <= r.heat_track, (r.id, r.heat, r.heat_floor, r.heat_track)

    @invariant()
    def actions_left_never_negative(self):
        for r in self.eng.rigs.values():
            assert r.actions_left >= 0, (r.id, r.actions_left)

    @invariant()
    def destroyed_rigs_hold_no_actions(self):
        for r in self.eng.rigs.values():
            if r.destroyed:
                assert r.actions_left == 0, r.id


EngagementMachine.TestCase.settings = settings(max_examples=30, stateful_step_count=80, deadline=None)
test_engagement_state_machine = EngagementMachine.TestCase
