"""A Hundred Days battle's starting forces: the scenario's battle document with what the armies'
rosters and the earlier results carry into it.

- units destroyed earlier are gone; the others start with the casualties they carry (and the
  Stamina an Untested unit already rolled);
- a brigade broken in its last battle starts disordered (setting ``broken_brigades``);
- a lost commander's brigade is led by a replacement (setting ``replacement_staff_rating``);
- the named consequences of earlier results: a nation's units removed, brigades disordered,
  a number of units caught on the march disordered, notes for the umpire.

Units are matched by their id in the battle (the scenarios derive it from the unit's historical
name), within the same army; the plan's ``aliases`` may name one unit two ways.
"""
from __future__ import annotations

import copy
import re

from ..core.errors import RuleError
from ..core.words import counted
from .hundred_days import army_of, brigade_key, check_can_start
from .hundred_days_links import i_corps_at_start


def forces_for_battle(doc: dict, key: str, battle: dict, i_corps_source: dict | None = None,
                      decline_i_corps: bool = False) -> tuple[dict, list[str]]:
    """(the battle document to start from, the notes saying what was carried into it).
    ``i_corps_source``: the battle document whose scenario holds I Corps's reserve, for a battle
    it may come to whose scenario lacks it; ``decline_i_corps``: the French decline its entry
    checks here (:mod:`.hundred_days_links`)."""
    check_can_start(doc, key)
    out, notes = copy.deepcopy(battle), []
    notes.extend(i_corps_at_start(doc, key, out, i_corps_source, decline_i_corps))
    aliases = doc["plan"].get("aliases", {})
    army = {s: army_of(d) for s, d in out["sides"].items()}
    removed = []
    carried = []
    for uid, u in list(out["units"].items()):
        a = army[u["side"]]
        rec = doc["armies"][a]["units"].get(aliases.get(uid, uid))
        if rec is None:
            continue
        if rec["destroyed"]:
            removed.append(u["name"])
            del out["units"][uid]
            continue
        if rec.get("stamina") is not None and u.get("stamina") is None:
            u["stamina"] = rec["stamina"]
        if rec["casualties"]:
            u["casualties"] = rec["casualties"]
            u["carried"] = rec["casualties"]  # its card says so (blackpowder.model.Unit.carried)
            carried.append(f"{u['name']} {rec['casualties']}")
    if removed:
        notes.append("Lost in earlier battles, not on the field: " + ", ".join(removed) + ".")
    if carried:
        notes.append("Casualties carried: " + ", ".join(carried) + ".")
    brigade_aliases = doc["plan"].get("brigade_aliases", {})
    for bid, br in out["brigades"].items():
        bkey = brigade_key(out, bid)
        rec = doc["armies"][army[br["side"]]]["brigades"].get(brigade_aliases.get(bkey, bkey))
        if not rec:
            continue
        if rec.get("disordered_next"):
            _disorder(out, [bid])
            notes.append(f"{br['name']} was broken at {doc['battles'][rec['broken_in']]['title']}: "
                         "its units start disordered.")
        if rec.get("commander_lost") and br.get("commander"):
            old = br["commander"]["name"]
            br["commander"] = {**br["commander"], "name": f"Replacement for {old}", "personality": None,
                               "staff_rating": doc["settings"]["replacement_staff_rating"]}
            notes.append(f"{br['name']}: {old} was lost; a replacement leads it "
                         f"(Staff Rating {doc['settings']['replacement_staff_rating']}).")
    for s, side in out["sides"].items():
        if doc["armies"][army[s]].get("general_lost") and side.get("general"):
            old = side["general"]["name"]
            side["general"] = {**side["general"], "name": f"Replacement for {old}", "personality": None,
                               "staff_rating": doc["settings"]["replacement_staff_rating"]}
            notes.append(f"{side['name']}: {old} was lost; a replacement commands.")
    for c in doc.get("consequences", []):
        for eff in c.get("effects", []):
            if eff.get("battle") != key:
                continue
            notes.extend(_apply(out, army, eff, c["text"]))
    _drop_empty(out)
    for side in out["sides"]:
        if not any(u["side"] == side for u in out["units"].values()):
            raise RuleError(f"{out['sides'][side]['name']} would have no units left at this battle.")
    return out, notes


def _disorder(out: dict, brigade_ids: list[str], limit: int | None = None) -> list[str]:
    hit = []
    for u in out["units"].values():
        if u["brigade"] in brigade_ids and (limit is None or len(hit) < limit):
            u["disordered"] = True
            hit.append(u["name"])
    return hit


def _matching(out: dict, army: dict, eff: dict) -> list[str]:
    """Brigades of the effect's army whose name holds one of its words as whole words
    ("9th Division" is not "19th Division")."""
    words = [re.compile(rf"(?<!\w){re.escape(w)}(?!\w)", re.IGNORECASE)
             for w in eff.get("disorder") or eff.get("brigades") or []]
    return [bid for bid, br in out["brigades"].items() if army[br["side"]] == eff.get("army", army[br["side"]])
            and any(w.search(br["name"]) for w in words)]


def _apply(out: dict, army: dict, eff: dict, text: str) -> list[str]:
    if "remove_nation" in eff:
        nation = eff["remove_nation"]
        sides = {s for s, d in out["sides"].items() if (d.get("nation") or "") == nation}
        gone = [uid for uid, u in out["units"].items() if u.get("nation") == nation or
                (u.get("nation") is None and u["side"] in sides)]
        for uid in gone:
            del out["units"][uid]
        return [f"{text} ({counted(len(gone), nation.title() + ' unit')} removed.)"]
    if "disorder" in eff:
        hit = _disorder(out, _matching(out, army, eff))
        return [f"{text} Disordered at the start: {', '.join(hit) if hit else 'no matching brigade on this field'}."]
    if "disorder_count" in eff:
        hit = _disorder(out, _matching(out, army, eff), eff["disorder_count"])
        return [f"{text} Disordered at the start: {', '.join(hit) if hit else 'no matching unit on this field'}."]
    if "note" in eff:
        return [eff["note"]]
    return []


def _drop_empty(out: dict) -> None:
    used = {u["brigade"] for u in out["units"].values()}
    for bid in [b for b in out["brigades"] if b not in used]:
        del out["brigades"][bid]
