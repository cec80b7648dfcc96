"""What a shot will roll, worked out before any die is thrown: the shot's facts, its dice, the score
each die needs and every modifier with its rule, and why the unit it hits must test.

The shot itself (``shooting``) and its exact odds (``shooting_odds``) both read this plan, so the
two can never disagree about a modifier.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from pydantic import Field

from ..core.contract import Facts
from ..core.results import Modifier, total
from ..core.words import counted
from . import artillery
from . import closing_fire as closing_fire_rules
from .model import Battle, RuleError, Unit
from .morale import light_cover_modifier

TO_HIT = "to hit"
CLOSE_RANGE = "Close range or closing fire"
RANGE_LABELS = {"short": "6\" or less", "medium": "Beyond 6\" (guns: up to half range)",
                "long": "Beyond 6\" (guns: over half range)"}


class ShootFacts(Facts):
    shooter: str = Field(title="Shooting unit", json_schema_extra={"ref": "unit", "side": "acting"})
    target: str = Field(title="Target", json_schema_extra={"ref": "unit", "side": "any", "of": "shooter"})
    range_band: Literal["short", "medium", "long"] = Field(
        "medium", title="Range", json_schema_extra={"labels": RANGE_LABELS})
    kind: Literal["normal", "closing_fire", "traversing"] = Field(
        "normal", title="Kind of shot", json_schema_extra={"labels": {
            "normal": "Shooting phase", "closing_fire": "Closing fire", "traversing": "Traversing target"}})
    obscured: bool = Field(False, title="Target hard to see?", json_schema_extra={
        "group": "Target", "help": "Less than half in the front quarter or in view, or seen through a narrow gap."})
    light_cover: bool = Field(False, title="Target in woods, hedges or similar cover?", json_schema_extra={"group": "Target"})
    enfilade: bool = Field(False, title="Enfilading the target?", json_schema_extra={
        "group": "Target", "help": "Shooter on the target's flank (a march column also from front or rear)."})
    over_intervening: bool = Field(False, title="Guns shooting over other units?", json_schema_extra={"group": "Guns"})
    use_shrapnel: bool = Field(True, title="Fire Shrapnel at medium range?", json_schema_extra={"group": "Guns"})
    stray_rocket_unit: str | None = Field(None, title="Unit a stray rocket reaches", json_schema_extra={
        "group": "Guns", "ref": "unit", "side": "any"})
    facings: int = Field(1, ge=1, le=4, title="Faces that fire (square or building)")
    target_hit_by_artillery: bool = Field(False, title="Target already hit by artillery this turn?",
                                          json_schema_extra={"group": "Break test"})
    target_commander_within_12: bool = Field(False, title="Target's brigade commander within 12\"?",
                                             json_schema_extra={"group": "Break test"})
    target_von_zieten_within_12: bool = Field(False, title="von Zieten within 12\" of the target?",
                                              json_schema_extra={"group": "Break test"})
    target_cannot_retire: bool = Field(False, title="Target unable to retire even two moves?",
                                       json_schema_extra={"group": "Break test"})
    use_valiant: bool = Field(True, title="Target re-rolls a failed test with Valiant?",
                              json_schema_extra={"group": "Break test"})


def fact(facts, name: str, default):
    if facts is None:
        return default
    if isinstance(facts, dict):
        return facts.get(name, default)
    return getattr(facts, name, default)


@dataclass
class ShotPlan:
    """What a shot will roll before any die is thrown: shared by the resolution and the odds."""

    shooter: Unit
    target: Unit
    dice: int
    need: int  # base score to hit (4, or 5 with Shrapnel, 6 for a rocket)
    modifiers: list[Modifier]
    save_modifiers: list[Modifier]
    notes: list[str]
    used: list[str] = field(default_factory=list)  # bookkeeping keys this shot spends
    freshly_raised: bool = False
    sharp_shooters: bool = False
    poor_shooters: bool = False
    rocket: bool = False
    by_artillery: bool = False
    closing_fire: bool = False
    traversing: bool = False

    def target_score(self, modifiers_total: int | None = None) -> int:
        """The natural score each die needs: a 6 always hits and a 1 always misses."""
        bonus = total(self.modifiers, TO_HIT) if modifiers_total is None else modifiers_total
        return min(6, max(2, self.need - bonus))


def traversing_key(battle: Battle) -> str:
    # Keyed by turn and moving side, so last turn's shot never blocks this one and nothing must clear it.
    return f"traversing_shot:{battle.turn}:{battle.active_side}"


def infantry_dice(shooter: Unit, facings: int) -> tuple[int, str | None]:
    base = shooter.shooting or 0
    form = shooter.formation
    if form == "march_column":
        raise RuleError(f"{shooter.name} is in march column and cannot shoot.")
    if form in ("attack_column", "mixed"):
        return 1, f"{'Attack column' if form == 'attack_column' else 'Mixed formation'}: 1 die."
    if form == "square":
        return facings, f"Square: 1 die for each of the {counted(facings, 'face')} firing."
    if form == "building":
        count = min(2 * facings, base)
        return count, f"In a building: 2 dice a face, at most the profile's {base}."
    return base, None


def not_clear_reason(target: Unit, obscured: bool, light_cover: bool) -> str | None:
    if target.formation == "building":
        return "target in a building"
    if target.formation == "skirmish":
        return "target in skirmish order"
    if target.is_artillery and target.formation == "deployed":
        return "target is deployed artillery"
    if light_cover:
        return "target in cover"
    if obscured:
        return "target only partly seen"
    return None


def plan_shot(battle: Battle, shooter_id: str, target_id: str, facts=None, *, closing_fire: bool = False,
              traversing: bool = False) -> ShotPlan:
    shooter, target = battle.unit(shooter_id), battle.unit(target_id)
    closing_fire = closing_fire or fact(facts, "kind", "normal") == "closing_fire"
    traversing = traversing or fact(facts, "kind", "normal") == "traversing"
    band = fact(facts, "range_band", "medium")
    facings = fact(facts, "facings", 1)
    if closing_fire and traversing:
        raise RuleError("A shot is either closing fire or a traversing shot, not both.")
    for u in (shooter, target):
        if not u.in_play:
            raise RuleError(f"{u.name} is no longer on the field.")
    if shooter.side == target.side:
        raise RuleError(f"{shooter.name} and {target.name} are on the same side.")
    notes: list[str] = []
    mods: list[Modifier] = []
    used: list[str] = []
    save_mods: list[Modifier] = []
    need = 4
    rocket = False
    if closing_fire:
        band = "short"
        closing_fire_rules.check_shooter(shooter, shooter.has_used(traversing_key(battle)))
    if traversing:
        if shooter.has_used(traversing_key(battle)):
            raise RuleError(f"{shooter.name} has already taken a traversing shot this turn.")
        used.append(traversing_key(battle))
        notes.append("Traversing shot: up to 12\"; apply the result at the end of the target's move.")

    if shooter.is_artillery:
        gun = artillery.gun_dice(shooter, band, use_shrapnel=fact(facts, "use_shrapnel", True))
        count, need = gun.count, gun.need
        notes.extend(gun.notes)
        notes.append(artillery.range_note(shooter, battle.settings))
        rocket = shooter.artillery_kind == "rocket"
        if not rocket:
            mods.extend(artillery.gun_to_hit_modifiers(shooter, target, band,
                                                       over_intervening=fact(facts, "over_intervening", False)))
        save_mods.append(artillery.gun_save_modifier(shooter, band))
    else:
        if shooter.shooting is None:
            raise RuleError(f"{shooter.name} has no shooting value.")
        count, why = infantry_dice(shooter, facings)
        if why:
            notes.append(why)
        if shooter.has("First Fire") and not shooter.has_used("first_fire"):
            count += 1
            used.append("first_fire")
            notes.append("First Fire: one extra die on the unit's first shot of the game.")
    if count <= 0:
        raise RuleError(f"{shooter.name} has no shooting dice in this formation.")

    if not rocket:
        if shooter.shaken or shooter.disordered:
            mods.append(Modifier(-1, "Shooters shaken or disordered", TO_HIT))
        reason = not_clear_reason(target, fact(facts, "obscured", False), fact(facts, "light_cover", False))
        if reason:
            mods.append(Modifier(-1, f"Not a clear target ({reason})", TO_HIT))
        if band == "short" or closing_fire:
            mods.append(Modifier(1, CLOSE_RANGE, TO_HIT))
        if fact(facts, "enfilade", False):
            why_not = None
            if shooter.formation == "skirmish":
                why_not = "Skirmishers cannot enfilade."
            elif shooter.is_artillery:
                why_not = artillery.can_enfilade(shooter, band, battle.settings)
            if why_not:
                raise RuleError(why_not)
            if traversing:
                notes.append("Traversing shots take only the close-range bonus: no enfilade bonus.")
            elif battle.settings.enfilade_to_hit_bonus:
                mods.append(Modifier(battle.settings.enfilade_to_hit_bonus, "Enfilading fire", TO_HIT))
    if fact(facts, "light_cover", False):
        save_mods.append(light_cover_modifier())

    freshly = shooter.has("Freshly Raised") and not shooter.has_used("freshly_raised_shoot")
    if freshly:
        used.append("freshly_raised_shoot")
    return ShotPlan(shooter, target, count, need, mods, save_mods, notes, used, freshly_raised=freshly,
                    sharp_shooters=shooter.has("Sharp Shooters") and not rocket,
                    poor_shooters=shooter.has("Poor Shooters") and not rocket, rocket=rocket,
                    by_artillery=shooter.is_artillery, closing_fire=closing_fire, traversing=traversing)


def break_test_reasons(plan: ShotPlan, saves: dict) -> list[str]:
    """Why the unit that took these saves must test (empty: no test). Closing fire is shooting
    too, so casualties beyond Stamina force a test from it as from any shot."""
    why = []
    if plan.closing_fire:
        why += closing_fire_rules.test_reasons(plan.by_artillery, saves)
    if saves["excess"] and saves["casualties"]:
        why.append("casualties beyond its Stamina")
    if saves["wavering_test"]:
        why.append("Wavering")
    return why
