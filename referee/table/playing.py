"""How many games this server process is serving now: those a tablet asked about in the last
``WINDOW`` seconds (a board's poll asks every second or so while a game is on a table).

What a process keeps per game (the decoded state documents, ``table/state_column.py`` and
``table/state_slots.py``; the board's drawings and the cards built for it, ``web/serving/live.py``) is
sized from this count rather than fixed: a club night of a dozen tables keeps all twelve, where a
fixed eight let the ninth game's every poll push another game's drawing out, and that game's next
poll draw it again. Each store keeps at least its old fixed size, so a quiet server behaves as
before, and a game no one has asked about for ``WINDOW`` seconds stops counting (what it kept goes
as other games need the room).
"""
from __future__ import annotations

import threading
import time

WINDOW = 600.0


class Playing:
    def __init__(self, window: float = WINDOW) -> None:
        self.window = window
        self.lock = threading.Lock()
        self.seen: dict[int, float] = {}
        self._counted = (0.0, 0)  # (when, how many): counted at most once a second

    def saw(self, game_id: int) -> None:
        """A tablet asked about this game now."""
        self.seen[game_id] = time.monotonic()  # one store: no lock needed under the GIL

    def count(self) -> int:
        now = time.monotonic()
        when, n = self._counted
        if now - when < 1.0:
            return n
        with self.lock:
            for game_id, last in list(self.seen.items()):
                if now - last > self.window:
                    self.seen.pop(game_id, None)
            n = len(self.seen)
            self._counted = (now, n)
        return n


PLAYING = Playing()


def saw(game_id: int) -> None:
    PLAYING.saw(game_id)


def games() -> int:
    """The games being played in this process now."""
    return PLAYING.count()


def room_for(per_game: int, least: int) -> int:
    """How many things a store keeps when it keeps ``per_game`` for each game being played (and
    one game more, for the one being started), never fewer than ``least``."""
    return max(least, per_game * (games() + 1))
