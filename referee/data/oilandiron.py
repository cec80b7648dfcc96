"""Of Oil and Iron data: equipment cards, perks, example cards and engagement types.

The YAML files in ``armylists/oilandiron/`` and ``scenarios/oilandiron/`` are validated with the
pydantic models below; a bad file raises :class:`DataError` naming the file, the entry and the
field. ``squadron_state`` turns a squadron (chassis, engine, weapons, equipment per Rig) into the
Rig documents the engine plays with. The format is described in ``armylists/oilandiron/README.md``.
"""
from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from ..errors import DataError

ROOT = Path(__file__).resolve().parents[2]
ARMYLISTS = ROOT / "armylists" / "oilandiron"
SCENARIOS = ROOT / "scenarios" / "oilandiron"

WEIGHT_CLASSES = ("light", "medium", "heavy", "colossal")
LOCATIONS = ("hull", "arms", "legs", "engine")
BASE_SIZES = {"light": 40, "medium": 50, "heavy": 60, "colossal": 80}
MOUNTS = ("left", "right", "hull")

# The effect keys the engine implements; a card with any other key would do nothing, so it is refused.
EFFECT_KEYS = (
    "cancel_heat_roll", "front_plating_1", "front_plating_2", "ignore_attack_damage",
    "speed_bonus_fuel_risk", "reroll_missed_hits", "wide_firing_arc", "weapon_str_bonus",
    "heat_roll_minus_1", "smokescreen", "acc_within_10", "acc_beyond_10", "restore_3_sp",
    "next_action_no_heat", "flare", "scramble_actions", "ram_without_damage", "vent_heat",
    "acc_vs_hot_targets", "artillery_strike", "campaign_salvage_rolls", "campaign_ignore_repair_trait",
    "campaign_recovery_bonus", "campaign_extra_iron", "free_text",
)
PERK_KEYS = (
    "armour_piercing", "bombardment", "charged_shot", "explosive", "flak", "full_auto", "hot", "hull",
    "impale", "incendiary", "limited_ammo", "melee", "precision", "shock", "staggering", "sustained_fire",
)


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# --- equipment and perks ---------------------------------------------------------------------

class EquipmentCard(_Model):
    table: Literal["A", "B", "C", "house"]
    number: int = Field(ge=0)
    key: str = Field(pattern=r"^[a-z0-9_]+$")
    name: str
    iron: int = Field(ge=0)
    effect: str
    effect_key: Literal[EFFECT_KEYS]
    campaign_only: bool = False
    once_per_game: bool = False
    once_per_activation: bool = False
    discard: bool = False
    action: bool = False  # used by spending an action (Use Equipment)
    heat: int = Field(1, ge=0)  # heat of the Use Equipment action
    needs_weapon: bool = False  # the card names one of the Rig's weapons (High Calibre Ammunition)


class PerkCard(_Model):
    key: Literal[PERK_KEYS]
    name: str
    description: str
    x: bool = False


class EquipmentFile(_Model):
    equipment: list[EquipmentCard]


class PerkFile(_Model):
    perks: list[PerkCard]


# --- example cards ---------------------------------------------------------------------------

class Structure(_Model):
    hull: int = Field(ge=1)
    arms: int = Field(ge=1)
    legs: int = Field(ge=1)
    engine: int = Field(ge=1)


class Armour(_Model):
    direct: int = Field(ge=1)
    severe: int = Field(ge=1)
    critical: int = Field(ge=1)

    @model_validator(mode="after")
    def _rising(self):
        if not self.direct < self.severe < self.critical:
            raise ValueError("armour thresholds must rise: Direct < Severe < Critical")
        return self


class Chassis(_Model):
    key: str = Field(pattern=r"^[a-z0-9_]+$")
    name: str
    example: bool = False
    weight_class: Literal[WEIGHT_CLASSES]
    base_mm: int | None = None
    speed: int = Field(ge=0)
    pivot: int = Field(ge=0)
    aim: int = Field(ge=2, le=6)
    iron: int = Field(ge=0)
    weapon_slots: int | None = None
    structure: Structure
    armour: Armour
    exhaust: int = Field(ge=0)
    heat_threshold: int = Field(ge=0)
    heat_track: int = Field(ge=1)
    # The heat floor once the Engine is catastrophically damaged; the card's first numbered
    # space. Left out: the first space above the Heat Threshold.
    first_numbered_heat_space: int | None = None

    @model_validator(mode="after")
    def _fill(self):
        slots = 3 if self.weight_class == "colossal" else 2
        if self.weapon_slots is not None and self.weapon_slots != slots:
            raise ValueError(f"a {self.weight_class} Rig has {slots} weapon slots")
        if self.heat_threshold >= self.heat_track:
            raise ValueError("the Heat Threshold must be below the end of the heat track")
        return self

    @property
    def slots(self) -> int:
        return 3 if self.weight_class == "colossal" else 2


class Engine(_Model):
    key: str = Field(pattern=r"^[a-z0-9_]+$")
    name: str
    example: bool = False
    iron: int = Field(0, ge=0)
    # Any value given replaces (exhaust, threshold, track) or adds to (speed) the chassis's.
    exhaust: int | None = Field(None, ge=0)
    heat_threshold: int | None = Field(None, ge=0)
    heat_track: int | None = Field(None, ge=1)
    speed_bonus: int = 0


class PerkRef(_Model):
    name: Literal[PERK_KEYS]
    x: int | None = Field(None, ge=1)


class RangeProfile(_Model):
    range: int = Field(ge=1)
    label: str = ""
    rof: int | None = Field(None, ge=1)
    str_: int | None = Field(None, alias="str", ge=0)
    acc: int | None = None


class Weapon(_Model):
    key: str = Field(pattern=r"^[a-z0-9_]+$")
    name: str
    example: bool = False
    rof: int = Field(ge=1)
    str_: int = Field(alias="str", ge=0)
    acc: int = 0
    iron: int = Field(ge=0)
    profiles: list[RangeProfile] = Field(min_length=1, max_length=2)
    perks: list[PerkRef] = []

    @model_validator(mode="after")
    def _perk_values(self):
        needs_x = {"explosive", "incendiary", "limited_ammo"}
        seen = set()
        for p in self.perks:
            if p.name in seen:
                raise ValueError(f"perk {p.name} is listed twice")
            seen.add(p.name)
            if p.name in needs_x and p.x is None:
                raise ValueError(f"perk {p.name} needs its X value")
            if p.name not in needs_x and p.x is not None:
                raise ValueError(f"perk {p.name} takes no X value")
        return self

    def perk_map(self) -> dict[str, int | None]:
        return {p.name: p.x for p in self.perks}


class ExampleFile(_Model):
    note: str
    chassis: list[Chassis]
    engines: list[Engine]
    weapons: list[Weapon]

    @model_validator(mode="after")
    def _labelled(self):
        for group in (self.chassis, self.engines, self.weapons):
            for entry in group:
                if not entry.example:
                    raise ValueError(f"{entry.key}: shipped cards must be marked example: true")
        return self


# --- engagements -----------------------------------------------------------------------------

SCORING_RULES = (
    "destroyed_rig_vp", "rig_near_objective", "rig_in_enemy_territory", "control_all_objectives",
    "control_at_round", "salvage", "destroy_all_enemy_objectives", "surviving_objectives_vp",
    "destroyed_objectives_vp", "destroyed_rigs_flat_vp", "exit_fraction",
)
VICTORY_RULES = ("most_vp", "last_hvt", "control_all_or_draw", "control_at_round", "destroy_all_objectives",
                 "defender_survives_half", "attacker_exits_half")


class ScoringRule(_Model):
    rule: Literal[SCORING_RULES]
    vp: int | None = None
    within: int | None = None
    round: int | None = None
    heat: int | None = None
    role: str | None = None


class ObjectiveSpec(_Model):
    per_player: int = Field(ge=1)
    structure: int | None = Field(None, ge=1)
    direct: int | None = None
    severe: int | None = None
    critical: int | None = None

    @model_validator(mode="after")
    def _all_or_none(self):
        stats = (self.structure, self.direct, self.severe, self.critical)
        if any(s is not None for s in stats) and any(s is None for s in stats):
            raise ValueError("an objective that can be attacked needs structure, direct, severe and critical")
        return self

    @property
    def attackable(self) -> bool:
        return self.structure is not None


class StartTokens(_Model):
    role: str
    token: str
    round: int = 1


class Engagement(_Model):
    key: str = Field(pattern=r"^[a-z0-9_]+$")
    name: str
    category: Literal["standard", "special"]
    summary: str
    roles: list[str] = []
    objectives: ObjectiveSpec | None = None
    hvt: bool = False
    airdrop: dict[str, int] | None = None
    start_tokens: StartTokens | None = None
    scoring: list[ScoringRule]
    victory: Literal[VICTORY_RULES]
    tie: Literal["draw", "defender"] = "draw"
    note: str = ""

    @model_validator(mode="after")
    def _roles(self):
        if self.roles and len(self.roles) != 2:
            raise ValueError("an engagement with roles names exactly two")
        for r in self.scoring:
            if r.role and r.role not in self.roles:
                raise ValueError(f"scoring rule {r.rule} names role {r.role}, which is not one of {self.roles}")
        return self


class EngagementFile(_Model):
    destroyed_rig_vp: dict[Literal[WEIGHT_CLASSES], int]
    engagements: list[Engagement]


# --- formations ------------------------------------------------------------------------------

class Formation(_Model):
    key: str = Field(pattern=r"^[a-z0-9_]+$")
    name: str
    light: int = Field(ge=0)
    medium: int = Field(ge=0)
    heavy: int = Field(ge=0)
    colossal: int = Field(ge=0)

    def counts(self) -> dict[str, int]:
        return {w: getattr(self, w) for w in WEIGHT_CLASSES}

    def describe(self) -> str:
        return ", ".join(f"{n} {w.title()}" for w, n in self.counts().items() if n)


class Tier(_Model):
    key: str = Field(pattern=r"^[a-z0-9_]+$")
    name: str
    formations: list[Formation] = Field(min_length=1)


class FormationFile(_Model):
    tiers: list[Tier]


# --- loading ---------------------------------------------------------------------------------

def _where(raw, loc: tuple) -> tuple[str, str]:
    """('equipment[3] (smoke_dispensers)', 'iron'): the entry an error is in, named as the file
    names it, and the field inside it."""
    idx = next((i for i, k in enumerate(loc) if isinstance(k, int)), None)
    if idx is None:
        return "file", ".".join(str(x) for x in loc) or "(file)"
    node = raw
    for key in loc[:idx + 1]:
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            node = None
            break
    label = (node.get("key") or node.get("name")) if isinstance(node, dict) else None
    entry = ".".join(str(x) for x in loc[:idx]) + f"[{loc[idx]}]" + (f" ({label})" if label else "")
    return entry, ".".join(str(x) for x in loc[idx + 1:]) or "(entry)"


def _load(path: Path, model: type[BaseModel]):
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as e:
        raise DataError(f"{path.name}: not valid YAML: {e}") from None
    try:
        return model.model_validate(raw)
    except ValidationError as e:
        lines = []
        for err in e.errors():
            entry, field = _where(raw, tuple(err["loc"]))
            lines.append(f"{path.name}: {entry}: {field}: {err['msg']}")
        raise DataError("\n".join(lines)) from None


def _unique(path: Path, entries, what: str) -> dict:
    out = {}
    for e in entries:
        if e.key in out:
            raise DataError(f"{path.name}: {what} “{e.key}” appears twice")
        out[e.key] = e
    return out


@cache
def load_equipment(path: Path | None = None) -> dict[str, EquipmentCard]:
    path = path or ARMYLISTS / "equipment.yaml"
    return _unique(path, _load(path, EquipmentFile).equipment, "equipment")


@cache
def load_perks(path: Path | None = None) -> dict[str, PerkCard]:
    path = path or ARMYLISTS / "perks.yaml"
    return _unique(path, _load(path, PerkFile).perks, "perk")


@cache
def load_examples(path: Path | None = None) -> ExampleFile:
    path = path or ARMYLISTS / "examples.yaml"
    data = _load(path, ExampleFile)
    for group, what in ((data.chassis, "chassis"), (data.engines, "engine"), (data.weapons, "weapon")):
        _unique(path, group, what)
    return data


@cache
def load_engagements(path: Path | None = None) -> EngagementFile:
    path = path or SCENARIOS / "engagements.yaml"
    data = _load(path, EngagementFile)
    _unique(path, data.engagements, "engagement")
    return data


@cache
def load_formations(path: Path | None = None) -> FormationFile:
    path = path or ARMYLISTS / "formations.yaml"
    data = _load(path, FormationFile)
    _unique(path, [f for t in data.tiers for f in t.formations], "formation")
    return data


def formation(key: str) -> tuple[Tier, Formation]:
    for tier in load_formations().tiers:
        for f in tier.formations:
            if f.key == key:
                return tier, f
    raise DataError(f"There is no squadron formation “{key}”.")


def check_formation(rigs: dict[str, dict], formation_key: str) -> None:
    """Refuse a squadron whose Rigs do not match its formation, class by class."""
    _, f = formation(formation_key)
    have = {w: sum(1 for r in rigs.values() if r["weight_class"] == w) for w in WEIGHT_CLASSES}
    if have != f.counts():
        want = ", ".join(f"{n} {w}" for w, n in f.counts().items() if n)
        got = ", ".join(f"{n} {w}" for w, n in have.items() if n) or "no Rigs"
        raise DataError(f"A {f.name} squadron fields {want}; this one has {got}.")


def engagement(key: str) -> Engagement:
    for e in load_engagements().engagements:
        if e.key == key:
            return e
    raise DataError(f"There is no engagement type “{key}”.")


# --- squadron to state ----------------------------------------------------------------------

class RigSpec(_Model):
    """One Rig of a squadron: cards by example key or given in full (as the builder stores them)."""

    id: str = Field(pattern=r"^[A-Za-z0-9_-]+$")
    name: str
    chassis: str | Chassis
    engine: str | Engine | None = None
    weapons: list[str | Weapon | dict] = []
    equipment: list[str | dict] = []


def _card(value, group: dict, model, what: str, rig: str):
    if isinstance(value, str):
        if value not in group:
            raise DataError(f"{rig}: there is no {what} card “{value}”")
        return group[value]
    if isinstance(value, dict):
        try:
            return model.model_validate(value)
        except ValidationError as e:
            raise DataError(f"{rig}: {what}: {e.errors()[0]['loc']}: {e.errors()[0]['msg']}") from None
    return value


def _mounts(weapons: list[tuple[Weapon, str | None]], colossal: bool, rig: str) -> list[str]:
    free = ["left", "right"] + (["hull"] if colossal else [])
    out: list[str | None] = []
    for w, mount in weapons:
        want = mount or ("hull" if "hull" in w.perk_map() else None)
        if want is not None:
            if want not in free:
                raise DataError(f"{rig}: {w.name} cannot go on mount “{want}” (free: {', '.join(free) or 'none'})")
            free.remove(want)
        out.append(want)
    for i, m in enumerate(out):
        if m is None:
            out[i] = free.pop(0)
    return out  # type: ignore[return-value]


def rig_state(spec: RigSpec | dict, player: str, campaign: bool = False) -> dict:
    """The engine's document for one Rig, checked against the squadron-building rules."""
    spec = spec if isinstance(spec, RigSpec) else RigSpec.model_validate(spec)
    ex = load_examples()
    cards = load_equipment()
    who = f"Rig {spec.name}"
    chassis: Chassis = _card(spec.chassis, {c.key: c for c in ex.chassis}, Chassis, "chassis", who)
    engine: Engine | None = _card(spec.engine, {e.key: e for e in ex.engines}, Engine, "engine", who) \
        if spec.engine is not None else None
    weapons: list[tuple[Weapon, str | None]] = []
    for w in spec.weapons:
        mount = None
        if isinstance(w, dict) and "card" in w:
            mount, w = w.get("mount"), w["card"]
        weapons.append((_card(w, {x.key: x for x in ex.weapons}, Weapon, "weapon", who), mount))
    if len(weapons) > chassis.slots:
        raise DataError(f"{who}: a {chassis.weight_class} Rig has {chassis.slots} weapon slots, not {len(weapons)}")
    hull_weapons = [w for w, _ in weapons if "hull" in w.perk_map()]
    if hull_weapons and chassis.weight_class != "colossal":
        raise DataError(f"{who}: {hull_weapons[0].name} is a Hull weapon: only a Colossal can carry it")
    if len(hull_weapons) > 1:
        raise DataError(f"{who}: only one Hull weapon per Rig")
    mounts = _mounts(weapons, chassis.weight_class == "colossal", who)
    weapon_ids = []
    weapon_docs = {}
    for (w, _), mount in zip(weapons, mounts):
        wid = w.key if w.key not in weapon_docs else f"{w.key}_{len(weapon_docs) + 1}"
        weapon_ids.append(wid)
        weapon_docs[wid] = {
            "id": wid, "name": w.name, "mount": mount, "iron": w.iron,
            "profiles": [{"range": p.range, "label": p.label or f'{p.range}"',
                          "rof": p.rof if p.rof is not None else w.rof,
                          "str": p.str_ if p.str_ is not None else w.str_,
                          "acc": p.acc if p.acc is not None else w.acc} for p in w.profiles],
            "perks": w.perk_map(), "loaded": True, "ammo_used": 0, "disabled": False, "destroyed": False,
        }
    equipment_docs = {}
    for item in spec.equipment:
        key, weapon = (item, None) if isinstance(item, str) else (item.get("key"), item.get("weapon"))
        if key not in cards:
            raise DataError(f"{who}: there is no equipment card “{key}”")
        card = cards[key]
        if key in equipment_docs:
            raise DataError(f"{who}: {card.name} can be taken only once per Rig")
        if card.campaign_only and not campaign:
            raise DataError(f"{who}: {card.name} is for campaigns only")
        if card.needs_weapon:
            if weapon is None and len(weapon_ids) == 1:
                weapon = weapon_ids[0]
            if weapon not in weapon_docs:
                raise DataError(f"{who}: {card.name} must name one of the Rig's weapons ({', '.join(weapon_ids)})")
        equipment_docs[key] = {
            "key": key, "name": card.name, "effect_key": card.effect_key, "campaign_only": card.campaign_only,
            "once_per_game": card.once_per_game, "once_per_activation": card.once_per_activation,
            "discard": card.discard, "action": card.action, "heat": card.heat, "weapon": weapon,
            "used": False, "discarded": False, "used_in_activation": None,
        }
    iron_cap = chassis.iron + (1 if "experimental_load_bearing_frame" in equipment_docs else 0)
    iron_used = sum(w.iron for w, _ in weapons) + sum(cards[k].iron for k in equipment_docs) \
        + (engine.iron if engine else 0)
    if iron_used > iron_cap:
        raise DataError(f"{who}: weapons, engine and equipment weigh {iron_used} Iron; the chassis carries {iron_cap}")
    threshold = engine.heat_threshold if engine and engine.heat_threshold is not None else chassis.heat_threshold
    track = engine.heat_track if engine and engine.heat_track is not None else chassis.heat_track
    structure = chassis.structure.model_dump()
    return {
        "id": spec.id, "name": spec.name, "player": player,
        "chassis": chassis.name, "engine": engine.name if engine else "",
        "weight_class": chassis.weight_class, "base_mm": chassis.base_mm or BASE_SIZES[chassis.weight_class],
        "speed": chassis.speed + (engine.speed_bonus if engine else 0), "pivot": chassis.pivot, "aim": chassis.aim,
        "iron": iron_cap, "iron_used": iron_used,
        "exhaust": engine.exhaust if engine and engine.exhaust is not None else chassis.exhaust,
        "heat_threshold": threshold, "heat_track": track,
        "first_numbered_heat_space": chassis.first_numbered_heat_space or min(threshold + 1, track),
        "armour": chassis.armour.model_dump(), "structure_max": dict(structure), "structure": dict(structure),
        "weapons": weapon_docs, "equipment": equipment_docs,
        "catastrophic": [], "arm_weapons_lost": [], "heat": 0, "actions_left": 0, "activated": False,
        "status": {}, "prepare_tokens": [], "destroyed": False, "exited": False, "hvt": False, "heat_rolled": None,
    }


def squadron_state(player: str, rigs: list[RigSpec | dict], campaign: bool = False) -> dict[str, dict]:
    """The Rig documents of one player's squadron, keyed by Rig id."""
    out: dict[str, dict] = {}
    for spec in rigs:
        doc = rig_state(spec, player, campaign)
        if doc["id"] in out:
            raise DataError(f"Two Rigs share the id “{doc['id']}”")
        out[doc["id"]] = doc
    return out
