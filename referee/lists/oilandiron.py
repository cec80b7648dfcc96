"""An Of Oil and Iron squadron: a tier and formation, and Rigs built from chassis, engine,
weapon and equipment cards.

Players enter the rulebook's cards themselves (the Rig builder); those cards travel inside the
list (``cards``) so an exported squadron opens on another tablet exactly as it was. Shipped
example cards are used by key. Like the army builder, a draft keeps whatever the player put in;
``check_squadron`` says what breaks the squadron-building rules, and where.
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ..data.oilandiron import (
    BASE_SIZES,
    WEIGHT_CLASSES,
    Chassis,
    DataError,
    Engine,
    EquipmentCard,
    RigSpec,
    Weapon,
    load_equipment,
    load_examples,
    rig_state,
)
from ..systems import OIL_AND_IRON
from .formations import formation, load_tiers
from .problems import Problem, picked, placed

NAME = Field(max_length=80)
LOAD_BEARING_FRAME = "experimental_load_bearing_frame"
# The builder's rows, each drawn with its own problems (``problems.row_of``): a Rig (its name,
# chassis, engine and Iron), its weapons and equipment as a whole and one by one, each card typed
# in; the rest (name, tier and formation, the Rigs the formation fields) is the head.
ROWS = ("rigs.#", "rigs.#.weapons", "rigs.#.weapons.#", "rigs.#.equipment", "rigs.#.equipment.#",
        "cards.chassis.#", "cards.engines.#", "cards.weapons.#", "notes")


class _Part(BaseModel):
    model_config = ConfigDict(extra="forbid")


class WeaponPick(_Part):
    card: str = Field(max_length=80)  # a weapon card key: the list's own cards or a shipped example
    mount: Literal["left", "right", "hull"] | None = None  # left out: the next free mount


class EquipmentPick(_Part):
    key: str = Field(max_length=80)  # an equipment card key (Tables A and C)
    weapon: str | None = Field(None, max_length=80)  # the weapon card it improves (High Calibre Ammunition)


class SquadronRig(_Part):
    name: str = NAME
    chassis: str = Field(max_length=80)
    engine: str | None = Field(None, max_length=80)
    weapons: list[WeaponPick] = []
    equipment: list[EquipmentPick] = []


class Cards(_Part):
    """Cards the players typed in from their Rig Control Terminals, Engine and Weapon Cards."""

    chassis: list[Chassis] = []
    engines: list[Engine] = []
    weapons: list[Weapon] = []


class Squadron(_Part):
    system: Literal[OIL_AND_IRON] = OIL_AND_IRON
    name: str = NAME
    tier: str = Field(max_length=40)
    formation: str = Field(max_length=40)
    campaign: bool = False
    rigs: list[SquadronRig] = []
    cards: Cards = Cards()
    notes: str = Field("", max_length=2000)


def blank_squadron(name: str = "", tier: str = "skirmish", formation_key: str = "sword") -> Squadron:
    return Squadron(name=name, tier=tier, formation=formation_key)


# --- cards the squadron can use ----------------------------------------------------------------

def chassis_cards(sq: Squadron) -> dict[str, Chassis]:
    return {**{c.key: c for c in load_examples().chassis}, **{c.key: c for c in sq.cards.chassis}}


def engine_cards(sq: Squadron) -> dict[str, Engine]:
    return {**{e.key: e for e in load_examples().engines}, **{e.key: e for e in sq.cards.engines}}


def weapon_cards(sq: Squadron) -> dict[str, Weapon]:
    return {**{w.key: w for w in load_examples().weapons}, **{w.key: w for w in sq.cards.weapons}}


def equipment_for(sq: Squadron) -> list[EquipmentCard]:
    """The equipment the builder offers: campaign-only cards only in a campaign squadron."""
    return [c for c in load_equipment().values() if sq.campaign or not c.campaign_only]


def rig_iron(sq: Squadron, rig: SquadronRig) -> tuple[int, int]:
    """(Iron used, Iron the chassis carries) for one Rig, counting only cards that exist."""
    chassis = chassis_cards(sq).get(rig.chassis)
    engines, weapons, equipment = engine_cards(sq), weapon_cards(sq), load_equipment()
    used = (engines[rig.engine].iron if rig.engine in engines else 0) \
        + sum(weapons[w.card].iron for w in rig.weapons if w.card in weapons) \
        + sum(equipment[e.key].iron for e in rig.equipment if e.key in equipment)
    cap = (chassis.iron if chassis else 0) + (1 if any(e.key == LOAD_BEARING_FRAME for e in rig.equipment) else 0)
    return used, cap


# --- checking ----------------------------------------------------------------------------------

def _label(i: int, name: str) -> str:
    return f"Rig {i + 1} “{name}”" if name.strip() else f"Rig {i + 1}"


def _check_cards(sq: Squadron, out: list[Problem]) -> None:
    shipped = {"chassis": {c.key for c in load_examples().chassis},
               "engines": {e.key for e in load_examples().engines},
               "weapons": {w.key for w in load_examples().weapons}}
    for group, label in (("chassis", "Chassis card"), ("engines", "Engine card"), ("weapons", "Weapon card")):
        seen: set[str] = set()
        for i, card in enumerate(getattr(sq.cards, group)):
            where = f"{label} “{card.name}”"
            if card.key in shipped[group]:
                out.append(Problem(f"cards.{group}.{i}.key", where,
                                   f"the key “{card.key}” is taken by a shipped example card; choose another"))
            if card.key in seen:
                out.append(Problem(f"cards.{group}.{i}.key", where, f"two cards share the key “{card.key}”"))
            seen.add(card.key)


def _check_rig(sq: Squadron, i: int, rig: SquadronRig, out: list[Problem]) -> None:
    path, where = f"rigs.{i}", _label(i, rig.name)
    chassis_all, engines, weapons, equipment = chassis_cards(sq), engine_cards(sq), weapon_cards(sq), load_equipment()
    if not rig.name.strip():
        out.append(Problem(f"{path}.name", where, "the Rig needs a name"))
    chassis = picked(chassis_all, rig.chassis, f"{path}.chassis", where, out, "choose a chassis card", "chassis card")
    if rig.engine is not None and rig.engine not in engines:
        out.append(Problem(f"{path}.engine", where, f"there is no engine card “{rig.engine}”"))
    slots = 3 if chassis and chassis.weight_class == "colossal" else 2
    if len(rig.weapons) > slots:
        kind = chassis.weight_class.title() if chassis else "This"
        out.append(Problem(f"{path}.weapons", where,
                           f"{len(rig.weapons)} weapons, but a {kind} Rig has {slots} weapon slots"))
    mounts: dict[str, int] = {}
    hull_weapons = 0
    for w_i, pick in enumerate(rig.weapons):
        wpath = f"{path}.weapons.{w_i}"
        card = picked(weapons, pick.card, f"{wpath}.card", where, out,
                      "choose a weapon card, or take the empty slot out", "weapon card")
        if card is None:
            continue
        is_hull = "hull" in card.perk_map() or pick.mount == "hull"
        if is_hull:
            hull_weapons += 1
            if chassis and chassis.weight_class != "colossal":
                field = "mount" if pick.mount == "hull" else "card"
                out.append(Problem(f"{wpath}.{field}", where,
                                   f"{card.name} is Hull-mounted: only a Colossal Rig has a Hull mount"))
        if pick.mount:
            mounts[pick.mount] = mounts.get(pick.mount, 0) + 1
            if mounts[pick.mount] == 2:
                out.append(Problem(f"{wpath}.mount", where, f"two weapons on the {pick.mount} mount"))
    if hull_weapons > 1:
        out.append(Problem(f"{path}.weapons", where, f"{hull_weapons} Hull-mounted weapons: only one per Rig"))
    seen: set[str] = set()
    for e_i, pick in enumerate(rig.equipment):
        epath = f"{path}.equipment.{e_i}"
        card = picked(equipment, pick.key, f"{epath}.key", where, out,
                      "choose an equipment card, or take the empty row out", "equipment card")
        if card is None:
            continue
        if pick.key in seen:
            out.append(Problem(f"{epath}.key", where, f"{card.name} is taken twice: each equipment once per Rig"))
        seen.add(pick.key)
        if card.campaign_only and not sq.campaign:
            out.append(Problem(f"{epath}.key", where, f"{card.name} is for campaigns only"))
        if card.needs_weapon:
            own = [w.card for w in rig.weapons]
            if pick.weapon is None and len(own) != 1:
                out.append(Problem(f"{epath}.weapon", where, f"{card.name} must name one of the Rig's weapons"))
            elif pick.weapon is not None and pick.weapon not in own:
                out.append(Problem(f"{epath}.weapon", where,
                                   f"{card.name} names “{pick.weapon}”, which this Rig does not carry"))
        elif pick.weapon is not None:
            out.append(Problem(f"{epath}.weapon", where, f"{card.name} does not name a weapon"))
    used, cap = rig_iron(sq, rig)
    if chassis and used > cap:
        out.append(Problem(f"{path}.iron", where, f"weapons, engine and equipment weigh {used} Iron; "
                                                  f"the chassis carries {cap}"))


def check_squadron(sq: Squadron) -> list[Problem]:
    out: list[Problem] = []
    if not sq.name.strip():
        out.append(Problem("name", "Squadron", "the squadron needs a name"))
    tiers = load_tiers()
    form = formation(sq.tier, sq.formation)
    if sq.tier not in tiers:
        out.append(Problem("tier", "Squadron", f"there is no tier “{sq.tier}” (Skirmish, Operation or Warfront)"))
    elif form is None:
        names = ", ".join(f.name for f in tiers[sq.tier].formations)
        out.append(Problem("formation", "Squadron",
                           f"“{sq.formation}” is not a {tiers[sq.tier].name} formation ({names})"))
    _check_cards(sq, out)
    chassis_all = chassis_cards(sq)
    if form is not None:
        have = {w: 0 for w in WEIGHT_CLASSES}
        for rig in sq.rigs:
            if rig.chassis in chassis_all:
                have[chassis_all[rig.chassis].weight_class] += 1
        need = form.counts()
        if have != need:
            diffs = []
            for w in WEIGHT_CLASSES:
                if have[w] < need[w]:
                    diffs.append(f"{need[w] - have[w]} {w.title()} missing")
                elif have[w] > need[w]:
                    diffs.append(f"{have[w] - need[w]} {w.title()} too many")
            out.append(Problem("rigs", "Squadron",
                               f"{form.name} fields {form.describe()}: {', '.join(diffs)}"))
    if not sq.rigs:
        out.append(Problem("rigs", "Squadron", "the squadron has no Rigs"))
    for i, rig in enumerate(sq.rigs):
        _check_rig(sq, i, rig, out)
    if not out:
        # The engine's own squadron checks have the last word: anything they refuse is reported.
        try:
            squadron_rigs(sq, "p1")
        except DataError as e:
            out.append(Problem("rigs", "Squadron", str(e)))
    return placed(out, ROWS)


# --- to an engagement -------------------------------------------------------------------------

def _rig_spec(sq: Squadron, rig: SquadronRig, rig_id: str) -> RigSpec:
    weapons = weapon_cards(sq)
    picks = [weapons[w.card] for w in rig.weapons]
    # The engine names a Rig's weapons by card key (a second copy gets a suffix); equipment
    # that improves a weapon points at the first weapon of that card.
    weapon_ids: dict[str, str] = {}
    taken: list[str] = []
    for w in picks:
        wid = w.key if w.key not in taken else f"{w.key}_{len(taken) + 1}"
        taken.append(wid)
        weapon_ids.setdefault(w.key, wid)
    return RigSpec(
        id=rig_id, name=rig.name, chassis=chassis_cards(sq)[rig.chassis],
        engine=engine_cards(sq)[rig.engine] if rig.engine else None,
        weapons=[{"card": card, "mount": pick.mount} for card, pick in zip(picks, rig.weapons)],
        equipment=[{"key": e.key, "weapon": weapon_ids.get(e.weapon) if e.weapon else None} for e in rig.equipment],
    )


def squadron_rigs(sq: Squadron, player: str, iron: list[int] | None = None) -> dict[str, dict]:
    """The engine's Rig documents for this squadron, played by ``player`` ("p1" or "p2").
    ``iron``: the Iron each Rig carries as a campaign's roster records it (``rig_state``)."""
    out: dict[str, dict] = {}
    for i, rig in enumerate(sq.rigs):
        rig_id = f"{player}-r{i + 1}"
        out[rig_id] = rig_state(_rig_spec(sq, rig, rig_id), player, sq.campaign, iron[i] if iron else None)
    return out


def base_size(chassis: Chassis) -> int:
    return chassis.base_mm or BASE_SIZES[chassis.weight_class]
