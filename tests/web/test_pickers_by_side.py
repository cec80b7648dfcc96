"""Pick lists offer the acting side's units for who acts (chargers, shooter, units ordered) and the
enemy first for a target, before anyone is aimed; on a seated player's tablet the acting side is
the seat's (tests/security covers the seat; here the umpire's, on the side to play)."""
from __future__ import annotations

import re

from referee.data.scenarios import new_battle_from_scenario

HTMX = {"HX-Request": "true"}
FRENCH, PRUSSIAN = "11th-leger", "1-7th-musketeers"


def field_values(body: str, field: str) -> list[str]:
    """The values a field's chips offer, in the order drawn."""
    start = body.index(f'id="f-{field}"')
    end = body.find("</fieldset>", start)
    return re.findall(rf'name="{field}" value="([^"]+)"', body[start:end])


def french_and_prussian(doc: dict) -> tuple[set, set]:
    return ({u for u, r in doc["units"].items() if r["side"] == "blue"},
            {u for u, r in doc["units"].items() if r["side"] == "red"})


def test_the_charge_form_offers_french_chargers_and_prussian_targets_first(client, table):
    french, prussian = french_and_prussian(new_battle_from_scenario("demo"))
    body = client.get(f"/games/{table.id}/act/charge", headers=HTMX).get_data(as_text=True)
    chargers, targets = field_values(body, "chargers"), field_values(body, "target")
    assert chargers and set(chargers) <= french
    assert targets[:len(prussian)] and set(targets[:len(prussian)]) == prussian  # the enemy first, all of it
    assert set(targets[len(prussian):]) <= french


def test_a_shot_offers_the_side_to_play_as_shooters(client, table):
    french, _ = french_and_prussian(new_battle_from_scenario("demo"))
    body = client.get(f"/games/{table.id}/act/shoot", headers=HTMX).get_data(as_text=True)
    assert set(field_values(body, "shooter")) <= french


def test_a_unit_already_picked_stays_listed(client, table):
    body = client.get(f"/games/{table.id}/act/shoot?shooter={PRUSSIAN}", headers=HTMX).get_data(as_text=True)
    assert PRUSSIAN in field_values(body, "shooter")
    # Aimed by a Prussian unit, the target list has the French first.
    french, _ = french_and_prussian(new_battle_from_scenario("demo"))
    assert field_values(body, "target")[0] in french
