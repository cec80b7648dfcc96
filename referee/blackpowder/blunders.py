"""Blunders: a failed order test that rolled a double six (or the blunder the setting names), and the
blunder table's D6 that says what the units do instead.
"""
from __future__ import annotations

from ..core.dice import roll
from ..core.results import Die

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


def roll_blunder(dice, rolled: list[Die]) -> dict:
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
