"""The Black Powder Foe: Referee commanding one army, the player moving its models. Pure, like
the engine it asks (no Flask, no database, no ``random``): ``foe_step(doc, answers)`` gives the
next question or what it decided, the same for the same document and answers.

Its ladders (``docs/foe.md`` has them as tables):

- Command phase: first the compulsions (reserves that are due or may roll come on; a broken
  army retires), then one order per brigade, brigades in contact first, then the nearest
  (by what it was told last turn), each the first rung that fits: retire when the brigade is
  one loss from breaking and the enemy is near (not an easy Foe); charge when the engine's odds
  of the order passing and the first round being won (easy: of the order passing) reach the
  difficulty's threshold (Determined Charge always); form line from march column near the enemy; advance; hold.
- Shooting and Hand-to-Hand: ``foe_fire``.

"Can't tell" costs a rung: charge becomes advance, advance becomes hold.
"""
from __future__ import annotations

from ..core.docstate import apply_changes
from ..core.errors import RuleError
from ..core.foe import (
    BEYOND,
    CANT_TELL,
    Asker,
    Decision,
    FoeSettings,
    Planned,
    Question,
    SteadyDice,
    band,
    band_inches,
    break_tie,
    pct,
    pick,
    playing,
    posture,
    run,
    tried,
    within,
    yes_no,
)
from ..core.foe_actions import decided_here
from .brigades import unit_is_lost
from .charges import CHARGE, ChargeFacts, reaction, why_cannot_charge
from .clock import time_is_up
from .combat import COMBAT_ROUND, CombatRound
from .combat_odds import chargers_chances
from .combat_outcome import COMBAT_OUTCOME
from .command import ORDER
from .foe_fire import combat_decision, enemy_brigades, live_units, shooting_decision
from .model import Battle, Brigade, Unit
from .order_odds import pass_chance
from .order_tests import move_distance
from .reserves import ARRIVE, ENTRY_ROLL, can_roll, may_arrive, waiting_groups
from .shooting import SHOOT
from .turns import NEXT_PHASE

# The chance of a charge the Foe needs, by difficulty: the order passing × the first round won,
# except that an easy Foe reads only the order's chance (it does not weigh the fight it starts).
CHARGE_AT = {"easy": 0.45, "normal": 0.35, "hard": 0.45}
READS_THE_FIGHT = {"easy": False, "normal": True, "hard": True}
# All out (a scenario's posture): the boldest line, whatever the difficulty.
ALL_OUT_CHARGE_AT = 0.25
# Whether it retires a brigade one loss from breaking when the enemy is within 18", by difficulty:
# an easy Foe fights on to the last.
RETIRES_NEAR_BREAKING = {"easy": False, "normal": True, "hard": True}
LADDER = ("charge", "advance", "hold")
SPECS = {s.name: s for s in (ORDER, CHARGE, SHOOT, COMBAT_ROUND, COMBAT_OUTCOME, NEXT_PHASE, ENTRY_ROLL, ARRIVE)}
def position(doc: dict) -> list:
    return [doc.get("turn", 1), doc.get("active_side", ""), doc.get("phase", "")]




def foe_step(doc: dict, answers: dict) -> Question | Decision | None:
    settings = playing(doc)
    if settings is None:
        return None
    battle = Battle.from_doc(doc)
    done = decided_here(doc, position(doc))
    for decide in pieces(doc, battle, settings):
        found = run(decide, answers)
        if found is None:
            continue
        if isinstance(found, Decision) and found.piece in done:
            continue
        if isinstance(found, Decision) and not tried(SPECS, doc, found.plan, SteadyDice()):
            found = Decision(found.piece, found.name, "hold", "Its first choice was refused by the rules; it holds.",
                             (f"{found.name}: hold where you stand.",), found.asked, found.candidates,
                             dropped=found.dropped, reference="issuing-orders")
        return found
    return None


def pieces(doc: dict, battle: Battle, settings: FoeSettings):
    """The decisions the Foe has to make now, in order, each a function of the answers."""
    side = settings.side
    done = decided_here(doc, position(doc))

    def once(piece: str, decide):
        return (lambda asker: None) if piece in done else decide

    if battle.phase == "hand_to_hand":
        found = combat_decision(battle, side)
        if found is not None:
            yield lambda asker: found
    if battle.active_side != side:
        return
    if battle.phase == "command":
        for g in waiting_groups(doc, side):
            yield once(f"reserve:{g['id']}", lambda asker, g=g: reserve_decision(doc, battle, g))
        for b in brigade_order(doc, battle, side):
            yield once(f"brigade:{b.id}", lambda asker, b=b: brigade_decision(asker, doc, battle, settings, b))
    elif battle.phase == "shooting":
        for b in battle.brigades_of_side(side):
            yield once(f"shoot:{b.id}", lambda asker, b=b: shooting_decision(asker, battle, settings, b))
    if not time_is_up(battle):
        yield once("phase", lambda asker: Decision("phase", "The phase", "move on", "Every piece has its order.",
                                                   ("The Foe is done: on to the next phase.",),
                                                   plan=(Planned("next_phase", {}),), reference="turn-sequence"))


def reserve_decision(doc: dict, battle: Battle, g: dict) -> Decision | None:
    where = f" at {g['at']}" if g.get("at") else ""
    if may_arrive(doc, g, battle.turn) is None:
        return Decision(f"reserve:{g['id']}", g["label"], "bring on reserves", "Reserves come on as soon as they may.",
                        (f"Bring {g['label']} on{where}: place its units at the table edge there.",),
                        plan=(Planned("arrive", {"reserve": g["id"], "where": g.get("at", "")[:200]}),),
                        reference="scenarios")
    if can_roll(doc, g, battle.turn) is None:
        return Decision(f"reserve:{g['id']}", g["label"], "call reserves", "Reserves roll to come on when they may.",
                        (f"Roll for {g['label']}: if it passes, it comes on next turn{where}.",),
                        plan=(Planned("entry_roll", {"reserve": g["id"]}),), reference="scenarios")
    return None


def brigade_order(doc: dict, battle: Battle, side: str) -> list[Brigade]:
    """Brigades in contact first, then the nearest by the band the Foe heard last, then the rest."""
    heard: dict[str, int] = {}
    for r in (doc.get("foe") or {}).get("decided", ()):
        if r.get("band"):
            heard[r["piece"].split(":", 1)[-1]] = band_inches(r["band"]) or BEYOND
    brigades = [b for b in battle.brigades_of_side(side) if live_units(battle, b.id)]
    return sorted(brigades, key=lambda b: (not any(u.in_combat for u in live_units(battle, b.id)),
                                           heard.get(b.id, 99)))


def one_loss_from_breaking(battle: Battle, brigade: Brigade) -> bool:
    units = [u for u in battle.units_of_brigade(brigade.id) if not u.awaiting]
    lost = sum(1 for u in units if unit_is_lost(u))
    if len(units) < 2 or brigade.broken:
        return False
    if len(units) == 2:
        return lost == 1
    return (lost + 1) * 2 >= len(units) > lost * 2


def charge_target(battle: Battle, enemy: str) -> list[Unit]:
    """The enemy brigade's units as the Foe would charge them: artillery, then shaken or
    disordered units, then the fewest hits left before shaken; ties kept together."""
    def key(u: Unit) -> tuple:
        left = (u.stamina or 3) - u.casualties
        return (not u.is_artillery, not (u.shaken or u.disordered), left)
    units = sorted(live_units(battle, enemy), key=key)
    return [u for u in units if key(u) == key(units[0])] if units else []


def charge_odds(doc: dict, battle: Battle, lead: Unit, target: Unit, facing: str, steps: int,
                fight: bool = True) -> tuple[float, str]:
    """The chance the charge order passes and the first round is won, from the engine's own odds
    (``fight`` False: only the order's chance, as an easy Foe reads it)."""
    passes = pass_chance(battle, [lead.id], order="charge", distance_steps=steps, enemy_within_12=True,
                         charge_target_in_range=True)
    if not fight:
        return passes, f"order passes {pct(passes)} (it does not weigh the fight)"
    response, _ = reaction(battle, target.id, [lead.id], facing)
    try:
        contact = CHARGE.resolve(doc, ChargeFacts(chargers=[lead.id], target=target.id, facing=facing,
                                                  response="stand" if response != "form_square" else response),
                                 SteadyDice(3))
    except RuleError:
        return 0.0, "the rules refuse this charge"
    cid = contact.data.get("combat")
    if not cid:
        return passes, f"order {pct(passes)}; the target gives way"
    # The round as it would be fought in the coming Hand-to-Hand phase.
    trial = {**apply_changes(doc, contact.all_changes), "phase": "hand_to_hand"}
    try:
        win, draw = chargers_chances(trial, CombatRound(combat=cid))
    except RuleError:
        return 0.0, "the first round could not be weighed"
    return passes * win, f"order passes {pct(passes)} × first round won {pct(win)} (drawn {pct(draw)})"


def brigade_decision(asker: Asker, doc: dict, battle: Battle, settings: FoeSettings, b: Brigade) -> Decision | None:
    units = live_units(battle, b.id)
    free = [u for u in units if not u.in_combat and not u.disordered]
    piece, name = f"brigade:{b.id}", b.name

    def decided(rung: str, rule: str, orders, plan=(), candidates=(), memo=(), ref="issuing-orders",
                lost: int = 0) -> Decision:
        """``lost``: the rungs "can't tell" cost on the ladder (not every "can't tell": two of them
        on a ladder with one rung left below cost one)."""
        return Decision(piece, name, rung, rule, tuple(orders), tuple(asker.asked), tuple(candidates), tuple(plan),
                        lost, ref, tuple(memo))

    if battle.sides[b.side].army_broken:
        return decided("retire (army broken)", "A broken army's units take no orders: they fall back.",
                       [f"{name}: the army is broken — move every unit a full move back towards your own table "
                        f"edge, away from the enemy."], ref="broken-army")
    if not free:
        return decided("fight on" if any(u.in_combat for u in units) else "hold",
                       "No unit of the brigade can take an order now.", [f"{name}: no orders this turn."])
    lead = free[0]
    enemies = enemy_brigades(battle, b.side)
    near = asker.ask(band(f"{b.id}:near", f"How far is the nearest enemy unit from {lead.name} ({name})?"))
    enemy = None
    if enemies and near not in ("none", "beyond", CANT_TELL):
        enemy = asker.ask(pick(f"{b.id}:which", "Which enemy brigade is that unit from?",
                               [(e.id, e.name) for e in enemies]))
        enemy = None if enemy == CANT_TELL else enemy
    enemy_name = battle.brigades[enemy].name if enemy else "the enemy"
    memo = (("band", near),) if near != CANT_TELL else ()
    close = within(near, 12)
    mood, mood_why = posture(doc, b.side, battle.turn)
    # All out: the boldest line (25%), whatever the difficulty.
    threshold = ALL_OUT_CHARGE_AT if mood == "all_out" else CHARGE_AT[settings.difficulty]
    reach = move_distance(lead)
    candidates, rung = [], None
    charge_plan: tuple = ()
    determined = lead.has("Determined Charge")
    steps = 0
    if enemy and within(near, reach) and why_cannot_charge(battle, lead, battle.unit(charge_target(battle, enemy)[0].id),
                                                          "order") is None and mood != "delay":
        tied = charge_target(battle, enemy)
        tid = break_tie(asker, settings, f"{b.id}:target", f"{lead.name} could charge any of these: which is "
                        f"nearest?", [(u.id, u.name) for u in tied], lambda uid: -battle.unit(uid).casualties,
                        battle.turn, b.id)
        target = battle.unit(tid)
        face = asker.ask(pick(f"{b.id}:reach", f"Would a charge by {lead.name} reach {target.name}? If so, "
                                               f"which face would it strike?",
                              [("front", "Front"), ("flank", "Flank"), ("rear", "Rear"), ("no", "Out of reach")]))
        if face in ("front", "flank", "rear"):
            chance, why = charge_odds(doc, battle, lead, target, face, steps, READS_THE_FIGHT[settings.difficulty])
            candidates.append(f"charge {target.name} in the {face}: {why} = {pct(chance)} (needs {pct(threshold)})")
            if chance >= threshold or determined:
                response, said = reaction(battle, target.id, [lead.id], face)
                rung = "charge"
                rule = (f"Determined Charge: it must charge. {why}." if determined and chance < threshold
                        else f"Charge: {why} = {pct(chance)}, at least the {pct(threshold)} it needs"
                        + (f" (all out this turn: {mood_why})." if mood == "all_out" else "."))
                charge_plan = (
                    Planned("order", {"units": [lead.id], "order": "charge", "distance_steps": 0,
                                      "enemy_within_12": True, "charge_target_in_range": True}),
                    Planned("charge", {"chargers": [lead.id], "target": target.id, "facing": face,
                                       "response": response}, when="passed"))
                charge_words = [f"{name}: {lead.name} charges {target.name} in the {face}, straight at it by the "
                                f"shortest way, up to {reach}\" a move the order gives.",
                                f"{target.name} meets it: {said} (the player may overrule this answer).",
                                f"The rest of {name} stays within 6\" behind {lead.name} in support."]
    if (rung != "charge" or asker.dropped) and battle.brigades[b.id].commander:
        # Not charging (none in reach, out of reach, the odds too low, or a "can't tell" cost the
        # charge its rung): the order's distance from its commander counts, so it asks.
        cmd = battle.brigades[b.id].commander.name
        answer = asker.ask(yes_no(f"{b.id}:cmd", f"Is {cmd} within 12\" (a full move) of {lead.name}?"))
        steps = 0 if answer == "yes" else 1
    orderable = [u for u in free if not u.in_combat]
    group = [u.id for u in orderable]
    facts = {"units": group, "distance_steps": steps, "enemy_within_12": close}
    if b.broken:  # a broken brigade never goes forward, whatever the odds or the posture
        if within(near, 18):
            return decided("retire (brigade broken)", f"{name} is broken and the enemy is within 18\": it falls "
                           "back.", [f"{name}: retire straight back, away from {enemy_name}, the full distance the "
                                     f"order gives; keep the units together."],
                           [Planned("order", {**facts, "order": "retreat"})], candidates, memo, "broken-brigade")
        return decided("hold (brigade broken)", f"{name} is broken: it never goes forward.",
                       [f"{name}: hold where you stand, facing {enemy_name}."], (), candidates, memo, "broken-brigade")
    if RETIRES_NEAR_BREAKING[settings.difficulty] and one_loss_from_breaking(battle, b) and within(near, 18):
        return decided("retire", f"One more unit lost breaks {name}, and the enemy is within 18\": it falls back.",
                       [f"{name}: retire straight back, away from {enemy_name}, the full distance the order gives; "
                        f"keep the units together."], [Planned("order", {**facts, "order": "retreat"})],
                       candidates, memo, "broken-brigade")
    marching = [u for u in orderable if u.formation == "march_column" and not u.is_artillery]
    # The ladder: charge, advance (or form line near the enemy), hold; "can't tell" costs a rung.
    start = 0 if rung == "charge" else 2 if mood == "delay" else 1
    chosen = LADDER[min(len(LADDER) - 1, start + asker.dropped)]
    if chosen == "hold" and mood == "all_out" and asker.dropped == 0:
        chosen = "advance"
    lost = max(0, LADDER.index(chosen) - start)
    if chosen == "charge":
        return decided("charge", rule, charge_words, charge_plan, candidates, memo, "charging")
    if chosen == "advance" and marching and within(near, 24) and not close:
        return decided("change formation", "In march column with the enemy within 24\": it forms line.",
                       [f"{name}: form line where the column stands, facing {enemy_name}."],
                       [Planned("order", {"units": [u.id for u in marching], "distance_steps": steps,
                                          "enemy_within_12": close, "order": "change_formation",
                                          "new_formation": "line"})], candidates, memo, "formations", lost)
    if chosen == "advance":
        towards = f"towards {enemy_name}, halting 1\" outside its charge reach" if enemy else \
            "straight ahead towards the enemy's side of the table"
        return decided("advance", "Nothing better: it advances on the enemy.",
                       [f"{name}: advance {towards}; up to {reach}\" for each move the order gives."],
                       [Planned("order", {**facts, "order": "move"})], candidates, memo, lost=lost)
    why = "It was told too little to act on: it holds." if lost else f"It delays this turn: {mood_why}"
    return decided("hold", why, [f"{name}: hold where you stand, facing {enemy_name}."], (), candidates, memo,
                   lost=lost)


def still_allowed(doc: dict, planned: Planned) -> bool:
    """A later shot of a brigade's volley is taken only while its shooter and target still stand."""
    battle = Battle.from_doc(doc)
    ids = [planned.facts.get(k) for k in ("shooter", "target") if planned.facts.get(k)]
    return all(i in battle.units and battle.units[i].in_play and not battle.units[i].in_combat for i in ids)


def sides(doc: dict) -> dict[str, str]:
    return {k: (v or {}).get("name", k) for k, v in (doc.get("sides") or {}).items()}
