"""Small battles for the Black Powder engine tests.

Ask for the fixtures by name; each returns a builder function:

    def test_something(make_battle, infantry, cavalry, commander):
        battle = make_battle(
            units=[infantry("a"), cavalry("h", side="red")],
            brigades=[{"id": "blue1", "commander": commander("Picton", 7, rules=["Aggressive"])}],
        )

- ``infantry / cavalry / artillery(uid, side="blue", **overrides)`` give unit dicts with an
  ordinary profile (British line, dragoons, foot guns); any Unit field can be overridden.
  ``unit_of("cavalry", uid, ...)`` names the kind, for parametrized cases.
- ``make_battle(units=[...], brigades=[...], sides=..., settings=..., **doc)`` builds the document
  with ``battle_setup.new_battle_doc`` and returns a ``Battle``. Units default to brigade ``"<side>1"``;
  brigades the units name but ``brigades`` omits are created with an ordinary Staff Rating 8
  commander; a brigade given without ``commander`` gets that commander too (pass
  ``"commander": None`` for none). ``sides`` maps "blue"/"red" to overrides (a General, broken
  army...). Other keywords (``turn``, ``active_side``, ``phase``, ``turn_state``) are set on the doc.
- ``make_doc`` is the same but returns the document (for action ``resolve`` functions).
- ``after(battle, result)`` is the battle with the result's changes applied.
- ``every_roll(resolve)`` tries every way the dice can fall, for exact odds to check against.
- ``key_commander("napoleon")`` is a key commander as a battle built from the army lists has him.

The fixtures are session-scoped (they hand out pure functions), so hypothesis tests may take them.
"""
from __future__ import annotations

from dataclasses import asdict, is_dataclass

import pytest

from referee.blackpowder.battle_setup import new_battle_doc
from referee.blackpowder.model import Battle, Commander

LINE = dict(type="infantry", hand_to_hand=6, shooting=3, morale=4, stamina=3)
CAVALRY = dict(type="cavalry", hand_to_hand=8, shooting=None, morale=4, stamina=3, weapon_range=0)
GUNS = dict(type="artillery", hand_to_hand=1, shooting=None, morale=4, stamina=2, formation="deployed",
            artillery_kind="foot", weapon_range=48)


def _unit(base: dict, uid: str, side: str = "blue", **over) -> dict:
    return {"id": uid, "name": over.pop("name", uid), "side": side,
            "brigade": over.pop("brigade", f"{side}1"), **base, **over}


def infantry(uid: str, side: str = "blue", **over) -> dict:
    return _unit(LINE, uid, side, **over)


def cavalry(uid: str, side: str = "blue", **over) -> dict:
    return _unit(CAVALRY, uid, side, **over)


def artillery(uid: str, side: str = "blue", **over) -> dict:
    return _unit(GUNS, uid, side, **over)


def unit_of(kind: str, uid: str, side: str = "blue", **over) -> dict:
    """A unit of the named kind ("infantry", "cavalry", "artillery"), for parametrized cases."""
    return _unit({"infantry": LINE, "cavalry": CAVALRY, "artillery": GUNS}[kind], uid, side, **over)


def commander(name: str = "Brigadier", staff_rating: int = 8, rules=(), **over) -> dict:
    return {"name": name, "staff_rating": staff_rating, "rules": list(rules), **over}


def _commander_doc(c) -> dict | None:
    if c is None or isinstance(c, dict):
        return c
    if is_dataclass(c):
        d = asdict(c)
        d["rules"] = list(d["rules"])
        return d
    raise TypeError(f"A commander is a dict or a Commander, not {type(c).__name__}")


def make_doc(units=(), brigades=(), sides=None, settings: dict | None = None, **doc) -> dict:
    units = [dict(u) for u in units]
    brigade_docs: dict[str, dict] = {}
    for b in brigades:
        b = dict(b)
        bid = b["id"]
        side = b.get("side") or next((u["side"] for u in units if u["brigade"] == bid), "blue")
        brigade_docs[bid] = {"id": bid, "name": b.get("name", f"{bid} brigade"), "side": side,
                             "commander": _commander_doc(b["commander"]) if "commander" in b
                             else commander(f"{bid} commander"),
                             **{k: v for k, v in b.items() if k not in ("id", "name", "side", "commander")}}
    for u in units:
        if u["brigade"] not in brigade_docs:
            bid = u["brigade"]
            brigade_docs[bid] = {"id": bid, "name": f"{bid} brigade", "side": u["side"],
                                 "commander": commander(f"{bid} commander")}
    side_docs = {s: {"id": s, "name": s.title(), "general": commander(f"{s.title()} General")}
                 for s in ("blue", "red")}
    for s, over in (sides or {}).items():
        over = dict(over)
        if "general" in over:
            over["general"] = _commander_doc(over["general"])
        side_docs[s].update(over)
    out = new_battle_doc("test battle", side_docs, brigade_docs, {u["id"]: u for u in units}, settings=settings)
    out.update(doc)
    return out


def make_battle(units=(), brigades=(), sides=None, settings: dict | None = None, **doc) -> Battle:
    return Battle.from_doc(make_doc(units, brigades, sides, settings, **doc))


def after(battle: Battle, result) -> Battle:
    return battle.with_changes(result.all_changes)


def every_roll(resolve, limit: int = 14):
    """Every way the dice can fall, as (probability, result): resolve is called with a scripted
    source of each dice sequence, extended one die at a time whenever it asks for more."""
    from fractions import Fraction

    from referee.core.dice import DiceNeeded, ScriptedDice

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


def key_commander(key: str, name: str | None = None) -> Commander:
    """One of the five key commanders as a battle built from the army lists holds him
    ("von-zieten" or his personality "von_zieten")."""
    from referee.data.blackpowder import load_commanders

    found = {c.id: c for c in load_commanders().values()} | \
        {c.personality: c for c in load_commanders().values() if c.personality}
    doc = found[key].as_commander()
    if name:
        doc["name"] = name
    return Commander.from_dict(doc)


def rules_of(result) -> dict[str, int]:
    """Each modifier of a result by its rule: what the screen shows as the reasons."""
    return {m.rule: m.amount for m in result.modifiers}


__all__ = ["make_battle", "make_doc", "infantry", "cavalry", "artillery", "unit_of", "commander", "key_commander",
           "after", "every_roll", "rules_of"]


def _provide(helper):
    """A session fixture handing out one of the helpers above: they are pure functions, so
    hypothesis tests may take them too."""
    @pytest.fixture(name=helper.__name__, scope="session")
    def fixture():
        return helper
    return fixture


for _name in __all__:
    globals()[f"_{_name}_fixture"] = _provide(globals()[_name])
