"""Campaigns under ``/campaigns``: the list and new campaigns, the campaign page (timeline, score,
rosters at a glance, what carries forward), the next game started from the rosters, the
Aftermath and a battle's result a step at a time, settings, umpire overrides, the campaign log
with undo, printable roster sheets, and the whole campaign as one file.

Routes only read the form and hand it to the table layer (``referee.table.campaigns`` and
``campaign_games``); every write carries the campaign version the tablet shows, and a stale one
gets the fresh page with a one-line message (409), bad input its message (422)."""
from __future__ import annotations

import yaml
from flask import Blueprint, Response, abort, redirect, render_template, request, url_for
from jinja2_fragments.flask import render_block

from ..campaigns import KINDS, game_words, kind_for, override_fields, slug, table_views
from ..core.dice import BadDice, parse_typed
from ..core.parse_limits import TooComplex, load_yaml
from ..lists import example_lists
from ..lists.formations import load_tiers
from ..lists.oilandiron import Squadron
from ..systems import OIL_AND_IRON
from ..table import campaign_day as cd
from ..table import campaign_file
from ..table import campaign_games as cg
from ..table import campaigns as tc
from ..table.lists import content_of, get_list, get_version, list_lists
from ..table.models import Game
from ..table.service import NeedDice, TableError
from . import auth, notices, roles
from . import campaign_access as access
from . import campaign_view as view
from .db import session
from .forms import facts_from_form
from .lists import visible_lists
from .serving import refusals
from .serving.page_forms import sent_as_page
from .taps import ALREADY_DONE, led_again, once

bp = Blueprint("campaigns", __name__, url_prefix="/campaigns")
# On a club server a campaign is read by its umpire and players and changed by its owner.
bp.before_request(access.gate)


def _who() -> str:
    """Who made the step: on a club server the signed-in account, whatever the form says; on a
    laptop table the name the umpire typed in the form, else the one typed on the lists page."""
    if auth.club():
        return access.who()
    return (request.form.get("who", "").strip() or access.who()).strip()[:40]


def _version() -> int:
    raw = request.form.get("version", "")
    if not raw.strip().isdigit():
        raise tc.BadInput("The form did not say which version of the campaign it shows: reload the page.")
    return int(raw)


def campaign_or_404(campaign_id: int) -> tc.Campaign:
    try:
        return tc.get_campaign(session(), campaign_id)
    except tc.NotFound as e:
        abort(404, e.message)


# --- the list and new campaigns -----------------------------------------------------------------

def _squadron_choices() -> list[tuple[str, str]]:
    """Every shipped example squadron a campaign may start with (each Skirmish-sized), then the
    saved squadrons the user may see; each named once ("Example: Sword scouts")."""
    order = [f.key for f in load_tiers()["skirmish"].formations]  # Sword, Mace, Dagger: as the rules list them
    examples = sorted(((k, v) for k, v in example_lists().items()
                       if v.system == OIL_AND_IRON and getattr(v, "tier", "") == "skirmish"),
                      key=lambda kv: (order.index(kv[1].formation) if kv[1].formation in order else len(order), kv[0]))
    out = [(f"example:{k}", v.name if v.name.startswith("Example") else f"Example: {v.name}") for k, v in examples]
    out += [(str(lst.id), f"{lst.name} ({lst.owner}, v{lst.latest})")
            for lst in visible_lists(list_lists(session(), system=OIL_AND_IRON))]
    return out


def _index(message: str = "", status: int = 200, values: dict | None = None):
    return render_template("campaigns/index.html", campaigns=access.visible(tc.list_campaigns(session())), kinds=KINDS,
                           squadrons=_squadron_choices(), table_files=cg.table_files(), message=message,
                           values=values or {}), status


@bp.get("")
def index():
    return _index()


def _squadron(choice: str) -> Squadron:
    if choice.startswith("example:"):
        lst = example_lists().get(choice.removeprefix("example:"))
        if lst is None or lst.system != OIL_AND_IRON:
            raise tc.BadInput("That example squadron is not there.")
        return lst
    if not choice.isdigit():
        raise tc.BadInput("Choose a squadron for each player.")
    row = get_list(session(), int(choice))
    if not visible_lists([row]):
        raise tc.BadInput(f"“{row.name}” is not shared with you: ask {row.owner} for its share code.")
    if row.system != OIL_AND_IRON:
        raise tc.BadInput(f"“{row.name}” is not an Of Oil and Iron squadron.")
    return content_of(row, get_version(session(), row))


@bp.post("/new")
@once(lambda first: _replayed(first))
def create():
    f = request.form
    kind = f.get("kind", "")
    name = f.get("name", "").strip()[:80]
    refusals.redraw(lambda e: _index(e.message, e.status, dict(f)))
    if not name:
        raise tc.BadInput("The campaign needs a name.")
    if kind == OIL_AND_IRON:
        players = {}
        for p in ("p1", "p2"):
            pname = f.get(f"{p}-name", "").strip()[:40]
            if not pname:
                raise tc.BadInput(f"Player {p[1]} needs a name.")
            players[p] = (pname, _squadron(f.get(f"{p}-squadron", "")))
        tables = cg.read_yaml_file(f.get("tables", "") or "oilandiron-example-tables.yaml")
        c = cg.new_oilandiron(session(), name, players, tables, owner=access.who())
    elif kind == "hundred_days":
        french, coalition = f.get("french", "").strip()[:40], f.get("coalition", "").strip()[:40]
        if not french or not coalition:
            raise tc.BadInput("Name the French player and the Coalition player.")
        recovery = f.get("recovery", "half")
        settings = {"recovery": recovery} if recovery in ("none", "half", "all", "roll") else None
        c = cg.new_hundred_days(session(), name, french, coalition, settings=settings, owner=access.who())
    else:
        raise tc.BadInput("Choose the kind of campaign.")
    return redirect(url_for("campaigns.page", campaign_id=c.id), 303)


# --- the campaign page -----------------------------------------------------------------------------

def _page(c: tc.Campaign, message: str = "", status: int = 200, values: dict | None = None):
    """The campaign's page; ``values``: a refused step's form as it was posted, drawn back as it was."""
    doc = c.state
    ctx = view.oilandiron_context(doc) if c.kind == OIL_AND_IRON else view.hundred_days_context(doc)
    games_by_id = {g.game_id: session().get(Game, g.game_id) for g in tc.games_of(session(), c.id)}
    entries = tc.log(session(), c.id)
    aftermath_seq = next((e.seq for e in entries if e.action == "begin_aftermath" and not e.undone
                          and not e.discarded), None) if doc.get("aftermath") else None
    if c.kind == "hundred_days":
        ctx.update(tables=table_views(doc, _games_of_day(c)), only=None, tag=cd.day_tag(session(), c),
                   timeline=view.timeline_of(doc, entries))
    if c.kind == OIL_AND_IRON:
        ctx.update(roster=view.roster_of(doc, entries))
    ctx.update(c=c, doc=doc, kind=kind_for(c.kind), message=message, games_by_id=games_by_id, aftermath_seq=aftermath_seq,
               values=values or {},
               log=entries[:8], words=game_words, can_redo=tc.can_redo(session(), c.id),
               table_step=view.table_step(entries), newest=_newest_in_force(entries),
               ended={i for i, g in games_by_id.items() if g is not None and g.state.get("ended")})
    if _swapped(c):
        return render_block("campaigns/oilandiron.html", "live", **ctx), status
    return render_template(f"campaigns/{c.kind}.html", **ctx), status


def _replayed(first):
    """A campaign's tap sent again: a step htmx took on the page is drawn again, with the page as
    it stands; anything else is led where the first answer led."""
    campaign_id = (request.view_args or {}).get("campaign_id")
    if campaign_id is not None:
        c = campaign_or_404(campaign_id)
        if _swapped(c) and first.status == 200:
            return _page(c, ALREADY_DONE)
    return led_again(first)


def _swapped(c: tc.Campaign) -> bool:
    """A step htmx took on an Of Oil and Iron campaign's page: it wants back only the part that changes.
    A form that is a page of its own (the settings), sent by htmx, wants the whole page as ever."""
    return c.kind == OIL_AND_IRON and request.method == "POST" and bool(request.htmx) and not sent_as_page()


# A form's answer may show its address (a refusal drawn in place): opened again from the address
# bar, a link or a reload, that address leads to the page the form is on, never to "method not allowed".
@bp.get("/new")
@bp.get("/import")
def to_the_campaigns():
    return redirect(url_for("campaigns.index"), 303)


@bp.get("/<int:campaign_id>/act/<action>")
@bp.get("/<int:campaign_id>/start")
@bp.get("/<int:campaign_id>/start-day")
@bp.get("/<int:campaign_id>/aftermath")
@bp.get("/<int:campaign_id>/record/<battle>")
@bp.get("/<int:campaign_id>/choose/<breakthrough>")
def to_the_campaign(campaign_id: int, **_where):
    return redirect(url_for("campaigns.page", campaign_id=campaign_or_404(campaign_id).id), 303)


@bp.get("/<int:campaign_id>")
def page(campaign_id: int):
    c = campaign_or_404(campaign_id)
    return _page(c, notices.said())


def _after(c: tc.Campaign, message: str = ""):
    notices.say(message)
    return redirect(url_for("campaigns.page", campaign_id=c.id) + "#now", 303)


def _refused(campaign_id: int, back=None):
    """How a campaign write's refusal is drawn: nothing it did is kept; a form of its own page
    (``back``) is drawn again there, as typed; else the campaign page with the message (a stale
    write's status is 409)."""
    def draw(e: TableError):
        session().rollback()
        if back is not None:
            return back(e)
        return _page(campaign_or_404(campaign_id), e.message, e.status)
    return draw


def _write(campaign_id: int, do, *, back=None):
    """Run one write and answer as every campaign write answers."""
    c = campaign_or_404(campaign_id)
    refusals.redraw(_refused(campaign_id, back))
    try:
        out = do(c)
    except NeedDice as e:
        session().rollback()
        so_far = " ".join(map(str, e.typed))
        return _page(campaign_or_404(campaign_id),
                     f"{e.message}. Nothing was changed: type every die of this step in its Dice box "
                     f"({so_far} and the new one{'s' if e.needed.count > 1 else ''}), or leave it empty for the app "
                     "to roll.", 422)
    if isinstance(out, Game):
        roles.made_umpire(out)  # whoever starts a campaign's game is its umpire (a club server's roles)
        if request.htmx:  # the game's own page, whole, and in the history
            return Response(status=204, headers={"HX-Redirect": url_for("games.game_page", game_id=out.id)})
        return redirect(url_for("games.game_page", game_id=out.id), 303)
    c = campaign_or_404(campaign_id)
    return _page(c) if _swapped(c) else _after(c)


@bp.post("/<int:campaign_id>/act/<action>")
@once(lambda first: _replayed(first))
def act(campaign_id: int, action: str):
    c = campaign_or_404(campaign_id)
    try:
        spec = kind_for(c.kind).action(action)
    except KeyError as e:
        abort(404, e.args[0])
    if action in ("game_started", "begin_aftermath", "record_result", "edit_tables", "start_day_together"):
        abort(404, "That step is taken from its own button.")

    def do(c):
        typed = None
        raw = (request.form.get("typed", "") + " " + request.form.get("more_dice", "")).strip()
        if raw and spec.rolls_dice:
            try:
                typed = parse_typed(raw)
            except BadDice as e:
                raise tc.BadInput(str(e)) from None
        return tc.perform(session(), c.id, _version(), action, facts_from_form(spec.facts, request.form),
                          typed_dice=typed, who=_who())
    if action in SETTINGS_FORMS:  # refused, the settings page again with what was typed
        return _write(campaign_id, do, back=lambda e: _settings(campaign_or_404(campaign_id), e.message,
                                                                getattr(e, "status", 409), typed=request.form))
    return _write(campaign_id, do, back=lambda e: _page(campaign_or_404(campaign_id), e.message, e.status,
                                                       request.form.to_dict()))


@bp.post("/<int:campaign_id>/start")
@once(lambda first: _replayed(first))
def start(campaign_id: int):
    def do(c):
        if c.kind == OIL_AND_IRON:
            aggressor = request.form.get("aggressor", "p1")
            return cg.start_engagement(session(), c.id, _version(), who=_who(),
                                       aggressor=aggressor if aggressor in ("p1", "p2") else "p1")
        return cg.start_battle(session(), c.id, _version(), request.form.get("battle", ""), who=_who(),
                               decline_i_corps=request.form.get("decline_i_corps") in ("on", "yes"))
    return _write(campaign_id, do)


@bp.post("/<int:campaign_id>/start-day")
@once(lambda first: _replayed(first))
def start_day(campaign_id: int):
    """Every battle of the day at once, each a game of its own; back to the campaign's tables."""
    def do(c):
        games = cd.start_day(session(), c.id, _version(), who=_who(),
                             decline_i_corps=request.form.get("decline_i_corps") in ("on", "yes"))
        for g in games:
            roles.made_umpire(g)  # whoever starts them umpires them until each table's umpire takes over
        return None
    out = _write(campaign_id, do)
    if not isinstance(out, tuple) and out.status_code == 303:
        return redirect(url_for("campaigns.page", campaign_id=campaign_id) + "#tables", 303)
    return out


def _games_of_day(c) -> dict:
    return {k: session().get(Game, b["game_id"]) for k, b in c.state["battles"].items() if b.get("game_id")}


@bp.get("/<int:campaign_id>/tables")
def tables(campaign_id: int):
    """The day's tables as they stand now (the campaign page polls it)."""
    c = campaign_or_404(campaign_id)
    if c.kind != "hundred_days":
        abort(404, "Only a Hundred Days campaign has tables side by side.")
    only = request.args.get("battle") or None
    if only is not None and only not in c.state["battles"]:
        abort(404, "The campaign has no such battle.")
    tag = cd.day_tag(session(), c)
    if request.args.get("seen") == tag:
        return "", 204  # nothing changed at any table: no game's document read
    return render_template("campaigns/_tables.html", c=c, doc=c.state, only=only, tag=tag, **_day_tables(c, only))


@bp.get("/<int:campaign_id>/table/<battle>")
def table_page(campaign_id: int, battle: str):
    """One table's campaign page: its battle live, what reached it, and the choices it owes."""
    c = campaign_or_404(campaign_id)
    if c.kind != "hundred_days" or battle not in c.state["battles"]:
        abort(404, "The campaign has no such battle.")
    return _table(c, battle, request.args.get("message", "") or notices.said())


def _table(c, battle: str, message: str = "", status: int = 200):
    return render_template("campaigns/table.html", c=c, doc=c.state, battle=c.state["battles"][battle], only=battle,
                           message=message, tag=cd.day_tag(session(), c), **_day_tables(c, battle)), status


def _day_tables(c, only: str | None) -> dict:
    """The tables a page shows (``only`` one), and for one table's page the day's other tables,
    whose turn and phase it shows as it follows them."""
    games = _games_of_day(c)
    if only is None:
        return {"tables": table_views(c.state, games), "others": []}
    return {"tables": table_views(c.state, games, only),
            "others": [t for t in table_views(c.state, games) if t["key"] != only and t.get("turn") is not None]}


@bp.post("/<int:campaign_id>/choose/<breakthrough>")
@once(lambda first: _replayed(first))
def choose(campaign_id: int, breakthrough: str):
    """The Coalition's choice after a breakthrough: which reinforcing unit is disrupted."""
    c = campaign_or_404(campaign_id)
    battle = (c.state.get("plan", {}).get("links") or {}).get("breakthroughs", {}).get("to", "")
    if c.kind != "hundred_days" or battle not in c.state["battles"]:
        abort(404, "This campaign has no such choice.")
    refusals.redraw(_refused(campaign_id, back=lambda e: _table(campaign_or_404(campaign_id), battle, e.message,
                                                                 e.status)))
    cd.choose(session(), c.id, _version(), breakthrough, request.form.get("unit", ""), who=_who())
    return redirect(url_for("campaigns.table_page", campaign_id=campaign_id, battle=battle), 303)


@bp.post("/<int:campaign_id>/aftermath")
@once(lambda first: _replayed(first))
def aftermath(campaign_id: int):
    return _write(campaign_id, lambda c: cg.begin_aftermath(session(), c.id, _version(), who=_who()))


@bp.post("/<int:campaign_id>/record/<battle>")
@once(lambda first: _replayed(first))
def record(campaign_id: int, battle: str):
    if campaign_or_404(campaign_id).kind != "hundred_days":
        abort(404, "Only a Hundred Days campaign records battles.")
    spec = kind_for("hundred_days").action("record_result")
    return _write(campaign_id, lambda c: cg.record_battle(session(), c.id, _version(), battle,
                                                          facts_from_form(spec.facts, request.form), who=_who()))


@bp.post("/<int:campaign_id>/undo")
@once(lambda first: _replayed(first))
def undo(campaign_id: int):
    seq = request.form.get("back_to", "")

    def do(c):
        if seq.isdigit():
            return tc.undo_back_to(session(), c.id, _version(), int(seq))
        return tc.undo(session(), c.id, _version(), who=_who())
    return _write(campaign_id, do)


@bp.post("/<int:campaign_id>/redo")
@once(lambda first: _replayed(first))
def redo(campaign_id: int):
    return _write(campaign_id, lambda c: tc.redo(session(), c.id, _version()))


# --- log, settings, sheets --------------------------------------------------------------------------

@bp.get("/<int:campaign_id>/log")
def log_page(campaign_id: int):
    c = campaign_or_404(campaign_id)
    entries = tc.log(session(), c.id)
    return render_template("campaigns/log.html", c=c, entries=entries, can_redo=tc.can_redo(session(), c.id),
                           table_step=view.table_step(entries), newest=_newest_in_force(entries))


def _newest_in_force(entries: list):
    return next((e for e in entries if not e.undone and not e.discarded), None)


# The campaign's actions whose forms are on its settings page.
SETTINGS_FORMS = ("change_setting", "umpire_override")


def _settings(c, message: str = "", status: int = 200, tables_text: str | None = None, typed=None):
    """The settings page; ``typed``: a form refused there, drawn again as it was sent."""
    text = tables_text
    if text is None and c.kind == OIL_AND_IRON:
        text = yaml.safe_dump(c.state["tables"], allow_unicode=True, sort_keys=False, width=100)
    return render_template("campaigns/settings.html", c=c, rows=view.settings_rows(c.state, c.kind),
                           fields=override_fields(c.state), tables_text=text, message=message,
                           typed=typed or {}), status


@bp.get("/<int:campaign_id>/settings")
def settings_page(campaign_id: int):
    return _settings(campaign_or_404(campaign_id), notices.said())


@bp.post("/<int:campaign_id>/tables")
@once(lambda first: _replayed(first))
def edit_tables(campaign_id: int):
    text = request.form.get("tables", "")

    def do(c):
        try:
            raw = load_yaml(text)
        except TooComplex as e:
            raise tc.BadInput(f"The tables cannot be read: {e}.") from None
        except yaml.YAMLError as e:
            raise tc.BadInput(f"The tables are not readable YAML: {str(e).splitlines()[0]}") from None
        if not isinstance(raw, dict):
            raise tc.BadInput("The tables must be a YAML mapping, as the example file is.")
        return tc.perform(session(), c.id, _version(), "edit_tables", {"tables": raw}, who=_who())
    return _write(campaign_id, do, back=lambda e: _settings(campaign_or_404(campaign_id), e.message, e.status, text))


@bp.get("/<int:campaign_id>/print")
def print_rosters(campaign_id: int):
    c = campaign_or_404(campaign_id)
    ctx = view.oilandiron_context(c.state) if c.kind == OIL_AND_IRON else view.hundred_days_context(c.state)
    return render_template("campaigns/print.html", c=c, doc=c.state, **ctx)


# --- the whole campaign as one file -------------------------------------------------------------

@bp.get("/<int:campaign_id>/export")
def export(campaign_id: int):
    c = campaign_or_404(campaign_id)
    text = campaign_file.export_campaign(session(), c.id)
    name = slug(c.name)
    return Response(text, mimetype="application/json",
                    headers={"Content-Disposition": f'attachment; filename="{name}.campaign.json"'})


@bp.post("/import")
@once(lambda first: _replayed(first))
def import_campaign():
    upload = request.files.get("file")
    raw = upload.read() if upload else request.form.get("text", "").encode()
    if not raw:
        return _index("Choose a campaign file to import.", 422)
    said: list[str] = []
    refusals.redraw(lambda e: _index(f"Nothing was imported: {e.message}", e.status))
    c = campaign_file.import_campaign(session(), raw, said)
    notices.say(" ".join(["Campaign imported.", *said]))
    return redirect(url_for("campaigns.page", campaign_id=c.id), 303)
