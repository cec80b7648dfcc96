"""The Hundred Days: the battles of 16 and 18 June 1815 as one Black Powder campaign.

The plan (``scenarios/campaigns/hundred-days.yaml``, copied into the campaign document) names the battles,
the day each belongs to, the scenario each is fought from, the campaign victory points of each
result and the named consequences. Each army has a roster of units (by the unit's id, which the
scenarios derive from its historical name) that carries casualties, losses, broken brigades and
lost commanders from one battle to the next; :mod:`referee.campaigns.hundred_days_forces` turns
the rosters into a battle's starting forces.

A battle's result: **decisive** when the loser's army broke; otherwise **major** when the loser
has at least ``major_margin`` more broken brigades than the winner, else **minor**; a draw when
the battle named no winner. The umpire may override the winner or the degree (recorded as an
override, with the reason).
"""
from __future__ import annotations

import copy
import re
import unicodedata
from typing import Literal

from pydantic import Field

from ..core.contract import ActionSpec
from ..core.dice import roll
from ..core.errors import RuleError
from ..core.results import Die, Result
from ..core.words import counted as counted_words
from .common import GameStarted, StepFacts, builder
from .hundred_days_links import BREAKTHROUGH_READINGS, empty_links

ARMIES = ("french", "coalition")
ARMY_WORDS = {"french": "French", "coalition": "Coalition"}  # an army's key as the players say it
DEGREES = ("decisive", "major", "minor", "draw")
DEFAULTS = {"recovery": "half", "major_margin": 2, "broken_brigades": "disordered", "replacement_staff_rating": 7,
            "wavre_breakthrough": "shaken_or_broken"}
CHOICES = {"recovery": ("none", "half", "all", "roll"), "broken_brigades": ("disordered", "recovered"),
           "wavre_breakthrough": BREAKTHROUGH_READINGS}
DESCRIPTIONS = {
    "recovery": "Casualties units recover between 16 and 18 June: none, half (rounded down, default), all, "
                "or roll (a D6 for each casualty, recovered on 4+).",
    "major_margin": "A victory is major when the loser has at least this many more broken brigades than the winner.",
    "broken_brigades": "A brigade broken in one battle starts its next battle with its units disordered "
                       "(default), or recovered.",
    "replacement_staff_rating": "The Staff Rating of the officer who takes over from a commander lost in battle.",
    "wavre_breakthrough": "What counts as a French breakthrough at Wavre in its turn 2: a Coalition unit shaken or "
                          "broken in hand-to-hand while the French have the turn (shaken or broken, default), "
                          "only one broken (broken), or none (off: the umpire counts them when Wavre is recorded).",
}


def army_of(side_doc: dict) -> str:
    return "french" if (side_doc.get("nation") or "").lower() == "french" or \
        "french" in side_doc.get("name", "").lower() else "coalition"


def army_name(doc: dict, key: str) -> str:
    """The army's name as a sentence carries it after "the" or a degree of victory: a campaign made
    before its army was renamed may still call it "The Coalition (…)", which read "won by the The
    Coalition" and "Minor The Coalition victory"."""
    name = doc["armies"][key]["name"]
    return name[4:] if name[:4].lower() == "the " else name


def new_campaign_doc(name: str, plan: dict, settings: dict | None = None) -> dict:
    battles = {}
    for i, b in enumerate(plan["battles"]):
        battles[b["key"]] = {"key": b["key"], "title": b["title"], "day": b["day"], "scenario": b["scenario"],
                             "optional": bool(b.get("optional")), "order": i, "vp": b.get("vp", {}),
                             "status": "not_fought", "game_id": None, "result": None, "notes": []}
    return {
        "kind": "hundred_days", "name": name, "plan": copy.deepcopy(plan),
        "settings": {**DEFAULTS, **(settings or {})},
        "battles": battles, "day": plan["days"][0]["key"],
        "days": {d["key"]: {"title": d["title"], "vp": {"french": 0, "coalition": 0}, "result": None}
                 for d in plan["days"]},
        "armies": {a: {"name": plan["armies"][a], "units": {}, "brigades": {}, "general_lost": False} for a in ARMIES},
        "consequences": [], "ended": False, "winner": None, "links": empty_links(),
    }


def slug(text: str) -> str:
    text = unicodedata.normalize("NFKD", text.replace("'", "").replace("’", "")).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "x"


def brigade_key(state: dict, bid: str) -> str:
    """A brigade's name in the army roster: its units' nation and its name ("prussian-1st-brigade"),
    so the British 3rd Brigade at Waterloo is never taken for the Prussian one at Ligny."""
    side = state["sides"][state["brigades"][bid]["side"]]
    nations = [u.get("nation") or side.get("nation") or "" for u in state["units"].values() if u["brigade"] == bid]
    nation = max(sorted(set(nations)), key=nations.count) if nations else (side.get("nation") or "")
    return f"{nation}-{slug(state['brigades'][bid]['name'])}".strip("-")


def read_battle(state: dict) -> dict:
    """What the campaign needs from a finished battle: each army's side, the winner, the broken
    armies and brigades, and every unit's casualties and losses."""
    if not state.get("ended"):
        raise RuleError("That battle is not over yet: end it on its own page first.")
    sides = {s: {"army": army_of(d), "name": d.get("name", s), "broken": bool(d.get("army_broken"))}
             for s, d in state["sides"].items()}
    winner = state.get("winner")
    brigades = {bid: {"name": b["name"], "army": sides[b["side"]]["army"], "broken": bool(b.get("broken")),
                      "commander": (b.get("commander") or {}).get("name"), "key": brigade_key(state, bid)}
                for bid, b in state["brigades"].items()}
    units = {uid: {"name": u["name"], "army": sides[u["side"]]["army"], "brigade": brigades[u["brigade"]]["name"],
                   "casualties": u.get("casualties", 0), "stamina": u.get("stamina"),
                   "destroyed": bool(u.get("destroyed")), "nation": u.get("nation")}
             for uid, u in state["units"].items()}
    return {"name": state.get("name", ""), "winner": sides[winner]["army"] if winner in sides else None,
            "armies_broken": {s["army"]: s["broken"] for s in sides.values()},
            "brigades": brigades, "units": units}


# --- starting a battle ----------------------------------------------------------------------------

def resolve_started(doc: dict, facts: GameStarted, dice) -> Result:
    battle = doc["battles"].get(facts.step)
    if battle is None:
        raise RuleError(f"The campaign has no battle “{facts.step}”.")
    check_can_start(doc, facts.step)
    b = builder(doc)
    b.set(("battles", facts.step, "status"), "playing", f"{battle['title']}: battle started")
    b.set(("battles", facts.step, "game_id"), facts.game_id, f"{battle['title']}: its board opened")
    b.set(("battles", facts.step, "notes"), list(facts.notes), f"{battle['title']}: its notes for the table")
    return Result("game_started", f"{battle['title']} begins from the armies' rosters", changes=b.changes,
                  notes=tuple(facts.notes))


def check_can_start(doc: dict, key: str) -> None:
    battle = doc["battles"][key]
    if doc.get("ended"):
        raise RuleError("The campaign is over.")
    if battle["status"] == "cancelled":
        raise RuleError(f"{battle['title']} is not fought in this campaign: " + "; ".join(battle["notes"]))
    if battle["status"] != "not_fought":
        raise RuleError(f"{battle['title']} has been started already.")
    if battle["day"] != doc["day"]:
        raise RuleError(f"{battle['title']} is fought on {battle['day']} June; the campaign is on {doc['day']} June.")


# --- a battle's result -------------------------------------------------------------------------

def judge(report: dict, margin: int) -> tuple[str | None, str, str]:
    """(winning army or None, degree, why) by the campaign's reading of a Black Powder result."""
    w = report["winner"]
    if w is None:
        return None, "draw", "the battle ended without a winner"
    loser = "coalition" if w == "french" else "french"
    if report["armies_broken"].get(loser):
        return w, "decisive", f"the {ARMY_WORDS[loser]} army broke"
    broken = {a: sum(1 for b in report["brigades"].values() if b["army"] == a and b["broken"]) for a in ARMIES}
    diff = broken[loser] - broken[w]
    degree = "major" if diff >= margin else "minor"
    return w, degree, (f"broken brigades: {ARMY_WORDS[loser]} {broken[loser]}, {ARMY_WORDS[w]} {broken[w]}; "
                       f"major takes {margin} more")


def battle_vp(vp: dict, winner: str | None, degree: str) -> int:
    if winner is None or degree == "draw" or not vp:
        return 0
    value = vp.get("major" if degree in ("decisive", "major") else "minor", 0)
    return value.get(winner, 0) if isinstance(value, dict) else value


WINNERS = {"by_rules": "As the battle ended", "french": "French", "coalition": "Coalition", "draw": "Draw"}
DEGREE_CHOICES = {"by_rules": "As the rules read it", **{d: d.title() for d in DEGREES[:3]}}


class RecordFacts(StepFacts):
    battle: str = Field(max_length=40)
    report: dict
    winner: Literal[tuple(WINNERS)] = Field("by_rules", title="Winner", json_schema_extra={"labels": WINNERS})
    degree: Literal[tuple(DEGREE_CHOICES)] = Field("by_rules", title="Victory", json_schema_extra={"labels": DEGREE_CHOICES})
    commanders_lost: list[str] = Field([], title="Commanders lost (brigade names, or “general:french”)")
    prussians_disrupted: int = Field(0, title="Prussian II Corps units disrupted by the Wavre fighting", ge=0, le=20)
    reason: str = Field("", title="Why (an override needs a reason)", max_length=200)


def _matches(rule: dict, key: str, winner: str | None, degree: str) -> bool:
    w = rule.get("when", {})
    if w.get("battle") != key or w.get("otherwise"):
        return False
    return w.get("winner") in ("any", winner) and w.get("degree") in ("any", degree)


def consequences_of(plan: dict, key: str, winner: str | None, degree: str) -> list[dict]:
    rules = [c for c in plan.get("consequences", []) if _matches(c, key, winner, degree)]
    if not rules:
        rules = [c for c in plan.get("consequences", []) if c.get("when", {}).get("battle") == key
                 and c["when"].get("otherwise")]
    return rules


def resolve_record(doc: dict, facts: RecordFacts, dice) -> Result:
    battle = doc["battles"].get(facts.battle)
    if battle is None:
        raise RuleError(f"The campaign has no battle “{facts.battle}”.")
    if battle["status"] != "playing":
        raise RuleError(f"{battle['title']} is not being fought (it is {battle['status'].replace('_', ' ')}).")
    rep, b, notes = facts.report, builder(doc), []
    winner, degree, why = judge(rep, doc["settings"]["major_margin"])
    override = []
    if facts.winner != "by_rules":
        new = None if facts.winner == "draw" else facts.winner
        if new != winner:
            override.append(f"winner {ARMY_WORDS.get(winner, 'none')} → {ARMY_WORDS.get(new, 'draw')}")
        winner = new
        if winner is None:
            degree = "draw"
    if facts.degree != "by_rules" and winner is not None and facts.degree != degree:
        override.append(f"victory {degree} → {facts.degree}")
        degree = facts.degree
    if winner is not None and degree == "draw":
        degree = "minor"
    if override and not facts.reason.strip():
        raise RuleError("An umpire's override of the result needs a reason for the log.")
    vp = battle_vp(battle["vp"], winner, degree)
    day = battle["day"]
    if winner and vp:
        total = doc["days"][day]["vp"][winner] + vp
        b.set(("days", day, "vp", winner), total, f"{day} June: {ARMY_WORDS[winner]} campaign VP → {total}")
    # The armies' rosters.
    for army in ARMIES:
        units = dict(doc["armies"][army]["units"])
        for uid, u in rep["units"].items():
            if u["army"] != army:
                continue
            old = units.get(uid, {"battles": []})
            cas = u["casualties"] if u["stamina"] is None else min(u["casualties"], u["stamina"])
            units[uid] = {"name": u["name"], "brigade": u["brigade"], "casualties": cas, "stamina": u["stamina"],
                          "destroyed": u["destroyed"], "battles": old["battles"] + [facts.battle]}
        brigades = {k: dict(v) for k, v in doc["armies"][army]["brigades"].items()}
        for br in rep["brigades"].values():
            if br["army"] != army:
                continue
            entry = brigades.setdefault(br.get("key") or slug(br["name"]), {"name": br["name"], "broken_in": None,
                                                          "commander_lost": False, "disordered_next": False})
            if br["broken"]:
                entry["broken_in"] = facts.battle
            # A broken brigade starts its next battle disordered (a setting); one that held does not.
            entry["disordered_next"] = br["broken"] and doc["settings"]["broken_brigades"] == "disordered"
            if br["name"] in facts.commanders_lost:
                entry["commander_lost"] = True
                entry["lost_commander"] = br["commander"]
                notes.append(f"{br['commander'] or 'The commander'} of {br['name']} is lost.")
        unknown = [c for c in facts.commanders_lost if not c.startswith("general:")
                   and c not in {br["name"] for br in rep["brigades"].values()}]
        if unknown:
            raise RuleError(f"No brigade called {', '.join(unknown)} fought at {battle['title']}.")
        b.set(("armies", army, "units"), units, f"{doc['armies'][army]['name']}: losses at {battle['title']} carried")
        b.set(("armies", army, "brigades"), brigades)
        if f"general:{army}" in facts.commanders_lost:
            b.set(("armies", army, "general_lost"), True, f"{doc['armies'][army]['name']}: the general is lost")
    # The named consequences.
    found = consequences_of(doc["plan"], facts.battle, winner, degree)
    counted = [bt for bt in doc.get("links", {}).get("breakthroughs", []) if bt["from"] == facts.battle]
    if facts.prussians_disrupted and counted:
        raise RuleError(f"Referee counted {counted_words(len(counted), 'breakthrough')} at {battle['title']} as they happened; "
                        "the Coalition chooses each on Waterloo's table page. Leave the count at 0.")
    if facts.prussians_disrupted:
        found.append({"text": f"{counted_words(facts.prussians_disrupted, 'Prussian II Corps unit')} {'was' if facts.prussians_disrupted == 1 else 'were'} caught on the march at "
                              "Wavre: they begin Waterloo disordered.",
                      "effects": [{"disorder_count": facts.prussians_disrupted, "army": "coalition",
                                   "nation": "prussian", "battle": "waterloo", "brigades": ["II Corps"]}]})
    cons = list(doc["consequences"])
    for c in found:
        cons.append({"from": facts.battle, "text": c["text"], "effects": c.get("effects", [])})
        notes.append(c["text"])
        for eff in c.get("effects", []):
            if "cancel" in eff and eff["cancel"] in doc["battles"]:
                other = doc["battles"][eff["cancel"]]
                if other["status"] == "not_fought":
                    b.set(("battles", eff["cancel"], "status"), "cancelled", f"{other['title']}: not fought")
                    b.set(("battles", eff["cancel"], "notes"), [c["text"]])
            if "end_campaign" in eff:
                won = winner if eff["end_campaign"] == "winner" else eff["end_campaign"]
                b.set(("ended",), True, "The campaign is over")
                b.set(("winner",), won, f"Campaign won by the {army_name(doc, won)}")
    b.set(("consequences",), cons, "What the result changes in the campaign")
    result = {"winner": winner, "degree": degree, "vp": vp, "why": why, "game_id": battle["game_id"],
              "override": "; ".join(override) if override else None, "reason": facts.reason}
    words = f"{degree.title()} {army_name(doc, winner)} victory" if winner else "Draw"
    b.set(("battles", facts.battle, "result"), result, f"{battle['title']}: {words}, {vp} campaign VP")
    b.set(("battles", facts.battle, "status"), "fought")
    if override:
        notes.insert(0, f"Umpire override: {'; '.join(override)} (reason: {facts.reason})")
    return Result("record_result", f"{battle['title']}: {words} ({why}); {vp} campaign VP",
                  changes=b.changes, notes=tuple(notes), data={"override": bool(override), **result})


RECORD = ActionSpec("record_result", "Record the battle's result", RecordFacts, resolve_record, rolls_dice=False)


# --- the end of a day ------------------------------------------------------------------------------

class EndDayFacts(StepFacts):
    day: str = Field(max_length=4)


def day_result(plan: dict, vp: dict) -> tuple[str | None, str, int]:
    diff = abs(vp["french"] - vp["coalition"])
    leader = None if diff == 0 else ("french" if vp["french"] > vp["coalition"] else "coalition")
    for row in plan["day_results"]:
        if diff >= row["min"]:
            return leader, row["degree"], diff
    return leader, "stalemate", diff


def _open_battles(doc: dict, day: str) -> list[str]:
    return [b["title"] for b in doc["battles"].values() if b["day"] == day and
            (b["status"] == "playing" or (b["status"] == "not_fought" and not b["optional"]))]


def end_day_odds(doc: dict, facts: EndDayFacts) -> list[str]:
    if doc["settings"]["recovery"] != "roll":
        return []
    n = sum(u["casualties"] for a in ARMIES for u in doc["armies"][a]["units"].values() if not u["destroyed"])
    return [f"Recovery: a D6 for each of {n} casualties, each recovered on 4+ (50%)."]


def resolve_end_day(doc: dict, facts: EndDayFacts, dice) -> Result:
    if doc.get("ended") and doc["day"] != facts.day:
        raise RuleError("The campaign is over.")
    if facts.day != doc["day"]:
        raise RuleError(f"The campaign is on {doc['day']} June, not {facts.day} June.")
    waiting = _open_battles(doc, facts.day)
    if waiting and not doc.get("ended"):
        raise RuleError("Still to fight or record first: " + ", ".join(waiting) + ".")
    b, notes, rolled = builder(doc), [], []
    vp = doc["days"][facts.day]["vp"]
    leader, degree, diff = day_result(doc["plan"], vp)
    deciding = next(d["deciding_battle"] for d in doc["plan"]["days"] if d["key"] == facts.day)
    res = doc["battles"][deciding].get("result") or {}
    if res.get("degree") == "decisive":
        leader, degree = res["winner"], "decisive"
    text = f"{degree.title()} {army_name(doc, leader)} victory" if leader else "Stalemate"
    b.set(("days", facts.day, "result"), {"winner": leader, "degree": degree, "margin": diff, "text": text},
          f"{facts.day} June: {text} (campaign VP French {vp['french']}, Coalition {vp['coalition']})")
    days = [d["key"] for d in doc["plan"]["days"]]
    nxt = days[days.index(facts.day) + 1] if days.index(facts.day) + 1 < len(days) else None
    if nxt is None or doc.get("ended"):
        b.set(("day",), "over", "The campaign is over")
        if not doc.get("ended"):
            b.set(("ended",), True)
            b.set(("winner",), leader, f"Campaign: {text}")
    else:
        b.set(("day",), nxt, f"The campaign moves on to {nxt} June")
        mode = doc["settings"]["recovery"]
        for army in ARMIES:
            units = {k: dict(v) for k, v in doc["armies"][army]["units"].items()}
            for uid, u in units.items():
                if u["destroyed"] or not u["casualties"]:
                    continue
                if mode == "half":
                    back = u["casualties"] // 2
                elif mode == "all":
                    back = u["casualties"]
                elif mode == "roll":
                    ds: tuple[Die, ...] = roll(dice, u["casualties"], 6, f"recovery of {u['name']} (4+ recovers one)", need=4)
                    rolled.extend(ds)
                    back = sum(1 for d in ds if d.value >= 4)
                else:
                    back = 0
                u["casualties"] -= back
            b.set(("armies", army, "units"), units, f"{doc['armies'][army]['name']}: overnight recovery ({mode})")
        notes.append(f"Casualties recovered overnight: {mode}.")
    return Result("end_day", f"{facts.day} June ends: {text}", dice=tuple(rolled), changes=b.changes, notes=tuple(notes))


END_DAY = ActionSpec("end_day", "End the day", EndDayFacts, resolve_end_day, end_day_odds)
STARTED = ActionSpec("game_started", "Battle started", GameStarted, resolve_started, rolls_dice=False)
CATALOGUE = (STARTED, RECORD, END_DAY)
