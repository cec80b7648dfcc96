"""Break tests: 2D6 with modifiers, read on the table for the unit's type and the test's context.

After every test the unit's casualties beyond its Stamina are discarded. Squares and garrisons
hold where others retire; artillery breaks whatever it scores; Steady passes its first test at
the top score; Valiant re-rolls one failed test in the game.
"""
from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Literal

from pydantic import Field

from ..core.contract import ActionSpec, Facts
from ..core.dice import roll
from ..core.odds import Chances
from ..core.results import MISSING, Modifier, Result, total
from .model import Battle, BattleChanges, RuleError, Unit
from .order_tests import commander_break_modifiers

BREAK = "break test"
CONTEXTS = {"shooting": "Shooting", "closing_fire": "Closing fire", "hand_to_hand": "Hand-to-hand",
            "other": "Other (saw a friend break)"}
OUTCOME_WORDS = {"breaks": "breaks and is removed", "retires": "retires a full move, disordered",
                 "holds": "holds its ground"}
MAX_SCORE = 12


def break_modifiers(unit: Unit, *, hit_by_artillery: bool = False, extra_modifiers=()) -> list[Modifier]:
    mods = []
    if unit.excess_casualties:
        mods.append(Modifier(-unit.excess_casualties, "Excess casualties", BREAK))
    if unit.disordered:
        mods.append(Modifier(-1, "Disordered", BREAK))
    if hit_by_artillery:
        mods.append(Modifier(-1, "Hit by artillery this turn", BREAK))
    mods.extend(extra_modifiers)
    return mods


ARTILLERY_ONLY_AFTER_SHOOTING = ("Hit by artillery counts only after shooting and closing fire, not in this test: "
                                 "no −1.")


def artillery_counts(context: str) -> bool:
    """The −1 for being hit by artillery belongs to tests after shooting and closing fire only."""
    return context in ("shooting", "closing_fire")


def resolve_context(battle: Battle, context: str) -> str:
    """The column of the results table: a closing-fire test reads the hand-to-hand column (as
    ``shooting.py`` does), a test for another cause the column the settings name."""
    if context not in CONTEXTS:
        raise RuleError(f"A break test is taken for shooting, closing fire, hand-to-hand or other, not “{context}”.")
    if context == "closing_fire":
        return "hand_to_hand"
    return battle.settings.break_test_default_context if context == "other" else context


def table_outcome(unit: Unit, score: int, context: str) -> str:
    """The row of the results table: context is "shooting" or "hand_to_hand"."""
    if unit.is_artillery:
        return "breaks"
    if score <= 4:
        return "breaks"
    if score == 5:
        return "retires"
    if score == 6 and context == "hand_to_hand" and unit.is_cavalry:
        return "retires"
    return "holds"


def break_test(battle: Battle, unit_id: str, context: str, dice, *, hit_by_artillery: bool = False,
               extra_modifiers=(), reason: str = "", cannot_retire: bool = False,
               use_valiant: bool = True) -> Result:
    """Take a break test and apply its outcome.

    ``data``: ``outcome`` ("breaks" | "retires" | "holds"), ``score`` (the modified score of the
    roll that stands), ``passed`` (held), ``context`` (the column used), ``steady``/``valiant``
    (whether either rule was spent).
    """
    unit = battle.unit(unit_id)
    if not unit.in_play:
        raise RuleError(f"{unit.name} is no longer on the field.")
    column = resolve_context(battle, context)
    mods = break_modifiers(unit, hit_by_artillery=hit_by_artillery, extra_modifiers=extra_modifiers)
    bonus = total(mods)
    all_dice = []
    notes: list[str] = []
    ch = BattleChanges(battle)
    steady = valiant = False

    if unit.has("Steady") and not unit.has_used("steady"):
        steady = True
        score, outcome = MAX_SCORE, "holds"
        ch.used(unit, "steady", f"{unit.name}: Steady used")
        notes.append("Steady: the unit's first break test of the battle is passed at the top score.")
    else:
        pair = roll(dice, 2, 6, "break test", side=unit.side)
        all_dice.extend(pair)
        score = sum(d.value for d in pair) + bonus
        outcome = table_outcome(unit, score, column)
        # A retire that a square or garrison turns into a hold is no failure worth Valiant.
        if (settle(unit, outcome, cannot_retire=cannot_retire) != "holds" and use_valiant and unit.has("Valiant") and not unit.has_used("valiant")
                and not unit.is_artillery):
            valiant = True
            first = score
            pair = roll(dice, 2, 6, "break test re-roll: Valiant", side=unit.side)
            all_dice.extend(pair)
            score = sum(d.value for d in pair) + bonus
            outcome = table_outcome(unit, score, column)
            ch.used(unit, "valiant", f"{unit.name}: Valiant used")
            notes.append(f"Valiant: the failed test ({first}) is re-rolled once; the new score {score} stands.")

    if unit.is_artillery and not steady:
        notes.append("Artillery that has to take a break test breaks whatever it scores.")
    if outcome == "retires":
        outcome = settle(unit, outcome, cannot_retire=cannot_retire)
        if unit.formation == "square":
            notes.append("A square never retires: it holds its ground.")
        elif unit.formation == "building":
            notes.append("A garrison ignores a retire result and holds without becoming disordered.")
        elif cannot_retire:
            notes.append("It could not retire one move, nor two: it breaks instead.")
        else:
            ch.unit(unit, "disordered", True)
            notes.append("Retire one full move to the rear (two if one is blocked; if still blocked, "
                         "tell the app it could not retire).")
    if outcome == "breaks":
        ch.unit(unit, "destroyed", True, f"{unit.name}: broken, removed from the field")
    if unit.stamina is not None and unit.casualties > unit.stamina:
        ch.unit(unit, "casualties", unit.stamina,
                                   f"{unit.name}: excess casualties discarded ({unit.casualties} → {unit.stamina})")
    why = f" ({reason})" if reason else ""
    summary = f"Break test{why}: {unit.name} scores {score} — {OUTCOME_WORDS[outcome]}"
    return Result(
        "break_test", summary, dice=tuple(all_dice), modifiers=tuple(mods), changes=ch.changes,
        notes=tuple(notes),
        data={"unit": unit.id, "outcome": outcome, "score": score, "passed": outcome == "holds",
              "context": column, "steady": steady, "valiant": valiant},
    )


# --- the umpire's break test action ------------------------------------------------------

def commander_modifiers(battle: Battle, unit: Unit, *, commander_within_12: bool = False,
                        von_zieten_within_12: bool = False) -> list[Modifier]:
    """Inspirational (+1) or Loathed (−1) from the unit's own brigade commander within 12"
    (``command.commander_break_modifiers``), and von Zieten's +1 when he is near but is not that
    commander (counted once either way)."""
    mods = commander_break_modifiers(battle, unit, commander_within_12)
    own = battle.commander_of(unit)
    zieten_counted = commander_within_12 and own is not None and own.break_test_bonus_within_12
    if von_zieten_within_12 and not zieten_counted:
        mods.append(Modifier(1, "von Zieten within 12\"", BREAK))
    return mods


def commander_counts(battle: Battle, unit: Unit) -> bool:
    """Whether the unit's brigade commander being within 12" changes its break tests at all
    (Inspirational, Loathed, or a commander who adds to tests near him)."""
    return bool(commander_break_modifiers(battle, unit, True))


def von_zieten_present(battle: Battle) -> bool:
    """Whether a commander who adds to the break tests of every unit within 12" of him (von
    Zieten) leads a brigade or an army in this battle: otherwise being near him changes nothing."""
    commanders = [b.commander for b in battle.brigades.values()] + [s.general for s in battle.sides.values()]
    return any(c is not None and c.break_test_bonus_within_12 for c in commanders)


class BreakTestFacts(Facts):
    unit: str = Field(title="Unit taking the test", json_schema_extra={"ref": "unit", "side": "any"})
    context: Literal["shooting", "closing_fire", "hand_to_hand", "other"] = Field(
        "shooting", title="Why it tests", json_schema_extra={"labels": CONTEXTS})
    hit_by_artillery: bool = Field(False, title="Hit by artillery this turn?",
                                   json_schema_extra={"help": "Counts for shooting and closing fire tests."})
    commander_within_12: bool = Field(False, title="Its brigade commander within 12\"?",
                                      json_schema_extra={"group": "Commanders"})
    von_zieten_within_12: bool = Field(False, title="von Zieten within 12\"?", json_schema_extra={"group": "Commanders"})
    cannot_retire: bool = Field(False, title="Unable to retire even two moves?",
                                json_schema_extra={"help": "A retire result then becomes a break."})
    use_valiant: bool = Field(True, title="Re-roll a failed test with Valiant?")
    supported_unit_broke: bool = Field(False, title="A unit it was supporting broke?",
                                       json_schema_extra={"help": "Say so for the log; the test uses the “other” column."})


def _facts_modifiers(battle: Battle, unit: Unit, facts: BreakTestFacts) -> list[Modifier]:
    return commander_modifiers(battle, unit, commander_within_12=facts.commander_within_12,
                               von_zieten_within_12=facts.von_zieten_within_12)


def second_try_by(battle: Battle, unit: Unit, facts: BreakTestFacts) -> str | None:
    """The General (Napoleon) under whom a supporter that saw its unit break takes a failed test
    again, as it does in the combat flow (``combat._napoleon``)."""
    side = battle.sides.get(unit.side)
    if facts.supported_unit_broke and side and side.general and side.general.supporters_retake_break_tests:
        return side.general.name
    return None


def resolve_break_test(doc: dict, facts: BreakTestFacts, dice) -> Result:
    """The test, which also settles a break test the unit owed (``turns.owed_now``)."""
    result = _called_break_test(doc, facts, dice)
    owed = doc.get("owed_break_tests") or {}
    if facts.unit not in owed:
        return result
    ch = BattleChanges(Battle.from_doc(doc))
    rest = {uid: why for uid, why in owed.items() if uid != facts.unit}
    ch.at(("owed_break_tests",), rest or MISSING, "The owed break test taken")
    return replace(result, changes=tuple(result.changes) + tuple(ch.changes))


def _called_break_test(doc: dict, facts: BreakTestFacts, dice) -> Result:
    battle = Battle.from_doc(doc)
    unit = battle.unit(facts.unit)
    reason = "saw the unit it supported break" if facts.supported_unit_broke else "called by the umpire"
    context = "other" if facts.supported_unit_broke else facts.context
    hit = facts.hit_by_artillery and artillery_counts(context)
    kw = dict(hit_by_artillery=hit, extra_modifiers=_facts_modifiers(battle, unit, facts),
              cannot_retire=facts.cannot_retire, use_valiant=facts.use_valiant)
    result = break_test(battle, unit.id, context, dice, reason=reason, **kw)
    if facts.hit_by_artillery and not hit:
        result = Result(result.kind, result.summary, dice=result.dice, modifiers=result.modifiers,
                        changes=result.changes, notes=(ARTILLERY_ONLY_AFTER_SHOOTING,) + result.notes,
                        children=result.children, data=result.data)
    general = second_try_by(battle, unit, facts)
    if general is None or result.data["outcome"] == "holds":
        return result
    again = break_test(battle, unit.id, context, dice, reason=f"{reason}; re-rolled by {general}", **kw)
    discarded = Result("break_test_discarded", f"Discarded: {result.summary}", dice=result.dice,
                       modifiers=result.modifiers, data=result.data)
    note = f"{general}: {unit.name} takes its test again ({result.data['score']} → {again.data['score']})."
    return Result(again.kind, again.summary, dice=again.dice, modifiers=again.modifiers, changes=again.changes,
                  notes=(note,) + ((ARTILLERY_ONLY_AFTER_SHOOTING,) if facts.hit_by_artillery and not hit else ())
                  + again.notes, children=(discarded,), data={**again.data, "second_try": general})


OUTCOMES = ("holds", "retires", "breaks")


def settle(unit: Unit, outcome: str, *, cannot_retire: bool = False) -> str:
    """A retire result as it ends for this unit: squares and garrisons hold; a blocked unit breaks."""
    if outcome == "retires" and unit.formation in ("square", "building"):
        return "holds"
    if outcome == "retires" and cannot_retire:
        return "breaks"
    return outcome


def outcome_fractions(unit: Unit, column: str, bonus: int, *, valiant: bool = False,
                      cannot_retire: bool = False) -> dict[str, Fraction]:
    """Exact chances of each outcome from 2D6 + bonus (and a Valiant re-roll when it applies).
    Worked out over the eleven totals of 2D6 directly, and kept by what the results table reads of
    the unit: the combat and shooting odds ask this for every number of casualties a unit might
    take."""
    key = (unit.is_artillery, unit.is_cavalry, unit.formation in ("square", "building"), column, bonus,
           valiant and not unit.is_artillery, cannot_retire)
    found = _OUTCOMES_KEPT.get(key)
    if found is None:
        once = dict.fromkeys(OUTCOMES, 0)
        for pips, ways in TWO_D6_WAYS.items():
            once[settle(unit, table_outcome(unit, pips + bonus, column), cannot_retire=cannot_retire)] += ways
        found = {name: Fraction(ways, 36) for name, ways in once.items()}
        if key[5]:
            # A failed first test is taken again and the second stands.
            failed = 1 - found["holds"]
            found = {name: (found["holds"] if name == "holds" else 0) + failed * p for name, p in found.items()}
        if len(_OUTCOMES_KEPT) < 4096:
            _OUTCOMES_KEPT[key] = found
    return dict(found)


# outcome_fractions by (artillery, cavalry, never retires, column, bonus, Valiant, cannot retire).
_OUTCOMES_KEPT: dict[tuple, dict[str, Fraction]] = {}


def outcome_chances(unit: Unit, column: str, bonus: int, *, valiant: bool = False,
                    cannot_retire: bool = False) -> dict[str, float]:
    """``outcome_fractions`` as plain numbers, every outcome named."""
    exact = outcome_fractions(unit, column, bonus, valiant=valiant, cannot_retire=cannot_retire)
    return {name: float(exact[name]) for name in OUTCOMES}


# How many of the 36 ways two dice fall give each total.
TWO_D6_WAYS = {total: 6 - abs(total - 7) for total in range(2, 13)}


def odds_break_test(doc: dict, facts: BreakTestFacts) -> list[str]:
    battle = Battle.from_doc(doc)
    unit = battle.unit(facts.unit)
    if unit.has("Steady") and not unit.has_used("steady"):
        return ["Steady: this first break test is passed for certain."]
    context = "other" if facts.supported_unit_broke else facts.context
    column = resolve_context(battle, context)
    mods = break_modifiers(unit, hit_by_artillery=facts.hit_by_artillery and artillery_counts(context),
                           extra_modifiers=_facts_modifiers(battle, unit, facts))
    valiant = facts.use_valiant and unit.has("Valiant") and not unit.has_used("valiant")
    chances = outcome_chances(unit, column, total(mods), valiant=valiant, cannot_retire=facts.cannot_retire)
    if second_try_by(battle, unit, facts):
        # Valiant spent on the first try is not there for the second.
        again = outcome_chances(unit, column, total(mods), cannot_retire=facts.cannot_retire) if valiant else chances
        fail = 1 - chances["holds"]
        chances = {"holds": chances["holds"] + fail * again["holds"], "retires": fail * again["retires"],
                   "breaks": fail * again["breaks"]}
    named = [("Holds", chances["holds"]), ("Retires", chances["retires"]), ("Breaks", chances["breaks"])]
    return [Chances(f"Holds: {chances['holds']:.1%}", named, f"{unit.name}'s break test"),
            f"Retires: {chances['retires']:.1%}", f"Breaks: {chances['breaks']:.1%}"]


BREAK_TEST = ActionSpec("break_test", "Break test", BreakTestFacts, resolve_break_test, odds_break_test)
