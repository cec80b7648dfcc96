"""The Command phase: order tests (2D6 against the Staff Rating), blunders, re-rolls, free moves,
and the start-of-phase rallies and initiative moves.

Readings the summary leaves open, as this module applies them:
- Every command modifier changes the Staff Rating; the effective rating is then held to 5..10
  and the 2D6 are compared with it (RULES-GAPS).
- March column / limbered on a road gives +2 *instead of* the +1 for march column (the road
  line is the better case of the same situation, not a second bonus); the setting
  ``road_bonus_adds_to_march_column`` makes it +3 in all.
- When a group is ordered, a formation bonus counts only if every unit in the group has it;
  "enemy within 12\"" is one fact for the whole order (true if any ordered unit is that close).
- With ``double_six_always_blunders`` off, a double 6 is an ordinary failure (a rating can never
  exceed 10, so 12 always fails).
- The General's re-roll, when declared, is spent only if the order failed or blundered. A
  declared Decisive re-roll is taken only on a failure (not a blunder), and only if the General's
  re-roll was not used on this order: his re-roll takes precedence.
- Hesitant applies to every fresh roll (the first roll and each re-roll); its own re-roll stands.
- Unreliable: on a roll equal to the rating those units get no move; if every ordered unit is
  Unreliable, the order counts as failed (so Decisive may re-roll it).
- A blunder gives no ordered moves: the blunder table says what the units do instead.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..core.dice import roll
from ..core.results import Die, Modifier, Result
from .blunders import BLUNDER, FAIL, OUTCOME_LABELS, roll_blunder
from .model import Battle, BattleChanges, Commander, RuleError, Unit
from .special_rules import commander_rules
from .turn_record import commanders_ordered_this_turn, record_turn

STAFF = "staff rating"
MIN_RATING, MAX_RATING = 5, 10
DEFAULT_STAFF_RATING = 8  # regular professional forces, when a brigade has no commander set

ORDER_KINDS = {
    "move": "Move",
    "charge": "Charge",
    "retreat": "Retreat",
    "change_formation": "Change formation",
    "other": "Other order",
}

# --- the Staff Rating ---------------------------------------------------------------------------

def effective_staff_rating(base: int, modifiers: list[Modifier] | tuple[Modifier, ...]) -> tuple[int, Modifier | None]:
    """The rating after modifiers, held to 5..10, and the modifier that records the clamp (if any)."""
    raw = base + sum(m.amount for m in modifiers)
    rating = max(MIN_RATING, min(MAX_RATING, raw))
    if rating == raw:
        return rating, None
    bound = "above 10" if raw > MAX_RATING else "below 5"
    return rating, Modifier(rating - raw, f"Staff Rating never {bound}", STAFF)


# What each Staff Rating says of a commander, for his card and the order result.
STAFF_RATING_WORDS = {
    10: "a genius of war",
    9: "a great general",
    8: "good: capable and sure of himself",
    7: "average: steady rather than inspired",
    6: "poor: slow to make up his mind",
    5: "a fool",
}


def staff_rating_words(rating: int) -> str:
    """The rating's meaning; a rating outside 5..10 reads as the nearest one (the clamp)."""
    return STAFF_RATING_WORDS[min(10, max(5, rating))]


def move_distance(unit: Unit) -> int:
    """Inches per move: infantry and foot artillery 12", cavalry and horse artillery 18"."""
    if unit.is_cavalry or (unit.is_artillery and unit.artillery_kind == "horse"):
        return 18
    return 12


def type_label(unit: Unit) -> str:
    if unit.is_artillery:
        return "horse artillery" if unit.artillery_kind == "horse" else "foot artillery"
    return unit.type


@dataclass(frozen=True)
class OrderPlan:
    """Everything the roll's outcome depends on, shared by ``order_test`` and ``order_odds``."""

    rating: int
    blunder_from: int | None  # a 2D6 total at or above this blunders (None: no blunders)
    all_unreliable: bool
    hesitant: bool
    diffident: bool
    general_reroll: bool
    decisive_reroll: bool

    def classify(self, total: int) -> int:
        if self.blunder_from is not None and total >= self.blunder_from:
            return FAIL if self.diffident else BLUNDER
        if total > self.rating:
            return FAIL
        margin = self.rating - total
        if margin == 0 and self.all_unreliable:
            return FAIL
        return 1 if margin <= 1 else min(3, margin)


def _group_units(battle: Battle, unit_ids: list[str]) -> list[Unit]:
    if not unit_ids:
        raise RuleError("Pick at least one unit to order.")
    if len(set(unit_ids)) != len(unit_ids):
        raise RuleError("A unit is picked twice.")
    units = [battle.unit(u) for u in unit_ids]
    if len({u.brigade for u in units}) > 1:
        raise RuleError("An order goes to units of one brigade; these belong to different brigades.")
    for u in units:
        if not u.in_play:
            raise RuleError(f"{u.name} is no longer on the table.")
    return units


def _commander(battle: Battle, units: list[Unit]) -> tuple[Commander | None, int, str]:
    """The commander giving the order, his Staff Rating, and how he is named."""
    commander = battle.commander_of(units[0])
    if commander is not None:
        return commander, commander.staff_rating, commander.name
    general = battle.sides[units[0].side].general if units[0].side in battle.sides else None
    if general is not None:
        return general, general.staff_rating, f"{general.name} (General)"
    return None, DEFAULT_STAFF_RATING, "the brigade's commander"


def staff_modifiers(battle: Battle, units: list[Unit], commander: Commander | None, *, order: str,
                    distance_steps: int, enemy_within_12: bool, on_road: bool, general_within_12: bool,
                    charge_target_in_range: bool, purpose: str) -> tuple[list[Modifier], list[str]]:
    """Every modifier to the Staff Rating for this order, each with its rule, and notes."""
    mods: list[Modifier] = []
    notes: list[str] = []
    if distance_steps < 0:
        raise RuleError("Distance is counted in full 12\" steps: 0 or more.")
    if distance_steps:
        if all(u.has("Marauder") or u.has("Marauders") for u in units):
            notes.append("Marauders: the commander's distance does not count.")
        else:
            mods.append(Modifier(-distance_steps, f"Distance from commander ({distance_steps} × full 12\")", STAFF))
    if enemy_within_12:
        mods.append(Modifier(-1, "Enemy within 12\"", STAFF))
    if all(u.formation == "attack_column" for u in units):
        mods.append(Modifier(+1, "Attack Column", STAFF))
    marching = all(u.formation in ("march_column", "limbered") for u in units)
    if marching and (not on_road or battle.settings.road_bonus_adds_to_march_column):
        mods.append(Modifier(+1, "March Column / Limbered", STAFF))
    if marching and on_road:
        mods.append(Modifier(+2, "March Column / Limbered on a road", STAFF))
    elif on_road:
        notes.append("The road bonus is for march columns and limbered guns only.")
    if all(u.has("Reliable") for u in units):
        mods.append(Modifier(+1, "Reliable", STAFF))
    elif any(u.has("Reliable") for u in units):
        notes.append("Reliable counts only when every unit in the order is Reliable.")

    def has(rule: str) -> bool:
        return any(r.lower() == rule.lower() for r in commander_rules(commander))

    if has("Aggressive") and order == "charge" and charge_target_in_range:
        mods.append(Modifier(+1, "Aggressive (charge at an enemy within reach)", STAFF))
    if has("Timid") and order == "charge":
        mods.append(Modifier(-1, "Timid (ordering a charge)", STAFF))
    if has("Timid") and order == "retreat":
        mods.append(Modifier(+1, "Timid (ordering a retreat)", STAFF))
    if has("Diffident") and not general_within_12:
        mods.append(Modifier(-1, "Diffident (General more than 12\" away)", STAFF))
    if has("Headstrong") and purpose == "order" and units[0].side == battle.active_side \
            and not commanders_ordered_this_turn(battle):
        mods.append(Modifier(+1, "Headstrong (first commander to order this turn)", STAFF))
    return mods, notes


def _check_orderable(battle: Battle, units: list[Unit], order: str, purpose: str) -> None:
    side = units[0].side
    if purpose == "order":
        if side in battle.sides and battle.sides[side].army_broken:
            raise RuleError("The army is broken: its units receive no more orders.")
        for u in units:
            if u.disordered:
                raise RuleError(f"{u.name} is disordered and cannot be given orders.")
    if order == "charge":
        for u in units:
            reason = ("it is shaken" if u.shaken else "artillery cannot charge" if u.is_artillery
                      else "it is in march column" if u.formation == "march_column"
                      else "it is in square" if u.formation == "square" else None)
            if reason:
                raise RuleError(f"{u.name} cannot charge: {reason}.")


@dataclass(frozen=True)
class _Prepared:
    units: list[Unit]
    side_id: str
    commander_name: str
    base: int
    modifiers: list[Modifier]
    notes: list[str]
    plan: OrderPlan


def prepare_order(battle: Battle, unit_ids: list[str], *, order: str, distance_steps: int, enemy_within_12: bool,
             on_road: bool, general_present: bool, use_general_reroll: bool, use_decisive_reroll: bool,
             purpose: str, general_within_12: bool, charge_target_in_range: bool) -> _Prepared:
    """Check the facts and work out the rating and the re-rolls: shared by the roll and the odds."""
    if order not in ORDER_KINDS and order not in ("form_square", "evade"):
        raise RuleError(f"“{order}” is not an order the app knows.")
    units = _group_units(battle, unit_ids)
    _check_orderable(battle, units, order, purpose)
    side_id = units[0].side
    side = battle.sides.get(side_id)
    commander, base, commander_name = _commander(battle, units)
    rules = commander_rules(commander)
    has = lambda rule: any(r.lower() == rule.lower() for r in rules)  # noqa: E731

    mods, notes = staff_modifiers(battle, units, commander, order=order, distance_steps=distance_steps,
                                  enemy_within_12=enemy_within_12, on_road=on_road,
                                  general_within_12=general_within_12 or general_present,
                                  charge_target_in_range=charge_target_in_range, purpose=purpose)
    rating, clamp = effective_staff_rating(base, mods)
    if clamp:
        mods.append(clamp)

    if use_general_reroll:
        if not general_present:
            raise RuleError("The General's re-roll needs the General with this commander.")
        if has("Headstrong"):
            raise RuleError(f"{commander_name} is Headstrong: he can never use the General's re-roll.")
        if side is not None and side.general_reroll_used:
            raise RuleError("The General's re-roll has already been used this turn.")
    if use_decisive_reroll and not has("Decisive"):
        raise RuleError(f"{commander_name} is not Decisive.")

    if purpose == "form_square":
        # Form Square gives its own meaning to double 6 and double 1 (read from ``data["pair"]``),
        # so the blunder table is not used.
        blunder_from: int | None = None
    elif has("Headstrong"):
        blunder_from = 11
    else:
        blunder_from = 12 if battle.settings.double_six_always_blunders else None
    plan = OrderPlan(rating=rating, blunder_from=blunder_from,
                  all_unreliable=all(u.has("Unreliable") for u in units), hesitant=has("Hesitant"),
                  diffident=has("Diffident"), general_reroll=use_general_reroll,
                  decisive_reroll=use_decisive_reroll)
    return _Prepared(units, side_id, commander_name, base, mods, notes, plan)


def order_test(battle: Battle, unit_ids: list[str], dice, *, order: str = "move", distance_steps: int = 0,
               enemy_within_12: bool = False, on_road: bool = False, general_present: bool = False,
               use_general_reroll: bool = False, use_decisive_reroll: bool = False, purpose: str = "order",
               general_within_12: bool = False, charge_target_in_range: bool = False) -> Result:
    """Roll an order for one unit or a group of one brigade.

    ``purpose`` is "order" for a Command-phase order, "form_square" or "evade" when a charge
    response takes an order test (those may be disordered, happen in the enemy's turn, and an
    evade still gets its free move on a failure). ``general_present`` means the General has
    joined this commander (he is then also within 12"); ``general_within_12`` matters only to a
    Diffident commander. ``data`` holds ``moves`` (0..3), ``passed``, ``blunder``, the
    ``blunder_result`` (or None), ``moves_by_unit``, ``free_move_units`` and the rolls.
    """
    prep = prepare_order(battle, unit_ids, order=order, distance_steps=distance_steps, enemy_within_12=enemy_within_12,
                    on_road=on_road, general_present=general_present, use_general_reroll=use_general_reroll,
                    use_decisive_reroll=use_decisive_reroll, purpose=purpose, general_within_12=general_within_12,
                    charge_target_in_range=charge_target_in_range)
    units, side_id, commander_name, plan = prep.units, prep.side_id, prep.commander_name, prep.plan
    side = battle.sides.get(side_id)
    mods, notes = list(prep.modifiers), list(prep.notes)
    rating, blunder_from = plan.rating, plan.blunder_from

    rolled: list[Die] = []
    rolls: list[dict] = []

    last_pair: list[int] = []

    def fresh_roll(label: str) -> tuple[int, int]:
        pair = roll(dice, 2, 6, label)
        rolled.extend(pair)
        total = pair[0].value + pair[1].value
        outcome = plan.classify(total)
        rolls.append({"purpose": label, "total": total, "outcome": outcome})
        if plan.hesitant and outcome == 3:
            notes.append(f"Hesitant: {total} gave 3 moves, so it is rolled again and the new roll stands.")
            pair = roll(dice, 2, 6, f"{label}: Hesitant re-roll")
            rolled.extend(pair)
            total = pair[0].value + pair[1].value
            outcome = plan.classify(total)
            rolls.append({"purpose": f"{label}: Hesitant re-roll", "total": total, "outcome": outcome})
        last_pair[:] = [pair[0].value, pair[1].value]
        if plan.diffident and blunder_from is not None and total >= blunder_from:
            notes.append(f"Diffident: {commander_name}'s blunder is only a failure.")
        return total, outcome

    total, outcome = fresh_roll("order test (2D6)")
    ch = BattleChanges(battle)
    general_used = False
    if outcome in (FAIL, BLUNDER) and plan.general_reroll:
        general_used = True
        notes.append(f"The General re-rolls the {'blunder' if outcome == BLUNDER else 'failed order'}.")
        total, outcome = fresh_roll("General's re-roll")
        ch.at(("sides", side_id, "general_reroll_used"), True,
              f"{side.name if side else side_id}: General's re-roll used this turn")
    elif outcome == FAIL and plan.decisive_reroll:
        notes.append(f"Decisive: {commander_name} re-rolls the failed order; a second failure is a blunder.")
        total, outcome = fresh_roll("Decisive re-roll")
        if outcome == FAIL:
            if plan.diffident:
                notes.append("Decisive re-roll failed: a blunder, but Diffident makes it a plain failure.")
            else:
                outcome = BLUNDER
                notes.append("Decisive re-roll failed too: it counts as a blunder.")

    blunder = outcome == BLUNDER
    moves = max(0, outcome)
    moves_by_unit = {u.id: (0 if (moves and u.has("Unreliable") and total == rating) else moves) for u in units}
    if moves and total == rating:
        for u in units:
            if u.has("Unreliable"):
                notes.append(f"Unreliable: {u.name} does not move on a roll equal to the Staff Rating.")

    blunder_result = None
    if blunder:
        blunder_result = roll_blunder(dice, rolled)
    free_units: list[str] = []
    if outcome == FAIL:
        for u in units:
            why = _free_move_reason(u, purpose)
            if why:
                free_units.append(u.id)
                notes.append(f"Free move: {u.name} still makes 1 move ({why}), up to {move_distance(u)}\".")
    if moves:
        notes[:0] = _move_notes(units, moves_by_unit, order, enemy_within_12)
    if blunder_result:
        notes.insert(0, f"Blunder {blunder_result['roll']}: {blunder_result['name']} — the units "
                        f"{blunder_result['what']}.")

    if purpose == "order" and side_id == battle.active_side and \
            units[0].brigade not in commanders_ordered_this_turn(battle):
        record_turn(ch, "commanders_ordered", {"brigade": units[0].brigade},
                     f"{commander_name} has given an order this turn")
    if purpose == "order" and side_id == battle.active_side:
        # Which units have had their order this turn, passed or not (the board's "not yet ordered").
        record_turn(ch, "units_ordered", {"units": [u.id for u in units]},
                     f"{', '.join(u.name for u in units)}: ordered this turn")

    names = ", ".join(u.name for u in units)
    outcome_text = (f"Blunder! {blunder_result['name']}" if blunder
                    else OUTCOME_LABELS[outcome] if outcome != FAIL or not free_units
                    else "Order fails (free move only)")
    verb = ORDER_KINDS.get(order, order.replace("_", " ").title())
    summary = f"{verb} order to {names}: rolled {total} against {rating} → {outcome_text}"
    data = {
        "moves": moves,
        "passed": moves > 0 and any(moves_by_unit.values()),
        "blunder": blunder,
        "blunder_result": blunder_result,
        "moves_by_unit": moves_by_unit,
        "free_move_units": free_units,
        "roll": total,
        "pair": list(last_pair),  # the 2D6 that decided the order (after any re-roll)
        "staff_rating": prep.base,
        "effective_rating": rating,
        "rating_words": staff_rating_words(rating),
        "rolls": rolls,
        "general_reroll_used": general_used,
        "commander": commander_name,
        "order": order,
    }
    return Result("order", summary, dice=tuple(rolled), modifiers=tuple(mods),
                  changes=ch.changes, notes=tuple(notes), data=data)


def _free_move_reason(unit: Unit, purpose: str) -> str | None:
    if purpose == "evade":
        return "an evading unit always gets one"
    if unit.formation == "march_column":
        return "march column"
    if unit.formation == "limbered":
        return "limbered artillery"
    if unit.has("Superbly Drilled"):
        return "Superbly Drilled"
    return None


def _move_notes(units: list[Unit], moves_by_unit: dict[str, int], order: str, enemy_within_12: bool) -> list[str]:
    notes = []
    by_type: dict[tuple[str, int, int], list[str]] = {}
    for u in units:
        n = moves_by_unit[u.id]
        if n:
            by_type.setdefault((type_label(u), move_distance(u), n), []).append(u.name)
    for (label, inches, n), names in by_type.items():
        who = names[0] if len(names) == 1 else f"{len(names)} units"
        notes.append(f"{n} move{'s' if n > 1 else ''}: up to {n * inches}\" for {label} ({who}).")
    for u in units:
        if moves_by_unit[u.id] and u.is_artillery and u.formation == "deployed":
            if u.artillery_kind == "horse":
                notes.append(f"{u.name}: horse artillery limbers or unlimbers at the start or end of a move freely.")
            else:
                notes.append(f"{u.name}: limbering takes a whole move (or manhandle the guns up to 6\" in total).")
    if order == "charge":
        notes.append("The charge goes in if the enemy is within reach of the moves given.")
    if enemy_within_12:
        notes.append("Within 12\" of the enemy: advance only within the front quarter or retire within the rear quarter.")
    for u in units:
        if u.has("Determined Charge") and order != "charge":
            notes.append(f"Determined Charge: {u.name} must charge an enemy in reach if it can.")
    return notes


def commander_break_modifiers(battle: Battle, unit: Unit, within_12: bool) -> list[Modifier]:
    """Break-test modifiers from the unit's brigade commander when the unit is within 12" of him:
    Inspirational +1, Loathed −1, and von Zieten's +1."""
    if not within_12:
        return []
    commander = battle.commander_of(unit)
    rules = [r.lower() for r in commander_rules(commander)]
    mods = []
    if "inspirational" in rules:
        mods.append(Modifier(+1, f"Inspirational ({commander.name} within 12\")", "break test"))
    if "loathed" in rules:
        mods.append(Modifier(-1, f"Loathed ({commander.name} within 12\")", "break test"))
    bonus = commander.break_test_bonus_within_12 if commander else 0
    if bonus:
        mods.append(Modifier(bonus, f"{commander.name} within 12\"", "break test"))
    return mods


