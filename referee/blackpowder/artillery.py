"""Guns: dice by range band, Shrapnel, howitzers, the artillery to-hit modifiers and Congreve
rockets with their mishap table.

Shooting (``shooting.py``) asks this module how many dice a gun throws and what it needs; a
rocket's whole shot is resolved here because it follows its own table.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..core.dice import roll
from ..core.results import Modifier, Result
from .model import Battle, BattleChanges, RuleError, Settings, Unit
from .morale import artillery_save_modifier, take_hits

TO_HIT = "to hit"
RANGE_BANDS = {"short": "Short (6\" or less)", "medium": "Medium (up to half range)",
               "long": "Long (over half range)"}
# The summary gives these two ranges outright; horse and foot guns read theirs from Settings.
HOWITZER_RANGE = 36
ROCKET_RANGE = 60
DICE_BY_BAND = {"short": 3, "medium": 2, "long": 1}
CLOSE_FORMATIONS = ("attack_column", "march_column", "square")


def max_range(unit: Unit, settings: Settings) -> int:
    kind = unit.artillery_kind or "foot"
    return {"horse": settings.horse_artillery_range, "foot": settings.foot_artillery_range,
            "howitzer": HOWITZER_RANGE, "rocket": ROCKET_RANGE}[kind]


def range_note(unit: Unit, settings: Settings) -> str:
    top = max_range(unit, settings)
    if unit.artillery_kind in ("howitzer", "rocket"):
        return f"{unit.name} reaches {top}\"."
    return f"{unit.name} reaches {top}\": medium range up to {top // 2}\", long beyond."


@dataclass(frozen=True)
class GunDice:
    count: int
    need: int  # the score each die needs before modifiers
    notes: tuple[str, ...] = ()


def gun_dice(unit: Unit, band: str, *, use_shrapnel: bool = True) -> GunDice:
    """How many dice the gun throws at this range, and the score it needs."""
    if band not in RANGE_BANDS:
        raise RuleError(f"Range is short, medium or long, not “{band}”.")
    if unit.formation == "limbered":
        raise RuleError(f"{unit.name} is limbered and cannot shoot.")
    kind = unit.artillery_kind or "foot"
    if kind == "howitzer":
        return GunDice(2, 4, ("Howitzer: 2 dice at every range.",))
    if kind == "rocket":
        return GunDice(1, 6, ("Congreve rocket: one die, only a 6 hits.",))
    if band == "medium" and use_shrapnel and unit.has("Shrapnel"):
        return GunDice(3, 5, ("Shrapnel: 3 dice at medium range, hitting on 5s.",))
    return GunDice(DICE_BY_BAND[band], 4)


def gun_to_hit_modifiers(unit: Unit, target: Unit, band: str, *, over_intervening: bool = False) -> list[Modifier]:
    mods = []
    if target.formation in CLOSE_FORMATIONS:
        mods.append(Modifier(1, "Gun target in column or square", TO_HIT))
    if band == "long":
        mods.append(Modifier(-1, "Long range", TO_HIT))
    # Shells and rockets arc over the heads of other units without penalty.
    if over_intervening and unit.artillery_kind not in ("howitzer", "rocket"):
        mods.append(Modifier(-1, "Shooting over intervening units", TO_HIT))
    return mods


def can_enfilade(unit: Unit, band: str, settings: Settings) -> str | None:
    """None if the gun may enfilade at this range, else why not."""
    if unit.artillery_kind in ("howitzer", "rocket"):
        return "Howitzers and rockets loft their shot and cannot enfilade."
    allowed = ("short", "medium") if settings.cannon_enfilade_to_half_range else ("short",)
    if band not in allowed:
        return "Cannon enfilade only up to half their range." if settings.cannon_enfilade_to_half_range \
            else "Cannon enfilade only at short range."
    return None


def gun_save_modifier(unit: Unit, band: str) -> Modifier:
    return artillery_save_modifier(band, unit.artillery_kind)


# --- Congreve rockets --------------------------------------------------------------------

ROCKET_SOURCE = "artillery rocket"
MISHAP_TABLE = {1: "Roll again on the misfire line", 2: "Dud", 3: "Dud", 4: "Veers", 5: "Veers", 6: "Veers"}
MISFIRE_TABLE = {1: "it explodes and destroys its team", 2: "it hits its own team (1 hit)",
                 3: "it hits the nearest unit, friend or foe (1 hit)", 4: "a dud", 5: "a dud", 6: "a dud"}
VEER_TABLE = {1: 6, 2: 6, 3: 12, 4: 12, 5: None, 6: None}


def rocket_shot(battle: Battle, shooter: Unit, target: Unit, dice, *, stray_unit: str | None = None) -> Result:
    """One rocket: a 6 hits and disorders with −2 saves; otherwise the mishap table.

    ``stray_unit`` is the unit a stray rocket reaches (the nearest unit, or the first unit on its
    veering path), as the umpire sees it on the table; without it the note says what to apply.
    """
    (first,) = roll(dice, 1, 6, "rocket to hit")
    all_dice = [first]
    ch = BattleChanges(battle)
    notes: list[str] = []
    children: list[Result] = []
    rocket_save = [artillery_save_modifier("long", "rocket")]

    def hit(unit: Unit, disorder: bool) -> None:
        if disorder:
            ch.unit(unit, "disordered", True, f"{unit.name}: disordered by a rocket")
        children.append(ch.follow(take_hits(ch.battle, unit.id, 1, dice, modifiers=rocket_save,
                                            source=ROCKET_SOURCE)))

    def stray(what: str, disorder: bool) -> None:
        if stray_unit:
            notes.append(what)
            hit(battle.unit(stray_unit), disorder)
        else:
            notes.append(what + " Name that unit (stray rocket fact) to apply the hit, or apply it by hand.")

    outcome = "hit"
    if first.value == 6:
        summary = f"{shooter.name}'s rocket hits {target.name}"
        hit(target, True)
    else:
        (mishap,) = roll(dice, 1, 6, "rocket mishap")
        all_dice.append(mishap)
        if mishap.value == 1:
            (again,) = roll(dice, 1, 6, "rocket misfire")
            all_dice.append(again)
            outcome = {1: "explodes", 2: "hits team", 3: "hits nearest"}.get(again.value, "dud")
            summary = f"{shooter.name}'s rocket misfires: {MISFIRE_TABLE[again.value]}"
            if again.value == 1:
                ch.unit(shooter, "destroyed", True, f"{shooter.name}: destroyed by its own rocket")
            elif again.value == 2:
                hit(shooter, False)
            elif again.value == 3:
                stray("The rocket strikes the nearest unit, friend or foe.", False)
        elif mishap.value in (2, 3):
            outcome = "dud"
            summary = f"{shooter.name}'s rocket is a dud"
        else:
            (veer,) = roll(dice, 1, 6, "rocket veers: how far")
            all_dice.append(veer)
            reach = VEER_TABLE[veer.value]
            outcome = "veers"
            how_far = f"up to {reach}\"" if reach else "any distance"
            summary = f"{shooter.name}'s rocket veers off, travelling {how_far}"
            stray(f"Roll a scatter direction: the rocket hits the first unit {how_far} along it, "
                  f"disordering it with −2 saves.", True)
    hits = 1 if first.value == 6 else 0
    return Result("rocket", summary, dice=tuple(all_dice), changes=ch.changes, notes=tuple(notes),
                  children=tuple(children),
                  data={"hits": hits, "rocket": outcome, "disordered_target": first.value == 6})
