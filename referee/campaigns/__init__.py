"""Campaigns: rosters that carry from one game night to the next.

Two kinds, each an explicit catalogue of campaign actions with the same shape as a game's
(facts in, a Result whose changes address the campaign document out), so the table service
checks the version, applies them in one transaction, logs them with their dice and rule, and
undoes them exactly as it does a game's:

- ``oilandiron``: an Of Oil and Iron campaign (:mod:`.oilandiron`, :mod:`.aftermath`,
  :mod:`.repairs`);
- ``hundred_days``: the Hundred Days, Black Powder's linked battles of 16 and 18 June 1815
  (:mod:`.hundred_days`, :mod:`.hundred_days_forces`).

Pure Python: no Flask, no database, no data files (the tables and plans come in as data).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..core.contract import ActionSpec
from . import aftermath, hundred_days, hundred_days_links, oilandiron, repairs
from .common import OVERRIDE, settings_action


@dataclass(frozen=True)
class CampaignKind:
    name: str
    label: str
    system: str  # the game its battles are fought in
    catalogue: tuple[ActionSpec, ...]
    defaults: dict
    descriptions: dict

    def action(self, name: str) -> ActionSpec:
        for spec in self.catalogue:
            if spec.name == name:
                return spec
        raise KeyError(f"A {self.label} campaign has no step “{name}”.")


KINDS = {
    "oilandiron": CampaignKind(
        "oilandiron", "Of Oil and Iron", "oilandiron",
        (oilandiron.PLAN, oilandiron.STARTED, oilandiron.TABLES, *aftermath.CATALOGUE, *repairs.CATALOGUE, OVERRIDE,
         settings_action(oilandiron.DEFAULTS, oilandiron.CHOICES)),
        oilandiron.DEFAULTS, oilandiron.DESCRIPTIONS),
    "hundred_days": CampaignKind(
        "hundred_days", "The Hundred Days (Black Powder)", "blackpowder",
        (*hundred_days.CATALOGUE, hundred_days_links.DAY_TOGETHER, OVERRIDE, settings_action(hundred_days.DEFAULTS, hundred_days.CHOICES)),
        hundred_days.DEFAULTS, hundred_days.DESCRIPTIONS),
}


def kind_for(name: str) -> CampaignKind:
    try:
        return KINDS[name]
    except KeyError:
        raise KeyError(f"There is no kind of campaign “{name}”.") from None
