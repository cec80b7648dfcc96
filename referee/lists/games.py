"""A battle or engagement document from two finished lists."""
from __future__ import annotations

from ..core.errors import RuleError
from ..data.oilandiron import engagement_setup
from ..data.scenarios import new_battle_from_forces
from ..oilandiron import GAME
from .blackpowder import Army, army_force
from .formations import load_tiers
from .oilandiron import Squadron, squadron_rigs
from .problems import NotReady
from .travel import ListModel, check


def _ready(lst: ListModel) -> None:
    problems = check(lst)
    if problems:
        raise NotReady(lst.name or "This list", problems)


def battle_from_armies(name: str, blue: Army, red: Army, settings: dict | None = None) -> dict:
    """A Black Powder battle: Blue (who moves first) and Red from two checked armies."""
    _ready(blue)
    _ready(red)
    return new_battle_from_forces(name, army_force(blue), army_force(red), settings=settings)


def engagement_from_squadrons(name: str, first: Squadron, second: Squadron, engagement_type: str | None = None,
                              roles: tuple[str, str] | None = None, settings: dict | None = None) -> dict:
    """An Of Oil and Iron engagement: player 1 and player 2 from two checked squadrons of the
    same tier (both players pick a formation from one tier). ``roles`` gives each player's role
    when the engagement type has roles (attacker / defender). The document comes from the
    engine's ``new_game``, like every other way an engagement starts."""
    _ready(first)
    _ready(second)
    if first.tier != second.tier:
        tiers = load_tiers()
        raise RuleError(f"Both squadrons must come from the same tier: “{first.name}” is "
                         f"{tiers[first.tier].name}, “{second.name}” is {tiers[second.tier].name}.")
    players = {"p1": {"name": first.name}, "p2": {"name": second.name}}
    if roles:
        players["p1"]["role"], players["p2"]["role"] = roles
    rigs = {**squadron_rigs(first, "p1"), **squadron_rigs(second, "p2")}
    campaign = first.campaign and second.campaign
    return GAME.new_game(engagement_setup(name, players, rigs, engagement_type, settings=settings, campaign=campaign))


def game_from_lists(name: str, first: ListModel, second: ListModel, **options) -> dict:
    if first.system != second.system:
        raise ValueError("Both lists must be for the same game.")
    if isinstance(first, Army):
        return battle_from_armies(name, first, second, options.get("settings"))  # type: ignore[arg-type]
    return engagement_from_squadrons(name, first, second, **options)  # type: ignore[arg-type]
