"""Shooting: dice from the profile and formation, to-hit modifiers, the shooting special rules,
then saves and any break tests the shot forces.

Closing fire and traversing shots are shots too (``closing_fire`` / ``traversing``). Guns take
their dice and extra modifiers from ``artillery.py``; a rocket's shot is resolved there.
"""
from __future__ import annotations

from ..core.contract import ActionSpec
from ..core.dice import roll
from ..core.results import Die, Result
from . import artillery
from .attacks import FRESHLY_RAISED
from .break_tests import break_test, commander_modifiers
from .model import Battle, BattleChanges
from .morale import take_hits
from .shooting_odds import odds_shoot
from .shot_plan import ShootFacts, ShotPlan, break_test_reasons, fact, plan_shot


def shoot(battle: Battle, shooter_id: str, target_id: str, facts, dice, *, closing_fire: bool = False,
          traversing: bool = False) -> Result:
    """Resolve one shot: hits (a natural 6 disorders the target), saves through ``take_hits`` and
    the break tests the shot forces, as children.

    ``data``: ``hits``, ``sixes``, ``casualties``, ``saved``, ``break_test`` (its outcome or
    None), ``dice_count``, ``need`` (the natural score each die needed).
    """
    plan = plan_shot(battle, shooter_id, target_id, facts, closing_fire=closing_fire, traversing=traversing)
    shooter, target = plan.shooter, plan.target
    # One change for every key this shot spends, so each change's "before" is the real one.
    ch = BattleChanges(battle)
    if plan.used:
        ch.unit(shooter, "used", list(shooter.used) + plan.used,
                f"{shooter.name}: {', '.join(k.split(':')[0].replace('_', ' ') for k in plan.used)} used")
    notes = list(plan.notes)
    all_dice: list[Die] = []
    children: list[Result] = []
    mods = list(plan.modifiers)

    if plan.rocket:
        shot = artillery.rocket_shot(ch.battle, shooter, target, dice,
                                     stray_unit=fact(facts, "stray_rocket_unit", None))
        ch.extend(shot.changes)
        children.extend(ch.follow(r) for r in shot.children)
        children.extend(_forced_tests(ch, children, facts, plan, dice))
        return Result("shoot", shot.summary, dice=shot.dice, modifiers=tuple(mods),
                      changes=ch.changes, notes=tuple(notes + list(shot.notes)),
                      children=tuple(children), data={**shot.data, **_totals(children, target.id)})

    count, need = plan.dice, plan.target_score()
    if plan.freshly_raised:
        (fr,) = roll(dice, 1, 6, "Freshly Raised")
        all_dice.append(fr)
        word = FRESHLY_RAISED[fr.value]
        if word in ("Terror", "Panic"):
            need = 6
        if word == "Terror":
            ch.unit(shooter, "disordered", True, f"{shooter.name}: disordered by Terror")
        if word == "Huzzah":
            count += 1
        notes.append({"Terror": "Freshly Raised — Terror: hits only on 6s and the unit is disordered.",
                      "Panic": "Freshly Raised — Panic: hits only on 6s.",
                      "Sterling": "Freshly Raised — Sterling: no effect.",
                      "Huzzah": "Freshly Raised — Huzzah: one extra die."}[word])

    faces = list(roll(dice, count, 6, "to hit", need))
    all_dice.extend(faces)
    values = [d.value for d in faces]
    rerolled: set[int] = set()

    def reroll(i: int, rule: str, what: str) -> None:
        (again,) = roll(dice, 1, 6, f"to hit re-roll: {rule}", need)
        all_dice.append(again)
        notes.append(f"{rule}: {what} ({values[i]} → {again.value}).")
        values[i] = again.value
        rerolled.add(i)

    if plan.sharp_shooters:
        misses = [i for i, v in enumerate(values) if v < need]
        if misses:
            reroll(misses[0], "Sharp Shooters", "a miss re-rolled")
    if plan.poor_shooters:
        # The weakest hit goes back: a 6 (which also disorders) is the last to be given up.
        hits_at = sorted((i for i, v in enumerate(values) if v >= need and i not in rerolled),
                         key=lambda i: (values[i] == 6, values[i]))
        if hits_at:
            reroll(hits_at[0], "Poor Shooters", "a hit must be re-rolled")
    hits = sum(1 for v in values if v >= need)
    sixes = sum(1 for v in values if v == 6)

    if sixes:
        ch.unit(target.id, "disordered", True, f"{target.name}: disordered by a 6 to hit")
    if hits:
        children.append(ch.follow(take_hits(ch.battle, target.id, hits, dice, modifiers=plan.save_modifiers,
                                            source="artillery" if plan.by_artillery else "shooting")))
    children.extend(_forced_tests(ch, children, facts, plan, dice))

    kind = "Closing fire" if plan.closing_fire else "Traversing shot" if plan.traversing else "Shooting"
    summary = (f"{kind}: {shooter.name} rolls {count} at {target.name} needing {need}s — "
               f"{hits} hit{'s' if hits != 1 else ''}{', target disordered' if sixes else ''}")
    return Result("shoot", summary, dice=tuple(all_dice), modifiers=tuple(mods), changes=ch.changes,
                  notes=tuple(notes), children=tuple(children),
                  data={"hits": hits, "sixes": sixes, "dice_count": count, "need": need,
                        **_totals(children, target.id)})


def _totals(children: list[Result], target_id: str) -> dict:
    saves = [c for c in children if c.kind == "morale_saves" and c.data["target"] == target_id]
    tests = [c for c in children if c.kind == "break_test" and c.data["unit"] == target_id]
    return {"casualties": sum(c.data["casualties"] for c in saves), "saved": sum(c.data["saved"] for c in saves),
            "break_test": tests[0].data["outcome"] if tests else None}


def _forced_tests(ch: BattleChanges, children: list[Result], facts, plan: ShotPlan, dice) -> list[Result]:
    tests = []
    for saves in [c for c in children if c.kind == "morale_saves"]:
        after = ch.battle
        unit_id = saves.data["target"]
        why = break_test_reasons(plan, saves.data)
        unit = after.unit(unit_id)
        if not why or not unit.in_play:
            continue
        extra = commander_modifiers(after, unit,
                                    commander_within_12=fact(facts, "target_commander_within_12", False),
                                    von_zieten_within_12=fact(facts, "target_von_zieten_within_12", False)) \
            if unit_id == plan.target.id else []
        hit_by_artillery = plan.by_artillery or (unit_id == plan.target.id
                                                 and fact(facts, "target_hit_by_artillery", False))
        test = break_test(after, unit_id, "hand_to_hand" if plan.closing_fire else "shooting", dice,
                          hit_by_artillery=hit_by_artillery, extra_modifiers=extra, reason=", ".join(why),
                          cannot_retire=fact(facts, "target_cannot_retire", False),
                          use_valiant=fact(facts, "use_valiant", True))
        if plan.closing_fire and test.data["outcome"] == "breaks":
            test = Result(test.kind, test.summary, test.dice, test.modifiers, test.changes,
                          test.notes + ("The charge fails.",), test.children, test.data)
        tests.append(ch.follow(test))
    return tests


# --- the shoot action and its odds ---------------------------------------------------------

def resolve_shoot(doc: dict, facts: ShootFacts, dice) -> Result:
    return shoot(Battle.from_doc(doc), facts.shooter, facts.target, facts, dice)


# ``ShootFacts`` and ``odds_shoot`` are named here too: the action is read as one whole.
__all__ = ["SHOOT", "ShootFacts", "odds_shoot", "resolve_shoot", "shoot"]


SHOOT = ActionSpec("shoot", "Shoot", ShootFacts, resolve_shoot, odds_shoot)
