"""The Of Oil and Iron campaign (rules summary, Campaigns): the start checks, each squadron's
roster, planning the next engagement, reading a finished engagement for its Aftermath, and
carrying a roster's damage into the next engagement.

The Aftermath itself is in :mod:`referee.campaigns.aftermath`. Pure: the campaign document, the
finished game's document and its log come in as plain data; no file, database or Flask.

The campaign document holds each player's roster: the Rigs as built (chassis, engine, weapons,
equipment), and what each carries from one engagement to the next (SP lost per location,
lasting effects, lost weapons, repair traits, Ironclad experience, kills, service history).
It also holds a copy of the campaign's tables and of the cards' Iron costs (``catalogue``), so
a campaign replays and exports without the data files.
"""
from __future__ import annotations

import copy
from typing import Literal

from pydantic import Field

from ..core.contract import ActionSpec
from ..core.errors import RuleError
from ..core.results import Modifier, Result
from ..systems import OIL_AND_IRON
from .common import GameStarted, StepFacts, builder
from .oilandiron_tables import FIGURES, STRUCTURE, Tables, read_tables
from .rolls import Row, odds_line, roll_on

LOCATIONS = ("hull", "arms", "legs", "engine")
# Heat-table effects that outlast the engagement until paid off in the Aftermath.
LASTING = {"engine_failure": "Engine Failure: heat cannot fall", "hydraulic_blowout": "Hydraulic Blowout: Speed −2\"",
           "fuel_line_rupture": "Fuel Line Rupture: damage each activation",
           "legs_immobilised": "Legs wrecked twice: pivot only"}
CAMPAIGN_CARDS = {"campaign_salvage_rolls": "Battlefield Recovery Rig",
                  "campaign_ignore_repair_trait": "Black Market Parts Cache",
                  "campaign_recovery_bonus": "Contracted Recovery Crew",
                  "campaign_extra_iron": "Experimental Load-Bearing Frame"}
DEFAULTS = {"damage_carries": True, "colossal_after_start": True}
CHOICES: dict = {}
DESCRIPTIONS = {
    "damage_carries": "SP lost and wrecked locations stay on a Rig until repaired with Iron (default); "
                      "off: every Rig starts each engagement whole.",
    "colossal_after_start": "Colossal-class Rigs may join by refits after the start (default); they are "
                            "never allowed in the starting squadrons.",
}


def tables_of(doc: dict) -> Tables:
    return read_tables(doc["tables"], "the campaign's tables")


# --- starting a campaign ----------------------------------------------------------------------

def rig_record(key: str, build: dict, chassis: dict) -> dict:
    """A roster Rig from its build (a squadron list's Rig) and its chassis card."""
    return {
        "key": key, "name": build["name"], "chassis": build["chassis"], "engine": build.get("engine"),
        "chassis_name": chassis["name"], "weight_class": chassis["weight_class"],
        "weapons": [{"card": w["card"], "mount": w.get("mount"), "lost": False} for w in build.get("weapons", [])],
        "equipment": [{"key": e["key"], "weapon": e.get("weapon")} for e in build.get("equipment", [])],
        "structure_max": dict(chassis["structure"]), "damage": {loc: 0 for loc in LOCATIONS},
        "lasting": [], "traits": [], "iron_bonus": 0, "frames_applied": 0, "status": "active",
        "xp": 0, "kills": 0,
        "history": {"engagements": 0, "damage_taken": 0, "damage_dealt": 0, "destroyed": 0, "recovered": 0},
        "service": [],
    }


def check_start(rosters: dict, catalogue: dict) -> None:
    """The rules' start: a Skirmish-sized squadron each, and no Colossal-class Rig."""
    for pid, roster in rosters.items():
        who = roster.get("name") or pid
        if roster.get("tier") != "skirmish":
            raise RuleError(f"{who}: a campaign starts with a Skirmish-sized squadron "
                            f"(Sword, Mace or Dagger), not a {roster.get('tier')} one.")
        if not roster.get("rigs"):
            raise RuleError(f"{who}: the squadron has no Rigs.")
        for rig in roster["rigs"].values():
            if rig["weight_class"] == "colossal":
                raise RuleError(f"{who}: {rig['name']} is a Colossal-class Rig, and none may join at the start.")
            if rig["chassis"] not in catalogue.get("chassis", {}):
                raise RuleError(f"{who}: {rig['name']}'s chassis card is unknown.")


def new_campaign_doc(name: str, players: dict, rosters: dict, tables: dict, catalogue: dict,
                     settings: dict | None = None) -> dict:
    """``players``: {"p1": {"name": ...}, "p2": {...}}; ``rosters``: {"p1": {"name", "tier",
    "formation", "cards", "rigs": {key: rig_record}}}; ``tables``: the campaign tables as data."""
    if set(players) != {"p1", "p2"} or set(rosters) != {"p1", "p2"}:
        raise RuleError("An Of Oil and Iron campaign has two players, each with a squadron.")
    t = read_tables(tables, "the campaign's tables")
    check_start(rosters, catalogue)
    return {
        "kind": OIL_AND_IRON, "name": name,
        "settings": {**DEFAULTS, **(settings or {})},
        "tables": t.model_dump(), "catalogue": copy.deepcopy(catalogue),
        "players": {p: {"name": players[p]["name"], "iron": t.starting_iron} for p in ("p1", "p2")},
        "rosters": copy.deepcopy(rosters),
        "next": {"engagement": None, "deployment": None, "battlefield": None},
        "games": {}, "aftermath": None, "ended": False,
    }


def iron_used(doc: dict, rig: dict) -> tuple[int, int]:
    """(Iron the Rig's cards weigh, Iron it carries): chassis Iron plus what the campaign added."""
    cat = doc["catalogue"]
    used = cat.get("engines", {}).get(rig.get("engine") or "", {}).get("iron", 0)
    used += sum(cat["weapons"].get(w["card"], {}).get("iron", 0) for w in rig["weapons"] if not w["lost"])
    used += sum(cat["equipment"].get(e["key"], {}).get("iron", 0) for e in rig["equipment"])
    cap = cat["chassis"][rig["chassis"]]["iron"] + rig.get("iron_bonus", 0)
    return used, cap


def rig_label(doc: dict, ref: str) -> str:
    """A roster Rig's name (``ref``: "p1/r2"), with its owner's name when a Rig on either roster
    shares it (both players may field a Jackal)."""
    player, _, key = ref.partition("/")
    name = doc["rosters"][player]["rigs"][key]["name"]
    same = sum(1 for roster in doc["rosters"].values() for r in roster["rigs"].values() if r["name"] == name)
    return f"{name} ({doc['players'][player]['name']})" if same > 1 else name


def squadron_cards(doc: dict, player: str) -> set[str]:
    """The campaign-card effects a player's squadron carries (on Rigs still on the roster)."""
    eq = doc["catalogue"]["equipment"]
    return {eq.get(e["key"], {}).get("effect_key", "") for r in doc["rosters"][player]["rigs"].values()
            if r["status"] != "lost" for e in r["equipment"]}


# --- before each engagement ---------------------------------------------------------------------

class PlanFacts(StepFacts):
    engagement: str = Field("roll", title="Engagement", max_length=40,
                            json_schema_extra={"help": "“roll” rolls a D12 for one of the twelve."})
    deployment: str = Field("roll", title="Deployment", max_length=60)
    battlefield: str = Field("roll", title="Battlefield", max_length=60)


def _engagement_rows(doc: dict) -> list[Row]:
    return [Row(i + 1, key, name) for i, (key, name) in enumerate(doc["catalogue"]["engagements"])]


def plan_odds(doc: dict, facts: PlanFacts) -> list[str]:
    t, lines = tables_of(doc), []
    if facts.engagement == "roll":
        rows = _engagement_rows(doc)
        lines.append(odds_line("Engagement", rows, len(rows)))
    if facts.deployment == "roll":
        lines.append(odds_line("Deployment", [Row(d.roll, d.name, d.name) for d in t.deployments], 6))
    if facts.battlefield == "roll":
        lines.append(odds_line("Battlefield", [Row(b.roll, b.name, b.name) for b in t.battlefields], 6))
    return lines


def _picked_or_rolled(choice: str, rows, what: str, dice, rolled: list):
    """A row of one of the campaign's D6 tables (deployment, battlefield): the one named, or
    rolled for when the players chose "roll"."""
    by_name = {row.name: row for row in rows}
    if choice == "roll":
        r = roll_on(dice, [Row(row.roll, row.name, row.name) for row in rows], 6, f"{what} (example table)")
        rolled.append(r.die)
        return by_name[r.row.key]
    if choice in by_name:
        return by_name[choice]
    raise RuleError(f"There is no {what} “{choice}” in the campaign's table.")

def resolve_plan(doc: dict, facts: PlanFacts, dice) -> Result:
    if doc.get("aftermath"):
        raise RuleError("Finish the Aftermath of the last engagement first.")
    t, b, rolled = tables_of(doc), builder(doc), []
    rows = _engagement_rows(doc)
    if facts.engagement == "roll":
        r = roll_on(dice, rows, len(rows), "engagement (Before Each Engagement: roll randomly)")
        rolled.append(r.die)
        engagement = r.row.key
    elif facts.engagement in {k for k, _ in doc["catalogue"]["engagements"]}:
        engagement = facts.engagement
    else:
        raise RuleError(f"There is no engagement “{facts.engagement}”.")
    deployment = _picked_or_rolled(facts.deployment, t.deployments, "deployment", dice, rolled)
    battlefield = _picked_or_rolled(facts.battlefield, t.battlefields, "battlefield", dice, rolled)
    name = dict(doc["catalogue"]["engagements"])[engagement]
    b.set(("next",), {"engagement": engagement, "engagement_name": name,
                      "deployment": deployment.model_dump(), "battlefield": battlefield.model_dump()},
          f"Next engagement: {name}, {deployment.name}, on {battlefield.name}")
    return Result("plan", f"Next: {name} — {deployment.name} deployment, on {battlefield.name}",
                  dice=tuple(rolled), changes=b.changes,
                  notes=(f"Deployment: {deployment.text}", f"Battlefield: {battlefield.effect}"))
PLAN = ActionSpec("plan_engagement", "Choose or roll the next engagement", PlanFacts, resolve_plan, plan_odds)
# --- a finished engagement, read for its Aftermath ----------------------------------------------

def exploded(rig: dict) -> bool:
    """Referee's reading (the summary never defines it): a Rig explodes when it is destroyed by a
    Catastrophic Failure of its heat, or with its Engine wrecked."""
    status = rig.get("status", {})
    return bool(rig.get("destroyed")) and ("catastrophic_failure" in status or "engine" in rig.get("catastrophic", []))
def read_engagement(state: dict, log: list[dict], pieces: dict[str, str], weapons: dict[str, dict[str, int]]) -> dict:
    """What the Aftermath needs from a finished engagement: for each Rig its roster key, whether it
    was destroyed (and exploded), SP lost per location, lasting effects, weapons destroyed (as
    positions in the roster's weapon list), kills and damage dealt (from the log entries still
    in force: ``{"facts": ..., "changes": [...]}``), and the result."""
    if not state.get("ended"):
        raise RuleError("That engagement is not over yet: end it on its own page first.")
    rigs = state.get("rigs", {})
    report = {"name": state.get("name", ""), "engagement_type": state.get("engagement_type"),
              "winner": state.get("winner") or "draw",
              "result": (state.get("result") or {}).get("text", ""),
              "vp": {p: v.get("vp", 0) for p, v in state.get("players", {}).items()}, "rigs": {}}
    kills = {rid: 0 for rid in rigs}
    dealt = {rid: 0 for rid in rigs}
    for entry in log:
        attacker = entry.get("facts", {}).get("rig")
        if attacker not in rigs:
            continue
        for ch in entry.get("changes", []):
            path = ch["path"]
            if len(path) < 3 or path[0] != "rigs" or path[1] not in rigs:
                continue
            if rigs[path[1]].get("player") == rigs[attacker].get("player"):
                continue
            if path[2] == "destroyed" and ch["after"] is True:
                kills[attacker] += 1
            elif path[2] == "structure" and len(path) == 4 and isinstance(ch["before"], int):
                dealt[attacker] += max(0, ch["before"] - ch["after"])
    for rid, r in rigs.items():
        if rid not in pieces:
            raise RuleError(f"{r.get('name', rid)} is in the engagement but on no roster.")
        lost = {loc: r["structure_max"][loc] - r["structure"][loc] for loc in LOCATIONS}
        wmap = weapons.get(rid, {})
        report["rigs"][rid] = {
            "roster": pieces[rid], "player": r["player"], "name": r["name"],
            "destroyed": bool(r.get("destroyed")), "exploded": exploded(r),
            "lost": lost, "damage_taken": sum(lost.values()),
            "lasting": sorted(k for k in r.get("status", {}) if k in LASTING),
            "weapons_destroyed": sorted(wmap[w] for w, wd in r.get("weapons", {}).items()
                                        if wd.get("destroyed") and w in wmap),
            "kills": kills[rid], "damage_dealt": dealt[rid],
        }
    return report
# --- into the next engagement -------------------------------------------------------------------

def build_of(record: dict) -> dict:
    """The Rig as a squadron list builds it, without the weapons it has lost."""
    return {"name": record["name"], "chassis": record["chassis"], "engine": record.get("engine"),
            "weapons": [{"card": w["card"], "mount": w["mount"]} for w in record["weapons"] if not w["lost"]],
            "equipment": [dict(e) for e in record["equipment"]]}
def weapon_positions(record: dict, rig_doc: dict) -> dict[str, int]:
    """The engagement's weapon ids -> positions in the roster's weapon list (lost ones skipped)."""
    kept = [i for i, w in enumerate(record["weapons"]) if not w["lost"]]
    return dict(zip(rig_doc.get("weapons", {}), kept))
def traits_in_force(record: dict, tables: Tables | None = None) -> list[dict]:
    """The Rig's repair traits that still apply (not struck by a Black Market Parts Cache), each
    with what it does: its own ``apply``, or (a trait recorded before traits carried one) the
    campaign table's row of that name."""
    rows = {t.name: t.apply for t in tables.repair_traits} if tables else {}
    return [dict(t, apply=dict(t.get("apply") or rows.get(t["name"], {})))
            for t in record.get("traits", []) if not t.get("ignored")]


def structure_with_traits(rig: dict, tables: Tables | None) -> dict[str, int]:
    """A roster Rig's structure per location as it takes the table: its chassis's, with what its
    repair traits add or take (Hardened Joints: Legs +1), as ``carry_into`` gives the engagement.
    Its damage counts down from these (a location is wrecked when it has lost all of them)."""
    traits = traits_in_force(rig, tables)
    return {loc: max(1, rig["structure_max"][loc] + sum(tr["apply"].get(loc, 0) for tr in traits)) for loc in LOCATIONS}


def apply_traits(doc: dict, traits: list[dict]) -> None:
    """A Rig's engagement document changed by its traits: its figures and structure directly (so
    the card, every action's limit and every odds line read them), and the rules a trait changes
    as they resolve kept under ``campaign.rules`` ({effect: {amount, trait}})."""
    rules: dict = {}
    for t in traits:
        for key, n in t["apply"].items():
            if key in FIGURES:
                doc[key] = max(0, doc[key] + n)
            elif key in STRUCTURE:
                top = max(1, doc["structure_max"][key] + n)
                doc["structure"][key] = max(1, doc["structure"][key] + (top - doc["structure_max"][key]))
                doc["structure_max"][key] = top
            elif key != "recovery_reroll":
                was = rules.get(key, {"amount": 0, "trait": ""})
                rules[key] = {"amount": was["amount"] + n,
                              "trait": " and ".join(x for x in (was["trait"], t["name"]) if x)}
    doc.setdefault("campaign", {})["rules"] = rules


def carry_into(rig_doc: dict, record: dict, damage_carries: bool = True, tables: Tables | None = None,
               label: str | None = None) -> tuple[dict, list[str]]:
    """A Rig's engagement document with what its roster carries: its repair traits, rank and
    experience (always), SP lost (a location at 0 starts catastrophically damaged) and lasting
    effects. ``label``: the Rig's name in the engagement and its notes (with its owner's when
    another Rig shares it). Returns the document and the notes to show."""
    doc, notes = copy.deepcopy(rig_doc), []
    who = label or record["name"]
    doc["name"] = who  # on the board, in its pick lists and its log, told apart from a namesake
    traits = traits_in_force(record, tables)
    apply_traits(doc, traits)
    doc["campaign"].update({"xp": record.get("xp", 0), "rank": tables.rank(record.get("xp", 0)) if tables else None,
                            "traits": [{"name": t["name"], "effect": t["effect"], "negative": t.get("negative", True)}
                                       for t in traits]})
    for t in traits:
        notes.append(f"{who}: {t['name']} — {t['effect']}")
    if not damage_carries:
        return doc, notes
    wrecked = []
    for loc in LOCATIONS:
        lost = min(record["damage"].get(loc, 0), doc["structure_max"][loc])
        if lost:
            doc["structure"][loc] = max(0, doc["structure"][loc] - lost)
            if doc["structure"][loc] == 0:
                wrecked.append(loc)
    if wrecked:
        doc["catastrophic"] = sorted(set(doc.get("catastrophic", [])) | set(wrecked))
    for effect in record.get("lasting", []):  # a status as the engine keeps it: its duration
        doc.setdefault("status", {})[effect] = "until_repaired" if effect != "legs_immobilised" else "permanent"
    lost = {loc: n for loc, n in record["damage"].items() if n}
    if lost:
        notes.insert(0, f"{who} starts damaged: " + ", ".join(f"{loc.title()} −{n} SP" for loc, n in lost.items())
                     + (f" ({', '.join(w.title() for w in wrecked)} wrecked)" if wrecked else ""))
    for effect in record.get("lasting", []):
        notes.append(f"{who} carries {LASTING.get(effect, effect)}")
    return doc, notes


def modifiers_for_recovery(doc: dict, player: str, is_exploded: bool) -> list[Modifier]:
    mods = []
    if "campaign_recovery_bonus" in squadron_cards(doc, player):
        if is_exploded:
            mods.append(Modifier(0, "Contracted Recovery Crew: no bonus, the Rig exploded", "recovery"))
        else:
            mods.append(Modifier(2, "Contracted Recovery Crew", "recovery"))
    field = (doc.get("aftermath") or {}).get("battlefield") or {}
    if field.get("recovery"):
        mods.append(Modifier(field["recovery"], f"Battlefield: {field['name']}", "recovery"))
    return [m for m in mods if m.amount or "exploded" in m.rule]
Outcome = Literal["lost", "recovered_with_trait", "recovered"]
def resolve_started(doc: dict, facts: GameStarted, dice) -> Result:
    if doc.get("aftermath"):
        raise RuleError("Finish the Aftermath of the last engagement first.")
    playing = [k for k, g in doc["games"].items() if g["status"] == "playing"]
    if playing:
        raise RuleError(f"Engagement {playing[0]} is still being fought: end it and take its Aftermath first.")
    if facts.step in doc["games"]:
        raise RuleError(f"Engagement {facts.step} exists already.")
    nxt = doc["next"]
    b = builder(doc)
    b.set(("games", facts.step), {
        "n": int(facts.step), "game_id": facts.game_id, "name": facts.name, "status": "playing",
        "engagement": nxt.get("engagement"), "engagement_name": nxt.get("engagement_name"),
        "deployment": nxt.get("deployment"), "battlefield": nxt.get("battlefield"),
        "pieces": dict(facts.pieces), "weapons": dict(facts.weapons),
        "roster_versions": dict(facts.roster_versions), "result": None, "notes": list(facts.notes),
    }, f"Engagement {facts.step} started: {facts.name}")
    return Result("game_started", f"Engagement {facts.step} begins from the rosters' current versions",
                  changes=b.changes, notes=tuple(facts.notes))
STARTED = ActionSpec("game_started", "Engagement started", GameStarted, resolve_started, rolls_dice=False)
class TablesFacts(StepFacts):
    tables: dict
def resolve_tables(doc: dict, facts: TablesFacts, dice) -> Result:
    t = read_tables(facts.tables, "the edited tables")
    if t.model_dump() == doc["tables"]:
        raise RuleError("The tables are unchanged.")
    b = builder(doc)
    b.set(("tables",), t.model_dump(), f"Campaign tables edited ({t.label})")
    return Result("edit_tables", f"Campaign tables now: {t.label}", changes=b.changes)
TABLES = ActionSpec("edit_tables", "Edit the campaign tables", TablesFacts, resolve_tables, rolls_dice=False)
