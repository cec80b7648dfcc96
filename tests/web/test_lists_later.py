"""A long pick list in a group that shows folded is drawn only when the group is opened
(``forms.list_later``, the route ``games.choices``): a combat round on a Waterloo day lists no
supporter until its umpire opens the supports, then the list comes with the form's facts so far.
A list holding a pick, or in an open group, is drawn with the form; without JavaScript the form
is sent back drawn with the opened group's lists."""
from __future__ import annotations

import re

import pytest
from _web_helpers import HTMX

from referee.blackpowder.model import Battle
from referee.core.board import Choice, FieldView
from referee.data.scenarios import new_battle_from_scenario
from referee.table import service
from referee.web import forms


@pytest.fixture
def fight(db):
    """The Battle of Waterloo (298 units) in the Hand-to-Hand phase with one combat open."""
    doc = new_battle_from_scenario("waterloo")
    battle = Battle.from_doc(doc)
    blue = next(u.id for u in battle.units.values() if u.side == "blue" and u.in_play and not u.awaiting)
    red = next(u.id for u in battle.units.values() if u.side == "red" and u.in_play and not u.awaiting)
    units = {**doc["units"], blue: {**doc["units"][blue], "in_combat": True},
             red: {**doc["units"][red], "in_combat": True}}
    doc = {**doc, "units": units, "phase": "hand_to_hand", "active_side": "blue",
           "combats": {"c1": {"id": "c1", "status": "open", "attackers": [blue], "defenders": [red], "round": 1}}}
    game = service.create_game(db, "Waterloo", "blackpowder", doc, seed=3)
    free_blue = [u.id for u in Battle.from_doc(doc).units.values()
                 if u.side == "blue" and u.in_play and u.id != blue]
    return game.id, blue, red, free_blue


def _values(html: str, name: str) -> list[str]:
    return re.findall(rf'name="{name}" value="([^"]*)"', html)


def _group(html: str, title: str) -> str:
    """A folded group of the form, to the next group (a long pick list has folds of its own inside)."""
    start = html.index(f"<summary>{title}</summary>")
    after = html.find('<details class="group"', start)
    return html[html.rindex("<details", 0, start):after if after != -1 else len(html)]


def test_a_combats_supporters_are_listed_as_their_group_opens(client, fight):
    game_id, blue, red, free_blue = fight
    form = client.get(f"/games/{game_id}/act/combat_round?combat=c1", headers=HTMX).get_data(as_text=True)
    assert len(form) < 40_000  # not some 320 kB of chips nobody opens in most fights
    supports = _group(form, "Chargers&#39;" " supports")
    assert "<details class=\"group\">" in supports  # folded: nothing picked in it
    assert _values(supports, "attacker_rear_support") == []
    assert f'hx-get="/games/{game_id}/act/combat_round/choices?_list=attacker_rear_support"' in supports
    assert 'hx-trigger="toggle once from:closest details"' in supports
    assert f"Show the {len(free_blue)} to pick from" in supports
    # The fighting units' own lists are short and drawn at once.
    assert sorted(_values(form, "attackers_strike")) == sorted(["", blue, red])

    # As the group opens, htmx asks for the list with the form's facts so far.
    listed = client.get(f"/games/{game_id}/act/combat_round/choices?_list=attacker_rear_support&combat=c1"
                        f"&attacker_left_support={free_blue[3]}", headers=HTMX)
    assert listed.status_code == 200
    chips = listed.get_data(as_text=True)
    assert _values(chips, "attacker_rear_support") == free_blue and blue not in chips
    assert 'checked' not in chips
    again = client.get(f"/games/{game_id}/act/combat_round/choices?_list=attacker_rear_support&combat=c1"
                       f"&attacker_rear_support={free_blue[1]}", headers=HTMX).get_data(as_text=True)
    assert re.findall(r'value="([^"]+)" checked', again) == [free_blue[1]]


def test_a_group_holding_a_pick_is_drawn_open_with_its_lists(client, fight):
    game_id, _blue, _red, free_blue = fight
    form = client.get(f"/games/{game_id}/act/combat_round?combat=c1&attacker_rear_support={free_blue[0]}",
                      headers=HTMX).get_data(as_text=True)
    supports = _group(form, "Chargers&#39; supports")
    assert "<details class=\"group\" open>" in supports
    assert _values(supports, "attacker_left_support") == free_blue
    assert re.findall(r'value="([^"]+)" checked', supports) == [free_blue[0]]
    assert "_list=" not in supports
    assert "_list=defender_rear_support" in form  # the other side's group is still folded


def test_without_javascript_the_form_comes_back_with_the_opened_groups_lists(client, fight):
    game_id, _blue, _red, free_blue = fight
    page = client.post(f"/games/{game_id}/act/combat_round/choices",
                       data={"combat": "c1", "version": "1", "_open": "Chargers' supports",
                             "faces_engaged": "2"})
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    supports = _group(html, "Chargers&#39; supports")
    assert "<details class=\"group\" open>" in supports
    assert _values(supports, "attacker_rear_support") == free_blue
    assert 'name="faces_engaged"' in html and 'value="2"' in html  # what was chosen is kept
    assert "_list=defender_rear_support" in html


def test_a_list_the_form_does_not_have_is_not_found(client, fight):
    game_id = fight[0]
    for name in ("nothing_like_it", "faces_engaged", ""):
        r = client.get(f"/games/{game_id}/act/combat_round/choices?_list={name}&combat=c1", headers=HTMX)
        assert r.status_code == 404
    assert client.get(f"/games/{game_id}/act/no_such_action/choices?_list=x", headers=HTMX).status_code == 404


def _field(name: str, group: str, n: int, value=None, multiple=True, **kw) -> FieldView:
    return FieldView(name=name, title=name, kind="ref", required=False, group=group, ref="unit",
                     multiple=multiple, default=[] if multiple else None,
                     value=value if value is not None else ([] if multiple else ""),
                     choices=[Choice(f"u{i}", f"Unit {i}") for i in range(n)], **kw)


def test_which_lists_wait_for_their_group():
    many = forms.LIST_LATER_ABOVE + 1
    grouped = forms.groups([
        _field("top", "", many),                                 # not in a named group: drawn
        _field("long", "Supports", many),                        # folded and long: later
        _field("short", "Supports", forms.LIST_LATER_ABOVE),     # folded but short: drawn
        _field("picked", "Picked", many, value=["u2"]),          # holds a pick: its group opens
        _field("asked", "Asked", many, ask=True),                 # asked every time: open
        _field("opened", "Opened", many),                         # the group asked to open
    ])
    folded = forms.list_later(grouped, opened="Opened")
    assert folded == {"Supports"}
    later = {f.name for _, fields in grouped for f in fields if f.later}
    assert later == {"long"}
