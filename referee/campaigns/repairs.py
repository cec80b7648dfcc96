"""Between engagements, paid in Iron or granted by a campaign card: the Black Market Parts Cache
(once per Aftermath, one negative repair trait ignored), the Experimental Load-Bearing Frame (one
Rig +1 Iron capacity, once per frame carried), repairs and refits at the campaign table's costs."""
from __future__ import annotations

from pydantic import Field

from ..core.contract import ActionSpec
from ..core.errors import RuleError
from ..core.results import Modifier, Result
from .aftermath import RIG, open_aftermath, roster_rig
from .common import StepFacts, builder
from .oilandiron import LASTING, LOCATIONS, iron_used, squadron_cards, structure_with_traits, tables_of


class TraitFacts(StepFacts):
    rig: str = Field(title="Rig", max_length=40, **RIG)
    trait: str = Field(title="Negative repair trait", max_length=60)


def resolve_black_market(doc: dict, facts: TraitFacts, dice) -> Result:
    a = open_aftermath(doc)
    player, key, rec = roster_rig(doc, facts.rig)
    if "campaign_ignore_repair_trait" not in squadron_cards(doc, player):
        raise RuleError(f"{doc['players'][player]['name']}'s squadron carries no Black Market Parts Cache.")
    if player in a["black_market"]:
        raise RuleError("The Black Market Parts Cache works once per Aftermath: it has been used.")
    idx = next((i for i, t in enumerate(rec["traits"]) if t["name"] == facts.trait and t["negative"]
                and not t["ignored"]), None)
    if idx is None:
        raise RuleError(f"{rec['label']} has no negative repair trait “{facts.trait}” still in force.")
    b = builder(doc)
    traits = [dict(t) for t in rec["traits"]]
    traits[idx]["ignored"] = True
    b.set(("rosters", player, "rigs", key, "traits"), traits, f"{rec['label']}: {facts.trait} ignored (Black Market Parts Cache)")
    b.set(("aftermath", "black_market"), a["black_market"] + [player],
          f"{doc['players'][player]['name']}: Black Market Parts Cache used")
    return Result("black_market", f"Black Market Parts Cache: {rec['label']} ignores {facts.trait}", changes=b.changes)


BLACK_MARKET = ActionSpec("black_market", "Black Market Parts Cache", TraitFacts, resolve_black_market, rolls_dice=False)


class FrameFacts(StepFacts):
    rig: str = Field(title="Rig that gains +1 Iron", max_length=40, **RIG)


def frames_left(doc: dict, player: str) -> int:
    """How many Experimental Load-Bearing Frames a squadron carries that no Rig has had yet."""
    eq = doc["catalogue"]["equipment"]
    rigs = doc["rosters"][player]["rigs"].values()
    frames = sum(1 for r in rigs if r["status"] != "lost"
                 for e in r["equipment"] if eq.get(e["key"], {}).get("effect_key") == "campaign_extra_iron")
    return max(0, frames - sum(r.get("frames_applied", 0) for r in rigs))


def resolve_frame(doc: dict, facts: FrameFacts, dice) -> Result:
    open_aftermath(doc)
    player, key, rec = roster_rig(doc, facts.rig)
    if not frames_left(doc, player):
        raise RuleError(f"{doc['players'][player]['name']} has no Experimental Load-Bearing Frame left to apply.")
    if rec["status"] == "lost":
        raise RuleError(f"{rec['label']} is lost.")
    b = builder(doc)
    base = ("rosters", player, "rigs", key)
    b.set(base + ("iron_bonus",), rec["iron_bonus"] + 1, f"{rec['label']}: Iron capacity +1 (Experimental Load-Bearing Frame)")
    b.set(base + ("frames_applied",), rec.get("frames_applied", 0) + 1, f"{rec['label']}: frame applied")
    return Result("load_bearing_frame", f"{rec['label']} gains +1 Iron capacity", changes=b.changes)


FRAME = ActionSpec("load_bearing_frame", "Experimental Load-Bearing Frame", FrameFacts, resolve_frame, rolls_dice=False)


class RepairFacts(StepFacts):
    rig: str = Field(title="Rig", max_length=40, **RIG)
    what: str = Field(title="Repair", max_length=80,
                      json_schema_extra={"help": "a location (hull, arms, legs, engine), “lasting:<effect>”, "
                                                 "“weapon:<n>” or “trait:<name>”"})
    sp: int = Field(1, title="SP to restore", ge=1, le=20)


def repair_cost(doc: dict, rec: dict, what: str, sp: int) -> tuple[int, str]:
    """(Iron, words) for one repair; a RuleError when it cannot be made."""
    costs = tables_of(doc).repair_costs
    if rec["status"] != "active":
        raise RuleError(f"{rec['label']} cannot be repaired now ({rec['status'].replace('_', ' ')}).")
    if what in LOCATIONS:
        lost = rec["damage"][what]
        if sp > lost:
            raise RuleError(f"{rec['label']}'s {what.title()} has lost {lost} SP; {sp} cannot be restored.")
        wrecked = lost >= structure_with_traits(rec, tables_of(doc))[what]  # its SP as traits leave it
        cost = costs.per_sp * sp + (costs.wrecked_location if wrecked else 0)
        field = ((doc.get("aftermath") or {}).get("battlefield") or {})
        cost = max(0, cost - field.get("repair_discount", 0))
        return cost, f"{what.title()} +{sp} SP"
    kind, _, name = what.partition(":")
    if kind == "lasting" and name in rec["lasting"]:
        return costs.lasting_effect, f"clear {LASTING.get(name, name)}"
    if kind == "trait" and any(t["name"] == name and t["negative"] and not t["ignored"] for t in rec["traits"]):
        return costs.negative_trait, f"strip the trait {name}"
    if kind == "weapon" and name.isdigit() and int(name) < len(rec["weapons"]) and rec["weapons"][int(name)]["lost"]:
        card = doc["catalogue"]["weapons"].get(rec["weapons"][int(name)]["card"], {})
        return card.get("iron", 0), f"replace the {card.get('name', 'weapon')}"
    raise RuleError(f"{rec['label']} has no such repair to make: choose one of its own repairs from its list.")


def repair_options(doc: dict, ref: str) -> list[tuple[str, str, int]]:
    """What a Rig (``ref``: "p1/r2") may have repaired now: (what the form posts, its words, its
    Iron for the first SP or the whole repair). Only its own damage, effects, traits and weapons."""
    player, key, rec = roster_rig(doc, ref)
    if rec["status"] != "active":
        return []
    wanted = [loc for loc in LOCATIONS if rec["damage"][loc]]
    wanted += [f"lasting:{x}" for x in rec["lasting"]]
    wanted += [f"trait:{t['name']}" for t in rec["traits"] if t["negative"] and not t["ignored"]]
    wanted += [f"weapon:{i}" for i, w in enumerate(rec["weapons"]) if w["lost"]]
    out = []
    for what in wanted:
        cost, words = repair_cost(doc, rec, what, 1)
        if what in LOCATIONS:
            words = f"{what.title()} SP ({rec['damage'][what]} lost)"
        out.append((what, words[0].upper() + words[1:], cost))
    return out


def resolve_repair(doc: dict, facts: RepairFacts, dice) -> Result:
    player, key, rec = roster_rig(doc, facts.rig)
    cost, words = repair_cost(doc, rec, facts.what, facts.sp)
    iron = doc["players"][player]["iron"]
    if cost > iron:
        raise RuleError(f"{words} costs {cost} Iron; {doc['players'][player]['name']} has {iron}.")
    b, base = builder(doc), ("rosters", player, "rigs", key)
    if facts.what in LOCATIONS:
        b.set(base + ("damage", facts.what), rec["damage"][facts.what] - facts.sp, f"{rec['label']}: {words}")
    else:
        kind, _, name = facts.what.partition(":")
        if kind == "lasting":
            b.set(base + ("lasting",), [x for x in rec["lasting"] if x != name], f"{rec['label']}: {words}")
        elif kind == "trait":
            b.set(base + ("traits",), [t for t in rec["traits"] if t["name"] != name], f"{rec['label']}: {words}")
        else:
            weapons = [dict(w) for w in rec["weapons"]]
            weapons[int(name)]["lost"] = False
            b.set(base + ("weapons",), weapons, f"{rec['label']}: {words}")
    b.set(("players", player, "iron"), iron - cost, f"{doc['players'][player]['name']}: Iron {iron} → {iron - cost}")
    return Result("repair", f"{rec['label']}: {words} for {cost} Iron", changes=b.changes,
                  modifiers=(Modifier(-cost, "repair cost (campaign table)", "Iron"),))


REPAIR = ActionSpec("repair", "Repair (paid in Iron)", RepairFacts, resolve_repair, rolls_dice=False)


class RefitFacts(StepFacts):
    rig: str = Field(title="Rig", max_length=40, **RIG)
    card: str = Field(title="Card to fit or take off", max_length=80)
    remove: bool = Field(False, title="Take it off (no Iron back)")


def resolve_refit(doc: dict, facts: RefitFacts, dice) -> Result:
    player, key, rec = roster_rig(doc, facts.rig)
    if rec["status"] != "active":
        raise RuleError(f"{rec['label']} cannot be refitted now ({rec['status'].replace('_', ' ')}).")
    cat, b, base = doc["catalogue"], builder(doc), ("rosters", player, "rigs", key)
    is_weapon = facts.card in cat["weapons"]
    if not is_weapon and facts.card not in cat["equipment"]:
        raise RuleError(f"There is no weapon or equipment card “{facts.card}”.")
    card = cat["weapons"][facts.card] if is_weapon else cat["equipment"][facts.card]
    field = "weapons" if is_weapon else "equipment"
    items = [dict(x) for x in rec[field]]
    if facts.remove:
        idx = next((i for i, x in enumerate(items) if x.get("card", x.get("key")) == facts.card), None)
        if idx is None:
            raise RuleError(f"{rec['label']} does not carry {card['name']}.")
        items.pop(idx)
        b.set(base + (field,), items, f"{rec['label']}: {card['name']} taken off")
        return Result("refit", f"{rec['label']}: {card['name']} taken off", changes=b.changes)
    if is_weapon:
        slots = 3 if rec["weight_class"] == "colossal" else 2
        if sum(1 for w in items if not w["lost"]) >= slots:
            raise RuleError(f"{rec['label']} has no free weapon slot.")
        items.append({"card": facts.card, "mount": None, "lost": False})
    else:
        if any(e["key"] == facts.card for e in items):
            raise RuleError(f"{rec['label']} already carries {card['name']}: each equipment once per Rig.")
        items.append({"key": facts.card, "weapon": None})
    used, cap = iron_used(doc, dict(rec, **{field: items}))
    if used > cap:
        raise RuleError(f"With {card['name']} {rec['label']} would carry {used} Iron; it carries {cap}.")
    iron = doc["players"][player]["iron"]
    if card["iron"] > iron:
        raise RuleError(f"{card['name']} costs {card['iron']} Iron; {doc['players'][player]['name']} has {iron}.")
    b.set(base + (field,), items, f"{rec['label']}: {card['name']} fitted")
    b.set(("players", player, "iron"), iron - card["iron"], f"{doc['players'][player]['name']}: Iron {iron} → {iron - card['iron']}")
    return Result("refit", f"{rec['label']}: {card['name']} fitted for {card['iron']} Iron", changes=b.changes)


REFIT = ActionSpec("refit", "Refit (paid in Iron)", RefitFacts, resolve_refit, rolls_dice=False)



CATALOGUE = (BLACK_MARKET, FRAME, REPAIR, REFIT)
