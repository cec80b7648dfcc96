"""The Of Oil and Iron squadron tracker: the board of Rig cards, a Rig's own panel, and an
engagement started from two squadrons (composed from the shipped example cards on the spot, or
typed in as YAML in the squadron format). The action forms, result panel, log, undo and the poll
are the shared ones (``games``)."""
from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, url_for

from ..core.errors import DataError, RuleError
from ..data import MAX_ROWS, PLAYERS, START_ROWS, build_engagement, engagement_catalogue, rows_from_examples
from ..systems import OIL_AND_IRON
from ..table import service
from . import roles
from .db import game_or_404, session
from .taps import once
from .views import piece_panel

bp = Blueprint(OIL_AND_IRON, __name__)


@bp.get("/games/<int:game_id>/rigs/<rig_id>")
def rig_panel(game_id: int, rig_id: str):
    """One Rig's card, large, with everything it can do now."""
    return piece_panel(game_or_404(game_id, OIL_AND_IRON), rig_id)


# --- a new engagement from two squadrons ----------------------------------------------------------

def _form_values() -> dict:
    f = request.form
    values = {k: f.get(k, "") for k in f if not k.endswith("-equipment")}
    for k in f:
        if k.endswith("-equipment"):
            values[k] = f.getlist(k)
    shape = {}
    for side in PLAYERS:
        raw = f.get(f"{side}-n", "")
        n = int(raw) if raw.isdigit() else START_ROWS
        if f.get("grow") == side:
            n += 1
        shape[side] = max(1, min(n, MAX_ROWS))
    return {"values": values, "shape": shape}


@bp.route("/games/new/oilandiron", methods=["GET", "POST"])
@once()
def new_engagement():
    ctx = engagement_catalogue()
    if request.method == "GET":
        return render_template("oilandiron/new.html", message="", **ctx, **rows_from_examples())
    form = _form_values()
    if request.form.get("grow"):
        return render_template("oilandiron/new.html", message="", **ctx, **form)
    try:
        doc = build_engagement(form["values"], form["shape"])
    except (DataError, RuleError) as e:
        return render_template("oilandiron/new.html", message=str(e), **ctx, **form), 422
    game = service.create_game(session(), doc["name"], OIL_AND_IRON, doc, commit=False)
    roles.made_umpire(game)
    foe = request.form.get("foe", "")
    if foe in doc.get("players", {}):  # Referee plays that squadron: its first log entry
        service.perform(session(), game.id, game.version, "foe_settings", {"side": foe})
        return redirect(url_for("foe.turn", game_id=game.id), 303)
    return redirect(url_for("games.game_page", game_id=game.id), 303)
