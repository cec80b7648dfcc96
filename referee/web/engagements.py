"""The Of Oil and Iron squadron tracker: the board of Rig cards, a Rig's own panel, and an
engagement started from two squadrons (composed from the shipped example cards on the spot, or
typed in as YAML in the squadron format). The action forms, result panel, log, undo and the poll
are the shared ones (``games``)."""
from __future__ import annotations

import yaml
from flask import Blueprint, abort, redirect, render_template, request, url_for

from ..data.oilandiron import (
    engagement_setup,
    example_squadrons,
    load_engagements,
    load_equipment,
    load_examples,
    squadron_state,
)
from ..errors import DataError, RuleError
from ..oilandiron import GAME
from ..oilandiron.model import PLAYERS, Engagement, Settings
from ..parse_limits import TooComplex, load_yaml
from ..table import service
from ..table.models import Game
from . import board_scale, engagement_view, roles
from .db import game_or_404, session
from .views import VIEWS, SystemView, render_game

bp = Blueprint("oilandiron", __name__)


def board_context(game: Game) -> dict:
    eng = Engagement.from_doc(game.state)
    return {"eng": eng, "sides": engagement_view.sides(eng), "active_card": engagement_view.active_card(eng),
            "phases": engagement_view.phases(eng),
            "turn_line": engagement_view.turn_line(eng), "game_buttons": engagement_view.game_buttons(eng),
            "score": engagement_view.score(eng), "objectives": engagement_view.objectives(eng),
            "board": board_scale.rig_board(eng)}


VIEWS["oilandiron"] = SystemView(
    board_parts="oilandiron/board.html",
    context=board_context,
    choices_for=lambda game, view: engagement_view.choices_for(Engagement.from_doc(game.state), view),
    settings_cls=Settings,
    # Everything a Rig card or the round bar offers; the menu keeps the umpire's corrections.
    menu_skips=("dice_mode", "change_setting", "initiative", "supply_airdrop", "activate", "end_activation",
                "move", "fire_weapon", "called_shot", "ram", "reload", "repair", "prepare", "shut_down",
                "use_equipment", "collect_salvage", "heat_roll", "score_round", "end_round"),
)


@bp.get("/games/<int:game_id>/rigs/<rig_id>")
def rig_panel(game_id: int, rig_id: str):
    """One Rig's card, large, with everything it can do now."""
    game = game_or_404(game_id, "oilandiron")
    eng = Engagement.from_doc(game.state)
    if rig_id not in eng.rigs:
        abort(404, f"There is no Rig “{rig_id}” in this engagement.")
    panel = {"kind": "unit", "card": engagement_view.card(eng, eng.rigs[rig_id]),
             "offers": GAME.offers(game.state, rig_id)}
    return render_game(game, panel, oob_live=False)


# --- a new engagement from two squadrons ----------------------------------------------------------

START_ROWS = 3
MAX_ROWS = 8
WEAPON_SLOTS = 3
# Ready-made squadrons built from the shipped example cards (labelled examples, not official Rigs),
# so a table can start playing with one tap: armylists/oilandiron/example_squadrons.yaml.
EXAMPLE_SQUADRONS = example_squadrons()
DEFAULT_NAMES = {"p1": "First player", "p2": "Second player"}


def _catalogue() -> dict:
    ex = load_examples()
    cards = [c for c in load_equipment().values() if not c.campaign_only]
    return {"chassis": ex.chassis, "engines": ex.engines, "weapons": ex.weapons, "equipment": cards,
            "engagements": load_engagements().engagements, "note": ex.note}


def _rows_from_examples() -> dict:
    """The form's values for the example squadrons (what a GET shows)."""
    values: dict = {"name": "", "engagement": "iron_clash", "aggressor": "p1"}
    shape = {}
    for side, rigs in EXAMPLE_SQUADRONS.items():
        values[f"{side}-name"] = DEFAULT_NAMES[side]
        shape[side] = len(rigs)
        for i, r in enumerate(rigs):
            key = f"{side}-r{i}"
            values[f"{key}-name"] = r["name"]
            values[f"{key}-chassis"] = r["chassis"]
            values[f"{key}-engine"] = r["engine"]
            for s, w in enumerate(r["weapons"]):
                values[f"{key}-w{s}"] = w
            values[f"{key}-equipment"] = list(r["equipment"])
    return {"values": values, "shape": shape}


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


def _rig_rows(values: dict, side: str, rows: int) -> list[dict]:
    out = []
    for i in range(rows):
        key = f"{side}-r{i}"
        name = values.get(f"{key}-name", "").strip()
        chassis = values.get(f"{key}-chassis", "")
        if not name and not chassis:
            continue
        if not chassis:
            raise DataError(f"{name}: pick a chassis.")
        weapons = [values[f"{key}-w{s}"] for s in range(WEAPON_SLOTS) if values.get(f"{key}-w{s}")]
        out.append({"id": f"{side}-{i + 1}", "name": name or f"Rig {i + 1}", "chassis": chassis,
                    "engine": values.get(f"{key}-engine") or None, "weapons": weapons,
                    "equipment": list(values.get(f"{key}-equipment") or [])})
    return out


def _typed_rigs(text: str, side: str) -> list[dict]:
    """A squadron typed in the squadron format: a YAML list of Rigs, cards by key or in full."""
    try:
        raw = load_yaml(text)
    except yaml.YAMLError as e:
        raise DataError(f"The typed squadron is not valid YAML: {e}") from None
    except TooComplex as e:
        raise DataError(f"The typed squadron cannot be read: {e}.") from None
    if isinstance(raw, dict) and "rigs" in raw:
        raw = raw["rigs"]
    if not isinstance(raw, list) or not all(isinstance(r, dict) for r in raw):
        raise DataError("A typed squadron is a list of Rigs, each with a name, a chassis and its weapons.")
    out = []
    for i, r in enumerate(raw):
        r = dict(r)
        r["id"] = f"{side}-{i + 1}"
        r.setdefault("name", f"Rig {i + 1}")
        out.append(r)
    return out


def build_engagement(values: dict, shape: dict) -> dict:
    """The engagement document from the start form (through the engine's ``new_game``), or a
    DataError / RuleError saying what is wrong."""
    key = values.get("engagement", "")
    etype = next((e for e in load_engagements().engagements if e.key == key), None)
    if etype is None:
        raise DataError("Pick an engagement type.")
    aggressor = values.get("aggressor") if values.get("aggressor") in PLAYERS else "p1"
    players, rigs = {}, {}
    for side in PLAYERS:
        name = values.get(f"{side}-name", "").strip()[:40] or DEFAULT_NAMES[side]
        role = None
        if etype.roles:
            role = etype.roles[0] if side == aggressor else etype.roles[1]
        players[side] = {"name": name, "role": role}
        typed = values.get(f"{side}-typed", "").strip()
        specs = _typed_rigs(typed, side) if typed else _rig_rows(values, side, shape[side])
        if not specs:
            raise DataError(f"{name} has no Rigs: add at least one.")
        try:
            rigs.update(squadron_state(side, specs))
        except DataError as e:
            raise DataError(f"{name}'s squadron: {e}") from None
    name = values.get("name", "").strip()[:80] or f"{etype.name}: {players['p1']['name']} v {players['p2']['name']}"
    return GAME.new_game(engagement_setup(name, players, rigs, etype.key))


@bp.route("/games/new/oilandiron", methods=["GET", "POST"])
def new_engagement():
    ctx = _catalogue()
    if request.method == "GET":
        return render_template("oilandiron/new.html", message="", **ctx, **_rows_from_examples())
    form = _form_values()
    if request.form.get("grow"):
        return render_template("oilandiron/new.html", message="", **ctx, **form)
    try:
        doc = build_engagement(form["values"], form["shape"])
    except (DataError, RuleError) as e:
        return render_template("oilandiron/new.html", message=str(e), **ctx, **form), 422
    game = service.create_game(session(), doc["name"], "oilandiron", doc)
    roles.made_umpire(game)
    foe = request.form.get("foe", "")
    if foe in doc.get("players", {}):  # Referee plays that squadron: its first log entry
        service.perform(session(), game.id, game.version, "foe_settings", {"side": foe})
        return redirect(url_for("foe.turn", game_id=game.id), 303)
    return redirect(url_for("games.game_page", game_id=game.id), 303)
