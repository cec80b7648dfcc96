"""Setting up an engagement: ``new_game(setup)`` turns one validated :class:`EngagementSetup` into the
engagement document, with everything the engine will read during play copied into it (the
engagement type's rules and numbers, each Rig's cards as built, the rule settings).

Every way to start an engagement builds an ``EngagementSetup`` first: the start form (example or
typed squadrons), two saved squadrons, the tests. The rules checked here are the setup's own: both
players present, the roles the engagement type needs, formations of one tier whose Rigs match
them, the objectives each player sets out, the High Value Targets, the starting Prepare tokens.
"""
from __future__ import annotations

import copy
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ..core.errors import DataError, RuleError
from ..core.words import counted
from .engagement_rules import WEIGHT_CLASSES, EngagementRules
from .model import PLAYERS, Settings
from .name import OIL_AND_IRON


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SquadronFormation(_Model):
    """The formation a squadron was built to (Sword, Mace...), with its tier and how many Rigs of
    each weight class it fields."""

    key: str
    name: str
    tier: str
    counts: dict[Literal[WEIGHT_CLASSES], int]


class Side(_Model):
    """One player and their squadron. ``rigs``: the Rig documents, keyed by Rig id, as the squadron's
    cards build them (``referee.data.oilandiron.squadron_state``)."""

    name: str = Field(min_length=1)
    role: str | None = None
    squadron: str = ""
    formation: SquadronFormation | None = None
    rigs: dict[str, dict] = {}


class EngagementSetup(_Model):
    """Everything needed to start an engagement.

    ``engagement``: the engagement type's rules (None: a friendly game nobody scores).
    ``objectives``: {id: {"name", "owner"}} as the players set them out; left out, the app sets out
    the engagement type's count for each player. ``hvt``: {player: Rig id} (left out: each player's
    heaviest Rig). ``settings``: rule settings that differ from the defaults.
    """

    name: str = Field(min_length=1)
    engagement: EngagementRules | None = None
    sides: dict[str, Side]
    objectives: dict[str, dict] | None = None
    hvt: dict[str, str] = {}
    settings: dict = {}
    campaign: bool = False


def _check_sides(setup: EngagementSetup) -> None:
    if set(setup.sides) != set(PLAYERS):
        raise RuleError("An engagement has two players, p1 and p2.")
    seen: set[str] = set()
    for pid, side in setup.sides.items():
        for rid, r in side.rigs.items():
            if r.get("player") != pid or r.get("id") != rid:
                raise RuleError(f"Rig {r.get('name', rid)} belongs to no player.")
            if rid in seen:
                raise DataError(f"Two Rigs share the id “{rid}”")
            seen.add(rid)


def _check_roles(setup: EngagementSetup, rules: EngagementRules) -> None:
    if rules.roles:
        roles = sorted(side.role or "" for side in setup.sides.values())
        if roles != sorted(rules.roles):
            raise RuleError(f"{rules.name} needs one player as {rules.roles[0]} and one as {rules.roles[1]}.")


def _check_formations(setup: EngagementSetup) -> None:
    """Each squadron fields what its formation says, and both formations come from one tier."""
    tiers = set()
    for side in setup.sides.values():
        f = side.formation
        if f is None:
            continue
        have = {w: sum(1 for r in side.rigs.values() if r["weight_class"] == w) for w in WEIGHT_CLASSES}
        want = {w: f.counts.get(w, 0) for w in WEIGHT_CLASSES}
        if have != want:
            wanted = ", ".join(f"{n} {w}" for w, n in want.items() if n)
            got = ", ".join(f"{n} {w}" for w, n in have.items() if n) or "no Rigs"
            raise DataError(f"A {f.name} squadron fields {wanted}; this one has {got}.")
        tiers.add(f.tier)
    if len(tiers) > 1:
        raise RuleError("Both squadrons must use formations of the same tier.")


def _objectives(setup: EngagementSetup, rules: EngagementRules | None) -> dict[str, dict]:
    """The objectives as the document keeps them: the type's structure and armour on each one that
    can be attacked, and the type's count per player checked (or set out by the app)."""
    spec = rules.objectives if rules is not None else None
    given = setup.objectives
    if given is None and spec is not None:
        # Players place objectives on the table; the app only needs one record per objective.
        # Named number first: squadron names often end in a possessive ("Marie's Swords").
        given = {f"{pid}-obj{n}": {"name": f"Objective {n} ({side.name})", "owner": pid}
                 for pid, side in setup.sides.items() for n in range(1, spec.per_player + 1)}
    objs = {}
    for oid, o in (given or {}).items():
        o = dict(o)
        if spec is not None and spec.attackable:
            o.update(structure=spec.structure, direct=spec.direct, severe=spec.severe, critical=spec.critical)
        objs[oid] = o
    if spec is not None and given is not None:
        for pid, side in setup.sides.items():
            placed = sum(1 for o in objs.values() if o.get("owner") == pid)
            if placed != spec.per_player:
                raise RuleError(f"In {rules.name} each player sets out {counted(spec.per_player, 'objective')}; "
                                f"{side.name} has {placed}.")
    return {oid: {"id": oid, "name": o.get("name", oid), "owner": o.get("owner"),
                  "structure": o.get("structure"), "structure_max": o.get("structure"),
                  "direct": o.get("direct"), "severe": o.get("severe"), "critical": o.get("critical"),
                  "destroyed": False, "controlled_by": None, "collected_by": []}
            for oid, o in objs.items()}


def _mark_high_value_targets(doc: dict, setup: EngagementSetup) -> None:
    for pid, side in setup.sides.items():
        own = [r for r in doc["rigs"].values() if r["player"] == pid]
        heaviest = max(own, key=lambda r: WEIGHT_CLASSES.index(r["weight_class"]))
        chosen = setup.hvt.get(pid) or heaviest["id"]
        if doc["rigs"].get(chosen, {}).get("player") != pid:
            raise RuleError(f"The High Value Target must be one of {side.name}'s Rigs.")
        # Between Rigs of the heaviest class the player chooses; a lighter one is not allowed.
        if doc["rigs"][chosen]["weight_class"] != heaviest["weight_class"]:
            raise RuleError(f"{side.name}'s High Value Target must be one of the heaviest Rigs "
                            f"({heaviest['weight_class']}).")
        doc["rigs"][chosen]["hvt"] = True


def told_apart(rigs: dict[str, dict], owners: dict[str, str]) -> dict[str, dict]:
    """The Rigs named so that no two share a name on the board, in pick lists and in the log: a
    name both players field takes its owner's ("Jackal (Ben)"); two of one player's, a number
    ("Jackal 2"). A name used once is left as it is."""
    fielded_by: dict[str, set] = {}
    for r in rigs.values():
        fielded_by.setdefault(r.get("name", ""), set()).add(r.get("player"))
    for r in rigs.values():
        if len(fielded_by[r.get("name", "")]) > 1:
            r["name"] = f"{r['name']} ({owners.get(r.get('player'), r.get('player'))})"
    for name in {r.get("name") for r in rigs.values()}:
        same = [r for r in rigs.values() if r.get("name") == name]
        for n, r in enumerate(same[1:], start=2):
            r["name"] = f"{name} {n}"
    return rigs


def new_game(setup: EngagementSetup) -> dict:
    """The engagement document for a new game, holding everything the engine reads during play."""
    if not isinstance(setup, EngagementSetup):
        setup = EngagementSetup.model_validate(setup)
    rules = setup.engagement
    _check_sides(setup)
    if rules is not None:
        _check_roles(setup, rules)
        _check_formations(setup)
    objectives = _objectives(setup, rules)
    rigs = told_apart({rid: copy.deepcopy(r) for side in setup.sides.values() for rid, r in side.rigs.items()},
                      {pid: side.name for pid, side in setup.sides.items()})
    doc = {
        "system": OIL_AND_IRON,
        "name": setup.name,
        "round": 1,
        "phase": "initiative",
        "starting_player": None,
        "current_player": None,
        "active_rig": None,
        "players": {pid: {"id": pid, "name": side.name, "role": side.role, "vp": 0, "squadron": side.squadron,
                          "formation": side.formation.key if side.formation else None}
                    for pid, side in sorted(setup.sides.items())},
        "rigs": rigs,
        "objectives": objectives,
        "engagement_type": rules.key if rules is not None else None,
        "engagement_rules": rules.model_dump(mode="json") if rules is not None else None,
        "campaign": setup.campaign,
        "settings": Settings.from_dict(setup.settings).to_dict(),
        "ended": False,
        "winner": None,
        "result": None,
    }
    if rules is None:
        return doc
    if rules.hvt:
        _mark_high_value_targets(doc, setup)
    if rules.start_tokens is not None:
        side = next(pid for pid, s in setup.sides.items() if s.role == rules.start_tokens.role)
        for r in doc["rigs"].values():
            if r["player"] == side:
                r["prepare_tokens"] = list(r.get("prepare_tokens", [])) + [rules.start_tokens.token]
        doc["start_tokens_round"] = rules.start_tokens.round
    doc["scored_round"] = 0
    return doc
