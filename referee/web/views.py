"""Drawing a game page: the whole page, or for htmx the panel that changed plus the board's
live parts swapped out of band. Each game's contract says what its board shows and how its action
forms pick things from the game (``GameRules.board``, a ``referee.core.board.BoardView``): this module
draws what that answers and names no game."""
from __future__ import annotations

from typing import Callable

from flask import abort, g, redirect, render_template, request, url_for
from htmx_flask import make_response
from jinja2_fragments.flask import render_block

from ..core.board import BoardView
from ..systems import system_for
from ..table import game_log
from ..table.models import Game
from . import forms, roles
from .db import session
from .redirects import safe_next
from .serving.compression import gzipped
from .serving.folds import cards_of, fold_boxes, folded_here, lacking_here
from .serving.kept import box_drawer, card_drawer, kept_for, log_drawer
from .serving.live import drawings, drawn_parts, live_parts, with_version
from .serving.page_forms import sent_as_page

# The parts of a game page that change when the game does; the poll and every write send them.
LIVE_BLOCKS = ("status", "units", "log", "poll")
# The board's log shows the newest entries; the whole log is a page of its own (/log), so a game
# of a thousand entries draws its board as quickly as one of ten.
LOG_PANE = 10
# The board, the same skeleton for every game; each game fills it from its ``board_parts``.
BOARD = "games/game.html"
# The event a write's answer sends: the board's poll (templates/games/_poll.html) asks at once.
BOARD_CHANGED = "board-changed"


# A game without a board view of its own draws the shared skeleton alone.
NO_BOARD = BoardView(read=lambda doc: doc, context=lambda model, kept: {}, card=lambda model, piece: None,
                     choices=lambda model, view, kept: None)


def board_for(system: str) -> BoardView:
    return system_for(system).board or NO_BOARD


def board_model(game: Game):
    """The game's state as its board view reads it, read once per request (a form's pick lists ask
    for it field after field)."""
    found = g.get("board_model")
    if found is None or found[0] is not game.state:
        found = g.board_model = (game.state, board_for(game.system).read(game.state))
    return found[1]


def kept_of(game: Game):
    return lambda kind: kept_for(game.id, kind)


def piece_panel(game: Game, piece: str):
    """A unit's or Rig's own panel: its card, with everything it can do now (404: no such piece)."""
    bv = board_for(game.system)
    found = bv.card(board_model(game), piece)
    if found is None:
        abort(404, bv.missing.format(piece))
    return render_game(game, {"kind": "unit", **found, "offers": system_for(game.system).offers(game.state, piece)},
                       oob_live=False)


def wants_fragment() -> bool:
    """htmx asked for the parts that changed. A history restore (htmx refetching a page it has
    no copy of) wants the whole page, like a browser, and so does a page's own form htmx sent
    (``serving/page_forms.py``: the settings)."""
    return bool(request.htmx) and not request.htmx.history_restore_request and not sent_as_page()


def game_context(game: Game, board: bool = True) -> dict:
    """What the board template draws from; ``board=False`` leaves out the system's own board (its
    units, cards and status), for a fragment that draws only an action form."""
    system = system_for(game.system)
    bv = board_for(game.system)
    menu = [spec for name, spec in system.actions.items() if name not in bv.menu_skips]
    ctx = {"game": game, "state": game.state, "system": system, "menu": menu, "board_parts": bv.parts,
           "dice_mode": game.state.get("dice_mode", "app")}
    if board:
        s = session()
        entries = game_log.log_lines(s, game.id, LOG_PANE)
        redo = game_log.next_redo(s, game.id, entries)
        ctx.update(entries=entries, can_undo=game_log.can_undo(s, game.id, entries, whole=len(entries) < LOG_PANE),
                   can_redo=redo is not None, redo_what=(redo.summary or redo.label) if redo else "",
                   log_line=log_drawer(game, "games/_log_entry.html"),
                   **bv.context(board_model(game), kept_of(game)))
        if bv.card_template:  # each card drawn again only when it changed (web/serving/live.py)
            ctx["unit_card"] = card_drawer(game, bv.card_template)
        if bv.group_template:  # and each group of cards only when the group or one of its cards changed
            ctx["brigade_box"] = box_drawer(game, bv.group_template, unit_card=ctx.get("unit_card"))
    return ctx


def render_game(game: Game, panel: dict | None = None, status: int = 200, message: str = "",
                oob_live: bool = True, push_url: str | None = None, wrote: bool = False,
                context: dict | None = None):
    """The game page with ``panel`` open. For htmx: the panel, and the live parts out of band
    when they are drawn already (else the event ``board-changed``, below); ``push_url`` is the
    address htmx puts in the browser's history for it; ``context``: what the panel draws from
    besides the game (a unit's panel, its battle).

    ``wrote``: the tablet has just changed the game. htmx gets the panel (the result) alone, and
    the event ``board-changed``, on which the board's poll asks at once for what changed: the new
    version is drawn once, for this tablet and every other, by the poll (``render_live``), not
    while the tablet waits for its result."""
    fragment = wants_fragment()
    panel = panel or {"kind": "menu"}
    # A write's result, an action form, a unit's panel, a log entry or the menu is drawn without
    # the board's context (the sides, cards and log a panel does not show): the board's parts go
    # by the poll, or as drawn already (below).
    alone = fragment and (wrote or panel["kind"] in ("form", "menu", "unit", "result", "owed"))
    ctx = game_context(game, board=not alone)
    ctx.update(context or {})
    ctx.update(panel=panel, message=message)
    trigger = None
    if fragment:
        body = render_block(BOARD, "panel", oob=set(), **ctx)
        if wrote:  # "own": the version of this tablet's own write, whose result it shows (static/referee.js)
            trigger = {BOARD_CHANGED: {"version": game.version, "own": True}}
        elif oob_live:
            # The tablet shows the version it posted (a write refused as stale): what changed since,
            # if some tablet has had this version drawn. If none has, the answer does not wait for
            # the drawing: like a write's, it names the event on which the board's poll asks at
            # once, and the version is drawn once, for this tablet and the others. Two umpires
            # tapping together, the one refused wakes as the other's write commits, before the
            # winner's own poll has asked: drawing here made the refusal three times the write.
            # The version the board shows (a form in the panel says so: static/referee.js), else the one posted.
            seen = request.form.get("shown") or request.form.get("version", "")
            known = drawn_parts(game.id, game.version, int(seen) if seen.isdigit() else None,
                                poll_out_of_band=True, lacking=lacking_here())
            if known is None:
                trigger = {BOARD_CHANGED: {"version": game.version}}
            else:
                body += known
    else:
        # The brigades this tablet keeps folded go without their cards (web/serving/folds.py).
        body = fold_boxes(render_template(BOARD, oob=set(), **ctx), folded_here(game.id))
        # This version drawn in pieces too, so this tablet's first poll after a change gets only what changed.
        live_parts(game.id, game.version, None, lambda: _live_blocks(ctx), draw_only=True)
    return make_response(body, status, push_url=push_url, trigger=trigger)


def _live_blocks(ctx: dict) -> dict[str, str]:
    """The live parts drawn whole: status, units and log out of band, the poll not."""
    return {name: render_block(BOARD, name, **{**ctx, "oob": {"status", "units", "log"}}) for name in LIVE_BLOCKS}


def render_live(game_id: int, version: int, seen: int | None, load: Callable[[], Game]):
    """The poll's answer when the game changed: what is drawn differently since the version the
    tablet shows (``seen``), out of band, and the poller itself, the element that asked. The
    game is loaded (``load``) only to draw a version no tablet has been sent yet."""
    return live_parts(game_id, version, seen, _blocks(load), lacking=lacking_here())


def _blocks(load: Callable[[], Game]) -> Callable[[], dict[str, str]]:
    """Draws the live parts of the game ``load`` reads, with the version read."""
    def blocks() -> dict[str, str]:
        game = load()
        ctx = game_context(game)
        ctx.update(panel={"kind": "menu"}, message="")
        return {**_live_blocks(ctx), "version": game.version}
    return blocks


def brigade_cards(game_id: int, version: int, wanted: frozenset[str], load: Callable[[], Game]) -> str:
    """The unit cards of the brigades ``wanted`` as the drawing of ``version`` has them (drawn now
    if no tablet has asked for it yet), each for its brigade's cards container (web/serving/folds.py)."""
    drawing = drawings().draw(game_id, version, _blocks(load))
    return with_version(cards_of(drawing.units, wanted), drawing.version)


def live_answer(game_id: int, version: int, seen: int | None, load: Callable[[], Game]):
    """``render_live``'s answer to a poll. A tablet taking gzip is sent the answer gzipped once
    and kept with its drawing, the very bytes ``web/serving/quick_poll.py`` hands the next tablets."""
    body = render_live(game_id, version, seen, load)
    if seen is not None and request.accept_encodings["gzip"] > 0:
        known = drawings().known_answer(game_id, version, seen, gzipped=True, lacking=lacking_here())
        if known is not None and known[1]:
            return gzipped(known[0])
    return body


def action_form_panel(game: Game, action: str, values: dict, need: dict | None = None,
                      typed: list[int] | None = None, version: int | None = None, opened: str = "",
                      choice: dict | None = None) -> dict:
    """An action's form, drawn with ``values``; its long pick lists in folded groups are fetched
    when their group is opened (``forms.list_later``), but those of the group ``opened``."""
    spec = system_for(game.system).action(action)
    bv = board_for(game.system)
    fields = forms.draw(spec.facts, values, lambda view: bv.choices(board_model(game), view, kept_of(game)),
                        seat=roles.seat_side(game))
    rank_likely(game, action, values, fields)
    grouped = forms.groups(fields)
    return {
        "kind": "form", "action": action, "spec": spec, "groups": grouped,
        "folded": forms.list_later(grouped, opened),
        "choices_url": url_for("games.choices", game_id=game.id, action=action),
        "drawn": ",".join(f.name for f in fields), "need": need, "typed": typed or [], "choice": choice,
        "version": game.version if version is None else version,
        "typed_mode": game.state.get("dice_mode", "app") == "typed" and spec.rolls_dice,
        "odds_url": url_for("games.odds", game_id=game.id, action=action) if spec.odds else "",
    }


def rank_likely(game: Game, action: str, values: dict, fields: list[forms.FieldView]) -> None:
    """Each long pick list's likely picks, as the rules read them from the game and its recent
    actions (``GameRules.likely``); the log is read only for a form that has such a list."""
    rules = system_for(game.system)
    recent = None
    for f in fields:
        if f.kind != "ref" or len(f.choices) <= forms.FOLD_ABOVE:
            continue
        if recent is None:
            recent = game_log.recent_actions(session(), game.id, rules.likely_reads)
        f.likely = rules.likely(game.state, action, f.name, values, recent)


def answer_write(game: Game, entry, message: str = ""):
    """After a write: htmx gets the result and the fresh board; a plain form is redirected."""
    target = safe_next(request.form.get("next"), url_for("games.game_page", game_id=game.id, entry=entry.seq))
    if not wants_fragment():
        return redirect(target, 303)
    panel = {"kind": "result", "entry": entry}
    return render_game(game, panel, message=message, wrote=True,
                       push_url=url_for("games.game_page", game_id=game.id, entry=entry.seq))
