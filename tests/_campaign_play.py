"""Playing a campaign's games through the table service, as the tablets do: one helper for the
campaign tests and the campaign e2e tests alike (the e2e tests' games are played from a second
"tablet" this way, so they are about the campaign's own screens)."""
from __future__ import annotations

import copy
from pathlib import Path

import yaml

from referee.lists import example_lists
from referee.systems import system_for
from referee.table import campaign_games as cg
from referee.table import service

ROOT = Path(__file__).resolve().parents[1]


def sword(name: str):
    return example_lists()["example-sword-squadron"].model_copy(update={"name": name})


def new_oi_campaign(db, **kw):
    tables = yaml.safe_load((ROOT / "scenarios" / "campaigns" / "oilandiron-example-tables.yaml").read_text())
    return cg.new_oilandiron(db, "Oil Night", {"p1": ("Anna", sword("Anna's Sword")), "p2": ("Ben", sword("Ben's Sword"))},
                             copy.deepcopy(tables), seed=11, **kw)


def act(db, game_id: int, action: str, **facts):
    """One action on the game as it stands now (read afresh: another tablet may have written)."""
    db.expire_all()
    game = service.get_game(db, game_id)
    return service.perform(db, game_id, game.version, action, facts)


def wreck_and_finish(db, game_id, doomed=("p2-r1", "p2-r2", "p2-r3"), hurt=None):
    """The umpire marks ``doomed`` Rigs destroyed and ``hurt`` {rig: {location: SP}}; then the round is
    played out (initiative, each standing Rig activates, the round scored if the engagement scores
    each round, the round ends) so the engagement ends, whichever engagement was rolled."""
    state = service.get_game(db, game_id).state
    for rid, locs in (hurt or {}).items():
        for loc, sp in locs.items():
            act(db, game_id, "adjust_rig", rig=rid, field="structure", location=loc, value=str(sp),
                reason="a hit from the table")
    for rid in doomed:
        if rid in state["rigs"]:
            act(db, game_id, "adjust_rig", rig=rid, field="destroyed", value="yes", reason="wrecked")
    act(db, game_id, "initiative")
    for _ in range(12):
        state = service.get_game(db, game_id).state
        if state["phase"] != "activation":
            break
        rid = next(r for r, d in state["rigs"].items() if not d["destroyed"] and not d["activated"]
                   and d["player"] == state["current_player"])
        act(db, game_id, "activate", rig=rid)
        act(db, game_id, "end_activation")
    # An engagement fought over objectives (its type is rolled when it is planned) scores the
    # round before it ends: nobody is near an objective.
    state = service.get_game(db, game_id).state
    if "score_round" in {o.action for o in system_for(state["system"]).offers(state, "") if o.allowed}:
        act(db, game_id, "score_round", rigs_near_objectives=[])
    act(db, game_id, "end_round")
    assert service.get_game(db, game_id).state["ended"]
