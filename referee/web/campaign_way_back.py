"""A campaign game's board and its campaign: the way back to the campaign (what the campaign wants
next of this game, or the choice a breakthrough at the other table left it), drawn on the board
and asked for again every second, so what another table or the campaign does reaches the board
without a reload. The campaign's own pages are in :mod:`referee.web.campaigns`."""
from __future__ import annotations

from flask import Blueprint, render_template, request, url_for

from ..campaigns import choice_owed, offers_end, way_back
from ..table import campaign_day as cd
from ..table import campaigns as tc
from .db import game_or_404, session

bp = Blueprint("way_back", __name__, url_prefix="/campaigns")


@bp.app_context_processor
def _way_back():
    """For a game's page: the way back to the campaign that started it, if one did."""
    def campaign_way_back(game) -> dict | None:
        link = tc.campaign_of_game(session(), game.id)
        if link is None:
            return None
        c = tc.get_campaign(session(), link.campaign_id)
        owed = [bt for bt in cd.pending(c.state) if cd.reaches(c.state, bt) == link.step]
        if owed:  # a breakthrough at the other table waits on this one's choice
            return {"href": url_for("campaigns.table_page", campaign_id=c.id, battle=link.step), "campaign": c.name,
                    "label": choice_owed(c.state, owed), "owed": True}
        ended = bool(game.state.get("ended"))
        return {"href": url_for("campaigns.page", campaign_id=c.id) + "#now", "campaign": c.name,
                "label": way_back(c.kind, c.state, link.step, ended),
                "end": url_for("games.action_form", game_id=game.id, action="end_battle")
                if offers_end(c.kind, c.state, link.step, ended) else ""}
    return {"campaign_way_back": campaign_way_back, "campaign_way_tag": lambda game: cd.versions_tag(session(), game.id)}


@bp.get("/way-back/<int:game_id>")
def poll(game_id: int):
    """A campaign game's board asks every second: its way back as the campaign stands now. The
    same versions of the game and its campaign as last time (``seen``): 204, no document read."""
    tag = cd.versions_tag(session(), game_id)
    if request.args.get("seen") == tag:
        return "", 204
    return render_template("games/_way_back.html", game=game_or_404(game_id), way_tag=tag)
