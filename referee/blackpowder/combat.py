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

from ..core.contract import ActionSpec
from ..core.results import Die, Modifier, Result
from .attacks import Attacks, formation_bonuses, roll_attacks
from .break_tests import break_test, commander_modifiers
from .combat_odds import odds_combat_round
from .combat_plan import CombatRound, check_round, plans_for, supports_by_side
from .combat_records import SIDE_KEYS, combat_record, combat_title, may_sweep, names, other
from .model import Battle, BattleChanges
from .morale import take_hits
from .supports import RESULT, reckon_supports


def _test(ch: BattleChanges, uid: str, context: str, dice, reason: str, children: list, facts: CombatRound, *,
          reroll_by: str | None = None, notes: list[str] | None = None) -> str:
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
    battle = Battle.from_doc(doc)
    rec = combat_record(battle, facts.combat)
    sides = check_round(battle, rec, facts)
    supports = {}
    for key, (by_quarter, blocked) in supports_by_side(facts).items():
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
                     + (", sweeping advance" if may_sweep(current, new, victor) else "") + ").")
    elif winner != "draw":
        notes.append("The losers held: the fight goes on next Hand-to-Hand phase unless the winners fall back.")
    else:
        notes.append("A draw: the fight goes on next Hand-to-Hand phase.")
    ch.at(("combats", rec["id"]), new, f"{combat_title(ch.battle, rec)}: round {rec['round']} fought")
    return notes


# ``CombatRound`` and ``odds_combat_round`` are named here too: the action is read as one whole.
__all__ = ["COMBAT_ROUND", "CombatRound", "odds_combat_round", "resolve_combat_round"]

COMBAT_ROUND = ActionSpec("combat_round", "Fight a round of hand-to-hand", CombatRound, resolve_combat_round,
                          odds_combat_round)
