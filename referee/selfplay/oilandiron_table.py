"""An Of Oil and Iron table simulated for the Foe: a 36" square of open ground, each Rig a point
with a facing; the first player deploys along the near edge, the second along the far one, in
squadron order; each player's objectives stand in its own half (Sabotage's and Siege's near the
edge, as their set-up says), the supply drop where its die put it.

It answers the Foe's questions from the positions (the first enemy Rig in the front 90° arc, how
far it is in the question's bands, which of the target's arcs the Rig stands in) and carries out a
Move as a player with a tape would: pivot to face the target (or the nearest enemy), then advance
up to the Rig's forward move, stopping once its longest ready weapon reaches. It answers the
round's scoring from the positions too. It never changes the engagement's document.
"""
from __future__ import annotations

import re

from ..core.foe import CANT_TELL, Decision, Question
from ..core.results import Result
from ..oilandiron.actions import movement
from ..oilandiron.foe_odds import ready_weapons, weapon_range
from ..oilandiron.model import Engagement, Rig
from .table import Spot, arc_of

SIZE = 36.0
EDGE = 3.0
FRONT_ARC = 45.0  # either side of the facing: the front 90° arc
BANDS = (("melee", 1.0), ("close", 6.0), ("mid", 10.0))  # the Foe's bands, nearest first
AIRDROP_X = {1: 4.5, 2: 13.5, 3: 22.5, 4: 31.5}  # the drop's quarter of the table, across it


class OilAndIronTable:
    def __init__(self, doc: dict):
        eng = Engagement.from_doc(doc)
        self.spots: dict[str, Spot] = {}
        for n, player in enumerate(("p1", "p2")):
            rigs = eng.rigs_of(player)
            for i, rig in enumerate(rigs):
                x = SIZE * (i + 1) / (len(rigs) + 1)
                self.spots[rig.id] = Spot(x, EDGE if n == 0 else SIZE - EDGE, 90.0 if n == 0 else 270.0)
        self.places: dict[str, Spot] = {}
        key = (eng.rules.key if eng.rules else "")
        for player, near in (("p1", True), ("p2", False)):
            mine = [oid for oid, o in sorted((doc.get("objectives") or {}).items()) if o.get("owner") == player]
            depth = 5.0 if key in ("sabotage", "siege") else SIZE / 3
            for i, oid in enumerate(mine):
                y = depth if near else SIZE - depth
                self.places[oid] = Spot(SIZE * (i + 1) / (len(mine) + 1), y, 0)

    def spot(self, rig: Rig) -> Spot:
        return self.spots[rig.id]

    def enemies(self, eng: Engagement, rig: Rig) -> list[Rig]:
        return [r for r in eng.rigs_of(eng.other(rig.player)) if r.in_play]

    def in_front(self, rig: Rig, other: Rig) -> bool:
        return arc_of(self.spot(rig), self.spot(other), FRONT_ARC) == "front"

    # --- the Foe's questions -------------------------------------------------------------------

    def answer(self, doc: dict, q: Question, answers: dict[str, str]) -> str:
        eng = Engagement.from_doc(doc)
        parts = q.key.split(":")
        rig = eng.rigs.get(parts[0])
        if rig is None:
            return CANT_TELL
        values = [v for v, _ in q.options]
        what = parts[-1] if parts[-2] != "arc" else "arc"
        if what == "target":  # the first of the Foe's list in the front arc (open ground: in sight)
            return next((v for v in values if v in eng.rigs and eng.rigs[v].in_play
                         and self.in_front(rig, eng.rigs[v])), "none" if "none" in values else CANT_TELL)
        if what == "arc":
            target = eng.rigs.get(parts[-1])
            return arc_of(self.spot(target), self.spot(rig), FRONT_ARC) if target else CANT_TELL
        if what in ("distance", "after"):
            target = self.told_target(eng, rig, parts, answers)
            if target is None or not target.in_play:
                return "lost" if "lost" in values else CANT_TELL
            if what == "after" and not self.in_front(rig, target):
                return "lost"
            return distance_band(q.options, self.spot(rig).distance(self.spot(target)))
        return CANT_TELL

    def told_target(self, eng: Engagement, rig: Rig, parts: list[str], answers: dict[str, str]) -> Rig | None:
        """The target the question is about: the one named in this round's answers about the Rig."""
        told = [v for k, v in answers.items() if k.startswith(f"{rig.id}:") and k.endswith(":target")]
        known = [r.get("answers", {}) for r in (eng.doc.get("foe") or {}).get("decided", ())
                 if r.get("rig") == rig.id and r.get("at", [None])[0] == eng.round]
        told += reversed([v for a in known for k, v in a.items() if k.endswith(":target")])
        found = [eng.rigs[v] for v in told if v in eng.rigs and eng.rigs[v].in_play]
        if found:
            return found[0]
        near = sorted(self.enemies(eng, rig), key=lambda r: self.spot(rig).distance(self.spot(r)))
        return near[0] if near else None

    # --- carrying out ---------------------------------------------------------------------------

    def carry_out(self, before: dict, after: dict, decision: Decision | None, result: Result) -> None:
        if decision is None or decision.rung != "move":
            return
        eng = Engagement.from_doc(after)
        rig = eng.rigs[decision.piece.split(":", 1)[-1]]
        enemies = self.enemies(eng, rig)
        if not enemies:
            return
        here = self.spot(rig)
        told = self.told_target(eng, rig, [], {})
        target = told if told in enemies else min(enemies, key=lambda r: here.distance(self.spot(r)))
        m = movement(Engagement.from_doc(before).rigs[rig.id])
        reach = max((weapon_range(w) for w in ready_weapons(rig)), default=1)
        forward = 0.0 if m["immobilised"] else float(m["forward"])
        self.spots[rig.id] = here.towards(self.spot(target), forward, stop_short=max(1.0, reach - 1.0))

    # --- the round's scoring -------------------------------------------------------------------

    def score(self, doc: dict) -> dict:
        """What the players report at the round's end, measured on this table."""
        eng = Engagement.from_doc(doc)
        rules = eng.rules
        facts: dict = {}
        live = [r for r in eng.rigs.values() if r.in_play]
        for rule in rules.scoring:
            within = float(rule.within or 3)
            if rule.rule == "rig_near_objective":
                facts["rigs_near_objectives"] = [r.id for r in live if any(
                    self.spot(r).distance(p) <= within for p in self.objectives(doc))]
            elif rule.rule == "rig_in_enemy_territory":
                facts["rigs_in_enemy_territory"] = [r.id for r in live if (self.spot(r).y > SIZE / 2) ==
                                                    (r.player == "p1")]
            elif rule.rule in ("control_all_objectives", "control_at_round"):
                for player in ("p1", "p2"):
                    facts[f"{player}_controls"] = [oid for oid, p in self.controlled(doc, live, within).items()
                                                   if p == player]
        return facts

    def objectives(self, doc: dict) -> list[Spot]:
        return [p for oid, p in self.places.items() if not ((doc.get("objectives") or {}).get(oid) or {}).get(
            "destroyed")]

    def land(self, roll: int) -> None:
        """The supply drop where its D6 put it: 1-4 in that quarter of the table, 5-6 the middle."""
        self.places["airdrop"] = Spot(AIRDROP_X.get(roll, SIZE / 2), SIZE / 2, 0)

    def controlled(self, doc: dict, live: list[Rig], within: float) -> dict[str, str]:
        """Each objective's holder: the player with more Rigs within reach of it."""
        out = {}
        for oid in (doc.get("objectives") or {}):
            place = self.places.get(oid)
            if place is None:
                continue
            count = {p: sum(1 for r in live if r.player == p and self.spot(r).distance(place) <= within)
                     for p in ("p1", "p2")}
            if count["p1"] != count["p2"]:
                out[oid] = "p1" if count["p1"] > count["p2"] else "p2"
        return out


def distance_band(options: tuple[tuple[str, str], ...], inches: float) -> str:
    """The Foe's band for ``inches``: its bands are fixed but for the last within reach ("Over 10\",
    within 24\""), whose reach the question's own words give."""
    values = [v for v, _ in options]
    for value, reach in BANDS:
        if value in values and inches <= reach:
            return value
    far = next((label for v, label in options if v == "far"), "")
    reach = re.findall(r"(\d+)", far)
    if far and inches <= float(reach[-1]):
        return "far"
    return "beyond" if "beyond" in values else CANT_TELL
