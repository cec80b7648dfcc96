"""The umpire's corrections and the rule settings."""
import pytest
from _oi_helpers import make_doc, rig, run

from referee.oilandiron.model import RuleError


def test_set_structure_of_one_location():
    _, after = run("adjust_rig", make_doc(), rig="t", field="structure", location="legs", value="2", reason="missed hit")
    assert rig(after, "t").structure["legs"] == 2


def test_structure_cannot_exceed_the_start():
    with pytest.raises(RuleError, match="between 0 and 4"):
        run("adjust_rig", make_doc(), rig="t", field="structure", location="legs", value="9")


def test_set_heat_and_status():
    _, after = run("adjust_rig", make_doc(), rig="a", field="heat", value="8")
    _, after = run("adjust_rig", after, rig="a", field="status", status="shock", value="on")
    assert rig(after, "a").heat == 8 and rig(after, "a").status == {"shock": "next_activation"}
    _, after = run("adjust_rig", after, rig="a", field="status", status="shock", value="off")
    assert rig(after, "a").status == {}


def test_set_weapon_and_equipment_state():
    from _oi_helpers import rig_spec
    doc = make_doc(p1=[rig_spec("a", equipment=["thermal_sights"])])
    _, after = run("adjust_rig", doc, rig="a", field="weapon_loaded", weapon="gun", value="no")
    _, after = run("adjust_rig", after, rig="a", field="equipment_discarded", equipment="thermal_sights", value="yes")
    a = rig(after, "a")
    assert not a.weapons["gun"].loaded and a.equipment["thermal_sights"].discarded


def test_same_value_is_refused():
    with pytest.raises(RuleError, match="already"):
        run("adjust_rig", make_doc(), rig="a", field="heat", value="0")


def test_set_vp_and_objective():
    doc = make_doc(objectives={"o": {"name": "Pump", "structure": 5, "direct": 10, "severe": 14, "critical": 16}})
    _, after = run("adjust_score", doc, player="p2", vp=4)
    _, after = run("adjust_objective", after, objective="o", structure=2)
    assert after["players"]["p2"]["vp"] == 4 and after["objectives"]["o"]["structure"] == 2


def test_change_a_rule_setting():
    _, after = run("change_setting", make_doc(), name="exhaust_when", value="activation")
    assert after["settings"]["exhaust_when"] == "activation"
    with pytest.raises(ValueError, match="one of"):
        run("change_setting", make_doc(), name="exhaust_when", value="never")


def test_set_prepare_tokens():
    _, after = run("adjust_rig", make_doc(), rig="a", field="prepare_tokens", value="Brace, Evade")
    assert rig(after, "a").prepare_tokens == ("Brace", "Evade")
    _, after = run("adjust_rig", after, rig="a", field="prepare_tokens", value="none")
    assert rig(after, "a").prepare_tokens == ()
