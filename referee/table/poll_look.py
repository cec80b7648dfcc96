"""The board's poll's one look at the database: the game's version and a roll waiting for
another side's dice, read through the database driver itself. The quick answer in front of Flask
(``web/serving/quick_poll.py``) and the poll route both ask it; the SQL lives here, with the rest
of the database layer."""
from __future__ import annotations

from sqlalchemy import bindparam
from sqlalchemy.engine import Engine
from sqlmodel import select

from . import handover
from .models import Game, SignIn

# The game's version and a roll waiting for another side's dice, in one look (built once; the poll
# route asks the same, through ``look``).
POLL_LOOK = (select(Game.version, handover.PendingRoll.id)
             .outerjoin(handover.PendingRoll, handover.PendingRoll.game_id == Game.id)
             .where(Game.id == bindparam("game_id")))
# The same, for a tablet signed in: and whether its sign-in still stands (signing out ends every
# answer at once, in every server process).
POLL_LOOK_SIGNED = (select(Game.version, handover.PendingRoll.id, SignIn.id)
                    .outerjoin(handover.PendingRoll, handover.PendingRoll.game_id == Game.id)
                    .outerjoin(SignIn, SignIn.token == bindparam("token"))
                    .where(Game.id == bindparam("game_id")))


class Look:
    """``POLL_LOOK`` through the database driver itself: its SQL written once for the engine's
    dialect, run on a connection from the engine's pool (with the pool's own settings, such as
    SQLite's pragmas). Through SQLAlchemy's statement machinery the look took some 100 µs of
    processor, through the driver 36; thirty tablets ask some forty times a second."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.plain = self._compiled(POLL_LOOK)
        self.signed = self._compiled(POLL_LOOK_SIGNED)

    def _compiled(self, statement) -> tuple[str, tuple[str, ...] | None]:
        compiled = statement.compile(dialect=self.engine.dialect)
        return str(compiled), (tuple(compiled.positiontup or ()) if compiled.positional else None)

    def __call__(self, game_id: int, sign_in: str = "") -> tuple | None:
        """(version, waiting roll's id or None) of the game, or None when there is no such game.
        With ``sign_in`` (a signed-in tablet's token): and the sign-in's id, None once it ended."""
        sql, order = self.signed if sign_in else self.plain
        values = {"game_id": game_id, "token": sign_in}
        conn = self.engine.raw_connection()
        try:
            cur = conn.cursor()
            try:
                cur.execute(sql, tuple(values[n] for n in order) if order is not None else values)
                return cur.fetchone()
            finally:
                cur.close()
        finally:
            conn.close()  # back to the pool, its transaction ended
