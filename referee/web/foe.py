"""Playing alone: the Foe's screen, where Referee takes its turn for one side, and the page where
the player declares which side it plays, how hard and who decides ties.

The Foe asks one question at a time; each answer is one tap, carried in the address (nothing is
written until it has decided). Its decision is carried out, or overruled, through the game's own
actions (``foe_decide``, ``foe_overrule``, ``foe_settings``) on the one write path, so it is logged
with its dice, undone and redone like any other action."""
from __future__ import annotations

from flask import Blueprint, abort, render_template, request

from ..core.foe import DIFFICULTIES, POSTURES, TIE_RULES, Decision, FoeSettings, Question, posture
from ..core.foe_actions import cant_tell_cost, decode_answers, encode_answers
from ..systems import system_for
from ..table import game_log
from .db import game_or_404, session

bp = Blueprint("foe", __name__)


def side_names(state: dict) -> dict[str, str]:
    found = state.get("sides") or state.get("players") or {}
    return {key: str((value or {}).get("name") or key) for key, value in found.items()}




@bp.get("/games/<int:game_id>/foe")
def turn(game_id: int):
    game = game_or_404(game_id)
    if system_for(game.system).foe is None:
        abort(404, "This game has no Foe.")
    return turn_page(game, request.args.get("answers", ""))


def turn_page(game, answers_text: str, message: str = "", status: int = 200):
    """The Foe's screen for the game as it stands, after the answers given so far; ``message``: why
    a decision just tapped was refused (the screen drawn again shows what it would do now)."""
    step = system_for(game.system).foe
    answers = decode_answers(answers_text[:4000])
    settings = FoeSettings.of(game.state)
    found = step(game.state, answers) if settings.side else None
    last = game_log.log(session(), game.id, limit=1)
    stance, why = posture(game.state, settings.side, int(game.state.get("turn") or game.state.get("round") or 1))
    return render_template("foe/turn.html", game=game, settings=settings, sides=side_names(game.state),
                           posture=(POSTURES[stance], why) if stance else None,
                           question=found if isinstance(found, Question) else None,
                           decision=found if isinstance(found, Decision) else None,
                           answers=answers, encode=encode_answers, last=last[0] if last else None,
                           dice_mode=game.state.get("dice_mode", "app"), cant_tell_cost=cant_tell_cost,
                           waiting_for=waiting_for(game) if found is None else "", message=message), status


def waiting_for(game) -> str:
    """What the game waits for when the Foe has nothing to do, in its board's own words (an
    engagement may wait in Maintenance on the player's Heat Threshold rolls or the round's score)."""
    board = system_for(game.system).board
    return board.waiting(game.state) if board else ""


@bp.get("/games/<int:game_id>/foe/settings")
def settings(game_id: int):
    game = game_or_404(game_id)
    if system_for(game.system).foe is None:
        abort(404, "This game has no Foe.")
    return settings_page(game)


def settings_page(game, message: str = "", status: int = 200):
    """The Foe's settings; ``message``: why the settings just sent were refused."""
    return render_template("foe/settings.html", game=game, settings=FoeSettings.of(game.state),
                           sides=side_names(game.state), difficulties=DIFFICULTIES, ties=TIE_RULES,
                           declared=bool((game.state.get("foe") or {}).get("decided")), message=message), status


def page_of(game, action: str, message: str, status: int):
    """A Foe form's refusal drawn on the Foe's own page, which the form was on (the board draws
    the refusal of a form it holds); None for an action whose form is not on a Foe page."""
    if action == "foe_settings":
        return settings_page(game, message, status)
    if action in ("foe_decide", "foe_overrule"):
        return turn_page(game, request.form.get("answers", ""), message, status)
    return None
