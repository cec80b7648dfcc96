"""Helpers the web tests share (imported by name: the test folders are not packages)."""
from __future__ import annotations

import html
import re

from referee.table import game_log, service
from referee.table.db import session as db_session

HTMX = {"HX-Request": "true"}


def text(response) -> str:
    """The page's text without tags, for asserting what a person reads."""
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.get_data(as_text=True))))


class Table:
    """Reads the game straight from the database, as a second tablet would."""

    def __init__(self, app, game_id):
        self.app, self.id = app, game_id

    def game(self):
        with db_session(self.app.extensions["referee.engine"]) as s:
            return service.get_game(s, self.id)

    @property
    def state(self) -> dict:
        return self.game().state

    @property
    def version(self) -> int:
        return self.game().version

    def log(self):
        with db_session(self.app.extensions["referee.engine"]) as s:
            return game_log.log(s, self.id)

    def unit(self, unit_id: str) -> dict:
        return self.state["units"][unit_id]
