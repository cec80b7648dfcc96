"""Which units have had their order this turn: recorded with every Command-phase order, passed or
failed, so the board can show who is still to be ordered; undone with the order; a new turn
starts afresh."""
from __future__ import annotations

from referee.blackpowder.command import OrderFacts, resolve_order
from referee.blackpowder.model import Battle
from referee.blackpowder.turn_record import units_ordered_this_turn
from referee.core.dice import ScriptedDice
from referee.core.docstate import apply_changes, revert_changes


def _order(doc, dice, units):
    return resolve_order(doc, OrderFacts(units=units, order="move"), ScriptedDice(dice))


def test_a_passed_order_records_its_units(make_doc, infantry):
    doc = make_doc(units=[infantry("a"), infantry("b"), infantry("c")])
    r = _order(doc, [3, 3], ["a", "b"])
    after = apply_changes(doc, r.all_changes)
    assert units_ordered_this_turn(Battle.from_doc(after)) == {"a", "b"}
    assert revert_changes(after, r.all_changes) == doc


def test_a_failed_order_counts_as_ordered_and_a_second_order_adds_to_the_first(make_doc, infantry):
    doc = make_doc(units=[infantry("a"), infantry("b")])
    after = apply_changes(doc, _order(doc, [6, 5], ["a"]).all_changes)  # 11 against 8: failed, still his order
    after = apply_changes(after, _order(after, [3, 3], ["b"]).all_changes)
    assert units_ordered_this_turn(Battle.from_doc(after)) == {"a", "b"}


def test_last_turns_orders_do_not_count(make_doc, infantry):
    doc = make_doc(units=[infantry("a")])
    after = apply_changes(doc, _order(doc, [3, 3], ["a"]).all_changes)
    after["turn"] = after.get("turn", 1) + 1
    assert units_ordered_this_turn(Battle.from_doc(after)) == set()
