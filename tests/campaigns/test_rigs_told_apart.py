"""Two players fielding Rigs of the same name (both bring a Jackal): every line of the Aftermath
names the owner, and no line shows a roster's key ("p2/r1"); each Rig offers only its own
repairs, and a refused repair says what is wrong in words; the Lucky Machine trait re-rolls a
recovery roll once (fixed dice)."""
from __future__ import annotations

import copy

import pytest
from _campaign_helpers import CATALOGUE, EXAMPLE_TABLES, PIECES, WEAPONS, Step, engagement_state, rig, roster

from referee.campaigns.oilandiron import carry_into, new_campaign_doc, read_engagement, rig_label
from referee.campaigns.repairs import repair_options
from referee.core.errors import RuleError

WRECKED = {"hull": 0, "arms": 0, "legs": 0, "engine": 0}


def twins() -> Step:
    """Anna and Ben both field a Jackal and a Hyena; Ben's Jackal is destroyed, Anna's Hyena
    comes home with 2 Hull damage."""
    rosters = {"p1": roster("Anna's Sword", rig("r1", "Jackal"), rig("r2", "Hyena")),
               "p2": roster("Ben's Sword", rig("r1", "Jackal"), rig("r2", "Hyena"))}
    step = Step("oilandiron", new_campaign_doc("Twins", {"p1": {"name": "Anna"}, "p2": {"name": "Ben"}}, rosters,
                                               copy.deepcopy(EXAMPLE_TABLES), CATALOGUE))
    step("plan_engagement", engagement="iron_clash", deployment="Battle Lines", battlefield="Open Plains")
    step("game_started", step="1", game_id=5, name="Night one", pieces=PIECES, weapons=WEAPONS)
    state = engagement_state({
        "p1-r1": {}, "p1-r2": {"structure": {"hull": 2, "arms": 3, "legs": 3, "engine": 2}},
        "p2-r1": {"destroyed": True, "structure": dict(WRECKED), "catastrophic": ["hull", "arms", "legs", "engine"]},
        "p2-r2": {}})
    log = [{"facts": {"rig": "p1-r1"}, "changes": [{"path": ["rigs", "p2-r1", "destroyed"], "before": False, "after": True}]}]
    step("begin_aftermath", step="1", report=read_engagement(state, log, PIECES, WEAPONS))
    return step


def words(step: Step) -> list[str]:
    return [c.label for r in step.results for c in r.all_changes if c.label] + \
        [r.summary for r in step.results] + [n for r in step.results for n in r.notes]


def test_a_rig_whose_name_another_shares_is_named_with_its_owner():
    step = twins()
    assert rig_label(step.doc, "p1/r1") == "Jackal (Anna)" and rig_label(step.doc, "p2/r1") == "Jackal (Ben)"
    step.doc["rosters"]["p2"]["rigs"]["r2"]["name"] = "Warthog"
    assert rig_label(step.doc, "p2/r2") == "Warthog"  # a name nobody else has stays as it is


def test_every_aftermath_line_names_the_owner_of_a_shared_name_and_never_a_key():
    step = twins()
    step("recovery_roll", dice=[12], rig="p2/r1")
    step("experience")
    lines = words(step)
    assert "Jackal (Ben) is recovered (12: Recovered whole)" in lines
    assert any(x.startswith("Jackal (Anna): experience 0 → ") for x in lines)
    assert any(x.startswith("Jackal (Ben): experience 0 → ") for x in lines)
    assert not [x for x in lines if x.startswith("Jackal:") or x.startswith("Hyena:")]
    assert not [x for x in lines if "p1/" in x or "p2/" in x]
    assert step.doc["aftermath"]["recovery"]["p2/r1"]["name"] == "Jackal (Ben)"


def test_the_next_engagements_notes_name_the_owner():
    step = twins()
    rec = step.doc["rosters"]["p1"]["rigs"]["r2"]
    rig_doc = {"structure_max": {"hull": 4, "arms": 3, "legs": 3, "engine": 3},
               "structure": {"hull": 4, "arms": 3, "legs": 3, "engine": 3}, "speed": 6, "pivot": 3,
               "heat_threshold": 6, "exhaust": 2}
    carried, notes = carry_into(rig_doc, rec, True, None, rig_label(step.doc, "p1/r2"))
    assert notes == ["Hyena (Anna) starts damaged: Hull −2 SP"]
    assert carried["name"] == "Hyena (Anna)"  # the engagement's card, pick lists and log say whose


def test_each_rig_offers_only_its_own_repairs():
    step = twins()
    step("recovery_roll", dice=[5, 5], rig="p2/r1")  # back with a repair trait: 5 is Twisted Frame
    mine = repair_options(step.doc, "p2/r1")
    assert ("trait:Twisted Frame", "Strip the trait Twisted Frame", 4) in mine
    assert [w for w, _, _ in repair_options(step.doc, "p1/r2")] == ["hull"]  # Anna's Hyena: its Hull only
    assert repair_options(step.doc, "p1/r1") == []  # untouched
    assert repair_options(step.doc, "p2/r2") == []


def test_a_repair_the_rig_cannot_have_is_refused_in_words():
    step = twins()
    step("recovery_roll", dice=[5, 5], rig="p2/r1")
    with pytest.raises(RuleError) as err:
        step("repair", rig="p1/r1", what="trait:Twisted Frame")
    assert str(err.value) == "Jackal (Anna) has no such repair to make: choose one of its own repairs from its list."
    with pytest.raises(RuleError, match="neither roster") as err:
        step("repair", rig="p3/r9", what="hull")
    assert "p3" not in str(err.value)


def test_a_rig_recovered_with_a_trait_keeps_what_the_trait_does():
    step = twins()
    step("recovery_roll", dice=[5, 11], rig="p2/r1")  # 11: Hardened Joints
    trait = step.doc["rosters"]["p2"]["rigs"]["r1"]["traits"][0]
    assert trait["name"] == "Hardened Joints" and trait["apply"] == {"legs": 1}


def lucky_twins() -> Step:
    step = twins()
    jackal = step.doc["rosters"]["p2"]["rigs"]["r1"]
    jackal["traits"] = [{"name": "Lucky Machine", "effect": "Once per campaign, re-roll one recovery roll",
                         "negative": False, "ignored": False, "apply": {"recovery_reroll": 1}}]
    return step


def test_lucky_machine_rolls_a_lost_rig_again_once():
    step = lucky_twins()
    odds = step.odds("recovery_roll", rig="p2/r1")
    assert odds[1] == "Lucky Machine: rolls again if lost (once per campaign): lost after both 11%"  # (4/12)²
    r = step("recovery_roll", dice=[2, 10], rig="p2/r1")
    assert [d.value for d in r.dice] == [2, 10] and "Jackal (Ben) is recovered" in r.summary
    assert step.doc["rosters"]["p2"]["rigs"]["r1"]["traits"][0]["used"] is True


def test_lucky_machine_does_not_roll_again_a_rig_that_came_back():
    step = lucky_twins()
    r = step("recovery_roll", dice=[12], rig="p2/r1")
    assert len(r.dice) == 1 and not step.doc["rosters"]["p2"]["rigs"]["r1"]["traits"][0].get("used")


def test_lucky_machine_once_used_is_gone():
    step = lucky_twins()
    step.doc["rosters"]["p2"]["rigs"]["r1"]["traits"][0]["used"] = True
    assert len(step.odds("recovery_roll", rig="p2/r1")) == 1
    r = step("recovery_roll", dice=[2], rig="p2/r1")
    assert "is lost" in r.summary


def test_the_roster_shows_structure_as_the_traits_leave_it():
    from referee.campaigns import squadron_rows
    step = twins()
    step("recovery_roll", dice=[5, 11], rig="p2/r1")  # Hardened Joints: Legs +1
    ben = next(p for p in squadron_rows(step.doc) if p["key"] == "p2")
    jackal = next(r for r in ben["rigs"] if r["key"] == "r1")
    legs = dict((loc, (left, top)) for loc, left, top in jackal["structure"])["Legs"]
    assert legs[1] == step.doc["rosters"]["p2"]["rigs"]["r1"]["structure_max"]["legs"] + 1
