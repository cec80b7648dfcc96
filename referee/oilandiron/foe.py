"""The Of Oil and Iron Foe: Referee commanding one squadron, the player moving its Rigs. Pure,
like the engine it asks (no Flask, no database, no ``random``): ``foe_step(doc, answers)`` gives
the next question or what it decided, the same for the same document and answers.

Its ladders (``docs/foe.md`` has them as tables):

- Which Rig to activate: the first, in squadron order, that has an enemy Rig in its front arc and
  in sight and a weapon ready (it can fire without moving); else the first still to activate.
- Each action of the activated Rig, the first rung that fits: shut down when its heat is over the
  threshold and a Heat Threshold roll would likely harm it; fire (the best shot by the engine's
  odds: a catastrophic result first, then expected damage, a Called Shot at the most damaged
  location when that is better); move to face a target or close the range; reload; repair the
  most damaged location; end the activation. No action that would leave it over its threshold
  with a harmful roll likely. "Can't tell" costs a rung: fire becomes move, move becomes reload.
- The round's own steps: roll initiative, make its Rigs' Heat Threshold rolls, end the round
  once it has been scored (the player answers the scoring, which is about the table).
"""
from __future__ import annotations

from ..core.foe import (
    CANT_TELL,
    Asker,
    Decision,
    FoeSettings,
    Planned,
    Question,
    SteadyDice,
    pct,
    pick,
    playing,
    run,
    tried,
)
from ..core.foe_actions import overruled_here
from .actions import MOVE, RELOAD, REPAIR, SHUT_DOWN, movement
from .activation import ACTIVATE, END_ACTIVATION
from .attacks import CALLED_SHOT, FIRE_WEAPON
from .engagements import needs_round_score
from .foe_odds import (
    HEAT_RISK,
    OVERFLOW,
    harmful_heat_chance,
    most_damaged_location,
    ready_weapons,
    shots,
    target_order,
    weapon_range,
)
from .heat import HEAT_ROLL
from .model import LOCATION_LABELS, Engagement, Rig
from .offers import heat_waiting
from .rounds import END_ROUND, INITIATIVE

SPECS = {s.name: s for s in (ACTIVATE, MOVE, FIRE_WEAPON, CALLED_SHOT, RELOAD, REPAIR, SHUT_DOWN, END_ACTIVATION,
                             HEAT_ROLL, INITIATIVE, END_ROUND)}
LADDER = ("fire", "reload", "move", "reload later", "repair")
# At most this many questions an activation; once asked, it acts on what it was told and asks no more.
QUESTIONS_PER_ACTIVATION = 4


def position(doc: dict) -> list:
    rig = (doc.get("rigs") or {}).get(doc.get("active_rig") or "", {})
    return [doc.get("round", 1), doc.get("phase", ""), doc.get("current_player"), doc.get("active_rig"),
            rig.get("actions_left")]


def sides(doc: dict) -> dict[str, str]:
    return {k: (v or {}).get("name", k) for k, v in (doc.get("players") or {}).items()}


def still_allowed(doc: dict, planned: Planned) -> bool:
    return True


def told_this_round(doc: dict, rig_id: str, rnd: int) -> dict[str, str]:
    """What the player already told the Foe about this Rig this round (not asked again)."""
    known: dict[str, str] = {}
    for r in (doc.get("foe") or {}).get("decided", ()):
        if r.get("at", [None])[0] == rnd and r.get("rig") == rig_id:
            known.update(r.get("answers") or {})
    return known


def prompts_this_round(doc: dict, rig_id: str, rnd: int) -> int:
    """How many questions the player has been put about this Rig this round (a Rig activates once
    a round): every prompt counts, a question put again among them (a target's distance asked
    again once its bands changed), so the four an activation are the four a person answers."""
    return sum(int(r.get("prompts", len(r.get("answers") or {})))
               for r in (doc.get("foe") or {}).get("decided", ())
               if r.get("at", [None])[0] == rnd and r.get("rig") == rig_id)


def foe_step(doc: dict, answers: dict) -> Question | Decision | None:
    settings = playing(doc)
    if settings is None:
        return None
    eng = Engagement.from_doc(doc)
    if overruled_here(doc, position(doc)):
        return None  # overruled here: the player acts for it, and it takes up again from what they do
    me = settings.side
    if eng.phase == "initiative":
        return Decision("initiative", f"Round {eng.round}", "roll initiative", "A round begins with initiative.",
                        ("Roll for initiative: the winner activates first.",), plan=(Planned("initiative", {}),),
                        reference="initiative")
    if eng.phase == "maintenance":
        return maintenance(eng, me)
    if eng.phase != "activation" or eng.current_player != me:
        return None
    if eng.active_rig is None:
        return run(lambda asker: choose_rig(asker, doc, eng, settings), answers)
    rig = eng.rig(eng.active_rig)
    known = told_this_round(doc, rig.id, eng.round)
    found = run(lambda asker: rig_action(asker, doc, eng, settings, rig), answers, known)
    if isinstance(found, Decision) and found.plan and not tried(SPECS, doc, found.plan, SteadyDice(6)):
        return ending(rig, "Its first choice was refused by the rules: it ends its activation.", found.asked,
                      found.candidates)
    return found


def maintenance(eng: Engagement, me: str) -> Decision | None:
    for rig in heat_waiting(eng):
        if rig.player == me:
            return Decision(f"heat:{rig.id}", rig.name, "Heat Threshold roll", "Over its threshold: it must roll.",
                            (f"{rig.name}: make the Heat Threshold roll.",),
                            plan=(Planned("heat_roll", {"rig": rig.id, "overflow_to": list(OVERFLOW)}),),
                            reference="heat-threshold")
    if heat_waiting(eng) or needs_round_score(eng):
        return None  # the player's rolls, or the scoring, which is about the table, come first
    return Decision("end_round", f"Round {eng.round}", "end the round", "Every roll made and the round scored.",
                    ("End the round.",), plan=(Planned("end_round", {}),), reference="maintenance")


def target_question(rig: Rig, eng: Engagement, me: str, key: str, after_move: bool = False) -> Question:
    order = target_order(eng, me)
    when = "Now, after the move: which" if after_move else "Which"
    return pick(key, f"{when} of these enemy Rigs is the first in {rig.name}'s front arc and in sight?",
                [(r.id, r.name) for r in order] + [("none", "None of them")])


def distance_question(rig: Rig, target: Rig, key: str) -> Question:
    """How far the target is, in bands that each mean something for the Rig's ready weapons: a
    Rig that only strikes in melee asks only whether it is within 1"; the band over 10" is offered
    only to a Rig with a weapon that reaches past 10"."""
    longest = max((weapon_range(w) for w in ready_weapons(rig)), default=0)
    bands = [("melee", "Within 1\"")]
    if longest <= 1:
        bands.append(("beyond", "Further than 1\""))
    elif longest <= 10:
        bands += [("close", "Under 6\""), ("mid", "6\" to 10\""), ("beyond", "Beyond 10\"")]
    else:
        bands += [("close", "Under 6\""), ("mid", "6\" to 10\""), ("far", f"Over 10\", within {longest}\""),
                  ("beyond", f"Beyond {longest}\"")]
    return pick(key, f"How far is {target.name} from {rig.name}?", bands)


def choose_rig(asker: Asker, doc: dict, eng: Engagement, settings: FoeSettings) -> Decision | None:
    ready = [r for r in eng.rigs_of(settings.side) if r.in_play and not r.activated]
    if not ready:
        return None
    chosen, why = ready[0], "No Rig can fire without moving: the first still to activate goes."
    for rig in ready:
        if not ready_weapons(rig):
            continue
        seen = asker.ask(target_question(rig, eng, settings.side, f"{rig.id}:{eng.round}:m0:target"))
        if seen not in ("none", CANT_TELL):
            chosen, why = rig, f"{rig.name} can fire without moving: it goes first."
            break
    answers = {k: asker.answers[k] for k, _, _ in asker.asked if k.startswith(f"{chosen.id}:")}
    return Decision(f"activate:{chosen.id}", chosen.name, "activate", why, (f"Activate {chosen.name}.",),
                    tuple(asker.asked), plan=(Planned("activate", {"rig": chosen.id, "overflow_to": list(OVERFLOW)}),), dropped=asker.dropped,
                    reference="activation", memo=(("rig", chosen.id), ("answers", answers), ("prompts", len(answers))))


def ending(rig: Rig, why: str, asked=(), candidates=()) -> Decision:
    return Decision(f"end:{rig.id}", rig.name, "end activation", why, (f"{rig.name}: activation over.",),
                    tuple(asked), tuple(candidates), plan=(Planned("end_activation", {}),), reference="activation",
                    memo=(("rig", rig.id), ("prompts", len(asked))))


def rig_action(asker: Asker, doc: dict, eng: Engagement, settings: FoeSettings, rig: Rig) -> Decision:
    me, rnd = settings.side, eng.round
    risk = HEAT_RISK.get(settings.difficulty, HEAT_RISK["normal"])
    moved = sum(1 for r in (doc.get("foe") or {}).get("decided", ())
                if r.get("at", [None])[0] == rnd and r.get("rig") == rig.id and r.get("rung") == "move")
    base = f"{rig.id}:{rnd}:m{moved}"
    lost = 0  # the rungs "can't tell" cost: known once the ladder is read, below

    def decided(rung: str, rule: str, orders, plan, candidates=(), ref="activation") -> Decision:
        answers = {k: asker.answers.get(k, asker.known.get(k)) for k, _, _ in asker.asked}
        return Decision(f"{rung}:{rig.id}", rig.name, rung, rule, tuple(orders), tuple(asker.asked),
                        tuple(candidates), tuple(plan), lost, ref,
                        (("rig", rig.id), ("answers", answers), ("prompts", len(asker.asked))))

    if rig.actions_left <= 0:
        return ending(rig, "No actions left.")
    now_risk = harmful_heat_chance(rig, rig.heat)
    if now_risk >= risk:
        return decided("shut down", f"Heat {rig.heat} over its threshold {rig.heat_threshold}: a Heat Threshold "
                       f"roll would do harm {pct(now_risk)} of the time (it risks {pct(risk)}).",
                       [f"{rig.name}: shut down to cool (its activation ends)."],
                       [Planned("shut_down", {"rig": rig.id})], ref="shut-down")

    def heat_ok(cost: int) -> bool:
        return harmful_heat_chance(rig, rig.heat + cost) < risk

    earlier = prompts_this_round(doc, rig.id, rnd)

    def ask(q, unasked: str) -> str:
        """The answer, or ``unasked`` (what it assumes, without losing a rung) once the activation's
        questions are spent: a question already answered this activation is never asked again, and
        every prompt the player met counts, one put again too."""
        if asker.known.get(q.key) in dict(q.options):
            return asker.ask(q)
        if earlier + len(asker.asked) >= QUESTIONS_PER_ACTIVATION:
            return unasked
        return asker.ask(q)

    # What it asks: which enemy is first in its front arc and in sight, how far, and which of the
    # target's arcs it is in; after its move, only how far that target is now (or that it is lost).
    target, distance = None, None
    before = eng.rigs.get(asker.known.get(f"{rig.id}:{rnd}:m0:target", ""))
    # After its move, how far the target is now: only while a weapon is ready to use the answer
    # (a Rig that has fired everything reloads, repairs or ends without asking).
    if moved and before is not None and before.in_play and ready_weapons(rig):
        after = ask(pick(f"{base}:after", f"After the move: how far is {before.name} from {rig.name}, if it is "
                                                f"in {rig.name}'s front arc and in sight?",
                               list(distance_question(rig, before, "").options[:-1]) +
                               [("lost", "Not in its front arc or sight")]), "lost")
        if after not in ("lost", CANT_TELL):
            target, distance = before, after
    elif ready_weapons(rig):
        seen = ask(target_question(rig, eng, me, f"{base}:target", after_move=moved > 0), "none")
        target = eng.rig(seen) if seen not in ("none", CANT_TELL) else None
    candidates, fire = [], None
    if target is not None and ready_weapons(rig):
        if distance is None:
            distance = ask(distance_question(rig, target, f"{base}:distance"), "beyond")
        if distance not in ("beyond", CANT_TELL):
            arc = ask(pick(f"{rig.id}:{rnd}:arc:{target.id}", f"Is {rig.name} in {target.name}'s front, side or rear arc?",
                           [("side", "Side arc"), ("rear", "Rear arc"), ("front", "Front arc")]), "front")
            options = shots(eng, rig, target, distance, "front" if arc == CANT_TELL else arc)
            candidates = [f"{s['weapon'].name}" + (f", Called Shot at the {LOCATION_LABELS[s['called']]}"
                                                   if s["called"] else "") +
                          f": catastrophic {pct(s['catastrophic'])}, expected {s['expected']:.1f} SP" for s in options]
            fire = next((s for s in options if heat_ok(s["heat"])), None)
    empty = [w for w in rig.weapons.values() if not w.loaded and not w.destroyed and not w.has("melee")]
    # The ladder, top down; a rung that does not fit is passed over, and "can't tell" costs one.
    fits = {"fire": fire is not None,
            "reload": bool(empty) and not ready_weapons(rig) and heat_ok(1),
            "move": bool(ready_weapons(rig)) and moved < 1 and heat_ok(1),
            "reload later": bool(empty) and heat_ok(1),
            "repair": heat_ok(1)}
    ladder = [r for r in LADDER if fits.get(r)]
    lost = min(len(ladder), asker.dropped)  # the rungs "can't tell" cost, as the ladder used them
    ladder = ladder[lost:]
    for rung in ladder:
        if rung == "fire":
            how = f"a Called Shot at its {LOCATION_LABELS[fire['called']]}" if fire["called"] else "a plain attack"
            return decided("fire", f"{fire['weapon'].name} at {target.name}, {how}: the engine gives a catastrophic "
                           f"result {pct(fire['catastrophic'])}, {fire['expected']:.1f} SP expected.",
                           [f"{rig.name}: fire the {fire['weapon'].name} at {target.name} ({how})."],
                           [Planned(fire["action"], fire["facts"])], candidates,
                           "called-shot" if fire["called"] else "attack-sequence")
        if rung == "move":
            m = movement(rig)
            where = target.name if target is not None else "the nearest enemy Rig"
            gun = max(ready_weapons(rig), key=weapon_range)
            words = (f"{rig.name}: pivot to face {where} ({m['pivots']} × 90° at most)." if m["immobilised"] else
                     f"{rig.name}: pivot to face {where}, then advance up to {m['forward']}\" towards it, stopping "
                     f"once it is within the {gun.name}'s {weapon_range(gun)}\".")
            return decided("move", "No shot now: it turns and closes to bring a weapon to bear.", [words],
                           [Planned("move", {"rig": rig.id})], candidates, "move")
        if rung in ("reload", "reload later"):
            return decided("reload", "A weapon is empty.", [f"{rig.name}: reload."],
                           [Planned("reload", {"rig": rig.id})], candidates, "reload")
        if rung == "repair":
            loc = most_damaged_location(eng, rig, "side")
            if loc and rig.structure[loc] < rig.structure_max[loc]:
                return decided("repair", f"Its {LOCATION_LABELS[loc]} is the most damaged location.",
                               [f"{rig.name}: repair the {LOCATION_LABELS[loc]}."],
                               [Planned("repair", {"rig": rig.id, "location": loc})], candidates, "repair")
    why = ("Every other action would leave it over its threshold with a harmful roll likely." if not heat_ok(1)
           else "Nothing useful left to do.")
    return ending(rig, why, asker.asked, candidates)
