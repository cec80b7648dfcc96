"""A brigade's strip on the board says what the engine holds: each unit's state in the board's
order, and how many lost units break it, the same count the start-of-turn check breaks it at."""
from __future__ import annotations

import re

import pytest
from _web_helpers import Table

from referee.blackpowder.brigades import brigade_should_break
from referee.blackpowder.model import Battle
from referee.data.scenarios import new_battle_from_scenario
from referee.table import service
from referee.web.pictures import brigade_strip

STRIP = re.compile(r'<summary class="fold-line" id="brigade-line-([\w-]+)".*?'
                   r'<svg[^>]*class="picture brigade-strip"[^>]*aria-label="([^"]*)"(.*?)</svg>', re.S)


def strips(html: str) -> dict[str, tuple[str, str]]:
    """brigade id -> (the picture's label, the letters of its boxes in order)."""
    return {bid: (label, "".join(re.findall(r'<text x="[\d.]+" y="14"[^>]*>([FDSLR])</text>', body)))
            for bid, label, body in STRIP.findall(html)}


@pytest.fixture
def battered(db) -> int:
    doc = new_battle_from_scenario("demo")
    units = doc["units"]
    units["82nd-ligne"]["casualties"] = 3        # shaken: its Stamina is 3
    units["12th-leger"]["disordered"] = True
    units["4th-ligne"]["destroyed"] = True
    units["9th-chasseurs-a-cheval"]["awaiting"] = True
    return service.create_game(db, "Battered", "blackpowder", doc, seed=1).id


def test_each_brigade_strip_shows_its_units_states_and_break_point_as_the_engine_counts(app, client, battered):
    drawn = strips(client.get(f"/games/{battered}").get_data(as_text=True))
    state = Table(app, battered).state
    battle = Battle.from_doc(state)
    assert set(drawn) == set(state["brigades"])
    for bid, (label, letters) in drawn.items():
        units = battle.units_of_brigade(bid)
        want = "".join("R" if u.awaiting else "L" if u.destroyed or u.off_table else "S" if u.shaken
                       else "D" if u.disordered else "F" for u in units)
        assert letters == want, bid
        arrived = [u for u in units if not u.awaiting]
        lost = sum(1 for u in arrived if u.destroyed or u.off_table or u.shaken)
        at = int(re.search(r"of the (\d+) lost units that break it", label).group(1))
        # The picture's break point is the engine's: at it the brigade breaks, one short it holds.
        assert (lost >= at) == brigade_should_break(battle, bid)
        assert f"{lost} of the {at} lost units" in label
    label, letters = drawn["blue-7th-division"]
    assert letters == "FSDLF"
    assert "5 units, 2 fresh, 1 disordered, 1 shaken, 1 lost; 2 of the 3 lost units that break it, 1 more breaks it." in label
    assert drawn["blue-domons-light-cavalry"][1] == "FR"


def test_a_broken_brigade_says_so_in_words():
    svg = str(brigade_strip("3rd Brigade", {"strip": "LLSF", "break_at": 2}, broken=True))
    assert 'aria-label="3rd Brigade: 4 units, 1 fresh, 1 shaken, 2 lost; broken."' in svg
    assert ">broken</text>" in svg
