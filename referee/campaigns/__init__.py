"""Campaigns: rosters that carry from one game night to the next.

Two kinds, each a :class:`referee.core.contract.Catalogue` of steps as a game is of its actions (facts
in, a Result whose changes address the campaign document out), so the table's one write path
checks the version, applies them in one transaction, logs them with their dice and rule, and
undoes them exactly as it does a game's:

- ``oilandiron``: an Of Oil and Iron campaign (:mod:`.oilandiron`, :mod:`.aftermath`,
  :mod:`.repairs`);
- ``hundred_days``: the Hundred Days, Black Powder's linked battles of 16 and 18 June 1815
  (:mod:`.hundred_days`, :mod:`.hundred_days_forces`).

The pages ask a campaign only through this package: its kinds, and the pure views of its
document (:mod:`.views`).

Pure Python: no Flask, no database, no data files (the tables and plans come in as data).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..core.contract import Catalogue
from ..systems import BLACK_POWDER, LABELS, OIL_AND_IRON
from . import aftermath, hundred_days, hundred_days_links, oilandiron, repairs
from .common import OVERRIDE, settings_action
from .hundred_days import army_name, slug
from .hundred_days_links import plan_links, side_of_army
from .oilandiron import rig_label, tables_of
from .timeline import day_by_day, roster_by_engagement
from .views import (
    army_rows,
    card_rigs,
    choice_owed,
    day_rows,
    game_words,
    offers_end,
    override_fields,
    squadron_rows,
    table_views,
    way_back,
)

# What the web layer may ask of the campaigns, as a game's pages ask its contract and board view:
# the kinds, and the pure views of a campaign's document.
__all__ = ["KINDS", "CampaignKind", "army_name", "army_rows", "card_rigs", "choice_owed", "day_rows", "game_words", "kind_for", "offers_end",
           "override_fields", "plan_links", "rig_label", "side_of_army", "slug", "roster_by_engagement", "squadron_rows", "table_views", "tables_of", "day_by_day", "way_back"]


@dataclass(frozen=True)
class CampaignKind(Catalogue):
    """A kind of campaign: its steps are a catalogue as a game's actions are, with the game its
    battles are fought in and its settings (defaults, the choices a setting is one of, and what
    each means)."""

    system: str  # the game its battles are fought in
    defaults: dict
    descriptions: dict
    choices: dict

    def missing(self, name: str) -> str:
        return f"A {self.label} campaign has no step “{name}”."


KINDS = {
    OIL_AND_IRON: CampaignKind(  # named after its game
        name=OIL_AND_IRON, label=LABELS[OIL_AND_IRON], system=OIL_AND_IRON,
        catalogue=(oilandiron.PLAN, oilandiron.STARTED, oilandiron.TABLES, *aftermath.CATALOGUE, *repairs.CATALOGUE,
                   OVERRIDE, settings_action(oilandiron.DEFAULTS, oilandiron.CHOICES)),
        defaults=oilandiron.DEFAULTS, descriptions=oilandiron.DESCRIPTIONS, choices=oilandiron.CHOICES),
    "hundred_days": CampaignKind(
        name="hundred_days", label="The Hundred Days (Black Powder)", system=BLACK_POWDER,
        catalogue=(*hundred_days.CATALOGUE, hundred_days_links.DAY_TOGETHER, OVERRIDE,
                   settings_action(hundred_days.DEFAULTS, hundred_days.CHOICES)),
        defaults=hundred_days.DEFAULTS, descriptions=hundred_days.DESCRIPTIONS, choices=hundred_days.CHOICES),
}


def kind_for(name: str) -> CampaignKind:
    try:
        return KINDS[name]
    except KeyError:
        raise KeyError(f"There is no kind of campaign “{name}”.") from None
