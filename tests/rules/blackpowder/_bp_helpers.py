"""Small battles for the shooting, morale and break-test tests (until the shared make_battle
fixture exists): a blue and a red brigade, units described by keyword overrides."""
from __future__ import annotations

from referee.blackpowder.model import Battle, new_battle_doc

LINE = dict(type="infantry", hand_to_hand=6, shooting=3, morale=4, stamina=3)
CAVALRY = dict(type="cavalry", hand_to_hand=8, shooting=None, morale=4, stamina=3)
GUNS = dict(type="artillery", hand_to_hand=1, shooting=None, morale=4, stamina=2, formation="deployed",
            artillery_kind="foot")


def unit(uid: str, side: str = "blue", base: dict = LINE, **over) -> dict:
    return {"id": uid, "name": over.pop("name", uid), "side": side, "brigade": f"{side}1", **base, **over}


def battle_doc(*units: dict, settings: dict | None = None, commanders: dict | None = None) -> dict:
    commanders = commanders or {}
    brigades = {f"{s}1": {"id": f"{s}1", "name": f"{s} brigade", "side": s, "commander": commanders.get(s)}
                for s in ("blue", "red")}
    sides = {s: {"id": s, "name": s.title()} for s in ("blue", "red")}
    return new_battle_doc("test", sides, brigades, {u["id"]: u for u in units}, settings=settings)


def make_battle(*units: dict, **kw) -> Battle:
    return Battle.from_doc(battle_doc(*units, **kw))


def after(battle: Battle, result) -> Battle:
    return battle.with_changes(result.all_changes)


def every_roll(resolve, limit: int = 14):
    """Every way the dice can fall, as (probability, result): resolve is called with a scripted
    source of each dice sequence, extended one die at a time whenever it asks for more."""
    from fractions import Fraction

    from referee.dice import DiceNeeded, ScriptedDice

    out, pending = [], [()]
    while pending:
        prefix = pending.pop()
        try:
            result = resolve(ScriptedDice(prefix))
        except DiceNeeded:
            if len(prefix) >= limit:
                raise
            pending.extend(prefix + (v,) for v in range(1, 7))
            continue
        out.append((Fraction(1, 6 ** len(prefix)), result))
    return out
