"""The Of Oil and Iron card formats: equipment cards (Tables A and C), perks, the chassis, engine
and weapon cards (shipped examples or the players' own), and squadron formations by tier.

These pydantic models validate ``armylists/oilandiron/*.yaml`` and the cards a squadron carries;
:mod:`referee.data.oilandiron` loads the files with them. The format is described in
``armylists/oilandiron/README.md``.
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..oilandiron.engagement_rules import WEIGHT_CLASSES

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
