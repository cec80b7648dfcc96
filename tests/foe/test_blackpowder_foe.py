"""The Black Powder Foe: it plays Quatre Bras to its end on scripted answers, replays to the same
log, asks at most four geometry questions a brigade, loses a rung for "can't tell", and acts
only through actions the contract offers."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.blackpowder import GAME
from referee.blackpowder.charges import reaction
from referee.blackpowder.clock import time_is_up
from referee.blackpowder.foe import foe_step, one_loss_from_breaking, still_allowed
from referee.blackpowder.model import Battle
from referee.core.dice import SeededDice
from referee.core.errors import RuleError
from referee.core.foe import CANT_TELL, Decision, Question, posture
from referee.data.scenarios import new_battle_from_scenario
from referee.reference import reference
from tests.foe._bp_play import act, foe_turns
from tests.foe._plan import walk_plan
from tests.rules.blackpowder.conftest import artillery, cavalry, infantry, make_battle, make_doc

UNIT_REFS = {"order": "units", "charge": "chargers", "shoot": "shooter"}


def check_offered(doc, decision: Decision, answers) -> None:
    """The Foe's first action is one the contract offers to that unit now (the later steps of a
    plan follow on from it: the charge after its order, a brigade's further volleys). Its rung names
    the rules reference entry behind it."""
    assert reference().entry("blackpowder", decision.reference), (decision.rung, decision.reference)
    if not decision.plan:
        return
    first = decision.plan[0]
    assert first.action in GAME.actions
    field = UNIT_REFS.get(first.action)
    if field:
        ids = first.facts[field]
        for uid in ids if isinstance(ids, list) else [ids]:
            allowed = {o.action for o in GAME.offers(doc, uid) if o.allowed}
            assert first.action in allowed, (first.action, uid, decision)


def start(side="blue", **settings):
    doc = new_battle_from_scenario("quatre-bras")
    doc, _ = act(doc, "foe_settings", {"side": side, **settings}, SeededDice(1))
    return doc


def check_every_step(doc, decision: Decision, answers) -> None:
    """Every action of the decision, in order, is offered and accepted (dice of its own)."""
    check_offered(doc, decision, answers)
    walk_plan(GAME, doc, decision, SeededDice(f"walk:{len(answers)}:{decision.piece}"), UNIT_REFS, still_allowed)


def play(doc, seed="qb", turns=None, answer=None, check=check_offered):
    decisions = []
    kw = {"answer": answer} if answer else {}
    while True:
        doc, _ = foe_turns(doc, seed=seed, on_decision=lambda d, dec, a: (check(d, dec, a),
                                                                           decisions.append((dec, a))), **kw)
        battle = Battle.from_doc(doc)
        if time_is_up(battle) or (turns and battle.turn > turns):
            return doc, decisions
        doc, _ = act(doc, "next_phase", {}, SeededDice(0))


@pytest.mark.parametrize("side", ["blue", "red"])
def test_the_foe_plays_quatre_bras_to_its_end(side):
    doc, decisions = play(start(side))
    assert doc["turn"] == doc["turn_limit"] and time_is_up(Battle.from_doc(doc))
    rungs = {d.rung for d, _ in decisions}
    assert {"advance", "hold", "move on"} <= rungs
    assert any(r.startswith("fire at") for r in rungs)
    assert all(d.orders for d, _ in decisions)
    # Every decision is in the Foe's record, where the game stood.
    assert len(doc["foe"]["decided"]) == len(decisions)
    doc, result = act(doc, "scenario_victory", {"answers": {"crossroads": "red", "gemioncourt": "blue",
                                                            "bossu": "red", "pireaumont": "blue"}}, SeededDice(0))
    assert doc["ended"] and foe_step(doc, {}) is None
    if side == "blue":  # the French attack: they charge and fight
        assert_charged_and_fought(decisions)


def assert_charged_and_fought(decisions):
    rungs = [d.rung for d, _ in decisions]
    assert "charge" in rungs and "fight the round" in rungs
    charge = next(d for d, _ in decisions if d.rung == "charge")
    assert [p.action for p in charge.plan] == ["order", "charge"] and charge.plan[1].when == "passed"
    assert "order passes" in charge.rule and "first round won" in charge.rule


def test_same_seed_answers_and_dice_replay_to_the_same_log():
    first, a = play(start("blue"), turns=3)
    second, b = play(start("blue"), turns=3)
    assert first == second
    assert [(d.to_dict(), ans) for d, ans in a] == [(d.to_dict(), ans) for d, ans in b]


def test_at_most_four_geometry_questions_a_brigade():
    """How far, which brigade, whether a charge reaches, and (when it does not charge) whether its
    commander is within 12": four at most, the tie the player breaks aside."""
    _, decisions = play(start("blue"), turns=4)
    for d, answers in decisions:
        geometry = [k for k in answers if not k.endswith(":target")]
        assert len(geometry) <= 4, (d.name, answers)
        assert len(d.asked) == len(answers)
        if d.piece.startswith("brigade:") and any(k.endswith(":reach") for k in answers):
            assert (d.rung == "charge") != any(k.endswith(":cmd") for k in answers), (d.rung, answers)


def first_brigade_question(doc):
    found = foe_step(doc, {})
    assert isinstance(found, Question) and found.kind == "band" and found.options[-1][0] == CANT_TELL
    return found


def decide(doc, answers):
    while True:
        found = foe_step(doc, answers)
        if not isinstance(found, Question):
            return found
        answers[found.key] = {"band": "18", "yes_no": "yes"}.get(found.kind, found.options[0][0])


def test_cant_tell_drops_the_foe_one_rung():
    doc = start("blue")
    # Past the reserves to the first brigade.
    while not isinstance(foe_step(doc, {}), Question):
        doc, _ = act(doc, "foe_decide", {"answers": {}}, SeededDice(2))
    q = first_brigade_question(doc)
    told = decide(doc, {q.key: "18"})
    assert told.rung == "advance" and told.plan[0].facts["order"] == "move"
    unsure = decide(doc, {q.key: CANT_TELL})
    assert unsure.rung == "hold" and unsure.plan == () and unsure.dropped == 1
    assert "Can't tell" in [a for _, _, a in unsure.asked]


def test_the_foe_answers_charges_as_the_rules_allow():
    battle = make_battle(units=[infantry("i", side="red", special_rules=["Form Square"]),
                                cavalry("c", side="red"), cavalry("x"), infantry("y")])
    assert reaction(battle, "i", ["x"], "front")[0] == "form_square"
    assert reaction(battle, "c", ["x"], "front")[0] == "countercharge"
    assert reaction(battle, "i", ["y"], "front")[0] == "closing_fire"
    assert reaction(battle, "i", ["y"], "rear")[0] == "stand"


def test_one_loss_from_breaking():
    battle = make_battle(units=[infantry("a"), infantry("b"), infantry("c", casualties=3), infantry("d")])
    assert one_loss_from_breaking(battle, battle.brigades["blue1"])
    battle = make_battle(units=[infantry("a"), infantry("b"), infantry("c"), infantry("d")])
    assert not one_loss_from_breaking(battle, battle.brigades["blue1"])


def test_overrule_is_logged_beside_the_choice_and_the_foe_moves_on():
    doc = start("blue")
    while not isinstance(foe_step(doc, {}), Question):
        doc, _ = act(doc, "foe_decide", {"answers": {}}, SeededDice(2))
    answers = {}
    chosen = decide(doc, answers)
    doc, result = act(doc, "foe_overrule", {"answers": answers, "reason": "the wood is in the way"}, SeededDice(0))
    assert result.data["overruled"] == "the wood is in the way"
    assert doc["foe"]["decided"][-1]["overruled"] == "the wood is in the way"
    assert doc["foe"]["decided"][-1]["piece"] == chosen.piece
    assert foe_step(doc, answers) != chosen  # it has moved on to the next piece


def test_settings_are_declared_before_the_game():
    doc = start("blue", difficulty="hard", ties="against")
    assert doc["foe"]["difficulty"] == "hard" and doc["foe"]["ties"] == "against"
    answers = {}
    decide(doc, answers)
    doc, _ = act(doc, "foe_decide", {"answers": answers}, SeededDice(2))
    with pytest.raises(RuleError, match="declared before the game"):
        act(doc, "foe_settings", {"side": "blue", "difficulty": "easy", "ties": "against"}, SeededDice(0))
    doc, _ = act(doc, "foe_settings", {"side": "red", "difficulty": "hard", "ties": "against"}, SeededDice(0))
    with pytest.raises(RuleError, match="not a side"):
        act(doc, "foe_settings", {"side": "green"}, SeededDice(0))


def test_the_foe_refuses_to_decide_without_its_answers_or_a_side():
    doc = new_battle_from_scenario("quatre-bras")
    with pytest.raises(RuleError, match="plays no side"):
        act(doc, "foe_decide", {"answers": {}}, SeededDice(0))
    doc = start("blue")
    while not isinstance(foe_step(doc, {}), Question):
        doc, _ = act(doc, "foe_decide", {"answers": {}}, SeededDice(2))
    with pytest.raises(RuleError, match="still needs an answer"):
        act(doc, "foe_decide", {"answers": {}}, SeededDice(0))


def test_ties_by_lot_are_the_same_for_the_same_seed():
    a, da = play(start("blue", ties="draw", seed=7), turns=2)
    b, db = play(start("blue", ties="draw", seed=7), turns=2)
    assert a == b and [d.to_dict() for d, _ in da] == [d.to_dict() for d, _ in db]
    assert not any(k.endswith(":target") for _, ans in da for k in ans)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), side=st.sampled_from(["blue", "red"]), difficulty=st.sampled_from(["easy", "normal", "hard"]),
       ties=st.sampled_from(["player", "against", "draw"]), seed=st.integers(1, 10**6))
def test_on_any_reachable_state_the_foe_never_raises_nor_picks_a_refused_action(data, side, difficulty, ties, seed):
    """Answers drawn at random (every option, "can't tell" included), dice from a drawn seed: every
    action of every decision, in order, is offered and accepted by the contract (a brigade's order
    and its charge, each of its volleys), and ``foe_decide`` resolves without a refusal."""
    doc = start(side, difficulty=difficulty, ties=ties, seed=seed)

    def answer(q, n):
        return data.draw(st.sampled_from([v for v, _ in q.options]))
    play(doc, seed=str(seed), turns=2, answer=answer, check=check_every_step)


def test_the_hundred_days_battles_give_the_foe_its_posture_by_turn():
    """Napoleon all out on NE turns 1-2 and Wellington delaying on NE turns 1-3: turns 1-8 and
    1-12 of Waterloo's half-hour turns; a side with no posture plays by its difficulty."""
    doc = new_battle_from_scenario("waterloo")
    assert [posture(doc, "blue", t)[0] for t in (1, 8, 9)] == ["all_out", "all_out", ""]
    assert [posture(doc, "red", t)[0] for t in (1, 12, 13)] == ["delay", "delay", ""]
    assert "Prussians" in posture(doc, "red", 1)[1]
    assert posture(new_battle_from_scenario("quatre-bras"), "red", 1) == ("", "")


def test_all_out_charges_at_the_boldest_line_and_delay_holds():
    doc = start("blue", difficulty="easy")  # Quatre Bras: Ney all out on turns 1-4
    while not isinstance(foe_step(doc, {}), Question):
        doc, _ = act(doc, "foe_decide", {"answers": {}}, SeededDice(2))
    q = first_brigade_question(doc)
    bold = decide(doc, {q.key: "6"})
    assert bold.rung == "charge" and "needs 25%" in bold.candidates[0] and "all out this turn" in bold.rule
    calm = decide({**doc, "foe_posture": []}, {q.key: "6"})
    assert "needs 45%" in calm.candidates[0]  # an easy Foe without a posture wants better odds
    waiting = {**doc, "foe_posture": [{"side": "blue", "turns": "1-4", "posture": "delay", "why": "Wait."}]}
    held = decide(waiting, {q.key: "6"})
    assert held.rung == "hold" and held.plan == () and not held.candidates
    assert held.rule == "It delays this turn: Wait. The scenario gives it turns 1–4."
    assert decide(waiting, {q.key: "18"}).rung == "hold"


def foe_battle(units, phase, **doc):
    """A small battle where Referee plays blue, whose turn it is, at ``phase``."""
    found = make_doc(units, **doc)
    found.update(phase=phase, active_side="blue")
    found, _ = act(found, "foe_settings", {"side": "blue"}, SeededDice(1))
    return found


def answered(doc, told):
    """The Foe's decision on the answers ``told`` gives by question key's ending; the questions it put."""
    answers, asked = {}, []
    while isinstance(found := foe_step(doc, answers), Question):
        asked.append(found)
        answers[found.key] = next(v for end, v in told.items() if found.key.endswith(end))
    return found, asked, answers


@pytest.mark.parametrize("kind, reach", [("horse", 36), ("foot", 48)])
def test_a_batterys_distance_bands_reach_its_guns_and_it_fires_past_24(kind, reach):
    """A horse battery reaches 36", a foot battery 48": the bands go that far, a target between 24"
    and its reach is fired at (long range), and only "beyond" its reach holds its fire."""
    doc = foe_battle([artillery("g", artillery_kind=kind, weapon_range=reach), infantry("e", side="red")],
                     "shooting")
    told = {":sees": "red1", ":range": str(reach)}
    decision, asked, _ = answered(doc, told)
    bands = dict(asked[-1].options)
    assert bands[str(reach)] == f"Within {reach}\"" and bands["beyond"] == f"Beyond {reach}\""
    assert "24" in bands and (reach == 36) != ("48" in bands)
    assert decision.rung.startswith("fire at") and decision.plan[0].facts["range_band"] == "long"
    held, _, _ = answered(doc, {**told, ":range": "beyond"})
    assert held.rung == "hold fire" and held.plan == () and f"beyond its {reach}\" reach" in held.orders[0]


def test_muskets_are_asked_to_24_and_rifles_too():
    doc = foe_battle([infantry("i", weapon_range=18), infantry("e", side="red")], "shooting")
    _, asked, _ = answered(doc, {":sees": "red1", ":range": "12"})
    assert [v for v, _ in asked[-1].options] == ["6", "12", "18", "24", "beyond", "none", CANT_TELL]


def test_a_charge_out_of_reach_asks_for_the_commander_and_orders_by_the_answer():
    """The enemy is within a charge's reach by the band, but the player says the charge would not
    reach: the Foe advances instead, and the order's distance from its commander is asked, as it is
    whenever it does not charge."""
    doc = foe_battle([cavalry("c"), infantry("e", side="red")], "command")
    told = {":near": "6", ":which": "red1", ":reach": "no", ":cmd": "no"}
    far, asked, _ = answered(doc, told)
    assert [q.key.rsplit(":", 1)[1] for q in asked] == ["near", "which", "reach", "cmd"]
    assert far.rung == "advance" and far.plan[0].facts["distance_steps"] == 1
    near, _, _ = answered(doc, {**told, ":cmd": "yes"})
    assert near.plan[0].facts["distance_steps"] == 0


def test_cant_tell_is_said_once_with_the_rungs_the_ladder_used():
    """Two "can't tell"s on a ladder that has only hold below advance cost one rung: the decision
    says so once (its reason does not count again), and the log's notes say it once."""
    doc = foe_battle([infantry("i"), infantry("e", side="red")], "command")
    decision, _, answers = answered(doc, {":near": "18", ":which": CANT_TELL, ":cmd": CANT_TELL})
    assert decision.rung == "hold" and decision.dropped == 1 and "Can't tell" not in decision.rule
    _, result = act(doc, "foe_decide", {"answers": answers}, SeededDice(1))
    said = [n for n in result.notes if "cost" in n or "Rung:" in n]
    assert said == ["Rung: hold. It was told too little to act on: it holds.", "“Can't tell” cost it a rung."]
    assert result.data["quiet_changes"]  # its own record is not listed as a change on the screen
