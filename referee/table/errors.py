"""What the table layer tells a tablet when it changes nothing: each error carries its message
in the players' words and the HTTP status the web layer answers with."""
from __future__ import annotations

from ..core.dice import DiceNeeded
from ..core.errors import ChoiceNeeded


class TableError(Exception):
    """Something the umpire must be told; nothing was changed."""

    status = 422

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class NotFound(TableError):
    status = 404


class StaleVersion(TableError):
    """The tap read or would change something another tablet changed since its screen was
    drawn (``what``, in the players' words); nothing was changed."""

    status = 409

    def __init__(self, current: int, what: str = "this game"):
        super().__init__(f"Another tablet changed {what} first: here is the fresh view. "
                         "Check it and tap again.")
        self.current = current


class BadInput(TableError):
    status = 422


class NeedDice(TableError):
    """Typed-in dice ran out: ask the players for more (``needed``) and resolve again."""

    status = 200

    def __init__(self, needed: DiceNeeded, typed: list[int]):
        super().__init__(needed.prompt)
        self.needed = needed
        self.typed = typed


class StillOwed(TableError):
    """A step that leaves the phase (Next phase, End the round) while the rules still ask for
    something in it (``GameRules.owed``): ``owed`` says what, each with the action that does it;
    ``may_leave``: a second, deliberate tap may move on anyway. Nothing was changed."""

    status = 422

    def __init__(self, label: str, owed: list, may_leave: bool):
        what = " ".join(o.text for o in owed)
        then = (f" Do it first, or tap “{label}” again choosing to leave it undone (the log says so)."
                if may_leave else " The rules go on only once it is done.")
        super().__init__(f"Still to do before “{label}”: {what}{then}")
        self.label = label
        self.owed = list(owed)
        self.may_leave = may_leave


class NeedChoice(TableError):
    """A choice arose as the action resolved (``needed``): ask it beside the dice typed so far
    (``typed``, kept) and resolve again; nothing was changed."""

    status = 200

    def __init__(self, needed: ChoiceNeeded, typed: list[int]):
        super().__init__(needed.prompt)
        self.needed = needed
        self.typed = typed
