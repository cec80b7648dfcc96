"""The Of Oil and Iron board draws what the engine offers (``GAME.offers``): a Rig's own panel lists
what is not open to it now with the engine's reason, and the round bar shows only the steps open."""
from __future__ import annotations

from _web_helpers import HTMX, Table, text

from referee.data.starts import EXAMPLE_SQUADRONS, build_engagement
from referee.table import service


def _engagement(db, app) -> Table:
    form = {"name": "", "engagement": "iron_clash", "aggressor": "p1", "p1-name": "Anna", "p2-name": "Ben"}
    for side, rigs in EXAMPLE_SQUADRONS.items():
        form[f"{side}-n"] = str(len(rigs))
        for i, r in enumerate(rigs):
            key = f"{side}-r{i}"
            form.update({f"{key}-name": r["name"], f"{key}-chassis": r["chassis"], f"{key}-engine": r["engine"]})
            for s, w in enumerate(r["weapons"]):
                form[f"{key}-w{s}"] = w
            form[f"{key}-equipment"] = list(r["equipment"])
    doc = build_engagement(form, {side: len(rigs) for side, rigs in EXAMPLE_SQUADRONS.items()})
    doc["dice_mode"] = "typed"
    game = service.create_game(db, doc["name"], "oilandiron", doc, seed=3)
    return Table(app, game.id)


def test_the_rig_panel_says_why_each_action_is_not_open_now(client, db, app):
    table = _engagement(db, app)
    panel = text(client.get(f"/games/{table.id}/rigs/p1-1", headers=HTMX))
    assert "Not open to Scout now" in panel
    assert "Activate : Rigs are activated in the Activation phase." in panel
    assert "Use Extinguisher : Extinguisher is used as part of the Heat Threshold roll." in panel


def test_the_round_bar_offers_only_what_is_open(client, db, app):
    table = _engagement(db, app)
    page = client.get(f"/games/{table.id}").get_data(as_text=True)
    assert "Roll for initiative" in page and "End the round" not in page and "Place the supply drop" not in page
