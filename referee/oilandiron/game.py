"""Of Oil and Iron as Referee serves it: the contract (:class:`referee.core.contract.Game`) this engine
implements, with its whole catalogue of actions written out in the order of a round.

Each action is a named :class:`~referee.core.contract.ActionSpec` in the module of its rules area
(``rounds.INITIATIVE``, ``attacks.FIRE_WEAPON``...); this list is the only place they are
gathered, so the trail from the table service to an action's ``resolve`` is one look-up here.
"""
from __future__ import annotations

from ..core.contract import GameRules
from ..core.foe_actions import foe_actions
from ..core.settings_actions import common_actions
from .actions import MOVE, PREPARE, RAM, RELOAD, REPAIR, SHUT_DOWN
from .activation import ACTIVATE, END_ACTIVATION
from .adjust import ADJUST_OBJECTIVE, ADJUST_RIG, ADJUST_SCORE
from .attacks import CALLED_SHOT, FIRE_WEAPON
from .board_view import BOARD
from .engagements import COLLECT_SALVAGE, SCORE_ROUND, SUPPLY_AIRDROP
from .equipment import USE_EQUIPMENT
from .foe import foe_step, position, sides, still_allowed
from .footprint import LINKS, also_reads
from .heat import HEAT_ROLL
from .model import Settings
from .name import OIL_AND_IRON, OIL_AND_IRON_LABEL
from .offers import offers
from .rounds import END_ROUND, INITIATIVE, owed_now
from .setup import new_game

FOE_SETTINGS, FOE_DECIDE, FOE_OVERRULE = foe_actions(foe_step, position, sides, lambda: CATALOGUE, still_allowed)
CATALOGUE = (
    # The round: Initiative, then each Rig's activation and its actions.
    INITIATIVE, SUPPLY_AIRDROP, ACTIVATE,
    MOVE, FIRE_WEAPON, CALLED_SHOT, RAM, RELOAD, REPAIR, PREPARE, USE_EQUIPMENT, COLLECT_SALVAGE, SHUT_DOWN,
    END_ACTIVATION,
    # Maintenance: Heat Threshold rolls, the round's score, the end of the round.
    HEAT_ROLL, SCORE_ROUND, END_ROUND,
    # The umpire's corrections, then who rolls the dice and the rule settings.
    ADJUST_RIG, ADJUST_SCORE, ADJUST_OBJECTIVE,
    *common_actions(Settings),
    # Referee playing one squadron.
    FOE_SETTINGS, FOE_DECIDE, FOE_OVERRULE,
)

GAME = GameRules(name=OIL_AND_IRON, label=OIL_AND_IRON_LABEL, catalogue=CATALOGUE, settings_cls=Settings,
                 build=new_game, offers_for=offers, pieces="Rigs", foe=foe_step,
                 links=LINKS, also_reads=also_reads, board=BOARD,
                 # What End the round asks to be done first (rounds.owed_now).
                 owed_for=owed_now, moves_on=("end_round",))
