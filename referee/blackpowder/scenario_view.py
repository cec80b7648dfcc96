"""A Black Powder scenario's terms as the board shows them: the time and the turn limit, what is
due to arrive and when (with the buttons to roll for it, bring it on or put it off), and the
victory questions once the battle reaches its checkpoint. Everything here reads the battle
document through the engine (``reserves``, ``clock``, ``victory``); no rule lives here."""
from __future__ import annotations

from . import clock, reserves, victory
from .model import SIDES, Battle

SIDE_WORDS = {"both": "Both", "neither": "Neither"}


def clock_view(battle: Battle) -> dict:
    doc = battle.doc
    return {"now": clock.time_of_turn(doc, battle.turn), "limit": clock.turn_limit(doc),
            "time_up": clock.time_is_up(battle) and not doc.get("ended"),
            "next": reserves.next_arrival(doc)}


def reserves_view(battle: Battle) -> list[dict]:
    """Each group not yet arrived, for the board; the active side's first."""
    rows = reserves.arrivals_board(battle.doc)
    for r in rows:
        side = battle.sides.get(r["side"])
        r["side_name"] = side.name if side else r["side"]
    return sorted(rows, key=lambda r: r["side"] != battle.active_side)


def victory_view(battle: Battle) -> dict | None:
    """The questions to answer, once the checkpoint's turn has come (or the time is up), or when
    an army has broken; None before that, without questions, or once the battle has ended."""
    doc = battle.doc
    terms = victory.terms(doc)
    if terms is None or doc.get("ended"):
        return None
    at = victory.checkpoint(doc)
    broken = any(s.army_broken for s in battle.sides.values())
    due = at is None or battle.turn >= at or broken
    names = {s: battle.sides[s].name if s in battle.sides else s.title() for s in SIDES}
    questions = []
    for q in terms["questions"]:
        if q["answer"] == "side":
            options = [(s, names[s]) for s in SIDES] + [(w, SIDE_WORDS[w]) for w in ("both", "neither")]
        elif q["answer"] == "yes_no":
            options = [("yes", "Yes"), ("no", "No")]
        elif q["answer"] == "choice":
            options = [(o, o) for o in q["options"]]
        else:
            options = []
        questions.append({**q, "choices": options})
    return {"text": terms["text"], "checkpoint": at, "due": due, "questions": questions,
            "early": not due}
