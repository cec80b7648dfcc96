"""The round: Initiative (a D12 each, ties rolled again, the higher starts) and the end of the
Maintenance phase (Exhaust, then the engagement-length roll: after round 4 a D12 of 8+ ends it,
after round 5 a 5+, after round 6 it always ends)."""
from __future__ import annotations

from fractions import Fraction

from ..core.contract import ActionSpec, Facts, Owed
from ..core.dice import roll
from ..core.errors import RuleError
from ..core.results import Die, Result
from ..core.words import counted
from .activation import clear_statuses
from .engagements import finish_engagement, needs_round_score, standing
from .heat import exhaust
from .model import Engagement
from .offers import heat_waiting
from .writing import builder, engagement_now, rig_set

# After this round, the engagement ends on a D12 of at least this (None: it goes on; 1: always).
ENDS_ON = {4: 8, 5: 5, 6: 1}


class InitiativeFacts(Facts):
    pass


def resolve_initiative(doc: dict, facts: InitiativeFacts, dice) -> Result:
    eng = Engagement.from_doc(doc)
    eng.require_phase("initiative", f"Initiative is rolled at the start of a round; this is the {eng.phase} phase.")
    rolled = []
    first, second = eng.player_name("p1"), eng.player_name("p2")
    while True:
        # Both players roll together: players rolling real dice type the pair in one go.
        pair = roll(dice, 2, 12, f"initiative: {first}, then {second}")
        a = (Die(pair[0].value, 12, f"initiative: {first}"),)
        b = (Die(pair[1].value, 12, f"initiative: {second}"),)
        rolled.extend(a + b)
        if a[0].value != b[0].value:
            break
    starter = "p1" if a[0].value > b[0].value else "p2"
    notes = []
    if len(rolled) > 2:
        notes.append(f"Tied {counted(len(rolled) // 2 - 1, 'time')}: rolled again.")
    current = starter
    if not any(r.in_play for r in eng.rigs_of(starter)):
        current = eng.other(starter)
        notes.append(f"{eng.player_name(starter)} has no Rig left to activate.")
    work = builder(doc)
    work.set(("starting_player",), starter, f"Round {eng.round}: {eng.player_name(starter)} starts")
    work.set(("current_player",), current, f"{eng.player_name(current)} to activate")
    work.set(("phase",), "activation", "Phase: Activation")
    summary = (f"Initiative {a[0].value} – {b[0].value}: {eng.player_name(starter)} starts round {eng.round}")
    return Result("initiative", summary, dice=tuple(rolled), changes=work.changes, notes=tuple(notes),
                  data={"starting_player": starter})


def odds_initiative(doc: dict, facts: InitiativeFacts) -> list[str]:
    return ["Each player starts: 50.0% (ties are rolled again)"]


def owed_now(doc: dict) -> list[Owed]:
    """What the Maintenance phase still asks before the round ends: each Heat Threshold roll, then
    the round's score. The rules cannot end the round without them, so none may be left undone."""
    eng = Engagement.from_doc(doc)
    if eng.ended or eng.phase != "maintenance":
        return []
    owed = [Owed(f"{rig.name} is above its Heat Threshold and has not rolled this round.", "heat_roll",
                 f"Heat Threshold roll: {rig.name}", {"rig": rig.id}, may_leave=False) for rig in heat_waiting(eng)]
    if needs_round_score(eng):
        owed.append(Owed(f"Round {eng.round} has not been scored.", "score_round", f"Score round {eng.round}",
                         may_leave=False))
    return owed


class EndRoundFacts(Facts):
    pass


def _wind_down(doc: dict):
    """The Maintenance phase's end before the engagement-length roll: Exhaust, effects of Rigs off
    the table, starting Prepare tokens. Returns (the working copy, its notes, the engagement as it
    then stands, what ends it for sure or None, the D12 needed to end it or None)."""
    eng = Engagement.from_doc(doc)
    eng.require_phase("maintenance", "The round ends after the Maintenance phase; activate every Rig first.")
    waiting = [r.name for r in eng.rigs.values() if r.in_play and r.above_threshold and r.heat_rolled != eng.round]
    if waiting:
        raise RuleError(f"Heat Threshold rolls still to make: {', '.join(waiting)}.")
    if needs_round_score(eng):
        raise RuleError(f"Score round {eng.round} first (what each player holds this round).")
    work = builder(doc)
    notes: list[str] = []
    if eng.settings.exhaust_when == "maintenance":
        for rig in eng.rigs.values():
            exhaust(work, rig.id, notes)
    for rig in eng.rigs.values():
        if not rig.in_play:
            # Effects that last until the Rig's next activation (its flare) end with the round instead.
            clear_statuses(work, rig.id, ("until_next_activation",))
    if doc.get("start_tokens_round") == eng.round:
        for rig in eng.rigs.values():
            if rig.prepare_tokens:
                rig_set(work, rig.id, "prepare_tokens", [], f"{rig.name}: starting Prepare tokens expire")
    wiped = [p for p in eng.players if not any(r.in_play for r in eng.rigs_of(p))]
    sure, need = None, None
    if wiped:
        sure = f"{eng.player_name(wiped[0])} has no Rig left on the table."
    elif eng.round >= 6:
        sure = f"Round {eng.round} is the last."
    else:
        need = ENDS_ON.get(eng.round)
    return work, notes, eng, sure, need


def resolve_end_round(doc: dict, facts: EndRoundFacts, dice) -> Result:
    work, notes, eng, sure, need = _wind_down(doc)
    dice_out = []
    ends = sure is not None
    if sure:
        notes.append(sure)
    elif need is not None:
        die = roll(dice, 1, 12, f"does the engagement end? ({need}+)")
        dice_out.extend(die)
        ends = die[0].value >= need
        notes.append(f"End of round {eng.round}: D12 {die[0].value} — " + ("the engagement ends." if ends else
                                                                           "it goes on."))
    if ends:
        result = finish_engagement(work, notes)
        return Result("end_round", f"The engagement ends after round {eng.round}: {result}", dice=tuple(dice_out),
                      changes=work.changes, notes=tuple(notes), data={"ended": True})
    if standing(engagement_now(work))["decided"]:
        result = finish_engagement(work, notes)
        return Result("end_round", f"The engagement is decided in round {eng.round}: {result}",
                      dice=tuple(dice_out), changes=work.changes, notes=tuple(notes), data={"ended": True})
    for rig in eng.rigs.values():
        rig_set(work, rig.id, "activated", False, f"{rig.name}: ready to activate in round {eng.round + 1}")
        rig_set(work, rig.id, "actions_left", 0)
    work.set(("round",), eng.round + 1, f"Round {eng.round + 1}")
    work.set(("phase",), "initiative", "Phase: Initiative")
    work.set(("starting_player",), None, "Who starts: the next initiative roll decides")
    work.set(("current_player",), None, "Nobody activates until then")
    return Result("end_round", f"Round {eng.round} ends; round {eng.round + 1} begins with Initiative",
                  dice=tuple(dice_out), changes=work.changes, notes=tuple(notes), data={"ended": False})


def odds_end_round(doc: dict, facts: EndRoundFacts) -> list[str]:
    """The chance the engagement ends, read as :func:`resolve_end_round` reads it: a side with no
    Rig left or the last round ends it; else the D12 of the round (if any); else a result the
    engagement's scoring already holds as decided."""
    work, _, eng, sure, need = _wind_down(doc)
    if sure:
        return [f"The engagement ends: 100% ({sure[:-1]})"]
    if standing(engagement_now(work))["decided"]:
        return [f"The engagement ends: 100% (its result is decided{'; the D12 is still rolled' if need else ''})"]
    if need is None:
        return [f"The engagement goes on to round {eng.round + 1}: 100%"]
    return [f"The engagement ends: {float(Fraction(13 - need, 12)):.1%} (a D12 of {need}+)"]


INITIATIVE = ActionSpec("initiative", "Roll for initiative", InitiativeFacts, resolve_initiative, odds_initiative)
END_ROUND = ActionSpec("end_round", "End the round", EndRoundFacts, resolve_end_round, odds_end_round)
