"""A Black Powder table simulated for the Foe: every unit a point with a facing; the sides deploy
from opposite edges in their army list's brigade order; reserves come on at their own edge when
they arrive; the places a scenario's victory questions name stand along the middle of the table.

It answers the Foe's questions from the positions (the nearest enemy's band and brigade, which
enemy a charge would strike and on which face, whether the commander is near, what shooters see
within range and how far the target is) and carries out what the Foe decided as a player with a
tape would: an advance straight at the nearest enemy up to the inches the order gave, a charge
into contact, a retirement towards its own edge, a loser falling back from a combat. It never
changes the battle document: that is the game's, through its actions.
"""
from __future__ import annotations

import re

from ..blackpowder.combat_records import SIDE_KEYS
from ..blackpowder.foe_fire import can_shoot, live_units, reach_of
from ..blackpowder.model import Battle, Unit
from ..blackpowder.order_tests import move_distance
from ..core.foe import CANT_TELL, Decision, Question
from ..core.results import Result
from .table import Spot, arc_of, band_answer, mirrored

GAP = 3.0  # inches between two units of a brigade standing side by side
BRIGADE_GAP = 4.0
LINE_GAP = 8.0  # between a side's lines of brigades
FIRST_LINE = 12.0  # a side's first line, from its own edge
HOLD_WITHIN = 6.0  # a place is held by a side with a unit this near and no enemy as near
FALL_BACK = 6.0


def table_size(doc: dict) -> tuple[float, float]:
    """A 6' by 4' table, twice as wide and half as deep again for a battle of more than 60 units
    a side (the day of Waterloo)."""
    most = max(sum(1 for u in doc["units"].values() if u["side"] == s) for s in ("blue", "red"))
    return (144.0, 72.0) if most > 60 else (72.0, 48.0)


class BlackPowderTable:
    def __init__(self, doc: dict):
        self.width, self.depth = table_size(doc)
        self.spots: dict[str, Spot] = {}
        self.entries = 0  # reserve groups come on one beside the next
        self.read: tuple = (None, None, {})
        battle = Battle.from_doc(doc)
        for side in ("blue", "red"):
            units = [u for b in battle.brigades_of_side(side) for u in battle.units_of_brigade(b.id)
                     if not u.awaiting and u.in_play]
            self.deploy(side, units, FIRST_LINE)
        questions = (doc.get("victory") or {}).get("questions") or ()
        self.places = {q["id"]: Spot(self.width * (i + 1) / (len(questions) + 1), self.depth / 2, 0)
                       for i, q in enumerate(questions)}

    # --- placing ------------------------------------------------------------------------------

    def deploy(self, side: str, units: list[Unit], from_edge: float) -> None:
        """Units in brigade order, side by side, in as many lines as the table's width needs."""
        first = side == "blue"
        facing = 90.0 if first else 270.0
        x, line, brigade = GAP, 0, None
        for u in units:
            if brigade is not None and u.brigade != brigade:
                x += BRIGADE_GAP
            brigade = u.brigade
            if x > self.width - GAP:
                x, line = GAP, line + 1
            y = mirrored(min(from_edge + line * LINE_GAP, self.depth / 2 - 2), self.depth, first)
            self.spots[u.id] = Spot(x if first else self.width - x, y, facing)
            x += GAP

    def arrive(self, side: str, units: list[Unit]) -> None:
        """A reserve comes on at its own edge, each group a little along from the last."""
        self.entries += 1
        self.deploy(side, units, 1.0 + (self.entries % 3) * 2)
        shift = (self.entries * 23.0) % max(1.0, self.width - GAP * len(units))
        for u in units:
            s = self.spots[u.id]
            self.spots[u.id] = Spot(min(self.width, (s.x + shift) % self.width), s.y, s.facing)

    def battle(self, doc: dict) -> Battle:
        """The battle read once for all the questions put on one document (documents never change)."""
        if self.read[0] is not doc:
            self.read = (doc, Battle.from_doc(doc), {})
        return self.read[1]

    def spot(self, unit: Unit) -> Spot:
        if unit.id not in self.spots:  # on the table without a place (added by the umpire): its edge
            self.arrive(unit.side, [unit])
        return self.spots[unit.id]

    # --- looking ------------------------------------------------------------------------------

    def enemies(self, battle: Battle, side: str) -> list[Unit]:
        kept = self.read[2] if self.read[1] is battle else {}
        if side not in kept:
            kept[side] = [u for u in battle.units_of_side(battle.enemy_of(side)) if u.in_play]
        return kept[side]

    def nearest(self, unit: Unit, others: list[Unit]) -> tuple[Unit | None, float | None]:
        here = self.spot(unit)
        best = min(others, key=lambda o: (here.distance(self.spot(o)), o.id), default=None)
        return best, (here.distance(self.spot(best)) if best else None)

    def lead(self, battle: Battle, brigade_id: str) -> Unit | None:
        """The brigade's first unit free to take an order (the one the Foe asks about)."""
        units = live_units(battle, brigade_id)
        free = [u for u in units if not u.in_combat and not u.disordered]
        return (free or units or [None])[0]

    def centre(self, battle: Battle, brigade_id: str) -> Spot | None:
        spots = [self.spot(u) for u in live_units(battle, brigade_id)]
        if not spots:
            return None
        return Spot(sum(s.x for s in spots) / len(spots), sum(s.y for s in spots) / len(spots), 0)

    # --- the Foe's questions --------------------------------------------------------------------

    def answer(self, doc: dict, q: Question, answers: dict[str, str]) -> str:
        """What a player measuring on this table tells the Foe; "can't tell" only when the question
        is one this table does not know."""
        battle = self.battle(doc)
        brigade_id, _, what = q.key.rpartition(":")
        if brigade_id not in battle.brigades:
            return CANT_TELL
        lead = self.lead(battle, brigade_id)
        if lead is None:
            return CANT_TELL
        enemies = self.enemies(battle, lead.side)
        values = [v for v, _ in q.options]
        if what == "near" or (q.kind == "band" and what not in ("range",)):
            return band_answer(q.options, self.nearest(lead, enemies)[1])
        if what == "which":
            picked = [u for u in enemies if u.brigade in values]
            unit, _ = self.nearest(lead, picked)
            return unit.brigade if unit else CANT_TELL
        if what == "target":
            unit, _ = self.nearest(lead, [battle.unit(v) for v in values if v in battle.units])
            return unit.id if unit else CANT_TELL
        if what == "reach":
            return self.reach(battle, lead, q, answers)
        if what == "cmd":
            centre = self.centre(battle, brigade_id)
            return "yes" if centre and self.spot(lead).distance(centre) <= 12 else "no"
        if what == "sees":
            return self.sees(battle, brigade_id, values)
        if what == "range":
            shooters = [u for u in live_units(battle, brigade_id) if can_shoot(u)]
            target = named(q.text, enemies)
            if not shooters or target is None:
                return CANT_TELL
            return band_answer(q.options, self.spot(shooters[0]).distance(self.spot(target)))
        return CANT_TELL

    def reach(self, battle: Battle, lead: Unit, q: Question, answers: dict[str, str]) -> str:
        """Whether a charge by the lead reaches the named enemy within one move, and the face it
        would strike (the target's front, flank or rear, by where the charger stands)."""
        target = named(q.text.split(" reach ", 1)[-1], self.enemies(battle, lead.side))
        if target is None:
            return CANT_TELL
        here, there = self.spot(lead), self.spot(target)
        if here.distance(there) > move_distance(lead):
            return "no"
        face = arc_of(there, here)
        return {"side": "flank"}.get(face, face)

    def sees(self, battle: Battle, brigade_id: str, values: list[str]) -> str:
        """The nearest enemy brigade with a unit within some shooter's reach (open ground: every
        unit is seen)."""
        best = None
        for s in (u for u in live_units(battle, brigade_id) if can_shoot(u)):
            reach = reach_of(battle, s)
            for e in self.enemies(battle, s.side):
                if e.brigade not in values:
                    continue
                d = self.spot(s).distance(self.spot(e))
                if d <= reach and (best is None or (d, e.brigade) < best[:2]):
                    best = (d, e.brigade)
        return best[1] if best else ("none" if "none" in values else CANT_TELL)

    # --- carrying out -----------------------------------------------------------------------------

    def carry_out(self, before: dict, after: dict, decision: Decision | None, result: Result) -> None:
        """Move the models as the decision's orders and the dice say."""
        old, new = Battle.from_doc(before), Battle.from_doc(after)
        arrived = [new.unit(uid) for uid, raw in before["units"].items()
                   if raw.get("awaiting") and uid in new.units and new.unit(uid).in_play]
        for side in ("blue", "red"):
            mine = [u for u in arrived if u.side == side]
            if mine:
                self.arrive(side, mine)
        orders = {p.facts.get("order") for p in (decision.plan if decision else ()) if p.action == "order"}
        for child in steps(result):
            if child.kind == "order":
                order = next(iter(orders), "move")
                for uid, moves in (child.data.get("moves_by_unit") or {}).items():
                    if moves and uid in new.units:
                        self.move(new, new.unit(uid), moves * move_distance(new.unit(uid)), order)
            elif child.kind == "charge" or "contact" in child.data:
                self.charge(new, child)
        if decision is not None and decision.rung.startswith("retire (army broken)"):
            for u in live_units(new, decision.piece.split(":", 1)[-1]):
                self.move(new, u, move_distance(u), "retreat")
        self.fall_back(old, new)

    def move(self, battle: Battle, unit: Unit, inches: float, order: str) -> None:
        here = self.spot(unit)
        if order == "retreat":
            home = 270.0 if unit.side == "blue" else 90.0
            self.spots[unit.id] = Spot(here.x, here.y, home).ahead(inches, self.width, self.depth)
            return
        if order not in ("move", "charge"):
            return
        enemy, gap = self.nearest(unit, self.enemies(battle, unit.side))
        if enemy is None:
            self.spots[unit.id] = here.ahead(inches, self.width, self.depth)
        else:  # the Foe halts just outside contact; a charge is placed by the charge itself
            self.spots[unit.id] = here.towards(self.spot(enemy), inches, stop_short=2.0)

    def charge(self, battle: Battle, child: Result) -> None:
        rec = (battle.doc.get("combats") or {}).get(child.data.get("combat") or "")
        if not rec:
            return
        targets = [battle.unit(u) for u in rec.get("defenders", ()) if u in battle.units]
        for uid in rec.get("attackers", ()):
            if uid in battle.units and targets:
                there = self.spot(targets[0])
                self.spots[uid] = self.spot(battle.unit(uid)).towards(there, 1e9, stop_short=1.0)

    def fall_back(self, old: Battle, new: Battle) -> None:
        """A unit out of a combat it lost (or drew and left) falls back towards its own edge."""
        for cid, rec in (new.doc.get("combats") or {}).items():
            before = (old.doc.get("combats") or {}).get(cid) or {}
            winner = rec.get("last_winner")
            for key in SIDE_KEYS:
                if key == winner:
                    continue
                for uid in rec.get(key, ()):
                    was = old.units.get(uid)
                    now = new.units.get(uid)
                    if was and now and was.in_combat and not now.in_combat and now.in_play and before:
                        self.move(new, now, FALL_BACK, "retreat")

    # --- the scenario's questions -------------------------------------------------------------------

    def victory_answers(self, doc: dict) -> dict:
        """Each victory question answered from the table: who holds each place (a side with a unit
        within 6" and no enemy as near), how many units stand where a count asks."""
        battle = Battle.from_doc(doc)
        names = {s: battle.sides[s].name.lower() for s in battle.sides}
        out: dict = {}
        for q in (doc.get("victory") or {}).get("questions") or ():
            place = self.places[q["id"]]
            holders = [s for s in ("blue", "red")
                       if any(self.spot(u).distance(place) <= HOLD_WITHIN for u in battle.units_of_side(s)
                              if u.in_play and not u.shaken)]
            held = holders[0] if len(holders) == 1 else "neither"
            named_side = first_named(q["ask"], names)
            if q["answer"] == "side":
                out[q["id"]] = held
            elif q["answer"] == "yes_no":
                out[q["id"]] = "yes" if named_side and held == named_side else "no"
            elif q["answer"] == "count":
                side = named_side or "blue"
                beyond = [u for u in battle.units_of_side(side) if u.in_play and not u.shaken
                          and abs(self.spot(u).y - mirrored(0, self.depth, side == "blue")) > self.depth / 2]
                out[q["id"]] = min(len(beyond), q.get("max", 40))
            else:
                out[q["id"]] = (q.get("options") or [""])[0]
        return out


def steps(result: Result):
    """The result and every result inside it, in order."""
    yield result
    for child in result.children:
        yield from steps(child)


def named(text: str, units: list[Unit]) -> Unit | None:
    """The unit whose name the text gives (the longest name found, so "1st Guards" is not "1st")."""
    found = [u for u in units if u.name and re.search(rf"(?<!\w){re.escape(u.name)}(?!\w)", text)]
    return max(found, key=lambda u: (len(u.name), u.id), default=None)


def first_named(text: str, names: dict[str, str]) -> str | None:
    """The side a question names first ("How many unshaken French units …" names the French)."""
    low = text.lower()
    hits = [(low.find(n), s) for s, n in names.items() if n and n in low]
    return min(hits)[1] if hits else None


__all__ = ["BlackPowderTable", "table_size"]
