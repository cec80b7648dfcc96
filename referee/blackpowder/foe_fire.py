"""The Black Powder Foe's Shooting and Hand-to-Hand, and how it answers a charge: pure, like the
engine it asks (no Flask, no database, no ``random``).

Shooting is decided brigade by brigade: the Foe asks which enemy brigade its shooters see in
range and how far the target it picks is, then every shooter that reaches fires at that target.
Its target, among the units of the brigade it was told of: one its fire can force into a break
test (the engine's own odds), then artillery, then a clear target, then the nearest (the first
the army list names). Hand-to-hand: it fights every open combat once a phase and, when its side
has won, holds the ground.
"""
from __future__ import annotations

from ..core.errors import RuleError
from ..core.foe import BEYOND, CANT_TELL, Asker, Decision, FoeSettings, Planned, band, band_inches, break_tie, pct, pick
from .artillery import max_range
from .combat_records import SIDE_KEYS, combat_title, combats, engaged
from .model import Battle, Brigade, Unit
from .shooting_odds import outcome_odds
from .shot_plan import not_clear_reason, plan_shot

# The chance a shot must have of forcing a break test before the Foe prefers that target.
BREAK_TEST_AT = {"easy": 0.5, "normal": 0.35, "hard": 0.25}


def live_units(battle: Battle, brigade_id: str) -> list[Unit]:
    return [u for u in battle.units_of_brigade(brigade_id) if u.in_play]


def on_table(raw: dict) -> bool:
    """``Unit.in_play``, read from the unit's document without building the unit."""
    return not (raw.get("destroyed") or raw.get("off_table") or raw.get("awaiting"))


# Kept per document: a stored document never changes (docs/architecture.md), and the Foe asks
# for the enemy's brigades at every question of every brigade.
_KEPT: dict[tuple[int, str], tuple[dict, list]] = {}


def enemy_brigades(battle: Battle, side: str) -> list[Brigade]:
    """The enemy's brigades with a unit on the table, in the army list's order."""
    key = (id(battle.doc), side)
    kept = _KEPT.get(key)
    if kept is not None and kept[0] is battle.doc:
        return kept[1]
    found = [b for b in battle.brigades_of_side(battle.enemy_of(side))
             if any(on_table(raw) for raw in battle.unit_documents_of_brigade(b.id))]
    if len(_KEPT) > 32:
        _KEPT.clear()
    _KEPT[key] = (battle.doc, found)
    return found


def can_shoot(unit: Unit) -> bool:
    if not unit.in_play or unit.in_combat or unit.formation in ("march_column", "limbered"):
        return False
    return unit.is_artillery or unit.shooting is not None


def reach_of(battle: Battle, unit: Unit) -> int:
    """How far the unit shoots: a battery by its kind (horse, foot, howitzer, rockets), else its
    muskets' or rifles' range."""
    return max_range(unit, battle.settings) if unit.is_artillery else unit.weapon_range


def range_band(battle: Battle, unit: Unit, inches: int) -> str | None:
    """The shot's range band for a target at most ``inches`` away, or None when out of reach."""
    reach = reach_of(battle, unit)
    if inches > reach:
        return None
    if inches <= 6:
        return "short"
    return "medium" if inches <= reach // 2 or not unit.is_artillery else "long"


def break_test_chance(battle: Battle, shooter: Unit, target: Unit) -> float:
    """The engine's chance that this shot at medium range forces a break test (0 if refused)."""
    facts = {"range_band": "medium" if shooter.is_artillery else "short"}
    try:
        plan = plan_shot(battle, shooter.id, target.id, facts)
        joint, _ = outcome_odds(battle, plan, facts)
    except RuleError:
        return 0.0
    return float(joint.chance(lambda k: k[2] >= 1))


def rank_targets(battle: Battle, settings: FoeSettings, shooter: Unit, targets: list[Unit]) -> list[tuple]:
    """(rung, chance, unit) for each target, best first: a break test likely, artillery, a clear
    target, the rest in the army list's order."""
    threshold = BREAK_TEST_AT.get(settings.difficulty, BREAK_TEST_AT["normal"])
    ranked = []
    for i, t in enumerate(targets):
        chance = break_test_chance(battle, shooter, t)
        rung = 0 if chance >= threshold else 1 if t.is_artillery else 2 if not_clear_reason(t, False, False) is None \
            else 3
        ranked.append((rung, -round(chance, 3), i, t, chance))
    ranked.sort(key=lambda r: r[:3])
    return [(r[0], r[4], r[3]) for r in ranked]


TARGET_RUNGS = ("a shot likely to force a break test", "artillery", "a clear target", "the nearest")


def shooting_decision(asker: Asker, battle: Battle, settings: FoeSettings, brigade: Brigade) -> Decision | None:
    shooters = [u for u in live_units(battle, brigade.id) if can_shoot(u)]
    if not shooters:
        return None
    enemies = enemy_brigades(battle, brigade.side)
    piece, name = f"shoot:{brigade.id}", f"{brigade.name} shoots"
    hold = Decision(piece, name, "hold fire", "No enemy in sight and range.",
                    (f"{brigade.name}: hold fire.",), tuple(asker.asked), dropped=min(1, asker.dropped), reference="how-to-shoot")
    if not enemies:
        return hold
    seen = asker.ask(pick(f"{brigade.id}:sees", f"Which enemy brigade can {brigade.name}'s shooters see within "
                                                f"their range? (the nearest, if several)",
                          [(b.id, b.name) for b in enemies] + [("none", "None in sight and range")]))
    if seen in ("none", CANT_TELL):
        return Decision(piece, name, "hold fire", "It was told of no enemy in sight and range.",
                        (f"{brigade.name}: hold fire.",), tuple(asker.asked), dropped=min(1, asker.dropped),
                        reference="how-to-shoot")
    targets = live_units(battle, seen)
    ranked = rank_targets(battle, settings, shooters[0], targets)
    best = [r for r in ranked if r[:2] == ranked[0][:2]]
    chosen_id = break_tie(asker, settings, f"{brigade.id}:target", f"{brigade.name} may fire at any of these "
                          f"equally: which does the player pick?", [(r[2].id, r[2].name) for r in best],
                          lambda uid: float(not battle.unit(uid).is_artillery), battle.turn, brigade.id)
    rung, chance, target = next(r for r in ranked if r[2].id == chosen_id)
    # The bands reach the brigade's longest weapon: a 48" battery is asked up to 48", and "beyond"
    # is past every shooter's reach.
    longest = max(reach_of(battle, s) for s in shooters)
    distance = asker.ask(band(f"{brigade.id}:range", f"How far is {target.name} from {shooters[0].name}?",
                              longest))
    candidates = tuple(f"{u.name}: {TARGET_RUNGS[r]} (break test {pct(c)})" for r, c, u in ranked)
    if distance in ("none", CANT_TELL) or asker.dropped:
        return Decision(piece, name, "hold fire", f"It cannot tell whether {target.name} is in reach.",
                        (f"{brigade.name}: hold fire.",), tuple(asker.asked), candidates, dropped=min(1, asker.dropped),
                        reference="weapon-ranges")
    plan, orders = [], []
    for s in shooters:
        rb = range_band(battle, s, band_inches(distance) or BEYOND)
        if rb is None:
            orders.append(f"{s.name}: {target.name} is beyond its {reach_of(battle, s)}\" reach — hold fire.")
            continue
        plan.append(Planned("shoot", {"shooter": s.id, "target": target.id, "range_band": rb},
                            when="if_allowed" if plan else "always"))
        orders.append(f"{s.name}: fire at {target.name} ({rb} range).")
    if not plan:
        return Decision(piece, name, "hold fire", f"{target.name} is beyond every shooter's reach.",
                        tuple(orders), tuple(asker.asked), candidates, dropped=min(1, asker.dropped),
                        reference="weapon-ranges")
    return Decision(piece, name, f"fire at {TARGET_RUNGS[rung]}",
                    f"Target {target.name}: {TARGET_RUNGS[rung]}; the engine gives a shot {pct(chance)} to force "
                    f"a break test.", tuple(orders), tuple(asker.asked), candidates, tuple(plan),
                    reference="how-to-shoot")


# --- hand-to-hand ------------------------------------------------------------------------------

def combat_decision(battle: Battle, side: str) -> Decision | None:
    """The first open combat the Foe should act on now: a round to fight, or the winners' choice
    when its side has won."""
    position = [battle.turn, battle.active_side]
    for cid, rec in sorted(combats(battle).items()):
        if rec.get("status") != "open":
            continue
        left = [k for k in SIDE_KEYS if engaged(battle, rec, k)]
        victor = rec.get("last_winner")
        if len(left) == 1:
            victor = left[0]
        waiting = rec.get("awaiting_outcome") or len(left) < 2
        if waiting:
            if victor not in SIDE_KEYS or rec.get("outcome_round") == rec.get("last_round") and \
                    victor == rec.get("last_winner"):
                continue
            winners = engaged(battle, rec, victor)
            if not winners or winners[0].side != side:
                continue  # the player's winners choose
            return Decision(f"outcome:{cid}:{rec.get('last_round')}", f"{combat_title(battle, rec)}: the winners' choice",
                            "hold the ground", "Winners hold: the Foe never gives up ground it has won.",
                            (f"{', '.join(u.name for u in winners)}: stay where you stand.",),
                            plan=(Planned("combat_outcome", {"combat": cid, "choice": "hold"}),),
                            reference="combat-results")
        if battle.phase == "hand_to_hand" and rec.get("fought") != position:
            mine = [u for k in SIDE_KEYS for u in engaged(battle, rec, k) if u.side == side]
            if not mine:
                continue
            return Decision(f"combat:{cid}:{battle.turn}:{battle.active_side}", combat_title(battle, rec),
                            "fight the round", "Every open combat fights a round each Hand-to-Hand phase.",
                            (f"{combat_title(battle, rec)}: fight the round; the result says who gives ground.",),
                            plan=(Planned("combat_round", {"combat": cid}),), reference="fighting")
    return None
