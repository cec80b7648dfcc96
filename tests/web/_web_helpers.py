"""Helpers the web tests share (imported by name: the test folders are not packages)."""
from __future__ import annotations

import html
import re

from referee.data.starts import EXAMPLE_SQUADRONS, build_engagement
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


def start_form(engagement: str = "iron_clash", **over) -> dict:
    """The Of Oil and Iron start form as a person would post it with the example squadrons chosen."""
    data = {"name": "", "engagement": engagement, "aggressor": "p1", "p1-name": "Anna", "p2-name": "Ben"}
    for side, rigs in EXAMPLE_SQUADRONS.items():
        data[f"{side}-n"] = str(len(rigs))
        for i, r in enumerate(rigs):
            key = f"{side}-r{i}"
            data.update({f"{key}-name": r["name"], f"{key}-chassis": r["chassis"], f"{key}-engine": r["engine"]})
            for s, w in enumerate(r["weapons"]):
                data[f"{key}-w{s}"] = w
            data[f"{key}-equipment"] = list(r["equipment"])
    data.update(over)
    return data


def typed_iron_clash(db, app) -> "Table":
    """An Iron Clash between the example squadrons, players typing their own dice."""
    doc = build_engagement(start_form(), {side: len(rigs) for side, rigs in EXAMPLE_SQUADRONS.items()})
    doc["dice_mode"] = "typed"
    game = service.create_game(db, doc["name"], "oilandiron", doc, seed=3)
    return Table(app, game.id)
