"""Pages every game system shares: the list of games, starting one from a scenario, the game
page, its log, undo and redo, the version poll, the settings page, who rolls the dice, and the
action forms themselves (drawn from each action's facts). Routes only read the request and
hand it to the table service."""
from __future__ import annotations

from dataclasses import fields as dataclass_fields

from flask import Blueprint, abort, redirect, render_template, request, url_for

from ..core.dice import BadDice, parse_typed
from ..core.settings_actions import setting_title
from ..data import list_scenarios, new_battle_from_scenario
from ..systems import BLACK_POWDER, LABELS, system_for
from ..table import game_log, handover, service
from ..table.concurrent import first_step
from ..table.games import game_rows
from ..table.models import Game, LogEntry
from . import dice_handover, foe, forms, notices, roles
from .db import game_or_404, session
from .serving import folds, quick_poll, refusals
from .taps import ALREADY_DONE, once, tap_token
from .views import action_form_panel, answer_write, brigade_cards, live_answer, render_game, render_live, wants_fragment

bp = Blueprint("games", __name__)


def _version() -> int | None:
    raw = request.form.get("version", "")
    return int(raw) if raw.strip().isdigit() else None


# --- the list and new games -------------------------------------------------------------------

@bp.get("/")
def index():
    games = roles.visible_games(game_rows(session()))
    return render_template("games/index.html", games=games, labels=LABELS)


@bp.route("/games/new", methods=["GET", "POST"])
@once()
def new_game():
    scenarios = list_scenarios()
    message, status = "", 200
    if request.method == "POST":
        chosen = request.form.get("scenario", "")
        try:
            doc = new_battle_from_scenario(chosen)
        except KeyError:
            message, status = f"There is no scenario “{chosen}”.", 422
        else:
            name = request.form.get("name", "").strip()[:80] or doc.get("name") or chosen
            game = service.create_game(session(), name, BLACK_POWDER, doc, commit=False)
            roles.made_umpire(game)  # the game and its umpire's seat in one transaction
            foe = request.form.get("foe", "")
            if foe in doc.get("sides", {}):  # "Referee plays the French": its first log entry
                service.perform(session(), game.id, game.version, "foe_settings", {"side": foe})
                return redirect(url_for("foe.turn", game_id=game.id), 303)
            return redirect(url_for("games.game_page", game_id=game.id), 303)
    return render_template("games/new.html", scenarios=scenarios, message=message), status


# --- the game page, its log and the poll -----------------------------------------------------------

@bp.get("/games/<int:game_id>")
def game_page(game_id: int):
    game = game_or_404(game_id)
    panel = None
    seq = request.args.get("entry", "")
    if seq.isdigit():
        entry = game_log.entry(session(), game.id, int(seq))
        if entry is not None:
            panel = {"kind": "result", "entry": entry}
    # Dice another side must type: their prompt, or "Waiting for …" on the acting side's tablet.
    panel = panel or dice_handover.current_panel(game)
    return render_game(game, panel, oob_live=False)


# The log page shows this many entries, newest first, with links to the older and newer ones.
LOG_PAGE = 50


@bp.get("/games/<int:game_id>/log")
def log_page(game_id: int):
    """The log a page at a time: ``before`` a number, the entries before it (the newest first)."""
    game = game_or_404(game_id)
    last = game_log.last_seq(session(), game.id)
    raw = request.args.get("before", "")
    before = min(int(raw), last + 1) if raw.isdigit() and int(raw) > 0 else last + 1
    entries = game_log.entries_before(session(), game.id, before, LOG_PAGE)
    pages = {"last": last, "newer": before + LOG_PAGE if before <= last else None,
             "older": entries[-1].seq if entries and entries[-1].seq > 1 else None}
    if pages["newer"] is not None and pages["newer"] > last:
        pages["newer"] = 0  # the newest page has no number
    return render_template("games/log.html", game=game, entries=entries, pages=pages,
                           system=system_for(game.system))


def _game_and_entry(game_id: int, seq: int) -> tuple[Game, LogEntry]:
    game = game_or_404(game_id)
    entry = game_log.entry(session(), game.id, seq)
    if entry is None:
        abort(404, f"The log has no entry {seq}.")
    return game, entry


@bp.get("/games/<int:game_id>/log/<int:seq>")
def log_entry(game_id: int, seq: int):
    game, entry = _game_and_entry(game_id, seq)
    return render_game(game, {"kind": "result", "entry": entry}, oob_live=False)


@bp.get("/games/<int:game_id>/log/<int:seq>/detail")
def log_detail(game_id: int, seq: int):
    """An entry's dice, modifiers and notes, fetched when its line in the board's log is opened."""
    game, entry = _game_and_entry(game_id, seq)
    if not wants_fragment():
        return redirect(url_for("games.log_entry", game_id=game.id, seq=seq))
    return render_template("games/_log_detail.html", e=entry, game=game)


@bp.get("/games/<int:game_id>/poll")
def poll(game_id: int):
    """Other tablets ask about every 750 ms; "nothing changed" is an empty 204 from one look at the
    version (the game's state is not read), a change brings what is drawn differently. A tablet
    showing a roll that waits for dice says which (``p``). The plainest 204 is answered before
    Flask (``web/serving/quick_poll.py``); this route answers every other poll."""
    seen = request.args.get("v", "")
    # The version, and a roll waiting for another side's dice, in one look (the quick answer's own).
    found = quick_poll.look(game_id)
    if found is None:
        game_or_404(game_id)  # the page that says there is no such game
    version, pending_id = found
    # The waiting roll's prompt, if this tablet should show it and does not (or shows one now gone).
    extra = (dice_handover.poll_panel(game_id, version, pending_id, request.args.get("p", "")[:40])
             if wants_fragment() else None)
    if wants_fragment():
        quick_poll.vouch(game_id)  # this tablet got past the game's gates: its next polls may be quick
    if seen.isdigit() and int(seen) == version:
        if extra is None:
            return "", 204
        return dice_handover.poll_element(game_id, version) + extra
    if not wants_fragment():
        return redirect(url_for("games.game_page", game_id=game_id))
    # The state is read only if no other tablet's poll has drawn this version yet.
    asked = int(seen) if seen.isdigit() else None
    if extra is None:
        return live_answer(game_id, version, asked, lambda: game_or_404(game_id))
    return render_live(game_id, version, asked, lambda: game_or_404(game_id)) + extra


@bp.get("/games/<int:game_id>/cards")
def cards(game_id: int):
    """The unit cards of the brigades ``b`` (a tablet was sent them folded, without their cards,
    and opens them: web/serving/folds.py), as the game stands now; a brigade it does not have is left out."""
    wanted = folds.named(".".join(request.args.getlist("b")[:folds.MOST]))
    found = quick_poll.look(game_id)
    if found is None:
        game_or_404(game_id)  # the page that says there is no such game
    if not wants_fragment():
        return redirect(url_for("games.game_page", game_id=game_id))
    return brigade_cards(game_id, found[0], wanted, lambda: game_or_404(game_id))


@bp.post("/games/<int:game_id>/undo")
def undo(game_id: int):
    return _step(game_id, service.undo, "Undone")


@bp.post("/games/<int:game_id>/redo")
def redo(game_id: int):
    return _step(game_id, service.redo, "Redone")


def _step(game_id: int, step, word: str):
    game = game_or_404(game_id)
    token = tap_token()
    # The same Undo tapped twice, or again after its answer was lost: one step, its first answer.
    # (This request holds the game's write lock, web/request_lock.py: no other write comes between.)
    first = first_step(session(), game.id, token) if token else None
    if first is not None:
        if not wants_fragment():
            return redirect(url_for("games.game_page", game_id=game.id), 303)
        return render_game(game, {"kind": "result", "entry": first, "word": word}, wrote=True, message=ALREADY_DONE)
    refusals.redraw(lambda e: render_game(game, status=e.status, message=e.message, oob_live=False))
    try:
        entry = step(session(), game.id, _version() or 0, actor=roles.actor_for(game), token=token)
    except service.StaleVersion as e:
        return render_game(game_or_404(game_id), status=409, message=e.message)
    game = game_or_404(game_id)
    if not wants_fragment():
        return redirect(url_for("games.game_page", game_id=game.id), 303)
    return render_game(game, {"kind": "result", "entry": entry, "word": word}, wrote=True)


# --- settings and dice ------------------------------------------------------------------------

def settings_rows(game: Game) -> list[dict]:
    cls = system_for(game.system).settings_cls
    if cls is None:
        return []
    current = cls.from_dict(game.state.get("settings")).to_dict()
    descriptions = getattr(cls, "DESCRIPTIONS", {})
    choices = getattr(cls, "CHOICES", {})
    rows = []
    for f in dataclass_fields(cls):
        value = current[f.name]
        kind = "bool" if isinstance(value, bool) else "int" if isinstance(value, int) else "text"
        rows.append({"name": f.name, "title": setting_title(cls, f.name), "value": value,
                     "kind": "choice" if f.name in choices else kind, "choices": choices.get(f.name, ()),
                     "description": descriptions.get(f.name, "")})
    return rows


@bp.get("/games/<int:game_id>/settings")
def settings_page(game_id: int):
    game = game_or_404(game_id)
    refused = roles.form_refusal(game, "change_setting")
    if refused:
        abort(403, refused)
    return render_template("games/settings.html", game=game, rows=settings_rows(game),
                           message=notices.said())


# --- actions ----------------------------------------------------------------------------------

def _spec(game: Game, action: str):
    try:
        return system_for(game.system).action(action)
    except KeyError as e:
        abort(404, e.args[0])


@bp.get("/games/<int:game_id>/act/<action>")
def action_form(game_id: int, action: str):
    """The form for an action, prefilled from the query (a tapped unit)."""
    game = game_or_404(game_id)
    spec = _spec(game, action)
    refused = roles.form_refusal(game, action)
    if refused:  # a form this seat could never send: said now, not after it is filled in
        return render_game(game, status=403, message=refused, oob_live=False)
    values = forms.shown_values(spec.facts, request.args)
    return render_game(game, action_form_panel(game, action, values), oob_live=False)


@bp.route("/games/<int:game_id>/act/<action>/choices", methods=["GET", "POST"])
def choices(game_id: int, action: str):
    """A long pick list of a folded group, drawn as the group opens (``forms.list_later``): htmx
    asks for one list's chips (``_list``) with the form's facts so far. Without JavaScript the form
    is posted here and drawn again with the group ``_open`` opened and its lists in it."""
    game = game_or_404(game_id)
    spec = _spec(game, action)
    asked = request.form if request.method == "POST" else request.args
    values = forms.shown_values(spec.facts, asked)
    if not wants_fragment():
        panel = action_form_panel(game, action, values, version=_version(), opened=asked.get("_open", "")[:80])
        return render_game(game, panel, oob_live=False)
    wanted = asked.get("_list", "")
    panel = action_form_panel(game, action, values)
    found = next((f for _, fields in panel["groups"] for f in fields if f.name == wanted and f.kind == "ref"), None)
    if found is None:
        abort(404, "That form has no such list to show.")
    return render_template("games/_options.html", f=found, game=game, panel=panel)


@bp.route("/games/<int:game_id>/act/<action>/odds", methods=["GET", "POST"])
def odds(game_id: int, action: str):
    """The odds line for the facts chosen so far (a fragment; the form fetches it on change).

    Nothing changes here, so a GET serves htmx; the no-JavaScript button posts instead, so the
    form's CSRF token never lands in a URL, a history list or a server log."""
    game = game_or_404(game_id)
    spec = _spec(game, action)
    asked = request.form if request.method == "POST" else request.args
    raw = forms.facts_from_form(spec.facts, asked)

    def drawn(lines: list, problem: str = ""):
        if not wants_fragment():
            # Without JavaScript the form asks for its odds itself: draw it again with them.
            panel = action_form_panel(game, action, forms.shown_values(spec.facts, asked))
            panel["odds"] = {"lines": lines, "problem": problem}
            return render_game(game, panel, oob_live=False)
        return render_template("games/_odds.html", lines=lines, problem=problem)
    refusals.redraw(lambda e: drawn([], e.message))  # what stops the odds is said in their place
    return drawn(service.odds(session(), game.id, action, raw))


@bp.post("/games/<int:game_id>/act/<action>")
def perform(game_id: int, action: str):
    game = game_or_404(game_id)
    spec = _spec(game, action)
    values = forms.shown_values(spec.facts, request.form)
    raw = forms.facts_from_form(spec.facts, request.form)
    version = _version()
    typed = None
    if game.state.get("dice_mode", "app") == "typed" and spec.rolls_dice:
        try:
            typed = parse_typed(request.form.get("typed", "")) + parse_typed(request.form.get("more_dice", ""))
        except BadDice as e:
            return _form_again(game, action, values, 422, str(e), version=version)
    if version is None:
        return _form_again(game, action, values, 422, "The form did not say which version of the game it shows: "
                                                      "reload the page.")
    refusals.redraw(lambda e: _refused(game, action, values, e, version))
    try:
        done = service.perform(session(), game.id, version, action, raw, typed_dice=typed,
                               actor=roles.actor_for(game), token=tap_token())
    except service.StaleVersion as e:
        fresh = game_or_404(game_id)
        if not wants_fragment() and (drawn := _own_page_again(fresh, action, e.message, 409)) is not None:
            return drawn
        return render_game(fresh, action_form_panel(fresh, action, values), status=409, message=e.message)
    except handover.HandedOver as e:  # another side rolls the dice now asked for
        return dice_handover.render_pending(game, e)
    except service.NeedDice as e:
        if not wants_fragment() and (drawn := foe.page_of(game, action, e.message, 422)) is not None:
            return drawn
        need = {"prompt": e.needed.prompt, "count": e.needed.count, "sides": e.needed.sides,
                "purpose": e.needed.purpose}
        return render_game(game, action_form_panel(game, action, values, need=need, typed=e.typed),
                           oob_live=False)
    except service.StillOwed as e:  # an expected answer, not a fault: what is undone, a button for each
        panel = {"kind": "owed", "action": action, "label": e.label, "owed": e.owed, "may_leave": e.may_leave}
        return render_game(game, panel, oob_live=False)
    except service.NeedChoice as e:  # asked beside the dice, which are kept
        choice = {"prompt": e.needed.prompt, "field": e.needed.field, "choices": e.needed.choices}
        return render_game(game, action_form_panel(game, action, values, typed=e.typed, choice=choice),
                           oob_live=False)
    return answer_write(done.game, done.entry, ALREADY_DONE if done.replayed else "")


def _refused(game: Game, action: str, values: dict, e: service.TableError, version: int):
    """A refused action: its form drawn again as typed, with the reason (a setting's, the Foe's,
    on its page)."""
    if not wants_fragment() and (drawn := _own_page_again(game, action, e.message, e.status)) is not None:
        return drawn
    return _form_again(game, action, values, e.status, e.message, version=version)


def _own_page_again(game: Game, action: str, message: str, status: int):
    """The refusal of a form that is on a page of its own (a setting's, the Foe's), drawn there;
    None for a form the board holds."""
    if action == "change_setting":
        return _settings_again(game, message, status)
    return foe.page_of(game, action, message, status)


def _settings_again(game: Game, message: str, status: int):
    """The settings page after a refused change: the setting's box holds what was typed, marked,
    with the reason beside it."""
    rows = settings_rows(game)
    name = request.form.get("name", "")
    for row in rows:
        if row["name"] == name and row["kind"] in ("int", "text"):
            row.update(value=request.form.get("value", ""), refused=message)
    return render_template("games/settings.html", game=game, rows=rows, message=message), status


def _form_again(game: Game, action: str, values: dict, status: int, message: str, version=None):
    if action in system_for(game.system).moves_on:  # a step with nothing to correct: said, not asked again
        return render_game(game, None, status=status, message=message, oob_live=False)
    panel = action_form_panel(game, action, values, version=version)
    return render_game(game, panel, status=status, message=message, oob_live=False)
