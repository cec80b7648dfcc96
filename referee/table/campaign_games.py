"""Where a campaign meets its games: starting a campaign from saved squadrons (or the shipped
examples) or from the Hundred Days plan, starting the next game from the rosters' current
versions, and reading a finished game into the campaign (the Aftermath, a battle's result).

Each is one campaign step through :func:`referee.table.campaigns.perform`; a game and the step
that records it are written in the same transaction.
"""
from __future__ import annotations

import random
from pathlib import Path

from sqlmodel import Session, select

from ..campaigns import hundred_days as hd
from ..campaigns import hundred_days_links as hd_links
from ..campaigns import oilandiron as oi
from ..campaigns.hundred_days_forces import forces_for_battle
from ..core.errors import DataError, RuleError
from ..data.campaign_files import read_campaign_file, table_files  # noqa: F401  (the campaigns page lists them)
from ..data.oilandiron import load_engagements, load_equipment, setup_engagement
from ..data.scenarios import new_battle_from_scenario
from ..lists.oilandiron import (
    LOAD_BEARING_FRAME,
    Squadron,
    SquadronRig,
    chassis_cards,
    engine_cards,
    squadron_rigs,
    weapon_cards,
)
from ..systems import BLACK_POWDER, OIL_AND_IRON
from .campaign_links import MARK
from .campaigns import Campaign, CampaignGame, CampaignStale, create_campaign, get_campaign, perform, rosters
from .models import Game, LogEntry
from .service import BadInput, get_game


def read_yaml_file(name: str, folder: Path | None = None) -> dict:
    """A file of ``scenarios/campaigns/`` (``referee.data.campaign_files``), its refusal a BadInput."""
    try:
        return read_campaign_file(name, folder)
    except DataError as e:
        raise BadInput(str(e)) from None


# --- a new campaign ---------------------------------------------------------------------------

def catalogue_for(squadrons: list[Squadron]) -> dict:
    """The cards' names, Iron and weight classes the campaign needs, copied into its document."""
    chassis, engines, weapons = {}, {}, {}
    for sq in squadrons:
        for c in chassis_cards(sq).values():
            chassis[c.key] = {"name": c.name, "weight_class": c.weight_class, "iron": c.iron,
                              "structure": c.structure.model_dump()}
        engines.update({e.key: {"name": e.name, "iron": e.iron} for e in engine_cards(sq).values()})
        weapons.update({w.key: {"name": w.name, "iron": w.iron} for w in weapon_cards(sq).values()})
    equipment = {e.key: {"name": e.name, "iron": e.iron, "effect_key": e.effect_key, "campaign_only": e.campaign_only}
                 for e in load_equipment().values()}
    return {"engagements": [[e.key, e.name] for e in load_engagements().engagements],
            "chassis": chassis, "engines": engines, "weapons": weapons, "equipment": equipment}


def _mounts_placed(sq: Squadron) -> list[list[str]]:
    """Each Rig's weapon mounts as the squadron takes the table (a weapon built with none is
    placed on the first free one): kept in the roster, so a weapon lost for good leaves its mount
    empty, and the weapon on the other arm stays there (Warped Barrel Mount is the left arm's)."""
    try:
        built = squadron_rigs(sq.model_copy(update={"campaign": True}), "p1")
    except DataError:
        return [[] for _ in sq.rigs]  # refused again, with its reason, when an engagement starts
    return [[w["mount"] for w in rig["weapons"].values()] for rig in built.values()]


def roster_from_squadron(sq: Squadron) -> dict:
    cards = chassis_cards(sq)
    rigs = {}
    for i, (r, mounts) in enumerate(zip(sq.rigs, _mounts_placed(sq))):
        if r.chassis not in cards:
            raise BadInput(f"{sq.name}: {r.name or f'Rig {i + 1}'} has no chassis card.")
        c = cards[r.chassis]
        rec = oi.rig_record(f"r{i + 1}", r.model_dump(), {
            "name": c.name, "weight_class": c.weight_class, "structure": c.structure.model_dump()})
        for w, mount in zip(rec["weapons"], mounts):
            w["mount"] = w["mount"] or mount
        if any(e.key == LOAD_BEARING_FRAME for e in r.equipment):
            # The squadron was built with the frame's +1 Iron on the Rig that carries it: given.
            rec.update(iron_bonus=1, frames_applied=1)
        rigs[f"r{i + 1}"] = rec
    return {"name": sq.name, "tier": sq.tier, "formation": sq.formation, "cards": sq.cards.model_dump(mode="json"),
            "rigs": rigs, "notes": sq.notes}


def new_oilandiron(session: Session, name: str, players: dict[str, tuple[str, Squadron]], tables: dict,
                   owner: str = "", seed: int | None = None) -> Campaign:
    """``players``: {"p1": (player's name, squadron), "p2": ...}."""
    squadrons = [sq.model_copy(update={"campaign": True}) for _, sq in players.values()]
    try:
        rosters = {p: roster_from_squadron(sq) for p, sq in zip(players, squadrons)}
        doc = oi.new_campaign_doc(name, {p: {"name": n} for p, (n, _) in players.items()}, rosters, tables,
                                  catalogue_for(squadrons))
    except (RuleError, DataError) as e:
        raise BadInput(str(e)) from None
    return create_campaign(session, name, OIL_AND_IRON, doc, {p: n for p, (n, _) in players.items()},
                           owner=owner, seed=seed)


def new_hundred_days(session: Session, name: str, french: str, coalition: str, plan: dict | None = None,
                     settings: dict | None = None, owner: str = "", seed: int | None = None) -> Campaign:
    plan = plan or read_yaml_file("hundred-days.yaml")
    try:
        doc = hd.new_campaign_doc(name, plan, settings)
    except (KeyError, TypeError) as e:
        raise BadInput(f"The campaign plan is missing {e}.") from None
    return create_campaign(session, name, "hundred_days", doc, {"french": french, "coalition": coalition},
                           owner=owner, seed=seed)


# --- the next game --------------------------------------------------------------------------------

def _new_game_row(session: Session, name: str, system: str, state: dict, owner: str) -> Game:
    state = dict(state)
    state.setdefault("dice_mode", "app")
    game = Game(name=name[:120], system=system, state=state, version=1, owner=owner[:40],
                seed=random.SystemRandom().randrange(1, 2**31))
    session.add(game)
    session.flush()
    return game


def _versions(session: Session, campaign: Campaign) -> dict[str, int]:
    return {r.key: r.latest for r in rosters(session, campaign.id)}


def start_engagement(session: Session, campaign_id: int, seen_version: int, who: str = "",
                     aggressor: str = "p1") -> Game:
    """The next engagement of an Of Oil and Iron campaign, from the rosters' current versions."""
    c = get_campaign(session, campaign_id)
    doc = c.state
    nxt = doc["next"]
    if not nxt.get("engagement"):
        raise BadInput("Choose or roll the next engagement first.")
    if doc.get("aftermath"):
        raise BadInput("Finish the Aftermath of the last engagement first.")
    step = str(len(doc["games"]) + 1)
    etype = next(e for e in load_engagements().engagements if e.key == nxt["engagement"])
    players, rigs, pieces, weapons, notes = {}, {}, {}, {}, []
    tables = oi.tables_of(doc)
    for p in ("p1", "p2"):
        roster = doc["rosters"][p]
        active = [r for r in roster["rigs"].values() if r["status"] == "active"]
        if not active:
            raise BadInput(f"{doc['players'][p]['name']} has no Rig ready to fight.")
        sq = Squadron(name=roster["name"], tier=roster["tier"], formation=roster["formation"], campaign=True,
                      rigs=[SquadronRig.model_validate(oi.build_of(r)) for r in active], cards=roster["cards"])
        try:
            # each Rig carries the Iron its roster says (a Load-Bearing Frame's +1 is on the Rig it was given to)
            built = squadron_rigs(sq, p, [oi.iron_used(doc, r)[1] for r in active])
        except DataError as e:
            raise BadInput(f"{roster['name']}: {e}") from None
        for (rid, rig_doc), rec in zip(built.items(), active):
            carried, more = oi.carry_into(rig_doc, rec, doc["settings"].get("damage_carries", True), tables,
                                          oi.rig_label(doc, f"{p}/{rec['key']}"))
            rigs[rid] = carried
            pieces[rid] = f"{p}/{rec['key']}"
            weapons[rid] = oi.weapon_positions(rec, rig_doc)
            notes.extend(more)
        role = (etype.roles[0] if p == aggressor else etype.roles[1]) if etype.roles else None
        players[p] = {"name": doc["players"][p]["name"], "role": role, "squadron": roster["name"]}
    name = f"{c.name}: engagement {step}, {etype.name}"
    try:
        state = setup_engagement(name, players, rigs, etype.key, campaign=True)
    except (RuleError, DataError) as e:
        raise BadInput(str(e)) from None
    return record_start(session, c, seen_version, who, step, name, OIL_AND_IRON, state, pieces, weapons, notes)


def start_battle(session: Session, campaign_id: int, seen_version: int, battle: str, who: str = "",
                 scenarios_dir: Path | None = None, decline_i_corps: bool = False) -> Game:
    """A Hundred Days battle from its scenario and the armies' rosters."""
    c = get_campaign(session, campaign_id)
    state, notes, name = battle_state(c, battle, scenarios_dir, decline_i_corps)
    return record_start(session, c, seen_version, who, battle, name, BLACK_POWDER, state, {}, {}, notes)


def battle_state(c: Campaign, battle: str, scenarios_dir: Path | None = None,
                 decline_i_corps: bool = False) -> tuple[dict, list[str], str]:
    """(the battle's starting document, what was carried into it, its name), marked as the
    campaign's so the game's write path follows its links (``campaign_links.py``)."""
    b = c.state["battles"].get(battle)
    if b is None:
        raise BadInput(f"The campaign has no battle “{battle}”.")
    ip = hd_links.i_corps_plan(c.state) or {}
    try:
        hd.check_can_start(c.state, battle)
        base = new_battle_from_scenario(b["scenario"], scenarios_dir)
        source = None
        if battle in ip.get("battles", []) and ip.get("from") != battle and ip.get("from") in c.state["battles"]:
            source = new_battle_from_scenario(c.state["battles"][ip["from"]]["scenario"], scenarios_dir)
        state, notes = forces_for_battle(c.state, battle, base, source, decline_i_corps)
    except KeyError:
        raise BadInput(f"{b['title']} needs the scenario “{b['scenario']}”, which is not in "
                       "scenarios/blackpowder/ yet.") from None
    except (RuleError, DataError) as e:
        raise BadInput(str(e)) from None
    if notes:
        state.setdefault("scenario", {})
        state["scenario"] = {**state["scenario"], "notes": list(state["scenario"].get("notes", [])) + notes}
    name = f"{c.name}: {b['title']}"
    state["name"] = name
    state[MARK] = {"campaign_id": c.id, "battle": battle, "watch": hd_links.watch(c.state, battle)}
    return state, notes, name


def record_start(session, c, seen_version, who, step, name, system, state, pieces, weapons, notes,
                 commit: bool = True) -> Game:
    """The game's row, its link to the campaign and the campaign step that records it, in one
    transaction (``commit=False``: left open for a caller starting more than one)."""
    if seen_version != c.version:
        raise CampaignStale(c.version)
    versions = _versions(session, c)
    try:
        game = _new_game_row(session, name, system, state, who)
        session.add(CampaignGame(campaign_id=c.id, game_id=game.id, step=step, roster_versions=versions))
        perform(session, c.id, seen_version, "game_started",
                {"step": step, "game_id": game.id, "name": name, "roster_versions": versions, "pieces": pieces,
                 "weapons": weapons, "notes": notes[:60]}, who=who, commit=False)
    except Exception:
        session.rollback()  # the game and the step that records it land together or not at all
        raise
    if commit:
        session.commit()
        session.refresh(game)
    return game


# --- a finished game read into the campaign ---------------------------------------------------------

def active_log(session: Session, game_id: int) -> list[dict]:
    rows = session.exec(select(LogEntry).where(LogEntry.game_id == game_id, LogEntry.undone == False,  # noqa: E712
                                               LogEntry.discarded == False).order_by(LogEntry.seq)).all()  # noqa: E712
    return [{"facts": r.facts, "changes": r.changes} for r in rows]


def begin_aftermath(session: Session, campaign_id: int, seen_version: int, who: str = ""):
    c = get_campaign(session, campaign_id)
    playing = [(k, g) for k, g in c.state.get("games", {}).items() if g["status"] == "playing"]
    if not playing:
        raise BadInput("No engagement is waiting for its Aftermath.")
    step, g = playing[0]
    game = get_game(session, g["game_id"])
    try:
        report = oi.read_engagement(game.state, active_log(session, game.id), g["pieces"], g["weapons"])
    except RuleError as e:
        raise BadInput(str(e)) from None
    return perform(session, c.id, seen_version, "begin_aftermath", {"step": step, "report": report}, who=who)


def record_battle(session: Session, campaign_id: int, seen_version: int, battle: str, facts: dict, who: str = ""):
    c = get_campaign(session, campaign_id)
    b = c.state["battles"].get(battle)
    if b is None or b["status"] != "playing":
        raise BadInput(f"“{battle}” is not a battle being fought in this campaign.")
    game = get_game(session, b["game_id"])
    try:
        report = hd.read_battle(game.state)
    except RuleError as e:
        raise BadInput(str(e)) from None
    return perform(session, c.id, seen_version, "record_result", {**facts, "battle": battle, "report": report}, who=who)
