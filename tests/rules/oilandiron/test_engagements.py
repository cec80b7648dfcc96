"""VP and victory for the twelve engagement types, from what the players report each round."""
import pytest
from _oi_helpers import COLOSSAL, HEAVY, LIGHT, activated, make_doc, rig, rig_spec, run, set_rig

from referee.oilandiron.model import RuleError


def scored(doc, **facts):
    doc = dict(doc, phase="maintenance")
    return run("score_round", doc, **facts)


def objectives(per_player: int) -> dict:
    out = {}
    for pid in ("p1", "p2"):
        for i in range(per_player):
            out[f"{pid}o{i}"] = {"name": f"{pid} objective {i}", "owner": pid}
    return out


def end(doc, dice=()):
    doc = dict(doc, phase="maintenance")
    return run("end_round", doc, list(dice))


def test_iron_clash_vp_by_weight_class():
    doc = make_doc(p1=[rig_spec("a")], p2=[rig_spec("t", HEAVY), rig_spec("l", LIGHT)], engagement="iron_clash")
    doc = set_rig(set_rig(doc, "t", destroyed=True), "a", destroyed=True)
    doc["round"] = 6
    result, after = end(doc)
    assert after["result"]["vp"] == {"p1": 4, "p2": 3} and after["winner"] == "p1"


def test_high_value_target_heaviest_rig_is_nominated_and_its_loss_decides():
    doc = make_doc(p1=[rig_spec("a"), rig_spec("c", COLOSSAL)], p2=[rig_spec("t", HEAVY)], engagement="high_value_target")
    assert rig(doc, "c").hvt and rig(doc, "t").hvt and not rig(doc, "a").hvt
    _, after = end(set_rig(doc, "c", destroyed=True))
    assert after["ended"] and after["winner"] == "p2"


def test_high_value_target_both_standing_at_the_end_is_a_draw():
    doc = make_doc(engagement="high_value_target")
    doc["round"] = 6
    _, after = end(doc)
    assert after["winner"] == "draw"


def test_point_of_control_two_vp_per_rig_near_an_objective():
    doc = make_doc(p1=[rig_spec("a"), rig_spec("b")], engagement="point_of_control", objectives=objectives(2))
    result, after = scored(doc, rigs_near_objectives=["a", "b", "t"])
    assert after["players"]["p1"]["vp"] == 4 and after["players"]["p2"]["vp"] == 2
    assert "Anna leads" in result.summary
    with pytest.raises(RuleError, match="already been scored"):
        scored(after, rigs_near_objectives=["a"])


def test_point_of_control_round_must_be_scored_before_it_ends():
    doc = make_doc(engagement="point_of_control", objectives=objectives(2))
    with pytest.raises(RuleError, match="Score round 1 first"):
        end(doc)


def test_objective_count_is_checked():
    with pytest.raises(RuleError, match="sets out 2"):
        make_doc(engagement="point_of_control", objectives=objectives(1))


def test_total_command_holding_both_is_an_instant_win():
    doc = make_doc(engagement="total_command", objectives=objectives(1))
    _, after = scored(doc, p2_controls=["p1o0", "p2o0"])
    assert after["ended"] and after["winner"] == "p2"


def test_total_command_otherwise_a_draw():
    doc = make_doc(engagement="total_command", objectives=objectives(1))
    _, after = scored(doc, p1_controls=["p1o0"], p2_controls=["p2o0"])
    assert after["objectives"]["p1o0"]["controlled_by"] == "p1" and not after["ended"]
    after.update(round=6, scored_round=6)
    _, final = end(after)
    assert final["winner"] == "draw"


def test_push_the_line_two_vp_per_rig_in_enemy_territory():
    doc = make_doc(engagement="push_the_line")
    _, after = scored(doc, rigs_in_enemy_territory=["t"])
    assert after["players"]["p2"]["vp"] == 2


def test_scoring_a_rule_the_engagement_lacks_is_refused():
    with pytest.raises(RuleError, match="scores nothing"):
        scored(make_doc(engagement="push_the_line"), rigs_near_objectives=["a"])


def test_supply_airdrop_lands_at_round_two_and_the_holder_at_round_three_wins():
    doc = make_doc(engagement="supply_airdrop")
    with pytest.raises(RuleError, match="round 2"):
        run("supply_airdrop", doc, [3])
    doc["round"] = 2
    result, doc = run("supply_airdrop", doc, [5])
    assert "centre" in result.summary and "airdrop" in doc["objectives"]
    _, doc = scored(doc, p1_controls=["airdrop"])
    assert not doc["ended"]
    doc.update(round=3)
    _, doc = scored(doc, p1_controls=["airdrop"])
    assert doc["ended"] and doc["winner"] == "p1"


def test_supply_airdrop_needs_a_report_only_in_its_deciding_round():
    doc = make_doc(engagement="supply_airdrop")
    _, after = end(doc)
    assert after["round"] == 2
    after.update(round=3)
    with pytest.raises(RuleError, match="Score round 3"):
        end(after)


def test_salvage_heist_collect_for_three_vp_and_two_heat():
    doc = activated(make_doc(engagement="salvage_heist", objectives=objectives(3)), "a")
    _, after = run("collect_salvage", doc, rig="a", objective="p2o1", within_1=True)
    assert after["players"]["p1"]["vp"] == 3 and rig(after, "a").heat == 2
    with pytest.raises(RuleError, match="already"):
        run("collect_salvage", after, rig="a", objective="p2o1", within_1=True)


def test_salvage_only_in_salvage_heist():
    with pytest.raises(RuleError, match="no salvage"):
        run("collect_salvage", activated(make_doc(engagement="iron_clash"), "a"), rig="a", objective="x",
            within_1=True)


def test_sabotage_objectives_have_stats_and_destroying_all_wins():
    doc = make_doc(engagement="sabotage", objectives=objectives(3))
    o = doc["objectives"]["p2o0"]
    assert (o["structure"], o["direct"], o["severe"], o["critical"]) == (5, 10, 14, 16)
    for i in range(3):
        doc["objectives"][f"p2o{i}"]["destroyed"] = True
    _, after = scored(doc)
    assert after["ended"] and after["winner"] == "p1"


def test_ambush_target_starts_braced_for_round_one():
    doc = make_doc(engagement="ambush", roles=("ambusher", "target"))
    assert rig(doc, "t").prepare_tokens == ("Brace",)
    doc.update(phase="activation", current_player="p2")
    _, started = run("activate", doc, rig="t")
    assert rig(started, "t").prepare_tokens == ("Brace",)  # kept through round 1
    _, after = end(doc)
    assert rig(after, "t").prepare_tokens == ()


def test_roles_are_required():
    with pytest.raises(RuleError, match="attacker"):
        make_doc(engagement="siege", objectives=objectives(3))


def test_hold_the_line_defender_wins_with_half_surviving():
    p2 = [rig_spec("t", HEAVY), rig_spec("u", HEAVY)]
    doc = make_doc(p2=p2, engagement="hold_the_line", roles=("attacker", "defender"))
    doc = set_rig(doc, "t", destroyed=True)
    doc["round"] = 6
    _, after = end(doc)
    assert after["winner"] == "p2"
    doc = set_rig(doc, "u", destroyed=True)
    _, after = end(doc)
    assert after["winner"] == "p1"


def test_siege_vp_and_ties_go_to_the_defender():
    doc = make_doc(engagement="siege", objectives=objectives(3), roles=("attacker", "defender"))
    for oid in ("p1o0", "p1o1", "p1o2", "p2o0"):
        doc["objectives"][oid]["destroyed"] = True
    doc = set_rig(doc, "t", destroyed=True)
    doc["round"] = 6
    _, after = end(doc)
    assert after["result"]["vp"] == {"p1": 4 + 1, "p2": 2 * 2}
    assert after["winner"] == "p1"
    doc["objectives"]["p2o0"]["destroyed"] = False
    _, after = end(set_rig(doc, "t", destroyed=False, exited=False))
    assert after["result"]["vp"] == {"p1": 3, "p2": 6} and after["winner"] == "p2"


def test_siege_tie_goes_to_the_defender():
    doc = make_doc(engagement="siege", objectives=objectives(3), roles=("attacker", "defender"))
    for oid in ("p1o0", "p1o1", "p1o2", "p2o0"):
        doc["objectives"][oid]["destroyed"] = True
    doc["round"] = 6
    _, after = end(doc)
    assert after["result"]["vp"] == {"p1": 4, "p2": 4} and after["winner"] == "p2"


def test_breakthrough_attacker_drives_half_off_the_table():
    doc = make_doc(p1=[rig_spec("a"), rig_spec("b")], engagement="breakthrough", roles=("attacker", "defender"))
    _, after = scored(doc, rigs_off_edge=["a"])
    assert rig(after, "a").exited and after["ended"] and after["winner"] == "p1"


def test_breakthrough_defender_wins_otherwise():
    doc = make_doc(p1=[rig_spec("a"), rig_spec("b"), rig_spec("c")], engagement="breakthrough",
                   roles=("attacker", "defender"))
    _, after = scored(doc, rigs_off_edge=["a"])
    assert not after["ended"]
    after["round"] = 6
    _, final = end(after)
    assert final["winner"] == "p2"


def test_objectives_set_out_by_the_app_are_named_by_number_then_squadron():
    from referee.data.oilandiron import setup_engagement, squadron_state
    rigs = {**squadron_state("p1", [rig_spec("a")]), **squadron_state("p2", [rig_spec("t")])}
    players = {"p1": {"name": "Marie's Swords"}, "p2": {"name": "Ben"}}
    doc = setup_engagement("Test", players, rigs, "sabotage")
    names = sorted(o["name"] for o in doc["objectives"].values())
    assert names[:2] == ["Objective 1 (Ben)", "Objective 1 (Marie's Swords)"] and len(names) == 6


def test_formations_must_share_a_tier():
    from referee.data.oilandiron import DataError, setup_engagement, squadron_state
    rigs = {**squadron_state("p1", [rig_spec("a"), rig_spec("b", HEAVY)]),
            **squadron_state("p2", [rig_spec("t", LIGHT), rig_spec("u", LIGHT), rig_spec("v")])}
    players = {"p1": {"name": "Anna", "formation": "mace"}, "p2": {"name": "Ben", "formation": "sword"}}
    doc = setup_engagement("Test", players, rigs, "iron_clash")
    assert doc["players"]["p1"]["formation"] == "mace"
    players["p2"]["formation"] = "dagger"
    with pytest.raises(DataError, match="A Dagger squadron fields 4 light"):
        setup_engagement("Test", players, rigs, "iron_clash")
    axe = [rig_spec("t"), rig_spec("u", HEAVY), rig_spec("v", HEAVY), rig_spec("w", HEAVY)]
    rigs = {**squadron_state("p1", [rig_spec("a"), rig_spec("b", HEAVY)]), **squadron_state("p2", axe)}
    players["p2"]["formation"] = "axe"
    with pytest.raises(RuleError, match="same tier"):
        setup_engagement("Test", players, rigs, "iron_clash")


@pytest.mark.parametrize("chassis,vp", [(LIGHT, 2), ("example_medium_brawler", 3), (HEAVY, 4), (COLOSSAL, 5)])
def test_destroyed_rig_vp_by_weight_class(chassis, vp):
    doc = make_doc(p2=[rig_spec("x", chassis), rig_spec("t", HEAVY)], engagement="iron_clash")
    doc = set_rig(doc, "x", destroyed=True)
    doc["round"] = 6
    _, after = end(doc)
    assert after["result"]["vp"] == {"p1": vp, "p2": 0}


def test_high_value_target_must_be_of_the_heaviest_class():
    from referee.data.oilandiron import setup_engagement, squadron_state
    rigs = {**squadron_state("p1", [rig_spec("a"), rig_spec("c", COLOSSAL), rig_spec("d", COLOSSAL)]),
            **squadron_state("p2", [rig_spec("t", HEAVY)])}
    players = {"p1": {"name": "Anna"}, "p2": {"name": "Ben"}}
    with pytest.raises(RuleError, match="heaviest"):
        setup_engagement("HVT", players, rigs, "high_value_target", hvt={"p1": "a"})
    doc = setup_engagement("HVT", players, rigs, "high_value_target", hvt={"p1": "d"})
    assert rig(doc, "d").hvt and not rig(doc, "c").hvt  # a choice between two Colossals is the player's



def test_objectives_are_set_out_for_each_player_when_none_are_given():
    """Squadrons started from saved lists bring no objectives: the engagement type's count is used,
    with the structure the type gives."""
    doc = make_doc(engagement="sabotage")
    owners = sorted(o["owner"] for o in doc["objectives"].values())
    assert owners == ["p1"] * 3 + ["p2"] * 3
    assert all(o["structure"] == 5 and o["direct"] == 10 for o in doc["objectives"].values())
    assert make_doc(engagement="iron_clash")["objectives"] == {}
