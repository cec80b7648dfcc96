"""The Of Oil and Iron board draws what the engine offers (``GAME.offers``): a Rig's own panel lists
what is not open to it now with the engine's reason, and the round bar shows only the steps open."""
from __future__ import annotations

from _web_helpers import HTMX, text, typed_iron_clash


def test_the_rig_panel_says_why_each_action_is_not_open_now(client, db, app):
    table = typed_iron_clash(db, app)
    panel = text(client.get(f"/games/{table.id}/rigs/p1-1", headers=HTMX))
    assert "Not open to Scout now" in panel
    assert "Activate : Rigs are activated in the Activation phase." in panel
    assert "Use Extinguisher : Extinguisher is used as part of the Heat Threshold roll." in panel


def test_the_round_bar_offers_only_what_is_open(client, db, app):
    table = typed_iron_clash(db, app)
    page = client.get(f"/games/{table.id}").get_data(as_text=True)
    assert "Roll for initiative" in page and "End the round" not in page and "Place the supply drop" not in page
