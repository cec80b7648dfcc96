"""The Of Oil and Iron Foe: it plays a Point of Control engagement and an Iron Clash to their end on
scripted answers, replays to the same log, asks about geometry only, never risks a harmful heat roll
it can see coming, and acts only through actions the contract offers."""
from __future__ import annotations

import random
from collections import defaultdict

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.core.dice import SeededDice
from referee.core.errors import RuleError
from referee.core.foe import CANT_TELL, Decision, FoeSettings, Planned, Question, run
from referee.oilandiron import GAME
from referee.oilandiron.foe import QUESTIONS_PER_ACTIVATION, distance_question, foe_step, rig_action, still_allowed
from referee.oilandiron.foe_odds import (
    harmful_heat_chance,
    most_damaged_location,
    objective_holders,
    ready_weapons,
    target_order,
)
from referee.oilandiron.model import Engagement
from referee.reference import reference
from referee.selfplay.lone_player import act, engagement, play_engagement, player_step
from tests.foe._plan import walk_plan


def check_offered(doc, decision, answers):
    """The Foe's action is offered to that Rig now (or is one of the round's own steps), and its
    rung names the rules reference entry behind it."""
    assert reference().entry("oilandiron", decision.reference), (decision.rung, decision.reference)
    first = decision.plan[0]
    assert first.action in GAME.actions
    rig = first.facts.get("rig")
    if rig:
        allowed = {o.action for o in GAME.offers(doc, rig) if o.allowed}
        assert first.action in allowed, (first.action, rig, decision.rung)
    elif first.action in ("initiative", "end_round"):
        assert first.action in {o.action for o in GAME.offers(doc, "") if o.allowed}
    else:
        assert first.action == "end_activation"
    # Geometry only: every question is a pick, with "can't tell" last.
    for key in answers:
        assert ":" in key


def check_every_step(doc, decision, answers) -> None:
    """Every action of the decision, in order, is offered to its Rig and accepted (dice of its own)."""
    check_offered(doc, decision, answers)
    walk_plan(GAME, doc, decision, SeededDice(f"walk:{len(answers)}:{decision.piece}"), {a: "rig" for a in GAME.actions},
              still_allowed)


def play(doc, seed="poc", answer=None, check=check_offered):
    decisions = []
    kw = {"answer": answer} if answer else {}
    doc, asked = play_engagement(doc, seed, on_decision=lambda d, dec, a: (check(d, dec, a),
                                                                          decisions.append((dec, a))), **kw)
    return doc, decisions, asked


@pytest.mark.parametrize("side", ["p1", "p2"])
def test_the_foe_plays_a_point_of_control_engagement_to_its_end(side):
    doc, decisions, _ = play(engagement("point_of_control", side))
    assert doc["ended"] and doc["winner"] in ("p1", "p2", "draw")
    rungs = {d.rung for d, _ in decisions}
    assert {"activate", "fire", "end activation", "roll initiative"} <= rungs
    fire = next(d for d, _ in decisions if d.rung == "fire")
    assert "catastrophic" in fire.rule and fire.plan[0].action in ("fire_weapon", "called_shot")
    assert foe_step(doc, {}) is None


def test_the_foe_plays_a_whole_iron_clash():
    doc, decisions, _ = play(engagement("iron_clash", "p1"), seed="clash")
    assert doc["ended"] and doc["winner"] in ("p1", "p2", "draw")


def questions_per_activation(decisions) -> dict:
    """Each activation's questions, by (Rig, round): a Rig activates once a round."""
    per_activation: dict = {}
    for _, answers in decisions:
        for key in answers:  # "rig:round:…"
            rig, rnd = key.split(":")[:2]
            per_activation.setdefault((rig, rnd), set()).add(key)
    return per_activation


def test_questions_per_activation_stay_few():
    _, decisions, _ = play(engagement("point_of_control", "p2"))
    assert max(len(v) for v in questions_per_activation(decisions).values()) <= QUESTIONS_PER_ACTIVATION == 4


def test_a_fifth_question_is_never_asked():
    """The path that asked five, then six: the target, its distance and arc, after the move how far
    it is, and then, that target gone, a new target and its distance. Now the fourth answer is the
    last: with the target gone it asks nothing more and reloads, repairs or ends."""
    doc = engagement("iron_clash", "p2")
    known = {"p2-r1:1:m0:target": "p1-r1", "p2-r1:1:m0:distance": "mid", "p2-r1:1:arc:p1-r1": "front",
             "p2-r1:1:m1:after": "close"}
    doc["foe"]["decided"] = [{"at": [1], "piece": "x", "rung": "move", "rig": "p2-r1", "answers": known}]
    doc["rigs"]["p1-r1"]["destroyed"] = True
    eng = Engagement.from_doc(doc)
    rig = eng.rig("p2-r1")
    assert not eng.rig("p1-r1").in_play
    found = run(lambda asker: rig_action(asker, doc, eng, FoeSettings.of(doc), rig), {}, known)
    assert isinstance(found, Decision) and found.asked == () and found.rung != "fire"



def prompts_by_activation(doc, seed: int) -> dict:
    """Every question the player is put, one by one as the Foe's screen puts them (a question
    put again counts again), by the activation it belongs to: the activating Rig's own question
    when it is chosen, and every question of its actions. Answers drawn by a seeded lot."""
    lot = random.Random(seed)
    prompts: dict = defaultdict(list)
    for i in range(600):
        if doc.get("ended"):
            return prompts
        answers, put = {}, []
        while isinstance(found := foe_step(doc, answers), Question):
            answers[found.key] = lot.choice([v for v, _ in found.options])
            put.append(found.key)
        if not isinstance(found, Decision):
            doc = player_step(doc, seed, i)
            continue
        if found.piece.startswith("activate:"):
            put = [k for k in put if k.startswith(found.piece.split(":")[1] + ":")]
        for key in put:
            prompts[tuple(key.split(":")[:2])].append(key)
        doc, _ = act(doc, "foe_decide", {"answers": answers}, SeededDice(f"{seed}:{i}"))
    raise AssertionError("the engagement never ended")


@pytest.mark.parametrize("seed", range(6))
def test_no_activation_puts_a_fifth_prompt_not_even_a_question_put_again(seed):
    """Counted as a person meets them: before, an activation whose Rig fired and had no weapon
    ready was asked the after-the-move distance again (its bands had changed with the weapons), and
    a target destroyed was asked for again and its arc: five or six prompts. Now four at most."""
    doc = engagement(("point_of_control", "iron_clash")[seed % 2], ("p1", "p2")[seed // 2 % 2])
    prompts = prompts_by_activation(doc, seed)
    assert prompts and max(len(v) for v in prompts.values()) <= QUESTIONS_PER_ACTIVATION, prompts


def test_a_rig_that_fired_everything_is_not_asked_where_its_target_is():
    """After its move and its shot, no weapon ready: how far the target is now would change
    nothing, so it is not asked (it was, again, in other bands: a fifth prompt)."""
    doc = engagement("iron_clash", "p2")
    known = {"p2-r1:1:m0:target": "p1-r1", "p2-r1:1:m0:distance": "beyond", "p2-r1:1:m1:after": "far"}
    doc["foe"]["decided"] = [{"at": [1], "piece": "x", "rung": "move", "rig": "p2-r1", "answers": known,
                              "prompts": 3}]
    for w in doc["rigs"]["p2-r1"]["weapons"].values():
        w["loaded"] = False
    assert not ready_weapons(Engagement.from_doc(doc).rig("p2-r1"))
    eng = Engagement.from_doc(doc)
    found = run(lambda asker: rig_action(asker, doc, eng, FoeSettings.of(doc), eng.rig("p2-r1")), {}, known)
    assert isinstance(found, Decision) and found.asked == () and found.rung != "fire"


def test_same_seed_answers_and_dice_replay_to_the_same_log():
    a, da, _ = play(engagement("point_of_control", "p2"), seed="r")
    b, db, _ = play(engagement("point_of_control", "p2"), seed="r")
    assert a == b and [(d.to_dict(), x) for d, x in da] == [(d.to_dict(), x) for d, x in db]


def test_cant_tell_costs_a_rung():
    doc = engagement("iron_clash", "p2")
    doc, _ = act(doc, "foe_decide", {"answers": {}}, SeededDice(3))  # initiative
    eng = Engagement.from_doc(doc)
    if eng.current_player != "p2":  # the player's Rig goes first: let it activate and end
        doc, _ = act(doc, "activate", {"rig": "p1-r1"}, SeededDice(0))
        doc, _ = act(doc, "end_activation", {}, SeededDice(0))
    q = foe_step(doc, {})
    assert isinstance(q, Question) and q.options[-1][0] == CANT_TELL and q.options[0][0] == "p1-r3"
    first = target_order(Engagement.from_doc(doc), "p2")[0].id
    seen = foe_step(doc, {q.key: first})
    assert seen.rung == "activate"
    doc, _ = act(doc, "foe_decide", {"answers": {q.key: first}}, SeededDice(3))
    answers = {}
    while isinstance(found := foe_step(doc, answers), Question):
        what = "arc" if ":arc:" in found.key else found.key.rsplit(":", 1)[-1]  # the arc: "rig:round:arc:target"
        answers[found.key] = {"distance": "close", "arc": "side"}.get(what, first)
    assert found.rung == "fire"
    unsure = dict(answers)
    unsure[next(k for k in answers if ":arc:" in k)] = CANT_TELL
    dropped = foe_step(doc, unsure)
    assert dropped.rung != "fire" and dropped.dropped == 1


def test_heat_odds_come_from_the_heat_table():
    doc = engagement("iron_clash", "p2")
    rig = Engagement.from_doc(doc).rig("p2-r1")
    assert harmful_heat_chance(rig, rig.heat_threshold) == 0
    # D12 + 1 over the threshold: nothing happens on a total of 5 or less, so on faces 1-4 only.
    assert harmful_heat_chance(rig, rig.heat_threshold + 1) == pytest.approx(8 / 12)
    assert harmful_heat_chance(rig, rig.heat_threshold + 5) == 1


def test_called_shots_go_at_the_most_damaged_location_never_the_engine_from_the_front():
    doc = engagement("iron_clash", "p2")
    eng = Engagement.from_doc(doc)
    rig = eng.rig("p1-r3")
    assert most_damaged_location(eng, rig, "front") != "engine"


def test_the_foe_refuses_to_decide_without_its_answers():
    doc = engagement("iron_clash", "p2")
    doc, _ = act(doc, "foe_decide", {"answers": {}}, SeededDice(3))
    eng = Engagement.from_doc(doc)
    if eng.current_player == "p2":
        with pytest.raises(RuleError, match="still needs an answer"):
            act(doc, "foe_decide", {"answers": {}}, SeededDice(0))
    else:
        with pytest.raises(RuleError, match="nothing to decide"):
            act(doc, "foe_decide", {"answers": {}}, SeededDice(0))


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), side=st.sampled_from(["p1", "p2"]), difficulty=st.sampled_from(["easy", "normal", "hard"]),
       kind=st.sampled_from(["point_of_control", "iron_clash"]), seed=st.integers(1, 10**6))
def test_on_any_reachable_state_the_foe_never_raises_nor_picks_a_refused_action(data, side, difficulty, kind, seed):
    doc = engagement(kind, side, difficulty=difficulty, seed=seed)

    def answer(q, n):
        return data.draw(st.sampled_from([v for v, _ in q.options]))
    doc, decisions, _ = play(doc, seed=str(seed), answer=answer, check=check_every_step)
    assert doc["ended"]
    assert max(len(v) for v in questions_per_activation(decisions).values()) <= QUESTIONS_PER_ACTIVATION


def test_a_later_step_the_contract_refuses_is_caught():
    """The property's walk reaches past the first step: a second initiative roll is refused."""
    doc = engagement("iron_clash", "p2")
    assert doc["phase"] == "initiative"
    twice = Decision("initiative", "Round 1", "roll initiative", "", (), plan=(Planned("initiative", {}),) * 2)
    with pytest.raises(AssertionError, match="step 2"):
        walk_plan(GAME, doc, twice, SeededDice(1), {}, still_allowed)


def test_a_rig_holding_an_objective_is_a_preferred_target():
    """The Rigs the player reported near an objective at the round's scoring are kept, and the Foe
    ranks them with the High Value Target, before damage and class."""
    doc = engagement("point_of_control", "p2")
    before = [r.id for r in target_order(Engagement.from_doc(doc), "p2")]
    holder = before[-1]
    doc = {**doc, "phase": "maintenance"}
    doc, result = act(doc, "score_round", {"rigs_near_objectives": [holder]}, SeededDice(1))
    eng = Engagement.from_doc(doc)
    assert objective_holders(eng) == {holder} and doc["objective_rigs"]["round"] == eng.round
    assert [r.id for r in target_order(eng, "p2")][0] == holder
    # A later scoring with nobody near an objective clears it.
    doc = {**doc, "round": doc["round"] + 1}
    doc, _ = act(doc, "score_round", {"rigs_near_objectives": []}, SeededDice(1))
    assert [r.id for r in target_order(Engagement.from_doc(doc), "p2")] == before


def test_the_distance_bands_each_mean_something_for_the_rigs_ready_weapons():
    """A Rig whose only ready weapon strikes in melee is asked only whether the target is within 1";
    a Rig whose reach ends at 8" is not offered a band "over 10" within 8""; one with an 18" gun is."""
    doc = engagement("iron_clash", "p2")
    rigs = doc["rigs"]
    rigs["p2-r3"]["weapons"]["example_field_gun"]["destroyed"] = True
    rigs["p2-r1"]["weapons"]["example_autocannon"]["destroyed"] = True
    eng = Engagement.from_doc(doc)
    target = eng.rig("p1-r2")

    def bands(rig_id):
        return [label for _, label in distance_question(eng.rig(rig_id), target, "k").options]

    assert bands("p2-r3") == ['Within 1"', 'Further than 1"', "Can't tell"]
    assert not any("Over 10" in b for b in bands("p2-r1")) and 'Beyond 10"' in bands("p2-r1")
    assert 'Over 10", within 18"' in bands("p2-r2") and 'Beyond 18"' in bands("p2-r2")
