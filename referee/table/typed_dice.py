"""Another side types its dice: the pending roll a seated player's action left (``handover``)
is answered by the side that owns the dice, or the umpire, and the action resolves again with
every die typed so far through the one write path (``service.perform``)."""
from __future__ import annotations

from sqlmodel import Session

from . import service
from .handover import NotYourDice, RollCancelled, drop, role_of, side_keys, side_name, waiting
from .roles import Actor


def type_dice(session: Session, game_id: int, step: str, values: list[int], actor=None):
    """The owning side (or the umpire) types the dice asked for; the action resolves again with
    every die typed so far. Returns what :func:`service.perform` returns once it lands; raises
    :class:`HandedOver` when more dice are needed, from whichever side owns them."""
    game, row = waiting(session, game_id)
    role = role_of(actor)
    if role is not None and role != row.side:
        who = side_name(game.state, role) if role in side_keys(game.state) else "A spectator"
        raise NotYourDice(f"{who} cannot type these dice: {side_name(game.state, row.side)} rolls "
                          f"{row.count} D{row.sides} — {row.purpose}.")
    if row.version != game.version:
        drop(session, game.id)
        session.commit()
        raise RollCancelled("The game moved on before these dice were typed, so the action waiting "
                            "for them was cancelled: take it again.")
    if step and step != row.step:
        raise RollCancelled("These dice were asked for again meanwhile: here is what is needed now.")
    if not values:
        raise service.BadInput(f"Type the {row.count} D{row.sides} for {row.purpose}.")
    typed = row.values + values
    typists = row.typists + [role] * len(values)
    return service.perform(session, game.id, row.version, row.action, row.facts, typed_dice=typed,
                           typists=typists, actor=Actor(row.actor), continuing=True)
