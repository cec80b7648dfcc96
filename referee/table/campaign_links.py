"""A campaign's links between its tables, followed from the game's one write path.

A Hundred Days battle started from a campaign carries a mark in its document
(``campaign_link``: the campaign and the battle's key). The game's write path
(:mod:`referee.table.service`) asks this module, for a marked game only:

- :func:`turn_for`: the campaign's turn (``write_lock.turn_of(Campaign, id)``), taken after the game's
  own turn and held for the whole write. **The order is always the game's turn, then the
  campaign's**, never a second game's: a write that reaches another table writes that game's row
  through its version check without taking its turn, so two tables of one campaign writing at the
  same instant take turns (the second waits, then is refused as stale if the first changed its
  game), and no two writes wait on each other. Across server processes the version checks on the
  game rows and the campaign row refuse the later write whole.
- :func:`check`: whether the action may be taken at all (Wavre waits for Waterloo's turn 2).
- :func:`follow`: after the action's own write, in its transaction: what it did to the other
  table and to the campaign (I Corps arriving takes it out of the other battle's reserves, with
  an entry in that battle's log; a breakthrough at Wavre puts a choice on the Coalition), written
  before the one commit, so the action and its consequences land together or not at all.
- :func:`before_undo`: undoing an entry that reached another table takes the consequence back
  there too, or is refused with the reason when a later action at that table depends on it.

The campaign's own rules are pure (:mod:`referee.campaigns.hundred_days_links`); this module
reads and writes rows. It does not import the game's write path (which imports it): the two
writes it needs (a versioned row, a log entry) are handed to it.
"""
from __future__ import annotations

from contextlib import nullcontext
from typing import Any, Callable

from sqlmodel import Session, select

from ..campaigns import hundred_days_links as hl
from ..campaigns.common import builder
from ..core.docstate import apply_changes, get_path, revert_changes
from ..core.errors import RuleError
from ..core.results import Change
from ..core.words import counted
from .campaign_rows import Campaign, CampaignLogEntry
from .models import Game, LogEntry
from .write_lock import turn_of, version_now

MARK = "campaign_link"
LINK_ACTION = "campaign_link"
# What a battle that must wait for another may still do: the umpire's corrections and settings.
WHILE_WAITING = ("adjust_unit", "adjust_brigade", "change_setting", "commander_gifts")

Write = Callable[[Session, Any, int, dict], int]
Record = Callable[..., LogEntry]


def mark_of(state: dict) -> dict | None:
    return state.get(MARK)


def turn_for(session: Session, game_id: int):
    """The campaign's turn for a write to this game, or nothing when the game is not linked."""
    game = session.get(Game, game_id)
    mark = mark_of(game.state) if game is not None else None
    return turn_of(Campaign, mark["campaign_id"]) if mark else nullcontext()


def _campaign(session: Session, state: dict, game_id: int) -> tuple[Campaign | None, str]:
    """The campaign this game is a battle of, and the battle's key; none when the game is no
    longer the battle's (its start undone, the campaign gone)."""
    mark = mark_of(state)
    if not mark:
        return None, ""
    c = session.get(Campaign, mark["campaign_id"])
    if c is None or c.kind != "hundred_days":
        return None, ""
    version_now(session, c)
    if c.state.get("battles", {}).get(mark["battle"], {}).get("game_id") != game_id:
        return None, ""
    return c, mark["battle"]


def fresh_game(session: Session, game_id: int | None) -> Game | None:
    g = session.get(Game, game_id) if game_id else None
    if g is not None:
        version_now(session, g)
    return g


def check(session: Session, game: Game, action: str) -> None:
    """Refuse (RuleError) an action the links forbid now."""
    state = game.state
    if MARK not in state or state.get("turn", 1) > 1 or action in WHILE_WAITING or \
            not state[MARK].get("watch", {}).get("follows", True):
        return
    c, key = _campaign(session, state, game.id)
    if c is None:
        return
    late = hl.plan_links(c.state).get("late_start") or {}
    if late.get("battle") != key:
        return
    leader = fresh_game(session, c.state["battles"].get(late.get("behind"), {}).get("game_id"))
    refusal = hl.late_start_refusal(c.state, key, state.get("turn", 1), leader.state.get("turn", 1) if leader else None)
    if refusal:
        raise RuleError(refusal)


def _next_seq(session: Session, game_id: int) -> int:
    last = session.exec(select(LogEntry.seq).where(LogEntry.game_id == game_id)
                        .order_by(LogEntry.seq.desc()).limit(1)).first()
    return (last or 0) + 1


def write_campaign(session: Session, c: Campaign, changes: list[Change], label: str, summary: str,
                    facts: dict, write: Write, notes: list[str] | None = None) -> None:
    """The campaign's new state and its log entry, in the transaction of the game's write."""
    from_seq = session.exec(select(CampaignLogEntry.seq).where(CampaignLogEntry.campaign_id == c.id)
                            .order_by(CampaignLogEntry.seq.desc()).limit(1)).first() or 0
    new_state = apply_changes(c.state, changes)
    version = write(session, c, c.version, new_state)
    table = c.state.get("battles", {}).get(facts.get("battle", ""), {}).get("title")
    session.add(CampaignLogEntry(
        campaign_id=c.id, seq=from_seq + 1, action="link", label=label, who=f"the {table} table" if table else "",
        facts=facts, dice=[], dice_source="manual",
        result={"kind": "link", "summary": summary, "notes": list(notes or [])},
        changes=[ch.to_dict() for ch in changes], version_after=version))


def _links_builder(doc: dict):
    b = builder(doc)
    if "links" not in doc:
        b.set(("links",), hl.empty_links())
    return b


def record_link(session: Session, game: Game, summary: str, changes: list[Change], facts: dict,
                write: Write, record: Record, action: str = LINK_ACTION, label: str = "From the campaign",
                notes: list[str] | None = None) -> int:
    """Write another table's game (its version checked) and its log entry saying where it came
    from. Returns the entry's number."""
    # A record that changes nothing at that table (the breakthrough's table told what it caused)
    # leaves its version alone, so a tap there at the same instant is not refused for it.
    version = write(session, game, game.version, apply_changes(game.state, changes)) if changes else game.version
    seq = _next_seq(session, game.id)
    record(session, game_id=game.id, seq=seq, action=action, label=label, facts=facts, dice=[],
           dice_source="manual", result={"kind": "campaign_link", "summary": summary, "notes": list(notes or [])},
           changes=[ch.to_dict() for ch in changes], version_after=version, actor="")
    return seq


def follow(session: Session, game: Game, seq: int, action: str, before: dict, after: dict,
           changes: list[Change], write: Write, record: Record) -> list[str]:
    """After an action's own write, before its commit: its consequences on the other tables and
    the campaign. Returns lines for its result (what reached where). Raises RuleError to refuse
    the whole action (I Corps already arrived at the other battle)."""
    if not hl.may_link(after[MARK], before, after, action):
        return []
    c, key = _campaign(session, after, game.id)
    if c is None:
        return []
    doc, lines = c.state, []
    b = _links_builder(doc)
    title = doc["battles"][key]["title"]
    ip = hl.i_corps_plan(doc)
    if ip and key in ip.get("battles", []) and hl.i_corps_arrived(before, after, ip["reserve"]):
        at = hl.links_of(doc)["i_corps"].get("at")
        if at and at != key:
            raise RuleError(f"{ip['reserve']} has already arrived at {doc['battles'][at]['title']}: "
                            "it cannot come here too.")
        gone = []
        for other in ip["battles"]:
            ob = doc["battles"].get(other, {})
            og = fresh_game(session, ob.get("game_id")) if other != key and ob.get("status") == "playing" else None
            g = hl.reserve_by_label(og.state, ip["reserve"]) if og is not None else None
            if g is None:
                continue
            if g.get("status") == "arrived":
                raise RuleError(f"{ip['reserve']} has already arrived at {ob['title']}: it cannot come here too.")
            words = f"{ip['reserve']} arrived at {title} (its turn {after.get('turn', 1)}): it is gone from the reserves here"
            oseq = record_link(session, og, words, hl.removal_changes(og.state, g, f"gone to {title}"),
                               {"from": key, "game_id": game.id, "seq": seq}, write, record)
            gone.append({"battle": other, "game_id": og.id, "seq": oseq})
            lines.append(f"{ip['reserve']} is gone from {ob['title']}'s reserves (its log, entry {oseq}).")
        b.set(("links", "i_corps"), {**hl.links_of(b.doc)["i_corps"], "at": key,
                                     "source": {"battle": key, "game_id": game.id, "seq": seq}, "gone_from": gone},
              f"{ip['reserve']} arrived at {title}")
    bp = hl.plan_links(doc).get("breakthroughs") or {}
    if bp.get("from") == key:
        reading = doc["settings"].get("wavre_breakthrough", "shaken_or_broken")
        found = hl.breakthroughs(before, after, action, changes, reading, int(bp.get("turn", 2)))
        if found:
            listed = list(hl.links_of(b.doc)["breakthroughs"])
            to = doc["battles"][bp["to"]]["title"]
            for f in found:
                listed.append({**f, "id": f"{game.id}-{seq}-{f['unit']}", "from": key, "game_id": game.id, "seq": seq,
                               "turn": before.get("turn", 1), "status": "pending", "choice": None})
                lines.append(f"French breakthrough at {title}: {f['name']} {f['how']}. The Coalition chooses which "
                             f"{bp['reinforcements']} unit arrives disordered at {to}.")
            b.set(("links", "breakthroughs"), listed, f"{counted(len(found), 'breakthrough')} at {title}")
    if b.changes:
        write_campaign(session, c, list(b.changes), f"Link from {title}", "; ".join(lines) or f"Link from {title}",
                        {"battle": key, "game_id": game.id, "seq": seq}, write, lines)
    return lines


# --- undo ------------------------------------------------------------------------------------------

def _later_touching(session: Session, game_id: int, seq: int, paths: set[tuple]) -> list[LogEntry]:
    """Entries in force after ``seq`` in that game's log whose changes touch one of ``paths``."""
    rows = session.exec(select(LogEntry).where(LogEntry.game_id == game_id, LogEntry.seq > seq,
                                               LogEntry.undone == False, LogEntry.discarded == False)  # noqa: E712
                        .order_by(LogEntry.seq)).all()
    out = []
    for r in rows:
        for ch in r.changes:
            p = tuple(ch["path"])
            if any(p[:len(q)] == q or q[:len(p)] == p for q in paths):
                out.append(r)
                break
    return out


def take_back(session: Session, game_id: int, seq: int, write: Write, why: str) -> None:
    """Take one entry of another table's log back (undone, and never to be redone), refused when
    a later action in force there touched what it changed."""
    og = fresh_game(session, game_id)
    entry = session.exec(select(LogEntry).where(LogEntry.game_id == game_id, LogEntry.seq == seq)).first()
    if og is None or entry is None or entry.undone:
        return
    changes = [Change.from_dict(x) for x in entry.changes]
    later = _later_touching(session, game_id, seq, {tuple(ch.path[:2]) for ch in changes})
    if later:
        raise RuleError(f"{why}, and {og.name} has acted on it since (“{later[0].label or later[0].action}”, "
                        f"entry {later[0].seq}): undo that there first. Nothing was changed.")
    if any(get_path(og.state, ch.path) != ch.after for ch in changes):
        raise RuleError(f"{why}, and {og.name} no longer holds what it changed: nothing was changed.")
    write(session, og, og.version, revert_changes(og.state, changes))
    entry.undone, entry.discarded = True, True
    session.add(entry)


def before_undo(session: Session, game: Game, entry: LogEntry, write: Write) -> None:
    """Before an entry of a linked game is undone: its consequences at the other tables taken
    back, or the undo refused (RuleError) with the reason."""
    c, key = _campaign(session, game.state, game.id)
    if c is None:
        return
    doc = c.state
    links = hl.links_of(doc)
    b = _links_builder(doc)
    title = doc["battles"][key]["title"]
    words = []
    if entry.action == LINK_ACTION and entry.facts.get("from") and not entry.facts.get("choice"):
        src = doc["battles"].get(entry.facts["from"], {}).get("title", entry.facts["from"])
        raise RuleError(f"This came from {src}: undo it there (the action that caused it), not here.")
    ic = links["i_corps"]
    if (ic.get("source") or {}).get("game_id") == game.id and ic["source"]["seq"] == entry.seq:
        for g in ic.get("gone_from", []):
            take_back(session, g["game_id"], g["seq"], write,
                      f"Undoing this brings I Corps back to {doc['battles'][g['battle']]['title']}'s reserves")
        b.set(("links", "i_corps"), {**ic, "at": None, "source": None, "gone_from": []},
              f"I Corps's arrival at {title} undone")
        words.append(f"I Corps's arrival at {title} undone: it is back in the other battle's reserves.")
    listed, changed = [], False
    for bt in links["breakthroughs"]:
        choice = bt.get("choice") or {}
        if bt["game_id"] == game.id and bt["seq"] == entry.seq:  # the breakthrough itself is undone
            if bt["status"] == "chosen":
                take_back(session, choice["game_id"], choice["seq"], write,
                          f"Undoing this takes back {choice['name']}'s disruption at "
                          f"{doc['battles'][choice['battle']]['title']}")
                _drop_record(session, choice)
            words.append(f"The breakthrough of {bt['name']} at {title} is undone.")
            changed = True
            continue
        if bt["status"] == "chosen" and (
                (choice.get("game_id") == game.id and choice.get("seq") == entry.seq) or
                ((choice.get("record") or {}).get("game_id") == game.id and choice["record"].get("seq") == entry.seq)):
            if choice.get("game_id") != game.id:  # undone from the breakthrough's table: take it back at the other
                take_back(session, choice["game_id"], choice["seq"], write,
                          f"Undoing this takes back {choice['name']}'s disruption at "
                          f"{doc['battles'][choice['battle']]['title']}")
            else:
                _drop_record(session, choice)
            entry.discarded = True  # put back only by choosing again, never by a redo
            bt = {**bt, "status": "pending", "choice": None}
            words.append(f"{choice['name']}'s disruption is undone: the Coalition chooses again.")
            changed = True
        listed.append(bt)
    if changed:
        b.set(("links", "breakthroughs"), listed, f"Breakthroughs: undone at {title}")
    if b.changes:
        write_campaign(session, c, list(b.changes), f"Undone at {title}", " ".join(words),
                        {"battle": key, "game_id": game.id, "seq": entry.seq, "undo": True}, write)


def _drop_record(session: Session, choice: dict) -> None:
    """The breakthrough's table's record of a disruption, once the disruption is taken back."""
    where = choice.get("record") or {}
    rec = session.exec(select(LogEntry).where(LogEntry.game_id == where.get("game_id"),
                                              LogEntry.seq == where.get("seq"))).first()
    if rec is not None and not rec.undone:
        rec.undone, rec.discarded = True, True
        session.add(rec)
