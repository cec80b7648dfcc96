"""Campaigns in the database: the campaign (its state document, versioned like a game's), its
players, their rosters with every version kept (roster history), the campaign log, and the
games each campaign started.

Every change goes through :func:`perform` (or :func:`undo` / :func:`redo` / :func:`undo_back_to`),
the same one path a game's changes take in :mod:`referee.table.service`, whose pieces it reuses:
the version check and atomic write (``_commit_state``), the dice sources (one seed per log entry),
the refusals (``StaleVersion``, ``BadInput``, ``NeedDice``) and the form-friendly messages. A
campaign step is applied, logged with its dice and rule, and its rosters' new versions written
in one transaction, so a server stopped mid-Aftermath keeps every step it showed as done.
"""
from __future__ import annotations

import random
from typing import Any

from sqlmodel import Session, select

from ..campaigns import kind_for
from ..core.dice import BadDice, DiceNeeded, DiceSource
from ..core.docstate import StateConflict, apply_changes, revert_changes
from ..core.errors import DataError, RuleError
from ..core.results import Change, Result
from . import service
from .campaign_rows import Campaign, CampaignGame, CampaignLogEntry, CampaignPlayer, Roster, RosterVersion
from .models import Game
from .service import BadInput, NeedDice, NotFound, StaleVersion
from .turns import turn_of


class CampaignStale(StaleVersion):
    def __init__(self, current: int):
        super().__init__(current)
        self.message = ("Another tablet changed this campaign first: here is the fresh view. "
                        "Check it and tap again.")
        self.args = (self.message,)


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


def _last_seq(session: Session, campaign_id: int) -> int:
    return service.last_seq(session, CampaignLogEntry, CampaignLogEntry.campaign_id, campaign_id)


def _commit(session: Session, campaign: Campaign, seen_version: int, new_state: dict) -> int:
    try:
        return service._commit_state(session, campaign, seen_version, new_state)
    except StaleVersion as e:
        raise CampaignStale(e.current) from None


def parse_facts(kind: str, action: str, raw: dict[str, Any]):
    try:
        catalogue = kind_for(kind)
    except KeyError as e:
        raise BadInput(str(e.args[0])) from None
    return service.parse_facts_of(catalogue, action, raw)


def odds(session: Session, campaign_id: int, action: str, raw: dict[str, Any]) -> list[str]:
    c = get_campaign(session, campaign_id)
    spec, facts = parse_facts(c.kind, action, raw)
    if spec.odds is None:
        return []
    try:
        return spec.odds(c.state, facts)
    except (RuleError, DataError) as e:
        raise BadInput(str(e)) from None


def perform(session: Session, campaign_id: int, seen_version: int, action: str, raw_facts: dict[str, Any],
            typed_dice: list[int] | None = None, dice: DiceSource | None = None, who: str = "",
            commit: bool = True) -> tuple[Campaign, CampaignLogEntry, Result]:
    """One campaign step: version check, the engine, the changes, the log entry with its dice and
    rule, the rosters' new versions, one commit. ``commit=False`` leaves the transaction open
    for a caller that adds rows of its own to the same step (a game started from the rosters).
    Takes the campaign's turn, as a linked table's write does (``campaign_links.py``)."""
    with turn_of(Campaign, campaign_id):
        return _perform(session, campaign_id, seen_version, action, raw_facts, typed_dice, dice, who, commit)


def _perform(session, campaign_id, seen_version, action, raw_facts, typed_dice, dice, who, commit):
    c = get_campaign(session, campaign_id)
    if seen_version != c.version:
        raise CampaignStale(c.version)
    spec, facts = parse_facts(c.kind, action, raw_facts)
    seq = _last_seq(session, c.id) + 1
    source_name = "scripted"
    if dice is None:
        dice, source_name = service._dice_for(c, seq, typed_dice)
    try:
        result = spec.resolve(c.state, facts, dice)
    except DiceNeeded as e:
        raise NeedDice(e, list(typed_dice or [])) from None
    except (BadDice, RuleError, DataError) as e:
        raise BadInput(str(e)) from None
    changes, new_state, source_name = service.settle(c.state, result, spec, dice, typed_dice, source_name, "campaign")
    service.discard_redo(session, CampaignLogEntry, CampaignLogEntry.campaign_id, c.id)
    version = _commit(session, c, seen_version, new_state)
    entry = CampaignLogEntry(
        campaign_id=c.id, seq=seq, action=action, label=spec.label, who=(who or "").strip()[:40],
        override=bool(result.data.get("override")), facts=facts.model_dump(mode="json"),
        dice=[d.to_dict() for d in dice.history], dice_source=source_name, result=result.to_dict(),
        changes=[ch.to_dict() for ch in changes], version_after=version)
    session.add(entry)
    _snapshot(session, c, new_state, seq, f"{spec.label}: {result.summary}")
    if commit:
        session.commit()
        session.refresh(c)
        session.refresh(entry)
    return c, entry, result


def _active(campaign_id: int):
    return select(CampaignLogEntry).where(CampaignLogEntry.campaign_id == campaign_id,
                                          CampaignLogEntry.undone == False,  # noqa: E712
                                          CampaignLogEntry.discarded == False)  # noqa: E712


def undo(session: Session, campaign_id: int, seen_version: int, who: str = "") -> CampaignLogEntry:
    """Take back the newest campaign step still in force."""
    entries = _undo(session, campaign_id, seen_version, None)
    return entries[0]


def undo_back_to(session: Session, campaign_id: int, seen_version: int, seq: int) -> list[CampaignLogEntry]:
    """Take back every step from the newest down to ``seq`` (a whole Aftermath) in one transaction."""
    return _undo(session, campaign_id, seen_version, seq)


def _undo(session: Session, campaign_id: int, seen_version: int, down_to: int | None) -> list[CampaignLogEntry]:
    with turn_of(Campaign, campaign_id):
        return _undo_steps(session, campaign_id, seen_version, down_to)


def _undo_steps(session: Session, campaign_id: int, seen_version: int, down_to: int | None) -> list[CampaignLogEntry]:
    c = get_campaign(session, campaign_id)
    if seen_version != c.version:
        raise CampaignStale(c.version)
    q = _active(campaign_id).order_by(CampaignLogEntry.seq.desc())
    entries = list(session.exec(q.limit(1) if down_to is None else q.where(CampaignLogEntry.seq >= down_to)).all())
    if not entries:
        raise BadInput("There is nothing to undo.")
    if down_to is not None and entries[-1].seq != down_to:
        raise BadInput(f"Step {down_to} is not in force: nothing was undone.")
    linked = next((e for e in entries if e.action == "link"), None)
    if linked is not None:
        raise BadInput(f"“{linked.label}” happened at a table ({linked.result.get('summary', '')}): undo it "
                       "there, on that battle's page. Nothing was undone.")
    state = c.state
    for e in entries:
        state = revert_changes(state, [Change.from_dict(x) for x in e.changes])
    _commit(session, c, seen_version, state)
    for e in entries:
        e.undone = True
        session.add(e)
        _unlink_game(session, e)
    words = ", ".join(e.label for e in entries[:3]) + ("…" if len(entries) > 3 else "")
    _snapshot(session, c, state, entries[0].seq, f"undone: {words}")
    session.commit()
    session.refresh(c)
    return entries


def _unlink_game(session: Session, entry: CampaignLogEntry) -> None:
    """An undone start leaves the game as an ordinary game, no longer part of the campaign."""
    if entry.action == "game_started":
        link = session.exec(select(CampaignGame).where(CampaignGame.game_id == entry.facts["game_id"])).first()
        if link is not None:
            session.delete(link)


def redo(session: Session, campaign_id: int, seen_version: int) -> CampaignLogEntry:
    c = get_campaign(session, campaign_id)
    if seen_version != c.version:
        raise CampaignStale(c.version)
    entry = session.exec(select(CampaignLogEntry).where(CampaignLogEntry.campaign_id == campaign_id,
                                                        CampaignLogEntry.undone == True,  # noqa: E712
                                                        CampaignLogEntry.discarded == False)  # noqa: E712
                         .order_by(CampaignLogEntry.seq.asc()).limit(1)).first()
    if entry is None:
        raise BadInput("There is nothing to redo.")
    try:
        state = apply_changes(c.state, [Change.from_dict(x) for x in entry.changes])
    except StateConflict as e:
        raise BadInput(f"That step no longer fits the campaign ({e}).") from None
    _commit(session, c, seen_version, state)
    entry.undone = False
    session.add(entry)
    if entry.action == "game_started" and session.get(Game, entry.facts["game_id"]) is not None:
        session.add(CampaignGame(campaign_id=c.id, game_id=entry.facts["game_id"], step=entry.facts["step"],
                                 roster_versions=entry.facts.get("roster_versions", {})))
    _snapshot(session, c, state, entry.seq, f"redone: {entry.label}")
    session.commit()
    session.refresh(c)
    return entry


def can_redo(session: Session, campaign_id: int) -> bool:
    return session.exec(select(CampaignLogEntry.id).where(
        CampaignLogEntry.campaign_id == campaign_id, CampaignLogEntry.undone == True,  # noqa: E712
        CampaignLogEntry.discarded == False).limit(1)).first() is not None  # noqa: E712
