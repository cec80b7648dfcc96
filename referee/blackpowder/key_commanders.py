"""What the key commanders give their armies before the first turn: Ney's D3 units gain Valiant,
Blücher's chosen unit gains Ferocious Charge and his Prussians may make a free move, Wellington
picks the table side his army deploys on.

How much each man gives comes with him in the battle document (the ``Commander`` fields the data
layer copies from ``armylists/blackpowder/commanders.yaml``). The players name the units before
any die is rolled (first choice first); the dice then say how many of them Ney's gift reaches.
Each army receives its gifts once, in the battle's first Command phase (Blue's, turn 1).
"""
from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..core.contract import ActionSpec, Facts
from ..core.dice import d3, roll
from ..core.results import Result
from ..core.words import counted
from .model import SIDES, Battle, BattleChanges, Commander, RuleError


class GiftsFacts(Facts):
    side: Literal["blue", "red"] = Field(title="Army receiving its commanders' gifts")
    valiant: list[str] = Field(default_factory=list, title="Units to gain Valiant, first choice first",
                               json_schema_extra={"ref": "unit", "side": "any",
                                                  "help": "Name as many as may be needed: the dice decide how many get it."})
    ferocious_charge: list[str] = Field(default_factory=list, title="Units to gain Ferocious Charge",
                                        json_schema_extra={"ref": "unit", "side": "any"})


def givers(battle: Battle, side: str) -> list[Commander]:
    """The army's General and brigade commanders."""
    general = battle.sides[side].general if side in battle.sides else None
    found = [general] if general else []
    return found + [b.commander for b in battle.brigades_of_side(side) if b.commander]


def _has_gifts(c: Commander) -> bool:
    return bool(c.valiant_units or c.ferocious_charge_units or c.free_move_before_game or c.chooses_deployment_side)


def _check(battle: Battle, facts: GiftsFacts) -> list[Commander]:
    if battle.turn != 1 or battle.active_side != SIDES[0] or battle.phase != "command":
        raise RuleError("Commanders' gifts are given before the battle, in the first Command phase.")
    if (battle.doc.get("sides", {}).get(facts.side) or {}).get("gifts_given"):
        raise RuleError("This army has already received its commanders' gifts.")
    gifting = [c for c in givers(battle, facts.side) if _has_gifts(c)]
    if not gifting:
        raise RuleError("No commander of this army gives anything before the battle.")
    for uid in list(facts.valiant) + list(facts.ferocious_charge):
        unit = battle.unit(uid)
        if unit.side != facts.side or not unit.in_play:
            raise RuleError(f"{unit.name} is not a unit of this army on the field.")
    if facts.valiant and not any(c.valiant_units for c in gifting):
        raise RuleError("No commander of this army grants Valiant.")
    allowed = sum(c.ferocious_charge_units for c in gifting)
    if len(facts.ferocious_charge) > allowed:
        raise RuleError(f"Only {counted(allowed, 'unit')} may gain Ferocious Charge.")
    return gifting


def _grant(ch: BattleChanges, unit, rule: str, giver: str) -> None:
    if not unit.has(rule):
        ch.unit(unit, "special_rules", list(unit.special_rules) + [rule], f"{unit.name}: gains {rule} ({giver})")


def resolve_gifts(doc: dict, facts: GiftsFacts, dice) -> Result:
    battle = Battle.from_doc(doc)
    gifting = _check(battle, facts)
    ch = BattleChanges(battle)
    notes, rolled = [], []
    for c in gifting:
        if c.valiant_units:
            if c.valiant_units == "D3":
                (die,) = roll(dice, 1, 6, f"{c.name}: units gaining Valiant (D3)")
                rolled.append(die)
                count = d3(die.value)
            else:
                count = int(c.valiant_units)
            chosen = [battle.unit(u) for u in facts.valiant[:count]]
            for u in chosen:
                _grant(ch, u, "Valiant", c.name)
            notes.append(f"{c.name}: {counted(count, 'unit')} gain Valiant" + (f" ({', '.join(u.name for u in chosen)})."
                                                                      if chosen else "."))
            if len(chosen) < count:
                notes.append(f"Only {counted(len(chosen), 'unit')} {'was' if len(chosen) == 1 else 'were'} named; the rest of {c.name}'s gift is lost.")
        if c.ferocious_charge_units:
            chosen = [battle.unit(u) for u in facts.ferocious_charge]
            for u in chosen:
                _grant(ch, u, "Ferocious Charge", c.name)
            if chosen:
                notes.append(f"{c.name}: {', '.join(u.name for u in chosen)} {'gains' if len(chosen) == 1 else 'gain'} Ferocious Charge.")
        if c.free_move_before_game:
            prussians = [u for u in battle.units_of_side(facts.side)
                         if u.in_play and battle.nation_of(u) == "prussian"]
            notes.append(f"{c.name}: {counted(len(prussians), 'Prussian unit')} may each make a free move before the "
                         f"first turn (move them now; no order test).")
        if c.chooses_deployment_side:
            notes.append(f"{c.name} chooses which table side his army deploys on.")
    ch.at(("sides", facts.side, "gifts_given"), True, f"{battle.sides[facts.side].name}: commanders' gifts given")
    summary = f"{battle.sides[facts.side].name}: " + ", ".join(c.name for c in gifting) + " before the battle"
    return Result("commander_gifts", summary, dice=tuple(rolled), changes=ch.changes,
                  notes=tuple(notes), data={"side": facts.side, "givers": [c.name for c in gifting]})


def odds_gifts(doc: dict, facts: GiftsFacts) -> list[str]:
    battle = Battle.from_doc(doc)
    if any(c.valiant_units == "D3" for c in _check(battle, facts)):
        return ["Units gaining Valiant: 1, 2 or 3, each 33.3%"]
    return []


COMMANDER_GIFTS = ActionSpec("commander_gifts", "Key commanders' gifts before the battle", GiftsFacts, resolve_gifts,
                             odds_gifts)
