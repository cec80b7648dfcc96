"""What a campaign's pages show, read from its document: a squadron's Rigs at a glance, the
Hundred Days' days and armies, the fields an umpire may override in words, and a day's battles
on two tables at once. Pure Python, as the rest of the campaigns: the pages ask these through the
package (``referee.campaigns``), as a game's pages ask its board view, and add the odds from the
table's one write path themselves."""
from __future__ import annotations

from ..systems import OIL_AND_IRON
from . import hundred_days_links as hd_links
from .common import field_words, key_words, overridable, shown
from .oilandiron import LASTING, iron_used, rig_label, squadron_cards, structure_with_traits, tables_of
from .repairs import frames_left, repair_options

STATUS_WORDS = {"active": "ready", "awaiting_recovery": "destroyed: awaiting its recovery roll", "lost": "lost for good"}
CARD_WORDS = {"campaign_salvage_rolls": "Battlefield Recovery Rig", "campaign_ignore_repair_trait": "Black Market Parts Cache",
              "campaign_recovery_bonus": "Contracted Recovery Crew", "campaign_extra_iron": "Experimental Load-Bearing Frame"}


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
            "structure": [(loc.title(), top - min(r["damage"][loc], top), top)
                          for loc, top in structure_with_traits(r, t).items()],
            "damaged": any(r["damage"].values()),
            "lasting": [LASTING.get(x, x) for x in r["lasting"]], "lasting_keys": list(r["lasting"]),
            "traits": r["traits"],
            "weapons": [(i, cat["weapons"].get(w["card"], {}).get("name", w["card"]), w["lost"])
                        for i, w in enumerate(r["weapons"])],
            "equipment": [cat["equipment"].get(e["key"], {}).get("name", e["key"]) for e in r["equipment"]],
            "iron": f"{used}/{cap}", "iron_bonus": r.get("iron_bonus", 0), "history": r["history"],
            "service": r["service"], "label": rig_label(doc, f"{player}/{key}"),
            "repairs": repair_options(doc, f"{player}/{key}"),
        })
    return out


def squadron_rows(doc: dict) -> list[dict]:
    """Each player of an Of Oil and Iron campaign: their iron, squadron, Rigs, frames left and
    campaign cards in words."""
    return [{"key": p, "name": info["name"], "iron": info["iron"], "squadron": doc["rosters"][p]["name"],
             "rigs": rig_rows(doc, p), "frames_left": frames_left(doc, p),
             "cards": sorted(CARD_WORDS[c] for c in squadron_cards(doc, p) if c in CARD_WORDS)}
            for p, info in doc["players"].items()]


def card_rigs(doc: dict, players: list[dict]) -> tuple[list, list]:
    """The Rigs a campaign card's button offers, only for the squadrons that carry the card and
    can still use it: (Load-Bearing Frame's, Black Market's)."""
    a = doc.get("aftermath")
    standing = [(p, r) for p in players for r in p["rigs"] if r["status"] != "lost"]
    frame_rigs = [(r["ref"], f"{r['name']} ({p['name']})") for p, r in standing if frames_left(doc, p["key"])]
    market_rigs = [(r["ref"], f"{r['name']} ({p['name']})") for p, r in standing if a and p["key"] not in a["black_market"]
                   and "campaign_ignore_repair_trait" in squadron_cards(doc, p["key"])]
    return frame_rigs, market_rigs


def way_back(kind: str, doc: dict, step: str, ended: bool) -> str:
    """What a campaign game's link back to its campaign says: what the campaign wants next of it."""
    if kind == OIL_AND_IRON:
        status = doc.get("games", {}).get(step, {}).get("status")
        if status == "aftermath":
            return "Its Aftermath, in the campaign"
        if status == "playing" and ended:
            return "Back to the campaign: begin its Aftermath"
    elif doc.get("battles", {}).get(step, {}).get("status") == "playing" and ended:
        return "Back to the campaign: record its result"
    return "Back to the campaign"


def offers_end(kind: str, doc: dict, step: str, ended: bool) -> bool:
    """Whether a campaign game's board offers "End the battle" beside its way back: a Hundred Days
    battle still being fought, since ending it is what its day waits on."""
    return (kind != OIL_AND_IRON and not ended
            and doc.get("battles", {}).get(step, {}).get("status") == "playing")


def choice_owed(doc: dict, owed: list[dict]) -> str:
    """The link on a board whose side owes a choice after breakthroughs at the other table."""
    source = doc.get("battles", {}).get(owed[0].get("from", ""), {}).get("title", "the other table")
    many = f"{len(owed)} breakthroughs" if len(owed) > 1 else "A breakthrough"
    return f"{many} at {source}: choose which reinforcing unit arrives disordered"


def game_words(status: str, ended: bool, kind: str) -> str:
    """A campaign game's state in the timeline: a game that is over is not still being fought."""
    if status == "playing" and ended:
        return "over: its Aftermath is next" if kind == OIL_AND_IRON else "over: its result is to be recorded"
    return {"playing": "being fought", "aftermath": "in its Aftermath", "done": "done", "fought": "fought",
            "not_fought": "not fought yet", "cancelled": "not fought in this campaign"}.get(status, status)


def day_rows(doc: dict) -> list[dict]:
    """Each day of the Hundred Days: its battles, score and result, which battles may start, and
    whether I Corps may be declined or the day fought side by side."""
    days = []
    for d in doc["plan"]["days"]:
        battles = sorted((b for b in doc["battles"].values() if b["day"] == d["key"]), key=lambda b: b["order"])
        startable = [b for b in battles if b["status"] == "not_fought" and not b["optional"]]
        ip = hd_links.plan_links(doc).get("i_corps") or {}
        declinable = [b for b in startable if b["key"] in ip.get("battles", []) and b["key"] != ip.get("from")]
        days.append({"key": d["key"], "title": d["title"], "note": d.get("order_note", ""), "battles": battles,
                     "vp": doc["days"][d["key"]]["vp"], "result": doc["days"][d["key"]]["result"],
                     "current": doc["day"] == d["key"], "startable": [b["title"] for b in startable],
                     "i_corps_choice": declinable[0]["title"] if declinable and len(startable) > 1 else "",
                     "i_corps_key": declinable[0]["key"] if declinable and not hd_links.links_of(doc)["i_corps"].get("at") else "",
                     "side_by_side": bool(hd_links.links_of(doc)["side_by_side"].get(d["key"]))})
    return days


def army_rows(doc: dict) -> list[dict]:
    """Each army of the Hundred Days: its units, and what it has lost or has worn down."""
    armies = []
    for key, army in doc["armies"].items():
        units = sorted(((uid, {**u, "battles": [_title(doc, k) for k in u.get("battles", [])]})
                        for uid, u in army["units"].items()), key=lambda kv: (kv[1]["brigade"], kv[1]["name"]))
        armies.append({"key": key, "name": army["name"], "units": units,
                       "lost": [u["name"] for _, u in units if u["destroyed"]],
                       "worn": [(u["name"], u["casualties"]) for _, u in units if u["casualties"] and not u["destroyed"]],
                       "broken": [b["name"] for b in army["brigades"].values() if b.get("disordered_next")],
                       "commanders_lost": [f"{b.get('lost_commander') or 'commander'} ({b['name']})"
                                           for b in army["brigades"].values() if b.get("commander_lost")],
                       "general_lost": army.get("general_lost")})
    return armies


def _title(doc: dict, battle: str) -> str:
    """A battle the campaign knows by its title ("Quatre Bras"), never its key."""
    return (doc["battles"].get(battle) or {}).get("title", battle.replace("-", " ").title())


def override_fields(doc: dict) -> list[tuple[str, str, str]]:
    """Each field the umpire may override: its path (what the form posts), what it is in words
    (a player's or Rig's name for its id), and its value now."""
    return [(path, field_words(doc, path.split(".")), key_words(doc, value) if isinstance(value, str) else shown(value))
            for path, value in overridable(doc)]


# --- a day on two tables at once --------------------------------------------------------------

PHASE_WORDS = {"command": "Command", "shooting": "Shooting", "hand_to_hand": "Hand-to-Hand"}


def side_view(state: dict, side: str, d: dict) -> dict:
    """One side of a battle at a glance: its units fighting, coming, shaken and lost."""
    units = [u for u in state["units"].values() if u["side"] == side]
    return {"name": d.get("name", side), "broken": bool(d.get("army_broken")),
            "fighting": sum(1 for u in units if not (u.get("destroyed") or u.get("awaiting") or u.get("off_table"))),
            "coming": sum(1 for u in units if u.get("awaiting") and not u.get("destroyed")),
            "shaken": sum(1 for u in units if not u.get("destroyed") and u.get("stamina") is not None
                          and u.get("casualties", 0) >= u["stamina"]),
            "lost": sum(1 for u in units if u.get("destroyed")),
            "brigades_broken": sum(1 for b in state["brigades"].values() if b["side"] == side and b.get("broken"))}


def reached(doc: dict, key: str) -> list[str]:
    """What has reached this battle from the other table, and what it sent there, in words."""
    out, links, title = [], hd_links.links_of(doc), (lambda k: doc["battles"].get(k, {}).get("title", k))
    ic = links["i_corps"]
    plan = hd_links.plan_links(doc)
    if ic.get("at") == key:
        gone = ", ".join(title(g["battle"]) for g in ic.get("gone_from", []))
        out.append(f"{plan['i_corps']['reserve']} arrived here" + (f" and left {gone}'s reserves." if gone else "."))
    elif ic.get("at") and key in (plan.get("i_corps") or {}).get("battles", []):
        out.append(f"{plan['i_corps']['reserve']} arrived at {title(ic['at'])}: it is gone from the reserves here.")
    for bt in links["breakthroughs"]:
        ch = bt.get("choice") or {}
        if bt["from"] == key:
            out.append(f"Breakthrough, turn {bt['turn']}: {bt['name']} {bt['how']}"
                       + (f" → {ch['name']} {ch['effect']} at {title(ch['battle'])}." if ch else " → waiting for the Coalition's choice."))
        elif (plan.get("breakthroughs") or {}).get("to") == key:
            out.append(f"From {title(bt['from'])}, turn {bt['turn']}: {bt['name']} {bt['how']}"
                       + (f" → {ch['name']} {ch['effect']}." if ch else " → the Coalition chooses a unit."))
    return out


def table_views(doc: dict, games: dict, only: str | None = None) -> list[dict]:
    """Each battle of the campaign's day being fought (or fought), as its table stands now:
    ``games`` maps a battle's key to its game (or None)."""
    day = doc["day"] if doc["day"] in doc["days"] else None
    out = []
    bp = hd_links.plan_links(doc).get("breakthroughs") or {}
    for key, b in sorted(doc["battles"].items(), key=lambda kv: kv[1]["order"]):
        if (only and key != only) or (not only and (b["day"] != day or b["status"] in ("not_fought", "cancelled"))):
            continue
        g = games.get(key)
        view = {"key": key, "title": b["title"], "status": b["status"], "game_id": b.get("game_id"), "reached": reached(doc, key),
                "choices": [], "candidates": []}
        if g is not None:
            s = g.state
            view.update({"version": g.version, "turn": s.get("turn", 1), "turns": s.get("turn_limit"),
                         "phase": PHASE_WORDS.get(s.get("phase"), s.get("phase", "")),
                         "active": s["sides"].get(s.get("active_side"), {}).get("name", ""),
                         "ended": bool(s.get("ended")), "sides": [side_view(s, k, d) for k, d in s["sides"].items()]})
            if bp.get("to") == key and b["status"] == "playing":
                view["choices"] = [bt for bt in hd_links.links_of(doc)["breakthroughs"] if bt["status"] == "pending"]
                view["candidates"] = hd_links.candidates(s, bp["reinforcements"])
                view["reinforcements"] = bp["reinforcements"]
        out.append(view)
    return out
