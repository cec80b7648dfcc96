"""A scenario's own victory, computed from the umpire's answers about the table.

The scenario's terms are copied into the battle document as ``victory`` (see
``referee/data/scenario_terms.py`` and ``docs/scenarios.md``): the questions asked at the
checkpoint, the results they lead to, points, a tie rule and what happens otherwise. The result
names its reason; where the scenario is silent (or an army has broken) the general rule of
``brigades.py`` decides. The umpire may override the result; the log keeps what the scenario
gave.
"""
from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from ..core.contract import ActionSpec, Facts
from ..core.results import Result
from .brigades import decide_winner
from .clock import turn_limit
from .model import SIDES, Battle, BattleChanges, RuleError

SIDE_ANSWERS = ("blue", "red", "both", "neither")


def terms(doc: dict) -> dict | None:
    v = doc.get("victory")
    return v if v and v.get("questions") else None


def checkpoint(doc: dict) -> int | None:
    v = terms(doc)
    return (v.get("checkpoint") if v else None) or turn_limit(doc)


def read_answers(v: dict, raw: dict[str, Any]) -> dict[str, Any]:
    """The answers as the questions take them (a count from "3", yes from "true"), each checked."""
    out = {}
    for q in v["questions"]:
        if q["id"] not in raw or raw[q["id"]] in (None, ""):
            raise RuleError(f"Answer the question: {q['ask']}")
        value = raw[q["id"]]
        kind = q["answer"]
        if kind == "yes_no":
            if isinstance(value, str):
                value = {"yes": True, "true": True, "no": False, "false": False}.get(value.strip().lower(), value)
            ok = isinstance(value, bool)
        elif kind == "count":
            try:
                value = int(value)
                ok = 0 <= value <= q.get("max", 40)
            except (TypeError, ValueError):
                ok = False
        elif kind == "side":
            ok = value in SIDE_ANSWERS
        else:
            ok = value in q.get("options", ())
        if not ok:
            raise RuleError(f"“{value}” does not answer: {q['ask']}")
        out[q["id"]] = value
    return out


def _matches(want: Any, value: Any) -> bool:
    if isinstance(want, dict):
        return value >= want.get("at_least", value) and value <= want.get("at_most", value)
    if isinstance(want, list):
        return value in want
    return value == want


def points(v: dict, answers: dict[str, Any]) -> dict[str, float]:
    score = {"blue": 0.0, "red": 0.0}
    for q in v["questions"]:
        a, pts = answers[q["id"]], q.get("points") or 0
        if not pts:
            continue
        if q["answer"] == "side" and a in score:
            score[a] += pts
        elif q["answer"] == "yes_no" and a is True and q.get("scores"):
            score[q["scores"]] += pts
        elif q["answer"] == "count" and q.get("scores"):
            score[q["scores"]] += pts * a
    return score


def decide(battle: Battle, answers: dict[str, Any]) -> dict:
    """The scenario's result: winner ("blue", "red" or None for a draw), label, reason, points."""
    v = terms(battle.doc)
    if v is None:
        raise RuleError("This battle has no victory questions: end it by the general rule.")
    answers = read_answers(v, answers)
    score = points(v, answers)
    scored = any(q.get("points") for q in v["questions"])

    def general(why: str) -> dict:
        winner, because = decide_winner(battle)
        return {"winner": winner, "label": "By the general rule", "reason": f"{why}: {because}",
                "points": score if scored else None, "by": "general"}

    broken = [s for s in SIDES if battle.sides.get(s) and battle.sides[s].army_broken]
    if broken and v.get("army_break_decides", True):
        return general("An army has broken")
    for r in v.get("results", ()):
        if all(_matches(want, answers[qid]) for qid, want in r["when"].items()):
            if r["winner"] == "general":
                return general(r["reason"].rstrip("."))
            return {"winner": None if r["winner"] == "draw" else r["winner"], "label": r.get("label") or "",
                    "reason": r["reason"], "points": score if scored else None, "by": "scenario"}
    if scored:
        b, r_ = score["blue"], score["red"]
        names = {s: battle.sides[s].name if s in battle.sides else s for s in SIDES}
        tally = f"{names['blue']} {_points(b)}, {names['red']} {_points(r_)}"
        if b == r_:
            tie = v.get("tie", "draw")
            winner = None if tie == "draw" else tie
            return {"winner": winner, "label": "On points", "reason": f"Equal points ({tally}); "
                    + (f"a tie goes to the {names[tie]}" if winner else "a draw"), "points": score, "by": "points"}
        winner = "blue" if b > r_ else "red"
        return {"winner": winner, "label": "On points", "reason": tally, "points": score, "by": "points"}
    otherwise = v.get("otherwise", "general")
    if otherwise == "general":
        return general("No condition of the scenario was met")
    return {"winner": None if otherwise == "draw" else otherwise, "label": "",
            "reason": "No other condition of the scenario was met", "points": None, "by": "scenario"}


def _points(n: float) -> str:
    return f"{n:g} point" + ("" if n == 1 else "s")


class ScenarioVictory(Facts):
    answers: dict[str, str | int | bool] = Field(default_factory=dict, title="Answers",
                                                 json_schema_extra={"ref": "victory_questions", "ask": True})
    decision: Literal["by_scenario", "blue", "red", "draw"] = Field(
        "by_scenario", title="Result", json_schema_extra={"labels": {
            "by_scenario": "As the scenario says", "blue": "Blue wins", "red": "Red wins", "draw": "Draw"}})
    reason: str = Field("", title="Why (for the log)", max_length=200)
    early: bool = Field(False, title="End before the checkpoint")


def resolve_scenario_victory(doc: dict, facts: ScenarioVictory, dice) -> Result:
    battle = Battle.from_doc(doc)
    if doc.get("ended"):
        raise RuleError("The battle has already ended.")
    at = checkpoint(doc)
    broken = any(battle.sides[s].army_broken for s in battle.sides)
    if at and battle.turn < at and not (facts.early or broken):
        raise RuleError(f"The scenario's questions are answered at the end of turn {at}; this is turn "
                        f"{battle.turn}. Tick “End before the checkpoint” to end the battle now.")
    found = decide(battle, facts.answers)
    names = {s: battle.sides[s].name if s in battle.sides else s for s in SIDES}
    computed = found["winner"]
    if facts.decision == "by_scenario":
        winner = computed
        why = found["reason"]
    else:
        winner = None if facts.decision == "draw" else facts.decision
        gave = f"{names[computed]} win" if computed else "a draw"
        why = f"Decided by the umpire; the scenario gave {gave} ({found['reason']})"
    ch = BattleChanges(battle)
    ch.at(("ended",), True, "Battle ended")
    ch.at(("winner",), winner or "draw", f"Winner: {names[winner] if winner else 'draw'}")
    ch.at(("victory_result",), {"winner": winner or "draw", "label": found["label"], "reason": why,
                                "answers": read_answers(terms(doc), facts.answers), "points": found["points"],
                                "overridden": facts.decision != "by_scenario", "turn": battle.turn},
          "Victory: " + why)
    summary = (f"The battle goes to {names[winner]}" if winner else "The battle is a draw") + \
        (f": {found['label']}" if found["label"] and facts.decision == "by_scenario" else "")
    notes = [why if why.endswith(".") else why + "."]
    if found["points"]:
        notes.append(f"Points: {names['blue']} {_points(found['points']['blue'])}, "
                     f"{names['red']} {_points(found['points']['red'])}.")
    if facts.reason:
        notes.append(f"Reason: {facts.reason}")
    if battle.turn < (at or battle.turn):
        notes.append(f"Ended on turn {battle.turn}, before the checkpoint (turn {at}).")
    return Result("scenario_victory", summary, changes=ch.changes, notes=tuple(notes),
                  data={"winner": winner, "computed": computed, "by": found["by"], "points": found["points"]})


SCENARIO_VICTORY = ActionSpec("scenario_victory", "End the battle: scenario victory", ScenarioVictory,
                              resolve_scenario_victory, rolls_dice=False)
