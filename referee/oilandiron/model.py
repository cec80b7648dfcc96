"""The Of Oil and Iron engagement as the engines see it: Rigs, weapons, equipment, objectives,
players, settings.

The state is one JSON document (built by ``setup.new_game``); ``Engagement.from_doc`` reads it
into frozen dataclasses. Engines never mutate it: they write through the one change builder
(``writing.builder``), a working copy that records every change, so a chain of steps (a hit, its
catastrophic effect, the overflow) reads its own earlier writes.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from ..core.errors import DataError, RuleError
from ..core.reading import SettingsRecord, from_fields
from .engagement_rules import WEIGHT_CLASSES as WEIGHT_CLASSES  # the weight classes, as Rigs are read
from .engagement_rules import EngagementRules

LOCATIONS = ("hull", "arms", "legs", "engine")
LOCATION_LABELS = {"hull": "Hull", "arms": "Arms", "legs": "Legs", "engine": "Engine"}
RAM_STR = {"light": 7, "medium": 8, "heavy": 9, "colossal": 10}
PHASES = ("initiative", "activation", "maintenance")
PHASE_LABELS = {"initiative": "Initiative", "activation": "Activation", "maintenance": "Maintenance"}
PLAYERS = ("p1", "p2")
ACTIONS_PER_ACTIVATION = 5

# Status effects and how long they last. "next_activation": through the Rig's next activation
# (cleared when it ends); "until_next_activation": cleared when the Rig next activates;
# "until_repaired": until a successful repair of the named location; "permanent".
STATUS_LABELS = {
    "immobilised": "Immobilised (Impale)",
    "shock": "Shocked: half movement",
    "hydraulic_blowout": "Hydraulic Blowout: Speed −2\"",
    "fuel_line_rupture": "Fuel Line Rupture: damage each activation",
    "skip_activation": "Skips its next activation (Emergency Shutdown)",
    "engine_failure": "Engine Failure: heat cannot fall",
    "catastrophic_failure": "Catastrophic Failure: heat cannot fall",
    "scrambled": "Radio scrambled: −2 actions",
    "smoke": "Smokescreen: −2 ACC to attacks from 6\"+",
    "vent_primed": "Heat vent primed: next attack −1 heat, −1 ACC",
    "no_heat_next_action": "External Fuel Tanks: next action adds no heat",
    "legs_immobilised": "Immobilised for good (Legs lost twice): pivot only",
    "flare_lit": "Flare burning: Rigs within 12\" of it get +2 ACC",
}
STATUS_DURATIONS = {
    "immobilised": "next_activation", "shock": "next_activation", "scrambled": "next_activation",
    "skip_activation": "next_activation", "smoke": "until_next_activation",
    "hydraulic_blowout": "until_repaired", "fuel_line_rupture": "until_repaired",
    "engine_failure": "permanent", "catastrophic_failure": "permanent",
    "vent_primed": "this_activation", "no_heat_next_action": "next_action", "legs_immobilised": "permanent",
    "flare_lit": "until_next_activation",
}
# The location whose successful repair ends a heat-table effect (Engine Failure only with the
# setting ``engine_failure_repairable``).
REPAIRED_BY = {"hydraulic_blowout": "legs", "fuel_line_rupture": "hull", "engine_failure": "engine"}




@dataclass(frozen=True)
class Settings(SettingsRecord):
    """Rule readings where the summary is silent (``shared/RULES-GAPS.md``)."""

    exhaust_when: str = "maintenance"
    reload_after_firing: bool = True
    on_hit_perks_per: str = "attack"
    fuel_line_rupture_damage: str = "hit_location"
    chain_reaction_limit: int = 5
    ram_strength_from: str = "other"
    engine_failure_repairable: bool = False

    CHOICES = {
        "ram_strength_from": ("other", "rammer"),
        "exhaust_when": ("maintenance", "activation"),
        "on_hit_perks_per": ("attack", "hit"),
        "fuel_line_rupture_damage": ("hit_location", "d12_hull"),
    }
    DESCRIPTIONS = {
        "exhaust_when": "When Engine Exhaust lowers heat: in the Maintenance phase after the Heat Threshold "
                        "roll (default) or at the end of each Rig's activation.",
        "reload_after_firing": "A ranged weapon that fired is empty until a Reload action (Melee weapons never are).",
        "on_hit_perks_per": "Impale, Shock, Staggering and Incendiary take effect once for an attack that hits "
                            "(default) or once for every hit.",
        "fuel_line_rupture_damage": "The ongoing Fuel Line Rupture damage at the start of each activation: 1 SP "
                                    "to a location rolled on the hit-location D12 (default), or D12 SP to the Hull.",
        "ram_strength_from": "Ram hits use the Ram STR of the other Rig's weight class (default: the heavier "
                             "the Rig you hit, the harder it hits you back) or of the rammer's class for both.",
        "chain_reaction_limit": "How many times a Chain Reaction may roll again in one Maintenance roll.",
        "engine_failure_repairable": "After an Engine Failure heat never falls again (default), or only until a "
                                     "successful repair of the Engine.",
    }



@dataclass(frozen=True)
class Weapon:
    id: str
    name: str
    mount: str
    profiles: tuple[dict, ...]
    perks: dict
    iron: int = 0
    loaded: bool = True
    ammo_used: int = 0
    disabled: bool = False
    destroyed: bool = False

    def has(self, perk: str) -> bool:
        return perk in self.perks

    def x(self, perk: str) -> int:
        return int(self.perks.get(perk) or 0)

    @property
    def ammo_left(self) -> int | None:
        return self.x("limited_ammo") - self.ammo_used if self.has("limited_ammo") else None

    @classmethod
    def from_dict(cls, d: dict) -> "Weapon":
        return from_fields(cls, d, profiles=tuple(d.get("profiles", ())), perks=dict(d.get("perks", {})))


@dataclass(frozen=True)
class Equipment:
    key: str
    name: str
    effect_key: str
    campaign_only: bool = False
    once_per_game: bool = False
    once_per_activation: bool = False
    discard: bool = False
    action: bool = False
    heat: int = 1
    weapon: str | None = None
    used: bool = False
    discarded: bool = False
    used_in_activation: str | None = None

    @property
    def available(self) -> bool:
        return not self.discarded and not (self.once_per_game and self.used)

    @classmethod
    def from_dict(cls, d: dict) -> "Equipment":
        return from_fields(cls, d)


@dataclass(frozen=True)
class Rig:
    id: str
    name: str
    player: str
    weight_class: str
    speed: int
    pivot: int
    aim: int
    exhaust: int
    heat_threshold: int
    heat_track: int
    armour: dict
    structure_max: dict
    structure: dict
    weapons: dict[str, Weapon] = field(default_factory=dict)
    equipment: dict[str, Equipment] = field(default_factory=dict)
    first_numbered_heat_space: int = 1
    base_mm: int = 0
    catastrophic: tuple[str, ...] = ()
    arm_weapons_lost: tuple[str, ...] = ()
    heat: int = 0
    actions_left: int = 0
    activated: bool = False
    status: dict = field(default_factory=dict)
    prepare_tokens: tuple[str, ...] = ()
    destroyed: bool = False
    exited: bool = False
    hvt: bool = False
    heat_rolled: int | None = None  # the round of its last Heat Threshold roll
    # A campaign's Rig: {"xp", "rank", "traits": [{name, effect, negative}], "rules": {effect:
    # {amount, trait}}, "repair_rolled"}; its traits' figures are already in the fields above.
    campaign: dict = field(default_factory=dict)

    @classmethod
    def from_dict(cls, d: dict) -> "Rig":
        return from_fields(
            cls, d,
            weapons={k: Weapon.from_dict(v) for k, v in d.get("weapons", {}).items()},
            equipment={k: Equipment.from_dict(v) for k, v in d.get("equipment", {}).items()},
            # games started from a campaign before its lasting effects were kept as durations hold {"until": ...}
            status={k: v["until"] if isinstance(v, dict) else v for k, v in d.get("status", {}).items()},
            campaign=dict(d.get("campaign") or {}),
            **{name: tuple(d.get(name, ())) for name in ("catastrophic", "arm_weapons_lost", "prepare_tokens")})

    # --- derived ---
    def trait_rule(self, effect: str) -> tuple[int, str]:
        """(amount, the trait's name) of a campaign repair trait that changes a rule; (0, "") for none."""
        rule = (self.campaign.get("rules") or {}).get(effect)
        return (rule["amount"], rule["trait"]) if rule else (0, "")

    @property
    def in_play(self) -> bool:
        return not (self.destroyed or self.exited)

    def is_catastrophic(self, location: str) -> bool:
        return location in self.catastrophic

    def gear(self, effect_key: str) -> Equipment | None:
        """The Rig's equipment card with this effect, if it still has it (not discarded)."""
        for e in self.equipment.values():
            if e.effect_key == effect_key and not e.discarded:
                return e
        return None

    @property
    def heat_locked(self) -> bool:
        """Engine Failure and Catastrophic Failure: heat can no longer go down."""
        return "engine_failure" in self.status or "catastrophic_failure" in self.status

    @property
    def heat_floor(self) -> int:
        return self.first_numbered_heat_space if self.is_catastrophic("engine") else 0

    @property
    def above_threshold(self) -> bool:
        return self.heat > self.heat_threshold

    @property
    def max_actions(self) -> int:
        n = ACTIONS_PER_ACTIVATION
        if self.is_catastrophic("hull"):
            n -= 2
        return max(0, n)

    def weapon(self, weapon_id: str) -> Weapon:
        try:
            return self.weapons[weapon_id]
        except KeyError:
            raise RuleError(f"{self.name} has no weapon “{weapon_id}”.") from None


@dataclass(frozen=True)
class Objective:
    id: str
    name: str
    owner: str | None = None
    structure: int | None = None
    structure_max: int | None = None
    direct: int | None = None
    severe: int | None = None
    critical: int | None = None
    destroyed: bool = False
    controlled_by: str | None = None
    collected_by: tuple[str, ...] = ()

    @property
    def attackable(self) -> bool:
        return self.structure_max is not None

    @classmethod
    def from_dict(cls, d: dict) -> "Objective":
        return from_fields(cls, d, collected_by=tuple(d.get("collected_by", ())))


@dataclass(frozen=True)
class Player:
    id: str
    name: str
    role: str | None = None
    vp: int = 0
    squadron: str = ""
    formation: str | None = None

    @classmethod
    def from_dict(cls, d: dict) -> "Player":
        return from_fields(cls, d)


@dataclass(frozen=True)
class Engagement:
    """A read-only view of the engagement document."""

    doc: dict
    rigs: dict[str, Rig]
    players: dict[str, Player]
    objectives: dict[str, Objective]
    settings: Settings
    round: int
    phase: str
    starting_player: str | None
    current_player: str | None
    active_rig: str | None
    engagement_type: str | None
    campaign: bool
    ended: bool
    winner: str | None

    @classmethod
    def from_doc(cls, doc: dict) -> "Engagement":
        return cls(
            doc=doc,
            rigs={k: Rig.from_dict(v) for k, v in doc.get("rigs", {}).items()},
            players={k: Player.from_dict(v) for k, v in doc.get("players", {}).items()},
            objectives={k: Objective.from_dict(v) for k, v in doc.get("objectives", {}).items()},
            settings=Settings.from_dict(doc.get("settings")),
            round=doc.get("round", 1),
            phase=doc.get("phase", "initiative"),
            starting_player=doc.get("starting_player"),
            current_player=doc.get("current_player"),
            active_rig=doc.get("active_rig"),
            engagement_type=doc.get("engagement_type"),
            campaign=doc.get("campaign", False),
            ended=doc.get("ended", False),
            winner=doc.get("winner"),
        )

    @cached_property
    def rules(self) -> EngagementRules | None:
        """The engagement type's rules, as copied into the document when the game began."""
        raw = self.doc.get("engagement_rules")
        if raw is None:
            if self.engagement_type:
                raise DataError(f"This engagement's document lacks the rules of “{self.engagement_type}”: "
                                "bring the database up to date (alembic upgrade head).")
            return None
        return EngagementRules.model_validate(raw)

    def rig(self, rig_id: str) -> Rig:
        try:
            return self.rigs[rig_id]
        except KeyError:
            raise RuleError(f"There is no Rig “{rig_id}” in this engagement.") from None

    def objective(self, objective_id: str) -> Objective:
        try:
            return self.objectives[objective_id]
        except KeyError:
            raise RuleError(f"There is no objective “{objective_id}” in this engagement.") from None

    def rigs_of(self, player: str) -> list[Rig]:
        return [r for r in self.rigs.values() if r.player == player]

    def other(self, player: str) -> str:
        return "p2" if player == "p1" else "p1"

    def player_name(self, player: str) -> str:
        p = self.players.get(player)
        return p.name if p else player

    def player_with_role(self, role: str) -> str | None:
        for p in self.players.values():
            if p.role == role:
                return p.id
        return None

    def require_phase(self, phase: str, refusal: str) -> None:
        """Refuse anything once the engagement is over, and outside ``phase`` with ``refusal``."""
        if self.ended:
            raise RuleError("The engagement is over.")
        if self.phase != phase:
            raise RuleError(refusal)

