"""What the read-only view and the printed record sheets show: each unit with its profile's
stat line, each Rig with its cards resolved (structure boxes, heat track, weapon table).

A draft is shown too: a unit whose profile is unknown, or a Rig whose chassis is missing, gets
a line saying so instead of disappearing from the sheet.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..data.blackpowder import UnitProfile, load_commanders, load_nations, load_unit_profiles
from ..data.oilandiron import LOCATIONS, load_equipment
from ..systems import BLACK_POWDER, OIL_AND_IRON
from .blackpowder import Army, army_points
from .formations import formation, load_tiers
from .oilandiron import Squadron, SquadronRig, base_size, chassis_cards, engine_cards, rig_iron, weapon_cards


@dataclass
class UnitRow:
    name: str
    profile_id: str
    profile: UnitProfile | None
    points: int | None
    notes: str


@dataclass
class BrigadeSheet:
    name: str
    commander: dict | None
    units: list[UnitRow]


def army_sheet(army: Army) -> dict:
    profiles, nations = load_unit_profiles(), load_nations()
    brigades = [BrigadeSheet(b.name, b.commander.model_dump() if b.commander else None,
                             [UnitRow(u.name, u.profile, profiles.get(u.profile), u.points, u.notes) for u in b.units])
                for b in army.brigades]
    nation = nations.get(army.nation)
    key = load_commanders().get(army.general.key) if army.general and army.general.key else None
    return {"kind": BLACK_POWDER, "army": army, "nation": nation.name if nation else army.nation,
            "allies": [nations[a].name if a in nations else a for a in army.allies],
            "nation_rules": list(nation.commander_rules) if nation else [],
            "general": army.general.model_dump() if army.general else None,
            "general_abilities": list(key.abilities) if key else [],
            "brigades": brigades, "points": army_points(army),
            "unassigned": [c.model_dump() for c in army.unassigned_commanders],
            "units": sum(len(b.units) for b in army.brigades)}


@dataclass
class WeaponRow:
    name: str
    mount: str
    iron: int | None
    profiles: list[dict] = field(default_factory=list)  # range, rof, str, acc
    perks: str = ""
    missing: bool = False


@dataclass
class RigSheet:
    name: str
    chassis: object | None
    chassis_key: str
    engine: object | None
    weapons: list[WeaponRow]
    equipment: list[dict]
    iron_used: int
    iron_cap: int
    speed: int | None = None
    exhaust: int | None = None
    heat_threshold: int | None = None
    heat_track: list[int] = field(default_factory=list)
    structure: dict = field(default_factory=dict)  # location -> boxes
    base_mm: int | None = None


def _perk_text(weapon) -> str:
    return ", ".join(p.name.replace("_", " ").title() + (f" {p.x}" if p.x else "") for p in weapon.perks)


def rig_sheet(sq: Squadron, rig: SquadronRig) -> RigSheet:
    chassis = chassis_cards(sq).get(rig.chassis)
    engine = engine_cards(sq).get(rig.engine) if rig.engine else None
    weapons_all, equipment_all = weapon_cards(sq), load_equipment()
    free = ["left", "right"] + (["hull"] if chassis and chassis.weight_class == "colossal" else [])
    weapons = []
    for pick in rig.weapons:
        w = weapons_all.get(pick.card)
        mount = pick.mount or ("hull" if w and "hull" in w.perk_map() else "")
        if mount in free:
            free.remove(mount)
        if w is None:
            weapons.append(WeaponRow(pick.card or "(no card chosen)", mount, None, missing=True))
            continue
        profiles = [{"range": p.range, "rof": p.rof if p.rof is not None else w.rof,
                     "str": p.str_ if p.str_ is not None else w.str_,
                     "acc": p.acc if p.acc is not None else w.acc} for p in w.profiles]
        weapons.append(WeaponRow(w.name, mount, w.iron, profiles, _perk_text(w)))
    for row in weapons:  # unmounted weapons take the free mounts in order, as the engine does
        if not row.mount and free:
            row.mount = free.pop(0)
    equipment = [{"name": equipment_all[e.key].name if e.key in equipment_all else (e.key or "(no card chosen)"),
                  "effect": equipment_all[e.key].effect if e.key in equipment_all else "",
                  "iron": equipment_all[e.key].iron if e.key in equipment_all else None,
                  # The weapon it is fitted to, by the card's name (the key is the file's word).
                  "weapon": weapons_all[e.weapon].name if e.weapon in weapons_all else e.weapon}
                 for e in rig.equipment]
    used, cap = rig_iron(sq, rig)
    sheet = RigSheet(rig.name, chassis, rig.chassis, engine, weapons, equipment, used, cap)
    if chassis is not None:
        sheet.speed = chassis.speed + (engine.speed_bonus if engine else 0)
        sheet.exhaust = engine.exhaust if engine and engine.exhaust is not None else chassis.exhaust
        sheet.heat_threshold = engine.heat_threshold if engine and engine.heat_threshold is not None \
            else chassis.heat_threshold
        track = engine.heat_track if engine and engine.heat_track is not None else chassis.heat_track
        sheet.heat_track = list(range(0, track + 1))
        sheet.structure = {loc: getattr(chassis.structure, loc) for loc in LOCATIONS}
        sheet.base_mm = base_size(chassis)
    return sheet


def squadron_sheet(sq: Squadron) -> dict:
    tiers = load_tiers()
    form = formation(sq.tier, sq.formation)
    return {"kind": OIL_AND_IRON, "squadron": sq,
            "tier": tiers[sq.tier].name if sq.tier in tiers else sq.tier,
            "formation": form.name if form else sq.formation,
            "formation_counts": form.describe() if form else "",
            "rigs": [rig_sheet(sq, r) for r in sq.rigs]}


def sheet(lst: Army | Squadron) -> dict:
    return army_sheet(lst) if isinstance(lst, Army) else squadron_sheet(lst)
