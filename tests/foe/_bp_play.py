"""Playing Black Powder against the Foe without a table: scripted answers, seeded dice, the
other side played by a passive player who only moves the phases on."""
from __future__ import annotations

from referee.blackpowder import GAME
from referee.blackpowder.foe import foe_step
from referee.core.dice import SeededDice
from referee.core.docstate import apply_changes
from referee.core.foe import CANT_TELL, Decision, Question


def act(doc, action, facts, dice):
    spec = GAME.action(action)
    result = spec.resolve(doc, spec.facts.model_validate(facts), dice)
    return apply_changes(doc, result.all_changes), result


def scripted_answer(q: Question, n: int) -> str:
    """A plausible answer that changes as the game goes: bands close in, the first enemy named,
    every seventh question "can't tell"."""
    values = [v for v, _ in q.options if v != CANT_TELL]
    if n % 7 == 6:
        return CANT_TELL
    if q.kind == "band":
        return values[n % 5]
    return values[n % len(values)]


def foe_turns(doc, answer=scripted_answer, seed="qb", limit=400, on_decision=None):
    """Let the Foe decide until it has nothing to do; each decision goes through ``foe_decide``."""
    n = 0
    for i in range(limit):
        answers = {}
        while True:
            step = GAME.action("foe_decide")  # the contract's own action
            found = foe_step(doc, answers)
            if isinstance(found, Question):
                answers[found.key] = answer(found, n)
                n += 1
                continue
            break
        if found is None:
            return doc, n
        assert isinstance(found, Decision)
        if on_decision:
            on_decision(doc, found, answers)
        doc, _ = act(doc, step.name, {"answers": answers}, SeededDice(f"{seed}:{doc['turn']}:{i}"))
    raise AssertionError("the Foe never stopped deciding")
