"""Small engagements for the Of Oil and Iron engine tests.

``gun(...)`` is a weapon card dict; ``rig_spec(...)`` one Rig for ``squadron_state``;
``make_doc(p1=[...], p2=[...])`` an engagement document (defaults: a Medium Brawler "a" for p1
with a plain gun, a Heavy Siege Rig "t" for p2); ``activated(doc, rig)`` the same document in the
Activation phase with that Rig activated; ``run(name, doc, dice, **facts)`` resolves an action and
returns ``(result, doc after)``.
"""
from __future__ import annotations

from referee.core.dice import ScriptedDice
from referee.core.docstate import apply_changes
from referee.data.oilandiron import setup_engagement, squadron_state
from referee.oilandiron import SYSTEM
from referee.oilandiron.model import Engagement

MEDIUM = "example_medium_brawler"  # aim 4, armour 8/11/13, SP 4/3/3/3, threshold 6 of 12, exhaust 2, speed 6
HEAVY = "example_heavy_siege"  # aim 5, armour 9/12/14, SP 5/4/4/3, threshold 6 of 12, exhaust 3, speed 5
LIGHT = "example_light_scout"
COLOSSAL = "example_colossal_walker"


def gun(key: str = "gun", rof: int = 1, strength: int = 5, acc: int = 0, rng: int = 18, perks=(), profiles=None,
        iron: int = 0) -> dict:
    return {"key": key, "name": key.replace("_", " ").title(), "rof": rof, "str": strength, "acc": acc, "iron": iron,
            "profiles": profiles or [{"range": rng}],
            "perks": [{"name": p} if isinstance(p, str) else {"name": p[0], "x": p[1]} for p in perks]}


def rig_spec(rid: str, chassis: str = MEDIUM, weapons=None, equipment=(), name: str | None = None) -> dict:
    return {"id": rid, "name": name or rid.upper(), "chassis": chassis,
            "weapons": weapons if weapons is not None else [gun()], "equipment": list(equipment)}


def make_doc(p1=None, p2=None, engagement: str | None = None, campaign: bool = False, settings: dict | None = None,
             objectives: dict | None = None, roles=(None, None), **over) -> dict:
    p1 = p1 if p1 is not None else [rig_spec("a")]
    p2 = p2 if p2 is not None else [rig_spec("t", HEAVY)]
    rigs = {**squadron_state("p1", p1, campaign), **squadron_state("p2", p2, campaign)}
    players = {"p1": {"name": "Anna", "role": roles[0]}, "p2": {"name": "Ben", "role": roles[1]}}
    doc = setup_engagement("Test", players, rigs, engagement, objectives, settings, campaign)
    doc.update(over)
    return doc


def activated(doc: dict, rid: str, actions: int = 5) -> dict:
    doc = dict(doc)
    player = doc["rigs"][rid]["player"]
    doc.update(phase="activation", current_player=player, starting_player=player, active_rig=rid)
    doc["rigs"] = {**doc["rigs"], rid: {**doc["rigs"][rid], "actions_left": actions}}
    return doc


def set_rig(doc: dict, rid: str, **fields) -> dict:
    doc = dict(doc)
    doc["rigs"] = {**doc["rigs"], rid: {**doc["rigs"][rid], **fields}}
    return doc


def run(action: str, doc: dict, dice=(), **facts):
    spec = SYSTEM.action(action)
    result = spec.resolve(doc, spec.facts(**facts), ScriptedDice(list(dice)))
    return result, apply_changes(doc, result.all_changes)


def odds(action: str, doc: dict, **facts) -> list[str]:
    spec = SYSTEM.action(action)
    return spec.odds(doc, spec.facts(**facts))


def rig(doc: dict, rid: str):
    return Engagement.from_doc(doc).rig(rid)


# The ordinary attack facts: target in front arc, in range, close, clear sight, front of the target.
SHOT = dict(rig="a", weapon="gun", target="t", in_front_arc=True, in_range=True)
