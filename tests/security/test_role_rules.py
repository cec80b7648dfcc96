"""Which side an action acts for, read from each game's own catalogue (no action named in the
roles code): the first required fact marked {"ref": "unit"} or {"ref": "rig"}, else a side or
player fact, else nobody's side (the umpire's)."""
from __future__ import annotations

import pytest

from referee.data.scenarios import new_battle_from_scenario
from referee.lists import example_lists
from referee.lists.games import game_from_lists
from referee.systems import system_for
from referee.table import roles
from referee.table.models import Game

BATTLE = Game(id=1, name="Demo", system="blackpowder", state=new_battle_from_scenario("demo"))
_sword = example_lists()["example-sword-squadron"]
ENGAGEMENT = Game(id=2, name="Skirmish", system="oilandiron", state=game_from_lists("S", _sword, _sword))


def _acting_field(system: str, action: str) -> str | None:
    spec = system_for(system).action(action)
    for name, field in spec.facts.model_fields.items():
        extra = field.json_schema_extra if isinstance(field.json_schema_extra, dict) else {}
        if extra.get("ref") in ("unit", "rig") and field.is_required():
            return name
    return None


def test_every_action_of_both_games_is_someones():
    """Each action either names who acts or is the umpire's; corrections are always the umpire's."""
    seen = {}
    for game in (BATTLE, ENGAGEMENT):
        for action in system_for(game.system).actions:
            seen[(game.system, action)] = _acting_field(game.system, action)
    assert seen[("blackpowder", "shoot")] == "shooter"
    assert seen[("blackpowder", "charge")] == "chargers"
    assert seen[("blackpowder", "order")] == "units"
    assert seen[("oilandiron", "fire_weapon")] == "rig"
    assert seen[("blackpowder", "next_phase")] is None and seen[("oilandiron", "end_round")] is None


@pytest.mark.parametrize("game,action,facts,side,allowed", [
    (BATTLE, "shoot", {"shooter": "11th-leger", "target": "1-7th-musketeers"}, "blue", True),
    (BATTLE, "shoot", {"shooter": "11th-leger", "target": "1-7th-musketeers"}, "red", False),
    (BATTLE, "order", {"units": ["11th-leger", "1-7th-musketeers"]}, "blue", False),  # one is Red's
    (BATTLE, "commander_gifts", {"side": "red"}, "red", True),
    (BATTLE, "commander_gifts", {"side": "red"}, "blue", False),
    (BATTLE, "adjust_unit", {"unit": "11th-leger", "field": "casualties", "value": "1"}, "blue", False),
    (BATTLE, "next_phase", {}, "blue", False),
    (BATTLE, "end_battle", {}, "red", False),
    (ENGAGEMENT, "fire_weapon", {"rig": "p1-r1", "weapon": "w", "target": "p2-r1"}, "p1", True),
    (ENGAGEMENT, "fire_weapon", {"rig": "p2-r1", "weapon": "w", "target": "p1-r1"}, "p1", False),
    (ENGAGEMENT, "adjust_score", {"player": "p1", "vp": 3}, "p1", False),
    (ENGAGEMENT, "initiative", {}, "p2", False),
])
def test_a_side_acts_only_for_its_own(game, action, facts, side, allowed):
    spec = system_for(game.system).action(action)
    parsed = spec.facts.model_construct(**facts)
    actor = roles.Actor(side)
    if allowed:
        actor.check_action(game, action, parsed)
    else:
        with pytest.raises(roles.NotAllowed):
            actor.check_action(game, action, parsed)
    roles.Actor(roles.UMPIRE).check_action(game, action, parsed)  # the umpire may always
    with pytest.raises(roles.NotAllowed, match="Spectators watch"):
        roles.Actor(roles.SPECTATOR).check_action(game, action, parsed)


@pytest.mark.parametrize("game,action,facts,side,pieces", [
    (BATTLE, "shoot", {"shooter": "11th-leger", "target": "1-7th-musketeers"}, "red", "units"),
    (ENGAGEMENT, "fire_weapon", {"rig": "p2-r1", "weapon": "w", "target": "p1-r1"}, "p1", "Rigs"),
])
def test_a_refusal_calls_the_pieces_what_their_game_calls_them(game, action, facts, side, pieces):
    parsed = system_for(game.system).action(action).facts.model_construct(**facts)
    with pytest.raises(roles.NotAllowed, match=f"only for its own side's {pieces}, and this is the other side's"):
        roles.Actor(side).check_action(game, action, parsed)


def test_referees_turn_is_the_umpires_or_the_lone_players():
    """At a club table the Foe's settings are the umpire's; its decisions and their overruling are
    the umpire's, or the lone player's who plays against it, never a player's seated on its side
    (nor anyone's when Referee plays no side)."""
    game = Game(id=3, name="Alone", system="blackpowder", state={**BATTLE.state, "foe": {"side": "red"}})
    for action, facts in (("foe_decide", {"answers": ""}), ("foe_overrule", {"answers": "", "reason": "no"})):
        parsed = system_for(game.system).action(action).facts.model_construct(**facts)
        roles.Actor("umpire").check_action(game, action, parsed)
        roles.Actor("blue").check_action(game, action, parsed)  # Referee plays red: blue plays alone
        with pytest.raises(roles.NotAllowed, match="the side Referee plays"):
            roles.Actor("red").check_action(game, action, parsed)
        with pytest.raises(roles.NotAllowed, match="Referee plays no side"):
            roles.Actor("blue").check_action(BATTLE, action, parsed)
        with pytest.raises(roles.NotAllowed, match="Spectators"):
            roles.Actor("spectator").check_action(game, action, parsed)
    settings = system_for(game.system).action("foe_settings").facts.model_construct(side="blue")
    with pytest.raises(roles.NotAllowed, match="Only the umpire"):
        roles.Actor("blue").check_action(game, "foe_settings", settings)  # once allowed: "blue" named a side
    roles.Actor("umpire").check_action(game, "foe_settings", settings)
