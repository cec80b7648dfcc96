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
from typing import Literal

import icepool
from pydantic import Field

from ..actions import ActionSpec, Facts
from ..dice import roll
from ..results import Die, Modifier, Result
from .adjust import allowed_formations
from .model import FORMATIONS, Battle, Commander, RuleError, Unit, compact, doc_change, unit_change
from .special_rules import commander_rules
from .system import SYSTEM

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

BLUNDER = -1
FAIL = 0
OUTCOME_LABELS = {BLUNDER: "Blunder!", FAIL: "Order fails", 1: "1 move", 2: "2 moves", 3: "3 moves"}

# The blunder table: D6 -> (name, moves, what the units do).
BLUNDER_TABLE = {
    1: ("Rapid Retreat", 2, "make 2 moves directly away from the closest enemy they can see"),
    2: ("Retreat", 1, "make 1 move directly away from the closest enemy they can see"),
    3: ("Move to Left", 1, "make 1 move into their own left quarter"),
    4: ("Move to Right", 1, "make 1 move into their own right quarter"),
    5: ("Move Forward", 1, "make 1 move to their own front"),
    6: ("Charge!", None, "charge the closest enemy they can see"),
}


def charge_blunder_moves(die: int) -> int:
    """Charge! on the blunder table: a D6 gives 1 (1–2), 2 (3–4) or 3 (5–6) moves."""
    return (die + 1) // 2


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
class _Order:
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


def _turn_entries(battle: Battle, key: str) -> list:
    return list(battle.doc.get("turn_state", {}).get(key, []))


def _this_turn(battle: Battle, key: str, side: str) -> list[dict]:
    """Entries recorded this turn by this side (older turns' entries are kept but ignored, so the
    bookkeeping needs no reset when the turn passes)."""
    return [e for e in _turn_entries(battle, key)
            if isinstance(e, dict) and e.get("turn") == battle.turn and e.get("side") == side]


def _record_turn(battle: Battle, key: str, entry: dict, label: str):
    entry = {"turn": battle.turn, "side": battle.active_side, **entry}
    return _set_turn_list(battle, key, _turn_entries(battle, key) + [entry], label)


def _set_turn_list(battle: Battle, key: str, entries: list, label: str):
    # A fresh battle has no "turn_state" yet: create it whole, so undo removes it whole and the
    # document comes back exactly as it was.
    if not isinstance(battle.doc.get("turn_state"), dict):
        return doc_change(battle, ("turn_state",), {key: entries}, label)
    return doc_change(battle, ("turn_state", key), entries, label)


def commanders_ordered_this_turn(battle: Battle, side: str | None = None) -> list[str]:
    """Brigade ids whose commander has given an order this turn (for Headstrong)."""
    side = side or battle.active_side
    return [e["brigade"] for e in _this_turn(battle, "commanders_ordered", side)]


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
    plan: _Order


def _prepare(battle: Battle, unit_ids: list[str], *, order: str, distance_steps: int, enemy_within_12: bool,
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
    plan = _Order(rating=rating, blunder_from=blunder_from,
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
    prep = _prepare(battle, unit_ids, order=order, distance_steps=distance_steps, enemy_within_12=enemy_within_12,
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
    changes = []
    general_used = False
    if outcome in (FAIL, BLUNDER) and plan.general_reroll:
        general_used = True
        notes.append(f"The General re-rolls the {'blunder' if outcome == BLUNDER else 'failed order'}.")
        total, outcome = fresh_roll("General's re-roll")
        changes.append(doc_change(battle, ("sides", side_id, "general_reroll_used"), True,
                                  f"{side.name if side else side_id}: General's re-roll used this turn"))
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
        blunder_result = _blunder(dice, rolled)
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
        changes.append(_record_turn(battle, "commanders_ordered", {"brigade": units[0].brigade},
                                    f"{commander_name} has given an order this turn"))

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
                  changes=tuple(c for c in changes if c is not None), notes=tuple(notes), data=data)


def _blunder(dice, rolled: list[Die]) -> dict:
    (die,) = roll(dice, 1, 6, "blunder table")
    rolled.append(die)
    name, moves, what = BLUNDER_TABLE[die.value]
    result = {"roll": die.value, "name": name, "moves": moves, "what": what}
    if moves is None:
        (charge_die,) = roll(dice, 1, 6, "blunder: Charge! moves")
        rolled.append(charge_die)
        result["moves"] = charge_blunder_moves(charge_die.value)
        result["charge_roll"] = charge_die.value
        n = result["moves"]
        result["what"] = f"{what}, with {n} move{'s' if n > 1 else ''}"
    return result


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


# --- exact odds ----------------------------------------------------------------------------------

def outcome_distribution(plan: _Order) -> icepool.Die:
    """The chance of each outcome (BLUNDER, FAIL, 1, 2, 3) with the declared re-rolls."""
    two_d6 = icepool.d6 + icepool.d6
    single = two_d6.map(plan.classify)
    fresh = single.map(lambda o: single if o == 3 else o) if plan.hesitant else single
    if plan.general_reroll:
        return fresh.map(lambda o: fresh if o in (FAIL, BLUNDER) else o)
    if plan.decisive_reroll:
        second = fresh.map(lambda o: (FAIL if plan.diffident else BLUNDER) if o == FAIL else o)
        return fresh.map(lambda o: second if o == FAIL else o)
    return fresh


def odds_lines(plan: _Order) -> list[str]:
    die = outcome_distribution(plan)
    lines = [f"{OUTCOME_LABELS[o]}: {_pct(die.probability(o))}" for o in (FAIL, 1, 2, 3, BLUNDER)
             if die.probability(o) > 0]
    lines.append(f"At least 1 move: {_pct(die.probability('>=', 1))} (rating {plan.rating})")
    return lines


def _pct(p) -> str:
    return f"{float(p) * 100:.1f}%"


def order_odds(battle: Battle, unit_ids: list[str], **kw) -> list[str]:
    """Exact chances of each outcome for an order test with the same facts as ``order_test``."""
    kw.setdefault("order", "move")
    defaults = dict(distance_steps=0, enemy_within_12=False, on_road=False, general_present=False,
                    use_general_reroll=False, use_decisive_reroll=False, purpose="order",
                    general_within_12=False, charge_target_in_range=False)
    return odds_lines(_prepare(battle, unit_ids, **{**defaults, **kw}).plan)


# --- the "order" action --------------------------------------------------------------------------

MOUNTING = {"": "No change", "mount": "Mount", "dismount": "Dismount"}
PROFILE_FIELDS = ("type", "hand_to_hand", "shooting", "morale", "stamina", "weapon_range")


class OrderFacts(Facts):
    units: list[str] = Field(title="Units to order (one, or a group of one brigade)", min_length=1,
                             json_schema_extra={"ref": "unit", "side": "active"})
    order: Literal[tuple(ORDER_KINDS)] = Field("move", title="Order", json_schema_extra={"labels": ORDER_KINDS})
    distance_steps: int = Field(0, ge=0, le=8, title="Full 12\" steps from the commander to the unit",
                                json_schema_extra={"group": "Situation",
                                                   "help": "0 within 12\", 1 from 12\" to under 24\", …"})
    enemy_within_12: bool = Field(False, title="Enemy within 12\"?", json_schema_extra={"group": "Situation"})
    on_road: bool = Field(False, title="On a road or track?", json_schema_extra={
        "group": "Situation", "help": "Counts for march columns and limbered guns"})
    charge_target_in_range: bool = Field(False, title="Charge target within reach?", json_schema_extra={
        "group": "Situation", "help": "For an Aggressive commander ordering a charge"})
    general_within_12: bool = Field(False, title="General within 12\" of the commander?", json_schema_extra={
        "group": "The General", "help": "Matters to a Diffident commander"})
    general_present: bool = Field(False, title="General with this commander?", json_schema_extra={"group": "The General"})
    use_general_reroll: bool = Field(False, title="Use the General's re-roll if the order fails or blunders",
                                     json_schema_extra={"group": "The General"})
    use_decisive_reroll: bool = Field(False, title="Decisive: re-roll a failed order", json_schema_extra={
        "group": "Re-rolls", "help": "A second failure is a blunder"})
    new_formation: Literal[("",) + tuple(FORMATIONS)] = Field(
        "", title="New formation (needs at least 1 move)",
        json_schema_extra={"labels": {"": "No change", **FORMATIONS}, "group": "Formation"})
    mount: Literal[tuple(MOUNTING)] = Field("", title="Mounted Infantry", json_schema_extra={
        "labels": MOUNTING, "group": "Formation"})


def _order_kwargs(facts: OrderFacts) -> dict:
    return dict(order=facts.order, distance_steps=facts.distance_steps, enemy_within_12=facts.enemy_within_12,
                on_road=facts.on_road, general_present=facts.general_present,
                use_general_reroll=facts.use_general_reroll, use_decisive_reroll=facts.use_decisive_reroll,
                general_within_12=facts.general_within_12, charge_target_in_range=facts.charge_target_in_range)


def _switched_type(unit: Unit, mount: str) -> str:
    if mount and unit.alternate_profile:
        return unit.alternate_profile.get("type", unit.type)
    return unit.type


def _check_order_facts(battle: Battle, facts: OrderFacts) -> None:
    if battle.phase != "command":
        raise RuleError("Orders are given in the Command phase.")
    if facts.order == "change_formation" and not facts.new_formation and not facts.mount:
        # Otherwise the order is rolled and the board keeps the old formation, silently.
        raise RuleError("Pick the new formation (under Formation) for a Change formation order.")
    for uid in facts.units:
        unit = battle.unit(uid)
        if unit.side != battle.active_side:
            raise RuleError(f"{unit.name} is not on the side whose Command phase this is.")
        if facts.mount:
            if not unit.has("Mounted Infantry"):
                raise RuleError(f"{unit.name} is not Mounted Infantry: it cannot mount or dismount.")
            if not unit.alternate_profile:
                raise RuleError(f"{unit.name} has no second profile to switch to; set it on the unit first.")
            if (facts.mount == "mount") == unit.mounted:
                raise RuleError(f"{unit.name} is already {'mounted' if unit.mounted else 'on foot'}.")
        if facts.new_formation:
            probe = Unit.from_dict({**unit.to_dict(), "type": _switched_type(unit, facts.mount)})
            if facts.new_formation not in allowed_formations(probe):
                names = ", ".join(FORMATIONS[f] for f in allowed_formations(probe))
                raise RuleError(f"{unit.name} cannot form {FORMATIONS[facts.new_formation]}; it can take: {names}.")
            if facts.new_formation == unit.formation and not facts.mount:
                raise RuleError(f"{unit.name} is already in {FORMATIONS[unit.formation]}.")


def _mount_changes(unit: Unit, mount: str) -> list:
    """Swap the current profile with the stored one; the unit keeps its casualties and status."""
    alt = dict(unit.alternate_profile or {})
    current = unit.to_dict()
    changes = [unit_change(unit, k, alt[k]) for k in PROFILE_FIELDS if k in alt]
    stored = {k: current[k] for k in PROFILE_FIELDS if k in alt}
    changes.append(unit_change(unit, "alternate_profile", stored,
                               f"{unit.name}: {'horses' if mount == 'dismount' else 'foot'} profile stored"))
    changes.append(unit_change(unit, "mounted", mount == "mount",
                               f"{unit.name}: {'mounts' if mount == 'mount' else 'dismounts'}"))
    new_type = alt.get("type", unit.type)
    probe = Unit.from_dict({**current, "type": new_type})
    if unit.formation not in allowed_formations(probe):
        changes.append(unit_change(unit, "formation", "line"))
    return changes


def resolve_order(doc: dict, facts: OrderFacts, dice) -> Result:
    battle = Battle.from_doc(doc)
    _check_order_facts(battle, facts)
    result = order_test(battle, list(facts.units), dice, **_order_kwargs(facts))
    changes = list(result.changes)
    notes = list(result.notes)
    moved = [battle.unit(uid) for uid, n in result.data["moves_by_unit"].items() if n]
    if facts.mount:
        for unit in moved:
            changes += _mount_changes(unit, facts.mount)
        if moved:
            notes.append(f"{'Mounting' if facts.mount == 'mount' else 'Dismounting'} is part of the move; "
                         "the unit now uses its other profile.")
    if facts.new_formation:
        for unit in moved:
            changes.append(unit_change(unit, "formation", facts.new_formation))
        if moved:
            notes.append(f"Forming {FORMATIONS[facts.new_formation]} uses one whole move of those given.")
        else:
            notes.append("No move given, so the formation does not change.")
    data = {**result.data, "new_formation": facts.new_formation if moved else "",
            "mount": facts.mount if moved else ""}
    return Result(result.kind, result.summary, dice=result.dice, modifiers=result.modifiers,
                  changes=tuple(compact(changes)), notes=tuple(notes), children=result.children, data=data)


def odds_order(doc: dict, facts: OrderFacts) -> list[str]:
    battle = Battle.from_doc(doc)
    try:
        _check_order_facts(battle, facts)
        return order_odds(battle, list(facts.units), **_order_kwargs(facts))
    except RuleError as e:
        return [str(e)]


# --- start of the Command phase ------------------------------------------------------------------

def _command_phase_units(battle: Battle, unit_ids: list[str]) -> list[Unit]:
    if battle.phase != "command":
        raise RuleError("This happens in the Command phase.")
    units = [battle.unit(u) for u in unit_ids]
    for u in units:
        if u.side != battle.active_side:
            raise RuleError(f"{u.name} is not on the side whose Command phase this is.")
        if not u.in_play:
            raise RuleError(f"{u.name} is no longer on the table.")
    side = battle.sides.get(battle.active_side)
    if side is not None and side.army_broken:
        raise RuleError("The army is broken: its units can no longer rally, recover or use initiative.")
    return units


def elite_value(unit: Unit) -> int:
    """The score an Elite unit needs: "Elite 4+" -> 4."""
    raw = (unit.rule_value("Elite") or "").rstrip("+").strip()
    if not raw.isdigit():
        raise RuleError(f"{unit.name}'s Elite rule has no score (write it as “Elite 4+”).")
    return int(raw)


class EliteRallyFacts(Facts):
    units: list[str] = Field(default_factory=list, title="Elite units to roll for (none picked: every one that may)",
                             json_schema_extra={"ref": "unit", "side": "active"})


def resolve_elite_rally(doc: dict, facts: EliteRallyFacts, dice) -> Result:
    """At the start of its Command phase each disordered Elite unit out of combat rolls a D6 and
    shakes off disorder on its Elite score or more."""
    battle = Battle.from_doc(doc)
    if commanders_ordered_this_turn(battle):
        raise RuleError("Elite units recover at the start of the Command phase, before any order.")
    done = {e["unit"] for e in _this_turn(battle, "elite_rally", battle.active_side)}
    if facts.units:
        units = _command_phase_units(battle, list(facts.units))
        for u in units:
            if not u.has("Elite"):
                raise RuleError(f"{u.name} is not Elite.")
            if not u.disordered:
                raise RuleError(f"{u.name} is not disordered.")
            if u.in_combat:
                raise RuleError(f"{u.name} is in combat: Elite units recover only out of combat.")
            if u.id in done:
                raise RuleError(f"{u.name} has already rolled to recover this turn.")
    else:
        _command_phase_units(battle, [])
        units = [u for u in battle.units_of_side(battle.active_side)
                 if u.in_play and u.has("Elite") and u.disordered and not u.in_combat and u.id not in done]
        if not units:
            raise RuleError("No disordered Elite unit out of combat to roll for.")
    rolled, changes, notes, recovered = [], [], [], []
    for u in units:
        need = elite_value(u)
        (die,) = roll(dice, 1, 6, f"Elite {need}+: {u.name}")
        rolled.append(die)
        if die.value >= need:
            recovered.append(u.id)
            changes.append(unit_change(u, "disordered", False, f"{u.name}: disorder removed (Elite)"))
            notes.append(f"{u.name} rolled {die.value} (needs {need}+): no longer disordered.")
        else:
            notes.append(f"{u.name} rolled {die.value} (needs {need}+): stays disordered.")
    entries = _turn_entries(battle, "elite_rally") + [
        {"turn": battle.turn, "side": battle.active_side, "unit": u.id} for u in units]
    changes.append(_set_turn_list(battle, "elite_rally", entries, "Elite units have rolled this turn"))
    summary = f"Elite recovery: {len(recovered)} of {len(units)} unit{'s' if len(units) > 1 else ''} recover"
    return Result("elite_rally", summary, dice=tuple(rolled), changes=tuple(compact(changes)), notes=tuple(notes),
                  data={"recovered": recovered, "rolled_for": [u.id for u in units]})


def odds_elite_rally(doc: dict, facts: EliteRallyFacts) -> list[str]:
    battle = Battle.from_doc(doc)
    ids = facts.units or [u.id for u in battle.units_of_side(battle.active_side)
                          if u.in_play and u.has("Elite") and u.disordered and not u.in_combat]
    lines = []
    for uid in ids:
        u = battle.unit(uid)
        try:
            need = elite_value(u)
        except RuleError as e:
            lines.append(str(e))
            continue
        lines.append(f"{u.name} recovers: {_pct(icepool.d6.probability('>=', need))}")
    return lines


BRAVE_RALLY_NEED = 4


class BraveRallyFacts(Facts):
    unit: str = Field(title="Shaken Brave unit", json_schema_extra={"ref": "unit", "side": "active"})
    more_than_12_from_enemy: bool = Field(False, title="More than 12\" from every enemy unit?")


def resolve_brave_rally(doc: dict, facts: BraveRallyFacts, dice) -> Result:
    """A shaken Brave unit more than 12" from any enemy rallies on a D6 of 4 or more.

    Reading: rallying removes one casualty marker, so the unit is no longer shaken (its casualties
    drop below its Stamina); it may try again in later turns if shaken once more. One try per unit
    per turn.
    """
    battle = Battle.from_doc(doc)
    (unit,) = _command_phase_units(battle, [facts.unit])
    if not unit.has("Brave"):
        raise RuleError(f"{unit.name} is not Brave.")
    if not unit.shaken:
        raise RuleError(f"{unit.name} is not shaken: there is nothing to rally from.")
    if not facts.more_than_12_from_enemy:
        raise RuleError(f"{unit.name} can rally only when more than 12\" from every enemy unit.")
    if unit.id in {e["unit"] for e in _this_turn(battle, "brave_rally", battle.active_side)}:
        raise RuleError(f"{unit.name} has already tried to rally this turn.")
    (die,) = roll(dice, 1, 6, f"Brave rally: {unit.name}")
    changes = [_record_turn(battle, "brave_rally", {"unit": unit.id}, f"{unit.name} has tried to rally this turn")]
    rallied = die.value >= BRAVE_RALLY_NEED
    if rallied:
        changes.insert(0, unit_change(unit, "casualties", unit.casualties - 1,
                                      f"{unit.name}: rallies, casualties {unit.casualties} → {unit.casualties - 1}"))
        summary = f"{unit.name} rallies ({die.value}): one casualty marker removed, no longer shaken"
    else:
        summary = f"{unit.name} fails to rally ({die.value}, needs {BRAVE_RALLY_NEED}+) and stays shaken"
    return Result("brave_rally", summary, dice=(die,), changes=tuple(compact(changes)),
                  data={"rallied": rallied})


def odds_brave_rally(doc: dict, facts: BraveRallyFacts) -> list[str]:
    return [f"Rallies: {_pct(icepool.d6.probability('>=', BRAVE_RALLY_NEED))}"]


class InitiativeFacts(Facts):
    unit: str = Field(title="Unit using its initiative", json_schema_extra={"ref": "unit", "side": "active"})
    enemy_within_12: bool = Field(False, title="Enemy within 12\" of the unit?")


def resolve_initiative_move(doc: dict, facts: InitiativeFacts, dice) -> Result:
    """A unit within 12" of the enemy may act on its own initiative before any order is given.
    No dice; the move is recorded (RULES-GAPS: the umpire judges what it may do)."""
    battle = Battle.from_doc(doc)
    (unit,) = _command_phase_units(battle, [facts.unit])
    if not facts.enemy_within_12:
        raise RuleError(f"Only units within 12\" of the enemy may use initiative; {unit.name} needs an order.")
    if unit.disordered:
        raise RuleError(f"{unit.name} is disordered and cannot use initiative.")
    if unit.in_combat:
        raise RuleError(f"{unit.name} is in combat.")
    if commanders_ordered_this_turn(battle):
        raise RuleError("Initiative moves come first in the Command phase, before any order.")
    if unit.id in {e["unit"] for e in _this_turn(battle, "initiative_moves", battle.active_side)}:
        raise RuleError(f"{unit.name} has already used its initiative this turn.")
    change = _record_turn(battle, "initiative_moves", {"unit": unit.id}, f"{unit.name}: initiative move")
    notes = ("Within 12\" of the enemy: advance within the front quarter or retire within the rear quarter.",
             "The summary does not detail initiative moves: the umpire judges what the unit may do.")
    return Result("initiative_move", f"{unit.name} moves on its own initiative", changes=(change,), notes=notes,
                  data={"unit": unit.id})


SYSTEM.add(ActionSpec("order", "Give an order", OrderFacts, resolve_order, odds_order))
SYSTEM.add(ActionSpec("elite_rally", "Elite units recover from disorder", EliteRallyFacts, resolve_elite_rally,
                      odds_elite_rally))
SYSTEM.add(ActionSpec("brave_rally", "Brave unit rallies", BraveRallyFacts, resolve_brave_rally, odds_brave_rally))
SYSTEM.add(ActionSpec("initiative_move", "Initiative move", InitiativeFacts, resolve_initiative_move,
                      rolls_dice=False))
