"""An engagement's score by round says the engine's standing at every round's end, the board
replayed to it through the engine."""
from __future__ import annotations

import html as htmllib
import re

from _web_helpers import Table, start_form

from referee.data.starts import EXAMPLE_SQUADRONS, build_engagement
from referee.oilandiron.engagements import standing
from referee.oilandiron.model import Engagement
from referee.systems.replay import initial_state, replay
from referee.table import service


def act(db, table: Table, action: str, **facts):
    db.expire_all()
    return service.perform(db, table.id, table.version, action, facts)


def play_round(db, table: Table) -> None:
    act(db, table, "initiative")
    while table.state["phase"] == "activation":
        state = table.state
        rid = next(r for r, d in state["rigs"].items() if not d["destroyed"] and not d["activated"]
                   and d["player"] == state["current_player"])
        act(db, table, "activate", rig=rid)
        act(db, table, "end_activation")
    act(db, table, "end_round")


def test_the_score_by_round_is_the_standing_at_each_rounds_end(app, client, db):
    doc = build_engagement(start_form(), {s: len(r) for s, r in EXAMPLE_SQUADRONS.items()})
    table = Table(app, service.create_game(db, doc["name"], "oilandiron", doc, seed=5).id)
    act(db, table, "adjust_score", player="p1", vp=2, reason="an objective held")
    play_round(db, table)
    if not table.state["ended"]:
        act(db, table, "adjust_score", player="p2", vp=3, reason="a Rig wrecked")
    page = htmllib.unescape(client.get(f"/games/{table.id}/story").get_data(as_text=True))
    label = re.search(r'<svg[^>]*class="picture score-by-round"[^>]*aria-label="([^"]*)"', page).group(1)
    entries = [{"action": e.action, "facts": e.facts, "dice": e.dice, "changes": e.changes}
               for e in reversed(table.log()) if not e.undone]
    ends, now = {}, initial_state(table.state, entries)
    for e in entries:
        after = replay("oilandiron", now, [e])
        if after["round"] != now["round"]:
            ends[now["round"]] = now
        now = after
    ends[now["round"]] = now
    names = {pid: p["name"] for pid, p in table.state["players"].items()}
    for rnd, state in ends.items():
        vp = standing(Engagement.from_doc(state), final=bool(state.get("ended")))["vp"]
        for pid, name in names.items():
            assert re.search(rf"{re.escape(name)}: [^;]*round {rnd} {vp[pid]} VP", label), (rnd, pid, label)
    assert re.search(rf"{names['p1']}: round 1 2 VP", label)
    assert "Victory points at each round's end" in page  # the table a tap away
