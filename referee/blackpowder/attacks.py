"""Hand-to-hand attacks: how many dice each unit and commander throws, what it needs to hit,
the re-rolls, and the bonuses to the combat result (formation, buildings, Heavy Cavalry).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..core.dice import d3, roll
from ..core.results import Die, Modifier
from ..core.words import counted
from .combat_records import engaged, other
from .model import FORMATIONS, Battle, BattleChanges, Unit
from .supports import RESULT  # one name for the combat result, supports add to it too

HIT = "combat dice"
BASE_NEED = 4
BUILDING_BONUS = {"large": 3, "standard": 2, "small": 1}
UNIT_SIZE_BUILDING_BONUS = {"large": 3, "standard": 3, "small": 2}
FRESHLY_RAISED = {1: "Terror", 2: "Panic", 3: "Panic", 4: "Sterling", 5: "Sterling", 6: "Huzzah"}


# --- who a unit is ---------------------------------------------------------------------------

def is_prussian(battle: Battle, unit: Unit) -> bool:
    return battle.nation_of(unit) == "prussian"


def is_french(battle: Battle, unit: Unit) -> bool:
    """The Imperial Guard lists are French too (their profiles name that nation)."""
    return battle.nation_of(unit) == "french"


def is_marauder(unit: Unit) -> bool:
    return unit.has("Marauder") or unit.has("Marauders")


def has_form_square(unit: Unit) -> bool:
    return unit.has("Form Square") or unit.has("Must Form Square")


def tough_fighters(battle: Battle, unit: Unit, enemies: list[Unit]) -> str | None:
    if unit.has("Tough Fighters"):
        return "Tough Fighters"
    if (battle.settings.prussians_tough_vs_french and unit.is_infantry and is_prussian(battle, unit)
            and any(is_french(battle, e) for e in enemies)):
        return "Tough Fighters (Prussian infantry against the French)"
    return None


def heavy_cavalry_bonus(unit: Unit) -> str | None:
    """"D3" or a fixed "+1" ("Heavy Cavalry +1" in the lists)."""
    if not unit.has("Heavy Cavalry"):
        return None
    value = (unit.rule_value("Heavy Cavalry") or "D3").upper()
    return "+1" if value.startswith("+") else "D3"


# --- the attacks of one unit -----------------------------------------------------------------

@dataclass
class AttackPlan:
    unit: Unit
    key: str
    dice: int
    modifiers: list[Modifier] = field(default_factory=list)
    need: int = BASE_NEED
    reroll_all: str | None = None  # the rule that re-rolls every failed attack
    reroll_one: str | None = None  # the rule that re-rolls one failed attack
    lancers: bool = False
    heavy: str | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def charged(self) -> bool:
        return self.reroll_all is not None or self.lancers or self.heavy is not None


def commander_attacks(battle: Battle, rec: dict, key: str, unit: Unit, *, brigade_commander: bool,
                      general: bool) -> list[Modifier]:
    """Commanders fighting with the unit add their attacks: ``attacks`` when their side charged,
    ``attacks_defending`` when it was charged (Napoleon and friends give the same either way)."""
    mods = []
    who = []
    if brigade_commander and battle.commander_of(unit):
        who.append(battle.commander_of(unit))
    side = battle.sides.get(unit.side)
    if general and side and side.general:
        who.append(side.general)
    for c in who:
        extra = c.attacks if key == "attackers" else (c.attacks_defending or c.attacks)
        if extra:
            mods.append(Modifier(extra, f"{c.name} fights with the unit", "attacks"))
    return mods


def plan_attacks(battle: Battle, rec: dict, key: str, unit: Unit, *, faces: int = 1,
                 extra_attacks: list[Modifier] = (), use_bloodthirsty: bool = True) -> AttackPlan:
    """How many dice the unit rolls, what it needs, and which re-rolls it has (before any
    Freshly Raised roll, which happens at the table)."""
    enemies = engaged(battle, rec, other(key))
    dice = unit.hand_to_hand
    notes = []
    if unit.formation in ("square", "building"):
        dice = min(unit.hand_to_hand, 2 * faces)
        notes.append(f"{FORMATIONS[unit.formation]}: 2 dice per engaged face ({faces}), "
                     f"at most {unit.hand_to_hand}.")
    dice += sum(m.amount for m in extra_attacks)
    mods = []
    charging = unit.id in rec.get("charging", [])
    countercharging = unit.id in rec.get("countercharging", [])
    if charging:
        mods.append(Modifier(1, "Charging (first round)", HIT))
    if countercharging and battle.settings.countercharge_gets_charge_bonus:
        mods.append(Modifier(1, "Countercharging (first round)", HIT))
    if unit.won_last_round:
        mods.append(Modifier(1, "Won the previous round", HIT))
    if unit.shaken or unit.disordered:
        mods.append(Modifier(-1, "Shaken" if unit.shaken else "Disordered", HIT))
    if unit.formation == "skirmish":
        mods.append(Modifier(-1, "Skirmish order", HIT))
    if unit.id in rec.get("flank_rear", []):
        mods.append(Modifier(-1, "Engaged to the flank or rear", HIT))
    plan = AttackPlan(unit=unit, key=key, dice=max(0, dice), modifiers=mods, notes=notes)
    plan.need = min(6, max(2, BASE_NEED - sum(m.amount for m in mods)))
    if charging or countercharging:
        if unit.has("Ferocious Charge"):
            plan.reroll_all = "Ferocious Charge"
        plan.lancers = unit.has("Lancer") or unit.has("Lancers")
        plan.heavy = heavy_cavalry_bonus(unit)
    if (plan.reroll_all is None and use_bloodthirsty and unit.has("Bloodthirsty")
            and not unit.has_used("bloodthirsty") and (rec.get("round", 1) == 1 or charging or countercharging)):
        plan.reroll_all = "Bloodthirsty"
    tough = tough_fighters(battle, unit, enemies)
    if tough and not unit.has_used("tough_fighters"):
        plan.reroll_one = tough
    return plan


@dataclass
class Attacks:
    plan: AttackPlan
    dice: list[Die]
    hits: int
    notes: list[str] = field(default_factory=list)
    result_bonus: list[Modifier] = field(default_factory=list)


def roll_attacks(plan: AttackPlan, dice_source, ch: BattleChanges) -> Attacks:
    """Roll one unit's attacks; what they change (Terror's disorder, abilities spent) goes to ``ch``."""
    unit = plan.unit
    rolled: list[Die] = []
    notes = list(plan.notes)
    used: list[str] = []  # one change to ``used`` per unit, so the befores stay true
    count, need = plan.dice, plan.need
    if unit.has("Freshly Raised") and not unit.has_used("freshly_raised_combat"):
        (die,) = roll(dice_source, 1, 6, f"{unit.name}: Freshly Raised", side=unit.side)
        rolled.append(die)
        effect = FRESHLY_RAISED[die.value]
        used.append("freshly_raised_combat")
        if effect in ("Terror", "Panic"):
            need = 6
            notes.append(f"Freshly Raised {die.value}: {effect} — {unit.name} hits only on 6s.")
            if effect == "Terror":
                ch.unit(unit, "disordered", True)
        elif effect == "Huzzah":
            count += 1
            notes.append(f"Freshly Raised 6: Huzzah — {unit.name} gets one more attack.")
        else:
            notes.append(f"Freshly Raised {die.value}: Sterling — no effect.")
    shown_need = min(6, max(2, need))  # a 1 always misses
    faces = list(roll(dice_source, count, 6, f"{unit.name}: attacks (hit on {need}+)", shown_need, side=unit.side))
    rolled.extend(faces)
    values = [d.value for d in faces]

    def hit(v: int) -> bool:
        return v != 1 and v >= need

    rerolled = False
    if plan.reroll_all and any(not hit(v) for v in values):
        misses = [i for i, v in enumerate(values) if not hit(v)]
        again = roll(dice_source, len(misses), 6, f"{unit.name}: re-roll ({plan.reroll_all})", shown_need, side=unit.side)
        rolled.extend(again)
        for i, d in zip(misses, again):
            values[i] = d.value
        rerolled = True
        notes.append(f"{plan.reroll_all}: {unit.name} re-rolls {counted(len(misses), 'failed attack')}.")
        if plan.reroll_all == "Bloodthirsty":
            used.append("bloodthirsty")
    if plan.reroll_one and not rerolled and any(not hit(v) for v in values):
        i = next(i for i, v in enumerate(values) if not hit(v))
        (d,) = roll(dice_source, 1, 6, f"{unit.name}: re-roll ({plan.reroll_one})", shown_need, side=unit.side)
        rolled.append(d)
        notes.append(f"{plan.reroll_one}: {unit.name} re-rolls one failed attack ({values[i]} → {d.value}).")
        values[i] = d.value
        used.append("tough_fighters")
    hits = sum(1 for v in values if hit(v))
    if used:
        ch.unit(unit, "used", list(unit.used) + used, f"{unit.name}: used {', '.join(k.replace('_', ' ') for k in used)}")
    bonus = []
    if plan.heavy == "D3":
        (d,) = roll(dice_source, 1, 6, f"{unit.name}: Heavy Cavalry (D3)", side=unit.side)
        rolled.append(d)
        bonus.append(Modifier(d3(d.value), f"Heavy Cavalry ({unit.name}, D3 rolled {d.value})", RESULT))
    elif plan.heavy == "+1":
        bonus.append(Modifier(1, f"Heavy Cavalry +1 ({unit.name})", RESULT))
    return Attacks(plan, rolled, hits, notes, bonus)


# --- result bonuses --------------------------------------------------------------------------

def formation_bonuses(battle: Battle, ours: list[Unit], theirs: list[Unit]) -> list[Modifier]:
    mods = []
    if any(u.formation == "square" for u in ours) and any(e.is_cavalry for e in theirs):
        mods.append(Modifier(3, "Square against cavalry", RESULT))
    for u in ours:
        if u.formation != "building":
            continue
        if battle.settings.building_bonus_by == "unit":
            amount = 0 if u.is_artillery else UNIT_SIZE_BUILDING_BONUS.get(u.size, 3)
            why = f"{u.size} unit"
        else:
            size = u.building_size or "standard"
            amount = BUILDING_BONUS.get(size, 2)
            why = f"{size} building"
        if amount:
            mods.append(Modifier(amount, f"Occupying a building ({why})", RESULT))
    return mods
