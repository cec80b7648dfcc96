"""What a game's board view hands the web layer: the words and facts a page shows, worked out by
pure code beside each engine (``blackpowder/board_view.py``, ``oilandiron/board_view.py``) and
registered with the game's contract (``GameRules.board``). The web layer draws what these answer
and knows no rule and no game.

- :class:`BoardView`: how one game's board is read from its state document: the model it reads
  once per request (``read``), the board's parts (``context``), a piece's card (``card``), what a
  form's field may pick (``choices``), the templates that draw them, and the actions drawn as
  their own buttons rather than in the action menu, and the after-action report's forces and result.
- :class:`Choice` and :class:`FieldView`: one thing a form's field may pick, and the field itself.
- :func:`folded`: a name as the board's search compares it.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Literal

# Above this many pieces a tablet that has not chosen shows the compact rows.
COMPACT_ABOVE = 60

# What the web layer keeps between versions, by kind ("cards", "brigades", "choices"): a board
# view reuses what it built from the very same document (``docs/architecture.md``).
Kept = Callable[[str], dict]


@dataclass(frozen=True)
class Choice:
    value: str
    label: str
    detail: str = ""  # a second line on a chip: the unit's state
    group: str = ""  # e.g. the side, to split a long list of chips
    tone: str = ""  # css hint: blue, red, shaken, disordered
    fold: str = ""  # within the group, e.g. the unit's brigade: a long list folds to these


@dataclass
class FieldView:
    name: str
    title: str
    kind: Literal["ref", "choice", "bool", "int", "text"]
    required: bool
    default: Any = None
    help: str = ""
    group: str = ""
    ask: bool = False  # a question the players must answer every time: its group is never folded
    multiple: bool = False
    ref: str = ""
    of: str = ""  # the field naming whose weapon/equipment this picks (e.g. "rig")
    of_value: str = ""  # what that field holds now, so the choices can be that Rig's
    # The side this tablet plays (a seated player's), so a list of who acts offers that side's
    # pieces and a target list its enemies first; "" for the umpire (the side to play then).
    seat: str = ""
    side: str = "any"
    ge: int | None = None
    le: int | None = None
    max_length: int | None = None
    choices: list[Choice] = field(default_factory=list)
    # What the form shows now: a string, or a list of strings for a multiple field.
    value: Any = None
    # Its chips drawn only when its folded group is opened (``list_later``).
    later: bool = False
    # The picks the rules hold likely, likeliest first (``GameRules.likely``): shown first, the rest
    # folded. None: a list the rules do not rank.
    likely: list[str] | None = None

    @property
    def at_default(self) -> bool:
        if self.multiple:
            return list(self.value or []) == [str(v) for v in (self.default or [])]
        if self.kind == "bool":
            return bool(self.value) == bool(self.default)
        return str(self.value or "") == ("" if self.default is None else str(self.default))

    def chosen(self) -> set:
        """The values picked now (a pick list's chips are checked by it)."""
        return set(self.value or ()) if self.multiple else {self.value}


@lru_cache(maxsize=4096)
def folded(name: str) -> str:
    """A name as the search compares it: lower case, accents dropped ("Léger" is found by "leger");
    board.js folds what is typed the same way."""
    plain = "".join(ch for ch in unicodedata.normalize("NFKD", name) if not unicodedata.combining(ch))
    return plain.casefold()


def flag(value: bool) -> str:
    """A yes/no fact as a ``data-`` attribute holds it."""
    return "1" if value else ""


@dataclass(frozen=True)
class BoardView:
    """One game's board, read from its state document (pure: no Flask, no database)."""

    # The model the board reads from the document, read once per request and handed to the rest.
    read: Callable[[dict], Any]
    # The board's parts for the template: (model, kept) -> names the template draws.
    context: Callable[[Any, Kept], dict]
    # One piece's card (a unit, a Rig), drawn in its panel: (model, piece id) -> card or None.
    card: Callable[[Any, str], Any]
    # What a form's field may pick: (model, field, kept) -> choices, or None for its own choices.
    choices: Callable[[Any, FieldView, Kept], list[Choice] | None]
    # The template holding this game's parts of the board: macros status() and units().
    parts: str = "games/_board_parts.html"
    # Templates for a card and for a group of cards drawn again only when they change (or "").
    card_template: str = ""
    group_template: str = ""
    # The after-action report's forces and result, read from a finished (or stopped) game's document.
    report: Callable[[dict], dict] = lambda doc: {}
    # A battle's story over time (strength by turn, dice against the odds), for the pictures:
    # (the first state, the log's entries in force as dicts of changes, facts and dice) -> story.
    story: Callable[[dict, list[dict]], Any] | None = None
    # What a panel asked for a piece the game does not have says ({} is the piece asked for).
    missing: str = "There is no “{}” in this game."
    # Actions drawn as their own buttons elsewhere on the board, left out of the action menu.
    menu_skips: tuple[str, ...] = ("dice_mode", "change_setting")
    # What the game waits for, in the board's own words, when the Foe has nothing to do (an
    # engagement may wait in Maintenance on the player's Heat Threshold rolls): doc -> line or "".
    waiting: Callable[[dict], str] = lambda doc: ""
