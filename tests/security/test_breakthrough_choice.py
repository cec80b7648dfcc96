"""A day on two tables on a club server: the choice a breakthrough at Wavre puts on Waterloo is the
Coalition's. A player seated at Waterloo as the Coalition's side makes it; the French player
seated there, or a signed-in member with no seat at that table, is refused and nothing changes."""
from __future__ import annotations

from pathlib import Path

import yaml
from _security_helpers import PASSWORD, db, fingerprint, log_in

from referee.campaigns.hundred_days_links import candidates
from referee.core.dice import ScriptedDice
from referee.table import accounts, roles, service
from referee.table import campaign_day as cd
from referee.table import campaign_games as cg
from referee.table import campaigns as tc

ROOT = Path(__file__).resolve().parents[2]


def _act(s, game_id, action, dice=None, **facts):
    return service.perform(s, game_id, service.get_game(s, game_id).version, action, facts, dice=dice)


def _wavre_breaks_through(app) -> dict:
    """18 June side by side, both tables at turn 2, a Prussian unit at Wavre shaken in a fight."""
    with db(app) as s:
        for name in ("Cleo", "Dora"):
            accounts.register(s, name, PASSWORD)
        plan = yaml.safe_load((ROOT / "scenarios" / "campaigns" / "hundred-days.yaml").read_text(encoding="utf-8"))
        plan["days"] = plan["days"][::-1]  # 18 June first
        c = cg.new_hundred_days(s, "Event", "Bob", "Cleo", plan=plan, owner="Ann", seed=5)
        games = cd.start_day(s, c.id, c.version, who="Ann")
        ids = {("wavre" if "Wavre" in g.name else "waterloo"): g.id for g in games}
        for gid in (ids["waterloo"], ids["wavre"]):  # Wavre begins once Waterloo is at turn 2
            for _ in range(6):
                _act(s, gid, "next_phase")
        wavre = service.get_game(s, ids["wavre"]).state
        prussian = next(u for u in wavre["units"].values() if u["side"] == "red" and u.get("status", "in_play") != "reserve"
                        and not u.get("destroyed"))
        _act(s, ids["wavre"], "adjust_unit", unit=prussian["id"], field="in_combat", value="yes")
        _act(s, ids["wavre"], "take_hits", dice=ScriptedDice([1] * 12), unit=prussian["id"],
             hits=prussian["stamina"], source="hand_to_hand", break_test_if_needed=False)
        waterloo = service.get_game(s, ids["waterloo"])
        codes = roles.join_codes(s, waterloo)
        campaign = tc.get_campaign(s, c.id)
        bt = campaign.state["links"]["breakthroughs"][0]
        pick = candidates(waterloo.state, "II Corps")[0]
        return {"campaign": c.id, "waterloo": waterloo.id, "codes": codes, "breakthrough": bt["id"],
                "unit": pick["unit"]}


def _seated(app, name: str, code: str):
    client = log_in(app.test_client(), name)
    assert client.post("/join", data={"code": code}).status_code == 303
    return client


def _choose(app, client, day):
    with db(app) as s:
        version = tc.get_campaign(s, day["campaign"]).version
    return client.post(f"/campaigns/{day['campaign']}/choose/{day['breakthrough']}",
                       data={"version": version, "unit": day["unit"]})


def test_only_the_coalition_at_waterloo_answers_a_breakthrough(club_app):
    day = _wavre_breaks_through(club_app)
    french_side = next(role for role in day["codes"] if role not in (roles.UMPIRE, roles.SPECTATOR, "red"))
    refused = (_seated(club_app, "Bob", day["codes"][french_side]), log_in(club_app.test_client(), "Dora"),
               club_app.test_client())
    before = fingerprint(club_app)
    for client in refused:
        r = _choose(club_app, client, day)
        assert r.status_code == 403, r.get_data(as_text=True)[:300]
    assert fingerprint(club_app) == before
    coalition = _seated(club_app, "Dora", day["codes"]["red"])
    r = _choose(club_app, coalition, day)
    assert r.status_code == 303, r.get_data(as_text=True)[:300]
    with db(club_app) as s:
        assert service.get_game(s, day["waterloo"]).state["units"][day["unit"]]["disordered"] is True
