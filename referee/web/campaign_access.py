"""Who may read and change a campaign on a club server (on a "this laptop only" table, the one
table may do anything).

A campaign is read by its owner (the account that made it, its umpire), its players (the names
its players were entered under, as accounts), the tablets seated as umpire or a side at one of its
games, and the club's first account; it is changed by its owner and the first account. The owner
is always the signed-in account that made it, never a name a form sends.
"""
from __future__ import annotations

from flask import abort, request
from flask import session as cookie
from flask_login import current_user

from ..campaigns import plan_links, side_of_army
from ..table import campaigns as tc
from ..table import roles
from ..table.campaigns import Campaign
from ..table.models import Game
from . import auth
from .db import session


def who() -> str:
    """The name a campaign step is made under: the signed-in account on a club server, else the
    name this table typed on the lists page."""
    if auth.club():
        return current_user.name if current_user.is_authenticated else ""
    return str(cookie.get("owner", "") or "")[:40]


def _same(a: str, b: str) -> bool:
    return " ".join((a or "").split()).casefold() == " ".join((b or "").split()).casefold()


def can_change(c: Campaign) -> bool:
    if not auth.club():
        return True
    if not current_user.is_authenticated:
        return False
    return current_user.is_admin or _same(c.owner, current_user.name)


def can_read(c: Campaign) -> bool:
    if can_change(c):
        return True
    if current_user.is_authenticated:
        if any(_same(name, current_user.name) for name in tc.player_names(session(), c.id)):
            return True
    seated = roles.games_seated(session(), cookie.get(auth.TABLET), auth.account_id())
    return any(seated.get(g.game_id) not in (None, roles.SPECTATOR) for g in tc.games_of(session(), c.id))


def may_choose_breakthrough(c: Campaign) -> bool:
    """A breakthrough at Wavre is answered at the table it reaches, by the Coalition: that game's
    umpire, or a tablet seated there as the Coalition's side (the campaign's owner too)."""
    if can_change(c):
        return True
    to = c.state.get("battles", {}).get((plan_links(c.state).get("breakthroughs") or {}).get("to") or "", {})
    game = session().get(Game, to["game_id"]) if to.get("game_id") else None
    if game is None:
        return False
    role = roles.games_seated(session(), cookie.get(auth.TABLET), auth.account_id()).get(game.id)
    return role == roles.UMPIRE or (role is not None and role == side_of_army(game.state, "coalition"))


def visible(campaigns: list[Campaign]) -> list[Campaign]:
    return [c for c in campaigns if can_read(c)]


def gate():
    """Before every request about one campaign (its ``<int:campaign_id>``): read only by those who
    may, changed only by its owner. A campaign that is not there is left to the route's 404."""
    campaign_id = (request.view_args or {}).get("campaign_id")
    if campaign_id is None or not auth.club():
        return None
    try:
        c = tc.get_campaign(session(), campaign_id)
    except tc.NotFound:
        return None
    if not can_read(c):  # not even its name is shown
        abort(403, "This campaign is open only to its umpire and its players: "
                   + ("ask its umpire to start you a seat at one of its games." if current_user.is_authenticated
                      else "log in first."))
    if request.method != "GET" and request.endpoint == "campaigns.choose":
        if not may_choose_breakthrough(c):
            abort(403, "The choice after a breakthrough is the Coalition's: their player or the umpire at the "
                       "table it reaches makes it.")
    elif request.method != "GET" and not can_change(c):
        owner = c.owner or "its owner"
        abort(403, f"“{c.name}” is {owner}'s campaign: only {owner} can change it.")
    return None
