"""A Rig's activation: starting it (5 actions, fewer with a lost Hull or a Radio Scrambler; skipped
after an Emergency Shutdown; the ruptured fuel line bites), paying for each action (one action and
its heat), and ending it (short-lived effects expire, the turn passes to the other player)."""
from __future__ import annotations

from pydantic import Field

from ..core.changes import ChangeBuilder
from ..core.contract import ActionSpec, Facts
from ..core.errors import RuleError
from ..core.results import Result
from ..core.words import counted
from .damage import DamageContext, damage_rig, roll_location
from .heat import exhaust, raise_heat
from .model import LOCATION_LABELS, Engagement
from .writing import builder, engagement_now, rig_now, rig_set


def active_rig(eng: Engagement, rig_id: str):
    """The Rig taking an action now, or a clear refusal."""
    eng.require_phase("activation", "Rigs act only in the Activation phase.")
    rig = eng.rig(rig_id)
    if rig.destroyed:
        raise RuleError(f"{rig.name} is destroyed and takes no actions.")
    if rig.exited:
        raise RuleError(f"{rig.name} has left the table.")
    if eng.active_rig != rig_id:
        raise RuleError(f"{rig.name} is not the activated Rig: activate it first.")
    if rig.actions_left <= 0:
        raise RuleError(f"{rig.name} has no actions left this activation.")
    return rig


def spend_action(work: ChangeBuilder, rig_id: str, heat: int, what: str, notes: list[str]) -> bool:
    """Use one action and add its heat. Returns True when the heat was waived (External Fuel Tanks),
    so extra heat the action makes later (a Charged Shot's 1s) is waived too."""
    rig = rig_now(work, rig_id)
    rig_set(work, rig_id, "actions_left", rig.actions_left - 1,
                   f"{rig.name}: actions {rig.actions_left} → {rig.actions_left - 1}")
    waived = False
    if "no_heat_next_action" in rig.status:
        status = {k: v for k, v in rig.status.items() if k != "no_heat_next_action"}
        rig_set(work, rig_id, "status", status)
        waived = True
        if heat > 0:
            notes.append(f"External Fuel Tanks: {what} adds no heat.")
            heat = 0
    if heat:
        raise_heat(work, rig_id, heat, what)
    return waived


def paid_action(doc: dict, rig_id: str, heat: int, what: str) -> tuple[ChangeBuilder, list[str]]:
    """A working copy of the document with the action and its heat already paid, and its notes."""
    work = builder(doc)
    notes: list[str] = []
    spend_action(work, rig_id, heat, what, notes)
    return work, notes


def clear_statuses(work: ChangeBuilder, rig_id: str, durations: tuple[str, ...]) -> list[str]:
    rig = rig_now(work, rig_id)
    keep = {k: v for k, v in rig.status.items() if v not in durations}
    gone = [k for k in rig.status if k not in keep]
    if gone:
        rig_set(work, rig_id, "status", keep, f"{rig.name}: {', '.join(g.replace('_', ' ') for g in gone)} ended")
    return gone


def can_still_activate(eng: Engagement, player: str) -> bool:
    return any(r.in_play and not r.activated for r in eng.rigs_of(player))


def pass_turn(work: ChangeBuilder, notes: list[str]) -> None:
    """After an activation: the other player activates next if they can, else the same player;
    when nobody can, the round moves to Maintenance."""
    eng = engagement_now(work)
    current = eng.current_player or eng.starting_player or "p1"
    other = eng.other(current)
    if can_still_activate(eng, other):
        nxt = other
    elif can_still_activate(eng, current):
        nxt = current
    else:
        work.set(("current_player",), None, "No Rig left to activate")
        work.set(("phase",), "maintenance", "Phase: Maintenance")
        hot = [r.name for r in eng.rigs.values() if r.in_play and r.above_threshold]
        notes.append("Every Rig has activated: Maintenance phase. "
                     + (f"Heat Threshold rolls for: {', '.join(hot)}." if hot else "No Rig is above its Heat Threshold."))
        return
    work.set(("current_player",), nxt, f"{eng.player_name(nxt)} to activate")
    notes.append(f"{eng.player_name(nxt)} activates a Rig next.")


class ActivateFacts(Facts):
    rig: str = Field(title="Rig to activate", json_schema_extra={"ref": "rig", "side": "active"})
    overflow_to: list[str] = Field([], title="Overflow damage goes to (defender's order of choice)",
                                   json_schema_extra={"ref": "location"})


def resolve_activate(doc: dict, facts: ActivateFacts, dice) -> Result:
    eng = Engagement.from_doc(doc)
    eng.require_phase("activation", "Rigs are activated in the Activation phase (roll for initiative first).")
    rig = eng.rig(facts.rig)
    if rig.destroyed:
        raise RuleError(f"{rig.name} is destroyed: it never activates again.")
    if rig.exited:
        raise RuleError(f"{rig.name} has left the table.")
    if eng.active_rig:
        raise RuleError(f"{eng.rig(eng.active_rig).name} is still activated: end its activation first.")
    if rig.player != eng.current_player:
        raise RuleError(f"It is {eng.player_name(eng.current_player)}'s turn to activate a Rig.")
    if rig.activated:
        raise RuleError(f"{rig.name} has already activated this round.")
    work = builder(doc)
    notes: list[str] = []
    ctx = DamageContext(work, dice, tuple(facts.overflow_to), notes)
    clear_statuses(work, rig.id, ("until_next_activation",))
    # The engagement's starting tokens (Ambush: Brace) last through their round; others expire here.
    if rig.prepare_tokens and eng.round > doc.get("start_tokens_round", 0):
        rig_set(work, rig.id, "prepare_tokens", [], f"{rig.name}: unused Prepare tokens removed")
        notes.append(f"{rig.name}'s unused Prepare tokens ({', '.join(rig.prepare_tokens)}) are removed.")
    if "skip_activation" in rig.status:
        clear_statuses(work, rig.id, ("next_activation", "this_activation"))
        rig_set(work, rig.id, "activated", True, f"{rig.name}: activation skipped")
        notes.append(f"{rig.name} is still recovering from its Emergency Shutdown: this activation is skipped.")
        pass_turn(work, notes)
        return Result("activate", f"{rig.name} skips its activation (Emergency Shutdown)", changes=work.changes,
                      notes=tuple(notes), data={"rig": rig.id, "skipped": True, "actions": 0})
    actions = rig.max_actions
    why = []
    if rig.is_catastrophic("hull"):
        why.append("−2 Hull lost")
    if "scrambled" in rig.status:
        actions -= 2
        why.append("−2 Radio Scrambler")
    actions = max(0, actions)
    work.set(("active_rig",), rig.id, f"{rig.name} activates")
    rig_set(work, rig.id, "actions_left", actions, f"{rig.name}: {actions} actions")
    if "fuel_line_rupture" in rig.status:
        if eng.settings.fuel_line_rupture_damage == "d12_hull":
            amount = ctx.roll(1, 12, "Fuel Line Rupture damage")[0]
            damage_rig(ctx, rig.id, "hull", amount, "Fuel Line Rupture")
        else:
            loc = roll_location(ctx, rig.name, rig.player)
            notes.append(f"The ruptured fuel line burns the {LOCATION_LABELS[loc]}.")
            damage_rig(ctx, rig.id, loc, 1, "Fuel Line Rupture")
    summary = f"{rig.name} activates: {actions} actions" + (f" ({', '.join(why)})" if why else "")
    if rig_now(work, rig.id).destroyed:
        summary = f"{rig.name} is destroyed as it activates"
    return Result("activate", summary, dice=tuple(ctx.rolled), changes=work.changes, notes=tuple(notes),
                  data={"rig": rig.id, "skipped": False, "actions": actions})


class EndActivationFacts(Facts):
    pass


def resolve_end_activation(doc: dict, facts: EndActivationFacts, dice) -> Result:
    eng = Engagement.from_doc(doc)
    if eng.phase != "activation" or not eng.active_rig:
        raise RuleError("No Rig is activated.")
    rig = eng.rig(eng.active_rig)
    work = builder(doc)
    notes: list[str] = []
    clear_statuses(work, rig.id, ("next_activation", "this_activation", "next_action"))
    rig_set(work, rig.id, "actions_left", 0, f"{rig.name}: {counted(rig.actions_left, 'unused action')} lost")
    rig_set(work, rig.id, "activated", True, f"{rig.name}: activated this round")
    work.set(("active_rig",), None, f"{rig.name}'s activation is over")
    if eng.settings.exhaust_when == "activation":
        exhaust(work, rig.id, notes)
    pass_turn(work, notes)
    return Result("end_activation", f"{rig.name} ends its activation", changes=work.changes, notes=tuple(notes))


ACTIVATE = ActionSpec("activate", "Activate a Rig", ActivateFacts, resolve_activate)
END_ACTIVATION = ActionSpec("end_activation", "End activation", EndActivationFacts, resolve_end_activation,
                            rolls_dice=False)

