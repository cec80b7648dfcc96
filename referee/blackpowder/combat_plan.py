"""What a round of hand-to-hand is asked and checked against before a die is thrown: the round's
facts (supports by quarter, commanders fighting, who takes the hits), the checks that the round may
be fought, and each fighting unit's attacks.

The round itself (``combat``) and its exact odds (``combat_odds``) both read this plan.
"""
from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..core.contract import Facts
from .attacks import AttackPlan, commander_attacks, plan_attacks
from .combat_records import SIDE_KEYS, engaged
from .model import Battle, RuleError, Unit
from .supports import QUARTERS

CHARGERS, DEFENDERS = "Chargers' supports", "Defenders' supports"


def _supporters(title: str, group: str, side: str):
    """A quarter's supporting units, for one side of the fight (``side``: "chargers" or "defenders",
    so the tablet lists that side's units not already fighting in this combat)."""
    return Field(default_factory=list, title=title,
                 json_schema_extra={"ref": "unit", "side": side, "of": "combat", "group": group})


# Facts about the units in the fight itself: the tablet lists only those.
FIGHTING = {"ref": "unit", "side": "fighting", "of": "combat"}


def _blocked_quarters(group: str):
    return Field(default_factory=list, title="Quarters with another fight within 6\"",
                 json_schema_extra={"group": group, "labels": {"rear": "Rear", "left": "Left", "right": "Right"}})


class CombatRound(Facts):
    combat: str = Field(title="Combat", json_schema_extra={"ref": "combat"})
    faces_engaged: int = Field(1, ge=1, le=4, title="Faces of a square or building engaged",
                               json_schema_extra={"help": "2 dice per engaged face, up to the unit's value."})
    attacker_rear_support: list[str] = _supporters("Behind the chargers", CHARGERS, "chargers")
    attacker_left_support: list[str] = _supporters("On the chargers' left", CHARGERS, "chargers")
    attacker_right_support: list[str] = _supporters("On the chargers' right", CHARGERS, "chargers")
    attacker_blocked: list[Literal["rear", "left", "right"]] = _blocked_quarters(CHARGERS)
    defender_rear_support: list[str] = _supporters("Behind the defenders", DEFENDERS, "defenders")
    defender_left_support: list[str] = _supporters("On the defenders' left", DEFENDERS, "defenders")
    defender_right_support: list[str] = _supporters("On the defenders' right", DEFENDERS, "defenders")
    defender_blocked: list[Literal["rear", "left", "right"]] = _blocked_quarters(DEFENDERS)
    commander_with: list[str] = Field(default_factory=list, title="Units their brigade commander fights with",
                                      json_schema_extra={**FIGHTING, "group": "Commanders"})
    general_with: list[str] = Field(default_factory=list, title="Units their General fights with",
                                    json_schema_extra={**FIGHTING, "group": "Commanders"})
    attackers_strike: str = Field("", title="Defender taking the chargers' hits",
                                  json_schema_extra={**FIGHTING, "help": "Blank: the first one."})
    defenders_strike: str = Field("", title="Charger taking the defenders' hits",
                                  json_schema_extra={**FIGHTING, "help": "Blank: the first one."})
    use_bloodthirsty: bool = Field(True, title="Use Bloodthirsty this round?")
    commander_within_12: list[str] = Field(
        default_factory=list, title="Units with their brigade commander within 12\"",
        json_schema_extra={"ref": "unit", "side": "commander counts", "group": "Break tests",
                           "help": "Listed: units whose commander changes their tests (Inspirational, Loathed, "
                                   "or one who adds to tests near him)."})
    von_zieten_within_12: list[str] = Field(
        default_factory=list, title="Units within 12\" of von Zieten",
        json_schema_extra={"ref": "unit", "side": "von Zieten present", "group": "Break tests"})
    cannot_retire: list[str] = Field(default_factory=list, title="Units unable to retire even two moves",
                                     json_schema_extra={"ref": "unit", "side": "any", "group": "Break tests"})


def supports_by_side(facts: CombatRound) -> dict[str, tuple[dict[str, list[str]], set[str]]]:
    return {
        "attackers": ({q: list(getattr(facts, f"attacker_{q}_support")) for q in QUARTERS}, set(facts.attacker_blocked)),
        "defenders": ({q: list(getattr(facts, f"defender_{q}_support")) for q in QUARTERS}, set(facts.defender_blocked)),
    }


def check_round(battle: Battle, rec: dict, facts: CombatRound) -> dict[str, list[Unit]]:
    if rec.get("status") != "open":
        raise RuleError("That combat is over.")
    if rec.get("awaiting_outcome"):
        raise RuleError("The winners must first choose what to do (combat outcome).")
    if battle.phase != "hand_to_hand":
        raise RuleError("Combats are fought in the Hand-to-Hand phase.")
    if rec.get("fought") == [battle.turn, battle.active_side]:
        raise RuleError("This combat has already fought a round this phase.")
    sides = {k: engaged(battle, rec, k) for k in SIDE_KEYS}
    for k in SIDE_KEYS:
        if not sides[k]:
            raise RuleError(f"The {k} have nobody left in this combat: end it with the winners' next step.")
    ids = {u.id for k in SIDE_KEYS for u in sides[k]}
    for uid in list(facts.commander_with) + list(facts.general_with):
        if uid not in ids:
            raise RuleError(f"{battle.unit(uid).name} is not fighting in this combat.")
    generals = [battle.unit(u).side for u in facts.general_with]
    if len(generals) != len(set(generals)):
        raise RuleError("A General can fight with one unit only.")
    for key, uid in (("defenders", facts.attackers_strike), ("attackers", facts.defenders_strike)):
        if uid and uid not in {u.id for u in sides[key]}:
            raise RuleError(f"{battle.unit(uid).name} is not among the {key} of this combat.")
    return sides


def plans_for(battle: Battle, rec: dict, facts: CombatRound) -> dict[str, list[AttackPlan]]:
    out = {}
    for key in SIDE_KEYS:
        out[key] = []
        for unit in engaged(battle, rec, key):
            extra = commander_attacks(battle, rec, key, unit, brigade_commander=unit.id in facts.commander_with,
                                      general=unit.id in facts.general_with)
            out[key].append(plan_attacks(battle, rec, key, unit, faces=facts.faces_engaged, extra_attacks=extra,
                                         use_bloodthirsty=facts.use_bloodthirsty))
    return out
