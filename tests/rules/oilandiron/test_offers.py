"""What a Rig may do now, and what the round waits for, as the engine offers it (``GAME.offers``): each
action with the reason when it may not, in the order the board draws them; and an offer the board
draws is one the engine then accepts."""
from __future__ import annotations

import pytest
from _oi_helpers import activated, gun, make_doc, rig_spec, run, set_rig

from referee.core.dice import ScriptedDice
from referee.core.errors import RuleError
from referee.oilandiron import GAME
from referee.oilandiron.rounds import EndRoundFacts, owed_now


def allowed(doc: dict, piece: str) -> list[str]:
    return [o.label for o in GAME.offers(doc, piece) if o.allowed]


def offer(doc: dict, piece: str, label: str):
    return next(o for o in GAME.offers(doc, piece) if o.label == label)


def test_at_the_start_of_a_round_only_initiative_is_open():
    doc = make_doc()
    assert allowed(doc, "") == ["Roll for initiative"]
    assert allowed(doc, "a") == []
    assert offer(doc, "a", "Activate").reason == "Rigs are activated in the Activation phase."
    assert offer(doc, "a", "Move").reason == "Rigs act only in the Activation phase."
    assert offer(doc, "", "End the round").reason == "The round ends after the Maintenance phase."


def test_the_player_to_activate_offers_each_ready_rig_and_the_other_waits():
    doc = make_doc(phase="activation", current_player="p1", starting_player="p1")
    act = offer(doc, "a", "Activate")
    assert act.allowed and act.kind == "post" and act.facts == {"rig": "a"} and act.now
    assert offer(doc, "t", "Activate").reason == "It is Anna's turn to activate a Rig."
    assert allowed(doc, "") == []


def test_the_activated_rig_offers_its_actions_in_order():
    doc = activated(make_doc(), "a")
    assert allowed(doc, "a") == ["Move", "Fire Gun", "Called Shot", "Ram", "Repair", "Prepare", "Shut Down",
                                 "End activation"]
    assert offer(doc, "a", "Move").now and not offer(doc, "a", "End activation").now
    assert offer(doc, "a", "Reload").reason == "A's weapons are all loaded."
    assert offer(doc, "a", "Activate").reason == "A is activated now."
    assert offer(doc, "a", "Collect salvage").reason == "There is no salvage in this engagement."
    assert offer(doc, "t", "Move").reason == "T is not the activated Rig."
    assert offer(doc, "t", "Activate").reason == "A is activated: its activation ends first."
    fire = offer(doc, "a", "Fire Gun")
    assert fire.kind == "form" and fire.facts == {"rig": "a", "weapon": "gun"}


def test_with_no_actions_left_only_ending_the_activation_is_open():
    doc = activated(make_doc(), "a", actions=0)
    assert allowed(doc, "a") == ["End activation"]
    assert offer(doc, "a", "End activation").now
    assert offer(doc, "a", "Move").reason == "A has no actions left this activation."


def test_weapons_say_why_they_cannot_fire_and_called_shot_opens_with_the_only_one_that_may():
    doc = make_doc(p1=[rig_spec("a", weapons=[gun("gun"), gun("auto", perks=["full_auto"])])])
    doc = activated(doc, "a")
    called = offer(doc, "a", "Called Shot")
    assert called.allowed and called.facts == {"rig": "a", "weapon": "gun"}  # Full Auto never calls a shot
    rig = doc["rigs"]["a"]
    empty = {**rig["weapons"], "gun": {**rig["weapons"]["gun"], "loaded": False}}
    doc = set_rig(doc, "a", weapons=empty)
    assert offer(doc, "a", "Fire Gun").reason == "Gun is empty: Reload first."
    assert offer(doc, "a", "Reload").allowed
    assert offer(doc, "a", "Called Shot").reason == "No ready weapon may call a shot (Full Auto weapons never do)."
    broken = {**empty, "auto": {**empty["auto"], "disabled": True}}
    doc = set_rig(doc, "a", weapons=broken)
    assert offer(doc, "a", "Fire Auto").reason == "Auto is disabled until the Arms are repaired."


def test_equipment_cards_used_by_their_own_action_are_offered_the_others_say_where_they_count():
    doc = activated(make_doc(p1=[rig_spec("a", equipment=["smoke_dispensers", "extinguisher"])]), "a")
    smoke = offer(doc, "a", "Use Smoke Dispensers")
    assert smoke.allowed and smoke.facts == {"rig": "a", "equipment": "smoke_dispensers"}
    assert "Heat Threshold roll" in offer(doc, "a", "Use Extinguisher").reason
    _, after = run("use_equipment", doc, rig="a", equipment="smoke_dispensers")
    assert offer(after, "a", "Use Smoke Dispensers").reason == "Smoke Dispensers has been used (once per game)."


def test_a_ruptured_fuel_line_opens_activation_as_a_form():
    doc = make_doc(phase="activation", current_player="p1", starting_player="p1")
    doc = set_rig(doc, "a", status={"fuel_line_rupture": "until_repaired"})
    assert offer(doc, "a", "Activate").kind == "form"


def test_maintenance_waits_for_heat_rolls_and_the_round_score():
    doc = make_doc(engagement="point_of_control", phase="maintenance")
    doc = set_rig(doc, "a", heat=8, activated=True)
    assert allowed(doc, "a") == ["Heat Threshold roll"]
    assert offer(doc, "t", "Heat Threshold roll").reason == "T's heat 0 is not above its threshold 6."
    assert allowed(doc, "") == ["Score round 1"]
    assert offer(doc, "", "End the round").reason == "Heat Threshold rolls still to make: A."
    doc = set_rig(doc, "a", heat_rolled=1)
    assert offer(doc, "a", "Heat Threshold roll").reason == "A has already made its Heat Threshold roll this round."
    assert allowed(doc, "") == ["Score round 1", "End the round"]


def test_the_supply_drop_is_offered_at_the_start_of_its_round():
    doc = make_doc(engagement="supply_airdrop")
    assert offer(doc, "", "Place the supply drop").reason == "The supply drop lands at the start of round 2."
    doc["round"] = 2
    assert allowed(doc, "") == ["Place the supply drop", "Roll for initiative"]
    assert offer(make_doc(), "", "Place the supply drop").reason == "This engagement has no supply drop."


def test_nothing_is_open_once_the_engagement_is_over_or_to_a_destroyed_rig():
    doc = activated(make_doc(), "a")
    assert all(o.reason == "The engagement is over." for o in GAME.offers(dict(doc, ended=True), "a"))
    assert all(o.reason == "The engagement is over." for o in GAME.offers(dict(doc, ended=True), ""))
    gone = set_rig(doc, "a", destroyed=True)
    assert all(o.reason == "A is destroyed." for o in GAME.offers(gone, "a"))
    with pytest.raises(RuleError, match="no Rig “nobody”"):
        GAME.offers(doc, "nobody")


@pytest.mark.parametrize("doc", [
    make_doc(),
    make_doc(phase="activation", current_player="p1", starting_player="p1"),
    activated(make_doc(), "a"),
    activated(make_doc(), "a", actions=0),
], ids=["initiative", "to activate", "activated", "no actions left"])
def test_every_offer_that_acts_at_once_is_accepted_by_the_engine(doc):
    """What the board posts without a form, the engine resolves without a refusal."""
    for piece in ["", *doc["rigs"]]:
        for o in GAME.offers(doc, piece):
            if o.allowed and o.kind == "post":
                spec = GAME.action(o.action)
                GAME.resolve(doc, o.action, spec.facts(**o.facts), ScriptedDice([6] * 20))


def test_end_of_round_owes_each_heat_roll_then_the_score_and_none_may_be_left():
    doc = set_rig(make_doc(engagement="point_of_control", phase="maintenance"), "a", heat=8, activated=True)
    owed = owed_now(doc)
    assert [(o.action, dict(o.facts)) for o in owed] == [("heat_roll", {"rig": "a"}), ("score_round", {})]
    assert owed[0].text == "A is above its Heat Threshold and has not rolled this round."
    assert not any(o.may_leave for o in owed)
    # "Leave it undone" does not move the round on: the rules cannot end it without them.
    assert GAME.owed_before(doc, "end_round", EndRoundFacts()) == owed
    assert owed_now({**doc, "phase": "activation"}) == []
