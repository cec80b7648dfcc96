"""Buildings on fire: starting a fire, the turns it burns, and the garrison's attempt to put it out.

A building's fire is kept in the battle document under ``buildings``, keyed by a slug of its
name: ``{"name", "burning", "burning_turns", "destroyed", "garrison"}``. The umpire marks each
turn a fire keeps burning ("fire_burns"); the third consecutive turn destroys the building and
removes any troops inside. A doused fire starts its count again if it is lit once more.
"""
from __future__ import annotations

import re

import icepool
from pydantic import Field

from ..core.contract import ActionSpec, Facts
from ..core.dice import roll
from ..core.results import Modifier, Result
from ..core.words import counted
from .model import Battle, BattleChanges, RuleError, Unit

TURNS_TO_DESTROY = 3
DOUSE_ON = 4


def building_key(name: str) -> str:
    key = re.sub(r"[^a-z0-9]+", "-", name.strip().lower()).strip("-")
    if not key:
        raise RuleError("Give the building a name (e.g. “Hougoumont chateau”).")
    return key


def building_record(battle: Battle, name: str) -> dict:
    stored = battle.doc.get("buildings", {}).get(building_key(name))
    return dict(stored) if stored else {"name": name.strip(), "burning": False, "burning_turns": 0,
                                        "destroyed": False, "garrison": None}


def record_change(ch: BattleChanges, record: dict, label: str) -> None:
    key = building_key(record["name"])
    if "buildings" not in ch.doc:
        # Create the whole branch in one change, so undo leaves the document exactly as it was.
        ch.at(("buildings",), {key: record}, label)
    else:
        ch.at(("buildings", key), record, label)


def _garrison(battle: Battle, record: dict, given: str | None) -> Unit | None:
    unit_id = given or record.get("garrison")
    if not unit_id:
        return None
    unit = battle.unit(unit_id)
    if given and unit.formation != "building":
        raise RuleError(f"{unit.name} is not in a building.")
    return unit


# --- setting a building alight ----------------------------------------------------------

class SetFireFacts(Facts):
    building: str = Field(title="Building", min_length=1, max_length=60)
    unit: str = Field(title="Unit setting the fire", json_schema_extra={"ref": "unit", "side": "any"})
    hit_more_than_once: bool = Field(False, title="Shells or rockets hit it more than once this turn?",
                                     json_schema_extra={"help": "Howitzers and rockets only: +1 to the roll."})
    garrison: str | None = Field(None, title="Unit inside the building", json_schema_extra={"ref": "unit", "side": "any"})


def fire_dice(unit: Unit) -> int:
    """Dice the unit rolls to start a fire; a 6 (after +1 for repeated shell hits) lights it."""
    if unit.is_artillery:
        if unit.artillery_kind not in ("howitzer", "rocket"):
            raise RuleError("Among guns only howitzers and rockets can set a building alight.")
        return 1
    if not unit.shooting:
        raise RuleError(f"{unit.name} has no shooting value to set a fire with.")
    return unit.shooting


def resolve_set_fire(doc: dict, facts: SetFireFacts, dice) -> Result:
    battle = Battle.from_doc(doc)
    unit = battle.unit(facts.unit)
    if not unit.in_play:
        raise RuleError(f"{unit.name} is no longer on the field.")
    record = building_record(battle, facts.building)
    if record["destroyed"]:
        raise RuleError(f"{record['name']} has already burnt down.")
    if record["burning"]:
        raise RuleError(f"{record['name']} is already burning.")
    count = fire_dice(unit)
    mods = []
    if unit.is_artillery and facts.hit_more_than_once:
        mods.append(Modifier(1, "Hit more than once", "fire"))
    if not unit.is_artillery and facts.hit_more_than_once:
        raise RuleError("Only howitzers and rockets add for hitting a building more than once.")
    rolled = roll(dice, count, 6, "set fire")
    bonus = sum(m.amount for m in mods)
    lit = any(d.value + bonus >= 6 for d in rolled)
    notes = ["Setting the fire takes the unit's shooting for this turn."] if not unit.is_artillery else \
        ["Roll after all shooting is done."]
    ch = BattleChanges(battle)
    if lit:
        garrison = _garrison(battle, record, facts.garrison)
        record.update(burning=True, burning_turns=0, garrison=garrison.id if garrison else None)
        record_change(ch, record, f"{record['name']}: on fire")
        notes.append(f"It burns down after {TURNS_TO_DESTROY} turns unless put out.")
    summary = f"{unit.name} {'sets' if lit else 'fails to set'} {record['name']} on fire"
    return Result("set_fire", summary, dice=rolled, modifiers=tuple(mods), changes=ch.changes,
                  notes=tuple(notes), data={"lit": lit, "building": building_key(record["name"])})


def odds_set_fire(doc: dict, facts: SetFireFacts) -> list[str]:
    unit = Battle.from_doc(doc).unit(facts.unit)
    count = fire_dice(unit)
    need = 5 if unit.is_artillery and facts.hit_more_than_once else 6
    p = (count @ icepool.d6.map(lambda v: int(v >= need))).probability(">=", 1)
    return [f"Fire starts: {float(p):.1%}"]


# --- the fire burns on -------------------------------------------------------------------

class FireBurnsFacts(Facts):
    building: str = Field(title="Burning building", min_length=1, max_length=60)
    garrison: str | None = Field(None, title="Unit inside the building", json_schema_extra={"ref": "unit", "side": "any"})


def burning_building(battle: Battle, facts: FireBurnsFacts | DouseFacts) -> tuple[dict, Unit | None]:
    """The burning building's record (a copy to update) and the unit inside, if any."""
    record = building_record(battle, facts.building)
    if not record["burning"]:
        raise RuleError(f"{record['name']} is not on fire.")
    return record, _garrison(battle, record, facts.garrison)


def resolve_fire_burns(doc: dict, facts: FireBurnsFacts, dice) -> Result:
    battle = Battle.from_doc(doc)
    record, garrison = burning_building(battle, facts)
    record["burning_turns"] += 1
    record["garrison"] = garrison.id if garrison else None
    ch = BattleChanges(battle)
    notes = []
    turns = record["burning_turns"]
    if turns >= TURNS_TO_DESTROY:
        record.update(burning=False, destroyed=True, garrison=None)
        summary = f"{record['name']} burns down after {turns} turns"
        notes.append("The building is gone: nobody may enter it again.")
        record_change(ch, record, f"{record['name']}: burnt down")
        if garrison and garrison.in_play:
            ch.unit(garrison, "destroyed", True, f"{garrison.name}: lost in the burning building")
            notes.append(f"{garrison.name}, inside, is removed.")
    else:
        summary = f"{record['name']} burns on ({turns} of {TURNS_TO_DESTROY} turns)"
        record_change(ch, record, f"{record['name']}: burning for {counted(turns, 'turn')}")
    return Result("fire_burns", summary, changes=ch.changes, notes=tuple(notes),
                  data={"burning_turns": turns, "destroyed": record["destroyed"]})


# --- dousing -----------------------------------------------------------------------------

class DouseFacts(Facts):
    building: str = Field(title="Burning building", min_length=1, max_length=60)
    garrison: str | None = Field(None, title="Unit inside fighting the fire",
                                 json_schema_extra={"ref": "unit", "side": "any"})


def resolve_douse(doc: dict, facts: DouseFacts, dice) -> Result:
    battle = Battle.from_doc(doc)
    record, garrison = burning_building(battle, facts)
    if garrison is None:
        raise RuleError("Only the unit inside can fight the fire: say which unit it is.")
    (die,) = roll(dice, 1, 6, "douse the fire")
    out = die.value >= DOUSE_ON
    ch = BattleChanges(battle)
    if out:
        record.update(burning=False, burning_turns=0, garrison=garrison.id)
        record_change(ch, record, f"{record['name']}: fire put out")
    summary = f"{garrison.name} {'puts out' if out else 'fails to put out'} the fire in {record['name']}"
    return Result("douse_fire", summary, dice=(die,), changes=ch.changes,
                  data={"doused": out})


def odds_douse(doc: dict, facts: DouseFacts) -> list[str]:
    return [f"Fire put out: {float(icepool.d6.probability('>=', DOUSE_ON)):.1%}"]


SET_FIRE = ActionSpec("set_fire", "Set a building on fire", SetFireFacts, resolve_set_fire, odds_set_fire)
FIRE_BURNS = ActionSpec("fire_burns", "A fire burns another turn", FireBurnsFacts, resolve_fire_burns,
                        rolls_dice=False)
DOUSE_FIRE = ActionSpec("douse_fire", "Put out a fire", DouseFacts, resolve_douse, odds_douse)
