"""Engagement types in play: each type's scoring as a function named after it (``iron_clash``,
``sabotage``...; ``SCORING`` finds one by the type's key), the VP each round from what the players
report (score_round), salvage and the supply drop, and who leads or has won.

Every number (VP per Rig, how near, which round) comes from the rules copied into the document
when the engagement began (``Engagement.rules``), never from the data files. Per-round VP are
stored on the players; VP that follow from the table state (destroyed Rigs, surviving objectives)
are counted afresh each time, so an undo never leaves them stale."""
from __future__ import annotations

from typing import Callable, Optional

from pydantic import Field

from ..core.changes import ChangeBuilder
from ..core.contract import ActionSpec, Facts
from ..core.dice import roll
from ..core.errors import DataError, RuleError
from ..core.results import Result
from .activation import active_rig, paid_action
from .engagement_rules import EngagementRules, ScoringRule
from .model import Engagement
from .writing import builder, engagement_now, rig_set

PER_ROUND_RULES = {"rig_near_objective", "rig_in_enemy_territory", "control_all_objectives", "control_at_round"}
AIRDROP_PLACES = {1: "the first quarter", 2: "the second quarter", 3: "the third quarter", 4: "the fourth quarter",
                  5: "the centre", 6: "the centre"}

# What an engagement's scoring says: VP for each player, and the winner ("p1", "p2", "draw") once
# it is decided (None while it is open).
Outcome = tuple[dict[str, int], Optional[str]]


def needs_round_score(eng: Engagement) -> bool:
    rules = eng.rules
    if rules is None or eng.doc.get("scored_round", 0) >= eng.round:
        return False
    # Holding the supply drop only counts in its round; the other per-round rules every round.
    return any(r.rule in PER_ROUND_RULES and (r.rule != "control_at_round" or r.round == eng.round)
               for r in rules.scoring)


# --- the pieces each engagement's scoring is made of -------------------------------------------

def reported_vp(eng: Engagement) -> dict[str, int]:
    """VP the players have scored round by round (and the umpire set)."""
    return {pid: p.vp for pid, p in eng.players.items()}


def _points(rules: EngagementRules, name: str) -> ScoringRule:
    rule = rules.rule(name)
    if rule is None:
        raise DataError(f"The rules of {rules.name} in this engagement give no “{name}”.")
    return rule


def _by_role(eng: Engagement, role: str) -> str:
    pid = eng.player_with_role(role)
    if pid is None:
        raise RuleError(f"Nobody plays the {role} in this engagement.")
    return pid


def with_destroyed_rigs_by_class(eng: Engagement, rules: EngagementRules, vp: dict) -> dict:
    """Each enemy Rig destroyed scores VP by its weight class."""
    table = rules.destroyed_rig_vp or {}
    return {pid: n + sum(table.get(x.weight_class, 0) for x in eng.rigs_of(eng.other(pid)) if x.destroyed)
            for pid, n in vp.items()}


def most_vp(eng: Engagement, rules: EngagementRules, vp: dict) -> str:
    """At the end the player with the most VP wins; a tie is a draw, or the defender's (``tie``)."""
    return _leader(vp) or ("draw" if rules.tie == "draw" else eng.player_with_role("defender") or "draw")


def _leader(vp: dict) -> str | None:
    if vp["p1"] == vp["p2"]:
        return None
    return "p1" if vp["p1"] > vp["p2"] else "p2"


# --- each engagement's scoring, by name ---------------------------------------------------------

def iron_clash(eng: Engagement, rules: EngagementRules, final: bool) -> Outcome:
    """Each enemy Rig destroyed scores VP by its weight class; the most VP at the end wins."""
    vp = with_destroyed_rigs_by_class(eng, rules, reported_vp(eng))
    return vp, most_vp(eng, rules, vp) if final else None


def high_value_target(eng: Engagement, rules: EngagementRules, final: bool) -> Outcome:
    """The side whose High Value Target still stands when the other's falls wins; both falling, or
    both standing at the end, is a draw."""
    vp = reported_vp(eng)
    lost = {pid: any(x.hvt and x.destroyed for x in eng.rigs_of(pid)) for pid in vp}
    if lost["p1"] != lost["p2"]:
        return vp, "p2" if lost["p1"] else "p1"
    if lost["p1"] and lost["p2"]:
        return vp, "draw"
    return vp, "draw" if final else None


def point_of_control(eng: Engagement, rules: EngagementRules, final: bool) -> Outcome:
    """VP each round for Rigs near an objective (score_round); the most VP at the end wins."""
    vp = reported_vp(eng)
    return vp, most_vp(eng, rules, vp) if final else None


def total_command(eng: Engagement, rules: EngagementRules, final: bool) -> Outcome:
    """Holding every objective at the end of a round wins at once (score_round); otherwise a draw."""
    return reported_vp(eng), "draw" if final else None


def push_the_line(eng: Engagement, rules: EngagementRules, final: bool) -> Outcome:
    """VP each round for Rigs in enemy territory (score_round); the most VP at the end wins."""
    vp = reported_vp(eng)
    return vp, most_vp(eng, rules, vp) if final else None


def supply_airdrop(eng: Engagement, rules: EngagementRules, final: bool) -> Outcome:
    """Whoever holds the supply drop at the end of its round wins (score_round); otherwise a draw."""
    return reported_vp(eng), "draw" if final else None


def salvage_heist(eng: Engagement, rules: EngagementRules, final: bool) -> Outcome:
    """VP for each salvage hauled (collect_salvage); the most VP at the end wins."""
    vp = reported_vp(eng)
    return vp, most_vp(eng, rules, vp) if final else None


def sabotage(eng: Engagement, rules: EngagementRules, final: bool) -> Outcome:
    """The first to destroy every one of the enemy's objectives wins; otherwise a draw."""
    vp = reported_vp(eng)
    for pid in vp:
        theirs = [o for o in eng.objectives.values() if o.owner == eng.other(pid)]
        if theirs and all(o.destroyed for o in theirs):
            return vp, pid
    return vp, "draw" if final else None


def ambush(eng: Engagement, rules: EngagementRules, final: bool) -> Outcome:
    """Scored as Iron Clash (the summary names no victory rule of its own)."""
    return iron_clash(eng, rules, final)


def hold_the_line(eng: Engagement, rules: EngagementRules, final: bool) -> Outcome:
    """At the end the defender wins if at least half of its squadron survives; else the attacker."""
    vp = reported_vp(eng)
    if not final:
        return vp, None
    defender = _by_role(eng, "defender")
    own = eng.rigs_of(defender)
    survivors = sum(1 for x in own if not x.destroyed)
    return vp, defender if own and 2 * survivors >= len(own) else _by_role(eng, "attacker")


def siege(eng: Engagement, rules: EngagementRules, final: bool) -> Outcome:
    """The defender scores for each surviving objective; the attacker for each destroyed objective
    and each destroyed Rig; the most VP at the end wins, ties going to the defender."""
    vp = reported_vp(eng)
    objectives = list(eng.objectives.values())
    surviving = _points(rules, "surviving_objectives_vp")
    vp[_by_role(eng, surviving.role)] += surviving.vp * sum(1 for o in objectives if not o.destroyed)
    wrecked = _points(rules, "destroyed_objectives_vp")
    vp[_by_role(eng, wrecked.role)] += wrecked.vp * sum(1 for o in objectives if o.destroyed)
    rigs = _points(rules, "destroyed_rigs_flat_vp")
    pid = _by_role(eng, rigs.role)
    vp[pid] += rigs.vp * sum(1 for x in eng.rigs_of(eng.other(pid)) if x.destroyed)
    return vp, most_vp(eng, rules, vp) if final else None


def breakthrough(eng: Engagement, rules: EngagementRules, final: bool) -> Outcome:
    """The attacker wins once at least half of its squadron has left by the far edge; otherwise the
    defender wins."""
    vp = reported_vp(eng)
    attacker = _by_role(eng, "attacker")
    own = eng.rigs_of(attacker)
    if own and 2 * sum(1 for x in own if x.exited) >= len(own):
        return vp, attacker
    return vp, _by_role(eng, "defender") if final else None


SCORING: dict[str, Callable[[Engagement, EngagementRules, bool], Outcome]] = {
    f.__name__: f for f in (iron_clash, high_value_target, point_of_control, total_command, push_the_line,
                            supply_airdrop, salvage_heist, sabotage, ambush, hold_the_line, siege, breakthrough)
}


def scoring_for(rules: EngagementRules) -> Callable[[Engagement, EngagementRules, bool], Outcome]:
    try:
        return SCORING[rules.key]
    except KeyError:
        raise DataError(f"Referee has no scoring for the engagement type “{rules.key}”.") from None


def standing(eng: Engagement, final: bool = False) -> dict:
    """VP for each player, who leads, and who has won (``final``: the engagement is over now)."""
    rules = eng.rules
    if rules is None:
        vp = reported_vp(eng)
        return {"vp": vp, "leader": _leader(vp), "winner": None, "decided": False, "lines": []}
    vp, outcome = scoring_for(rules)(eng, rules, final)
    # A winner already recorded (an instant win at a round's scoring) stands.
    winner = eng.doc.get("winner") or outcome
    role_of = {pid: p.role for pid, p in eng.players.items()}
    if any(role_of.values()):
        lines = [f"{eng.player_name(pid)} ({role_of[pid]}): {vp[pid]} VP" for pid in vp]
    else:
        lines = [f"{eng.player_name(pid)}: {vp[pid]} VP" for pid in vp]
    return {"vp": vp, "leader": _leader(vp), "winner": winner, "decided": bool(winner), "lines": lines}


def describe(eng: Engagement, s: dict) -> str:
    if s["winner"] == "draw":
        return "a draw"
    if s["winner"]:
        return f"{eng.player_name(s['winner'])} wins"
    if s["leader"]:
        return f"{eng.player_name(s['leader'])} leads"
    return "level"


def finish_engagement(work: ChangeBuilder, notes: list[str]) -> str:
    eng = engagement_now(work)
    s = standing(eng, final=True)
    text = describe(eng, s)
    work.set(("ended",), True, "Engagement over")
    work.set(("winner",), s["winner"], f"Result: {text}")
    points = ", ".join(f"{eng.player_name(p)} {vp}" for p, vp in s["vp"].items())
    work.set(("result",), {"vp": s["vp"], "winner": s["winner"], "text": text}, f"Victory points: {points}")
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
    etype = eng.rules
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
    work = builder(doc)
    notes: list[str] = []
    gained = {"p1": 0, "p2": 0}

    def per_rig(ids: list[str], vp: int, why: str):
        for rid in dict.fromkeys(ids):
            rig = eng.rig(rid)
            if not rig.in_play:
                raise RuleError(f"{rig.name} is no longer on the table.")
            gained[rig.player] += vp
            notes.append(f"{rig.name}: +{vp} VP ({why}).")

    rule = etype.rule("rig_near_objective")
    if rule:
        per_rig(facts.rigs_near_objectives, rule.vp, f"within {rule.within}\" of an objective")
        # Kept for the Foe, which prefers to shoot a Rig holding an objective (docs/foe.md).
        near = list(dict.fromkeys(facts.rigs_near_objectives))
        if near != list((doc.get("objective_rigs") or {}).get("rigs") or ()):
            work.set(("objective_rigs",), {"round": eng.round, "rigs": near},
                     "Near an objective: " + (", ".join(eng.rig(r).name for r in near) or "none"))
    elif facts.rigs_near_objectives:
        raise RuleError(f"{etype.name} scores nothing for Rigs near objectives.")
    rule = etype.rule("rig_in_enemy_territory")
    if rule:
        per_rig(facts.rigs_in_enemy_territory, rule.vp, "in enemy territory")
    elif facts.rigs_in_enemy_territory:
        raise RuleError(f"{etype.name} scores nothing for Rigs in enemy territory.")
    for oid in eng.objectives:
        holder = "p1" if oid in facts.p1_controls else "p2" if oid in facts.p2_controls else None
        work.set(("objectives", oid, "controlled_by"), holder)
    for rid in facts.rigs_off_edge:
        rig = eng.rig(rid)
        if not rig.in_play:
            raise RuleError(f"{rig.name} is no longer on the table.")
        rig_set(work, rid, "exited", True, f"{rig.name}: left the table")
        notes.append(f"{rig.name} has left the table.")
    for pid, n in gained.items():
        if n:
            work.set(("players", pid, "vp"), eng.players[pid].vp + n,
                       f"{eng.player_name(pid)}: VP {eng.players[pid].vp} → {eng.players[pid].vp + n}")
    work.set(("scored_round",), eng.round, f"Round {eng.round} scored")
    rule = etype.rule("control_all_objectives")
    if rule and eng.objectives:
        for pid, owned in (("p1", facts.p1_controls), ("p2", facts.p2_controls)):
            if set(owned) == set(eng.objectives):
                notes.append(f"{eng.player_name(pid)} controls every objective: an instant win.")
                work.set(("winner",), pid, f"{eng.player_name(pid)} wins")
    rule = etype.rule("control_at_round")
    if rule and eng.round == rule.round:
        holder = "p1" if facts.p1_controls else "p2" if facts.p2_controls else "draw"
        notes.append(f"End of round {rule.round}: the supply drop is held by "
                     f"{eng.player_name(holder) if holder != 'draw' else 'nobody'}.")
        work.set(("winner",), holder, "A draw" if holder == "draw" else f"{eng.player_name(holder)} wins")
    s = standing(engagement_now(work))
    if s["decided"]:
        text = finish_engagement(work, notes)
        summary = f"Round {eng.round} scored: {text}"
    else:
        summary = f"Round {eng.round} scored: {describe(engagement_now(work), s)}"
        notes.extend(s["lines"])
    return Result("score_round", summary, changes=work.changes, notes=tuple(notes),
                  data={"vp": s["vp"], "winner": s["winner"]})


# --- salvage and the supply drop --------------------------------------------------------------

class SalvageFacts(Facts):
    rig: str = Field(title="Rig", json_schema_extra={"ref": "rig", "side": "active"})
    objective: str = Field(title="Salvage objective", json_schema_extra={"ref": "objective"})
    within_1: bool = Field(False, title="Within 1\" of it?")


def resolve_collect_salvage(doc: dict, facts: SalvageFacts, dice) -> Result:
    eng = Engagement.from_doc(doc)
    etype = eng.rules
    rule = etype.rule("salvage") if etype else None
    if rule is None:
        raise RuleError("There is no salvage to collect in this engagement.")
    rig = active_rig(eng, facts.rig)
    obj = eng.objective(facts.objective)
    if not facts.within_1:
        raise RuleError(f"{rig.name} must be within {rule.within}\" of {obj.name} to collect salvage.")
    if obj.collected_by:
        raise RuleError(f"{obj.name} has already been stripped of its salvage.")
    work, notes = paid_action(doc, rig.id, rule.heat, "collect salvage")
    work.set(("objectives", obj.id, "collected_by"), [rig.id], f"{obj.name}: salvage taken by {rig.name}")
    vp = eng.players[rig.player].vp
    work.set(("players", rig.player, "vp"), vp + rule.vp, f"{eng.player_name(rig.player)}: VP {vp} → {vp + rule.vp}")
    return Result("collect_salvage", f"{rig.name} hauls salvage from {obj.name}: +{rule.vp} VP",
                  changes=work.changes, notes=tuple(notes))


class AirdropFacts(Facts):
    pass


def resolve_supply_airdrop(doc: dict, facts: AirdropFacts, dice) -> Result:
    eng = Engagement.from_doc(doc)
    etype = eng.rules
    if etype is None or not etype.airdrop:
        raise RuleError("This engagement has no supply drop.")
    if eng.round != etype.airdrop["round"] or eng.phase != "initiative":
        raise RuleError(f"The supply drop lands at the start of round {etype.airdrop['round']}.")
    if "airdrop" in eng.objectives:
        raise RuleError("The supply drop has already landed.")
    die = roll(dice, 1, 6, "where the supply drop lands")
    place = AIRDROP_PLACES[die[0].value]
    work = builder(doc)
    work.set(("objectives", "airdrop"), {"id": "airdrop", "name": "Supply drop", "owner": None, "structure": None,
                                          "structure_max": None, "direct": None, "severe": None, "critical": None,
                                          "destroyed": False, "controlled_by": None, "collected_by": []},
               f"Supply drop lands in {place}")
    return Result("supply_airdrop", f"The supply drop lands in {place} ({die[0].value})", dice=die,
                  changes=work.changes, notes=("Place the objective marker there.",))


SCORE_ROUND = ActionSpec("score_round", "Score the round", ScoreRoundFacts, resolve_score_round,
                         rolls_dice=False)
COLLECT_SALVAGE = ActionSpec("collect_salvage", "Collect salvage", SalvageFacts, resolve_collect_salvage,
                             rolls_dice=False)


def odds_supply_airdrop(doc: dict, facts: AirdropFacts) -> list[str]:
    return ["Each quarter of the table: 16.7%", "The centre: 33.3%"]


SUPPLY_AIRDROP = ActionSpec("supply_airdrop", "Supply drop", AirdropFacts, resolve_supply_airdrop,
                            odds_supply_airdrop)
