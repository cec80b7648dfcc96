"""What the benchmark's tablets play: games started through the app's own start forms, and the
taps two umpires make on them, chosen by reading the game as it stands (as a player reads the
board) and sent through the real action forms.
"""
from __future__ import annotations

import html
import json
import re
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from tablets import Answer, Tablet, Timings

GAME_ADDRESS = re.compile(r"/games/(\d+)")
REFUSAL = re.compile(r'<p class="message" role="alert">(.*?)</p>', re.S)

# A brigade's lines (profile, how many): 15 units; ten brigades a side make a 300-unit battle.
BRIGADE_LINES = {
    "blue": [("british-line-infantry", 8), ("british-light-infantry", 4), ("royal-artillery", 3)],
    "red": [("french-line-infantry", 8), ("french-light-infantry", 4), ("french-line-foot-artillery", 3)],
}
# The same brigade cut down: two brigades a side make a 20-unit battle.
SMALL_LINES = {
    "blue": [("british-line-infantry", 3), ("british-light-infantry", 1), ("royal-artillery", 1)],
    "red": [("french-line-infantry", 3), ("french-light-infantry", 1), ("french-line-foot-artillery", 1)],
}
NATIONS = {"blue": "british", "red": "french"}
# Where damage beyond a destroyed location goes, in the defender's order, given on every form that
# asks for it (an activation, an attack, a heat roll), as a player who knows his choice fills it
# in. Without it, damage that overflows is refused until the defender chooses, and the
# benchmark's attack went untimed one to five times a run.
OVERFLOW = ["hull", "arms", "legs", "engine"]
# Every Rig of the 6-a-side engagement carries the Rotary Gun: ROF 4, Full Auto +2.
RIG = {"chassis": "example_medium_brawler", "engine": "example_standard_diesel",
       "weapons": ["example_rotary_gun", "example_autocannon"]}


def _started(answer: Answer, what: str) -> int:
    if answer.status != 303:
        raise RuntimeError(f"starting {what} answered {answer.status}: {answer.text[:400]}")
    m = GAME_ADDRESS.search(answer.headers.get("location", ""))
    if not m:
        raise RuntimeError(f"starting {what} sent the tablet to {answer.headers.get('location')!r}")
    return int(m.group(1))


def start_battle(t: Tablet, name: str, brigades: int, lines: dict) -> int:
    """A Black Powder battle from two forces typed into the start form."""
    t.open_page("/games/new/forces")
    form = [("csrf_token", t.csrf), ("name", name)]
    for side in ("blue", "red"):
        form += [(f"{side}-n", str(brigades)), (f"{side}-name", NATIONS[side].title()),
                 (f"{side}-nation", NATIONS[side]), (f"{side}-general", f"{side.title()} general"),
                 (f"{side}-general-rating", "8")]
        for b in range(brigades):
            key = f"{side}-b{b}"
            form += [(f"{key}-n", str(len(lines[side]))), (f"{key}-name", f"{side.title()} brigade {b + 1}"),
                     (f"{key}-commander", f"Colonel {b + 1}"), (f"{key}-rating", "8")]
            for i, (profile, count) in enumerate(lines[side]):
                form += [(f"{key}-u{i}-profile", profile), (f"{key}-u{i}-name", ""),
                         (f"{key}-u{i}-count", str(count))]
    return _started(t.request("POST", "/games/new/forces", form=form), name)


def start_scenario(t: Tablet, scenario: str) -> str:
    """A Black Powder battle from the scenario list, as a player starts one; its board's path."""
    t.open_page("/games/new")
    answer = t.request("POST", "/games/new", form=[("csrf_token", t.csrf), ("scenario", scenario)])
    path = urlsplit(answer.headers.get("location", "")).path
    if answer.status != 303 or not GAME_ADDRESS.fullmatch(path):
        raise SystemExit(f"starting the scenario {scenario!r} answered {answer.status}: {answer.text[:300]}")
    return path


def start_engagement(t: Tablet, rigs_a_side: int) -> int:
    """An Of Oil and Iron engagement from two squadrons typed into the start form."""
    t.open_page("/games/new/oilandiron")
    form = [("csrf_token", t.csrf), ("name", "Benchmark clash"), ("engagement", "iron_clash"), ("aggressor", "p1")]
    for side in ("p1", "p2"):
        form += [(f"{side}-name", f"Squadron {side[-1]}"), (f"{side}-n", str(rigs_a_side))]
        for i in range(rigs_a_side):
            key = f"{side}-r{i}"
            form += [(f"{key}-name", f"Rig {i + 1}"), (f"{key}-chassis", RIG["chassis"]),
                     (f"{key}-engine", RIG["engine"])]
            form += [(f"{key}-w{s}", w) for s, w in enumerate(RIG["weapons"])]
    return _started(t.request("POST", "/games/new/oilandiron", form=form), "the engagement")


class Board:
    """The game as it stands, read from the database (what the players see on the table): an
    SQLite file's path, or ``url`` (any SQLAlchemy database URL: the same run on PostgreSQL)."""

    def __init__(self, db_path: str, url: str = "") -> None:
        self.db_path = db_path
        self.engine = None
        if url:
            from sqlalchemy import create_engine
            self.engine = create_engine(url, pool_size=2, max_overflow=20)

    def state(self, game_id: int) -> tuple[int, dict]:
        if self.engine is not None:
            from sqlalchemy import text
            with self.engine.connect() as c:
                version, state = c.execute(text("SELECT version, state FROM game WHERE id = :id"),
                                           {"id": game_id}).one()
        else:
            with sqlite3.connect(self.db_path, timeout=30) as c:
                version, state = c.execute("SELECT version, state FROM game WHERE id = ?", (game_id,)).fetchone()
        return version, state if isinstance(state, dict) else json.loads(state)

    def repeat_log(self, game_id: int, entries: int) -> None:
        """Make a long log quickly: the game's real entries copied until it has ``entries``."""
        with sqlite3.connect(self.db_path, timeout=30) as c:
            cols = [r[1] for r in c.execute("PRAGMA table_info(logentry)") if r[1] != "id"]
            rows = c.execute(f"SELECT {', '.join(cols)} FROM logentry WHERE game_id = ? ORDER BY seq",
                             (game_id,)).fetchall()
            seq_i = cols.index("seq")
            have = len(rows)
            for n in range(have, entries):
                row = list(rows[n % have])
                row[seq_i] = n + 1
                c.execute(f"INSERT INTO logentry ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})", row)
            c.commit()


# --- the umpires' taps -------------------------------------------------------------------------

@dataclass
class Step:
    action: str
    overrides: dict
    prefill: dict = field(default_factory=dict)
    label: str = ""


@dataclass
class Commits:
    """When each new game version was committed (the acting tablet had its answer)."""
    lock: threading.Lock = field(default_factory=threading.Lock)
    at: dict[int, dict[int, float]] = field(default_factory=dict)  # game -> version -> time

    def add(self, game_id: int, version: int | None, when: float) -> None:
        if version is not None:
            with self.lock:
                self.at.setdefault(game_id, {}).setdefault(version, when)


def tap(t: Tablet, game_id: int, step: Step, timings: Timings, commits: Commits) -> Answer:
    """One tap through the form; a write refused as stale is tried again once on the fresh form
    its answer shows, as a player does after the tablet shows the new state."""
    a = None
    for _ in range(2):
        a = t.act(game_id, step.action, step.prefill, step.overrides, timings, label=step.label or step.action,
                  refused=a)
        if a.status == 200:
            commits.add(game_id, a.version, time.monotonic())
        if a.status != 409:
            if a.status >= 400:
                m = REFUSAL.search(a.text)
                timings.refused(step.label or step.action, html.unescape(m.group(1)) if m else f"answered {a.status}")
            return a
    return a


def _in_play(u: dict) -> bool:
    return not (u.get("destroyed") or u.get("off_table"))


def battle_steps(state: dict, turn_no: int) -> list[Step]:
    """What the umpires tap in the current phase of a Black Powder battle."""
    side, phase = state["active_side"], state["phase"]
    units = state["units"]
    fighting = {u for c in (state.get("combats") or {}).values() if c.get("status", "open") == "open"
                for u in c["attackers"] + c["defenders"]}
    mine = [u for u, d in units.items() if d["side"] == side and _in_play(d) and u not in fighting]
    enemy = [u for u, d in units.items() if d["side"] != side and _in_play(d) and u not in fighting]
    shooters = [u for u in mine if units[u].get("shooting") is not None or units[u]["type"] == "artillery"]
    rot = (turn_no * 7) % max(1, len(mine))
    mine = mine[rot:] + mine[:rot]
    steps: list[Step] = []
    if phase == "command":
        steps += [Step("order", {"units": [u], "order": "move"}, {"units": u}) for u in mine[:10]]
        infantry = [u for u in mine[10:] if units[u]["type"] == "infantry"]
        for i, (u, target) in enumerate(zip(infantry[:2], enemy[turn_no * 2:])):
            steps.append(Step("charge", {"chargers": [u], "target": target}, {"chargers": u}))
    elif phase == "shooting":
        steps += [Step("shoot", {"shooter": u, "target": enemy[(i + turn_no) % len(enemy)]}, {"shooter": u})
                  for i, u in enumerate(shooters[:10])]
    elif phase == "hand_to_hand":
        for cid, c in (state.get("combats") or {}).items():
            if c.get("status", "open") != "open":
                continue
            if c.get("awaiting_outcome"):
                steps.append(Step("combat_outcome", {"combat": cid, "choice": "hold"}, {"combat": cid}))
            elif not c.get("fought"):
                steps.append(Step("combat_round", {"combat": cid}, {"combat": cid}))
    return steps


def outcome_steps(state: dict, turn_no: int) -> list[Step]:
    """The winners' choices that combats fought this phase wait for before the phase moves on."""
    if state["phase"] != "hand_to_hand":
        return []
    return [step for step in battle_steps(state, turn_no) if step.action == "combat_outcome"]


def engagement_steps(state: dict) -> list[Step]:
    """What the players tap next in an Of Oil and Iron engagement, one Rig's activation at a time."""
    phase = state.get("phase")
    if state.get("ended"):
        return []
    if phase == "initiative":
        return [Step("initiative", {})]
    rigs = state["rigs"]
    playing = {r: d for r, d in rigs.items() if not (d.get("destroyed") or d.get("exited"))}
    player = state.get("current_player")
    if phase == "maintenance":
        hot = [Step("heat_roll", {"rig": r, "overflow_to": OVERFLOW}, {"rig": r}) for r, d in playing.items()
               if d["heat"] > d["heat_threshold"] and d.get("heat_rolled") != state["round"]]
        scored = state.get("scored_round", 0) >= state["round"]
        return hot + ([] if scored else [Step("score_round", {})]) + [Step("end_round", {})]
    if phase != "activation" or player is None:
        return [Step("end_round", {})]
    active = state.get("active_rig")
    enemy = [r for r, d in playing.items() if d["player"] != player]
    if active is None:
        ready = [r for r, d in playing.items() if d["player"] == player and not d.get("activated")]
        if not ready:
            return [Step("end_round", {})]
        return [Step("activate", {"rig": ready[0], "overflow_to": OVERFLOW}, {"rig": ready[0]})]
    gun = rigs[active]["weapons"].get("example_rotary_gun", {})
    steps = [Step("move", {"rig": active}, {"rig": active}, label="oi:move")]
    if not enemy or gun.get("destroyed") or gun.get("disabled"):
        pass
    elif gun.get("loaded"):
        steps.append(Step("fire_weapon", {"rig": active, "weapon": gun["id"], "target": enemy[0], "in_front_arc": "on",
                                          "in_range": "on", "distance": "close", "overflow_to": OVERFLOW},
                          {"rig": active}, label="oi:attack"))
    else:
        steps.append(Step("reload", {"rig": active}, {"rig": active}))
    return steps + [Step("end_activation", {})]
