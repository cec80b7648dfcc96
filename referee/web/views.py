"""Drawing a game page: the whole page, or for htmx the panel that changed plus the board's
live parts swapped out of band. Each game system names its parts of the board and how its action
forms pick things from the game (``SystemView``)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from flask import render_template, request, url_for
from htmx_flask import make_response
from jinja2_fragments.flask import render_blocks

from ..systems import system_for
from ..table import service
from ..table.models import Game
from . import forms
from .db import session

# The parts of a game page that change when the game does; the poll and every write send them.
LIVE_BLOCKS = ("status", "units", "log", "poll")
# The board, the same skeleton for every game; each game fills it from its ``board_parts``.
BOARD = "games/game.html"


@dataclass
class SystemView:
    # The template holding this game's parts of the board: macros status() and units().
    board_parts: str = "games/_board_parts.html"
    context: Callable[[Game], dict] = lambda game: {}
    choices_for: Callable[[Game, forms.FieldView], list[forms.Choice] | None] = lambda game, view: None
    settings_cls: Any = None
    # Actions drawn as their own buttons elsewhere on the board, left out of the action menu.
    menu_skips: tuple[str, ...] = ("dice_mode", "change_setting")


VIEWS: dict[str, SystemView] = {}


def view_for(system: str) -> SystemView:
    return VIEWS.get(system) or SystemView()


def wants_fragment() -> bool:
    """htmx asked for the parts that changed. A history restore (htmx refetching a page it has
    no copy of) wants the whole page, like a browser."""
    return bool(request.htmx) and not request.htmx.history_restore_request


def game_context(game: Game) -> dict:
    s = session()
    entries = service.log(s, game.id, limit=60)
    system = system_for(game.system)
    sv = view_for(game.system)
    menu = [spec for name, spec in system.actions.items() if name not in sv.menu_skips]
    return {
        "game": game, "state": game.state, "system": system, "entries": entries,
        "can_undo": any(not e.undone and not e.discarded for e in entries),
        "can_redo": service.can_redo(s, game.id),
        "dice_mode": game.state.get("dice_mode", "app"), "menu": menu, "board_parts": sv.board_parts,
        **sv.context(game),
    }


def render_game(game: Game, panel: dict | None = None, status: int = 200, message: str = "",
                oob_live: bool = True, push_url: str | None = None):
    """The game page with ``panel`` open. For htmx: the panel, and the live parts out of band;
    ``push_url`` is the address htmx puts in the browser's history for it."""
    ctx = game_context(game)
    ctx.update(panel=panel or {"kind": "menu"}, message=message)
    if wants_fragment():
        blocks = ["panel"] + (list(LIVE_BLOCKS) if oob_live else [])
        body = render_blocks(BOARD, blocks, oob=set(LIVE_BLOCKS) if oob_live else set(), **ctx)
    else:
        body = render_template(BOARD, oob=set(), **ctx)
    return make_response(body, status, push_url=push_url)


def render_live(game: Game):
    """The poll's answer when the game changed: only the live parts, every one out of band but
    the poller itself, which is the element that asked."""
    ctx = game_context(game)
    ctx.update(panel={"kind": "menu"}, message="")
    return render_blocks(BOARD, list(LIVE_BLOCKS), oob={"status", "units", "log"}, **ctx)


def action_form_panel(game: Game, action: str, values: dict, need: dict | None = None,
                      typed: list[int] | None = None, version: int | None = None) -> dict:
    spec = system_for(game.system).action(action)
    sv = view_for(game.system)
    fields = forms.draw(spec.facts, values, lambda view: sv.choices_for(game, view))
    return {
        "kind": "form", "action": action, "spec": spec, "groups": forms.groups(fields),
        "drawn": ",".join(f.name for f in fields), "need": need, "typed": typed or [],
        "version": game.version if version is None else version,
        "typed_mode": game.state.get("dice_mode", "app") == "typed" and spec.rolls_dice,
        "odds_url": url_for("games.odds", game_id=game.id, action=action) if spec.odds else "",
    }

