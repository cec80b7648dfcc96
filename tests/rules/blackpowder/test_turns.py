"""The turn sequence and what happens as a side's turn begins and ends."""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.blackpowder import SYSTEM
from referee.blackpowder.break_tests import BreakTestFacts
from referee.blackpowder.brigades import brigade_should_break, may_be_lost, unit_is_lost
from referee.blackpowder.model import Battle, BattleChanges, Unit
from referee.blackpowder.morale import TakeHitsFacts
from referee.blackpowder.turns import NextPhase, owed_now, resolve_next_phase
from referee.core.dice import ScriptedDice
from referee.core.docstate import apply_changes, revert_changes
from referee.data.scenarios import new_battle_from_scenario

SEQUENCE = [(1, "blue", "command"), (1, "blue", "shooting"), (1, "blue", "hand_to_hand"),
            (1, "red", "command"), (1, "red", "shooting"), (1, "red", "hand_to_hand"), (2, "blue", "command")]


def step(doc):
    result = resolve_next_phase(doc, NextPhase(), None)
    return apply_changes(doc, result.all_changes), result


def test_phases_follow_blue_then_red_then_next_turn(make_doc, infantry):
    doc = make_doc(units=[infantry("a"), infantry("b", side="red")])
    seen = [(doc["turn"], doc["active_side"], doc["phase"])]
    for _ in range(6):
        doc, _ = step(doc)
        seen.append((doc["turn"], doc["active_side"], doc["phase"]))
    assert seen == SEQUENCE


def test_phase_titles_name_the_side_for_command_and_shooting(make_doc, infantry):
    doc = make_doc(units=[infantry("a")])
    _, result = step(doc)
    assert result.summary == "Turn 1: Blue Shooting"
    doc = make_doc(units=[infantry("a")], phase="shooting")
    assert step(doc)[1].summary == "Turn 1: Hand-to-Hand"


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(min_value=1, max_value=40))
def test_phases_always_cycle_in_order(make_doc, infantry, n):
    doc = make_doc(units=[infantry("a"), infantry("b", side="red")])
    for i in range(1, n + 1):
        doc, _ = step(doc)
        assert doc["phase"] == SEQUENCE[i % 6][2]
        assert doc["active_side"] == SEQUENCE[i % 6][1]
        assert doc["turn"] == 1 + i // 6


def test_disorder_lifts_at_the_end_of_the_units_own_turn(make_doc, infantry):
    doc = make_doc(units=[infantry("a", disordered=True), infantry("f", disordered=True, in_combat=True),
                          infantry("e", side="red", disordered=True)], phase="hand_to_hand")
    doc, _ = step(doc)
    assert doc["units"]["a"]["disordered"] is False
    assert doc["units"]["f"]["disordered"] is True  # still fighting
    assert doc["units"]["e"]["disordered"] is True  # not red's turn that ended


def test_command_phase_checks_that_sides_brigades(make_doc, infantry):
    doc = make_doc(units=[infantry("a", side="red", brigade="r1", destroyed=True),
                          infantry("b", side="red", brigade="r1", destroyed=True),
                          infantry("c", side="red", brigade="r2")], active_side="blue", phase="hand_to_hand")
    doc, result = step(doc)
    assert doc["brigades"]["r1"]["broken"] is True
    assert doc["sides"]["red"]["army_broken"] is True
    assert result.children and result.children[0].kind == "brigade_check"


def test_command_phase_restores_the_generals_reroll(make_doc, infantry):
    doc = make_doc(units=[infantry("a")], sides={"red": {"general_reroll_used": True}},
                   phase="hand_to_hand")
    doc, _ = step(doc)
    assert doc["sides"]["red"]["general_reroll_used"] is False


def test_new_turn_resets_once_a_turn_abilities_only(make_doc, infantry):
    doc = make_doc(units=[infantry("a", used=["tough_fighters", "first_fire", "traversing_shot:1:red"])],
                   phase="hand_to_hand",
                   turn_state={"commanders_ordered": [{"turn": 1, "side": "blue", "brigade": "blue1"}]})
    doc, _ = step(doc)
    assert doc["units"]["a"]["used"] == ["first_fire"]
    assert doc["turn_state"] == {}


def test_elite_and_brave_reminders(make_doc, infantry):
    doc = make_doc(units=[infantry("el", side="red", special_rules=["Elite 4+"], disordered=True),
                          infantry("br", side="red", special_rules=["Brave"], casualties=3)],
                   phase="hand_to_hand")
    _, result = step(doc)
    text = " ".join(result.notes)
    assert "el (Elite 4+) may roll" in text and "br (Brave) may rally" in text


def test_next_phase_undoes_exactly(make_doc, infantry):
    doc = make_doc(units=[infantry("a", disordered=True, used=["tough_fighters"])], phase="hand_to_hand")
    new, result = step(doc)
    assert revert_changes(new, result.all_changes) == doc


def _fight(doc, **rec):
    doc["combats"] = {"c1": {"id": "c1", "attackers": ["a"], "defenders": ["b"], "status": "open",
                             "awaiting_outcome": False, "fought": None, "retired": [], **rec}}
    return doc


def test_a_combat_not_fought_this_hand_to_hand_is_owed(make_doc, infantry):
    doc = _fight(make_doc(units=[infantry("a", in_combat=True), infantry("b", side="red", in_combat=True)],
                          phase="hand_to_hand"))
    [owed] = owed_now(doc)
    assert owed.text == "The fight of a against b has not fought its round this Hand-to-Hand phase."
    assert (owed.action, dict(owed.facts), owed.may_leave) == ("combat_round", {"combat": "c1"}, True)
    # Fought this phase: nothing owed; fought last turn: owed again.
    assert owed_now({**doc, "combats": {"c1": {**doc["combats"]["c1"], "fought": [1, "blue"]}}}) == []
    assert len(owed_now({**doc, "combats": {"c1": {**doc["combats"]["c1"], "fought": [0, "red"]}}})) == 1
    # Out of Hand-to-Hand, a combat owes nothing; a closed one never does.
    assert owed_now({**doc, "phase": "shooting"}) == []
    assert owed_now({**doc, "combats": {"c1": {**doc["combats"]["c1"], "status": "over"}}}) == []


def test_winners_not_chosen_are_owed(make_doc, infantry):
    doc = _fight(make_doc(units=[infantry("a", in_combat=True), infantry("b", side="red", in_combat=True)],
                          phase="hand_to_hand"), awaiting_outcome=True, fought=[1, "blue"])
    [owed] = owed_now(doc)
    assert owed.action == "combat_outcome" and "have not chosen their next step" in owed.text


def test_moving_on_leaving_it_undone_is_said_in_the_log(make_doc, infantry):
    doc = _fight(make_doc(units=[infantry("a", in_combat=True), infantry("b", side="red", in_combat=True)],
                          phase="hand_to_hand"))
    result = resolve_next_phase(doc, NextPhase(leave_undone=True), None)
    assert result.summary == "Turn 1: Red Command, leaving 1 thing undone"
    assert "Left undone: The fight of a against b has not fought its round this Hand-to-Hand phase." in result.notes
    assert SYSTEM.owed_before(doc, "next_phase", NextPhase()) != []
    assert SYSTEM.owed_before(doc, "next_phase", NextPhase(leave_undone=True)) == []
    assert SYSTEM.owed_before(doc, "shoot", NextPhase()) == []  # only the step that leaves the phase waits


def test_a_break_test_put_off_is_owed_until_taken(make_doc, infantry):
    doc = make_doc(units=[infantry("t", "red", casualties=3)], phase="shooting")
    hits = SYSTEM.action("take_hits").resolve(doc, TakeHitsFacts(unit="t", break_test_if_needed=False),
                                              ScriptedDice([1]))
    doc = apply_changes(doc, hits.all_changes)
    [owed] = owed_now(doc)
    assert (owed.action, dict(owed.facts)) == ("break_test", {"unit": "t", "context": "shooting"})
    assert owed.text == "t has not taken the break test its hits forced (casualties beyond its Stamina)."
    test = SYSTEM.action("break_test").resolve(doc, BreakTestFacts(unit="t"), ScriptedDice([6, 6]))
    assert owed_now(apply_changes(doc, test.all_changes)) == []
    assert revert_changes(apply_changes(doc, test.all_changes), test.all_changes) == doc
    # Left undone, it is said in the log and owed no longer: it belonged to that phase.
    moved = resolve_next_phase(doc, NextPhase(leave_undone=True), None)
    after = apply_changes(doc, moved.all_changes)
    assert "owed_break_tests" not in after and any("break test" in n for n in moved.notes)
    assert revert_changes(after, moved.all_changes) == doc


def test_a_broken_armys_units_stay_disordered(make_doc, infantry):
    doc = make_doc(units=[infantry("a", disordered=True)], sides={"blue": {"army_broken": True}},
                   phase="hand_to_hand")
    doc, _ = step(doc)
    assert doc["units"]["a"]["disordered"] is True


def test_the_change_of_side_names_the_army_not_its_colour(make_doc, infantry):
    doc = make_doc(units=[infantry("a"), infantry("b", side="red")], phase="hand_to_hand")
    doc["sides"]["red"]["name"] = "Prussians"
    _, result = step(doc)
    said = [c.label for c in result.all_changes]
    assert "Prussians to play" in said and "Prussians begin their turn" in said
    assert not any("Red" in s or "per-turn" in s for s in said)


def test_a_new_view_of_the_battle_lends_unchanged_units_and_rereads_changed_ones():
    """The change builder's next view of the battle reuses each unit the last view read whose
    dictionary is unchanged (the same object), and reads a changed one afresh."""
    battle = Battle.from_doc(new_battle_from_scenario("demo"))
    ids = list(battle.units)
    read = {u: battle.units[u] for u in ids}
    ch = BattleChanges(battle)
    ch.unit(ids[0], "casualties", read[ids[0]].casualties + 1)
    after = ch.battle
    assert after.units[ids[0]].casualties == read[ids[0]].casualties + 1
    assert after.units[ids[0]] is not read[ids[0]]
    assert all(after.units[u] is read[u] for u in ids[1:])
    assert battle.units[ids[0]].casualties == read[ids[0]].casualties  # the first view is as it was


def test_a_turns_end_reads_only_the_units_it_changes_or_reminds_of(make_doc, infantry, monkeypatch):
    """Ending blue's turn and starting red's looks at every unit, but reads into a ``Unit`` only
    the disordered ones of the side whose turn ends, the units of brigades with a loss, and the
    units with a rule the start of a turn reminds of: not the whole of a 300-unit Waterloo day."""
    quiet = [infantry(f"b{i}") for i in range(10)] + [infantry(f"r{i}", side="red") for i in range(10)]
    doc = make_doc(units=quiet + [
        infantry("shaken", side="red", brigade="red2", casualties=3),
        infantry("destroyed", side="red", brigade="red2", destroyed=True),
        infantry("beside-them", side="red", brigade="red2"),
        infantry("dis", disordered=True),
        infantry("brave", side="red", special_rules=["Brave", "Steady"]),
    ], phase="hand_to_hand")
    read: list[str] = []
    built = Unit.from_dict.__func__

    def counting(cls, d):
        read.append(d["id"])
        return built(cls, d)

    monkeypatch.setattr(Unit, "from_dict", classmethod(counting))
    new, result = step(doc)
    assert sorted(set(read)) == ["beside-them", "brave", "destroyed", "dis", "shaken"]
    assert new["units"]["dis"]["disordered"] is False
    assert new["brigades"]["red2"]["broken"] is True  # two of its three lost
    assert not new["brigades"]["red1"]["broken"]
    assert not any("(Brave) may rally" in n for n in result.notes)  # read, but not shaken: no reminder


@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.fixed_dictionaries({}, optional={
    "destroyed": st.booleans(), "off_table": st.booleans(), "awaiting": st.booleans(),
    "casualties": st.integers(0, 9)}), st.one_of(st.none(), st.integers(0, 6)))
def test_a_unit_that_counts_as_lost_may_be_lost_on_paper(make_doc, infantry, fields, stamina):
    """``may_be_lost`` reads the document and is true of every unit ``unit_is_lost`` counts, so a
    brigade it finds nothing in cannot break; and a brigade's break reads the same either way."""
    raw = {**infantry("u", brigade="blue2", stamina=stamina), **fields}
    if unit_is_lost(Unit.from_dict(raw)):
        assert may_be_lost(raw)
    battle = Battle.from_doc(make_doc(units=[raw, infantry("v", brigade="blue2")]))
    units = [u for u in battle.units_of_brigade("blue2") if not u.awaiting]
    lost = sum(1 for u in units if unit_is_lost(u))
    expected = bool(units) and (lost == 2 if len(units) == 2 else lost * 2 >= len(units))
    assert brigade_should_break(battle, "blue2") == expected


def test_a_units_card_still_offers_its_shot_and_its_charge():
    """Who acts is picked from the acting side ("side": "acting"); a unit's own card still offers it."""
    doc = new_battle_from_scenario("demo")
    labels = {o.action for o in SYSTEM.offers(doc, "11th-leger")}
    assert {"shoot", "charge", "order"} <= labels
