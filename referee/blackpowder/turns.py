"""The turn sequence: Blue Command, Blue Shooting, Hand-to-Hand, Red Command, Red Shooting,
Hand-to-Hand, then the next turn.

Moving on is an action ("next_phase") so it is logged and undoable, and it carries the
bookkeeping the rules tie to the sequence: brigades and the army are checked as a side's turn
begins, its General's re-roll comes back, once-a-turn abilities reset, and disorder lifts from
the side's units that are not fighting when its turn ends.
"""
from __future__ import annotations

from pydantic import Field

from ..core.contract import ActionSpec, Facts, Owed
from ..core.results import MISSING, Result
from .brigades import check_side
from .clock import refuse_after_last_turn, time_of_turn
from .combat_records import combat_title
from .model import PHASE_LABELS, PHASES, SIDES, Battle, BattleChanges, RuleError, document_has_rule
from .reserves import announce_arrivals

# ``Unit.used`` keys that last one turn (everything else there is once per game). A key may carry
# its turn after a colon ("traversing_shot:3:blue"); the part before the colon is what counts.
PER_TURN_USED = ("tough_fighters", "traversing_shot", "closing_fire")


def lasts_one_turn(key: str) -> bool:
    return key.split(":", 1)[0] in PER_TURN_USED


def next_position(turn: int, side: str, phase: str) -> tuple[int, str, str]:
    """Where the sequence goes after (turn, side, phase)."""
    i = PHASES.index(phase)
    if i + 1 < len(PHASES):
        return turn, side, PHASES[i + 1]
    if side == SIDES[0]:
        return turn, SIDES[1], PHASES[0]
    return turn + 1, SIDES[0], PHASES[0]


def phase_title(battle: Battle, side: str, phase: str) -> str:
    if phase == "hand_to_hand":
        return PHASE_LABELS[phase]
    name = battle.sides[side].name if side in battle.sides else side.title()
    return f"{name} {PHASE_LABELS[phase]}"


def _end_of_turn(ch: BattleChanges, side: str) -> list[str]:
    """Disorder lasts until the end of the unit's own turn unless it is still fighting."""
    battle = ch.battle
    broken_army = battle.sides.get(side) and battle.sides[side].army_broken
    lifted = sum(ch.unit(unit, "disordered", False, f"{unit.name}: disorder lifts")
                 for unit in battle.units_of_side(side, where=lambda raw: raw.get("disordered"))
                 if unit.disordered and unit.in_play and not unit.in_combat and not broken_army)
    if lifted:
        return [f"Disorder lifts from {lifted} unit{'s' if lifted != 1 else ''} at the end of their turn."]
    return []


def _side_name(battle: Battle, side: str) -> str:
    """The army's own name ("Prussians"), not the colour the engine keys it by."""
    side_obj = battle.sides.get(side)
    return side_obj.name if side_obj is not None and side_obj.name else side.title()


# The special rules a turn's start reminds the umpire of (below): only units with one are read.
REMINDED = ("Elite", "Brave", "Determined Charge")


def _start_of_turn(ch: BattleChanges, side: str) -> tuple[list[str], list[Result]]:
    notes = []
    check = ch.follow(check_side(ch.battle, side))
    after = ch.battle
    side_obj = after.sides.get(side)
    if side_obj is not None:
        ch.at(("sides", side, "general_reroll_used"), False, f"{side_obj.name}: General's re-roll available")
    ch.at(("turn_state",), {}, f"{_side_name(after, side)} begin their turn")
    for uid, raw in after.doc.get("units", {}).items():
        if not raw.get("used"):
            continue  # nothing used: nothing to make ready (and the unit need not be read)
        unit = after.units[uid]
        kept = [k for k in unit.used if not lasts_one_turn(k)]
        if len(kept) != len(unit.used):
            ch.unit(unit, "used", kept, f"{unit.name}: once-a-turn abilities ready")
    broken_army = bool(side_obj and side_obj.army_broken)
    for unit in after.units_of_side(side, where=lambda raw: document_has_rule(raw, *REMINDED)):
        if not unit.in_play:
            continue
        if unit.has("Elite") and unit.disordered and not unit.in_combat and not broken_army:
            notes.append(f"{unit.name} (Elite {unit.rule_value('Elite') or ''}) may roll a D6 to shake off "
                         f"disorder.".replace(" )", ")"))
        if unit.has("Brave") and unit.shaken and not broken_army:
            notes.append(f"{unit.name} (Brave) may rally on a 4+ at the end of this Command phase if no "
                         f"enemy is within 12\".")
        if unit.has("Determined Charge") and not unit.in_combat:
            notes.append(f"{unit.name} (Determined Charge) must charge any enemy within charge range.")
    return notes, [check]


def owed_now(doc: dict) -> list[Owed]:
    """What the rules still require before this phase is left: a break test that hits forced and
    the umpire put off, and in Hand-to-Hand each open combat that has not fought its round or whose
    winners have not chosen their next step. The umpire may have good reason to move on anyway:
    Next phase then says so in the log (``NextPhase.leave_undone``)."""
    if doc.get("ended"):
        return []
    battle = Battle.from_doc(doc)
    owed = []
    for uid, why in (doc.get("owed_break_tests") or {}).items():
        if uid not in doc.get("units", {}) or not battle.unit(uid).in_play:
            continue
        unit = battle.unit(uid)
        owed.append(Owed(f"{unit.name} has not taken the break test its hits forced ({why['reason']}).",
                         "break_test", f"Break test: {unit.name}", {"unit": uid, "context": why["context"]}))
    if battle.phase != "hand_to_hand":
        return owed
    for cid, rec in (doc.get("combats") or {}).items():
        if rec.get("status") != "open":
            continue
        if rec.get("awaiting_outcome"):
            owed.append(Owed(f"{combat_title(battle, rec)}: the winners have not chosen their next step.",
                             "combat_outcome", "Choose the winners' step", {"combat": cid}))
        elif rec.get("fought") != [battle.turn, battle.active_side]:
            owed.append(Owed(f"{combat_title(battle, rec)} has not fought its round this Hand-to-Hand phase.",
                             "combat_round", "Fight the round", {"combat": cid}))
    return owed


class NextPhase(Facts):
    confirm: bool = Field(True, title="Move to the next phase")
    # The second, deliberate choice: move on though the rules still ask for something in this
    # phase (``owed_now``); the table refuses Next phase without it while anything is owed.
    leave_undone: bool = Field(False, title="Move on, leaving undone what this phase still asks")


def resolve_next_phase(doc: dict, facts: NextPhase, dice) -> Result:
    battle = Battle.from_doc(doc)
    if doc.get("ended"):
        raise RuleError("The battle has ended.")
    if battle.phase not in PHASES or battle.active_side not in SIDES:
        raise RuleError(f"The battle is in an unknown phase “{battle.phase}”.")
    refuse_after_last_turn(battle)  # the turn limit: after the last turn the battle ends
    turn, side, phase = next_position(battle.turn, battle.active_side, battle.phase)
    ch = BattleChanges(battle)
    children = []
    left = owed_now(doc)
    notes = [f"Left undone: {o.text}" for o in left]
    if doc.get("owed_break_tests"):  # a break test belongs to the phase its hits came in
        ch.at(("owed_break_tests",), MISSING, "Break tests put off: no longer owed")
    if phase == PHASES[0]:
        notes += _end_of_turn(ch, battle.active_side)
    ch.at(("turn",), turn, f"Turn {turn}")
    ch.at(("active_side",), side, f"{_side_name(battle, side)} to play")
    ch.at(("phase",), phase, f"Phase: {PHASE_LABELS[phase]}")
    if phase == PHASES[0]:
        start_notes, children = _start_of_turn(ch, side)
        notes += start_notes + announce_arrivals(ch, side)  # reserves due, to roll, to call
    at = time_of_turn(doc, turn)
    summary = f"Turn {turn}: {phase_title(battle, side, phase)}" + (f" ({at})" if at else "")
    if left:
        summary += f", leaving {len(left)} thing{'s' if len(left) != 1 else ''} undone"
    return Result("next_phase", summary, changes=ch.changes, notes=tuple(notes), children=tuple(children),
                  data={"turn": turn, "side": side, "phase": phase})


NEXT_PHASE = ActionSpec("next_phase", "Next phase", NextPhase, resolve_next_phase, rolls_dice=False)
