"""The attack sequence: declaring (front arc), range, line of sight, to hit against Aim − ACC with
a 6 always hitting, Called Shots, reloading, Prepare tokens, and who may attack."""
import pytest
from _oi_helpers import SHOT, activated, gun, make_doc, rig, rig_spec, run, set_rig

from referee.oilandiron.model import RuleError


def doc_with(*weapons, equipment=(), target_equipment=()):
    doc = make_doc(p1=[rig_spec("a", weapons=list(weapons) or [gun()], equipment=equipment)],
                   p2=[rig_spec("t", "example_heavy_siege", equipment=target_equipment)])
    return activated(doc, "a")


def test_target_outside_front_arc_is_refused():
    facts = dict(SHOT, in_front_arc=False)
    with pytest.raises(RuleError, match="front 90° arc"):
        run("fire_weapon", doc_with(), [6], **facts)


def test_stabilised_weapon_joints_widen_the_arc_to_180():
    facts = dict(SHOT, in_front_arc=False)
    with pytest.raises(RuleError, match="front 180° arc"):
        run("fire_weapon", doc_with(equipment=["stabilised_weapon_joints"]), [6], **facts)


def test_out_of_range_fails_but_spends_action_and_heat():
    # Over 10" with an 18" gun: the band leaves range open; measured after declaring, it was beyond.
    result, after = run("fire_weapon", doc_with(), [], **dict(SHOT, distance="far", in_range=False))
    a = rig(after, "a")
    assert a.actions_left == 4 and a.heat == 1
    assert result.data["hits"] == 0 and not result.all_dice
    assert result.modifiers == ()  # no roll was made, so no modifier applied
    assert a.weapons["gun"].loaded  # nothing was fired


@pytest.mark.parametrize("distance", ["close", "mid"])
def test_the_distance_band_answers_range_when_the_weapon_reaches_past_it(distance):
    # An 18" gun at 6"-10": in range whatever the toggle says (it was off by default once).
    result, _ = run("fire_weapon", doc_with(), [1], **dict(SHOT, distance=distance, in_range=False))
    assert result.data["in_range"] is True and result.data["to_hit"] == [1]


def test_an_attack_that_cannot_happen_is_refused_before_anything_is_spent():
    doc = doc_with(gun(rng=6))
    with pytest.raises(RuleError, match="reaches 6\" and the target is over 10\" away: it cannot be attacked"):
        run("fire_weapon", doc, [], **dict(SHOT, distance="far"))
    with pytest.raises(RuleError, match="Nothing is spent"):
        run("fire_weapon", doc, [], **dict(SHOT, distance="mid"))
    # Not in the front arc: asked before anything is spent too.
    with pytest.raises(RuleError, match="turn to face it first"):
        run("fire_weapon", doc_with(), [], **dict(SHOT, in_front_arc=False))



def test_second_range_profile_uses_its_own_stats():
    weapon = gun(profiles=[{"range": 12, "acc": 1}, {"range": 30, "acc": -1, "str": 7}])
    result, _ = run("fire_weapon", doc_with(weapon), [4], profile=1, **SHOT)
    assert result.data["effective_aim"] == 5 and result.data["hits"] == 0
    result, _ = run("fire_weapon", doc_with(weapon), [3, 1, 2], profile=0, **SHOT)
    assert result.data["effective_aim"] == 3 and result.data["hits"] == 1


@pytest.mark.parametrize("sight,aim", [("clear", 4), ("obscured_25", 5), ("obscured_50", 6)])
def test_line_of_sight_obscured_costs_acc(sight, aim):
    result, _ = run("fire_weapon", doc_with(), [1], line_of_sight=sight, **SHOT)
    assert result.data["effective_aim"] == aim


def test_no_line_of_sight_is_refused():
    with pytest.raises(RuleError, match="cannot see"):
        run("fire_weapon", doc_with(), [6], line_of_sight="none", **SHOT)


def test_acc_lowers_the_aim_needed():
    result, _ = run("fire_weapon", doc_with(gun(acc=2)), [2, 1, 1], **SHOT)
    assert result.data["effective_aim"] == 2 and result.data["hits"] == 1


def test_a_six_always_hits():
    result, _ = run("fire_weapon", doc_with(gun(acc=-5, rof=2)), [5, 6, 1, 1], **SHOT)
    assert result.data["effective_aim"] == 9 and result.data["hits"] == 1


def test_a_one_is_nothing_special_when_aim_is_low():
    result, _ = run("fire_weapon", doc_with(gun(acc=3)), [1, 1, 1], **SHOT)
    assert result.data["hits"] == 1


@pytest.mark.parametrize("acc, to_hit", [(0, [4, 3, 6, 1]), (-5, [5, 6, 1, 1]), (3, [1, 1, 1])])
def test_each_to_hit_die_is_marked_as_the_hits_were_counted(acc, to_hit):
    locations_and_impacts = [1] * 12
    result, _ = run("fire_weapon", doc_with(gun(acc=acc, rof=len(to_hit))), to_hit + locations_and_impacts, **SHOT)
    marked = [d for d in result.all_dice if d.purpose.startswith("to hit")]
    assert marked and all(d.need for d in marked)
    assert sum(d.succeeded for d in marked) == result.data["hits"]


def test_called_shot_chooses_location_at_minus_two():
    result, _ = run("called_shot", doc_with(gun(acc=2)), [4, 6], location="legs", **SHOT)
    assert result.data["effective_aim"] == 4
    assert result.data["impacts"][0]["location"] == "legs"
    assert len(result.all_dice) == 2  # no location die


def test_called_shot_cannot_target_engine_from_front():
    with pytest.raises(RuleError, match="Engine cannot be targeted from the front"):
        run("called_shot", doc_with(), [6, 6], location="engine", **SHOT)


def test_called_shot_at_engine_from_the_side():
    result, _ = run("called_shot", doc_with(), [6, 6], location="engine", target_arc="side", **SHOT)
    assert result.data["impacts"][0]["location"] == "engine"


def test_fired_weapon_is_empty_until_reloaded():
    _, after = run("fire_weapon", doc_with(), [1], **SHOT)
    with pytest.raises(RuleError, match="Reload"):
        run("fire_weapon", after, [1], **SHOT)
    _, reloaded = run("reload", after, rig="a")
    assert rig(reloaded, "a").weapons["gun"].loaded and rig(reloaded, "a").heat == 2


def test_reload_setting_off_keeps_weapons_loaded():
    doc = activated(make_doc(settings={"reload_after_firing": False}), "a")
    _, after = run("fire_weapon", doc, [1], **SHOT)
    run("fire_weapon", after, [1], **SHOT)


def test_own_rig_is_not_a_target():
    doc = activated(make_doc(p1=[rig_spec("a"), rig_spec("b")]), "a")
    with pytest.raises(RuleError, match="own side"):
        run("fire_weapon", doc, [6], **dict(SHOT, target="b"))


def test_only_the_activated_rig_attacks():
    doc = make_doc()
    doc.update(phase="activation", current_player="p1")
    with pytest.raises(RuleError, match="activate it first"):
        run("fire_weapon", doc, [6], **SHOT)


def test_destroyed_rig_takes_no_actions():
    doc = set_rig(doc_with(), "a", destroyed=True)
    with pytest.raises(RuleError, match="destroyed"):
        run("fire_weapon", doc, [6], **SHOT)


def test_no_actions_left_refused():
    doc = set_rig(doc_with(), "a", actions_left=0)
    with pytest.raises(RuleError, match="no actions left"):
        run("move", doc, rig="a")


def test_disabled_and_destroyed_weapons_cannot_fire():
    doc = doc_with()
    doc["rigs"]["a"]["weapons"]["gun"]["disabled"] = True
    with pytest.raises(RuleError, match="disabled"):
        run("fire_weapon", doc, [6], **SHOT)
    doc["rigs"]["a"]["weapons"]["gun"].update(disabled=False, destroyed=True)
    with pytest.raises(RuleError, match="destroyed"):
        run("fire_weapon", doc, [6], **SHOT)


def test_prepare_tokens_are_shown_and_a_revealed_one_is_removed():
    doc = set_rig(doc_with(), "t", prepare_tokens=["Brace", "Evade"])
    result, after = run("fire_weapon", doc, [1], reveal_token="Brace", **SHOT)
    assert any("Prepare tokens on T: 2" in n for n in result.notes)
    assert rig(after, "t").prepare_tokens == ("Evade",)


def test_revealing_a_token_the_target_lacks_is_refused():
    with pytest.raises(RuleError, match="no Prepare token"):
        run("fire_weapon", doc_with(), [1], reveal_token="Brace", **SHOT)


def test_every_step_is_shown():
    result, _ = run("fire_weapon", doc_with(), [5, 2, 6], **SHOT)
    text = "\n".join(result.notes)
    for step in ("1 Declare", "2 Range", "3 Line of sight", "4 To hit", "6 Hit 1 location", "7 Impact", "8 1 damage"):
        assert step in text
