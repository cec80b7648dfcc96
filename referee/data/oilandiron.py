"""Of Oil and Iron data: reading ``armylists/oilandiron/`` and ``scenarios/oilandiron/``, building
a squadron's Rig documents, and turning squadrons and an engagement type into the engine's
:class:`~referee.oilandiron.setup.EngagementSetup`.

The YAML files are validated with the card models (:mod:`referee.data.oilandiron_cards`) and the
engine's engagement rules; a bad file raises :class:`DataError` naming the file, the entry and the
field. ``squadron_state`` turns a squadron (chassis, engine, weapons, equipment per Rig) into the
Rig documents the engine plays with; ``engagement_setup`` gathers everything a new engagement needs
(the engine reads no file: ``new_game`` copies what it will need into the document). The format is
described in ``armylists/oilandiron/README.md``.
"""
from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..core.errors import DataError, RuleError
from ..oilandiron.engagement_rules import EngagementRules
from ..oilandiron.engagements import SCORING
from ..oilandiron.model import PLAYERS
from ..oilandiron.setup import EngagementSetup, Side, SquadronFormation, new_game
from ..systems import OIL_AND_IRON
from .oilandiron_cards import (
    BASE_SIZES,
    EFFECT_KEYS,
    LOCATIONS,
    MOUNTS,
    PERK_KEYS,
    WEIGHT_CLASSES,
    Chassis,
    Engine,
    EquipmentCard,
    EquipmentFile,
    ExampleFile,
    Formation,
    FormationFile,
    PerkCard,
    PerkFile,
    Tier,
    Weapon,
)
from .root import ROOT

__all__ = [
    "BASE_SIZES", "EFFECT_KEYS", "LOCATIONS", "MOUNTS", "PERK_KEYS", "WEIGHT_CLASSES", "Chassis", "DataError", "Engine",
    "EngagementFile", "EquipmentCard", "ExampleFile", "Formation", "PerkCard", "RigSpec", "Tier", "Weapon",
    "check_formation", "engagement", "engagement_setup", "example_squadrons", "formation", "load_engagements",
    "load_equipment", "load_example_squadrons", "load_examples", "load_formations", "load_perks", "rig_state",
    "setup_engagement", "squadron_state",
]

ARMYLISTS = ROOT / "armylists" / OIL_AND_IRON
SCENARIOS = ROOT / "scenarios" / OIL_AND_IRON


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class EngagementFile(_Model):
    destroyed_rig_vp: dict[Literal[WEIGHT_CLASSES], int]
    engagements: list[EngagementRules]


class ExampleRig(_Model):
    name: str = Field(min_length=1)
    chassis: str
    engine: str | None = None
    weapons: list[str] = []
    equipment: list[str] = []


class ExampleSquadronFile(_Model):
    note: str
    squadrons: dict[Literal[PLAYERS], list[ExampleRig]]


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
    """The engagement types, each carrying the file's destroyed-Rig VP table (so the document an
    engagement is copied into has it), each one with its scoring in the engine."""
    path = path or SCENARIOS / "engagements.yaml"
    data = _load(path, EngagementFile)
    _unique(path, data.engagements, "engagement")
    for i, e in enumerate(data.engagements):
        if e.key not in SCORING:
            raise DataError(path.name, f"engagements[{i}] ({e.key})", "key",
                            "Referee has no scoring for this engagement type")
    cards = [e if e.destroyed_rig_vp is not None else e.model_copy(update={"destroyed_rig_vp": data.destroyed_rig_vp})
             for e in data.engagements]
    return data.model_copy(update={"engagements": cards})


@cache
def load_example_squadrons(path: Path | None = None) -> ExampleSquadronFile:
    """The ready-made squadrons of example cards the start form opens with; every card they name
    must exist (each is built once here, so a bad key is found when the file is read)."""
    path = path or ARMYLISTS / "example_squadrons.yaml"
    data = _load(path, ExampleSquadronFile)
    for side, rigs in data.squadrons.items():
        try:
            squadron_state(side, [{**r.model_dump(), "id": f"{side}-{i + 1}"} for i, r in enumerate(rigs)])
        except DataError as e:
            raise DataError(f"{path.name}: squadrons.{side}: {e}") from None
    return data


def example_squadrons() -> dict[str, list[dict]]:
    """{player: [Rig as the start form shows it: name, chassis, engine, weapons, equipment]}."""
    return {side: [r.model_dump() for r in rigs] for side, rigs in load_example_squadrons().squadrons.items()}


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


def engagement(key: str) -> EngagementRules:
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


def rig_state(spec: RigSpec | dict, player: str, campaign: bool = False, iron: int | None = None) -> dict:
    """The engine's document for one Rig, checked against the squadron-building rules. ``iron``:
    the Iron it carries as a campaign's roster records it (its chassis's and each Experimental
    Load-Bearing Frame given to it, whichever Rig carries the frame); None: its chassis's, 1 more
    when it carries the frame itself (the squadron builder's reading)."""
    if not isinstance(spec, RigSpec):
        try:
            spec = RigSpec.model_validate(spec)
        except ValidationError as e:  # a typed Rig with a field the card does not have, or a bad value
            err = e.errors()[0]
            where = ".".join(str(p) for p in err["loc"]) or "the Rig"
            name = spec.get("name", "a Rig") if isinstance(spec, dict) else "a Rig"
            raise DataError(f"Rig {name}: {where}: {err['msg']}") from None
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
    iron_cap = iron if iron is not None else \
        chassis.iron + (1 if "experimental_load_bearing_frame" in equipment_docs else 0)
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


# --- a new engagement ----------------------------------------------------------------------------

def squadron_formation(key: str) -> SquadronFormation:
    tier, f = formation(key)
    return SquadronFormation(key=f.key, name=f.name, tier=tier.key, counts=f.counts())


def engagement_setup(name: str, players: dict, rigs: dict, engagement_key: str | None = None,
                     objectives: dict | None = None, settings: dict | None = None, campaign: bool = False,
                     hvt: dict | None = None) -> EngagementSetup:
    """The engine's setup for a new engagement.

    ``players``: {"p1": {"name", "role", "squadron", "formation"}, "p2": {...}} (formation by key);
    ``rigs``: Rig documents keyed by id (``squadron_state``), each naming its player;
    ``engagement_key``: the engagement type (None: a game nobody scores); ``objectives``: {id:
    {"name", "owner"}} as set out on the table (left out: the type's count for each player);
    ``hvt``: {player: Rig id}.
    """
    rules = engagement(engagement_key) if engagement_key else None
    if set(players) != set(PLAYERS):
        raise RuleError("An engagement has two players, p1 and p2.")
    for r in rigs.values():
        if r.get("player") not in PLAYERS:
            raise RuleError(f"Rig {r.get('name')} belongs to no player.")
    # A side's name as the table calls it: never the id, and two squadrons of one list told apart
    # (as a campaign imported under a name already here is, ``table/campaign_file.free_name``).
    names = {pid: str(p.get("name") or "").strip() or f"Player {pid[1:]}" for pid, p in players.items()}
    if names["p1"] == names["p2"]:
        names["p2"] = f"{names['p2']} (player 2)"
    sides = {}
    for pid, p in players.items():
        sides[pid] = Side(name=names[pid], role=p.get("role"), squadron=p.get("squadron") or "",
                          formation=squadron_formation(p["formation"]) if p.get("formation") else None,
                          rigs={rid: r for rid, r in rigs.items() if r["player"] == pid})
    try:
        return EngagementSetup(name=name or "Engagement", engagement=rules, sides=sides, objectives=objectives,
                               hvt=hvt or {}, settings=settings or {}, campaign=campaign)
    except ValidationError as e:
        err = e.errors()[0]
        raise DataError(f"The engagement cannot start: {'.'.join(map(str, err['loc']))}: {err['msg']}") from None


def setup_engagement(name: str, players: dict, rigs: dict, engagement_key: str | None = None,
                     objectives: dict | None = None, settings: dict | None = None, campaign: bool = False,
                     hvt: dict | None = None) -> dict:
    """A new engagement document (``engagement_setup``, then the engine's ``new_game``)."""
    return new_game(engagement_setup(name, players, rigs, engagement_key, objectives, settings, campaign, hvt))
