"""The Hundred Days with fixed dice: every link between the battles of 16 and 18 June
(the campaign section of the Hundred Days source, lines 744-840): campaign VP per result, the
day's result, carried casualties and overnight recovery, destroyed units, broken brigades,
lost commanders, and each named consequence."""
from __future__ import annotations

import copy

import pytest
from _campaign_helpers import HUNDRED_DAYS, Step

from referee.campaigns.hundred_days import new_campaign_doc, read_battle
from referee.campaigns.hundred_days_forces import forces_for_battle
from referee.core.errors import RuleError


def unit(uid, side, brigade, name=None, casualties=0, stamina=3, destroyed=False, nation=None):
    return {"id": uid, "name": name or uid, "side": side, "brigade": brigade, "casualties": casualties,
            "stamina": stamina, "destroyed": destroyed, "disordered": False, "nation": nation}


def battle(units, brigades, french_broken=False, coalition_broken=False, winner=None, ended=True,
           coalition="Prussians", nation="prussian"):
    """A battle document: Blue the French, Red the Coalition army named ``coalition``."""
    return {"name": "Battle", "ended": ended, "winner": winner,
            "sides": {"blue": {"id": "blue", "name": "French", "nation": "french", "army_broken": french_broken,
                               "general": {"name": "Napoleon", "staff_rating": 10}},
                      "red": {"id": "red", "name": coalition, "nation": nation, "army_broken": coalition_broken,
                              "general": {"name": "Blücher", "staff_rating": 9}}},
            "brigades": {bid: {"id": bid, "name": name, "side": side, "broken": broken,
                               "commander": {"name": f"{name} commander", "staff_rating": 8}}
                         for bid, (name, side, broken) in brigades.items()},
            "units": {u["id"]: u for u in units}}


LIGNY_BRIGADES = {"blue-guard": ("Guard", "blue", False), "blue-3rd": ("III Corps", "blue", False),
                  "red-1st": ("1st Brigade", "red", True), "red-2nd": ("2nd Brigade", "red", True),
                  "red-3rd": ("3rd Brigade", "red", False)}


def ligny(winner="blue", coalition_broken=False, french_broken=False, red_broken=(True, True)):
    brigades = dict(LIGNY_BRIGADES)
    brigades["red-1st"] = ("1st Brigade", "red", red_broken[0])
    brigades["red-2nd"] = ("2nd Brigade", "red", red_broken[1])
    units = [unit("old-guard", "blue", "blue-guard", "Old Guard", casualties=2),
             unit("4th-ligne", "blue", "blue-3rd", "4th Ligne", destroyed=True, casualties=3),
             unit("12th-musketeers", "red", "red-1st", "12th Musketeers", casualties=3),
             unit("landwehr", "red", "red-2nd", "Landwehr", destroyed=True, stamina=None),
             unit("jager", "red", "red-3rd", "Jäger", casualties=1, stamina=None)]
    return battle(units, brigades, french_broken=french_broken, coalition_broken=coalition_broken, winner=winner)


def quatre_bras(winner="blue", british_broken=2):
    brigades = {"blue-5th": ("5th Division", "blue", False), "blue-9th": ("9th Division", "blue", False),
                "red-nl": ("2nd Netherlands Division", "red", british_broken > 0),
                "red-br": ("British 1st Division", "red", british_broken > 1),
                "red-cav": ("British cavalry", "red", False)}
    units = [unit("2nd-leger", "blue", "blue-5th", "2nd Léger"), unit("92nd", "blue", "blue-9th"),
             unit("nassau", "red", "red-nl", "Nassau"), unit("guards", "red", "red-br", "Guards"),
             unit("dragoons", "red", "red-cav", "Dragoons")]
    return battle(units, brigades, winner=winner, coalition="Allied Army", nation="british")


def waterloo():
    brigades = {"blue-guard": ("Guard", "blue", False), "blue-5th": ("5th Division", "blue", False),
                "red-nl": ("2nd Netherlands Division", "red", False), "red-br": ("British 1st Division", "red", False),
                "red-cav": ("British cavalry: Household Brigade", "red", False),
                "red-1st": ("1st Brigade", "red", False), "red-ii": ("II Corps: 5th Brigade", "red", False)}
    units = [unit("old-guard", "blue", "blue-guard", "Old Guard"), unit("2nd-leger", "blue", "blue-5th", "2nd Léger"),
             unit("nassau", "red", "red-nl", "Nassau", nation="nassau"),
             unit("guards", "red", "red-br", "Guards", nation="british"),
             unit("dragoons", "red", "red-cav", "Dragoons", nation="british"),
             unit("12th-musketeers", "red", "red-1st", "12th Musketeers", nation="prussian"),
             unit("landwehr", "red", "red-1st", "Landwehr", nation="prussian"),
             unit("ii-1", "red", "red-ii", "II Corps battalion 1", nation="prussian"),
             unit("ii-2", "red", "red-ii", "II Corps battalion 2", nation="prussian")]
    return battle(units, brigades, coalition="Allied and Prussian armies", nation="british")


def campaign(**settings) -> Step:
    return Step("hundred_days", new_campaign_doc("1815", copy.deepcopy(HUNDRED_DAYS), settings))


def fight(step, key, state, game_id=1, **facts):
    step("game_started", step=key, game_id=game_id, name=key)
    return step("record_result", battle=key, report=read_battle(state), **facts)


def test_the_campaign_links_the_battles_of_16_and_18_june_with_the_waterloo_episodes_optional():
    doc = campaign().doc
    assert [(k, b["day"], b["optional"]) for k, b in doc["battles"].items()] == [
        ("ligny", "16", False), ("quatre-bras", "16", False), ("wavre", "18", False), ("waterloo", "18", False),
        ("hougoumont", "18", True), ("derlons-attack", "18", True), ("plancenoit", "18", True)]
    assert doc["day"] == "16"


def test_an_unfinished_battle_cannot_be_recorded():
    with pytest.raises(RuleError, match="not over"):
        read_battle(ligny() | {"ended": False})


def test_a_battle_of_the_18th_cannot_start_on_the_16th():
    step = campaign()
    with pytest.raises(RuleError, match="fought on 18 June"):
        step("game_started", step="waterloo", game_id=3, name="Waterloo")


def test_major_french_victory_at_ligny_scores_3_and_carries_losses_into_the_army_rosters():
    step = campaign()
    r = fight(step, "ligny", ligny())
    assert r.data["degree"] == "major" and r.data["vp"] == 3  # two Prussian brigades broken, none French
    assert step.doc["days"]["16"]["vp"] == {"french": 3, "coalition": 0}
    french = step.doc["armies"]["french"]
    assert french["units"]["old-guard"]["casualties"] == 2 and french["units"]["4th-ligne"]["destroyed"]
    assert step.doc["armies"]["coalition"]["brigades"]["prussian-1st-brigade"]["broken_in"] == "ligny"
    assert "as planned" in step.doc["consequences"][0]["text"]


def test_a_minor_victory_at_ligny_scores_only_for_the_prussians():
    step = campaign()
    assert fight(step, "ligny", ligny(red_broken=(True, False))).data == pytest.approx(
        step.results[-1].data) and step.results[-1].data["degree"] == "minor"
    assert step.doc["days"]["16"]["vp"] == {"french": 0, "coalition": 0}
    step2 = campaign()
    fight(step2, "ligny", ligny(winner="red", red_broken=(False, False)))
    assert step2.doc["days"]["16"]["vp"] == {"french": 0, "coalition": 2}


def test_the_french_army_broken_at_ligny_wins_the_campaign_for_the_coalition_outright():
    step = campaign()
    fight(step, "ligny", ligny(winner="red", french_broken=True, red_broken=(False, False)))
    assert step.doc["ended"] and step.doc["winner"] == "coalition"
    with pytest.raises(RuleError, match="campaign is over"):
        step("game_started", step="quatre-bras", game_id=2, name="QB")


def test_prussians_broken_at_ligny_cancel_wavre_and_keep_every_prussian_from_waterloo():
    step = campaign()
    fight(step, "ligny", ligny(coalition_broken=True))
    assert step.doc["battles"]["wavre"]["status"] == "cancelled"
    assert step.doc["battles"]["plancenoit"]["status"] == "cancelled"
    fight(step, "quatre-bras", quatre_bras(winner="red", british_broken=0), game_id=2)
    step("end_day", day="16")
    doc, notes = forces_for_battle(step.doc, "waterloo", waterloo())
    assert not [u for u in doc["units"].values() if u["nation"] == "prussian"]
    assert "red-ii" not in doc["brigades"] and any("Wellington stands alone" in n for n in notes)
    with pytest.raises(RuleError, match="not fought"):
        forces_for_battle(step.doc, "wavre", waterloo())


def test_major_coalition_win_at_ligny_and_any_other_result_leave_a_note_for_wavre():
    step = campaign()
    fight(step, "ligny", ligny(winner="red", red_broken=(False, False)) | {
        "brigades": {**ligny(red_broken=(False, False))["brigades"], "blue-3rd": {"id": "blue-3rd", "name": "III Corps", "side": "blue",
                                                          "broken": True, "commander": None},
                     "blue-guard": {"id": "blue-guard", "name": "Guard", "side": "blue", "broken": True,
                                    "commander": None}}})
    assert "Grouchy cannot press" in step.doc["consequences"][0]["text"]
    step2 = campaign()
    fight(step2, "ligny", ligny(winner=None, red_broken=(False, False)))
    assert "drains both armies" in step2.doc["consequences"][0]["text"]


@pytest.mark.parametrize("winner, broken, disordered", [
    ("blue", 2, {"nassau", "guards", "dragoons"}),   # French major: cavalry, 2nd Netherlands, British 1st
    ("blue", 1, {"nassau", "guards"}),               # French minor: 2nd Netherlands, British 1st
    ("red", 0, set()),                               # Coalition minor: as planned
])
def test_quatre_bras_results_disorder_named_allied_formations_at_waterloo(winner, broken, disordered):
    step = campaign(broken_brigades="recovered")
    fight(step, "ligny", ligny())
    fight(step, "quatre-bras", quatre_bras(winner, broken), game_id=2)
    step("end_day", day="16")
    doc, _ = forces_for_battle(step.doc, "waterloo", waterloo())
    assert {uid for uid, u in doc["units"].items() if u["disordered"] and u["side"] == "red"} == disordered


def test_major_coalition_victory_at_quatre_bras_disorders_the_5th_and_9th_divisions():
    step = campaign(broken_brigades="recovered")
    fight(step, "ligny", ligny())
    qb = quatre_bras("red", 0)
    for bid in ("blue-5th", "blue-9th"):
        qb["brigades"][bid]["broken"] = True
    fight(step, "quatre-bras", qb, game_id=2)
    step("end_day", day="16")
    doc, _ = forces_for_battle(step.doc, "waterloo", waterloo())
    assert doc["units"]["2nd-leger"]["disordered"] and not doc["units"]["old-guard"]["disordered"]


def test_the_day_result_is_the_difference_of_campaign_vp():
    step = campaign()
    fight(step, "ligny", ligny())
    fight(step, "quatre-bras", quatre_bras("blue", 2), game_id=2)
    r = step("end_day", day="16")
    assert step.doc["days"]["16"]["result"] == {"winner": "french", "degree": "major", "margin": 5,
                                                "text": "Major Armée du Nord victory"}
    assert step.doc["day"] == "18" and "ends" in r.summary


def test_a_day_cannot_end_with_a_battle_unfought():
    step = campaign()
    fight(step, "ligny", ligny())
    with pytest.raises(RuleError, match="Quatre Bras"):
        step("end_day", day="16")


@pytest.mark.parametrize("mode, dice, left", [("none", [], 2), ("half", [], 1), ("all", [], 0),
                                              ("roll", [4, 3, 6, 1, 2, 5], 1)])
def test_casualties_recover_overnight_as_the_setting_says(mode, dice, left):
    step = campaign(recovery=mode)
    fight(step, "ligny", ligny())
    fight(step, "quatre-bras", quatre_bras("red", 0), game_id=2)
    if mode == "roll":
        assert "4+" in step.odds("end_day", day="16")[0]
    step("end_day", dice=dice, day="16")  # rolled: Old Guard 2, 12th Musketeers 3, Jäger 1 (in that order)
    assert step.doc["armies"]["french"]["units"]["old-guard"]["casualties"] == left


def test_waterloo_starts_with_carried_casualties_without_the_destroyed_and_with_broken_brigades_disordered():
    step = campaign(recovery="none")
    fight(step, "ligny", ligny(), commanders_lost=["1st Brigade"])
    fight(step, "quatre-bras", quatre_bras("red", 0), game_id=2)
    step("end_day", day="16")
    doc, notes = forces_for_battle(step.doc, "waterloo", waterloo())
    assert doc["units"]["old-guard"]["casualties"] == 2 and doc["units"]["12th-musketeers"]["casualties"] == 3
    # Each unit keeps what it carried in, for its card (tests/web/test_pages.py).
    assert doc["units"]["old-guard"]["carried"] == 2 and doc["units"]["12th-musketeers"]["carried"] == 3
    assert "landwehr" not in doc["units"]
    assert doc["units"]["12th-musketeers"]["disordered"]  # its brigade broke at Ligny
    assert doc["brigades"]["red-1st"]["commander"]["name"] == "Replacement for 1st Brigade commander"
    assert doc["brigades"]["red-1st"]["commander"]["staff_rating"] == 7
    assert any("Casualties carried" in n for n in notes) and any("Landwehr" in n for n in notes)


def test_untested_stamina_rolled_in_one_battle_is_kept_in_the_next():
    step = campaign()
    state = ligny()
    state["units"]["jager"]["stamina"] = 2
    fight(step, "ligny", state)
    fight(step, "quatre-bras", quatre_bras("red", 0), game_id=2)
    step("end_day", day="16")
    w = waterloo()
    w["units"]["jager"] = unit("jager", "red", "red-1st", "Jäger", stamina=None)
    assert forces_for_battle(step.doc, "waterloo", w)[0]["units"]["jager"]["stamina"] == 2


def test_prussians_caught_on_the_march_at_wavre_start_waterloo_disordered():
    step = campaign(broken_brigades="recovered")
    fight(step, "ligny", ligny(red_broken=(True, False)))
    fight(step, "quatre-bras", quatre_bras("red", 0), game_id=2)
    step("end_day", day="16")
    fight(step, "wavre", ligny(winner="blue", red_broken=(False, False)), game_id=3, prussians_disrupted=1)
    doc, _ = forces_for_battle(step.doc, "waterloo", waterloo())
    assert [uid for uid in ("ii-1", "ii-2") if doc["units"][uid]["disordered"]] == ["ii-1"]


def test_an_override_of_the_result_needs_a_reason_and_is_recorded():
    step = campaign()
    step("game_started", step="ligny", game_id=1, name="Ligny")
    with pytest.raises(RuleError, match="needs a reason"):
        step("record_result", battle="ligny", report=read_battle(ligny()), degree="minor")
    r = step("record_result", battle="ligny", report=read_battle(ligny()), degree="minor", reason="scenario terms")
    assert r.data["override"] and "Umpire override" in r.notes[0]
    assert step.doc["battles"]["ligny"]["result"]["override"] == "victory major → minor"


def test_a_decisive_waterloo_ends_the_campaign_with_the_18th_decided():
    step = campaign()
    fight(step, "ligny", ligny())
    fight(step, "quatre-bras", quatre_bras("red", 0), game_id=2)
    step("end_day", day="16")
    fight(step, "wavre", ligny(winner="blue"), game_id=3)
    fight(step, "waterloo", ligny(winner="red", french_broken=True, red_broken=(False, False)), game_id=4)
    assert step.doc["ended"] and step.doc["winner"] == "coalition"
    step("end_day", day="18")
    assert step.doc["days"]["18"]["result"]["degree"] == "decisive" and step.doc["day"] == "over"


# --- with the shipped scenarios -------------------------------------------------------------------

def _real(key: str) -> dict:
    from referee.data.scenarios import new_battle_from_scenario
    return new_battle_from_scenario(HUNDRED_DAYS_SCENARIOS[key])


HUNDRED_DAYS_SCENARIOS = {b["key"]: b["scenario"] for b in HUNDRED_DAYS["battles"]}


def _ended(state: dict, winner: str | None, **over) -> dict:
    state = copy.deepcopy(state)
    state.update(ended=True, winner=winner, **over)
    return state


def test_the_shipped_scenarios_are_linked_ligny_losses_reach_waterloo():
    step = campaign(recovery="none", broken_brigades="recovered")
    ligny_doc = _real("ligny")
    units = ligny_doc["units"]
    units["1-1st-westphalian-landwehr"]["casualties"] = 2
    units["silesian-schutzen"]["destroyed"] = True
    units["1-12th-musketeers"]["casualties"] = 1
    fight(step, "ligny", _ended(ligny_doc, "blue"))
    fight(step, "quatre-bras", _ended(_real("quatre-bras"), "blue"), game_id=2)  # no brigade broke: minor
    step("end_day", day="16")
    doc, notes = forces_for_battle(step.doc, "waterloo", _real("waterloo"))
    assert doc["units"]["1-1st-westphalian-landwehr"]["casualties"] == 2
    assert doc["units"]["1-12th-infantry"]["casualties"] == 1  # the same battalion, named by its regiment
    assert "silesian-schutzen" not in doc["units"]
    guards = [u for u in doc["units"].values() if doc["brigades"][u["brigade"]]["name"] == "1st Guards Brigade"]
    assert guards and all(u["disordered"] for u in guards)  # French minor victory at Quatre Bras
    household = [u for u in doc["units"].values() if doc["brigades"][u["brigade"]]["name"] == "Household Brigade"]
    assert household and not any(u["disordered"] for u in household)


def test_the_shipped_waterloo_has_no_prussians_after_they_broke_at_ligny():
    step = campaign()
    ligny_doc = _real("ligny")
    ligny_doc["sides"]["red"]["army_broken"] = True
    fight(step, "ligny", _ended(ligny_doc, "blue"))
    fight(step, "quatre-bras", _ended(_real("quatre-bras"), "red"), game_id=2)
    step("end_day", day="16")
    before = _real("waterloo")
    doc, _ = forces_for_battle(step.doc, "waterloo", before)
    assert any(u["nation"] == "prussian" for u in before["units"].values())
    assert not any(u["nation"] == "prussian" for u in doc["units"].values())
    assert step.doc["battles"]["wavre"]["status"] == "cancelled"


def test_an_army_whose_name_begins_with_the_is_named_once_in_a_result():
    """A campaign made before the Coalition's army was renamed still calls it "The Coalition (…)":
    its results read "Decisive Coalition (…) victory" and "won by the Coalition (…)", never "the The"."""
    step = campaign()
    step.doc["armies"]["coalition"]["name"] = "The Coalition (Wellington and Blücher)"
    fight(step, "ligny", ligny())
    fight(step, "quatre-bras", quatre_bras("red", 0), game_id=2)
    step("end_day", day="16")
    fight(step, "wavre", ligny(winner="blue"), game_id=3)
    result = fight(step, "waterloo", ligny(winner="red", french_broken=True, red_broken=(False, False)), game_id=4)
    said = [result.summary] + [c.label for c in result.changes]
    assert "Campaign won by the Coalition (Wellington and Blücher)" in said
    assert any("Decisive Coalition (Wellington and Blücher) victory" in s for s in said)
    assert not any("the The" in s or "Decisive The" in s for s in said)
