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

from dataclasses import dataclass, field
from typing import Literal

from pydantic import Field, field_validator

from ..actions import ActionSpec, Facts
from ..dice import d3, roll
from ..results import Die, Modifier, Result
from .adjust import allowed_formations
from .model import FORMATIONS, Battle, RuleError, Unit, compact, doc_change, mark_used, unit_change
from .supports import QUARTERS, reckon_supports
from .system import SYSTEM

SIDE_KEYS = ("attackers", "defenders")
HIT = "combat dice"
RESULT = "combat result"
BASE_NEED = 4
BUILDING_BONUS = {"large": 3, "standard": 2, "small": 1}
UNIT_SIZE_BUILDING_BONUS = {"large": 3, "standard": 3, "small": 2}
FRESHLY_RAISED = {1: "Terror", 2: "Panic", 3: "Panic", 4: "Sterling", 5: "Sterling", 6: "Huzzah"}


def other(key: str) -> str:
    return "defenders" if key == "attackers" else "attackers"


# --- the records ----------------------------------------------------------------------------

def combats(battle: Battle) -> dict:
    return battle.doc.get("combats", {}) or {}


def combat_record(battle: Battle, combat_id: str) -> dict:
    rec = combats(battle).get(combat_id)
    if rec is None:
        raise RuleError(f"There is no combat “{combat_id}”.")
    return rec


def open_combat_of(battle: Battle, unit_id: str) -> tuple[str, dict] | None:
    for cid, rec in combats(battle).items():
        if rec.get("status") == "open" and unit_id in rec["attackers"] + rec["defenders"]:
            return cid, rec
    return None


def next_combat_id(battle: Battle) -> str:
    n = len(combats(battle)) + 1
    while f"c{n}" in combats(battle):
        n += 1
    return f"c{n}"


def new_combat_record(cid: str, attackers: list[str], defenders: list[str], *, turn: int,
                      countercharging: list[str] = (), flank_rear: list[str] = (),
                      charging: list[str] | None = None) -> dict:
    return {"id": cid, "attackers": list(attackers), "defenders": list(defenders),
            "charging": list(attackers if charging is None else charging),
            "countercharging": list(countercharging), "flank_rear": list(flank_rear), "round": 1,
            "retired": [], "last_winner": None, "awaiting_outcome": False, "fought": None,
            "started_turn": turn, "status": "open"}


def engaged(battle: Battle, rec: dict, key: str) -> list[Unit]:
    return [battle.unit(u) for u in rec[key] if battle.unit(u).in_play and u not in rec.get("retired", [])]


def names(units) -> str:
    return ", ".join(u.name for u in units) or "nobody"


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
    changes: list = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    result_bonus: list[Modifier] = field(default_factory=list)


def roll_attacks(plan: AttackPlan, dice_source) -> Attacks:
    unit = plan.unit
    rolled: list[Die] = []
    notes = list(plan.notes)
    changes = []
    used: list[str] = []  # one change to ``used`` per unit, so the befores stay true
    count, need = plan.dice, plan.need
    if unit.has("Freshly Raised") and not unit.has_used("freshly_raised_combat"):
        (die,) = roll(dice_source, 1, 6, f"{unit.name}: Freshly Raised")
        rolled.append(die)
        effect = FRESHLY_RAISED[die.value]
        used.append("freshly_raised_combat")
        if effect in ("Terror", "Panic"):
            need = 6
            notes.append(f"Freshly Raised {die.value}: {effect} — {unit.name} hits only on 6s.")
            if effect == "Terror":
                changes.append(unit_change(unit, "disordered", True))
        elif effect == "Huzzah":
            count += 1
            notes.append(f"Freshly Raised 6: Huzzah — {unit.name} gets one more attack.")
        else:
            notes.append(f"Freshly Raised {die.value}: Sterling — no effect.")
    shown_need = min(6, max(2, need))  # a 1 always misses
    faces = list(roll(dice_source, count, 6, f"{unit.name}: attacks (hit on {need}+)", shown_need))
    rolled.extend(faces)
    values = [d.value for d in faces]

    def hit(v: int) -> bool:
        return v != 1 and v >= need

    rerolled = False
    if plan.reroll_all and any(not hit(v) for v in values):
        misses = [i for i, v in enumerate(values) if not hit(v)]
        again = roll(dice_source, len(misses), 6, f"{unit.name}: re-roll ({plan.reroll_all})", shown_need)
        rolled.extend(again)
        for i, d in zip(misses, again):
            values[i] = d.value
        rerolled = True
        notes.append(f"{plan.reroll_all}: {unit.name} re-rolls {len(misses)} failed attack(s).")
        if plan.reroll_all == "Bloodthirsty":
            used.append("bloodthirsty")
    if plan.reroll_one and not rerolled and any(not hit(v) for v in values):
        i = next(i for i, v in enumerate(values) if not hit(v))
        (d,) = roll(dice_source, 1, 6, f"{unit.name}: re-roll ({plan.reroll_one})", shown_need)
        rolled.append(d)
        notes.append(f"{plan.reroll_one}: {unit.name} re-rolls one failed attack ({values[i]} → {d.value}).")
        values[i] = d.value
        used.append("tough_fighters")
    hits = sum(1 for v in values if hit(v))
    if used:
        changes.append(unit_change(unit, "used", list(unit.used) + used,
                                   f"{unit.name}: used {', '.join(k.replace('_', ' ') for k in used)}"))
    bonus = []
    if plan.heavy == "D3":
        (d,) = roll(dice_source, 1, 6, f"{unit.name}: Heavy Cavalry (D3)")
        rolled.append(d)
        bonus.append(Modifier(d3(d.value), f"Heavy Cavalry ({unit.name}, D3 rolled {d.value})", RESULT))
    elif plan.heavy == "+1":
        bonus.append(Modifier(1, f"Heavy Cavalry +1 ({unit.name})", RESULT))
    return Attacks(plan, rolled, hits, compact(changes), notes, bonus)


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
    commander_within_12: list[str] = Field(default_factory=list, title="Units with their brigade commander within 12\"",
                                           json_schema_extra={"ref": "unit", "side": "any", "group": "Break tests",
                                                              "help": "Inspirational or Loathed commanders change tests."})
    von_zieten_within_12: list[str] = Field(default_factory=list, title="Units within 12\" of von Zieten",
                                            json_schema_extra={"ref": "unit", "side": "any", "group": "Break tests"})
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


def _test(current: Battle, uid: str, context: str, dice, reason: str, children: list, facts: CombatRound, *,
          reroll_by: str | None = None, notes: list[str] | None = None) -> tuple[Battle, str]:
    from .break_tests import break_test, commander_modifiers

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
    children.append(result)
    return current.with_changes(result.changes), result.data["outcome"]


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
    changes: list = []
    children: list[Result] = []
    rolled: dict[str, list[Attacks]] = {}
    for key in SIDE_KEYS:
        rolled[key] = [roll_attacks(p, dice) for p in plans[key]]
        for a in rolled[key]:
            all_dice.extend(a.dice)
            notes.extend(a.notes)
            changes.extend(a.changes)
            modifiers.extend(Modifier(m.amount, f"{a.plan.unit.name}: {m.rule}", m.applies_to) for m in a.plan.modifiers)
    current = battle.with_changes(changes)

    caused = {}
    for key in SIDE_KEYS:
        chosen = facts.attackers_strike if key == "attackers" else facts.defenders_strike
        target = chosen or sides[other(key)][0].id
        caused[key] = 0
        for lancers in (False, True):
            hits = sum(a.hits for a in rolled[key] if a.plan.lancers == lancers)
            if not hits:
                continue
            before = current.unit(target)
            saves = take_hits(current, target, hits, dice, source="hand_to_hand", lancers=lancers)
            children.append(saves)
            current = current.with_changes(saves.changes)
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
        testers = [(u.id, "drew the combat while shaken") for k in SIDE_KEYS for u in sides[k] if current.unit(u.id).shaken]
    else:
        testers = [(u.id, "lost the combat") for u in sides[other(winner)]]
    waverers = [s.data["target"] for s in children if s.data.get("wavering_test")]
    testers += [(uid, "Wavering: took casualties") for uid in waverers if uid not in {t for t, _ in testers}]
    for uid, reason in testers:
        if current.unit(uid).in_play:
            current, outcomes[uid] = _test(current, uid, "hand_to_hand", dice, reason, children, facts)
    for key in SIDE_KEYS:
        if any(outcomes.get(u.id) == "breaks" for u in sides[key]):
            reroll = _napoleon(battle, sides[key][0].side)
            for uid in supports[key].supporters:
                if current.unit(uid).in_play:
                    current, outcomes[uid] = _test(current, uid, "other", dice, "saw the unit it supported break",
                                                   children, facts, reroll_by=reroll, notes=notes)

    # Excess casualties go once the tests are taken, including the winners' (who take none).
    for key in SIDE_KEYS:
        for u in sides[key]:
            now = current.unit(u.id)
            if now.in_play and now.stamina is not None and now.casualties > now.stamina:
                trim = Result("excess_discarded", f"{now.name}: casualties beyond Stamina discarded",
                              changes=(unit_change(now, "casualties", now.stamina),))
                children.append(trim)
                current = current.with_changes(trim.changes)

    for key in SIDE_KEYS:
        side = battle.sides.get(sides[key][0].side)
        if side and side.army_broken and any(current.unit(u.id).in_play for u in sides[key]):
            notes.append(f"The {side.name} army is broken: its units fight on, then fall back once the combat ends.")

    record_changes, end_notes = _after_round(battle, current, rec, sides, winner, outcomes)
    summary_bits = {k: f"{names(sides[k])} {totals[k]}" for k in SIDE_KEYS}
    verdict = "a draw" if winner == "draw" else f"won by {names(sides[winner])}"
    summary = f"Combat round {rec['round']}: {summary_bits['attackers']} against {summary_bits['defenders']} — {verdict}"
    data = {"combat": facts.combat, "round": rec["round"], "winner": winner, "totals": totals, "casualties": caused,
            "hits": {k: sum(a.hits for a in rolled[k]) for k in SIDE_KEYS},
            "bonuses": {k: [m.to_dict() for m in bonuses[k]] for k in SIDE_KEYS}, "outcomes": outcomes}
    return Result("combat_round", summary, dice=tuple(all_dice), modifiers=tuple(modifiers),
                  changes=tuple(compact(changes + record_changes)), notes=tuple(notes + end_notes),
                  children=tuple(children), data=data)


def _after_round(battle: Battle, current: Battle, rec: dict, sides: dict, winner: str,
                 outcomes: dict[str, str]) -> tuple[list, list[str]]:
    """Who won the round, who left the fight, and the combat record for the next round.
    Changes are built against ``battle`` for fields the children never touch."""
    changes, notes = [], []
    retired = list(rec.get("retired", []))
    for uid, outcome in outcomes.items():
        if outcome == "retires" and uid in rec["attackers"] + rec["defenders"] and uid not in retired:
            retired.append(uid)
    remaining = {k: [u for u in sides[k] if current.unit(u.id).in_play and u.id not in retired] for k in SIDE_KEYS}
    over = not remaining["attackers"] and not remaining["defenders"]
    for key in SIDE_KEYS:
        for u in sides[key]:
            won = winner == key and not over
            changes.append(unit_change(battle.unit(u.id), "won_last_round", won,
                                       f"{u.name}: {'won the round' if won else 'no longer the last winner'}"))
            if outcomes.get(u.id) in ("breaks", "retires"):
                changes.append(unit_change(battle.unit(u.id), "in_combat", False,
                                           f"{u.name}: leaves the combat"))
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
    changes.append(doc_change(battle, ("combats", rec["id"]), new, f"Combat {rec['id']}: round {rec['round']} fought"))
    # The loser's units may already be changed by break tests; rebuild those in_combat changes
    # against the state after the tests so the before values match.
    return [c for c in changes if c is not None], notes


def _may_sweep(battle: Battle, rec: dict, key: str) -> bool:
    return rec.get("last_round") == 1 and any(
        battle.unit(u).is_cavalry and battle.unit(u).in_play and not battle.unit(u).shaken for u in rec[key]
        if u not in rec.get("retired", []))


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


def end_combat_changes(battle: Battle, rec: dict) -> list:
    """Everyone in the fight is free again (unless fighting elsewhere); the record is closed."""
    changes = []
    for uid in rec["attackers"] + rec["defenders"]:
        unit = battle.unit(uid)
        elsewhere = any(r.get("status") == "open" and r["id"] != rec["id"] and uid in r["attackers"] + r["defenders"]
                        for r in combats(battle).values())
        if not elsewhere:
            changes.append(unit_change(unit, "in_combat", False, f"{unit.name}: out of combat"))
        changes.append(unit_change(unit, "won_last_round", False, f"{unit.name}: no longer the last winner"))
    changes.append(doc_change(battle, ("combats", rec["id"], "status"), "ended", f"Combat {rec['id']} over"))
    changes.append(doc_change(battle, ("combats", rec["id"], "awaiting_outcome"), False,
                              f"Combat {rec['id']}: no longer waiting for the winners"))
    return compact(changes)


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
    changes, notes = [], []
    if choice in ("sweeping_advance", "sweeping_charge"):
        if losers:
            raise RuleError("A sweeping advance needs the enemy gone from the fight.")
        if not _may_sweep(battle, rec, victor):
            raise RuleError("Only cavalry that won a first round and are not shaken can sweep forward.")
        winners = [u for u in winners if u.is_cavalry and not u.shaken]
    if choice == "change_formation":
        if not facts.formation:
            raise RuleError("Say which formation they take.")
        key = facts.formation
        for u in winners:
            if key not in allowed_formations(u):
                raise RuleError(f"{u.name} cannot form {FORMATIONS[key]}.")
            changes.append(unit_change(u, "formation", key))
    marker = doc_change(battle, ("combats", rec["id"], "outcome_round"), rec.get("last_round"),
                        f"Combat {rec['id']}: the winners have chosen after round {rec.get('last_round')}")
    continues = bool(losers) and choice != "fall_back"
    if choice == "advance" and not losers and retired_losers:
        continues = True
        for u in retired_losers:
            changes.append(unit_change(u, "in_combat", True, f"{u.name}: caught again by the advance"))
        changes.append(doc_change(battle, ("combats", rec["id"], "retired"),
                                  [u for u in rec["retired"] if u not in {x.id for x in retired_losers}]))
        changes.append(doc_change(battle, ("combats", rec["id"], "awaiting_outcome"), False,
                                  f"Combat {rec['id']}: no longer waiting for the winners"))
        notes.append("The winners move back into contact with the retiring enemy: the fight goes on.")
    if not continues:
        changes += end_combat_changes(battle, rec)
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
        changes += compact(mark_used(u, "sweeping_charge", f"{u.name}: may charge from its sweeping advance")
                           for u in winners)
    summary = f"{names(winners)}: {OUTCOME_CHOICES[choice].lower()}" + ("" if continues else " — the combat ends")
    return Result("combat_outcome", summary, changes=tuple(compact(changes + [marker])), notes=tuple(notes),
                  data={"combat": rec["id"], "choice": choice, "ended": not continues})


# --- odds ------------------------------------------------------------------------------------

def _hit_die(need: int, reroll_all: bool):
    import icepool

    h = 7 - need
    if reroll_all:
        return icepool.Die({1: h * 6 + (6 - h) * h, 0: (6 - h) * (6 - h)})
    return icepool.Die({1: h, 0: 6 - h})


def unit_hits_die(p: AttackPlan):
    import icepool

    if not p.dice:
        return icepool.Die([0])
    hits = p.dice @ _hit_die(p.need, bool(p.reroll_all))
    if p.reroll_one and not p.reroll_all:
        hits = hits.map(_one_more_try(p.dice, _hit_die(p.need, False)))
    return hits


def side_hits_die(plans: list[AttackPlan]):
    import icepool

    total = icepool.Die([0])
    for p in plans:
        total = total + unit_hits_die(p)
    return total


def side_casualties_die(battle: Battle, plans: list[AttackPlan], target: Unit):
    """Exact casualties one side causes: its attacks with their re-rolls, then the target's saves.
    Freshly Raised rolls are left out (they happen at the table)."""
    import icepool

    from .morale import all_save_modifiers

    total = icepool.Die([0])
    for p in plans:
        hits = unit_hits_die(p)
        if target.morale is None:
            fail_faces = 6
        else:
            bonus = sum(m.amount for m in all_save_modifiers(target, source="hand_to_hand", lancers=p.lancers))
            need = target.morale - bonus
            fail_faces = min(6, max(0, need - 1))
        fail = icepool.Die({1: fail_faces, 0: 6 - fail_faces})
        total = total + hits.map(_saves_failed(fail))
    return total


# icepool reads a mapping function's parameters, so the dice it needs are closed over, not defaults.
def _one_more_try(count: int, extra):
    return lambda k: k + extra if k < count else k


def _saves_failed(fail):
    return lambda k: k @ fail if k else 0


def odds_combat_round(doc: dict, facts: CombatRound) -> list[str]:
    import icepool

    battle = Battle.from_doc(doc)
    rec = combat_record(battle, facts.combat)
    sides = _check_round(battle, rec, facts)
    plans = plans_for(battle, rec, facts)
    dice, fixed, lines = {}, {}, []
    caused, heavy_bonus, struck = {}, {}, {}
    support_bonus = {}
    for key, (by_quarter, blocked) in _supports_by_side(facts).items():
        support_bonus[key] = reckon_supports(battle, [u.id for u in sides[key]], set(rec.get("flank_rear", [])),
                                             sides[key][0].side, by_quarter, blocked).bonus
    for key in SIDE_KEYS:
        chosen = facts.attackers_strike if key == "attackers" else facts.defenders_strike
        target = battle.unit(chosen) if chosen else sides[other(key)][0]
        cas = side_casualties_die(battle, plans[key], target)
        heavy = icepool.Die([0])
        for p in plans[key]:
            heavy = heavy + (icepool.d(3) if p.heavy == "D3" else 1 if p.heavy == "+1" else 0)
        dice[key] = cas + heavy
        caused[key], heavy_bonus[key], struck[other(key)] = cas, heavy, target
        fixed[key] = sum(m.amount for m in formation_bonuses(battle, sides[key], sides[other(key)]))
        hits = side_hits_die(plans[key])
        spread = " · ".join(f"{k}: {float(hits.probability(k)):.0%}" for k in hits.outcomes()
                            if hits.probability(k) >= 0.005)
        lines.append(f"{names(sides[key])} hits — {spread} (expected {float(hits.mean()):.2f}); "
                     f"expected casualties after saves {float(cas.mean()):.2f}")
    diff = dice["attackers"] - dice["defenders"]

    def chances(shift: int) -> str:
        d = diff + shift
        win, draw = float((d > 0).probability(True)), float((d == 0).probability(True))
        return f"{win:.0%} / {draw:.0%} / {1 - win - draw:.0%}"

    base = fixed["attackers"] - fixed["defenders"]
    lines.append(f"Chargers win / draw / lose before supports: {chances(base)}")
    if support_bonus["attackers"] or support_bonus["defenders"]:
        lines.append(f"With supports (+{support_bonus['attackers']} / +{support_bonus['defenders']}): "
                     f"{chances(base + support_bonus['attackers'] - support_bonus['defenders'])}")
    shift = base + support_bonus["attackers"] - support_bonus["defenders"]
    for key in SIDE_KEYS:
        unit = struck[key]
        chance = _struck_unit_breaks(battle, facts, unit, key, caused, heavy_bonus, shift)
        lines.append(f"{unit.name} tests and breaks: {chance:.1%}")
    return lines


def _struck_unit_breaks(battle: Battle, facts: CombatRound, unit, key: str, caused: dict, heavy: dict,
                        shift: int) -> float:
    """Exact chance that the unit taking ``key``'s side's hits ends the round broken: it tests when
    its side loses, when the round is drawn and it is left shaken, or (Wavering) when it takes any
    casualty; the test counts the casualties just taken. Supporters' tests are left out."""
    from dataclasses import replace

    from .break_tests import break_modifiers, commander_modifiers, outcome_chances

    if unit.has("Steady") and not unit.has_used("steady"):
        return 0.0
    extra = commander_modifiers(battle, unit,
                                commander_within_12=unit.id in facts.commander_within_12
                                or unit.id in facts.commander_with,
                                von_zieten_within_12=unit.id in facts.von_zieten_within_12)
    valiant = unit.has("Valiant") and not unit.has_used("valiant")
    breaks_after: dict[int, float] = {}
    for taken in caused[other(key)].outcomes():
        hurt = replace(unit, casualties=unit.casualties + taken)
        bonus = sum(m.amount for m in break_modifiers(hurt, extra_modifiers=extra))
        breaks_after[taken] = outcome_chances(hurt, "hand_to_hand", bonus, valiant=valiant,
                                              cannot_retire=unit.id in facts.cannot_retire)["breaks"]

    def sign(v):  # +1 the chargers win, 0 a draw, -1 the defenders win
        return (v > 0) - (v < 0)

    own = caused[key] + heavy[key]
    chance = 0.0
    for taken, p_taken in _probabilities(caused[other(key)]):
        hurt = replace(unit, casualties=unit.casualties + taken)
        for enemy_bonus, p_bonus in _probabilities(heavy[other(key)]):
            enemy_score = taken + enemy_bonus
            diff = (own - enemy_score) if key == "attackers" else (enemy_score - own)
            result = (diff + shift).map(sign)
            lost = float(result.probability(-1 if key == "attackers" else 1))
            drawn = float(result.probability(0))
            tests = lost + (drawn if hurt.shaken else 0.0)
            if unit.has("Wavering") and taken > 0:
                tests = 1.0
            chance += p_taken * p_bonus * tests * breaks_after[taken]
    return chance


def _probabilities(die) -> list[tuple[int, float]]:
    return [(outcome, float(die.probability(outcome))) for outcome in die.outcomes()]


SYSTEM.add(ActionSpec("combat_round", "Fight a round of hand-to-hand", CombatRound, resolve_combat_round,
                      odds_combat_round))
SYSTEM.add(ActionSpec("combat_outcome", "The winners' next step", CombatOutcome, resolve_combat_outcome,
                      rolls_dice=False))
