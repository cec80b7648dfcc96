"""A Hundred Days day on two tables at once: its battles started together (each a game of its own,
with its own umpire, seats, log and undo), and the Coalition's choice that a French breakthrough at
Wavre puts on the Waterloo table.

Both are one transaction each: the games and the campaign steps that record them; the unit
disrupted at Waterloo (an umpire's correction in Waterloo's log, saying where it came from), the
record of it in Wavre's log, and the campaign's note that the choice is made. The choice takes
Waterloo's turn, then the campaign's, the order every linked write keeps (``campaign_links.py``).
"""
from __future__ import annotations

from pathlib import Path

from sqlmodel import Session, select

from ..campaigns import hundred_days_links as hl
from ..campaigns.common import builder
from ..core.dice import ScriptedDice
from ..core.errors import RuleError
from ..systems import BLACK_POWDER
from . import service
from .campaign_games import battle_state, record_start
from .campaign_links import fresh_game, record_link, write_campaign
from .campaign_rows import CampaignGame
from .campaigns import Campaign, CampaignStale, get_campaign, perform
from .models import Game
from .service import BadInput
from .write_lock import turn_of, version_now


def day_battles(doc: dict, day: str | None = None) -> list[str]:
    """The battles of the day still to start (the optional episodes left out)."""
    day = day or doc["day"]
    return [k for k, b in sorted(doc["battles"].items(), key=lambda kv: kv[1]["order"])
            if b["day"] == day and b["status"] == "not_fought" and not b["optional"]]


def start_day(session: Session, campaign_id: int, seen_version: int, who: str = "", decline_i_corps: bool = False,
              scenarios_dir: Path | None = None) -> list[Game]:
    """Every battle of the campaign's day started at once, side by side."""
    c = get_campaign(session, campaign_id)
    if c.kind != "hundred_days":
        raise BadInput("Only a Hundred Days campaign fights its battles side by side.")
    keys = day_battles(c.state)
    if len(keys) < 2:
        raise BadInput("Fewer than two battles of this day are left to start: start the one left on its own.")
    ip = hl.i_corps_plan(c.state) or {}
    with turn_of(Campaign, c.id):
        if seen_version != version_now(session, c):
            raise CampaignStale(c.version)
        built = [(k, *battle_state(c, k, scenarios_dir, decline_i_corps and k != ip.get("from"))) for k in keys]
        try:
            perform(session, c.id, c.version, "start_day_together", {"day": c.state["day"], "battles": keys},
                    who=who, commit=False)
            games = [record_start(session, c, c.version, who, k, name, BLACK_POWDER, state, {}, {}, notes,
                                  commit=False) for k, state, notes, name in built]
        except Exception:
            session.rollback()
            raise
        session.commit()
    for g in games:
        session.refresh(g)
    return games


def day_tag(session: Session, c: Campaign) -> str:
    """What the day's tables show depends on: the campaign's version and each battle's game's. A
    poll that saw this tag is answered "nothing changed" without reading any game's document."""
    ids = [b["game_id"] for b in c.state["battles"].values() if b.get("game_id")]
    rows = session.exec(select(Game.id, Game.version).where(Game.id.in_(ids))).all() if ids else []
    return f"{c.id}.{c.version}:" + ",".join(f"{i}.{v}" for i, v in sorted(rows))


def versions_tag(session: Session, game_id: int) -> str:
    """The versions a campaign game's board's way back is drawn from: the game's and its
    campaign's ("" for a game no campaign started)."""
    link = session.exec(select(CampaignGame.campaign_id).where(CampaignGame.game_id == game_id)).first()
    if link is None:
        return ""
    game = session.exec(select(Game.version).where(Game.id == game_id)).first()
    camp = session.exec(select(Campaign.version).where(Campaign.id == link)).first()
    return f"{link}.{camp}:{game_id}.{game}"


def pending(doc: dict) -> list[dict]:
    return [bt for bt in hl.links_of(doc)["breakthroughs"] if bt["status"] == "pending"]


def reaches(doc: dict, breakthrough: dict) -> str:
    """The battle a breakthrough's choice is made at (the plan's link names it)."""
    return (hl.plan_links(doc).get("breakthroughs") or {}).get("to", "")


def choose(session: Session, campaign_id: int, seen_version: int, breakthrough: str, unit: str,
           who: str = "") -> dict:
    """The Coalition's answer to a breakthrough: ``unit`` of the reinforcing reserve arrives
    disordered (lost, if it already was). Returns the breakthrough as answered."""
    c = get_campaign(session, campaign_id)
    bp = hl.plan_links(c.state).get("breakthroughs") or {}
    to = c.state["battles"].get(bp.get("to"), {})
    if not bp or to.get("status") != "playing":
        raise BadInput(f"{to.get('title', 'The battle it reaches')} is not being fought: the choice waits until it starts.")
    with turn_of(Game, to["game_id"]), turn_of(Campaign, c.id):
        if seen_version != version_now(session, c):
            raise CampaignStale(c.version)
        bt = next((x for x in pending(c.state) if x["id"] == breakthrough), None)
        if bt is None:
            raise BadInput("That breakthrough has been answered already, or was undone at its table.")
        target = fresh_game(session, to["game_id"])
        source_title = c.state["battles"][bt["from"]]["title"]
        whence = f"from {source_title}, its turn {bt['turn']}: {bt['name']} {bt['how']} by a French breakthrough"
        try:
            _, effect, words = hl.disrupt(target.state, bp["reinforcements"], unit, whence)
            name = target.state["units"][unit]["name"]
            facts = {"unit": unit, "field": "destroyed" if effect == "lost" else "disordered", "value": "yes",
                     "reason": whence[0].upper() + whence[1:]}
            spec, parsed = service.parse_facts(BLACK_POWDER, "adjust_unit", facts)
            # Written as the umpire's correction it is, so Waterloo's log reads and replays it as one.
            changes = list(spec.resolve(target.state, parsed, ScriptedDice([])).all_changes)
            seq = record_link(session, target, f"{words[0].upper()}{words[1:]}.", changes, facts,
                              service.commit_state, service.record_entry, action="adjust_unit",
                              label=f"From {source_title}: {bp['reinforcements']} disrupted")
            source = fresh_game(session, bt["game_id"])
            rseq = None
            if source is not None:
                rseq = record_link(session, source, f"Reached {to['title']}: {words}.", [],
                                   {"choice": bt["id"], "to": bp["to"]}, service.commit_state, service.record_entry,
                                   label=f"To {to['title']}: the breakthrough's consequence")
            choice = {"battle": bp["to"], "game_id": target.id, "seq": seq, "unit": unit, "name": name,
                      "effect": effect, "who": who[:40], "record": {"game_id": bt["game_id"], "seq": rseq}}
            listed = [{**x, "status": "chosen", "choice": choice} if x["id"] == bt["id"] else x
                      for x in hl.links_of(c.state)["breakthroughs"]]
            b = builder(c.state)
            b.set(("links", "breakthroughs"), listed, f"{name}: {effect} at {to['title']}")
            write_campaign(session, c, list(b.changes), f"Choice at {to['title']}", words,
                           {"battle": bp["to"], "game_id": target.id, "seq": seq, "breakthrough": bt["id"]},
                           service.commit_state)
        except RuleError as e:
            session.rollback()
            raise BadInput(str(e)) from None
        except Exception:
            session.rollback()
            raise
        session.commit()
    return {**bt, "status": "chosen", "choice": choice}
