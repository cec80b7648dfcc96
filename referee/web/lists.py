"""Army lists and squadrons: the builders, saved lists by owner, export and import, share codes,
the print view, and starting a game from two lists. Routes read the request and hand it to
``referee.lists`` (pure) or ``referee.table.lists`` (saved lists)."""
from __future__ import annotations

from typing import Any, Callable

from flask import Blueprint, Response, abort, redirect, render_template, request, url_for
from flask import session as cookie

from ..lists import forms
from ..lists.builders import builder_for
from ..lists.examples import example_lists
from ..lists.problems import ListFileError, by_row, rows_in
from ..lists.sheets import sheet
from ..lists.travel import check, dump, export_text, import_text
from ..systems import BLACK_POWDER, LABELS
from ..table import lists as saved
from ..table.service import BadInput, TableError
from . import auth, notices, roles
from .db import session
from .redirects import safe_next
from .serving import refusals
from .taps import once

bp = Blueprint("lists", __name__, url_prefix="/lists")
SYSTEMS = tuple(LABELS)
# A refusal on a list page leads back to the lists, unless the route draws its own form again.
bp.before_request(lambda: refusals.redraw(_fail))


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


def _written(write: Callable[[], Any], then: str | Callable[[Any], str]):
    """One write to the saved lists, as a list's buttons make it: refused, the reason on a page of
    its own (``_fail``); done, on to ``then`` (a place, or the place the write's result leads to)."""
    result = write()
    return redirect(then(result) if callable(then) else then, 303)


def _to_list(result) -> str:
    """The page of the list a write made (a copy, an import, a duplicate)."""
    return url_for("lists.view", list_id=result.armylist.id)


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
    return _index()


def _index(message: str = "", status: int = 200, pasted: str = ""):
    """The lists; after a refused import, with what was wrong and the text pasted kept in its box."""
    who = request.args.get("who", "mine" if owner() else "all")
    rows = visible_lists(saved.list_lists(session(), owner=owner() if who == "mine" and owner() else None))
    owners = sorted({r.owner for r in visible_lists(saved.list_lists(session()))})
    return render_template("lists/index.html", lists=rows, who=who, owner=owner(), owners=owners,
                           systems=LABELS, examples=example_lists(), refused=message, pasted=pasted,
                           message=notices.said(), typed_owner=request.form.get("_owner", "").strip()[:40]), status


# --- the builders -------------------------------------------------------------------------------

def _builder(system: str, data: dict, problems, form_problems, list_row=None, status: int = 200, message: str = "",
             base: int | None = None, clashes=(), unsaved: bool = False):
    """The builder page. ``base`` is the list's version the form was opened from (carried by the form,
    so a save knows what changed meanwhile); ``clashes`` the fields another tablet changed too;
    ``unsaved``: the form holds work not saved (drawn again after a button or a refusal)."""
    template = f"lists/build_{system}.html"
    builder = builder_for(system)
    return render_template(template, system=system, data=data, problems=problems, form_problems=form_problems,
                           by_row=by_row(form_problems + problems), iron=builder.iron(data), list_row=list_row, choices=builder.menus(data), owner=owner(), message=message,
                           systems=LABELS, perks_text=forms.perks_to_text, base=base, clashes=list(clashes),
                           unsaved=unsaved, typed_owner=request.form.get("_owner", "").strip()[:40]), status


def _take_owner() -> None:
    """A name typed in the builder itself (on a laptop table, before the first Save) is the owner's
    from then on: asked on the way, the builder's work stays on the page."""
    typed = request.form.get("_owner", "").strip()[:40]
    if typed and not auth.club() and not owner():
        cookie["owner"] = typed
        cookie.permanent = True


def _posted(system: str, buttons: bool = True):
    """The builder form as posted, with its button applied: (data, list or None, problems, form problems).
    ``buttons=False``: the form as it stands, whatever button it names (htmx sends the button last
    tapped with a live check, and its row is not on the page until that tap is answered)."""
    data = forms.unflatten(request.form.items(multi=True))
    data["system"] = system
    op = request.form.get("op", "check") if buttons else "check"
    if op not in ("save", "check"):
        data = forms.apply_op(system, data, op, request.form.to_dict())
    builder_for(system).prepare(data)
    data, model, form_problems = forms.validate(system, data)
    problems = check(model) if model is not None else []
    return op, data, model, problems, form_problems


@bp.get("/new/<system>")
def new_list(system: str):
    _system(system)
    data = builder_for(system).blank()
    # A blank list is not ready to play: say what it still needs from the start.
    data, model, form_problems = forms.validate(system, data)
    return _builder(system, data, check(model) if model is not None else [], form_problems)


@bp.post("/new/<system>")
@once()
def create(system: str):
    _system(system)
    _take_owner()
    op, data, model, problems, form_problems = _posted(system)
    if op == "save":
        if model is None:
            return _builder(system, data, problems, form_problems, status=422, unsaved=True,
                            message="Some boxes hold values that cannot be used: see the list below the form.")
        refusals.redraw(lambda e: _builder(system, data, problems, form_problems, status=e.status, message=e.message,
                                           unsaved=True))
        result = saved.create_list(session(), owner(), model)
        return redirect(url_for("lists.view", list_id=result.armylist.id), 303)
    return _builder(system, data, problems, form_problems, unsaved=True)


@bp.post("/check/<system>")
def live_check(system: str):
    """htmx: the problems panel for the form as it stands (nothing is saved)."""
    _system(system)
    _op, data, _model, problems, form_problems = _posted(system, buttons=False)
    html = render_template("lists/_problems.html", problems=problems, form_problems=form_problems, live=True)
    builder = builder_for(system)
    # Each row's own problems follow the form too, swapped in out of band at their rows.
    html += render_template("lists/_row_problems.html", rows=rows_in(data, builder.rows),
                            by_row=by_row(form_problems + problems))
    if builder.rows_follow_check:
        # Each Rig's Iron line follows the form too, swapped in out of band beside the problems.
        bad = [p.path for p in problems + form_problems]
        choices, iron = builder.menus(data), builder.iron(data)
        html += "".join(
            render_template("lists/_rig_summary.html", ri=ri, r=r, p=f"rigs.{ri}", bad=bad,
                            choices=choices, iron=iron, oob=True)
            for ri, r in enumerate(data.get("rigs") or []))
    return html


@bp.route("/<int:list_id>/edit", methods=["GET", "POST"])
@once()
def edit(list_id: int):
    row = saved.get_list(session(), list_id)
    if row.owner != owner():
        said = (f"“{row.name}” belongs to {row.owner}: only {row.owner} "
                "can change it. Open it and make a copy to change your own.")
        if request.method == "GET":
            return _message(said, 403)
        # Sent from a builder (the tablet's name changed meanwhile): refused with the work on the page.
        _op, data, _model, problems, form_problems = _posted(row.system)
        return _builder(row.system, data, problems, form_problems, row, 403, said,
                        request.form.get("_base", type=int), unsaved=True)
    if request.method == "GET":
        version = saved.get_version(session(), row)
        model = saved.content_of(row, version)
        return _builder(row.system, dump(model), check(model), [], list_row=row, base=version.number)
    base = request.form.get("_base", type=int)
    op, data, model, problems, form_problems = _posted(row.system)
    if op == "save":
        if model is None:
            return _builder(row.system, data, problems, form_problems, row, 422,
                            "Some boxes hold values that cannot be used: see the list below the form.", base, unsaved=True)
        refusals.redraw(lambda e: _builder(row.system, data, problems, form_problems, row, e.status, e.message, base,
                                           unsaved=True))
        try:
            saved.save_list(session(), list_id, owner(), model, base=base)
        except saved.ListConflict as e:
            # Told what the other tablet changed, the player's next Save is over the newest version.
            return _builder(row.system, data, problems, form_problems, row, e.status, e.message, e.latest,
                            e.clashes, unsaved=True)
        return redirect(url_for("lists.view", list_id=list_id), 303)
    return _builder(row.system, data, problems, form_problems, list_row=row, base=base, unsaved=True)


# --- one list: view, versions, print, export --------------------------------------------------------

def _load(list_id: int, number: int | None = None):
    row = saved.get_list(session(), list_id)
    if not _readable(row):
        raise saved.NotOwner(f"“{row.name}” is not shared with you: ask {row.owner} for its share code.")
    version = saved.get_version(session(), row, number)
    return row, version, saved.content_of(row, version)


@bp.get("/<int:list_id>")
def view(list_id: int):
    return _view(list_id, request.args.get("v", type=int), notices.said())


def _view(list_id: int, number: int | None, message: str, typed_name: str | None = None):
    """A saved list's page; ``typed_name``: a refused rename's name, drawn back as typed."""
    row, version, model = _load(list_id, number)
    return render_template("lists/view.html", row=row, version=version, model=model, sheet=sheet(model),
                           problems=check(model), versions=saved.versions(session(), list_id),
                           games=saved.games_of_list(session(), list_id), typed_name=typed_name,
                           owner=owner(), shared=False, systems=LABELS, message=message)


@bp.get("/<int:list_id>/print")
def print_view(list_id: int):
    row, version, model = _load(list_id, request.args.get("v", type=int))
    return render_template("lists/print.html", row=row, version=version, model=model, sheet=sheet(model),
                           problems=check(model), systems=LABELS)


@bp.get("/<int:list_id>/export")
def export(list_id: int):
    row, version, model = _load(list_id, request.args.get("v", type=int))
    filename = forms.card_key(row.name).replace("_", "-") + f"-v{version.number}.json"
    return Response(export_text(model, owner=row.owner, version=version.number), mimetype="application/json",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})


@bp.get("/import")
def to_the_import():
    """The address a refused import showed, opened again: the lists page, at its import form."""
    return redirect(url_for("lists.index", _anchor="import"), 303)


@bp.post("/import")
@once()
def import_list():
    _take_owner()  # a name typed beside the import (none chosen yet) keeps the list under it
    upload = request.files.get("file")
    pasted = request.form.get("text", "")
    from_file = bool(upload and upload.filename)
    raw: bytes | str = upload.read() if upload and from_file else pasted
    # Refused, the page says why with the pasted text still in its box (a file is chosen again).
    again = "" if from_file else pasted
    refusals.redraw(lambda e: _index(f"The list was not imported: {e.message}", e.status, again))
    try:
        model = import_text(raw)
    except ListFileError as e:
        return _index(f"The list was not imported: {e}", 422, again)
    result, said = saved.import_list(session(), owner(), model)
    notices.say(said)
    return redirect(url_for("lists.view", list_id=result.armylist.id), 303)


@bp.post("/examples/<name>")
@once()
def copy_example(name: str):
    examples = example_lists()
    if name not in examples:
        abort(404)
    return _written(lambda: saved.create_list(session(), owner(), examples[name], note="from the shipped example"),
                    _to_list)


# --- owning, copying, sharing -------------------------------------------------------------------

@bp.post("/<int:list_id>/rename")
@once()
def rename(list_id: int):
    name = request.form.get("name", "")
    # A name that cannot be used is asked again on the list's page; the list not this tablet's to
    # change (or read) is said on a page of its own.
    refusals.redraw(lambda e: (_view(list_id, None, e.message, typed_name=name), e.status)
                    if isinstance(e, BadInput) else refusals.plain(e))
    return _written(lambda: saved.rename_list(session(), list_id, owner(), request.form.get("name", "")),
                    url_for("lists.view", list_id=list_id))


@bp.post("/<int:list_id>/duplicate")
@once()
def duplicate(list_id: int):
    def write():
        _load(list_id)  # only a list this tablet may read is copied
        return saved.duplicate_list(session(), list_id, owner(), request.form.get("name"))
    return _written(write, _to_list)


@bp.post("/<int:list_id>/delete")
@once()
def delete(list_id: int):
    return _written(lambda: saved.delete_list(session(), list_id, owner()), url_for("lists.index"))


@bp.post("/<int:list_id>/share")
@once()
def share(list_id: int):
    return _written(lambda: saved.share(session(), list_id, owner()), url_for("lists.view", list_id=list_id, _anchor="share"))


@bp.post("/<int:list_id>/public")
@once()
def public(list_id: int):
    """The owner opens the list to everyone on the club server, or closes it again."""
    return _written(lambda: saved.set_public(session(), list_id, owner(), request.form.get("public") == "1"),
                    url_for("lists.view", list_id=list_id, _anchor="share"))


@bp.get("/s/")
def shared_lookup():
    return redirect(url_for("lists.shared", code=request.args.get("code", "").strip() or "-"), 303)


@bp.get("/s/<code>")
def shared(code: str):
    row = saved.by_share_code(session(), code)
    # The code lets this tablet read the list (print it, copy it, start a game with it).
    cookie["shared_lists"] = (_shared_here() + [row.id])[-50:]
    row, version, model = _load(row.id)
    return render_template("lists/view.html", row=row, version=version, model=model, sheet=sheet(model),
                           problems=check(model), versions=[], games=[], owner=owner(), shared=True,
                           systems=LABELS)


# --- a game from two lists ------------------------------------------------------------------------

@bp.route("/start", methods=["GET", "POST"])
@once()
def start():
    system = request.values.get("system", BLACK_POWDER)
    _system(system)
    builder = builder_for(system)
    rows = visible_lists(saved.list_lists(session(), system=system))
    ready = {r.id: saved.get_version(session(), r).problems == 0 for r in rows}
    engagements = builder.engagements()

    def page(message: str = "", status: int = 200):
        return render_template("lists/start.html", system=system, rows=rows, ready=ready, engagements=engagements,
                               message=message, systems=LABELS, form=request.form), status
    if request.method == "GET":
        return page()
    first, second = request.form.get("first", type=int), request.form.get("second", type=int)
    options = builder.start_options(request.form, engagements)
    chosen = {r.id for r in rows}
    if not first or not second:
        return page("Choose two lists.", 422)
    if first not in chosen or second not in chosen:
        return page("Choose two lists shared with you.", 403)
    refusals.redraw(lambda e: page(e.message, e.status))
    game = saved.start_game(session(), request.form.get("name", ""), first, second, owner=owner(),
                            commit=False, **options)
    roles.made_umpire(game)
    return redirect(url_for("games.game_page", game_id=game.id), 303)
