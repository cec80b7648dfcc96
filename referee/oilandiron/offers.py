"""What a Rig may do now, and what the engagement as a whole waits for, each with the reason when
it may not: the tablet draws its buttons from these answers and knows no rule itself.

``offers(state, rig_id)``: the Rig's actions in the order of its activation (activate; move, fire
each weapon, Called Shot, ram, reload, repair, prepare, each equipment card, salvage, shut down,
end the activation; the Heat Threshold roll). ``offers(state, "")``: the round's own steps (the
supply drop, initiative, scoring the round, ending it).

Each :class:`~referee.core.contract.Offer` is "post" when the action needs no more facts than the ones
it carries, "form" when the players answer questions first. The engine's own checks stay the last
word: an offer is what the board shows, a refusal still comes from ``resolve``.
"""
from __future__ import annotations

from ..core.contract import Offer
from .engagements import needs_round_score
from .equipment import USED_IN, WORKS_BY_ITSELF
from .model import Engagement, Equipment, Rig, Weapon


def offers(state: dict, piece: str) -> list[Offer]:
    """What ``piece`` (a Rig's id; "" for the engagement itself) may do now."""
    eng = Engagement.from_doc(state)
    if not piece:
        return engagement_offers(eng)
    return rig_offers(eng, eng.rig(piece))


# --- one Rig ------------------------------------------------------------------------------------

def weapon_unready(w: Weapon) -> str | None:
    """Why this weapon cannot fire now, or None when it can."""
    if w.destroyed:
        return f"{w.name} has been destroyed."
    if w.disabled:
        return f"{w.name} is disabled until the Arms are repaired."
    if not w.loaded and not w.has("melee"):
        return f"{w.name} is empty: Reload first."
    if w.ammo_left == 0:
        return f"{w.name} has used all its Limited Ammo."
    return None


def _card_unusable(card: Equipment) -> str | None:
    """Why this equipment card is not used with its own action now, or None when it can be."""
    if card.discarded:
        return f"{card.name} has been discarded."
    if not card.available:
        return f"{card.name} has been used (once per game)."
    if card.campaign_only:
        return f"{card.name} is a campaign card: its effect is applied in the Aftermath."
    if card.effect_key in WORKS_BY_ITSELF:
        return f"{card.name} works by itself: the app applies it where it counts."
    if card.effect_key in USED_IN:
        return f"{card.name} is used as part of {USED_IN[card.effect_key]}."
    return None


def _out(eng: Engagement, rig: Rig) -> str | None:
    """Why the Rig does nothing at all now, or None."""
    if eng.ended:
        return "The engagement is over."
    if rig.destroyed:
        return f"{rig.name} is destroyed."
    if rig.exited:
        return f"{rig.name} has left the table."
    return None


def _activation_refused(eng: Engagement, rig: Rig) -> str | None:
    if eng.phase != "activation":
        return "Rigs are activated in the Activation phase."
    if eng.active_rig == rig.id:
        return f"{rig.name} is activated now."
    if eng.active_rig:
        return f"{eng.rig(eng.active_rig).name} is activated: its activation ends first."
    if rig.activated:
        return f"{rig.name} has already activated this round."
    if rig.player != eng.current_player:
        return f"It is {eng.player_name(eng.current_player)}'s turn to activate a Rig."
    return None


def _acting_refused(eng: Engagement, rig: Rig) -> str | None:
    if eng.phase != "activation":
        return "Rigs act only in the Activation phase."
    if eng.active_rig != rig.id:
        return f"{rig.name} is not the activated Rig."
    if rig.actions_left <= 0:
        return f"{rig.name} has no actions left this activation."
    return None


def _heat_roll_refused(eng: Engagement, rig: Rig) -> str | None:
    if eng.phase != "maintenance":
        return "Heat Threshold rolls are made in the Maintenance phase."
    if not rig.above_threshold:
        return f"{rig.name}'s heat {rig.heat} is not above its threshold {rig.heat_threshold}."
    if rig.heat_rolled == eng.round:
        return f"{rig.name} has already made its Heat Threshold roll this round."
    return None


def rig_offers(eng: Engagement, rig: Rig) -> list[Offer]:
    out_reason = _out(eng, rig)
    own = {"rig": rig.id}
    # Activating with a ruptured fuel line may need the defender's overflow choices: a form.
    burning = "fuel_line_rupture" in rig.status
    activate = _activation_refused(eng, rig)
    offers = [Offer("activate", "Activate", "form" if burning else "post", own, now=True,
                    reason=out_reason or activate)]

    acting = out_reason or _acting_refused(eng, rig)
    offers.append(Offer("move", "Move", "post", own, now=True, reason=acting))
    for w in rig.weapons.values():
        offers.append(Offer("fire_weapon", f"Fire {w.name}", "form", {**own, "weapon": w.id},
                            reason=acting or weapon_unready(w)))
    callable_weapons = [w.id for w in rig.weapons.values() if weapon_unready(w) is None and not w.has("full_auto")]
    # With only one weapon able to call a shot, the form opens with it chosen.
    only = {"weapon": callable_weapons[0]} if len(callable_weapons) == 1 else {}
    offers.append(Offer("called_shot", "Called Shot", "form", {**own, **only}, reason=acting or (
        None if callable_weapons else "No ready weapon may call a shot (Full Auto weapons never do).")))
    offers.append(Offer("ram", "Ram", "form", own, reason=acting))
    empty = any(not w.loaded and not w.destroyed for w in rig.weapons.values())
    offers.append(Offer("reload", "Reload", "post", own,
                        reason=acting or (None if empty else f"{rig.name}'s weapons are all loaded.")))
    offers.append(Offer("repair", "Repair", "form", own, reason=acting))
    offers.append(Offer("prepare", "Prepare", "form", own, reason=acting))
    for card in rig.equipment.values():
        offers.append(Offer("use_equipment", f"Use {card.name}", "form", {**own, "equipment": card.key},
                            reason=out_reason or _card_unusable(card) or acting))
    salvage = eng.rules is not None and eng.rules.rule("salvage") is not None
    offers.append(Offer("collect_salvage", "Collect salvage", "form", own,
                        reason=acting or (None if salvage else "There is no salvage in this engagement.")))
    offers.append(Offer("shut_down", "Shut Down", "post", own, reason=acting))

    ending = out_reason or (None if eng.phase == "activation" and eng.active_rig == rig.id
                            else f"{rig.name} is not the activated Rig.")
    offers.append(Offer("end_activation", "End activation", "post", {}, now=rig.actions_left <= 0,
                        reason=ending))
    offers.append(Offer("heat_roll", "Heat Threshold roll", "form", own, now=True,
                        reason=out_reason or _heat_roll_refused(eng, rig)))
    return offers


# --- the engagement as a whole ------------------------------------------------------------------

def heat_waiting(eng: Engagement) -> list[Rig]:
    """Rigs above their Heat Threshold that have not rolled this round."""
    return [r for r in eng.rigs.values() if r.in_play and r.above_threshold and r.heat_rolled != eng.round]


def _airdrop_refused(eng: Engagement) -> str | None:
    drop = eng.rules.airdrop if eng.rules is not None else None
    if not drop:
        return "This engagement has no supply drop."
    if eng.phase != "initiative" or eng.round != drop["round"]:
        return f"The supply drop lands at the start of round {drop['round']}."
    if "airdrop" in eng.objectives:
        return "The supply drop has already landed."
    return None


def engagement_offers(eng: Engagement) -> list[Offer]:
    over = "The engagement is over." if eng.ended else None
    in_maintenance = eng.phase == "maintenance"
    waiting = heat_waiting(eng)
    scoring = needs_round_score(eng)
    return [
        Offer("supply_airdrop", "Place the supply drop", now=True, reason=over or _airdrop_refused(eng)),
        Offer("initiative", "Roll for initiative", now=True, reason=over or (
            None if eng.phase == "initiative" else "Initiative is rolled at the start of a round.")),
        Offer("score_round", f"Score round {eng.round}", now=True, reason=over or (
            None if in_maintenance and scoring else
            "Rounds are scored in the Maintenance phase." if not in_maintenance else
            f"Round {eng.round} has nothing (more) to score.")),
        # The engine refuses to end the round before these rolls.
        Offer("end_round", "End the round", now=True, reason=over or (
            "The round ends after the Maintenance phase." if not in_maintenance else
            f"Heat Threshold rolls still to make: {', '.join(r.name for r in waiting)}." if waiting else None)),
    ]
