"""No dead link and no missing entry: every rule name the engines put in a result, every special
rule of the army lists, every commander rule, perk, equipment card, engagement, heat-table row,
Rig status and game setting resolves to an entry of the reference."""
from __future__ import annotations

import dataclasses

import pytest

from referee.blackpowder.model import Settings as BlackPowderSettings
from referee.blackpowder.special_rules import COMMANDER_RULES, TAGS, UNIT_RULES
from referee.oilandiron.heat import HEAT_TABLE
from referee.oilandiron.model import STATUS_LABELS
from referee.oilandiron.model import Settings as OilAndIronSettings
from referee.reference.engine_names import PLACEHOLDER, is_wrapper, modifier_rule_names

ENGINE_NAMES = modifier_rule_names()


def _named(game):
    return [(name, where) for name, where in ENGINE_NAMES[game] if not is_wrapper(name)]


def test_the_source_scan_finds_the_engines_modifiers():
    # The scan is a test of its own: it must see the modifiers it is meant to check.
    assert len(_named("blackpowder")) >= 40 and len(_named("oilandiron")) >= 25
    names = {n for n, _ in _named("blackpowder")}
    assert {"Close range or closing fire", "Rear support", "Excess casualties"} <= names


@pytest.mark.parametrize("game", ["blackpowder", "oilandiron"])
def test_every_modifier_an_engine_can_name_has_an_entry(ref, game):
    missing = [f"{name!r} ({where})" for name, where in _named(game) if ref.rule_entry(name, game) is None]
    assert missing == []


@pytest.mark.parametrize("name, applies_to, entry", [
    ("Attackers: Rear support", "combat result", "supports"),
    ("2nd Line: Shaken", "combat dice", "shaken"),
    ("Defenders: Heavy Cavalry (Scots Greys, D3 rolled 5)", "combat result", "heavy-cavalry"),
    ("Wellington fights with the unit", "attacks", "commanders-in-combat"),
    ("Attack Column", "staff rating", "command-modifiers"),
    ("Attack Column", "save", "save-modifiers"),
    ("Disordered", "break test", "break-test-modifiers"),
    ("Disordered", "combat dice", "disorder"),
    ("Distance from commander (2 × full 12\")", "staff rating", "command-modifiers"),
    ("Inspirational (Picton within 12\")", "break test", "commander-nearby"),
])
def test_names_built_around_a_rule_lead_to_it(ref, name, applies_to, entry):
    assert ref.rule_entry(name, "blackpowder", applies_to).id == entry


def test_wrapped_names_are_only_wrappers():
    wrappers = [w for n, w in ENGINE_NAMES["blackpowder"] if is_wrapper(n)]
    assert all(PLACEHOLDER in n for n, _ in ENGINE_NAMES["blackpowder"] if is_wrapper(n))
    assert len(wrappers) <= 4  # "Side: Unit: rule" wrappers in combat; checked by example above


@pytest.mark.parametrize("name, entry", [
    ("heat 3 over threshold 6", "heat-threshold"), ("Autocannon ACC", "to-hit"),
    ("Hull catastrophic (−1 Aim)", "hull-catastrophic"), ("Side arc", "impact"),
])
def test_oil_and_iron_names_with_numbers_lead_to_their_entry(ref, name, entry):
    assert ref.rule_entry(name, "oilandiron").id == entry


def test_every_special_rule_in_the_army_lists_has_an_entry(ref):
    from referee.data.blackpowder import load_commanders, load_nations, load_unit_profiles
    rules = {r for p in load_unit_profiles().values() for r in p.special_rules}
    rules |= {r for c in load_commanders().values() for r in c.rules}
    rules |= {r for n in load_nations().values() for r in n.commander_rules}
    assert len(rules) > 25
    missing = sorted(r for r in rules if ref.rule_entry(r, "blackpowder") is None)
    assert missing == []
    assert ref.rule_entry("Elite 4+", "blackpowder").id == "elite"
    assert ref.rule_entry("Heavy Cavalry D3", "blackpowder").id == "heavy-cavalry"
    assert ref.rule_entry("Must Form Square", "blackpowder").id == "form-square"


def test_every_rule_of_the_catalogue_has_an_entry(ref):
    catalogue = {**UNIT_RULES, **COMMANDER_RULES, **TAGS}
    assert [n for n in catalogue if ref.rule_entry(n, "blackpowder") is None] == []
    # The entry's text is the catalogue's, so the unit card and the reference say the same.
    assert catalogue["Wavering"].description in ref.entry("blackpowder", "wavering").text


def test_every_perk_and_perk_line_has_an_entry(ref):
    from referee.data.oilandiron import load_perks
    perks = load_perks()
    for p in perks.values():
        line = f"{p.name} 3" if p.x else p.name
        assert ref.rule_entry(line, "oilandiron").title.startswith(p.name), line
        assert p.description in ref.rule_entry(p.name, "oilandiron").text


def test_every_equipment_card_has_an_entry(ref):
    from referee.data.oilandiron import load_equipment
    cards = load_equipment().values()
    assert [c.name for c in cards if ref.rule_entry(c.name, "oilandiron") is None] == []
    for c in cards:
        assert c.effect in ref.rule_entry(c.name, "oilandiron").text


def test_every_engagement_has_an_entry(ref):
    from referee.data.oilandiron import load_engagements
    engagements = load_engagements().engagements
    assert len(engagements) == 12
    assert [e.name for e in engagements if ref.rule_entry(e.name, "oilandiron") is None] == []


def test_every_heat_table_row_and_rig_status_has_an_entry(ref):
    rows = HEAT_TABLE
    assert [label for _, _, label in rows if ref.rule_entry(label, "oilandiron") is None] == []
    statuses = STATUS_LABELS
    assert [s for s in statuses.values() if ref.rule_entry(s, "oilandiron") is None] == []


def test_every_scenario_has_an_entry(ref):
    from referee.data.scenarios import list_scenarios
    assert [s.title for s in list_scenarios("blackpowder") if ref.rule_entry(s.title, "blackpowder") is None] == []


@pytest.mark.parametrize("game", ["blackpowder", "oilandiron"])
def test_every_setting_names_the_entry_it_changes(ref, game):
    settings = {"blackpowder": BlackPowderSettings, "oilandiron": OilAndIronSettings}[game]
    names = [f.name for f in dataclasses.fields(settings)]
    assert len(names) >= 7
    missing = [n for n in names if ref.setting_entry(game, n) is None]
    assert missing == []
    # ...and every setting an entry names is one the game has.
    named = {s for e in ref.books[game].entries.values() for s in e.settings}
    assert named - set(names) == set()
