"""The Hundred Days' links between the battles of one day while they are fought (the source's
campaign section, lines 775, 785-815), as pure rules on the campaign document and the battles'
documents:

- **I Corps** (16 June): d'Erlon's corps may come to Quatre Bras or to Ligny. Its reserve is found
  by its label in the battles (the plan's ``links.i_corps.reserve``, "I Corps"), never by its units;
  Ligny's scenario has none, so a Ligny started in the campaign takes a copy of Quatre Bras's. Once
  it has arrived at one battle it is gone from the other's reserves; the French may decline its
  entry checks at Ligny (it is then not in Ligny's reserves at all).
- **Wavre a turn behind Waterloo** (18 June, side by side): Wavre does not begin until Waterloo
  has begun its turn 2 (``links.late_start``).
- **Breakthroughs at Wavre** (18 June): each Coalition unit shaken or broken in hand-to-hand
  during Wavre's turn 2, while the French side has the turn, is a French breakthrough (the
  setting ``wavre_breakthrough`` says which results count); each puts a choice on the Coalition:
  which unit of the reinforcing II Corps reserve at Waterloo arrives disordered (one already
  disordered is lost).

Everything here reads documents and returns values or :class:`~referee.core.results.Change` lists;
the table layer (``referee/table/campaign_links.py``) writes them, each in the transaction of the
action that caused it.
"""
from __future__ import annotations

import re

from pydantic import Field

from ..core.changes import ChangeBuilder
from ..core.contract import ActionSpec
from ..core.errors import RuleError
from ..core.results import MISSING, Change, Result
from ..core.words import counted
from .common import StepFacts, builder

COMBAT_ACTIONS = ("charge", "combat_round", "combat_outcome", "break_test", "take_hits")
BREAKTHROUGH_READINGS = ("shaken_or_broken", "broken", "off")


def plan_links(doc: dict) -> dict:
    return doc.get("plan", {}).get("links") or {}


def empty_links() -> dict:
    return {"side_by_side": {}, "i_corps": {"at": None, "source": None, "gone_from": []}, "breakthroughs": []}


def links_of(doc: dict) -> dict:
    return doc.get("links") or empty_links()


def _army(side_doc: dict) -> str:
    return "french" if (side_doc.get("nation") or "").lower() == "french" or \
        "french" in (side_doc.get("name") or "").lower() else "coalition"


def side_of_army(state: dict, army: str) -> str | None:
    return next((s for s, d in state.get("sides", {}).items() if _army(d) == army), None)


def reserve_by_label(state: dict, label: str) -> dict | None:
    """The battle's reserve of that label ("I Corps", "II Corps"), whatever its units."""
    want = label.strip().lower()
    return next((g for g in (state.get("reserves") or {}).values() if g.get("label", "").strip().lower() == want), None)


def watch(doc: dict, key: str) -> dict:
    """What the game's write path must watch for in this battle, kept in its mark so a tap that
    cannot touch a link costs nothing more: I Corps's label, the turn of breakthroughs, whether it
    waits for another battle."""
    plan = plan_links(doc)
    ip, bp, late = plan.get("i_corps") or {}, plan.get("breakthroughs") or {}, plan.get("late_start") or {}
    return {"i_corps": ip.get("reserve") if key in ip.get("battles", []) else None,
            "breakthrough_turn": int(bp.get("turn", 2)) if bp.get("from") == key else None,
            "follows": late.get("battle") == key}


def may_link(mark: dict, before: dict, after: dict, action: str) -> bool:
    """Whether this action may reach the campaign (False: it certainly does not)."""
    w = mark.get("watch")
    if w is None:
        return True
    if w.get("i_corps") and i_corps_arrived(before, after, w["i_corps"]):
        return True
    return w.get("breakthrough_turn") == before.get("turn", 1) and action in COMBAT_ACTIONS


# --- I Corps --------------------------------------------------------------------------------------

def i_corps_plan(doc: dict) -> dict | None:
    return plan_links(doc).get("i_corps")


def removal_changes(state: dict, group: dict, label: str) -> list[Change]:
    """The changes taking a reserve out of a battle: its units, the brigades it brought whole, and
    the reserve itself."""
    b = ChangeBuilder(state)
    mine = set(group["units"])
    for uid in group["units"]:
        if uid in state["units"]:
            b.set(("units", uid), MISSING, f"{state['units'][uid]['name']}: {label}")
    for bid in group.get("brigades", []):
        if bid in state["brigades"] and all(u["brigade"] != bid or uid in mine for uid, u in state["units"].items()):
            b.set(("brigades", bid), MISSING, f"{state['brigades'][bid]['name']}: {label}")
    b.set(("reserves", group["id"]), MISSING, f"{group['label']}: {label}")
    return list(b.changes)


def copy_reserve(out: dict, source: dict, label: str, army: str) -> list[str]:
    """Copy the reserve labelled ``label`` of ``army`` from ``source`` (a battle document) into
    ``out``, its units and brigades renamed where they would clash. Returns the units' names."""
    g = reserve_by_label(source, label)
    side = side_of_army(out, army)
    if g is None or side is None:
        return []
    taken = set(out["units"]) | set(out["brigades"]) | set(out.get("reserves") or {})

    def fresh(key: str) -> str:
        new, n = key, 2
        while new in taken:
            new, n = f"{key}-{n}", n + 1
        taken.add(new)
        return new
    bmap = {}
    for bid in {source["units"][u]["brigade"] for u in g["units"] if u in source["units"]}:
        bmap[bid] = fresh(re.sub(r"^(blue|red)-", f"{side}-", bid))
        out["brigades"][bmap[bid]] = {**source["brigades"][bid], "id": bmap[bid], "side": side}
    units, names = [], []
    for uid in g["units"]:
        if uid not in source["units"]:
            continue
        new = fresh(uid)
        out["units"][new] = {**source["units"][uid], "id": new, "side": side, "brigade": bmap[source["units"][uid]["brigade"]],
                             "awaiting": True}
        units.append(new)
        names.append(source["units"][uid]["name"])
    gid = fresh(f"{side}-{re.sub(r'[^a-z0-9]+', '-', label.lower()).strip('-')}")
    out.setdefault("reserves", {})
    out["reserves"][gid] = {**g, "id": gid, "side": side, "units": units,
                            "brigades": [bmap[b] for b in g.get("brigades", []) if b in bmap],
                            "status": "waiting", "due_turn": None, "rolled": []}
    return names


def i_corps_at_start(doc: dict, key: str, out: dict, source: dict | None, decline: bool = False) -> list[str]:
    """I Corps in a battle about to start (``out``, changed in place): copied from ``source`` (the
    battle whose scenario has it) where the scenario lacks it; taken out when it has arrived at
    the other battle already, or when the French decline it here. Returns the notes."""
    plan = i_corps_plan(doc)
    if not plan or key not in plan.get("battles", []):
        return []
    label, at = plan["reserve"], links_of(doc)["i_corps"].get("at")
    title = doc["battles"][at]["title"] if at in doc.get("battles", {}) else at
    if reserve_by_label(out, label) is None and source is not None and not at and not decline:
        names = copy_reserve(out, source, label, "french")
        if names:
            return [f"{label} may come to this battle or to {doc['battles'][plan['from']]['title']}: "
                    f"it is in the reserves here ({len(names)} units), and once it arrives at one it is gone "
                    "from the other."]
        return []
    g = reserve_by_label(out, label)
    if decline and not at:
        if g is not None:
            _drop(out, g)
        return [f"The French declined {label}'s entry checks here: it is not in the reserves."]
    if g is None:
        return []
    if at and at != key:
        _drop(out, g)
        return [f"{label} arrived at {title}: it is not in the reserves here."]
    return []


def _drop(out: dict, g: dict) -> None:
    for c in removal_changes(out, g, "gone"):
        node = out
        for p in c.path[:-1]:
            node = node[p]
        node.pop(c.path[-1], None)


def i_corps_arrived(before: dict, after: dict, label: str) -> bool:
    """Whether this action brought the I Corps reserve on."""
    g0, g1 = reserve_by_label(before, label), reserve_by_label(after, label)
    return bool(g1) and g1.get("status") == "arrived" and (g0 or {}).get("status") != "arrived"


# --- Wavre a turn behind Waterloo -------------------------------------------------------------------

def late_start_refusal(doc: dict, key: str, own_turn: int, leader_turn: int | None) -> str | None:
    """Why the follower battle (Wavre) may not act yet, or None."""
    late = plan_links(doc).get("late_start")
    if not late or late.get("battle") != key or not links_of(doc)["side_by_side"].get(doc["battles"][key]["day"]):
        return None
    behind = int(late.get("turns", 1))
    leader = doc["battles"].get(late["behind"], {})
    if own_turn > 1 or leader.get("status") != "playing" or leader_turn is None:
        return None
    if leader_turn < 1 + behind:
        return (f"{doc['battles'][key]['title']} begins {behind} turn{'s' if behind > 1 else ''} after "
                f"{leader['title']}: {leader['title']} is on turn {leader_turn}, and "
                f"{doc['battles'][key]['title']} starts when it begins turn {1 + behind}.")
    return None


# --- breakthroughs at Wavre ---------------------------------------------------------------------------

def _shaken(u: dict) -> bool:
    stamina = u.get("stamina")
    return stamina is not None and u.get("casualties", 0) >= stamina


def breakthroughs(before: dict, after: dict, action: str, changes: list[Change], reading: str,
                  turn: int) -> list[dict]:
    """The Coalition units this action shook or broke in hand-to-hand while the French had the turn
    of ``turn`` (the reading ``reading``: shaken_or_broken, broken, off)."""
    if reading == "off" or action not in COMBAT_ACTIONS or before.get("turn", 1) != turn:
        return []
    active = before.get("active_side")
    if _army(before["sides"].get(active, {})) != "french":
        return []
    touched = {c.path[1] for c in changes if len(c.path) >= 2 and c.path[0] == "units"}
    out = []
    for uid in sorted(touched):
        u0, u1 = before["units"].get(uid), after["units"].get(uid)
        if not u0 or not u1 or _army(before["sides"][u0["side"]]) != "coalition":
            continue
        if not (u0.get("in_combat") or u1.get("in_combat") or action == "combat_outcome"):
            continue
        if u1.get("destroyed") and not u0.get("destroyed"):
            out.append({"unit": uid, "name": u1["name"], "how": "broken"})
        elif reading == "shaken_or_broken" and _shaken(u1) and not _shaken(u0) and not u1.get("destroyed"):
            out.append({"unit": uid, "name": u1["name"], "how": "shaken"})
    return out


def candidates(state: dict, label: str) -> list[dict]:
    """The reinforcing units a disruption may fall on: those of the reserve still to arrive."""
    g = reserve_by_label(state, label)
    if g is None:
        return []
    return [{"unit": uid, "name": state["units"][uid]["name"], "disordered": bool(state["units"][uid].get("disordered"))}
            for uid in g["units"] if uid in state["units"] and state["units"][uid].get("awaiting")
            and not state["units"][uid].get("destroyed")]


def disrupt(state: dict, label: str, unit: str, source_words: str) -> tuple[list[Change], str, str]:
    """(the changes, "disordered" or "lost", the log's words) for the chosen reinforcing unit."""
    if unit not in {c["unit"] for c in candidates(state, label)}:
        raise RuleError(f"That is not a {label} unit still on its way: choose one of the list.")
    u = state["units"][unit]
    b = ChangeBuilder(state)
    if u.get("disordered"):
        b.set(("units", unit, "destroyed"), True, f"{u['name']}: lost ({source_words})")
        return list(b.changes), "lost", f"{u['name']} was already disordered: it is lost ({source_words})"
    b.set(("units", unit, "disordered"), True, f"{u['name']}: disordered ({source_words})")
    return list(b.changes), "disordered", f"{u['name']} will arrive disordered ({source_words})"


# --- a day side by side ----------------------------------------------------------------------------

class DayTogether(StepFacts):
    """Written by the table service as it starts the day's battles together: never typed by hand."""

    day: str = Field(max_length=4)
    battles: list[str] = Field(min_length=2, max_length=6)


def resolve_day_together(doc: dict, facts: DayTogether, dice) -> Result:
    if facts.day != doc.get("day"):
        raise RuleError(f"The campaign is on {doc.get('day')} June, not {facts.day} June.")
    if links_of(doc)["side_by_side"].get(facts.day):
        raise RuleError(f"The battles of {facts.day} June have been started side by side already.")
    for key in facts.battles:
        if key not in doc["battles"] or doc["battles"][key]["day"] != facts.day:
            raise RuleError(f"“{key}” is not a battle of {facts.day} June.")
    b = builder(doc)
    if "links" not in doc:
        b.set(("links",), empty_links())
    b.set(("links", "side_by_side", facts.day), True, f"{facts.day} June: side by side")
    titles = [doc["battles"][k]["title"] for k in facts.battles]
    notes = []
    plan = plan_links(doc)
    late = plan.get("late_start") or {}
    if late.get("battle") in facts.battles and late.get("behind") in facts.battles:
        notes.append(f"{doc['battles'][late['battle']]['title']} begins {counted(late.get('turns', 1), 'turn')} after "
                     f"{doc['battles'][late['behind']]['title']}.")
    ip = plan.get("i_corps") or {}
    if len(set(ip.get("battles", [])) & set(facts.battles)) > 1:
        notes.append(f"{ip['reserve']} may come to either battle; once it arrives at one it is gone from the other.")
    bp = plan.get("breakthroughs") or {}
    if bp.get("from") in facts.battles and bp.get("to") in facts.battles:
        notes.append(f"Each French breakthrough at {doc['battles'][bp['from']]['title']} in its turn {bp.get('turn', 2)} "
                     f"disrupts a reinforcing {bp['reinforcements']} unit at {doc['battles'][bp['to']]['title']}, "
                     "chosen by the Coalition.")
    return Result("day_together", f"{facts.day} June: {' and '.join(titles)} begin side by side",
                  changes=b.changes, notes=tuple(notes))


DAY_TOGETHER = ActionSpec("start_day_together", "Start the day's battles side by side", DayTogether,
                          resolve_day_together, rolls_dice=False)
