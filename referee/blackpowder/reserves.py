"""Reserves and reinforcements: units that are not yet on the table.

A scenario lists what arrives and when; the battle document keeps each group that arrives
together under ``reserves`` (built by ``referee/data/scenarios.py``):

    {"id", "label", "side", "units": [...], "brigades": [...],
     "schedule": {"kind": "turn" | "roll" | "umpire", "turn", "from_turn", "dice", "target"},
     "at": where it comes on, "note", "status": "waiting" | "due" | "arrived",
     "due_turn", "not_before", "rolled": [turns an entry roll failed], "arrived_turn"}

Its units carry ``awaiting: true`` until they arrive: not on the table, not lost, not counted
towards breaking a brigade or an army (``brigades.py``), offered no orders (``offers.py``).

The sequence: as its side's turn begins, a group due on a fixed turn is announced
(``announce_arrivals``, called by ``next_phase``); a group that rolls to enter makes its entry
roll (``ENTRY_ROLL``, with its odds); the umpire then brings it on (``ARRIVE``) or puts it off
(``DELAY``). The umpire may also hold units back (``HOLD_BACK``) or add units that were not in
the scenario (``ADD_UNITS``). Every one of these is a logged action that Undo takes back.
"""
from __future__ import annotations

from itertools import product
from typing import Literal

from pydantic import Field

from ..core.contract import ActionSpec, Facts
from ..core.dice import roll
from ..core.results import Result
from .clock import time_of_turn
from .model import Battle, BattleChanges, RuleError, Unit

WAITING, DUE, ARRIVED = "waiting", "due", "arrived"


# --- reading the reserves ---------------------------------------------------------------------

def reserves(doc: dict) -> dict[str, dict]:
    return doc.get("reserves") or {}


def group(doc: dict, reserve_id: str) -> dict:
    try:
        return reserves(doc)[reserve_id]
    except KeyError:
        raise RuleError(f"There is no reserve “{reserve_id}” in this battle.") from None


def first_turn(g: dict) -> int:
    """The first turn the group may come on: its fixed turn, the first turn of its entry roll or
    of the umpire's call, or later when the umpire has put it off."""
    s = g["schedule"]
    base = s.get("turn") or s.get("from_turn") or 1
    return max(base, g.get("not_before") or 1)


def chance(dice: int, target: int) -> float:
    """The chance that ``dice`` D6 add up to ``target`` or more."""
    rolls = list(product(range(1, 7), repeat=dice))
    return sum(1 for r in rolls if sum(r) >= target) / len(rolls)


def describe(doc: dict, g: dict) -> str:
    """When the group comes, in words: "turn 12 (16:30)", "from turn 3 on a D6 of 4+ (50%)"."""
    s, turn = g["schedule"], first_turn(g)
    at = time_of_turn(doc, turn)
    when = f"turn {turn}" + (f" ({at})" if at else "")
    if g["status"] == ARRIVED:
        return f"arrived on turn {g.get('arrived_turn')}"
    if g["status"] == DUE:
        due = g.get("due_turn") or turn
        return f"due on turn {due}" + (f" ({time_of_turn(doc, due)})" if time_of_turn(doc, due) else "")
    if s["kind"] == "turn":
        return when
    if s["kind"] == "roll":
        return f"from {when}, {roll_words(s)} each turn"
    return f"when the umpire calls it, from {when}" if turn > 1 else "when the umpire calls it"


def roll_words(schedule: dict) -> str:
    """"a D6 of 4+ (50%)"."""
    dice = "a D6" if schedule["dice"] == 1 else f"{schedule['dice']}D6"
    return f"{dice} of {schedule['target']}+ ({chance(schedule['dice'], schedule['target']):.0%})"


def waiting_groups(doc: dict, side: str | None = None) -> list[dict]:
    """Groups not yet arrived, soonest first."""
    out = [g for g in reserves(doc).values() if g["status"] != ARRIVED and (side is None or g["side"] == side)]
    return sorted(out, key=lambda g: (g["status"] != DUE, first_turn(g), g["label"]))


def next_arrival(doc: dict) -> dict | None:
    """The next group expected on a known turn (fixed or rolling), with its time."""
    timed = [g for g in waiting_groups(doc) if g["status"] == DUE or g["schedule"]["kind"] != "umpire"]
    if not timed:
        return None
    g = timed[0]
    turn = g.get("due_turn") or first_turn(g)
    side = (doc.get("sides") or {}).get(g["side"]) or {}
    return {"id": g["id"], "label": g["label"], "side": g["side"], "side_name": side.get("name") or g["side"], "turn": turn,
            "time": time_of_turn(doc, turn), "when": describe(doc, g)}


def can_roll(doc: dict, g: dict, turn: int) -> str | None:
    """Why the group may not make an entry roll now, or None."""
    if g["schedule"]["kind"] != "roll":
        return f"{g['label']} does not roll to arrive ({describe(doc, g)})."
    if g["status"] == ARRIVED:
        return f"{g['label']} has already arrived."
    if g["status"] == DUE:
        return f"{g['label']} has already passed its entry roll: bring it on."
    if turn < first_turn(g):
        return f"{g['label']} rolls to arrive from turn {first_turn(g)}."
    if turn in g.get("rolled", []):
        return f"{g['label']} has already rolled this turn; it tries again next turn."
    return None


# --- the announcement as a side's turn begins -------------------------------------------------

def announce_arrivals(ch: BattleChanges, side: str) -> list[str]:
    """As ``side``'s turn begins: groups whose fixed turn has come become due; the notes say
    what is due, what may roll and what the umpire may call."""
    doc, turn, notes = ch.doc, ch.battle.turn, []
    for g in waiting_groups(doc, side):
        kind, where = g["schedule"]["kind"], f" {g['at']}" if g.get("at") else ""
        if g["status"] == DUE and turn >= (g.get("due_turn") or turn):
            notes.append(f"{g['label']} is due: bring it on or put it off.{where}")
        elif kind == "turn" and turn >= first_turn(g):
            ch.at(("reserves", g["id"], "status"), DUE, f"{g['label']}: due to arrive")
            ch.at(("reserves", g["id"], "due_turn"), turn, f"{g['label']}: due on turn {turn}")
            notes.append(f"{g['label']} arrives this turn: place it.{where}")
        elif kind == "roll" and turn >= first_turn(g):
            notes.append(f"{g['label']} may arrive: make its entry roll, {roll_words(g['schedule'])}.")
        elif kind == "umpire" and turn >= first_turn(g):
            notes.append(f"{g['label']} can come on when the umpire calls it.")
    return notes


# --- actions ----------------------------------------------------------------------------------

RESERVE = {"ref": "reserve", "ask": True}


class EntryRoll(Facts):
    reserve: str = Field(title="Reserve", json_schema_extra=RESERVE)


def resolve_entry_roll(doc: dict, facts: EntryRoll, dice) -> Result:
    battle = Battle.from_doc(doc)
    g = group(doc, facts.reserve)
    refused = can_roll(doc, g, battle.turn)
    if refused:
        raise RuleError(refused)
    s = g["schedule"]
    rolled = roll(dice, s["dice"], 6, f"entry roll: {g['label']}", need=s["target"] if s["dice"] == 1 else 0)
    score = sum(d.value for d in rolled)
    ch = BattleChanges(battle)
    if score >= s["target"]:
        ch.at(("reserves", g["id"], "status"), DUE, f"{g['label']}: entry roll passed")
        ch.at(("reserves", g["id"], "due_turn"), battle.turn, f"{g['label']}: due on turn {battle.turn}")
        summary = f"{g['label']} arrives: {score} against {s['target']}+"
        notes = [f"Bring it on this turn.{' ' + g['at'] if g.get('at') else ''}"]
    else:
        ch.at(("reserves", g["id"], "rolled"), list(g.get("rolled", [])) + [battle.turn],
              f"{g['label']}: entry roll failed on turn {battle.turn}")
        summary = f"{g['label']} does not arrive: {score} against {s['target']}+"
        notes = ["It tries again next turn."]
    return Result("entry_roll", summary, dice=rolled, changes=ch.changes, notes=tuple(notes),
                  data={"reserve": g["id"], "score": score, "target": s["target"], "arrives": score >= s["target"]})


def odds_entry_roll(doc: dict, facts: EntryRoll) -> list[str]:
    g = group(doc, facts.reserve)
    s = g["schedule"]
    if s["kind"] != "roll":
        return []
    return [f"Arrives this turn: {chance(s['dice'], s['target']):.1%}"]


class Arrive(Facts):
    reserve: str = Field(title="Reserve", json_schema_extra=RESERVE)
    early: bool = Field(False, title="Bring it on before its time (umpire's decision)",
                        json_schema_extra={"help": "Only when the umpire decides so; the log says it came early."})
    where: str = Field("", title="Where it comes on (for the log)", max_length=200)


def may_arrive(doc: dict, g: dict, turn: int) -> str | None:
    """Why the group may not come on now (without the umpire's say-so), or None."""
    kind = g["schedule"]["kind"]
    if g["status"] == ARRIVED:
        return f"{g['label']} has already arrived."
    if g["status"] == DUE:
        due = g.get("due_turn") or turn
        return None if turn >= due else f"{g['label']} has been put off to turn {due}."
    if kind == "roll":
        return f"{g['label']} must pass its entry roll first ({describe(doc, g)})."
    if turn < first_turn(g):
        return f"{g['label']} is not due until turn {first_turn(g)}."
    return None


def resolve_arrive(doc: dict, facts: Arrive, dice) -> Result:
    battle = Battle.from_doc(doc)
    g = group(doc, facts.reserve)
    refused = may_arrive(doc, g, battle.turn)
    if refused and (facts.early is False or g["status"] == ARRIVED):
        raise RuleError(refused)
    ch = BattleChanges(battle)
    names = []
    for uid in g["units"]:
        unit = battle.unit(uid)
        if unit.awaiting:
            ch.unit(unit, "awaiting", False, f"{unit.name}: arrives")
            names.append(unit.name)
    ch.at(("reserves", g["id"], "status"), ARRIVED, f"{g['label']}: arrived")
    ch.at(("reserves", g["id"], "arrived_turn"), battle.turn, f"{g['label']}: on turn {battle.turn}")
    at = time_of_turn(doc, battle.turn)
    summary = f"{g['label']} comes on, turn {battle.turn}" + (f" ({at})" if at else "")
    notes = [f"Place {len(names)} unit{'s' if len(names) != 1 else ''}: {', '.join(names)}."]
    where = facts.where or g.get("at")
    if where:
        notes.append(f"Where: {where}")
    if refused:
        # The refusal begins with the group's name, written as its scenario spells it ("I Corps").
        notes.append(f"Brought on early by the umpire: {refused}")
    return Result("arrive", summary, changes=ch.changes, notes=tuple(notes),
                  data={"reserve": g["id"], "units": names, "early": bool(refused)})


class Delay(Facts):
    reserve: str = Field(title="Reserve", json_schema_extra=RESERVE)
    turns: int = Field(1, ge=1, le=20, title="Put off by (turns)")
    reason: str = Field("", title="Why (for the log)", max_length=200)


def resolve_delay(doc: dict, facts: Delay, dice) -> Result:
    battle = Battle.from_doc(doc)
    g = group(doc, facts.reserve)
    if g["status"] == ARRIVED:
        raise RuleError(f"{g['label']} has already arrived.")
    ch = BattleChanges(battle)
    if g["status"] == DUE:  # announced or rolled for: it comes on the later turn without rolling again
        later = max(battle.turn, g.get("due_turn") or battle.turn) + facts.turns
        ch.at(("reserves", g["id"], "due_turn"), later, f"{g['label']}: due on turn {later}")
    else:
        later = max(battle.turn, first_turn(g)) + facts.turns
        ch.at(("reserves", g["id"], "not_before"), later, f"{g['label']}: not before turn {later}")
    at = time_of_turn(doc, later)
    summary = f"{g['label']} is put off to turn {later}" + (f" ({at})" if at else "")
    notes = [f"Reason: {facts.reason}"] if facts.reason else []
    return Result("delay_arrival", summary, changes=ch.changes, notes=tuple(notes),
                  data={"reserve": g["id"], "not_before": later})


class HoldBack(Facts):
    units: list[str] = Field(min_length=1, title="Units to hold back",
                             json_schema_extra={"ref": "unit", "side": "any", "ask": True})
    label: str = Field("", title="Name of the reserve (default: the brigade's)", max_length=80)


def resolve_hold_back(doc: dict, facts: HoldBack, dice) -> Result:
    battle = Battle.from_doc(doc)
    units = [battle.unit(uid) for uid in dict.fromkeys(facts.units)]
    sides = {u.side for u in units}
    if len(sides) != 1:
        raise RuleError("Hold back units of one side at a time.")
    for u in units:
        if u.awaiting:
            raise RuleError(f"{u.name} is already waiting off the table.")
        if not u.in_play:
            raise RuleError(f"{u.name} is no longer in the battle.")
        if u.in_combat:
            raise RuleError(f"{u.name} is fighting; it cannot be held back.")
    brigades = {u.brigade for u in units}
    whole = [b for b in brigades
             if {x.id for x in battle.units_of_brigade(b) if x.in_play} <= {u.id for u in units}]
    label = facts.label or (battle.brigades[next(iter(brigades))].name if len(brigades) == 1
                            else ", ".join(u.name for u in units))
    gid, n = f"held-{units[0].side}-{battle.turn}", 1
    while f"{gid}-{n}" in reserves(doc):
        n += 1
    gid = f"{gid}-{n}"
    ch = BattleChanges(battle)
    if "reserves" not in doc:
        ch.at(("reserves",), {}, "")
    ch.at(("reserves", gid), {
        "id": gid, "label": label, "side": units[0].side, "units": [u.id for u in units],
        "brigades": sorted(whole), "schedule": {"kind": "umpire"}, "at": "", "note": "Held back by the umpire.",
        "status": WAITING, "due_turn": None, "rolled": [], "not_before": battle.turn,
    }, f"{label}: held back")
    for u in units:
        ch.unit(u, "awaiting", True, f"{u.name}: held back off the table")
    return Result("hold_back", f"{label} held back off the table", changes=ch.changes,
                  notes=("They are not lost and do not count towards breaking their brigade or army; "
                         "bring them on with Arrive when the umpire calls them.",),
                  data={"reserve": gid, "units": [u.id for u in units]})


class AddUnits(Facts):
    """Units the scenario did not have, already built from their profiles by the caller (the
    engine reads no army list): each a full unit as the battle document keeps it."""

    side: Literal["blue", "red"] = Field(title="Side")
    brigade: str = Field("", title="Brigade (leave empty for a new one)", json_schema_extra={"ref": "brigade"})
    brigade_name: str = Field("", title="New brigade's name", max_length=80)
    commander: str = Field("", title="New brigade's commander", max_length=80)
    staff_rating: int = Field(8, ge=5, le=10, title="Staff Rating")
    units: list[dict] = Field(min_length=1, max_length=60, title="Units")
    arrive: Literal["now", "reserve"] = Field(
        "now", title="They", json_schema_extra={"labels": {"now": "Come on now", "reserve": "Wait off the table"}})


def resolve_add_units(doc: dict, facts: AddUnits, dice) -> Result:
    battle = Battle.from_doc(doc)
    ch = BattleChanges(battle)
    if facts.brigade:
        if facts.brigade not in battle.brigades:
            raise RuleError(f"There is no brigade “{facts.brigade}” in this battle.")
        bid = facts.brigade
        if battle.brigades[bid].side != facts.side:
            raise RuleError(f"{battle.brigades[bid].name} is not on that side.")
        label = battle.brigades[bid].name
    else:
        if not facts.brigade_name.strip() or not facts.commander.strip():
            raise RuleError("A new brigade needs a name and a commander.")
        bid, n = f"{facts.side}-added-{len(battle.brigades) + 1}", 1
        while bid in battle.brigades:
            bid, n = f"{facts.side}-added-{len(battle.brigades) + 1 + n}", n + 1
        label = facts.brigade_name.strip()
        ch.at(("brigades", bid), {"id": bid, "name": label, "side": facts.side, "broken": False,
                                  "commander": {"name": facts.commander.strip(), "staff_rating": facts.staff_rating,
                                                "rules": []}}, f"{label}: new brigade")
    added = []
    for raw in facts.units:
        try:
            unit = Unit.from_dict({**raw, "side": facts.side, "brigade": bid, "awaiting": facts.arrive == "reserve"})
        except (TypeError, ValueError, KeyError) as exc:
            raise RuleError(f"A unit to add is not complete: {exc}") from None
        if unit.id in battle.units or unit.id in added:
            raise RuleError(f"There is already a unit “{unit.id}” in this battle.")
        ch.at(("units", unit.id), unit.to_dict(), f"{unit.name}: added to {label}")
        added.append(unit.id)
    gid = None
    if facts.arrive == "reserve":
        gid = f"added-{bid}-{battle.turn}"
        if "reserves" not in doc:
            ch.at(("reserves",), {}, "")
        if gid in reserves(doc):
            raise RuleError(f"Units were already added to {label} this turn; bring those on first.")
        ch.at(("reserves", gid), {
            "id": gid, "label": label, "side": facts.side, "units": added, "brigades": [] if facts.brigade else [bid],
            "schedule": {"kind": "umpire"}, "at": "", "note": "Added by the umpire.", "status": WAITING,
            "due_turn": None, "rolled": [], "not_before": battle.turn}, f"{label}: waiting off the table")
    summary = f"{len(added)} unit{'s' if len(added) != 1 else ''} added to {label}" + \
        (" (waiting off the table)" if gid else "")
    return Result("add_units", summary, changes=ch.changes, data={"units": added, "brigade": bid, "reserve": gid})


def arrivals_board(doc: dict) -> list[dict]:
    """What the board shows: each group not yet arrived, with when and what it may do now."""
    battle = Battle.from_doc(doc)
    out = []
    for g in waiting_groups(doc):
        out.append({"id": g["id"], "label": g["label"], "side": g["side"], "status": g["status"],
                    "when": describe(doc, g), "at": g.get("at", ""), "units": len(g["units"]),
                    "roll": can_roll(doc, g, battle.turn) is None,
                    "arrive": may_arrive(doc, g, battle.turn) is None,
                    "odds": odds_entry_roll(doc, EntryRoll(reserve=g["id"]))})
    return out


ENTRY_ROLL = ActionSpec("entry_roll", "Entry roll", EntryRoll, resolve_entry_roll, odds_entry_roll)
ARRIVE = ActionSpec("arrive", "Bring on", Arrive, resolve_arrive, rolls_dice=False)
DELAY = ActionSpec("delay_arrival", "Put off", Delay, resolve_delay, rolls_dice=False)
HOLD_BACK = ActionSpec("hold_back", "Hold back", HoldBack, resolve_hold_back, rolls_dice=False)
ADD_UNITS = ActionSpec("add_units", "Add units", AddUnits, resolve_add_units, rolls_dice=False)
