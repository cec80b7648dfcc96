"""What the campaign pages show, computed from the campaign document: rosters at a glance, the
timeline and score, what carries forward, and for each step that rolls, its odds before the roll.
No writes here; the routes are in :mod:`referee.web.campaigns`."""
from __future__ import annotations

from ..campaigns import kind_for
from ..campaigns.common import overridable
from ..campaigns.oilandiron import LASTING, LOCATIONS, iron_used, squadron_cards, tables_of
from ..campaigns.repairs import frames_left
from ..errors import DataError, RuleError

STATUS_WORDS = {"active": "ready", "awaiting_recovery": "destroyed: awaiting its recovery roll", "lost": "lost for good"}
CARD_WORDS = {"campaign_salvage_rolls": "Battlefield Recovery Rig", "campaign_ignore_repair_trait": "Black Market Parts Cache",
              "campaign_recovery_bonus": "Contracted Recovery Crew", "campaign_extra_iron": "Experimental Load-Bearing Frame"}


def odds_for(doc: dict, kind: str, action: str, facts: dict) -> list[str]:
    spec = kind_for(kind).action(action)
    if spec.odds is None:
        return []
    try:
        return spec.odds(doc, spec.facts.model_validate(facts))
    except (RuleError, DataError, ValueError) as e:
        return [str(e)]


def rig_rows(doc: dict, player: str) -> list[dict]:
    """Each Rig of a squadron as the roster shows it at a glance."""
    t = tables_of(doc)
    cat = doc["catalogue"]
    out = []
    for key, r in doc["rosters"][player]["rigs"].items():
        used, cap = iron_used(doc, r)
        out.append({
            "ref": f"{player}/{key}", "key": key, "name": r["name"], "chassis": r["chassis_name"],
            "weight_class": r["weight_class"].title(), "status": r["status"], "status_words": STATUS_WORDS[r["status"]],
            "xp": r["xp"], "rank": t.rank(r["xp"]), "kills": r["kills"],
            "structure": [(loc.title(), r["structure_max"][loc] - r["damage"][loc], r["structure_max"][loc])
                          for loc in LOCATIONS],
            "damaged": any(r["damage"].values()),
            "lasting": [LASTING.get(x, x) for x in r["lasting"]], "lasting_keys": list(r["lasting"]),
            "traits": r["traits"],
            "weapons": [(i, cat["weapons"].get(w["card"], {}).get("name", w["card"]), w["lost"])
                        for i, w in enumerate(r["weapons"])],
            "equipment": [cat["equipment"].get(e["key"], {}).get("name", e["key"]) for e in r["equipment"]],
            "iron": f"{used}/{cap}", "iron_bonus": r.get("iron_bonus", 0), "history": r["history"],
            "service": r["service"],
        })
    return out


def oilandiron_context(doc: dict) -> dict:
    players = []
    for p, info in doc["players"].items():
        players.append({"key": p, "name": info["name"], "iron": info["iron"], "squadron": doc["rosters"][p]["name"],
                        "rigs": rig_rows(doc, p), "frames_left": frames_left(doc, p),
                        "cards": sorted(CARD_WORDS[c] for c in squadron_cards(doc, p) if c in CARD_WORDS)})
    a = doc.get("aftermath")
    pending = []
    if a:
        for ref in a["pending_recovery"]:
            p, k = ref.split("/")
            pending.append({"ref": ref, "name": doc["rosters"][p]["rigs"][k]["name"],
                            "exploded": ref in a["exploded"],
                            "odds": odds_for(doc, "oilandiron", "recovery_roll", {"rig": ref})})
    salvage = [{"key": p, "name": doc["players"][p]["name"], "odds": odds_for(doc, "oilandiron", "salvage_roll", {"player": p}),
                "done": a["salvage"].get(p) if a else None} for p in doc["players"]] if a else []
    games = sorted(doc["games"].values(), key=lambda g: g["n"])
    t = tables_of(doc)
    return {"players": players, "aftermath": a, "pending": pending, "salvage": salvage, "games": games,
            "tables": t, "plan_odds": odds_for(doc, "oilandiron", "plan_engagement", {}),
            "engagements": doc["catalogue"]["engagements"], "playing": [g for g in games if g["status"] == "playing"],
            "equipment_cards": sorted((k, v["name"], v["iron"]) for k, v in doc["catalogue"]["equipment"].items()),
            "weapon_cards": sorted((k, v["name"], v["iron"]) for k, v in doc["catalogue"]["weapons"].items())}


def hundred_days_context(doc: dict) -> dict:
    days = []
    for d in doc["plan"]["days"]:
        battles = sorted((b for b in doc["battles"].values() if b["day"] == d["key"]), key=lambda b: b["order"])
        days.append({"key": d["key"], "title": d["title"], "note": d.get("order_note", ""), "battles": battles,
                     "vp": doc["days"][d["key"]]["vp"], "result": doc["days"][d["key"]]["result"],
                     "current": doc["day"] == d["key"]})
    armies = []
    for key, army in doc["armies"].items():
        units = sorted(army["units"].items(), key=lambda kv: (kv[1]["brigade"], kv[1]["name"]))
        armies.append({"key": key, "name": army["name"], "units": units,
                       "lost": [u["name"] for _, u in units if u["destroyed"]],
                       "worn": [(u["name"], u["casualties"]) for _, u in units if u["casualties"] and not u["destroyed"]],
                       "broken": [b["name"] for b in army["brigades"].values() if b.get("disordered_next")],
                       "commanders_lost": [f"{b.get('lost_commander') or 'commander'} ({b['name']})"
                                           for b in army["brigades"].values() if b.get("commander_lost")],
                       "general_lost": army.get("general_lost")})
    score = {a: sum(d["vp"][a] for d in days) for a in ("french", "coalition")}
    return {"days": days, "armies": armies, "score": score, "consequences": doc["consequences"],
            "end_day_odds": odds_for(doc, "hundred_days", "end_day", {"day": doc["day"]}) if doc["day"] != "over" else []}


def settings_rows(doc: dict, kind: str) -> list[dict]:
    k = kind_for(kind)
    rows = []
    for name, default in k.defaults.items():
        value = doc.get("settings", {}).get(name, default)
        kind_ = "bool" if isinstance(default, bool) else "int" if isinstance(default, int) else "text"
        from ..campaigns import hundred_days, oilandiron
        choices = (hundred_days.CHOICES if kind == "hundred_days" else oilandiron.CHOICES).get(name, ())
        rows.append({"name": name, "title": name.replace("_", " ").capitalize(), "value": value,
                     "kind": "choice" if choices else kind_, "choices": choices,
                     "description": k.descriptions.get(name, "")})
    return rows


def override_fields(doc: dict) -> list[tuple[str, str]]:
    return [(path, str(value)) for path, value in overridable(doc)]
