"""Black Powder Epic Battles as Referee plays it: the one object the rest of the app asks.

The catalogue below is the whole list of actions, in the order a game meets them; each is
defined in the module named after its rules area. Adding an action: write its facts, resolve
(and odds) in that module, export an ``ActionSpec`` constant, and list it here.
"""
from __future__ import annotations

from ..core.contract import GameRules, Offer
from ..core.foe_actions import foe_actions
from ..core.settings_actions import common_actions
from .adjust import ADJUST_BRIGADE, ADJUST_UNIT
from .battle_setup import BattleSetup, new_game
from .board_view import BOARD
from .break_tests import BREAK_TEST
from .brigades import END_BATTLE
from .buildings import DOUSE_FIRE, FIRE_BURNS, SET_FIRE
from .charges import CHARGE
from .combat import COMBAT_ROUND
from .combat_outcome import COMBAT_OUTCOME
from .command import INITIATIVE_MOVE, ORDER
from .foe import foe_step, position, sides, still_allowed
from .key_commanders import COMMANDER_GIFTS
from .likely import RECENT, likely
from .model import Battle, Settings
from .morale import TAKE_HITS
from .name import BLACK_POWDER, BLACK_POWDER_LABEL
from .offers import unit_offers
from .rallies import BRAVE_RALLY, ELITE_RALLY
from .reserves import ADD_UNITS, ARRIVE, DELAY, ENTRY_ROLL, HOLD_BACK
from .shooting import SHOOT
from .turns import NEXT_PHASE, owed_now
from .victory import SCENARIO_VICTORY

DICE_MODE, CHANGE_SETTING = common_actions(Settings)
FOE_SETTINGS, FOE_DECIDE, FOE_OVERRULE = foe_actions(foe_step, position, sides, lambda: CATALOGUE, still_allowed)

CATALOGUE = (
    ADJUST_UNIT, ADJUST_BRIGADE, DICE_MODE, CHANGE_SETTING,
    TAKE_HITS, BREAK_TEST, SHOOT,
    SET_FIRE, FIRE_BURNS, DOUSE_FIRE,
    END_BATTLE, NEXT_PHASE, SCENARIO_VICTORY,
    ENTRY_ROLL, ARRIVE, DELAY, HOLD_BACK, ADD_UNITS,
    COMBAT_ROUND, COMBAT_OUTCOME, CHARGE,
    ORDER, ELITE_RALLY, BRAVE_RALLY, INITIATIVE_MOVE,
    COMMANDER_GIFTS,
    FOE_SETTINGS, FOE_DECIDE, FOE_OVERRULE,
)


def offers(state: dict, unit_id: str) -> list[Offer]:
    return unit_offers(Battle.from_doc(state), unit_id, CATALOGUE)


GAME = GameRules(name=BLACK_POWDER, label=BLACK_POWDER_LABEL, catalogue=CATALOGUE,
                 settings_cls=Settings, build=new_game, offers_for=offers, pieces="units",
                 foe=foe_step, board=BOARD,
                 # A unit names its brigade; a combat its units on both sides (combat.py).
                 links={"units": {"brigade": "brigades"}, "combats": {"attackers": "units", "defenders": "units"}},
                 likely_for=likely, likely_reads=RECENT,
                 # What Next phase asks to be done first (turns.owed_now).
                 owed_for=owed_now, moves_on=("next_phase",))

__all__ = ["GAME", "BattleSetup", "CATALOGUE"]
