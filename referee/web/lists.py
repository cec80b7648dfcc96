"""Army lists and squadrons: the builders, saved lists by owner, export and import, share codes,
the print view, and starting a game from two lists. Routes read the request and hand it to
``referee.lists`` (pure) or ``referee.table.lists`` (saved lists)."""
from __future__ import annotations

from flask import Blueprint, Response, abort, redirect, render_template, request, url_for
from flask import session as cookie

from ..data.blackpowder import load_commanders, load_nations, load_unit_profiles
from ..data.oilandiron import load_engagements
from ..lists import forms
from ..lists.blackpowder import blank_army, profiles_for
from ..lists.examples import example_lists
from ..lists.formations import load_tiers
from ..lists.oilandiron import blank_squadron, chassis_cards, engine_cards, equipment_for, rig_iron, weapon_cards
from ..lists.problems import ListFileError
from ..lists.sheets import sheet
from ..lists.travel import SYSTEM_NAMES, check, dump, export_text, import_text, parse
from ..table import lists as saved
from ..table.service import TableError
from . import auth, notices, roles
from .db import session
from .redirects import safe_next
from .taps import once

bp = Blueprint("lists", __name__, url_prefix="/lists")
SYSTEMS = tuple(SYSTEM_NAMES)


def owner() -> str:
    """Whose lists these are: the logged-in account on a club server, else the name typed here."""
    return auth.owner_name()


def _shared_here() -> list[int]:
    """The lists this tablet opened by their share codes (readable here from then on)."""
    ids = cookie.get("shared_lists")
    return [i for i in ids if isinstance(i, int)] if isinstance(ids, list) else []


def _readable(row) -> bool:
    """On a club server a list is read by its owner, by everyone when public, or through its
    share code; a laptop table is one trusted table."""
    return not auth.club() or saved.readable(row, owner(), _shared_here())


def visible_lists(rows):
    """The lists this tablet may read (all of them on a laptop table)."""
    return [r for r in rows if _readable(r)]



def _not_readable(row):
    return _message(f"“{row.name}” is not shared with you: ask {row.owner} for its share code.", 403)


def _system(system: str) -> str:
    if system not in SYSTEMS:
        abort(404, f"There is no game “{system}”.")
    return system


def _message(message: str, status: int):
    """A refusal on a list page leads back to the lists, where the player was."""
    return render_template("message.html", message=message, back_url=url_for("lists.index"),
                           back_label="Back to the lists"), status


def _fail(err: TableError):
    return _message(err.message, err.status)


# --- owner and the list of lists ---------------------------------------------------------------

@bp.post("/owner")
def set_owner():
    if auth.club():
        return _message("On a club server your lists carry your account's name: log in to see them.", 403)
    name = request.form.get("owner", "").strip()[:40]
    if name:
        cookie["owner"] = name
        cookie.permanent = True
    else:
        cookie.pop("owner", None)
    return redirect(safe_next(request.form.get("next"), url_for("lists.index")), 303)


@bp.get("/")
def index():
    who = request.args.get("who", "mine" if owner() else "all")
    rows = visible_lists(saved.list_lists(session(), owner=owner() if who == "mine" and owner() else None))
    owners = sorted({r.owner for r in visible_lists(saved.list_lists(session()))})
    return render_template("lists/index.html", lists=rows, who=who, owner=owner(), owners=owners,
                           systems=SYSTEM_NAMES, examples=example_lists(), message=notices.said())


# --- the builders -------------------------------------------------------------------------------

def _choices(system: str, data: dict) -> dict:
    """What the builder's menus offer, given the list as it stands."""
    if system == "blackpowder":
        try:
            army = blank_army(nation=str(data.get("nation") or "british"))
            army = army.model_copy(update={"allies": [a for a in data.get("allies") or [] if isinstance(a, str)]})
            profiles = profiles_for(army)
        except Exception:  # noqa: BLE001 - a half-typed form still gets menus
            profiles = profiles_for(blank_army())
        nations = load_nations()
        return {"nations": nations, "profiles": profiles, "commanders": load_commanders(),
                "all_profiles": load_unit_profiles(),
                "nation_options": [(n.id, n.name) for n in nations.values() if n.id != "generic"]}
    try:
        sq = parse("oilandiron", {**blank_squadron().model_dump(by_alias=True),
                                  "cards": data.get("cards") or {}, "campaign": bool(data.get("campaign"))})
    except Exception:  # noqa: BLE001 - cards still being typed: offer the shipped ones
        sq = blank_squadron().model_copy(update={"campaign": bool(data.get("campaign"))})
    weapons = weapon_cards(sq)
    return {"tiers": load_tiers(), "chassis": chassis_cards(sq), "engines": engine_cards(sq),
            "weapons": weapons, "equipment": equipment_for(sq),
            "chassis_options": [(c.key, f"{c.name} · {c.weight_class.title()} · Iron {c.iron}")
                                for c in chassis_cards(sq).values()],
            "engine_options": [(e.key, f"{e.name} · Iron {e.iron}") for e in engine_cards(sq).values()],
            "weapon_options": [(w.key, f"{w.name} · Iron {w.iron}") for w in weapons.values()],
            "equipment_options": [(c.key, f"{c.table}{c.number} {c.name} · Iron {c.iron}"
                                   + (" · campaign only" if c.campaign_only else "")) for c in equipment_for(sq)],
            "mount_options": [("left", "Left arm"), ("right", "Right arm"), ("hull", "Hull (Colossal)")],
            "weight_options": [(w, w.title()) for w in ("light", "medium", "heavy", "colossal")]}


def _iron_in_use(system: str, data: dict) -> list:
    """(used, carried) Iron per Rig, or nothing while the cards do not read yet."""
    if system != "oilandiron":
        return []
    try:
        sq = parse(system, data)
    except ValueError:  # cards still being typed: no totals until they read
        return []
    return [rig_iron(sq, r) for r in sq.rigs]


def _builder(system: str, data: dict, problems, form_problems, list_row=None, status: int = 200, message: str = ""):
    template = f"lists/build_{system}.html"
    iron = _iron_in_use(system, data)
    return render_template(template, data=data, problems=problems, form_problems=form_problems, iron=iron,
                           list_row=list_row, choices=_choices(system, data), owner=owner(), message=message,
                           systems=SYSTEM_NAMES, perks_text=forms.perks_to_text), status


def _posted(system: str):
    """The builder form as posted, with its button applied: (data, list or None, problems, form problems)."""
    data = forms.unflatten(request.form.items(multi=True))
    data["system"] = system
    op = request.form.get("op", "check")
    if op not in ("save", "check"):
        data = forms.apply_op(system, data, op, request.form.to_dict())
    if system == "oilandiron":
        forms.prepare_cards(data)
        # The formation names its tier (formation names are unique across tiers).
        for tier in load_tiers().values():
            if any(fm.key == data.get("formation") for fm in tier.formations):
                data["tier"] = tier.key
    data, model, form_problems = forms.validate(system, data)
    problems = check(model) if model is not None else []
    return op, data, model, problems, form_problems


@bp.get("/new/<system>")
def new_list(system: str):
    _system(system)
    if system == "blackpowder":
        model = blank_army(name="").model_copy(update={"brigades": []})
        data = dump(model)
        data["brigades"] = [{"name": "", "commander": forms.new_commander(), "units": []}]
    else:
        data = dump(blank_squadron())
        # One empty row per Rig the default formation fields: no "+ Add a Rig" taps to begin.
        tier = load_tiers()[data["tier"]]
        fm = next(f for f in tier.formations if f.key == data["formation"])
        data["rigs"] = [forms.new_rig() for _ in range(fm.light + fm.medium + fm.heavy + fm.colossal)]
    # A blank list is not ready to play: say what it still needs from the start.
    data, model, form_problems = forms.validate(system, data)
    return _builder(system, data, check(model) if model is not None else [], form_problems)


@bp.post("/new/<system>")
@once()
def create(system: str):
    _system(system)
    op, data, model, problems, form_problems = _posted(system)
    if op == "save":
        if model is None:
            return _builder(system, data, problems, form_problems, status=422,
                            message="Some boxes hold values that cannot be used: see the list below the form.")
        try:
            result = saved.create_list(session(), owner(), model)
        except TableError as e:
            return _builder(system, data, problems, form_problems, status=e.status, message=e.message)
        return redirect(url_for("lists.view", list_id=result.armylist.id), 303)
    return _builder(system, data, problems, form_problems)


@bp.post("/check/<system>")
def live_check(system: str):
    """htmx: the problems panel for the form as it stands (nothing is saved)."""
    _system(system)
    _op, data, _model, problems, form_problems = _posted(system)
    html = render_template("lists/_problems.html", problems=problems, form_problems=form_problems, live=True)
    if system == "oilandiron":
        # Each Rig's Iron line follows the form too, swapped in out of band beside the problems.
        bad = [p.path for p in problems + form_problems]
        choices, iron = _choices(system, data), _iron_in_use(system, data)
        html += "".join(
            render_template("lists/_rig_summary.html", ri=ri, r=r, p=f"rigs.{ri}", bad=bad,
                            choices=choices, iron=iron, oob=True)
            for ri, r in enumerate(data.get("rigs") or []))
    return html


@bp.route("/<int:list_id>/edit", methods=["GET", "POST"])
@once()
def edit(list_id: int):
    try:
        row = saved.get_list(session(), list_id)
    except TableError as e:
        return _fail(e)
    if row.owner != owner():
        return _message(f"“{row.name}” belongs to {row.owner}: only {row.owner} "
                        "can change it. Open it and make a copy to change your own.", 403)
    if request.method == "GET":
        version = saved.get_version(session(), row)
        model = saved.content_of(row, version)
        return _builder(row.system, dump(model), check(model), [], list_row=row)
    op, data, model, problems, form_problems = _posted(row.system)
    if op == "save":
        if model is None:
            return _builder(row.system, data, problems, form_problems, row, 422,
                            "Some boxes hold values that cannot be used: see the list below the form.")
        try:
            saved.save_list(session(), list_id, owner(), model)
        except TableError as e:
            return _builder(row.system, data, problems, form_problems, row, e.status, e.message)
        return redirect(url_for("lists.view", list_id=list_id), 303)
    return _builder(row.system, data, problems, form_problems, list_row=row)


# --- one list: view, versions, print, export --------------------------------------------------------

def _load(list_id: int, number: int | None = None):
    row = saved.get_list(session(), list_id)
    if not _readable(row):
        raise saved.NotOwner(f"“{row.name}” is not shared with you: ask {row.owner} for its share code.")
    version = saved.get_version(session(), row, number)
    return row, version, saved.content_of(row, version)


@bp.get("/<int:list_id>")
def view(list_id: int):
    number = request.args.get("v", type=int)
    try:
        row, version, model = _load(list_id, number)
    except TableError as e:
        return _fail(e)
    return render_template("lists/view.html", row=row, version=version, model=model, sheet=sheet(model),
                           problems=check(model), versions=saved.versions(session(), list_id),
                           games=saved.games_of_list(session(), list_id),
                           owner=owner(), shared=False, systems=SYSTEM_NAMES, message=notices.said())


@bp.get("/<int:list_id>/print")
def print_view(list_id: int):
    number = request.args.get("v", type=int)
    try:
        row, version, model = _load(list_id, number)
    except TableError as e:
        return _fail(e)
    return render_template("lists/print.html", row=row, version=version, model=model, sheet=sheet(model),
                           problems=check(model), systems=SYSTEM_NAMES)


@bp.get("/<int:list_id>/export")
def export(list_id: int):
    number = request.args.get("v", type=int)
    try:
        row, version, model = _load(list_id, number)
    except TableError as e:
        return _fail(e)
    filename = forms.card_key(row.name).replace("_", "-") + f"-v{version.number}.json"
    return Response(export_text(model, owner=row.owner, version=version.number), mimetype="application/json",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})


@bp.post("/import")
@once()
def import_list():
    upload = request.files.get("file")
    raw: bytes | str = upload.read() if upload and upload.filename else request.form.get("text", "")
    try:
        model = import_text(raw)
        result = saved.create_list(session(), owner(), model, note="imported")
    except ListFileError as e:
        return _message(f"The list was not imported: {e}", 422)
    except TableError as e:
        return _fail(e)
    return redirect(url_for("lists.view", list_id=result.armylist.id), 303)


@bp.post("/examples/<name>")
@once()
def copy_example(name: str):
    examples = example_lists()
    if name not in examples:
        abort(404)
    try:
        result = saved.create_list(session(), owner(), examples[name], note="from the shipped example")
    except TableError as e:
        return _fail(e)
    return redirect(url_for("lists.view", list_id=result.armylist.id), 303)


# --- owning, copying, sharing -------------------------------------------------------------------

@bp.post("/<int:list_id>/rename")
@once()
def rename(list_id: int):
    try:
        saved.rename_list(session(), list_id, owner(), request.form.get("name", ""))
    except TableError as e:
        return _fail(e)
    return redirect(url_for("lists.view", list_id=list_id), 303)


@bp.post("/<int:list_id>/duplicate")
@once()
def duplicate(list_id: int):
    try:
        _load(list_id)
        result = saved.duplicate_list(session(), list_id, owner(), request.form.get("name"))
    except TableError as e:
        return _fail(e)
    return redirect(url_for("lists.view", list_id=result.armylist.id), 303)


@bp.post("/<int:list_id>/delete")
@once()
def delete(list_id: int):
    try:
        saved.delete_list(session(), list_id, owner())
    except TableError as e:
        return _fail(e)
    return redirect(url_for("lists.index"), 303)


@bp.post("/<int:list_id>/share")
@once()
def share(list_id: int):
    try:
        saved.share(session(), list_id, owner())
    except TableError as e:
        return _fail(e)
    return redirect(url_for("lists.view", list_id=list_id, _anchor="share"), 303)


@bp.post("/<int:list_id>/public")
@once()
def public(list_id: int):
    """The owner opens the list to everyone on the club server, or closes it again."""
    try:
        saved.set_public(session(), list_id, owner(), request.form.get("public") == "1")
    except TableError as e:
        return _fail(e)
    return redirect(url_for("lists.view", list_id=list_id, _anchor="share"), 303)


@bp.get("/s/")
def shared_lookup():
    return redirect(url_for("lists.shared", code=request.args.get("code", "").strip() or "-"), 303)


@bp.get("/s/<code>")
def shared(code: str):
    try:
        row = saved.by_share_code(session(), code)
        # The code lets this tablet read the list (print it, copy it, start a game with it).
        cookie["shared_lists"] = (_shared_here() + [row.id])[-50:]
        row, version, model = _load(row.id)
    except TableError as e:
        return _fail(e)
    return render_template("lists/view.html", row=row, version=version, model=model, sheet=sheet(model),
                           problems=check(model), versions=[], games=[], owner=owner(), shared=True,
                           systems=SYSTEM_NAMES)


# --- a game from two lists ------------------------------------------------------------------------

@bp.route("/start", methods=["GET", "POST"])
@once()
def start():
    system = request.values.get("system", "blackpowder")
    _system(system)
    rows = visible_lists(saved.list_lists(session(), system=system))
    ready = {r.id: saved.get_version(session(), r).problems == 0 for r in rows}
    engagements = load_engagements().engagements if system == "oilandiron" else []
    message, status = "", 200
    if request.method == "POST":
        first, second = request.form.get("first", type=int), request.form.get("second", type=int)
        options = {}
        if system == "oilandiron":
            etype = request.form.get("engagement") or None
            options["engagement_type"] = etype
            chosen = next((e for e in engagements if e.key == etype), None)
            if chosen and chosen.roles:
                first_role = request.form.get("first_role") or chosen.roles[0]
                other = next((r for r in chosen.roles if r != first_role), chosen.roles[1])
                options["roles"] = (first_role, other)
        chosen = {r.id for r in rows}
        if not first or not second:
            message, status = "Choose two lists.", 422
        elif first not in chosen or second not in chosen:
            message, status = "Choose two lists shared with you.", 403
        else:
            try:
                game = saved.start_game(session(), request.form.get("name", ""), first, second, owner=owner(), **options)
            except TableError as e:
                message, status = e.message, e.status
            else:
                roles.made_umpire(game)
                return redirect(url_for("games.game_page", game_id=game.id), 303)
    return render_template("lists/start.html", system=system, rows=rows, ready=ready, engagements=engagements,
                           message=message, systems=SYSTEM_NAMES, form=request.form), status
