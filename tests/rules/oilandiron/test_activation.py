"""Initiative, activations (5 actions, fewer with a lost Hull, skipped after an Emergency
Shutdown), alternating players, the Maintenance phase and the engagement's length."""
import pytest
from _oi_helpers import HEAVY, make_doc, rig, rig_spec, run, set_rig

from referee.oilandiron.model import RuleError


def in_activation(doc=None, player="p1"):
    doc = doc or make_doc(p1=[rig_spec("a"), rig_spec("b")], p2=[rig_spec("t", HEAVY)])
    doc.update(phase="activation", current_player=player, starting_player=player)
    return doc


def test_initiative_higher_d12_starts():
    result, after = run("initiative", make_doc(), [3, 9])
    assert after["starting_player"] == "p2" and after["current_player"] == "p2"
    assert after["phase"] == "activation"


def test_typed_initiative_dice_are_asked_for_as_one_pair():
    from referee.core.dice import DiceNeeded
    with pytest.raises(DiceNeeded) as asked:
        run("initiative", make_doc(), [])
    assert asked.value.count == 2 and asked.value.sides == 12
    result, _ = run("initiative", make_doc(), [3, 9])
    assert [d.purpose for d in result.dice] == ["initiative: Anna", "initiative: Ben"]


def test_initiative_ties_are_rolled_again():
    result, after = run("initiative", make_doc(), [5, 5, 12, 12, 8, 2])
    assert after["starting_player"] == "p1" and len(result.dice) == 6


def test_initiative_only_at_the_start_of_a_round():
    with pytest.raises(RuleError, match="start of a round"):
        run("initiative", in_activation(), [3, 9])


def test_activation_gives_five_actions():
    result, after = run("activate", in_activation(), rig="a")
    assert result.data["actions"] == 5 and after["active_rig"] == "a"


def test_only_the_current_player_activates():
    with pytest.raises(RuleError, match="Anna's turn"):
        run("activate", in_activation(), rig="t")


def test_destroyed_rig_never_activates():
    doc = set_rig(in_activation(), "a", destroyed=True)
    with pytest.raises(RuleError, match="destroyed"):
        run("activate", doc, rig="a")


def test_one_activation_per_round():
    doc = set_rig(in_activation(), "a", activated=True)
    with pytest.raises(RuleError, match="already activated"):
        run("activate", doc, rig="a")


def test_end_the_current_activation_first():
    _, doc = run("activate", in_activation(), rig="a")
    with pytest.raises(RuleError, match="end its activation"):
        run("activate", doc, rig="b")


def test_players_alternate_then_the_rest_activate():
    _, doc = run("activate", in_activation(), rig="a")
    _, doc = run("end_activation", doc)
    assert doc["current_player"] == "p2"
    _, doc = run("activate", doc, rig="t")
    _, doc = run("end_activation", doc)
    assert doc["current_player"] == "p1"  # p2 has nobody left
    _, doc = run("activate", doc, rig="b")
    result, doc = run("end_activation", doc)
    assert doc["phase"] == "maintenance" and doc["current_player"] is None


def test_whose_turn_it_is_reads_in_the_players_words():
    # An unlabelled change shows the tablet its raw path ("current_player: None → p2").
    steps = [run("initiative", make_doc(), [3, 9])[0]]
    _, doc = run("activate", in_activation(), rig="a")
    steps.append(run("end_activation", doc)[0])
    doc = set_rig(make_doc(), "a", activated=True)
    doc.update(phase="maintenance", starting_player="p1", current_player="p1")
    steps.append(run("end_round", doc)[0])
    for result in steps:
        turns = [c for c in result.all_changes if c.path[0] in ("current_player", "starting_player")]
        assert turns and all(c.label and "p1" not in c.label and "p2" not in c.label for c in turns)
        # Bookkeeping nobody labelled still reads as words: a Rig's name, never its id or path.
        assert all(c.label and "rigs " not in c.label and "_" not in c.label for c in result.all_changes)
    ended = steps[1].all_changes
    assert "A's activation is over" in [c.label for c in ended]
    assert "A: ready to activate in round 2" in [c.label for c in steps[2].all_changes]


def test_emergency_shutdown_skips_the_next_activation():
    doc = set_rig(in_activation(), "a", status={"skip_activation": "next_activation"})
    result, after = run("activate", doc, rig="a")
    assert result.data["skipped"]
    a = rig(after, "a")
    assert a.activated and "skip_activation" not in a.status and after["current_player"] == "p2"


def test_fuel_line_rupture_burns_at_each_activation():
    doc = set_rig(in_activation(), "a", status={"fuel_line_rupture": "until_repaired"})
    _, after = run("activate", doc, [9], rig="a")
    assert rig(after, "a").structure["legs"] == 2


def test_fuel_line_rupture_d12_to_hull_setting():
    doc = set_rig(in_activation(make_doc(settings={"fuel_line_rupture_damage": "d12_hull"})), "a",
                  status={"fuel_line_rupture": "until_repaired"})
    _, after = run("activate", doc, [2], overflow_to=["legs"], rig="a")
    assert rig(after, "a").structure["hull"] == 2


def test_unused_prepare_tokens_expire_at_the_next_activation():
    doc = set_rig(in_activation(), "a", prepare_tokens=["Brace"])
    _, after = run("activate", doc, rig="a")
    assert rig(after, "a").prepare_tokens == ()


def test_round_must_finish_heat_rolls_before_it_ends():
    doc = set_rig(make_doc(), "a", heat=8)
    doc["phase"] = "maintenance"
    with pytest.raises(RuleError, match="Heat Threshold rolls still to make: A"):
        run("end_round", doc)


def test_round_ends_and_the_next_starts_with_initiative():
    doc = set_rig(make_doc(), "a", activated=True)
    doc["phase"] = "maintenance"
    _, after = run("end_round", doc)
    assert after["round"] == 2 and after["phase"] == "initiative" and not rig(after, "a").activated


@pytest.mark.parametrize("rnd,die,ends", [(3, None, False), (4, 7, False), (4, 8, True), (5, 4, False),
                                          (5, 5, True), (6, None, True)])
def test_engagement_length(rnd, die, ends):
    doc = make_doc(engagement="iron_clash")
    doc.update(phase="maintenance", round=rnd, scored_round=rnd)
    result, after = run("end_round", doc, [] if die is None else [die])
    assert after["ended"] is ends
    assert len(result.dice) == (0 if die is None else 1)


def test_engagement_length_odds():
    doc = make_doc()
    doc.update(phase="maintenance", round=4)
    from _oi_helpers import odds
    assert odds("end_round", doc) == ["The engagement ends: 41.7% (a D12 of 8+)"]


@pytest.mark.parametrize("round_", [1, 2, 3, 4, 5])
def test_end_of_round_odds_with_a_squadron_wiped_out_say_it_ends(round_):
    """The odds line reads the round's end as its resolution does: a side with no Rig left ends
    it (it once said "goes on: 100%" in round 1 and then ended the engagement)."""
    from _oi_helpers import odds
    doc = set_rig(make_doc(engagement="iron_clash"), "t", destroyed=True)
    doc.update(phase="maintenance", round=round_)
    lines = odds("end_round", doc)
    assert lines[0].startswith("The engagement ends: 100%") and "Ben has no Rig left" in lines[0]
    _, after = run("end_round", doc, [1])
    assert after["ended"]


@pytest.mark.parametrize("round_,die", [(r, d) for r in range(1, 7) for d in range(1, 13)])
def test_end_of_round_odds_always_agree_with_the_resolution(round_, die):
    """For every round and every die: a 100% line ends, a goes-on line goes on, and a chance
    line is the share of faces that end it."""
    from _oi_helpers import odds
    doc = make_doc()
    doc.update(phase="maintenance", round=round_)
    line = odds("end_round", doc)[0]
    _, after = run("end_round", doc, [die])
    if "ends: 100%" in line:
        assert after["ended"]
    elif "goes on" in line:
        assert not after["ended"]
    else:
        ending = [d for d in range(1, 13) if run("end_round", doc, [d])[1]["ended"]]
        assert f"{len(ending) / 12:.1%}" in line


def test_engagement_ends_when_a_squadron_is_gone():
    doc = set_rig(make_doc(engagement="iron_clash"), "t", destroyed=True)
    doc.update(phase="maintenance", round=2)
    _, after = run("end_round", doc)
    assert after["ended"] and after["winner"] == "p1"
