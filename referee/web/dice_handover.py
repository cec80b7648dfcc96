"""Handing the dice to the side that rolls them (referee/table/handover.py): the prompt on the
owning side's tablet and the umpire's, "Waiting for …" on the acting side's, typing the dice,
cancelling, and what a tablet's poll is sent when a roll starts waiting, moves on or ends.

A tablet's poll says which prompt it shows (the hidden ``pending-seen`` box, as ``p``): a roll it
should see and does not show yet, or one it shows that is gone, brings the panel out of band.
Tablets a roll does not concern (spectators, and on a table of more sides, the others) are not
interrupted: their poll stays an empty 204 while nothing else changes.
"""
from __future__ import annotations

from itertools import groupby
from types import SimpleNamespace

from flask import Blueprint, redirect, render_template, request, url_for
from flask import session as cookie
from jinja2_fragments.flask import render_block

from ..core.dice import BadDice, parse_typed
from ..table import game_log, handover, service, typed_dice
from ..table.models import Game
from ..table.roles import UMPIRE, seat_of
from . import auth, roles
from .db import game_or_404, session
from .serving import refusals
from .serving.live import out_of_band
from .views import BOARD, game_context, render_game, wants_fragment

bp = Blueprint("dice_handover", __name__)


def _role(game: Game) -> str:
    """This tablet's role at the game: the umpire on a "this laptop only" table."""
    actor = roles.actor_for(game)
    return UMPIRE if actor is None else actor.role


def panel_for(game: Game, pending: handover.PendingRoll) -> dict | None:
    """The pending roll as this tablet sees it, or None when it does not concern this tablet."""
    role = _role(game)
    umpire = role == UMPIRE
    may_type = umpire or role == pending.side
    may_cancel = umpire or role == pending.actor
    if not (may_type or may_cancel):
        return None
    side_name = handover.side_name(game.state, pending.side)
    actor_name = handover.side_name(game.state, pending.actor)
    label = f"{side_name} rolls" if may_type else "Waiting for the dice"
    return {"kind": "pending", "pending": pending, "may_type": may_type, "may_cancel": may_cancel,
            "prompt": handover.prompt(game.state, pending), "waiting": handover.waiting_message(game.state, pending),
            "side_name": side_name, "actor_name": actor_name, "label": label}


def current_panel(game: Game) -> dict | None:
    pending = handover.current(session(), game)
    return panel_for(game, pending) if pending is not None else None


@bp.app_template_global("dice_typed_by")
def typed_by(game: Game, entry) -> str:
    """Whose tablet each of a log entry's dice was typed on, when the players typed their own: one
    sentence, the dice numbered in the order they were rolled ("Dice typed in: 1–3 by France,
    4–5 by Prussia."). Empty when no die was typed on a seated player's tablet (the app rolled
    them, or the umpire typed them all)."""
    typists = [d.get("typist") for d in getattr(entry, "dice", None) or []]
    if not any(typists):
        return ""
    parts, last = [], 0
    for who, run in groupby(typists):
        first, last = last + 1, last + len(list(run))
        name = handover.side_name(game.state, who) if who else "the umpire"
        parts.append(f"{first if first == last else f'{first}–{last}'} by {name}")
    return f"Dice typed in: {', '.join(parts)}."


def _panel_html(game: Game, panel: dict, message: str = "") -> str:
    ctx = game_context(game)
    ctx.update(panel=panel, message=message)
    return out_of_band(render_block(BOARD, "panel", oob=set(), **ctx))


def _role_at(game_id: int) -> str:
    """This tablet's role at the game, read from its seat alone (the game is not loaded)."""
    if not auth.club():
        return UMPIRE
    seat = seat_of(session(), game_id, cookie.get("tablet"), auth.account_id())
    return seat.role if seat is not None else ""


def poll_panel(game_id: int, version: int, pending_id: int | None, shown: str) -> str | None:
    """What a poll adds for the game's pending roll (``pending_id``, read with the version): the
    prompt (or "Waiting …") when this tablet should show one it does not, the newest result or the
    menu when the one it shows is gone; None when the tablet already shows what it should. The
    game itself is loaded only when something is to be drawn."""
    if pending_id is None and not shown:
        return None
    row = session().get(handover.PendingRoll, pending_id) if pending_id is not None else None
    role = _role_at(game_id)
    concerned = row is not None and row.version == version and (
        role == UMPIRE or role in (row.side, row.actor))
    if (row.step if concerned else "") == shown:
        return None
    game = game_or_404(game_id)
    panel = current_panel(game)
    if panel is not None:
        return _panel_html(game, panel)
    entry = game_log.newest_in_force(session(), game.id)
    if entry is not None and entry.version_after == game.version:
        return _panel_html(game, {"kind": "result", "entry": entry})
    return _panel_html(game, {"kind": "menu"}, "The action waiting for dice was cancelled.")


def poll_element(game_id: int, version: int) -> str:
    """The poller itself, for a poll that brings only the pending roll's panel."""
    return render_template("games/_poll.html", game=SimpleNamespace(id=game_id, version=version), oob=set())


def render_pending(game: Game, handed: handover.HandedOver | None = None, status: int = 200, message: str = ""):
    """The tablet's panel for the game's pending roll (the menu if none concerns it)."""
    pending = handed.pending if handed is not None else handover.current(session(), game)
    panel = panel_for(game, pending) if pending is not None else None
    return render_game(game, panel, status=status, message=message, oob_live=False)


@bp.get("/games/<int:game_id>/dice")
def pending_page(game_id: int):
    game = game_or_404(game_id)
    pending = handover.current(session(), game)
    if pending is None:
        return render_game(game, None, message="No dice are waiting to be typed.", oob_live=False)
    return render_pending(game)


@bp.post("/games/<int:game_id>/dice")
def type_dice(game_id: int):
    game = game_or_404(game_id)
    try:
        values = parse_typed(request.form.get("more_dice", "")[:200])
    except BadDice as e:
        return render_pending(game, status=422, message=str(e))
    step = request.form.get("step", "")[:40]
    refusals.redraw(lambda e: render_pending(game_or_404(game_id), status=e.status, message=e.message))
    try:
        done = typed_dice.type_dice(session(), game.id, step, values, actor=roles.actor_for(game))
    except handover.HandedOver as e:
        return render_pending(game_or_404(game_id), e)
    except service.StaleVersion as e:
        return render_game(game_or_404(game_id), None, status=409, message=e.message)
    if not wants_fragment():
        return redirect(url_for("games.game_page", game_id=game.id, entry=done.entry.seq), 303)
    return render_game(done.game, {"kind": "result", "entry": done.entry}, wrote=True,
                       push_url=url_for("games.game_page", game_id=game.id, entry=done.entry.seq))


@bp.post("/games/<int:game_id>/dice/cancel")
def cancel(game_id: int):
    game = game_or_404(game_id)
    refusals.redraw(lambda e: render_pending(game, status=e.status, message=e.message))
    handover.cancel(session(), game.id, actor=roles.actor_for(game))
    if not wants_fragment():
        return redirect(url_for("games.game_page", game_id=game.id), 303)
    return render_game(game, None, message="Cancelled: nothing was changed.", oob_live=False)
