"""A Hundred Days day on two tables at once, played through the table service as the tablets do:
the battles started together, d'Erlon's I Corps going to one battle and leaving the other's
reserves, Wavre a turn behind Waterloo, a breakthrough at Wavre put to the Coalition at Waterloo,
and undo across the two tables (the source's campaign section, lines 775, 785-815)."""
from __future__ import annotations

import copy

import pytest
import yaml
from _campaign_helpers import ROOT

from referee.campaigns.hundred_days_links import candidates, reserve_by_label
from referee.core.dice import ScriptedDice
from referee.table import campaign_day as cd
from referee.table import campaign_games as cg
from referee.table import campaigns as tc
from referee.table import game_log, service

PLAN = yaml.safe_load((ROOT / "scenarios" / "campaigns" / "hundred-days.yaml").read_text())


def eighteenth() -> dict:
    """The plan with 18 June first, so a test starts on that day."""
    plan = copy.deepcopy(PLAN)
    plan["days"] = plan["days"][::-1]
    return plan


def act(db, game_id, action, dice=None, **facts):
    g = service.get_game(db, game_id)
    return service.perform(db, game_id, g.version, action, facts, dice=dice)


def undo(db, game_id):
    g = service.get_game(db, game_id)
    return service.undo(db, game_id, g.version)


def by_title(games, word):
    return next(g for g in games if word in g.name)


def i_corps(db, game_id):
    return reserve_by_label(service.get_game(db, game_id).state, "I Corps")


def links(db, cid):
    return tc.get_campaign(db, cid).state["links"]


def start(db, plan=None, **kw):
    c = cg.new_hundred_days(db, "Event", "Nap", "Wel", plan=plan, seed=5)
    return c, cd.start_day(db, c.id, c.version, who="Umpire", **kw)


# --- 16 June: I Corps -----------------------------------------------------------------------------

def test_the_16th_starts_both_battles_together_each_a_game_with_i_corps_in_its_reserves(db):
    c, games = start(db)
    assert [g.name for g in games] == ["Event: Ligny", "Event: Quatre Bras"]
    doc = tc.get_campaign(db, c.id).state
    assert doc["links"]["side_by_side"] == {"16": True}
    assert {k: b["status"] for k, b in doc["battles"].items() if b["day"] == "16"} == {"ligny": "playing",
                                                                                     "quatre-bras": "playing"}
    for g in games:
        r = i_corps(db, g.id)
        assert r is not None and r["status"] == "waiting" and len(r["units"]) > 10
        assert service.get_game(db, g.id).state["campaign_link"]["campaign_id"] == c.id
    # Ligny's scenario has no I Corps: the campaign gave it Quatre Bras's, same units, same entry roll.
    qb, ligny = i_corps(db, games[1].id), i_corps(db, games[0].id)
    assert ligny["schedule"] == qb["schedule"]
    assert [service.get_game(db, games[0].id).state["units"][u]["name"] for u in ligny["units"]] == \
        [service.get_game(db, games[1].id).state["units"][u]["name"] for u in qb["units"]]
    assert any("I Corps" in n for n in service.get_game(db, games[0].id).state["scenario"]["notes"])


def test_i_corps_arriving_at_quatre_bras_is_gone_from_ligny_in_the_same_write_and_both_logs_say_so(db):
    c, games = start(db)
    ligny, qb = by_title(games, "Ligny"), by_title(games, "Quatre")
    done = act(db, qb.id, "arrive", reserve=i_corps(db, qb.id)["id"], early=True)
    assert any("gone from Ligny" in n for n in done.result.notes)
    assert i_corps(db, ligny.id) is None
    assert not any(u["name"] == "54th Ligne" for u in service.get_game(db, ligny.id).state["units"].values())
    entry = game_log.log(db, ligny.id)[0]
    assert entry.action == "campaign_link" and "arrived at Quatre Bras" in entry.result["summary"]
    assert links(db, c.id)["i_corps"]["at"] == "quatre-bras"
    # Ligny cannot bring it on, nor undo its going: that is Quatre Bras's to undo.
    with pytest.raises(service.BadInput, match="no reserve"):
        act(db, ligny.id, "arrive", reserve="blue-i-corps", early=True)
    with pytest.raises(service.BadInput, match="came from Quatre Bras"):
        undo(db, ligny.id)
    # Undoing the arrival at Quatre Bras puts it back in Ligny's reserves, in one step.
    undo(db, qb.id)
    assert i_corps(db, ligny.id)["status"] == "waiting"
    assert game_log.log(db, ligny.id)[0].undone and game_log.log(db, ligny.id)[0].discarded
    assert links(db, c.id)["i_corps"]["at"] is None
    # Redoing it sends it away from Ligny again, as the first time.
    g = service.get_game(db, qb.id)
    service.redo(db, qb.id, g.version)
    assert i_corps(db, ligny.id) is None and links(db, c.id)["i_corps"]["at"] == "quatre-bras"


def test_i_corps_can_arrive_at_ligny_instead_and_then_quatre_bras_loses_it(db):
    c, games = start(db)
    ligny, qb = by_title(games, "Ligny"), by_title(games, "Quatre")
    act(db, ligny.id, "arrive", reserve=i_corps(db, ligny.id)["id"], early=True)
    assert i_corps(db, qb.id) is None and links(db, c.id)["i_corps"]["at"] == "ligny"
    assert "Brunswick Corps" in [r["label"] for r in service.get_game(db, qb.id).state["reserves"].values()]


def test_the_french_may_decline_i_corps_at_ligny(db):
    c, games = start(db, decline_i_corps=True)
    assert i_corps(db, by_title(games, "Ligny").id) is None
    assert i_corps(db, by_title(games, "Quatre").id)["status"] == "waiting"
    assert any("declined" in n for n in service.get_game(db, by_title(games, "Ligny").id).state["scenario"]["notes"])


def test_sequentially_i_corps_that_came_to_ligny_is_not_in_quatre_bras_reserves(db):
    c = cg.new_hundred_days(db, "Event", "Nap", "Wel", seed=5)
    ligny = cg.start_battle(db, c.id, c.version, "ligny")
    assert i_corps(db, ligny.id)["status"] == "waiting"
    act(db, ligny.id, "arrive", reserve=i_corps(db, ligny.id)["id"], early=True)
    c = tc.get_campaign(db, c.id)
    qb = cg.start_battle(db, c.id, c.version, "quatre-bras")
    assert i_corps(db, qb.id) is None
    assert any("arrived at Ligny" in n for n in qb.state["scenario"]["notes"])


# --- 18 June: Wavre and Waterloo ----------------------------------------------------------------------

def to_turn_2(db, game_id):
    for _ in range(6):
        act(db, game_id, "next_phase")
    s = service.get_game(db, game_id).state
    assert (s["turn"], s["active_side"], s["phase"]) == (2, "blue", "command")


def prussian(db, game_id, n=0):
    s = service.get_game(db, game_id).state
    return [u for u in s["units"].values() if u["side"] == "red" and not u.get("awaiting")][n]


def break_through(db, wavre_id, n=0):
    """A French charge at Wavre leaves a Prussian unit shaken: in combat, hits it cannot save."""
    u = prussian(db, wavre_id, n)
    act(db, wavre_id, "adjust_unit", unit=u["id"], field="in_combat", value="yes")
    return act(db, wavre_id, "take_hits", dice=ScriptedDice([1] * 12), unit=u["id"], hits=u["stamina"],
               source="hand_to_hand", break_test_if_needed=False)


def broken_through_on_the_day(db, campaign_id: int) -> tuple[int, int]:
    """The 18th's two battles, started by the campaign, both at turn 2, and a French breakthrough
    at Wavre: the Waterloo table then has a choice to make. Wavre's and Waterloo's game ids."""
    db.expire_all()
    doc = tc.get_campaign(db, campaign_id).state
    wavre, waterloo = doc["battles"]["wavre"]["game_id"], doc["battles"]["waterloo"]["game_id"]
    to_turn_2(db, waterloo)
    to_turn_2(db, wavre)
    break_through(db, wavre)
    db.expire_all()
    return wavre, waterloo


@pytest.fixture
def eighteenth_day(db):
    c, games = start(db, plan=eighteenth())
    return c, by_title(games, "Wavre"), by_title(games, "Waterloo")


def test_wavre_begins_a_turn_after_waterloo(db, eighteenth_day):
    c, wavre, waterloo = eighteenth_day
    with pytest.raises(service.BadInput, match="Wavre begins 1 turn after Waterloo"):
        act(db, wavre.id, "next_phase")
    act(db, wavre.id, "adjust_unit", unit=prussian(db, wavre.id)["id"], field="disordered", value="yes")  # a correction may
    to_turn_2(db, waterloo.id)
    act(db, wavre.id, "next_phase")
    assert service.get_game(db, wavre.id).state["phase"] == "shooting"


def test_a_breakthrough_at_wavre_turn_2_is_the_coalitions_choice_at_waterloo_and_lands_in_both_logs(db, eighteenth_day):
    c, wavre, waterloo = eighteenth_day
    to_turn_2(db, waterloo.id)
    to_turn_2(db, wavre.id)
    done = break_through(db, wavre.id)
    assert any("chooses which II Corps unit" in n for n in done.result.notes)
    [bt] = links(db, c.id)["breakthroughs"]
    assert (bt["status"], bt["how"], bt["turn"], bt["from"]) == ("pending", "shaken", 2, "wavre")
    reinforcing = candidates(service.get_game(db, waterloo.id).state, "II Corps")
    assert len(reinforcing) == 14 and not any(x["disordered"] for x in reinforcing)
    pick = reinforcing[3]["unit"]
    c = tc.get_campaign(db, c.id)
    cd.choose(db, c.id, c.version, bt["id"], pick, who="Wel")
    assert service.get_game(db, waterloo.id).state["units"][pick]["disordered"] is True
    at_waterloo, at_wavre = game_log.log(db, waterloo.id)[0], game_log.log(db, wavre.id)[0]
    assert at_waterloo.action == "adjust_unit" and "from Wavre, its turn 2" in at_waterloo.result["summary"]
    assert at_wavre.action == "campaign_link" and at_wavre.result["summary"].startswith("Reached Waterloo")
    assert links(db, c.id)["breakthroughs"][0]["status"] == "chosen"
    # A second breakthrough on the same unit: already disordered, it is lost.
    break_through(db, wavre.id, 1)
    bt2 = links(db, c.id)["breakthroughs"][1]
    c = tc.get_campaign(db, c.id)
    cd.choose(db, c.id, c.version, bt2["id"], pick)
    assert service.get_game(db, waterloo.id).state["units"][pick]["destroyed"] is True
    # The same choice twice is refused, and so is a unit not of II Corps.
    c = tc.get_campaign(db, c.id)
    with pytest.raises(service.BadInput, match="answered already"):
        cd.choose(db, c.id, c.version, bt2["id"], pick)


def test_no_breakthrough_outside_wavre_turn_2_or_with_the_reading_off(db, eighteenth_day):
    c, wavre, waterloo = eighteenth_day
    to_turn_2(db, waterloo.id)
    u = prussian(db, wavre.id)
    act(db, wavre.id, "adjust_unit", unit=u["id"], field="in_combat", value="yes")
    act(db, wavre.id, "take_hits", dice=ScriptedDice([1] * 12), unit=u["id"], hits=u["stamina"],
        source="hand_to_hand", break_test_if_needed=False)  # turn 1: no link
    assert links(db, c.id)["breakthroughs"] == []
    c = tc.get_campaign(db, c.id)
    tc.perform(db, c.id, c.version, "change_setting", {"name": "wavre_breakthrough", "value": "off"})
    for _ in range(6):
        act(db, wavre.id, "next_phase")
    break_through(db, wavre.id, 1)
    assert links(db, c.id)["breakthroughs"] == []


def disrupted_at_waterloo(db, c, wavre, waterloo) -> str:
    """Both tables at turn 2, a breakthrough at Wavre, and the Coalition's choice made: the unit
    of II Corps it disrupts at Waterloo."""
    to_turn_2(db, waterloo.id)
    to_turn_2(db, wavre.id)
    break_through(db, wavre.id)
    bt = links(db, c.id)["breakthroughs"][0]
    pick = candidates(service.get_game(db, waterloo.id).state, "II Corps")[0]["unit"]
    c = tc.get_campaign(db, c.id)
    cd.choose(db, c.id, c.version, bt["id"], pick)
    return pick


def test_undoing_the_breakthrough_at_wavre_takes_the_disruption_back_at_waterloo(db, eighteenth_day):
    c, wavre, waterloo = eighteenth_day
    pick = disrupted_at_waterloo(db, c, wavre, waterloo)
    act(db, waterloo.id, "next_phase")  # Waterloo plays on; it does not touch that unit
    undo(db, wavre.id)  # the record of the disruption: taken back at Waterloo too
    assert service.get_game(db, waterloo.id).state["units"][pick]["disordered"] is False
    assert links(db, c.id)["breakthroughs"][0]["status"] == "pending"
    undo(db, wavre.id)  # the breakthrough itself: the choice is gone
    assert links(db, c.id)["breakthroughs"] == []
    assert service.get_game(db, waterloo.id).state["phase"] == "shooting"  # Waterloo's own play untouched


def test_redo_after_a_cross_table_undo_is_offered_and_puts_back_the_fight(db, eighteenth_day):
    """Wavre undoes the line that carried the choice to Waterloo (it cannot be redone: it is chosen
    again, not redone) and then the fight itself: Redo is offered, names the fight, and takes it."""
    c, wavre, waterloo = eighteenth_day
    disrupted_at_waterloo(db, c, wavre, waterloo)
    undo(db, wavre.id)
    fight = undo(db, wavre.id)
    newest = game_log.log_lines(db, wavre.id, 10)
    assert newest[0].discarded  # the newest line is the one that cannot come back
    said = game_log.next_redo(db, wavre.id, newest)
    assert said is not None and said.seq == fight.seq and game_log.can_redo(db, wavre.id, newest)
    service.redo(db, wavre.id, service.get_game(db, wavre.id).version)
    assert links(db, c.id)["breakthroughs"][0]["status"] == "pending"  # the choice is owed again
    assert game_log.next_redo(db, wavre.id, game_log.log_lines(db, wavre.id, 10)) is None


def test_undo_at_wavre_is_refused_when_waterloo_has_acted_on_the_disrupted_unit(db, eighteenth_day):
    c, wavre, waterloo = eighteenth_day
    pick = disrupted_at_waterloo(db, c, wavre, waterloo)
    act(db, waterloo.id, "adjust_unit", unit=pick, field="casualties", value="1", reason="later play")
    before = (service.get_game(db, wavre.id).version, service.get_game(db, waterloo.id).version)
    with pytest.raises(service.BadInput, match="Waterloo has acted on it since"):
        undo(db, wavre.id)
    assert (service.get_game(db, wavre.id).version, service.get_game(db, waterloo.id).version) == before
    assert service.get_game(db, waterloo.id).state["units"][pick]["disordered"] is True
    # Undone at Waterloo instead (its later action first), the choice is open again.
    undo(db, waterloo.id)
    undo(db, waterloo.id)
    assert service.get_game(db, waterloo.id).state["units"][pick]["disordered"] is False
    assert links(db, c.id)["breakthroughs"][0]["status"] == "pending"
    assert game_log.log(db, wavre.id)[0].undone  # Wavre's record of it goes with it


def test_a_link_is_undone_at_its_table_not_from_the_campaign_log(db):
    c, games = start(db)
    qb = by_title(games, "Quatre")
    act(db, qb.id, "arrive", reserve=i_corps(db, qb.id)["id"], early=True)
    c = tc.get_campaign(db, c.id)
    with pytest.raises(service.BadInput, match="undo it there"):
        tc.undo(db, c.id, c.version)


def test_a_day_on_two_tables_round_trips_as_one_file_and_its_links_follow_the_copy(db):
    from referee.table import campaign_file
    c, games = start(db)
    qb = by_title(games, "Quatre")
    act(db, qb.id, "arrive", reserve=i_corps(db, qb.id)["id"], early=True)
    undo(db, qb.id)
    first = campaign_file.export_campaign(db, c.id)
    copy_ = campaign_file.import_campaign(db, first.encode())
    assert campaign_file.export_campaign(db, copy_.id) == first
    doc = tc.get_campaign(db, copy_.id).state
    new_qb, new_ligny = doc["battles"]["quatre-bras"]["game_id"], doc["battles"]["ligny"]["game_id"]
    mark = service.get_game(db, new_ligny).state["campaign_link"]
    assert (mark["campaign_id"], mark["battle"], mark["watch"]["i_corps"]) == (copy_.id, "ligny", "I Corps")
    act(db, new_qb, "arrive", reserve=i_corps(db, new_qb)["id"], early=True)
    assert i_corps(db, new_ligny) is None and links(db, copy_.id)["i_corps"]["at"] == "quatre-bras"
    assert i_corps(db, by_title(games, "Ligny").id)["status"] == "waiting"  # the original is untouched
    assert links(db, c.id)["i_corps"]["at"] is None
