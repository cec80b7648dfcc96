"""What a unit may do now: the actions that pick a unit, this unit filled in, the ones usual in
this phase first, and for each the tablet may not offer, the reason.

The board draws these as they come; it knows no rule of its own.
"""
from __future__ import annotations

from ..core.contract import ActionSpec, Offer
from .model import PHASE_LABELS, Battle, RuleError
from .turn_record import units_ordered_this_turn

# What a unit usually does in each phase: those come first on its panel, highlighted.
PHASE_ACTIONS = {
    "command": ("order", "charge", "initiative_move", "brave_rally", "elite_rally"),
    "shooting": ("shoot", "take_hits"),
    "hand_to_hand": (),
}
# Then the rest in the order a game meets them.
USUAL_ORDER = ("order", "charge", "shoot", "break_test", "take_hits", "initiative_move", "brave_rally",
               "elite_rally")
# Reached another way: the umpire's corrections have their own forms on the panel, and fights
# are picked from the open combats.
NOT_FROM_A_UNIT = ("adjust_unit", "hold_back")  # holding back: from the reserves panel


def _unit_field(spec: ActionSpec) -> tuple[str, dict] | None:
    """The fact that names the unit, when the action picks one (and is not about a combat)."""
    refs = [(name, info.json_schema_extra) for name, info in spec.facts.model_fields.items()
            if isinstance(info.json_schema_extra, dict) and "ref" in info.json_schema_extra]
    if any(extra["ref"] == "combat" for _, extra in refs):
        return None
    for name, extra in refs:
        if extra["ref"] == "unit":
            return name, extra
    return None


def unit_offers(battle: Battle, unit_id: str, catalogue: tuple[ActionSpec, ...]) -> list[Offer]:
    try:
        unit = battle.units[unit_id]
    except KeyError:
        raise RuleError(f"There is no unit “{unit_id}” in this battle.") from None
    active = unit.side == battle.active_side
    now = PHASE_ACTIONS.get(battle.phase, ()) if active else ()
    active_name = battle.sides[battle.active_side].name if battle.active_side in battle.sides else battle.active_side
    out = []
    for spec in catalogue:
        if spec.name in NOT_FROM_A_UNIT:
            continue
        found = _unit_field(spec)
        if found is None:
            continue
        field, extra = found
        reason = None
        if battle.doc.get("ended"):
            reason = "The battle is over."
        elif not unit.in_play:
            reason = (f"{unit.name} has not arrived yet." if unit.awaiting
                      else f"{unit.name} is no longer on the table.")
        elif extra.get("side", "any") == "active" and not active:
            reason = (f"Only {active_name}, whose turn it is, does this now "
                      f"({PHASE_LABELS.get(battle.phase, battle.phase)} phase).")
        elif spec.name == "order" and battle.settings.one_order_a_turn and unit_id in units_ordered_this_turn(battle):
            reason = f"{unit.name} has had its order this turn: a unit takes one order a turn."
        elif extra.get("side", "any") not in ("any", "active", "acting"):
            # The other side's unit answers (a target, a defender): it is not picked from here.
            continue
        out.append(Offer(spec.name, spec.label, "form", {field: unit.id}, now=spec.name in now, reason=reason))

    def rank(o: Offer) -> tuple:
        usual = USUAL_ORDER.index(o.action) if o.action in USUAL_ORDER else len(USUAL_ORDER)
        return (not o.allowed, not o.now, usual)
    return sorted(out, key=rank)
