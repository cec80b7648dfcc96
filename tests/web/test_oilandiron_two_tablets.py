"""Two tablets in one Of Oil and Iron engagement, both drawn at the same version (the game's
footprints, ``referee/oilandiron/footprint.py``): acting on different Rigs both land, in the order
they came; on the same Rig the later one is refused with the Rig's name, and nothing of it is
recorded."""
from __future__ import annotations

from _web_helpers import text
from test_oilandiron_routes import activation, ooi, post  # noqa: F401  (the fixture)


def test_two_tablets_acting_on_different_rigs_both_land(client, ooi):  # noqa: F811
    activation(client, ooi, "p1-1")
    seen = ooi.version
    # The active Rig's player spends an action; the umpire, from the same screen, sets another Rig's heat.
    first = post(client, ooi, "move", rig="p1-1", version=seen)
    assert first.status_code == 200, text(first)
    second = post(client, ooi, "adjust_rig", rig="p2-2", field="heat", value="3", version=seen)
    assert second.status_code == 200, text(second)
    assert ooi.state["rigs"]["p2-2"]["heat"] == 3 and ooi.version == seen + 2
    assert [e.action for e in ooi.log()][:2] == ["adjust_rig", "move"]


def test_two_tablets_on_the_same_rig_the_later_is_refused_with_the_rig_named(client, ooi):  # noqa: F811
    activation(client, ooi, "p1-1")
    seen, entries = ooi.version, len(ooi.log())
    assert post(client, ooi, "move", rig="p1-1", version=seen).status_code == 200
    state = ooi.state
    late = post(client, ooi, "adjust_rig", rig="p1-1", field="heat", value="4", version=seen)
    assert late.status_code == 409
    assert "Another tablet changed Scout first" in text(late)
    assert ooi.state == state and len(ooi.log()) == entries + 1
