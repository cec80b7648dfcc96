"""Every action of a Foe decision, in order, through the game's contract: each must be offered to
its unit (where the contract names one) on the state it is taken in, and resolve without a refusal.
The steps are taken as ``foe_decide`` takes them: a step "if the order passed" only after a passed
order, a step "if allowed" only while the game still allows it."""
from __future__ import annotations

from referee.core.docstate import apply_changes
from referee.core.errors import RuleError
from referee.core.foe import Decision


def walk_plan(game, doc: dict, decision: Decision, dice, unit_fields: dict[str, str], still_allowed) -> int:
    """Apply ``decision``'s plan to ``doc`` step by step; returns how many steps were taken."""
    current, passed, taken = doc, True, 0
    for n, planned in enumerate(decision.plan):
        if planned.when == "passed" and not passed:
            continue
        if planned.when == "if_allowed" and not still_allowed(current, planned):
            continue
        assert planned.action in game.actions, (planned.action, decision.rung)
        field = unit_fields.get(planned.action)
        ids = planned.facts.get(field) if field else None
        for uid in (ids if isinstance(ids, list) else [ids]) if ids else []:
            allowed = {o.action for o in game.offers(current, uid) if o.allowed}
            assert planned.action in allowed, f"step {n + 1} ({planned.action} by {uid}) not offered: {decision}"
        spec = game.action(planned.action)
        try:
            result = spec.resolve(current, spec.facts.model_validate(planned.facts), dice)
        except RuleError as refused:
            raise AssertionError(f"step {n + 1} of “{decision.name}: {decision.rung}” refused: {refused}") from None
        current = apply_changes(current, result.all_changes)
        passed = bool(result.data.get("passed", True)) and not result.data.get("blunder")
        taken += 1
    return taken
