"""Campaigns in the database: the campaign (its state document, versioned like a game's), its
players, their rosters with every version kept (roster history), the campaign log, and the
games each campaign started.

Every change goes through :func:`perform` (or :func:`undo` / :func:`redo` / :func:`undo_back_to`),
the one write path a game's changes take too (:mod:`referee.table.write_path`): the campaign's
turn, the version check and atomic write, the dice sources (one seed per log entry), the refusals
(``StaleVersion``, ``BadInput``, ``NeedDice``) and the form-friendly messages. A campaign step is
applied, logged with its dice and rule, and its rosters' new versions written in one transaction,
so a server stopped mid-Aftermath keeps every step it showed as done.
"""
from __future__ import annotations

import random
from typing import Any

from sqlmodel import Session, select

from ..campaigns import kind_for
from ..core.dice import DiceSource
from ..core.results import Result
from . import write_path
from .campaign_rows import Campaign, CampaignGame, CampaignLogEntry, CampaignPlayer, Roster, RosterVersion
from .errors import BadInput, NeedDice, NotFound, StaleVersion  # noqa: F401  (callers catch campaigns.NeedDice ...)
from .models import Game
from .write_path import DocumentKind, Write, odds_of, parse_facts_of


class CampaignStale(StaleVersion):
    def __init__(self, current: int):
        super().__init__(current, "this campaign")


# --- reading ------------------------------------------------------------------------------------

def get_campaign(session: Session, campaign_id: int) -> Campaign:
    c = session.get(Campaign, campaign_id)
    if c is None:
        raise NotFound(f"There is no campaign number {campaign_id}.")
    return c


def list_campaigns(session: Session) -> list[Campaign]:
    return list(session.exec(select(Campaign).order_by(Campaign.updated.desc(), Campaign.id.desc())).all())


def roster_docs(campaign: Campaign | dict) -> dict[str, dict]:
    """Each roster's content in the campaign document: squadrons by player, or armies."""
    doc = campaign.state if isinstance(campaign, Campaign) else campaign
    return dict(doc.get("rosters") or doc.get("armies") or {})


def rosters(session: Session, campaign_id: int) -> list[Roster]:
    return list(session.exec(select(Roster).where(Roster.campaign_id == campaign_id).order_by(Roster.key)).all())


def roster_history(session: Session, roster_id: int) -> list[RosterVersion]:
    return list(session.exec(select(RosterVersion).where(RosterVersion.roster_id == roster_id)
                             .order_by(RosterVersion.number.desc())).all())


def log(session: Session, campaign_id: int, limit: int | None = None) -> list[CampaignLogEntry]:
    q = select(CampaignLogEntry).where(CampaignLogEntry.campaign_id == campaign_id).order_by(CampaignLogEntry.seq.desc())
    if limit:
        q = q.limit(limit)
    return list(session.exec(q).all())


def games_of(session: Session, campaign_id: int) -> list[CampaignGame]:
    return list(session.exec(select(CampaignGame).where(CampaignGame.campaign_id == campaign_id)
                             .order_by(CampaignGame.id)).all())


def player_names(session: Session, campaign_id: int) -> list[str]:
    """The names the campaign's players were given (an account of that name reads the campaign)."""
    return list(session.exec(select(CampaignPlayer.name).where(CampaignPlayer.campaign_id == campaign_id)).all())


def campaign_of_game(session: Session, game_id: int) -> CampaignGame | None:
    return session.exec(select(CampaignGame).where(CampaignGame.game_id == game_id)).first()


# --- writing ------------------------------------------------------------------------------------

def create_campaign(session: Session, name: str, kind: str, state: dict, players: dict[str, str],
                    owner: str = "", seed: int | None = None, commit: bool = True) -> Campaign:
    """A new campaign with its players and the first version of each roster."""
    kind_for(kind)
    c = Campaign(name=name, kind=kind, state=state, version=1, owner=owner[:40],
                 seed=seed if seed is not None else random.SystemRandom().randrange(1, 2**31))
    session.add(c)
    session.flush()
    for key, pname in players.items():
        session.add(CampaignPlayer(campaign_id=c.id, key=key, name=pname[:40]))
    for key, content in roster_docs(state).items():
        r = Roster(campaign_id=c.id, key=key, name=content.get("name", key), latest=1)
        session.add(r)
        session.flush()
        session.add(RosterVersion(roster_id=r.id, number=1, content=content, note="campaign begun"))
    if commit:
        session.commit()
        session.refresh(c)
    return c


def _snapshot(session: Session, campaign: Campaign, state: dict, seq: int, note: str) -> None:
    """A new roster version for each roster the step changed (the roster history)."""
    docs = roster_docs(state)
    for r in rosters(session, campaign.id):
        content = docs.get(r.key)
        last = session.exec(select(RosterVersion).where(RosterVersion.roster_id == r.id,
                                                        RosterVersion.number == r.latest)).first()
        if content is None or (last is not None and last.content == content):
            continue
        r.latest += 1
        r.name = content.get("name", r.name)
        session.add(r)
        session.add(RosterVersion(roster_id=r.id, number=r.latest, content=content, note=note[:200], log_seq=seq))


def parse_facts(kind: str, action: str, raw: dict[str, Any]):
    return parse_facts_of(_catalogue(kind), action, raw)


def odds(session: Session, campaign_id: int, action: str, raw: dict[str, Any]) -> list[str]:
    c = get_campaign(session, campaign_id)
    return odds_of(_catalogue(c.kind), c.state, action, raw)


def _catalogue(kind: str):
    try:
        return kind_for(kind)
    except KeyError as e:
        raise BadInput(str(e.args[0])) from None


class Campaigns(DocumentKind):
    """A campaign on the one write path (``write_path.py``): each step also writes its rosters' new
    versions; an undone game start leaves that game an ordinary game."""

    row, entry, owner, what, step = Campaign, CampaignLogEntry, "campaign_id", "campaign", "step"
    # A linked table writes "link" entries into the campaign's log (``campaign_links.py``), so its
    # newest entry does not say whether a step is undone: a new step ends every redo.
    newest_says_redo = False

    def load(self, session: Session, campaign_id: int) -> Campaign:
        return get_campaign(session, campaign_id)

    def catalogue(self, c: Campaign):
        return _catalogue(c.kind)

    def stale(self, current: int, what: str | None = None) -> StaleVersion:
        return CampaignStale(current)

    def record(self, w: Write) -> CampaignLogEntry:
        entry = CampaignLogEntry(
            campaign_id=w.doc.id, seq=w.seq, action=w.action, label=w.spec.label,
            who=(w.options.get("who") or "").strip()[:40], override=bool(w.result.data.get("override")),
            facts=w.facts.model_dump(mode="json"), dice=[d.to_dict() for d in w.dice.history],
            dice_source=w.source_name, result=w.result.to_dict(), changes=[ch.to_dict() for ch in w.changes],
            version_after=w.version)
        w.session.add(entry)
        _snapshot(w.session, w.doc, w.new_state, w.seq, f"{w.spec.label}: {w.result.summary}")
        return entry

    def before_step(self, session: Session, c: Campaign, entries: list, how: str, options: dict) -> None:
        linked = next((e for e in entries if e.action == "link"), None) if how == "undo" else None
        if linked is not None:
            raise BadInput(f"“{linked.label}” happened at a table ({linked.result.get('summary', '')}): undo it "
                           "there, on that battle's page. Nothing was undone.")

    def after_step(self, session: Session, c: Campaign, before: dict, entries: list, how: str) -> None:
        for e in entries:
            if e.action == "game_started":
                _started_game(session, c, e, how)
        if how == "undo":
            words = ", ".join(e.label for e in entries[:3]) + ("…" if len(entries) > 3 else "")
            _snapshot(session, c, c.state, entries[0].seq, f"undone: {words}")
        else:
            _snapshot(session, c, c.state, entries[0].seq, f"redone: {entries[0].label}")


CAMPAIGNS = Campaigns()


def perform(session: Session, campaign_id: int, seen_version: int, action: str, raw_facts: dict[str, Any],
            typed_dice: list[int] | None = None, dice: DiceSource | None = None, who: str = "",
            commit: bool = True) -> tuple[Campaign, CampaignLogEntry, Result]:
    """One campaign step on the one write path (``write_path.perform``), in the campaign's turn:
    version check, the engine, the changes, the log entry with its dice and rule, the rosters' new
    versions, one commit. ``commit=False`` leaves the transaction open for a caller that adds rows
    of its own to the same step (a game started from the rosters)."""
    c, entry, result = write_path.perform(CAMPAIGNS, session, campaign_id, seen_version, action, raw_facts,
                                          typed_dice, dice, commit=commit, who=who)
    if commit:
        session.refresh(c)
        session.refresh(entry)
    return c, entry, result


def undo(session: Session, campaign_id: int, seen_version: int, who: str = "") -> CampaignLogEntry:
    """Take back the newest campaign step still in force."""
    return undo_back_to(session, campaign_id, seen_version, None)[0]


def undo_back_to(session: Session, campaign_id: int, seen_version: int, seq: int | None) -> list[CampaignLogEntry]:
    """Take back every step from the newest down to ``seq`` (a whole Aftermath) in one transaction."""
    entries = write_path.undo(CAMPAIGNS, session, campaign_id, seen_version, seq)
    session.refresh(get_campaign(session, campaign_id))
    return entries


def _started_game(session: Session, c: Campaign, entry: CampaignLogEntry, how: str) -> None:
    """An undone start leaves the game as an ordinary game, no longer part of the campaign; a
    redone one makes it the campaign's again (if the game is still there)."""
    if how == "undo":
        link = session.exec(select(CampaignGame).where(CampaignGame.game_id == entry.facts["game_id"])).first()
        if link is not None:
            session.delete(link)
    elif session.get(Game, entry.facts["game_id"]) is not None:
        session.add(CampaignGame(campaign_id=c.id, game_id=entry.facts["game_id"], step=entry.facts["step"],
                                 roster_versions=entry.facts.get("roster_versions", {})))


def redo(session: Session, campaign_id: int, seen_version: int) -> CampaignLogEntry:
    """Put back the oldest undone step, in the campaign's turn as every campaign write."""
    entry = write_path.redo(CAMPAIGNS, session, campaign_id, seen_version)
    session.refresh(get_campaign(session, campaign_id))
    return entry


def can_redo(session: Session, campaign_id: int) -> bool:
    return session.exec(select(CampaignLogEntry.id).where(
        CampaignLogEntry.campaign_id == campaign_id, CampaignLogEntry.undone == True,  # noqa: E712
        CampaignLogEntry.discarded == False).limit(1)).first() is not None  # noqa: E712
