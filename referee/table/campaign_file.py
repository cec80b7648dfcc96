"""The whole campaign as one file (``docs/campaign-file.md``): the campaign and its document, its
players, every roster with every version, the campaign log, and each game it started with that
game's own log. Export → import → export gives the same bytes; an import is all of it or, with
a message saying what is wrong, nothing.

Database ids never appear in the file: a game is named by its place in the file's ``games``
list (``"game:1"``), wherever the campaign's document, its log or its games name a ``game_id``.
"""
from __future__ import annotations

from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from ..campaigns import kind_for
from ..campaigns.documents import check_document
from ..campaigns.oilandiron_tables import read_tables
from ..core.errors import DataError
from ..systems import OIL_AND_IRON
from .campaign_links import MARK
from .campaigns import (
    Campaign,
    CampaignGame,
    CampaignLogEntry,
    CampaignPlayer,
    Roster,
    RosterVersion,
    get_campaign,
    log,
    rosters,
)
from .models import Game
from .records import add_game, file_text, game_data, read_json, row_data, row_from
from .service import BadInput

FORMAT = "referee-campaign"
FORMAT_VERSION = 1


def _swap_ids(node: Any, mapping: dict) -> Any:
    """A copy of ``node`` with every ``game_id`` value swapped through ``mapping`` (ids that are
    not in it are kept)."""
    if isinstance(node, dict):
        return {k: (mapping.get(v, v) if k == "game_id" and isinstance(v, (int, str)) else _swap_ids(v, mapping))
                for k, v in node.items()}
    if isinstance(node, list):
        return [_swap_ids(v, mapping) for v in node]
    return node


def _game_ids(campaign: Campaign, entries: list[CampaignLogEntry], links: list[CampaignGame]) -> list[int]:
    found: set[int] = {g.game_id for g in links}

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if k == "game_id" and isinstance(v, int):
                    found.add(v)
                else:
                    walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(campaign.state)
    for e in entries:
        walk([e.facts, e.result, e.changes])
    return sorted(found)


def export_campaign(session: Session, campaign_id: int) -> str:
    c = get_campaign(session, campaign_id)
    entries = sorted(log(session, c.id), key=lambda e: e.seq)
    links = list(session.exec(select(CampaignGame).where(CampaignGame.campaign_id == c.id)).all())
    ids = [i for i in _game_ids(c, entries, links) if session.get(Game, i) is not None]
    refs = {gid: f"game:{n}" for n, gid in enumerate(ids, start=1)}
    link_of = {g.game_id: g for g in links}
    players = session.exec(select(CampaignPlayer).where(CampaignPlayer.campaign_id == c.id)
                           .order_by(CampaignPlayer.key)).all()
    out_rosters = []
    for r in rosters(session, c.id):
        versions = session.exec(select(RosterVersion).where(RosterVersion.roster_id == r.id)
                                .order_by(RosterVersion.number)).all()
        out_rosters.append({**row_data(r, ("id", "campaign_id")),
                            "versions": [row_data(v, ("id", "roster_id")) for v in versions]})
    games = []
    for gid in ids:
        link = link_of.get(gid)
        data_of = game_data(session, session.get(Game, gid))
        mark = data_of["game"]["state"].get(MARK)
        if isinstance(mark, dict):  # the campaign's id is this database's: the import gives its own
            data_of["game"] = {**data_of["game"], "state": {**data_of["game"]["state"], MARK: {**mark, "campaign_id": None}}}
        games.append({"ref": refs[gid], **data_of,
                      "campaign": {"step": link.step, "roster_versions": link.roster_versions} if link else None})
    data = {
        "format": FORMAT, "format_version": FORMAT_VERSION,
        "campaign": _swap_ids(row_data(c), refs),
        "players": [row_data(p, ("id", "campaign_id")) for p in players],
        "rosters": out_rosters,
        "log": [_swap_ids(row_data(e, ("id", "campaign_id")), refs) for e in entries],
        "games": games,
    }
    return file_text(data)


def _list(data: dict, key: str) -> list:
    v = data.get(key)
    if not isinstance(v, list) or not all(isinstance(x, dict) for x in v):
        raise BadInput(f"The campaign file's “{key}” is not a list of entries.")
    return v


def free_name(session: Session, name: str) -> str:
    """``name`` if no campaign here has it, else “name (imported)”, “name (imported 2)”, …"""
    taken = set(session.exec(select(Campaign.name)).all())
    if name not in taken:
        return name
    n = 1
    while (candidate := f"{name} (imported{'' if n == 1 else f' {n}'})") in taken:
        n += 1
    return candidate


def import_campaign(session: Session, raw: bytes | str, said: list[str] | None = None) -> Campaign:
    """The campaign from its file, with its games; every part or nothing. Given ``said`` (a person
    importing at the table), a campaign whose name is already here gets a name of its own, and
    ``said`` gets the sentence that tells them; without it the file's name is kept as it is."""
    data = read_json(raw, "campaign", FORMAT, FORMAT_VERSION)
    if not isinstance(data.get("campaign"), dict):
        raise BadInput("The campaign file has no “campaign”.")
    name = data["campaign"].get("name")
    if said is not None and isinstance(name, str) and (new := free_name(session, name)) != name:
        data["campaign"] = {**data["campaign"], "name": new}
        said.append(f"A campaign named “{name}” is already here, so this one is “{new}”.")
    try:
        c = _add_all(session, data)
        session.commit()
    except BadInput:
        session.rollback()
        raise
    except (IntegrityError, ValueError, TypeError, KeyError) as e:
        session.rollback()
        raise BadInput(f"The campaign file does not fit together: {str(e).splitlines()[0]}") from None
    session.refresh(c)
    return c


def _add_all(session: Session, data: dict) -> Campaign:
    games = _list(data, "games")
    refs: dict[str, int] = {}
    added = []
    for i, g in enumerate(games):
        ref = g.get("ref")
        if not isinstance(ref, str) or ref in refs:
            raise BadInput(f"Game {i + 1} of the campaign file has no ref of its own.")
        game = add_game(session, g, f"game {ref}")
        refs[ref] = game.id
        added.append((game, g.get("campaign")))
    c = row_from(Campaign, _swap_ids(data["campaign"], refs), "the campaign")
    try:
        kind_for(c.kind)
    except KeyError as e:
        raise BadInput(str(e.args[0])) from None
    if not isinstance(c.state, dict) or c.state.get("kind") != c.kind:
        raise BadInput("The campaign's document does not match its kind.")
    try:
        if c.kind == OIL_AND_IRON:
            read_tables(c.state.get("tables") or {}, "the campaign's tables")
        check_document(c.kind, c.state)
    except DataError as e:
        raise BadInput(str(e)) from None
    session.add(c)
    session.flush()
    for p in _list(data, "players"):
        session.add(row_from(CampaignPlayer, p, "a player", campaign_id=c.id))
    for r in _list(data, "rosters"):
        versions = r.get("versions")
        if not isinstance(versions, list) or not versions:
            raise BadInput(f"Roster “{r.get('name')}” has no versions.")
        roster = row_from(Roster, {k: v for k, v in r.items() if k != "versions"}, "a roster", campaign_id=c.id)
        session.add(roster)
        session.flush()
        for v in versions:
            session.add(row_from(RosterVersion, v, f"roster “{roster.name}”", roster_id=roster.id))
    seqs = set()
    for e in _list(data, "log"):
        entry = row_from(CampaignLogEntry, _swap_ids(e, refs), "a campaign log entry", campaign_id=c.id)
        if entry.seq in seqs:
            raise BadInput(f"Campaign log step {entry.seq} appears twice.")
        seqs.add(entry.seq)
        session.add(entry)
    for game, link in added:
        mark = game.state.get(MARK)
        if isinstance(mark, dict):  # a battle's mark names its campaign: this one now
            game.state = {**game.state, MARK: {**mark, "campaign_id": c.id}}
            session.add(game)
        if link is not None:
            if not isinstance(link, dict) or not isinstance(link.get("step"), str):
                raise BadInput(f"Game “{game.name}”: its campaign link names no step.")
            session.add(CampaignGame(campaign_id=c.id, game_id=game.id, step=link["step"],
                                     roster_versions=link.get("roster_versions") or {}))
    session.flush()
    return c
