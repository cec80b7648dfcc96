"""What the campaign pages show, computed from the campaign document: rosters at a glance, the
timeline and score, what carries forward, and for each step that rolls, its odds before the roll.
The rows themselves are the campaigns' own views (asked of the package, :mod:`referee.campaigns`);
this module adds each step's odds from the table's one write path. No writes here; the routes are
in :mod:`referee.web.campaigns`."""
from __future__ import annotations

from ..campaigns import (
    army_name,
    army_rows,
    card_rigs,
    day_by_day,
    day_rows,
    kind_for,
    rig_label,
    roster_by_engagement,
    squadron_rows,
    tables_of,
)
from ..systems import OIL_AND_IRON
from ..systems.replay import initial_state
from ..table.errors import BadInput
from ..table.write_path import odds_of


def table_step(entries: list) -> object | None:
    """The newest step in force that a table wrote (I Corps arriving, a breakthrough, a choice, an
    undo there): the campaign's own Undo stops above it, since such a step is taken back on that
    table's board. ``entries``: the campaign log, newest first."""
    return next((e for e in entries if e.action == "link" and not e.undone and not e.discarded), None)


def odds_for(doc: dict, kind: str, action: str, facts: dict) -> list[str]:
    """A step's exact chances before its roll, as its campaign kind's catalogue gives them (what
    stops them said in their place)."""
    try:
        return odds_of(kind_for(kind), doc, action, facts)
    except BadInput as e:
        return [e.message]


OUTCOME_WORDS = {"lost": "lost", "recovered_with_trait": "recovered with a repair trait", "recovered": "recovered"}


def oilandiron_context(doc: dict) -> dict:
    players = squadron_rows(doc)
    a = doc.get("aftermath")
    pending = []
    if a:
        for ref in a["pending_recovery"]:
            p, k = ref.split("/")
            pending.append({"ref": ref, "name": rig_label(doc, ref),
                            "exploded": ref in a["exploded"],
                            "odds": odds_for(doc, OIL_AND_IRON, "recovery_roll", {"rig": ref})})
    recovered = [(x.get("name") or rig_label(doc, ref), x["total"], OUTCOME_WORDS.get(x["outcome"], x["outcome"]))
                 for ref, x in a["recovery"].items()] if a else []
    salvage = [{"key": p, "name": doc["players"][p]["name"], "odds": odds_for(doc, OIL_AND_IRON, "salvage_roll", {"player": p}),
                "done": a["salvage"].get(p) if a else None} for p in doc["players"]] if a else []
    games = sorted(doc["games"].values(), key=lambda g: g["n"])
    frame_rigs, market_rigs = card_rigs(doc, players)
    t = tables_of(doc)
    return {"players": players, "aftermath": a, "pending": pending, "recovered": recovered, "salvage": salvage, "games": games,
            "tables": t, "frame_rigs": frame_rigs, "market_rigs": market_rigs, "plan_odds": odds_for(doc, OIL_AND_IRON, "plan_engagement", {}),
            "engagements": doc["catalogue"]["engagements"], "playing": [g for g in games if g["status"] == "playing"],
            "equipment_cards": sorted((k, v["name"], v["iron"]) for k, v in doc["catalogue"]["equipment"].items()),
            "weapon_cards": sorted((k, v["name"], v["iron"]) for k, v in doc["catalogue"]["weapons"].items())}


def hundred_days_context(doc: dict) -> dict:
    days = day_rows(doc)
    score = {a: sum(d["vp"][a] for d in days) for a in ("french", "coalition")}
    return {"days": days, "armies": army_rows(doc), "score": score, "consequences": doc["consequences"],
            "army_names": {key: army_name(doc, key) for key in doc["armies"]},
            "end_day_odds": odds_for(doc, "hundred_days", "end_day", {"day": doc["day"]}) if doc["day"] != "over" else []}


def settings_rows(doc: dict, kind: str) -> list[dict]:
    k = kind_for(kind)
    rows = []
    for name, default in k.defaults.items():
        value = doc.get("settings", {}).get(name, default)
        kind_ = "bool" if isinstance(default, bool) else "int" if isinstance(default, int) else "text"
        choices = k.choices.get(name, ())
        rows.append({"name": name, "title": name.replace("_", " ").capitalize(), "value": value,
                     "kind": "choice" if choices else kind_, "choices": choices,
                     "description": k.descriptions.get(name, "")})
    return rows


def timeline_of(doc: dict, entries: list) -> object:
    """A Hundred Days campaign day by day (``referee.campaigns.timeline``), from its document and its
    log (``entries`` newest first, as the table lists them): the steps in force, oldest first, taken
    back from the document for its first state."""
    rows = [{"changes": e.changes} for e in reversed(entries) if not e.undone and not e.discarded]
    return day_by_day(initial_state(doc, rows), rows)


def roster_of(doc: dict, entries: list) -> object:
    """An Of Oil and Iron campaign's roster engagement by engagement
    (``referee.campaigns.roster_by_engagement``), read as ``timeline_of`` reads the Hundred Days."""
    rows = [{"changes": e.changes} for e in reversed(entries) if not e.undone and not e.discarded]
    return roster_by_engagement(initial_state(doc, rows), rows)
