"""Hand-to-hand combat: a round of fighting, its result, the loser's break tests and the winner's
choices.

A combat is a record in the battle document under ``("combats", id)``, made when a charge hits
home (``charges.py``):

``attackers`` / ``defenders``  unit ids (attackers are the side that charged)
``charging`` / ``countercharging``  units that get the charge's first-round benefits this round
``flank_rear``  units engaged to their flank or rear
``round``  the next round to fight (1 for a fresh combat)
``retired``  units that retired out of it (the winner may advance back into contact)
``last_winner``  "attackers" | "defenders" | "draw" | None, after a round
``awaiting_outcome``  the losers are gone: the winners choose what to do
``fought``  [turn, side] of the Hand-to-Hand phase the last round was fought in
``status``  "open" | "ended"

A combat stays open until a side breaks, retires or falls back (RULES-GAPS).
"""
from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..contract import ActionSpec, Facts
from ..results import Die, Modifier, Result
from .attacks import (
    AttackPlan,
    Attacks,
    commander_attacks,
    formation_bonuses,
    plan_attacks,
    roll_attacks,
)
from .combat_records import SIDE_KEYS, combat_record, engaged, names, other
from .model import Battle, BattleChanges, RuleError, Unit
from .supports import QUARTERS, RESULT, reckon_supports

# --- the combat round action ----------------------------------------------------------------

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


def _supports_by_side(facts: CombatRound) -> dict[str, tuple[dict[str, list[str]], set[str]]]:
    return {
        "attackers": ({q: list(getattr(facts, f"attacker_{q}_support")) for q in QUARTERS}, set(facts.attacker_blocked)),
        "defenders": ({q: list(getattr(facts, f"defender_{q}_support")) for q in QUARTERS}, set(facts.defender_blocked)),
    }


def _check_round(battle: Battle, rec: dict, facts: CombatRound) -> dict[str, list[Unit]]:
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


def _test(ch: BattleChanges, uid: str, context: str, dice, reason: str, children: list, facts: CombatRound, *,
          reroll_by: str | None = None, notes: list[str] | None = None) -> str:
    from .break_tests import break_test, commander_modifiers

    current = ch.battle
    extra = commander_modifiers(current, current.unit(uid),
                                commander_within_12=uid in facts.commander_within_12 or uid in facts.commander_with,
                                von_zieten_within_12=uid in facts.von_zieten_within_12)
    kw = dict(extra_modifiers=extra, cannot_retire=uid in facts.cannot_retire)
    result = break_test(current, uid, context, dice, reason=reason, **kw)
    if reroll_by and result.data["outcome"] != "holds":
        again = break_test(current, uid, context, dice, reason=f"{reason}; re-rolled by {reroll_by}", **kw)
        notes.append(f"{reroll_by}: {current.unit(uid).name} takes its test again "
                     f"({result.data['score']} → {again.data['score']}).")
        children.append(Result("break_test_discarded", f"Discarded: {result.summary}", dice=result.dice,
                               modifiers=result.modifiers, data=result.data))
        result = again
    children.append(ch.follow(result))
    return result.data["outcome"]


def _napoleon(battle: Battle, side: str) -> str | None:
    """The General whose supporters take a failed test again when the unit they back breaks."""
    s = battle.sides.get(side)
    if s and s.general and s.general.supporters_retake_break_tests:
        return s.general.name
    return None


def resolve_combat_round(doc: dict, facts: CombatRound, dice) -> Result:
    from .morale import take_hits

    battle = Battle.from_doc(doc)
    rec = combat_record(battle, facts.combat)
    sides = _check_round(battle, rec, facts)
    supports = {}
    for key, (by_quarter, blocked) in _supports_by_side(facts).items():
        supports[key] = reckon_supports(battle, [u.id for u in sides[key]], set(rec.get("flank_rear", [])),
                                        sides[key][0].side, by_quarter, blocked)
    plans = plans_for(battle, rec, facts)
    all_dice: list[Die] = []
    modifiers: list[Modifier] = []
    notes: list[str] = []
    ch = BattleChanges(battle)
    children: list[Result] = []
    rolled: dict[str, list[Attacks]] = {}
    for key in SIDE_KEYS:
        rolled[key] = [roll_attacks(p, dice, ch) for p in plans[key]]
        for a in rolled[key]:
            all_dice.extend(a.dice)
            notes.extend(a.notes)
            modifiers.extend(Modifier(m.amount, f"{a.plan.unit.name}: {m.rule}", m.applies_to) for m in a.plan.modifiers)

    caused = {}
    for key in SIDE_KEYS:
        chosen = facts.attackers_strike if key == "attackers" else facts.defenders_strike
        target = chosen or sides[other(key)][0].id
        caused[key] = 0
        for lancers in (False, True):
            hits = sum(a.hits for a in rolled[key] if a.plan.lancers == lancers)
            if not hits:
                continue
            before = ch.battle.unit(target)
            saves = take_hits(ch.battle, target, hits, dice, source="hand_to_hand", lancers=lancers)
            children.append(ch.follow(saves))
            cas = saves.data["casualties"]
            if not battle.settings.combat_counts_excess_casualties and before.stamina is not None:
                cas = min(cas, max(0, before.stamina - before.casualties))
            caused[key] += cas

    totals, bonuses = {}, {}
    for key in SIDE_KEYS:
        bonus = list(supports[key].modifiers) + formation_bonuses(battle, sides[key], sides[other(key)])
        bonus += [m for a in rolled[key] for m in a.result_bonus]
        bonuses[key] = bonus
        totals[key] = caused[key] + sum(m.amount for m in bonus)
        modifiers.extend(Modifier(m.amount, f"{key.title()}: {m.rule}", RESULT) for m in bonus)
        notes.extend(supports[key].notes)
    if totals["attackers"] == totals["defenders"]:
        winner = "draw"
    else:
        winner = max(SIDE_KEYS, key=lambda k: totals[k])

    outcomes: dict[str, str] = {}
    if winner == "draw":
        testers = [(u.id, "drew the combat while shaken") for k in SIDE_KEYS for u in sides[k]
                   if ch.battle.unit(u.id).shaken]
    else:
        testers = [(u.id, "lost the combat") for u in sides[other(winner)]]
    waverers = [s.data["target"] for s in children if s.data.get("wavering_test")]
    testers += [(uid, "Wavering: took casualties") for uid in waverers if uid not in {t for t, _ in testers}]
    for uid, reason in testers:
        if ch.battle.unit(uid).in_play:
            outcomes[uid] = _test(ch, uid, "hand_to_hand", dice, reason, children, facts)
    for key in SIDE_KEYS:
        if any(outcomes.get(u.id) == "breaks" for u in sides[key]):
            reroll = _napoleon(battle, sides[key][0].side)
            for uid in supports[key].supporters:
                if ch.battle.unit(uid).in_play:
                    outcomes[uid] = _test(ch, uid, "other", dice, "saw the unit it supported break",
                                          children, facts, reroll_by=reroll, notes=notes)

    # Excess casualties go once the tests are taken, including the winners' (who take none).
    for key in SIDE_KEYS:
        for u in sides[key]:
            now = ch.battle.unit(u.id)
            if now.in_play and now.stamina is not None and now.casualties > now.stamina:
                discard = BattleChanges(ch.battle)
                discard.unit(now, "casualties", now.stamina)
                children.append(ch.follow(Result("excess_discarded", f"{now.name}: casualties beyond Stamina discarded",
                                                 changes=discard.changes)))

    for key in SIDE_KEYS:
        side = battle.sides.get(sides[key][0].side)
        if side and side.army_broken and any(ch.battle.unit(u.id).in_play for u in sides[key]):
            notes.append(f"The {side.name} army is broken: its units fight on, then fall back once the combat ends.")

    end_notes = _after_round(ch, battle, rec, sides, winner, outcomes)
    summary_bits = {k: f"{names(sides[k])} {totals[k]}" for k in SIDE_KEYS}
    verdict = "a draw" if winner == "draw" else f"won by {names(sides[winner])}"
    summary = f"Combat round {rec['round']}: {summary_bits['attackers']} against {summary_bits['defenders']} — {verdict}"
    data = {"combat": facts.combat, "round": rec["round"], "winner": winner, "totals": totals, "casualties": caused,
            "hits": {k: sum(a.hits for a in rolled[k]) for k in SIDE_KEYS},
            "bonuses": {k: [m.to_dict() for m in bonuses[k]] for k in SIDE_KEYS}, "outcomes": outcomes}
    return Result("combat_round", summary, dice=tuple(all_dice), modifiers=tuple(modifiers),
                  changes=ch.changes, notes=tuple(notes + end_notes),
                  children=tuple(children), data=data)


def _after_round(ch: BattleChanges, battle: Battle, rec: dict, sides: dict, winner: str,
                 outcomes: dict[str, str]) -> list[str]:
    """Who won the round, who left the fight, and the combat record for the next round (fields
    the break tests and saves never touch, so these changes sit first in the action's log)."""
    current = ch.battle
    notes = []
    retired = list(rec.get("retired", []))
    for uid, outcome in outcomes.items():
        if outcome == "retires" and uid in rec["attackers"] + rec["defenders"] and uid not in retired:
            retired.append(uid)
    remaining = {k: [u for u in sides[k] if current.unit(u.id).in_play and u.id not in retired] for k in SIDE_KEYS}
    over = not remaining["attackers"] and not remaining["defenders"]
    for key in SIDE_KEYS:
        for u in sides[key]:
            won = winner == key and not over
            ch.unit(u.id, "won_last_round", won, f"{u.name}: {'won the round' if won else 'no longer the last winner'}")
            if outcomes.get(u.id) in ("breaks", "retires"):
                ch.unit(u.id, "in_combat", False, f"{u.name}: leaves the combat")
    new = dict(rec, round=rec["round"] + 1, charging=[], countercharging=[], retired=retired,
               fought=[battle.turn, battle.active_side], last_winner=winner, last_round=rec["round"])
    if over:
        new.update(status="ended", awaiting_outcome=False)
        notes.append("Neither side is left in the fight: the combat is over.")
    elif not remaining["attackers"] or not remaining["defenders"]:
        victor = "attackers" if remaining["attackers"] else "defenders"
        new.update(last_winner=victor, awaiting_outcome=True)
        notes.append(f"{names(remaining[victor])} have seen off the enemy: choose their next step "
                     f"(advance, hold, change formation, fall back"
                     + (", sweeping advance" if _may_sweep(current, new, victor) else "") + ").")
    elif winner != "draw":
        notes.append("The losers held: the fight goes on next Hand-to-Hand phase unless the winners fall back.")
    else:
        notes.append("A draw: the fight goes on next Hand-to-Hand phase.")
    ch.at(("combats", rec["id"]), new, f"Combat {rec['id']}: round {rec['round']} fought")
    return notes


def _may_sweep(battle: Battle, rec: dict, key: str) -> bool:
    return rec.get("last_round") == 1 and any(
        battle.unit(u).is_cavalry and battle.unit(u).in_play and not battle.unit(u).shaken for u in rec[key]
        if u not in rec.get("retired", []))


def odds_combat_round(doc: dict, facts: CombatRound) -> list[str]:
    """The exact odds of the round (``combat_odds``, which reads this module's plans)."""
    from .combat_odds import odds_combat_round as odds

    return odds(doc, facts)


COMBAT_ROUND = ActionSpec("combat_round", "Fight a round of hand-to-hand", CombatRound, resolve_combat_round,
                          odds_combat_round)
