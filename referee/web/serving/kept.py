"""What the board drew last for each game being played, reused while what it was drawn from is
unchanged: each unit card, each brigade's box, each log line (``kept_drawer``), and what the
board's views built (``kept_for``: cards, brigade views, chips). A new version of a 300-unit board
draws again only the cards that changed; ``live.py`` then draws the version from these pieces and
compares it with the last.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Callable

from flask import current_app
from markupsafe import Markup

from ...table import playing
from .live import GAMES, one_byte

# Log entries kept drawn per game (the board shows the newest ten).
KEEP_LOG = 50


class Kept:
    """What the board built or drew last for each game being played (the last ``GAMES`` at least), by kind (unit cards,
    brigade views, chips, and the HTML of each template drawn through ``kept_drawer``), each a dict
    by unit, brigade or entry. What is kept is checked against what it was built or drawn from
    before it is used again."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.games: OrderedDict[int, dict[str, dict]] = OrderedDict()

    def of(self, game_id: int, kind: str) -> dict:
        playing.saw(game_id)
        with self.lock:
            kept = self.games.setdefault(game_id, {})
            self.games.move_to_end(game_id)
            while len(self.games) > playing.room_for(1, GAMES):
                self.games.popitem(last=False)
            return kept.setdefault(kind, {})


def kept_for(game_id: int, kind: str) -> dict:
    """This game's store of ``kind`` in this server process (empty at first, and after a restart)."""
    app = current_app._get_current_object()
    kept = app.extensions.get("referee.kept") or app.extensions.setdefault("referee.kept", Kept())
    return kept.of(game_id, kind)


def kept_drawer(game, template: str, names: tuple[str, ...], slot: Callable, basis: Callable,
                most: int | None = None, **context) -> Callable[..., Markup]:
    """Draws ``template`` (its variables ``names``, in the order the drawer is called with) and
    keeps the HTML in this game's store by ``slot(*args)``. The next call with the same slot gets
    the kept HTML back while ``basis(*args)`` is the very object it was drawn from, or equal to it;
    otherwise the HTML is drawn again. ``most``: keep that many, the latest drawn."""
    kept = kept_for(game.id, template)
    page = current_app.jinja_env.get_template(template)

    def draw(*args) -> Markup:
        key, was = slot(*args), basis(*args)
        found = kept.get(key)
        if found is not None and (found[0] is was or found[0] == was):
            return found[1]
        html = Markup(one_byte(page.render(game=game, **context, **dict(zip(names, args)))))
        kept.pop(key, None)
        kept[key] = (was, html)
        while most is not None and len(kept) > most:
            del kept[next(iter(kept))]
        return html
    return draw


def card_drawer(game, template: str) -> Callable[[object], Markup]:
    """A game's unit cards (variable ``c``), each drawn again only when its card is another."""
    return kept_drawer(game, template, ("c",), slot=lambda c: c.unit.id, basis=lambda c: c)


def box_drawer(game, template: str, **context) -> Callable[[object, object], Markup]:
    """A brigade's box (variables ``b`` and ``side``), drawn again only when the brigade view is
    another (``blackpowder/board_view.sides`` keeps a brigade's view while it and its cards are unchanged)."""
    return kept_drawer(game, template, ("b", "side"), slot=lambda b, side: b.id,
                       basis=lambda b, side: (b, side.id), **context)


def log_drawer(game, template: str) -> Callable[[object], Markup]:
    """A log entry (variable ``e``), drawn once: an entry never changes but for being undone or
    discarded, which is part of what it is kept by."""
    return kept_drawer(game, template, ("e",), slot=lambda e: e.seq,
                       basis=lambda e: (e.id, e.seq, e.created, e.undone, e.discarded), most=KEEP_LOG)
