"""The winners' next step once a side of a combat has gone: advance, hold, change formation, fall
back, or a sweeping advance (and charge); and closing a finished combat.
"""
from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from ..core.contract import ActionSpec, Facts
from ..core.results import Result
from .adjust import allowed_formations
from .combat_records import SIDE_KEYS, combat_record, combat_title, combats, engaged, may_sweep, names, other
from .model import FORMATIONS, Battle, BattleChanges, RuleError

# --- the winners' choice ---------------------------------------------------------------------

OUTCOME_CHOICES = {
    "advance": "Advance upon the enemy",
    "hold": "Do nothing",
    "change_formation": "Change formation",
    "fall_back": "Fall back one move",
    "sweeping_advance": "Sweeping advance",
    "sweeping_charge": "Sweeping advance and charge",
}


class CombatOutcome(Facts):
    combat: str = Field(title="Combat", json_schema_extra={"ref": "combat"})
    choice: Literal[tuple(OUTCOME_CHOICES)] = Field(title="The winners", json_schema_extra={"labels": OUTCOME_CHOICES})
    formation: Literal[("",) + tuple(FORMATIONS)] = Field(
        "", title="New formation", json_schema_extra={"labels": {"": "No change", **FORMATIONS},
                                                      "help": "Only when changing formation."})

    @field_validator("formation", mode="before")
    @classmethod
    def _formation_by_its_name(cls, value):
        """Take "Attack Column" as well as "attack_column": saved logs and typed facts use both."""
        if isinstance(value, str):
            by_label = {label.lower(): key for key, label in FORMATIONS.items()}
            return by_label.get(value.strip().lower(), value)
        return value


def end_combat(ch: BattleChanges, rec: dict) -> None:
    """Everyone in the fight is free again (unless fighting elsewhere); the record is closed."""
    battle = ch.battle
    for uid in rec["attackers"] + rec["defenders"]:
        unit = battle.unit(uid)
        elsewhere = any(r.get("status") == "open" and r["id"] != rec["id"] and uid in r["attackers"] + r["defenders"]
                        for r in combats(battle).values())
        if not elsewhere:
            ch.unit(unit, "in_combat", False, f"{unit.name}: out of combat")
        ch.unit(unit, "won_last_round", False, f"{unit.name}: no longer the last winner")
    title = combat_title(battle, rec)
    ch.at(("combats", rec["id"], "status"), "ended", f"{title}: over")
    ch.at(("combats", rec["id"], "awaiting_outcome"), False, f"{title}: no longer waiting for the winners")


def resolve_combat_outcome(doc: dict, facts: CombatOutcome, dice) -> Result:
    battle = Battle.from_doc(doc)
    rec = combat_record(battle, facts.combat)
    if rec.get("status") != "open":
        raise RuleError("That combat is over.")
    victor = rec.get("last_winner")
    left = [k for k in SIDE_KEYS if engaged(battle, rec, k)]
    if len(left) == 1 and not engaged(battle, rec, other(left[0])):
        victor = left[0]  # the other side is gone however it went (an umpire's correction, a rout)
    if victor not in SIDE_KEYS:
        raise RuleError("Nobody has won a round of this combat yet.")
    if rec.get("outcome_round") == rec.get("last_round") and victor == rec.get("last_winner"):
        raise RuleError("The winners have already chosen after this round.")
    winners = engaged(battle, rec, victor)
    losers = engaged(battle, rec, other(victor))
    retired_losers = [battle.unit(u) for u in rec.get("retired", []) if u in rec[other(victor)]
                      and battle.unit(u).in_play]
    choice = facts.choice
    ch = BattleChanges(battle)
    notes = []
    if choice in ("sweeping_advance", "sweeping_charge"):
        if losers:
            raise RuleError("A sweeping advance needs the enemy gone from the fight.")
        if not may_sweep(battle, rec, victor):
            raise RuleError("Only cavalry that won a first round and are not shaken can sweep forward.")
        winners = [u for u in winners if u.is_cavalry and not u.shaken]
    if choice == "change_formation":
        if not facts.formation:
            raise RuleError("Say which formation they take.")
        key = facts.formation
        for u in winners:
            if key not in allowed_formations(u):
                raise RuleError(f"{u.name} cannot form {FORMATIONS[key]}.")
            ch.unit(u, "formation", key)
    continues = bool(losers) and choice != "fall_back"
    if choice == "advance" and not losers and retired_losers:
        continues = True
        for u in retired_losers:
            ch.unit(u, "in_combat", True, f"{u.name}: caught again by the advance")
        ch.at(("combats", rec["id"], "retired"), [u for u in rec["retired"] if u not in {x.id for x in retired_losers}])
        ch.at(("combats", rec["id"], "awaiting_outcome"), False,
              f"{combat_title(ch.battle, rec)}: no longer waiting for the winners")
        notes.append("The winners move back into contact with the retiring enemy: the fight goes on.")
    if not continues:
        end_combat(ch, rec)
    notes += {
        "advance": [] if continues else ["Advance: move the winners forward into the ground the enemy left."],
        "hold": ["The winners stay where they are."],
        "change_formation": [f"The winners take {FORMATIONS.get(facts.formation, '')} where they stand."],
        "fall_back": ["Fall back: the winners make one move to their own rear."],
        "sweeping_advance": ["Sweeping advance: the cavalry move forward without contacting an enemy."],
        "sweeping_charge": ["Sweeping advance and charge: declare the new charge now with the Charge action "
                            "(how: sweeping advance)."],
    }[choice]
    if choice == "sweeping_charge":
        for u in winners:
            ch.used(u, "sweeping_charge", f"{u.name}: may charge from its sweeping advance")
    ch.at(("combats", rec["id"], "outcome_round"), rec.get("last_round"),
          f"{combat_title(ch.battle, rec)}: the winners have chosen after round {rec.get('last_round')}")
    summary = f"{names(winners)}: {OUTCOME_CHOICES[choice].lower()}" + ("" if continues else " — the combat ends")
    return Result("combat_outcome", summary, changes=ch.changes, notes=tuple(notes),
                  data={"combat": rec["id"], "choice": choice, "ended": not continues})


COMBAT_OUTCOME = ActionSpec("combat_outcome", "The winners' next step", CombatOutcome, resolve_combat_outcome,
                            rolls_dice=False)
