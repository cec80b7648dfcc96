"""Helpers the campaign engine tests share: a small Of Oil and Iron catalogue and rosters in plain
data (no data files but the shipped example tables), and one step applied with scripted dice."""
from __future__ import annotations

import copy
from pathlib import Path

import yaml

from referee.campaigns import kind_for
from referee.core.dice import ScriptedDice
from referee.core.docstate import apply_changes, revert_changes

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_TABLES = yaml.safe_load((ROOT / "scenarios" / "campaigns" / "oilandiron-example-tables.yaml").read_text())
HUNDRED_DAYS = yaml.safe_load((ROOT / "scenarios" / "campaigns" / "hundred-days.yaml").read_text())
STRUCTURE = {"hull": 4, "arms": 3, "legs": 3, "engine": 2}

CATALOGUE = {
    "engagements": [[k, k.replace("_", " ").title()] for k in (
        "iron_clash", "high_value_target", "point_of_control", "total_command", "push_the_line", "supply_airdrop",
        "salvage_heist", "sabotage", "ambush", "hold_the_line", "siege", "breakthrough")],
    "chassis": {"light": {"name": "Light frame", "weight_class": "light", "iron": 6, "structure": STRUCTURE},
                "medium": {"name": "Medium frame", "weight_class": "medium", "iron": 8, "structure": STRUCTURE},
                "big": {"name": "Colossus", "weight_class": "colossal", "iron": 14, "structure": STRUCTURE}},
    "engines": {"diesel": {"name": "Diesel", "iron": 1}},
    "weapons": {"cannon": {"name": "Cannon", "iron": 2}, "flamer": {"name": "Flamer", "iron": 1},
                "saw": {"name": "Saw", "iron": 1}},
    "equipment": {
        "extinguisher": {"name": "Extinguisher", "iron": 1, "effect_key": "extinguisher", "campaign_only": False},
        "battlefield_recovery_rig": {"name": "Battlefield Recovery Rig", "iron": 5, "effect_key": "campaign_salvage_rolls", "campaign_only": True},
        "black_market_parts_cache": {"name": "Black Market Parts Cache", "iron": 3, "effect_key": "campaign_ignore_repair_trait", "campaign_only": True},
        "contracted_recovery_crew": {"name": "Contracted Recovery Crew", "iron": 3, "effect_key": "campaign_recovery_bonus", "campaign_only": True},
        "experimental_load_bearing_frame": {"name": "Experimental Load-Bearing Frame", "iron": 3, "effect_key": "campaign_extra_iron", "campaign_only": True},
    },
}


def rig(key: str, name: str, chassis: str = "light", weapons=("cannon", "flamer"), equipment=()) -> dict:
    from referee.campaigns.oilandiron import rig_record
    build = {"name": name, "chassis": chassis, "engine": "diesel",
             "weapons": [{"card": w, "mount": None} for w in weapons],
             "equipment": [{"key": e, "weapon": None} for e in equipment]}
    return rig_record(key, build, CATALOGUE["chassis"][chassis])


def roster(name: str, *rigs: dict, tier: str = "skirmish") -> dict:
    return {"name": name, "tier": tier, "formation": "sword", "cards": {}, "rigs": {r["key"]: r for r in rigs}}


def new_oi(p1_equipment=(), p2_equipment=(), **settings) -> dict:
    from referee.campaigns.oilandiron import new_campaign_doc
    rosters = {"p1": roster("Anna's Sword", rig("r1", "Jackal", equipment=p1_equipment), rig("r2", "Hyena")),
               "p2": roster("Ben's Mace", rig("r1", "Bull", "medium", equipment=p2_equipment), rig("r2", "Ox"))}
    return new_campaign_doc("Test campaign", {"p1": {"name": "Anna"}, "p2": {"name": "Ben"}}, rosters,
                            copy.deepcopy(EXAMPLE_TABLES), CATALOGUE, settings)


class Step:
    """Apply one campaign step to a document with scripted dice; keep the result."""

    def __init__(self, kind: str, doc: dict):
        self.kind, self.doc, self.results = kind_for(kind), doc, []

    def __call__(self, action: str, dice=(), **facts):
        spec = self.kind.action(action)
        source = ScriptedDice(list(dice))
        before = self.doc
        result = spec.resolve(self.doc, spec.facts.model_validate(facts), source)
        assert source.remaining == 0, f"{source.remaining} scripted dice left unused"
        self.doc = apply_changes(self.doc, result.all_changes)
        assert revert_changes(self.doc, result.all_changes) == before  # every step can be undone exactly
        self.results.append(result)
        return result

    def odds(self, action: str, **facts) -> list[str]:
        spec = self.kind.action(action)
        return spec.odds(self.doc, spec.facts.model_validate(facts))


def engagement_state(rigs: dict, winner="p1", ended=True) -> dict:
    """A finished engagement document: ``rigs`` maps a game Rig id to overrides of a whole Rig."""
    out = {}
    for rid, over in rigs.items():
        base = {"name": rid, "player": rid[:2], "structure_max": dict(STRUCTURE), "structure": dict(STRUCTURE),
                "destroyed": False, "catastrophic": [], "status": {},
                "weapons": {"cannon": {"destroyed": False}, "flamer": {"destroyed": False}}}
        base.update(over)
        out[rid] = base
    return {"name": "Engagement", "engagement_type": "iron_clash", "ended": ended, "winner": winner,
            "result": {"text": "Anna wins"}, "players": {"p1": {"vp": 3}, "p2": {"vp": 0}}, "rigs": out}


PIECES = {"p1-r1": "p1/r1", "p1-r2": "p1/r2", "p2-r1": "p2/r1", "p2-r2": "p2/r2"}
WEAPONS = {rid: {"cannon": 0, "flamer": 1} for rid in PIECES}
