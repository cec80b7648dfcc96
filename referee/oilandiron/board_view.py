"""The Of Oil and Iron engagement as the tracker shows it: a card per Rig (structure per location,
the heat gauge with its threshold, actions left, weapons, equipment, status effects), the round and
its phases, the score, the buttons each card draws from the engine's offers (``GAME.offers``), and
what an action form can pick (Rigs, one Rig's weapons or equipment, locations, objectives)."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..core.board import BoardView, Choice, FieldView, Kept
from ..core.contract import Offer
from . import board_scale
from .actions import movement
from .engagements import needs_round_score, standing
from .model import LOCATION_LABELS, LOCATIONS, PHASE_LABELS, PHASES, STATUS_LABELS, Engagement, Rig
from .offers import heat_waiting, offers, weapon_unready
from .perks import PERK_LABELS
from .story import story

DURATION_LABELS = {
    "next_activation": "through its next activation",
    "until_next_activation": "until it next activates",
    "this_activation": "this activation",
    "next_action": "for its next action",
    "until_repaired": "until repaired",
    "permanent": "for good",
}
PLAYER_TONES = {"p1": "blue", "p2": "red"}


def perk_text(perks: dict) -> str:
    out = []
    for key, x in perks.items():
        name = PERK_LABELS.get(key, key.replace("_", " ").title())
        out.append(f"{name} {x}" if x else name)
    return ", ".join(out)


def inches(value) -> str:
    whole, rest = divmod(float(value), 1)
    return f"{int(whole)}½\"" if rest else f"{int(whole)}\""


@dataclass
class LocationBar:
    key: str
    label: str
    sp: int
    max: int
    catastrophic: bool
    pips: list[str]  # "ok" / "lost" per structure point


@dataclass
class HeatGauge:
    heat: int
    threshold: int
    track: int
    floor: int
    locked: bool
    cells: list[dict]  # {"n", "filled", "over"} for spaces 1..track

    @property
    def above(self) -> bool:
        return self.heat > self.threshold


@dataclass
class WeaponLine:
    id: str
    name: str
    mount: str
    profiles: list[str]
    perks: str
    loaded: bool
    ammo_left: int | None
    disabled: bool
    destroyed: bool
    melee: bool
    full_auto: bool
    unready: str | None = None  # why it cannot fire now, as the engine says (None: it can)

    @property
    def state(self) -> str:
        if self.destroyed:
            return "Destroyed"
        if self.disabled:
            return "Disabled"
        if not self.loaded:
            return "Empty — reload"
        return "Loaded"

    @property
    def ready(self) -> bool:
        return self.unready is None


@dataclass
class EquipmentLine:
    key: str
    name: str
    used: bool
    discarded: bool
    action: bool
    heat: int
    note: str

    @property
    def state(self) -> str:
        if self.discarded:
            return "Discarded"
        if self.used:
            return "Used"
        return "Ready"


@dataclass
class RigCard:
    rig: Rig
    player_name: str
    tone: str
    out: bool
    out_word: str
    active: bool
    locations: list[LocationBar]
    heat: HeatGauge
    actions_left: int
    max_actions: int
    weapons: list[WeaponLine]
    equipment: list[EquipmentLine]
    statuses: list[tuple[str, str]]
    speed: str
    tokens: int
    campaign: str = ""  # a campaign's Rig: its experience and rank
    traits: list[tuple[str, str]] = field(default_factory=list)  # its repair traits: (name, effect)
    buttons: list[Offer] = field(default_factory=list)  # what the Rig may do now (the engine's offers)
    facts: dict = field(default_factory=dict)  # the board's data- attributes (board_scale)


def location_bars(rig: Rig) -> list[LocationBar]:
    out = []
    for loc in LOCATIONS:
        sp, top = rig.structure.get(loc, 0), rig.structure_max.get(loc, 0)
        out.append(LocationBar(loc, LOCATION_LABELS[loc], sp, top, rig.is_catastrophic(loc),
                               ["ok" if i < sp else "lost" for i in range(top)]))
    return out


def heat_gauge(rig: Rig) -> HeatGauge:
    cells = [{"n": n, "filled": n <= rig.heat, "over": n > rig.heat_threshold} for n in range(1, rig.heat_track + 1)]
    return HeatGauge(rig.heat, rig.heat_threshold, rig.heat_track, rig.heat_floor, rig.heat_locked, cells)


def weapon_lines(rig: Rig) -> list[WeaponLine]:
    out = []
    for w in rig.weapons.values():
        profiles = [f"{p.get('label') or str(p['range']) + chr(34)}: ROF {p['rof']} STR {p['str']} ACC {p['acc']:+d}"
                    for p in w.profiles]
        out.append(WeaponLine(w.id, w.name, (w.mount or "").title(), profiles, perk_text(w.perks), w.loaded,
                              w.ammo_left, w.disabled, w.destroyed, w.has("melee"), w.has("full_auto"),
                              weapon_unready(w)))
    return out


def equipment_lines(rig: Rig) -> list[EquipmentLine]:
    out = []
    for e in rig.equipment.values():
        bits = []
        if e.once_per_game:
            bits.append("once per game")
        if e.once_per_activation:
            bits.append("once per activation")
        if e.discard:
            bits.append("discard after use")
        if e.action:
            bits.append(f"action, {e.heat} heat")
        if e.weapon and e.weapon in rig.weapons:
            bits.append(f"on {rig.weapons[e.weapon].name}")
        out.append(EquipmentLine(e.key, e.name, e.used, e.discarded, e.action, e.heat, ", ".join(bits)))
    return out


def status_lines(rig: Rig) -> list[tuple[str, str]]:
    return [(STATUS_LABELS.get(k, k.replace("_", " ")), DURATION_LABELS.get(v, str(v).replace("_", " ")))
            for k, v in rig.status.items()]


def speed_line(rig: Rig) -> str:
    m = movement(rig)
    if m["immobilised"]:
        return f"Immobilised: pivot only ({m['pivots']} × 90°)"
    return f"Move {inches(m['forward'])} · backpedal/side-step at half · {m['pivots']} pivots"


def campaign_line(rig: Rig) -> str:
    c = rig.campaign
    if not c or c.get("xp") is None:
        return ""
    return f"XP {c['xp']}" + (f" · {c['rank']}" if c.get("rank") else "")


def card(eng: Engagement, rig: Rig) -> RigCard:
    out_word = "Destroyed" if rig.destroyed else "Left the table" if rig.exited else ""
    c = RigCard(rig, eng.player_name(rig.player), PLAYER_TONES.get(rig.player, ""), not rig.in_play, out_word,
                eng.active_rig == rig.id, location_bars(rig), heat_gauge(rig), rig.actions_left, rig.max_actions,
                weapon_lines(rig), equipment_lines(rig), status_lines(rig), speed_line(rig),
                len(rig.prepare_tokens), campaign_line(rig),
                [(t["name"], t["effect"]) for t in rig.campaign.get("traits", [])])
    c.buttons = [o for o in offers(eng.doc, rig.id) if o.allowed]
    c.facts = board_scale.rig_facts(eng, rig)
    return c


# --- the round, the score, the game-wide buttons -------------------------------------------------

def phases(eng: Engagement) -> list[dict]:
    return [{"key": p, "label": PHASE_LABELS[p], "current": eng.phase == p and not eng.ended} for p in PHASES]


def turn_line(eng: Engagement) -> str:
    """Whose move it is, in one line."""
    if eng.ended:
        return "The engagement is over."
    if eng.phase == "initiative":
        return f"Round {eng.round}: roll for initiative."
    if eng.phase == "activation":
        if eng.active_rig:
            rig = eng.rig(eng.active_rig)
            left = f"{rig.actions_left} action{'' if rig.actions_left == 1 else 's'} left"
            return f"{rig.name} ({eng.player_name(rig.player)}) is activated: {left}."
        if eng.current_player:
            return f"{eng.player_name(eng.current_player)} activates a Rig."
    if eng.phase == "maintenance":
        waiting = heat_waiting(eng)
        if waiting:
            return "Maintenance: Heat Threshold rolls for " + ", ".join(r.name for r in waiting) + "."
        if needs_round_score(eng):
            return f"Maintenance: score round {eng.round}, then end the round."
        return "Maintenance: end the round."
    return ""


def game_buttons(eng: Engagement) -> list[Offer]:
    """The round's own steps open now (supply drop, initiative, scoring, ending the round)."""
    return [o for o in offers(eng.doc, "") if o.allowed]


def score(eng: Engagement) -> dict:
    s = standing(eng, final=eng.ended)
    etype = eng.rules
    result = eng.doc.get("result") or {}
    return {
        "type": etype, "vp": s["vp"], "lines": s["lines"],
        "players": [{"id": pid, "name": p.name, "role": p.role, "vp": s["vp"].get(pid, 0),
                     "tone": PLAYER_TONES[pid], "current": eng.current_player == pid}
                    for pid, p in eng.players.items()],
        "result": result.get("text", ""),
    }


def objectives(eng: Engagement) -> list[dict]:
    out = []
    for o in eng.objectives.values():
        bits = []
        if o.owner and eng.player_name(o.owner) not in o.name:
            bits.append(eng.player_name(o.owner) + "'s")
        if o.attackable:
            bits.append(f"{o.structure}/{o.structure_max} SP")
        if o.destroyed:
            bits.append("destroyed")
        if o.controlled_by:
            bits.append(f"held by {eng.player_name(o.controlled_by)}")
        if o.collected_by:
            bits.append("salvage taken")
        out.append({"id": o.id, "name": o.name, "detail": " · ".join(bits), "destroyed": o.destroyed})
    return out


def sides(eng: Engagement) -> list[dict]:
    """Each player's Rig cards; the activated Rig is left out here, it is shown on top (``active_card``)."""
    return [{"id": pid, "name": p.name, "role": p.role, "tone": PLAYER_TONES[pid],
             "cards": [card(eng, r) for r in eng.rigs_of(pid) if r.id != eng.active_rig],
             "line": board_scale.squadron_line(eng, pid)}
            for pid, p in eng.players.items()]


def active_card(eng: Engagement) -> RigCard | None:
    rig = eng.rigs.get(eng.active_rig) if eng.active_rig else None
    return card(eng, rig) if rig is not None else None


# --- what a form field can pick ------------------------------------------------------------------

def _rig_detail(rig: Rig) -> str:
    if not rig.in_play:
        return "destroyed" if rig.destroyed else "left the table"
    sp = " ".join(f"{LOCATION_LABELS[loc][0]}{rig.structure[loc]}" for loc in LOCATIONS)
    return f"{sp} · heat {rig.heat}/{rig.heat_threshold}"


def _form_rig(eng: Engagement, view: FieldView) -> Rig | None:
    rid = view.of_value or eng.active_rig
    return eng.rigs.get(rid) if rid else None


def choices_for(eng: Engagement, view: FieldView) -> list[Choice] | None:
    if view.ref == "rig":
        mover = eng.current_player or (eng.rig(eng.active_rig).player if eng.active_rig else None)
        if view.side == "active" and mover:
            wanted = [mover]
        elif view.side == "enemy" and mover:
            wanted = [eng.other(mover)]
        else:
            wanted = list(eng.players)
        chosen = view.chosen()
        return [Choice(r.id, r.name, _rig_detail(r), eng.player_name(r.player), PLAYER_TONES.get(r.player, ""))
                for pid in wanted for r in eng.rigs_of(pid) if r.in_play or r.id in chosen]
    if view.ref == "weapon":
        rig = _form_rig(eng, view)
        if rig is None:
            return []
        return [Choice(w.id, w.name, w.state, rig.name) for w in weapon_lines(rig)]
    if view.ref == "equipment":
        rig = _form_rig(eng, view)
        if rig is None:
            return []
        return [Choice(e.key, e.name, e.state if not e.note else f"{e.state} · {e.note}", rig.name)
                for e in equipment_lines(rig)]
    if view.ref == "location":
        rig = _form_rig(eng, view) if view.of else None
        return [Choice(loc, LOCATION_LABELS[loc],
                       f"{rig.structure[loc]}/{rig.structure_max[loc]} SP" if rig is not None else "")
                for loc in LOCATIONS]
    if view.ref == "objective":
        return [Choice(o["id"], o["name"], o["detail"]) for o in objectives(eng)]
    return None


def context(eng: Engagement, kept: Kept) -> dict:
    """The board's parts: a card per Rig by squadron, the active Rig, the round and its phases,
    the round bar's buttons, the score and the objectives."""
    return {"eng": eng, "sides": sides(eng), "active_card": active_card(eng), "phases": phases(eng),
            "turn_line": turn_line(eng), "game_buttons": game_buttons(eng), "score": score(eng),
            "objectives": objectives(eng), "board": board_scale.rig_board(eng)}


def panel(eng: Engagement, rig_id: str) -> dict | None:
    """One Rig's card, large (None: no such Rig)."""
    rig = eng.rigs.get(rig_id)
    return None if rig is None else {"card": card(eng, rig)}


def report(s: dict) -> dict:
    """The after-action report: each player's Rigs, Victory Points and losses, and the result."""
    players = []
    for pid, p in s.get("players", {}).items():
        rigs = [r for r in s.get("rigs", {}).values() if r["player"] == pid]
        players.append({"name": p["name"], "vp": p.get("vp", 0), "rigs": rigs,
                        "lost": sum(1 for r in rigs if r.get("destroyed"))})
    return {"players": players, "result": (s.get("result") or {}).get("text") or "No result recorded"}


BOARD = BoardView(
    read=Engagement.from_doc, context=context, card=panel, report=report, story=story, missing="There is no Rig “{}” in this engagement.",
    choices=lambda eng, view, kept: choices_for(eng, view),
    parts="oilandiron/board.html",
    waiting=lambda doc: turn_line(Engagement.from_doc(doc)),
    # Everything a Rig card or the round bar offers; the menu keeps the umpire's corrections.
    menu_skips=("dice_mode", "change_setting", "initiative", "supply_airdrop", "activate", "end_activation",
                "move", "fire_weapon", "called_shot", "ram", "reload", "repair", "prepare", "shut_down",
                "use_equipment", "collect_salvage", "heat_roll", "score_round", "end_round"),
)
