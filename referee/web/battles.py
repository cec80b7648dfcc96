"""The Black Powder board: unit cards by brigade, a unit's actions, and a battle started from two
forces typed in on the spot. The action forms themselves are the shared ones (``games``)."""
from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, url_for

from ..data import ForceError, load_nations, load_unit_profiles, new_battle_from_forces, reinforcement_units
from ..systems import BLACK_POWDER
from ..table import service
from . import roles
from .db import game_or_404, session
from .serving import refusals
from .taps import ALREADY_DONE, once, tap_token
from .views import answer_write, board_model, piece_panel, render_game

bp = Blueprint(BLACK_POWDER, __name__)


@bp.get("/games/<int:game_id>/units/<unit_id>")
def unit_panel(game_id: int, unit_id: str):
    return piece_panel(game_or_404(game_id, BLACK_POWDER), unit_id)


# --- a battle from two forces typed in ------------------------------------------------------------

START_BRIGADES = 2
START_LINES = 3
MAX_ROWS = 12


def _count(key: str, start: int) -> int:
    raw = request.form.get(key, "")
    n = int(raw) if raw.isdigit() else start
    if request.form.get("grow") == key.removesuffix("-n"):
        n += 1
    return max(1, min(n, MAX_ROWS))


def _rating(raw: str):
    raw = (raw or "").strip()
    return int(raw) if raw.lstrip("-").isdigit() else (raw or None)


def read_forces(profile_names: dict[str, str] | None = None) -> tuple[str, dict, dict, dict]:
    """The typed-in forces as ``new_battle_from_forces`` takes them, and the row counts to draw.
    A unit line left unnamed takes its profile's name ("British Foot Guards", not its key)."""
    profile_names = profile_names or {}
    f = request.form
    shape: dict = {}
    forces = {}
    for side in ("blue", "red"):
        nb = _count(f"{side}-n", START_BRIGADES)
        shape[side] = []
        brigades = []
        for b in range(nb):
            key = f"{side}-b{b}"
            nl = _count(f"{key}-n", START_LINES)
            shape[side].append(nl)
            units = []
            for i in range(nl):
                profile = f.get(f"{key}-u{i}-profile", "").strip()
                if not profile:
                    continue
                count = f.get(f"{key}-u{i}-count", "1").strip()
                units.append({"profile": profile,
                              "name": f.get(f"{key}-u{i}-name", "").strip() or profile_names.get(profile, profile),
                              "count": int(count) if count.isdigit() else count})
            name = f.get(f"{key}-name", "").strip()
            if not name and not units:
                continue
            # An unnamed commander is only a label on the board: name him after his brigade
            # rather than refuse the whole form for it.
            commander = {"name": f.get(f"{key}-commander", "").strip() or (f"{name}'s commander" if name else None),
                         "staff_rating": _rating(f.get(f"{key}-rating", "8"))}
            brigades.append({"name": name, "commander": commander, "units": units})
        general = f.get(f"{side}-general", "").strip()
        forces[side] = {"name": f.get(f"{side}-name", "").strip(), "nation": f.get(f"{side}-nation") or None,
                        "general": {"name": general, "staff_rating": _rating(f.get(f"{side}-general-rating", "8"))}
                        if general else None,
                        "brigades": brigades}
    return f.get("name", "").strip(), forces["blue"], forces["red"], shape


@bp.route("/games/new/forces", methods=["GET", "POST"])
@once()
def new_from_forces():
    profiles = sorted(load_unit_profiles().values(), key=lambda p: (p.army_list, p.name))
    ctx = {"profiles": profiles, "nations": load_nations(), "form": request.form, "message": ""}
    if request.method == "GET":
        shape = {side: [START_LINES] * START_BRIGADES for side in ("blue", "red")}
        return render_template("blackpowder/forces.html", shape=shape, **ctx)
    name, blue, red, shape = read_forces({p.id: p.name for p in profiles})
    if request.form.get("grow"):
        return render_template("blackpowder/forces.html", shape=shape, **ctx)
    try:
        doc = new_battle_from_forces(name, blue, red)
    except ForceError as e:
        ctx["message"] = str(e)
        return render_template("blackpowder/forces.html", shape=shape, **ctx), 422
    game = service.create_game(session(), doc.get("name") or name, BLACK_POWDER, doc, commit=False)
    roles.made_umpire(game)
    return redirect(url_for("games.game_page", game_id=game.id), 303)


# --- the end of a scenario battle: the umpire answers its victory questions -----------------------

@bp.post("/games/<int:game_id>/victory")
def answer_victory(game_id: int):
    """The board's victory form: one answer per question (``answer-<id>``), then the action
    ``scenario_victory`` as any other, logged and undoable."""
    game = game_or_404(game_id, BLACK_POWDER)
    terms = game.state.get("victory") or {}
    f = request.form
    raw = {"answers": {q["id"]: f.get(f"answer-{q['id']}", "").strip() for q in terms.get("questions", [])},
           "decision": f.get("decision", "by_scenario"), "reason": f.get("reason", "").strip()[:200],
           "early": f.get("early", "").lower() in ("on", "true", "1", "yes")}
    raw["answers"] = {k: v for k, v in raw["answers"].items() if v}
    version = f.get("version", "")
    if not version.isdigit():
        return render_game(game, status=422, message="The form did not say which version of the game it shows: "
                                                     "reload the page.")
    refusals.redraw(lambda e: render_game(game, status=e.status, message=e.message))
    try:
        done = service.perform(session(), game.id, int(version), "scenario_victory", raw,
                               actor=roles.actor_for(game), token=tap_token())
    except service.StaleVersion as e:
        return render_game(game_or_404(game_id), status=409, message=e.message)
    return answer_write(done.game, done.entry, ALREADY_DONE if done.replayed else "")


# --- the umpire adds units or a whole brigade mid-battle --------------------------------------------

@bp.route("/games/<int:game_id>/add-units", methods=["GET", "POST"])
def add_units(game_id: int):
    """A form for units the scenario did not have: to a brigade on the table or a new one, on at
    once or waiting off the table. The units are built from the army lists here, then added by the
    action ``add_units`` (logged, undoable); the engine reads no army list."""
    game = game_or_404(game_id, BLACK_POWDER)
    battle = board_model(game)
    f = request.form
    ctx = {"game": game, "battle": battle, "form": f, "message": "",
           "profiles": sorted(load_unit_profiles().values(), key=lambda p: (p.army_list, p.name))}
    if request.method == "GET":
        return render_template("blackpowder/add_units.html", **ctx)
    side = f.get("side", "")
    count = f.get("count", "1").strip()
    rating = f.get("staff_rating", "8").strip()
    try:
        if side not in battle.sides:
            raise ForceError("Choose the side the units fight for.")
        units = reinforcement_units(game.state, side, f.get("profile", "").strip(), f.get("name", "").strip(),
                                    int(count) if count.isdigit() else 0)
    except ForceError as e:
        ctx["message"] = str(e)
        return render_template("blackpowder/add_units.html", **ctx), 422
    raw = {"side": side, "brigade": f.get("brigade", "").strip(), "brigade_name": f.get("brigade_name", "").strip(),
           "commander": f.get("commander", "").strip(), "staff_rating": int(rating) if rating.isdigit() else rating,
           "units": units, "arrive": f.get("arrive", "now")}
    version = f.get("version", "")
    refusals.redraw(lambda e: (render_template("blackpowder/add_units.html",
                                               **{**ctx, "message": e.message, "game": game_or_404(game_id)}), e.status))
    service.perform(session(), game.id, int(version) if version.isdigit() else -1, "add_units", raw,
                    actor=roles.actor_for(game), token=tap_token())
    return redirect(url_for("games.game_page", game_id=game.id), 303)
