"""Engagement types: setting one up from ``scenarios/oilandiron/engagements.yaml``, the VP each
round from what the players report (score_round), salvage and the supply drop, and who leads or
has won. Per-round VP are stored on the players; VP that follow from the table state (destroyed
Rigs, surviving objectives) are counted afresh each time, so an undo never leaves them stale."""
from __future__ import annotations

from pydantic import Field

from ..actions import ActionSpec, Facts
from ..data.oilandiron import Engagement as EngagementType
from ..data.oilandiron import engagement as engagement_type
from ..data.oilandiron import check_formation, formation, load_engagements
from ..dice import roll
from ..results import Result
from .activation import active_rig, paid_action
from .model import WEIGHT_CLASSES, Engagement, Ledger, RuleError, new_engagement_doc
from .system import SYSTEM

PER_ROUND_RULES = {"rig_near_objective", "rig_in_enemy_territory", "control_all_objectives", "control_at_round"}
AIRDROP_PLACES = {1: "the first quarter", 2: "the second quarter", 3: "the third quarter", 4: "the fourth quarter",
                  5: "the centre", 6: "the centre"}


def setup_engagement(name: str, players: dict, rigs: dict, engagement_key: str, objectives: dict | None = None,
                     settings: dict | None = None, campaign: bool = False, hvt: dict | None = None) -> dict:
    """A new engagement document for one engagement type: objective stats from the type, the High
    Value Targets (``hvt``: {player: rig id}; left out, each player's heaviest Rig), roles checked,
    and the starting Prepare tokens (Ambush)."""
    etype = engagement_type(engagement_key)
    if etype.roles:
        roles = sorted(p.get("role") or "" for p in players.values())
        if roles != sorted(etype.roles):
            raise RuleError(f"{etype.name} needs one player as {etype.roles[0]} and one as {etype.roles[1]}.")
    tiers = set()
    for pid, p in players.items():
        if p.get("formation"):
            check_formation({k: r for k, r in rigs.items() if r["player"] == pid}, p["formation"])
            tiers.add(formation(p["formation"])[0].key)
    if len(tiers) > 1:
        raise RuleError("Both squadrons must use formations of the same tier.")
    objs = {}
    spec = etype.objectives
    if objectives is None and spec is not None:
        # Players place objectives on the table; the app only needs one record per objective.
        # Named number first: squadron names often end in a possessive ("Marie's Swords").
        objectives = {f"{pid}-obj{n}": {"name": f"Objective {n} ({p.get('name', pid)})", "owner": pid}
                      for pid, p in players.items() for n in range(1, spec.per_player + 1)}
    for oid, o in (objectives or {}).items():
        o = dict(o)
        if spec is not None and spec.attackable:
            o.update(structure=spec.structure, direct=spec.direct, severe=spec.severe, critical=spec.critical)
        objs[oid] = o
    if spec is not None and objectives is not None:
        for pid in players:
            placed = sum(1 for o in objs.values() if o.get("owner") == pid)
            if placed != spec.per_player:
                raise RuleError(f"In {etype.name} each player sets out {spec.per_player} objective(s); "
                                f"{players[pid].get('name', pid)} has {placed}.")
    doc = new_engagement_doc(name, players, rigs, engagement_key, objs, settings, campaign)
    if etype.hvt:
        for pid in players:
            own = [r for r in doc["rigs"].values() if r["player"] == pid]
            heaviest = max(own, key=lambda r: WEIGHT_CLASSES.index(r["weight_class"]))
            chosen = (hvt or {}).get(pid) or heaviest["id"]
            who = players[pid].get("name", pid)
            if doc["rigs"].get(chosen, {}).get("player") != pid:
                raise RuleError(f"The High Value Target must be one of {who}'s Rigs.")
            # Between Rigs of the heaviest class the player chooses; a lighter one is not allowed.
            if doc["rigs"][chosen]["weight_class"] != heaviest["weight_class"]:
                raise RuleError(f"{who}'s High Value Target must be one of the heaviest Rigs "
                                f"({heaviest['weight_class']}).")
            doc["rigs"][chosen]["hvt"] = True
    if etype.start_tokens is not None:
        side = next(pid for pid, p in players.items() if p.get("role") == etype.start_tokens.role)
        for r in doc["rigs"].values():
            if r["player"] == side:
                r["prepare_tokens"] = list(r.get("prepare_tokens", [])) + [etype.start_tokens.token]
        doc["start_tokens_round"] = etype.start_tokens.round
    doc["scored_round"] = 0
    return doc


def current_type(eng: Engagement) -> EngagementType | None:
    return engagement_type(eng.engagement_type) if eng.engagement_type else None


def needs_round_score(eng: Engagement) -> bool:
    etype = current_type(eng)
    if etype is None or eng.doc.get("scored_round", 0) >= eng.round:
        return False
    # Holding the supply drop only counts in its round; the other per-round rules every round.
    return any(r.rule in PER_ROUND_RULES and (r.rule != "control_at_round" or r.round == eng.round)
               for r in etype.scoring)


def _rule(etype: EngagementType, name: str):
    return next((r for r in etype.scoring if r.rule == name), None)


def standing(eng: Engagement, final: bool = False) -> dict:
    """VP for each player, who leads, and who has won (``final``: the engagement is over now)."""
    etype = current_type(eng)
    vp = {pid: p.vp for pid, p in eng.players.items()}
    lines: list[str] = []
    if etype is None:
        return {"vp": vp, "leader": _leader(vp), "winner": None, "decided": False, "lines": []}
    table = load_engagements().destroyed_rig_vp
    role_of = {pid: p.role for pid, p in eng.players.items()}
    by_role = {p.role: pid for pid, p in eng.players.items() if p.role}
    objectives = list(eng.objectives.values())
    for r in etype.scoring:
        if r.rule == "destroyed_rig_vp":
            for pid in vp:
                gained = sum(table[x.weight_class] for x in eng.rigs_of(eng.other(pid)) if x.destroyed)
                vp[pid] += gained
        elif r.rule == "destroyed_rigs_flat_vp":
            pid = by_role[r.role]
            vp[pid] += r.vp * sum(1 for x in eng.rigs_of(eng.other(pid)) if x.destroyed)
        elif r.rule == "surviving_objectives_vp":
            vp[by_role[r.role]] += r.vp * sum(1 for o in objectives if not o.destroyed)
        elif r.rule == "destroyed_objectives_vp":
            vp[by_role[r.role]] += r.vp * sum(1 for o in objectives if o.destroyed)
    winner, decided = eng.doc.get("winner"), bool(eng.doc.get("winner"))
    v = etype.victory
    if not decided and v == "last_hvt":
        lost = {pid: any(x.hvt and x.destroyed for x in eng.rigs_of(pid)) for pid in vp}
        if lost["p1"] != lost["p2"]:
            winner, decided = ("p2" if lost["p1"] else "p1"), True
        elif lost["p1"] and lost["p2"]:
            winner, decided = "draw", True
    elif not decided and v == "destroy_all_objectives":
        for pid in vp:
            theirs = [o for o in objectives if o.owner == eng.other(pid)]
            if theirs and all(o.destroyed for o in theirs):
                winner, decided = pid, True
    elif not decided and v == "attacker_exits_half":
        att = by_role["attacker"]
        own = eng.rigs_of(att)
        if own and 2 * sum(1 for x in own if x.exited) >= len(own):
            winner, decided = att, True
    if not decided and final:
        decided = True
        if v == "most_vp":
            winner = _leader(vp) or ("draw" if etype.tie == "draw" else by_role.get("defender", "draw"))
        elif v == "defender_survives_half":
            d = by_role["defender"]
            own = eng.rigs_of(d)
            survivors = sum(1 for x in own if not x.destroyed)
            winner = d if own and 2 * survivors >= len(own) else by_role["attacker"]
        elif v == "attacker_exits_half":
            winner = by_role["defender"]
        else:
            winner = "draw"
    if any(role_of.values()):
        lines.extend(f"{eng.player_name(pid)} ({role_of[pid]}): {vp[pid]} VP" for pid in vp)
    else:
        lines.extend(f"{eng.player_name(pid)}: {vp[pid]} VP" for pid in vp)
    return {"vp": vp, "leader": _leader(vp), "winner": winner, "decided": decided, "lines": lines}


def _leader(vp: dict) -> str | None:
    if vp["p1"] == vp["p2"]:
        return None
    return "p1" if vp["p1"] > vp["p2"] else "p2"


def describe(eng: Engagement, s: dict) -> str:
    if s["winner"] == "draw":
        return "a draw"
    if s["winner"]:
        return f"{eng.player_name(s['winner'])} wins"
    if s["leader"]:
        return f"{eng.player_name(s['leader'])} leads"
    return "level"


def finish_engagement(ledger: Ledger, notes: list[str]) -> str:
    eng = ledger.view()
    s = standing(eng, final=True)
    text = describe(eng, s)
    ledger.set(("ended",), True, "Engagement over")
    ledger.set(("winner",), s["winner"], f"Result: {text}")
    ledger.set(("result",), {"vp": s["vp"], "winner": s["winner"], "text": text})
    notes.extend(s["lines"])
    return text


# --- score_round ------------------------------------------------------------------------------

class ScoreRoundFacts(Facts):
    rigs_near_objectives: list[str] = Field([], title="Rigs within scoring range of an objective",
                                            json_schema_extra={"ref": "rig", "side": "any"})
    rigs_in_enemy_territory: list[str] = Field([], title="Rigs inside enemy territory",
                                               json_schema_extra={"ref": "rig", "side": "any"})
    p1_controls: list[str] = Field([], title="Objectives the first player controls",
                                   json_schema_extra={"ref": "objective"})
    p2_controls: list[str] = Field([], title="Objectives the second player controls",
                                   json_schema_extra={"ref": "objective"})
    rigs_off_edge: list[str] = Field([], title="Rigs that moved off the table edge this round",
                                     json_schema_extra={"ref": "rig", "side": "any"})


def resolve_score_round(doc: dict, facts: ScoreRoundFacts, dice) -> Result:
    eng = Engagement.from_doc(doc)
    etype = current_type(eng)
    if etype is None:
        raise RuleError("This game has no engagement type to score.")
    eng.require_phase("maintenance", "Score the round in the Maintenance phase, after every Rig has activated.")
    if doc.get("scored_round", 0) >= eng.round:
        raise RuleError(f"Round {eng.round} has already been scored.")
    overlap = set(facts.p1_controls) & set(facts.p2_controls)
    if overlap:
        raise RuleError("An objective is controlled by one player at most.")
    for oid in facts.p1_controls + facts.p2_controls:
        eng.objective(oid)
    ledger = Ledger(doc)
    notes: list[str] = []
    gained = {"p1": 0, "p2": 0}

    def per_rig(ids: list[str], vp: int, why: str):
        for rid in dict.fromkeys(ids):
            rig = eng.rig(rid)
            if not rig.in_play:
                raise RuleError(f"{rig.name} is no longer on the table.")
            gained[rig.player] += vp
            notes.append(f"{rig.name}: +{vp} VP ({why}).")

    rule = _rule(etype, "rig_near_objective")
    if rule:
        per_rig(facts.rigs_near_objectives, rule.vp, f"within {rule.within}\" of an objective")
    elif facts.rigs_near_objectives:
        raise RuleError(f"{etype.name} scores nothing for Rigs near objectives.")
    rule = _rule(etype, "rig_in_enemy_territory")
    if rule:
        per_rig(facts.rigs_in_enemy_territory, rule.vp, "in enemy territory")
    elif facts.rigs_in_enemy_territory:
        raise RuleError(f"{etype.name} scores nothing for Rigs in enemy territory.")
    for oid in eng.objectives:
        holder = "p1" if oid in facts.p1_controls else "p2" if oid in facts.p2_controls else None
        ledger.set(("objectives", oid, "controlled_by"), holder)
    for rid in facts.rigs_off_edge:
        rig = eng.rig(rid)
        if not rig.in_play:
            raise RuleError(f"{rig.name} is no longer on the table.")
        ledger.rig_set(rid, "exited", True, f"{rig.name}: left the table")
        notes.append(f"{rig.name} has left the table.")
    for pid, n in gained.items():
        if n:
            ledger.set(("players", pid, "vp"), eng.players[pid].vp + n,
                       f"{eng.player_name(pid)}: VP {eng.players[pid].vp} → {eng.players[pid].vp + n}")
    ledger.set(("scored_round",), eng.round)
    rule = _rule(etype, "control_all_objectives")
    if rule and eng.objectives:
        for pid, owned in (("p1", facts.p1_controls), ("p2", facts.p2_controls)):
            if set(owned) == set(eng.objectives):
                notes.append(f"{eng.player_name(pid)} controls every objective: an instant win.")
                ledger.set(("winner",), pid)
    rule = _rule(etype, "control_at_round")
    if rule and eng.round == rule.round:
        holder = "p1" if facts.p1_controls else "p2" if facts.p2_controls else "draw"
        notes.append(f"End of round {rule.round}: the supply drop is held by "
                     f"{eng.player_name(holder) if holder != 'draw' else 'nobody'}.")
        ledger.set(("winner",), holder)
    s = standing(ledger.view())
    if s["decided"]:
        text = finish_engagement(ledger, notes)
        summary = f"Round {eng.round} scored: {text}"
    else:
        summary = f"Round {eng.round} scored: {describe(ledger.view(), s)}"
        notes.extend(s["lines"])
    return Result("score_round", summary, changes=ledger.changes, notes=tuple(notes),
                  data={"vp": s["vp"], "winner": s["winner"]})


# --- salvage and the supply drop --------------------------------------------------------------

class SalvageFacts(Facts):
    rig: str = Field(title="Rig", json_schema_extra={"ref": "rig", "side": "active"})
    objective: str = Field(title="Salvage objective", json_schema_extra={"ref": "objective"})
    within_1: bool = Field(False, title="Within 1\" of it?")


def resolve_collect_salvage(doc: dict, facts: SalvageFacts, dice) -> Result:
    eng = Engagement.from_doc(doc)
    etype = current_type(eng)
    rule = _rule(etype, "salvage") if etype else None
    if rule is None:
        raise RuleError("There is no salvage to collect in this engagement.")
    rig = active_rig(eng, facts.rig)
    obj = eng.objective(facts.objective)
    if not facts.within_1:
        raise RuleError(f"{rig.name} must be within {rule.within}\" of {obj.name} to collect salvage.")
    if obj.collected_by:
        raise RuleError(f"{obj.name} has already been stripped of its salvage.")
    ledger, notes = paid_action(doc, rig.id, rule.heat, "collect salvage")
    ledger.set(("objectives", obj.id, "collected_by"), [rig.id], f"{obj.name}: salvage taken by {rig.name}")
    vp = eng.players[rig.player].vp
    ledger.set(("players", rig.player, "vp"), vp + rule.vp, f"{eng.player_name(rig.player)}: VP {vp} → {vp + rule.vp}")
    return Result("collect_salvage", f"{rig.name} hauls salvage from {obj.name}: +{rule.vp} VP",
                  changes=ledger.changes, notes=tuple(notes))


class AirdropFacts(Facts):
    pass


def resolve_supply_airdrop(doc: dict, facts: AirdropFacts, dice) -> Result:
    eng = Engagement.from_doc(doc)
    etype = current_type(eng)
    if etype is None or not etype.airdrop:
        raise RuleError("This engagement has no supply drop.")
    if eng.round != etype.airdrop["round"] or eng.phase != "initiative":
        raise RuleError(f"The supply drop lands at the start of round {etype.airdrop['round']}.")
    if "airdrop" in eng.objectives:
        raise RuleError("The supply drop has already landed.")
    die = roll(dice, 1, 6, "where the supply drop lands")
    place = AIRDROP_PLACES[die[0].value]
    ledger = Ledger(doc)
    ledger.set(("objectives", "airdrop"), {"id": "airdrop", "name": "Supply drop", "owner": None, "structure": None,
                                          "structure_max": None, "direct": None, "severe": None, "critical": None,
                                          "destroyed": False, "controlled_by": None, "collected_by": []},
               f"Supply drop lands in {place}")
    return Result("supply_airdrop", f"The supply drop lands in {place} ({die[0].value})", dice=die,
                  changes=ledger.changes, notes=("Place the objective marker there.",))


SYSTEM.add(ActionSpec("score_round", "Score the round", ScoreRoundFacts, resolve_score_round, rolls_dice=False))
SYSTEM.add(ActionSpec("collect_salvage", "Collect salvage", SalvageFacts, resolve_collect_salvage, rolls_dice=False))


def odds_supply_airdrop(doc: dict, facts: AirdropFacts) -> list[str]:
    return ["Each quarter of the table: 16.7%", "The centre: 33.3%"]


SYSTEM.add(ActionSpec("supply_airdrop", "Supply drop", AirdropFacts, resolve_supply_airdrop, odds_supply_airdrop))
