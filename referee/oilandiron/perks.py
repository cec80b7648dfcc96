"""Weapon perks: what each one changes in an attack (ROF, STR, ACC, heat, how hit dice count, the
impact roll, and the effects when an attack hits). Hull and Limited Ammo limits are checked when
the squadron is built and when the weapon is fired; Melee and Precision in the attack's checks."""
from __future__ import annotations

from dataclasses import dataclass

from ..core.results import Modifier
from .damage import DamageContext
from .heat import raise_heat, set_status
from .model import Weapon
from .writing import rig_now

PERK_LABELS = {
    "armour_piercing": "Armour Piercing", "bombardment": "Bombardment", "charged_shot": "Charged Shot",
    "explosive": "Explosive", "flak": "Flak", "full_auto": "Full Auto", "hot": "Hot", "hull": "Hull",
    "impale": "Impale", "incendiary": "Incendiary", "limited_ammo": "Limited Ammo", "melee": "Melee",
    "precision": "Precision", "shock": "Shock", "staggering": "Staggering", "sustained_fire": "Sustained Fire",
}
STAGGER = {1: "turns 90° to its left", 2: "turns 90° to its left", 3: "is shoved 2\" straight back",
           4: "is shoved 2\" straight back", 5: "turns 90° to its right", 6: "turns 90° to its right"}


def perk_names(weapon: Weapon) -> str:
    return ", ".join(PERK_LABELS[p] + (f" {x}" if x else "") for p, x in weapon.perks.items()) or "none"


def rate_of_fire(weapon: Weapon, profile: dict) -> tuple[int, list[Modifier]]:
    mods = []
    if weapon.has("full_auto"):
        mods.append(Modifier(2, "Full Auto", "ROF"))
    return profile["rof"] + sum(m.amount for m in mods), mods


def firing_heat(weapon: Weapon) -> tuple[int, str]:
    if weapon.has("hot"):
        return 2, "Hot weapon fired"
    return 1, "weapon fired"


def hits_from_die(value: int, aim: int, weapon: Weapon) -> int:
    """A die meeting the effective Aim hits, a 6 always hits; Sustained Fire makes a 6 two hits."""
    if value == 6:
        return 2 if weapon.has("sustained_fire") else 1
    return 1 if value >= aim else 0


def ones_heat(weapon: Weapon, dice: list[int]) -> tuple[int, str]:
    """Charged Shot and Full Auto: every hit die showing 1 adds a heat."""
    names = [PERK_LABELS[p] for p in ("charged_shot", "full_auto") if weapon.has(p)]
    if not names:
        return 0, ""
    ones = sum(1 for v in dice if v == 1)
    return ones * len(names), f"{' and '.join(names)}: {ones} to-hit {'die' if ones == 1 else 'dice'} showing 1"


def strength_modifiers(weapon: Weapon) -> list[Modifier]:
    return [Modifier(2, "Charged Shot", "impact")] if weapon.has("charged_shot") else []


@dataclass(frozen=True)
class OnHit:
    perk: str
    line: str


def on_hit_effects(ctx: DamageContext, weapon: Weapon, target_id: str) -> list[OnHit]:
    """Impale, Shock, Staggering and Incendiary on a Rig the attack hit."""
    out = []
    rig = rig_now(ctx.work, target_id)
    if rig.destroyed:
        return out
    if weapon.has("impale"):
        value = ctx.roll(1, 12, "Impale (6+ immobilises)")[0]
        if value >= 6:
            set_status(ctx.work, target_id, "immobilised", "next_activation", "immobilised (Impale)")
            out.append(OnHit("impale", f"Impale {value}: {rig.name} cannot move (may pivot) through its next activation."))
        else:
            out.append(OnHit("impale", f"Impale {value}: no effect."))
    if weapon.has("shock"):
        set_status(ctx.work, target_id, "shock", "next_activation", "shocked (half movement)")
        out.append(OnHit("shock", f"Shock: {rig.name} moves only half as far in its next activation."))
    if weapon.has("staggering"):
        value = ctx.roll(1, 6, "Staggering")[0]
        out.append(OnHit("staggering", f"Staggering {value}: {rig.name} {STAGGER[value]} — move the model."))
    if weapon.has("incendiary"):
        x = weapon.x("incendiary")
        new = raise_heat(ctx.work, target_id, x, f"Incendiary {x}")
        out.append(OnHit("incendiary", f"Incendiary {x}: {rig.name}'s heat rises to {new}."))
    return out
