"""Roles at a game's table: who may act for which side, read from the game's own contract.

Whoever starts a game is its umpire. Each side's player joins with that side's code, spectators
with theirs. The umpire may do anything. A side's player may take an action only when every
unit or Rig it names as the one acting belongs to their side: the acting pieces are the first
required fact whose field says ``{"ref": "unit"}`` or ``{"ref": "rig"}`` (the shooter, the
chargers, the Rig), or, when the action names a side or player outright, that one. Actions that
name neither (the next phase, the end of a round, a settings change, the dice mode, ending the
battle) and corrections (``adjust_…``) are the umpire's. An action may say who takes it outright
(``ActionSpec.acts_for``): the Foe's settings are the umpire's; Referee's own turn (its decisions
and their overruling) is the umpire's, or, in a lone-player game, the player's who plays against
the side Referee plays, never a player's seated on that side. Undo and redo of an entry are for
the umpire, or for the side that made it. Spectators only watch.

Nothing here knows about Flask; the table service calls :func:`check_action` and
:func:`check_step` on its one write path, and the web layer keeps the seats.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from sqlmodel import Session, select

from ..core.foe import FoeSettings
from ..systems import system_for
from .errors import NotFound, TableError
from .models import Game, JoinCode, LogEntry, Seat

UMPIRE = "umpire"
SPECTATOR = "spectator"
# Join codes are read off the umpire's tablet and typed on another: no 0/O or 1/I/L.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8


class NotAllowed(TableError):
    """The tablet's role does not allow this; nothing was changed."""

    status = 403


@dataclass(frozen=True)
class Actor:
    """Who is acting: ``role`` is "umpire", "spectator" or a side's key ("blue", "p1"). The table
    service asks it before any change (``service.perform(..., actor=)``, ``undo``, ``redo``)."""

    role: str

    def check_action(self, game: Game, action: str, facts: Any) -> None:
        check_action(game, action, facts, self)

    def check_step(self, game: Game, entry: LogEntry, word: str) -> None:
        check_step(game, entry, self, word)


def sides(state: dict) -> dict[str, str]:
    """The game's sides, key to name: Black Powder's ``sides`` or Of Oil and Iron's ``players``."""
    found = state.get("sides") or state.get("players") or {}
    return {key: str((value or {}).get("name") or key) for key, value in found.items()}


def role_name(state: dict, role: str) -> str:
    if role == UMPIRE:
        return "the umpire"
    if role == SPECTATOR:
        return "a spectator"
    return sides(state).get(role, role)


def _side_of(state: dict, kind: str, piece: str) -> str | None:
    pieces = state.get(f"{kind}s") or {}
    found = pieces.get(piece) if isinstance(pieces, dict) else next(
        (p for p in pieces if isinstance(p, dict) and p.get("id") == piece), None)
    if not isinstance(found, dict):
        return None
    return found.get("side") or found.get("player")


def acting(system: str, action: str, facts: Any, state: dict) -> tuple[str, set[str | None]] | None:
    """What the action says is acting: ("pieces", their sides) or ("side", {side}); None when it
    names no acting piece or side (a table-wide step)."""
    spec = system_for(system).action(action)
    sides_known = set(sides(state))
    for name, field in spec.facts.model_fields.items():
        extra = field.json_schema_extra if isinstance(field.json_schema_extra, dict) else {}
        if extra.get("ref") in ("unit", "rig") and field.is_required():
            value = getattr(facts, name, None)
            ids = value if isinstance(value, (list, tuple)) else [value]
            return "pieces", {_side_of(state, extra["ref"], str(i)) for i in ids if i}
    for name in spec.facts.model_fields:
        value = getattr(facts, name, None)
        if isinstance(value, str) and value in sides_known:
            if name in ("side", "player"):
                return "side", {value}
    return None


def names_its_actor(spec) -> bool:
    """Whether the action's facts can name who acts (an acting unit or Rig, a side or a player):
    one that cannot is a table-wide step, the umpire's alone."""
    for name, field in spec.facts.model_fields.items():
        extra = field.json_schema_extra if isinstance(field.json_schema_extra, dict) else {}
        if (extra.get("ref") in ("unit", "rig") and field.is_required()) or name in ("side", "player"):
            return True
    return False


def never_allowed(game: Game, action: str, actor: Actor | None) -> str | None:
    """Why the actor's seat may never take this action, whatever its form holds, or None. Asked
    when the form is asked for (``check_form``), so a player never fills in a form only to be
    refused, and again on every write (``check_action``)."""
    if actor is None or actor.role == UMPIRE:
        return None
    spec = system_for(game.system).action(action)
    label = spec.label
    if not actor.role:
        return "This tablet has not joined this game: ask the umpire for your side's code."
    if actor.role not in sides(game.state):
        return (f"Spectators watch: only the umpire and the players can {label.lower()}. "
                "Ask the umpire for a player's code to join a side.")
    if action.startswith("adjust_"):
        return "Only the umpire makes corrections: ask the umpire to put it right on their tablet."
    if spec.acts_for == "umpire":
        return f"Only the umpire can use “{label}”: ask the umpire."
    if spec.acts_for == "foe":
        foe = FoeSettings.of(game.state).side
        if foe and foe != actor.role:
            return None  # a lone player: Referee plays the other side, and this tablet carries out its turn
        return (f"Referee's turn is the umpire's at this table (“{label}”): " +
                ("this tablet plays the side Referee plays." if foe else "Referee plays no side here."))
    if not names_its_actor(spec):
        return f"Only the umpire can use “{label}”, for both sides at once: ask the umpire."
    return None


def check_form(game: Game, action: str, actor: Actor | None) -> None:
    """Refuse (``NotAllowed``) the form of an action the actor's seat may never take."""
    why = never_allowed(game, action, actor)
    if why:
        raise NotAllowed(why)


def check_action(game: Game, action: str, facts: Any, actor: Actor | None) -> None:
    """Refuse (``NotAllowed``) an action the actor's role does not allow. ``actor`` None is the
    one trusted tablet of a "this laptop only" table (and the tests and replays): anything goes."""
    check_form(game, action, actor)
    if actor is None or actor.role == UMPIRE or system_for(game.system).action(action).acts_for == "foe":
        return
    label = system_for(game.system).action(action).label
    what = acting(game.system, action, facts, game.state)
    if what is None:
        raise NotAllowed(f"Only the umpire can use “{label}”, for both sides at once: ask the umpire.")
    kind, owners = what
    # A piece the game does not have is left to the engine, which names it in its refusal.
    if owners - {None} <= {actor.role}:
        return
    mine = role_name(game.state, actor.role)
    if kind == "side":
        raise NotAllowed(f"This tablet plays {mine}: it can act only for its own side. "
                         "The other side's player or the umpire can do this.")
    pieces = system_for(game.system).pieces
    raise NotAllowed(f"This tablet plays {mine}: it can act only for its own side's {pieces}, and this is "
                     "the other side's. Their player or the umpire can do this.")


def check_step(game: Game, entry: LogEntry, actor: Actor | None, word: str) -> None:
    """Undo or redo (``word``): the umpire's, or the side's that made the entry."""
    if actor is None or actor.role == UMPIRE:
        return
    if actor.role in sides(game.state) and entry.actor == actor.role:
        return
    if actor.role not in sides(game.state):
        raise NotAllowed(f"Spectators watch: only the umpire and the players can {word}.")
    who = role_name(game.state, entry.actor) if entry.actor else "the table"
    raise NotAllowed(f"The last action (“{entry.label or entry.action}”) was {who}'s: "
                     f"only the umpire can {word} it.")


# --- seats and join codes ------------------------------------------------------------------------

def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(text: str) -> str:
    return "".join(ch for ch in (text or "").upper() if ch.isascii() and ch.isalnum())[:32]


def roles_of(game: Game) -> list[str]:
    """Every role of the game: the umpire, each side, and the spectators."""
    return [UMPIRE, *sides(game.state), SPECTATOR]


def _fresh_code(session: Session) -> str:
    while True:
        code = new_code()
        if session.exec(select(JoinCode.id).where(JoinCode.code == code)).first() is None:
            return code


def codes_of(session: Session, game: Game) -> dict[str, str]:
    """The join codes the game has, by role (read only: a page that shows them writes nothing)."""
    return {r.role: r.code for r in session.exec(select(JoinCode).where(JoinCode.game_id == game.id)).all()}


def join_codes(session: Session, game: Game, commit: bool = True) -> dict[str, str]:
    """The join code of each role, made for the roles that have none yet (when the game gets its
    umpire, or on the umpire's asking). ``commit=False`` leaves them to the caller's transaction."""
    rows = {r.role: r for r in session.exec(select(JoinCode).where(JoinCode.game_id == game.id)).all()}
    made = False
    for role in roles_of(game):
        if role not in rows:
            rows[role] = JoinCode(game_id=game.id, role=role, code=_fresh_code(session))
            session.add(rows[role])
            made = True
    if made and commit:
        session.commit()
    return {role: rows[role].code for role in roles_of(game)}


def usable(seat: Seat | None, account_id: int | None) -> bool:
    """A seat taken while signed in belongs to that account: the tablet's token alone (a copied
    cookie, or the same tablet signed out) does not open it."""
    return seat is not None and (seat.account_id is None or seat.account_id == account_id)


def seat_of(session: Session, game_id: int, tablet: str | None, account_id: int | None = None) -> Seat | None:
    """The seat this tablet (or, failing that, this account) holds at the game."""
    if tablet:
        seat = session.exec(select(Seat).where(Seat.game_id == game_id, Seat.tablet == tablet)).first()
        if usable(seat, account_id):
            return seat
    if account_id is not None:
        return session.exec(select(Seat).where(Seat.game_id == game_id, Seat.account_id == account_id)
                            .order_by(Seat.id.desc())).first()
    return None


def move_seats(session: Session, old: str, new: str, account_id: int | None = None, commit: bool = True) -> None:
    """The tablet's session identity is renewed (signing in, taking a seat): the seats its old
    token held move to the new one, and to the account signing in, so the old token opens nothing.
    ``commit=False``: in the caller's transaction (the seat taken with it)."""
    for seat in session.exec(select(Seat).where(Seat.tablet == old)).all():
        if usable(seat, account_id):
            seat.tablet = new
            if account_id is not None:
                seat.account_id = account_id
            session.add(seat)
    if commit:
        session.commit()


def take_seat(session: Session, game: Game, role: str, tablet: str, account_id: int | None = None,
              commit: bool = True) -> Seat:
    """Seat the tablet in ``role`` (replacing the role it held). Taking the umpire's seat hands
    the umpire role over: the previous umpire's tablets become spectators and the umpire's code
    is renewed, so the code that was used cannot be used again. ``commit=False`` leaves the seat
    to the caller's transaction (a game started: the game, its umpire and its codes land together)."""
    if role not in roles_of(game):
        raise NotFound("That role is not part of this game.")
    if role == UMPIRE:
        for other in session.exec(select(Seat).where(Seat.game_id == game.id, Seat.role == UMPIRE)).all():
            if other.tablet != tablet:
                other.role = SPECTATOR
                session.add(other)
        code = session.exec(select(JoinCode).where(JoinCode.game_id == game.id, JoinCode.role == UMPIRE)).first()
        if code is not None:
            code.code = _fresh_code(session)
            session.add(code)
    seat = session.exec(select(Seat).where(Seat.game_id == game.id, Seat.tablet == tablet)).first()
    if seat is None:
        seat = Seat(game_id=game.id, role=role, tablet=tablet, account_id=account_id)
    seat.role = role
    seat.account_id = account_id  # the seat belongs to whoever took it, signed in or not
    session.add(seat)
    if commit:
        session.commit()
        session.refresh(seat)
    else:
        session.flush()
    return seat


def by_code(session: Session, text: str) -> JoinCode:
    code = normalise_code(text)
    row = session.exec(select(JoinCode).where(JoinCode.code == code)).first() if code else None
    if row is None:
        raise NotFound("No game has that join code. Check the letters on the umpire's tablet and try again.")
    return row


def umpire_seats(session: Session, game_id: int) -> list[Seat]:
    return list(session.exec(select(Seat).where(Seat.game_id == game_id, Seat.role == UMPIRE)).all())


def has_umpire(session: Session, game_id: int) -> bool:
    return session.exec(select(Seat.id).where(Seat.game_id == game_id, Seat.role == UMPIRE)).first() is not None


def games_seated(session: Session, tablet: str | None, account_id: int | None) -> dict[int, str]:
    """The games this tablet or account holds a seat at, with the role."""
    q = select(Seat)
    if tablet and account_id is not None:
        q = q.where((Seat.tablet == tablet) | (Seat.account_id == account_id))
    elif tablet:
        q = q.where(Seat.tablet == tablet)
    elif account_id is not None:
        q = q.where(Seat.account_id == account_id)
    else:
        return {}
    return {s.game_id: s.role for s in session.exec(q).all() if usable(s, account_id)}
