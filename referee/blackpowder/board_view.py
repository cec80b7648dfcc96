"""The Black Powder battle as the board shows it: sides, brigades, unit cards, combats, the turn
sequence, and the things an action form can pick (units, brigades, combats)."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..core.board import BoardView, Choice, FieldView, Kept
from . import reserves, scenario_view
from .adjust import allowed_formations
from .board_scale import BattleFacts, board, unit_index
from .break_tests import commander_counts, von_zieten_present
from .model import FORMATIONS, PHASE_LABELS, PHASES, SIDES, Battle, Unit
from .special_rules import describe as describe_rule
from .story import story


def unit_state(unit: Unit) -> str:
    """One line of what matters about a unit right now."""
    bits = [FORMATIONS.get(unit.formation, unit.formation)]
    if unit.stamina is not None:
        bits.append(f"{unit.casualties}/{unit.stamina} casualties")
    for flag, word in ((unit.shaken, "shaken"), (unit.disordered, "disordered"),
                       (unit.in_combat, "in combat"), (unit.off_table, "off table"),
                       (unit.destroyed, "destroyed")):
        if flag:
            bits.append(word)
    return " · ".join(bits)


def unit_badges(unit: Unit) -> list[tuple[str, str]]:
    """(css class, word) for each state worth a badge."""
    out = []
    for flag, cls, word in ((unit.awaiting, "off", "Not yet arrived"),
                            (unit.destroyed, "destroyed", "Destroyed"), (unit.off_table, "off", "Off table"),
                            (unit.shaken, "shaken", "Shaken"), (unit.disordered, "disordered", "Disordered"),
                            (unit.in_combat, "combat", "In combat")):
        if flag:
            out.append((cls, word))
    if unit.carried:
        out.append(("carried", f"{unit.carried} lost before this battle"))
    return out


def stat_text(value, suffix: str = "") -> str:
    return "–" if value is None else f"{value}{suffix}"


@dataclass
class UnitCard:
    unit: Unit
    badges: list[tuple[str, str]]
    pips: list[str]  # "hit" / "free" per Stamina point, "over" beyond it
    shooting: str
    morale: str
    stamina: str
    formation: str
    rules: list[tuple[str, str]]  # (rule, description)
    facts: dict = field(default_factory=dict)  # the board's data- attributes (board_scale)


@dataclass
class BrigadeView:
    id: str
    name: str
    broken: bool
    commander: object
    cards: list[UnitCard] = field(default_factory=list)
    facts: dict = field(default_factory=dict)  # its folded line (board_scale)


@dataclass
class SideView:
    id: str
    name: str
    general: object
    army_broken: bool
    brigades: list[BrigadeView]
    active: bool

    @property
    def broken_count(self) -> int:
        return sum(1 for b in self.brigades if b.broken)

    @property
    def waiting_count(self) -> int:
        """Brigades none of whose units has arrived yet (reserves.py): not yet in the count."""
        return sum(1 for b in self.brigades if b.cards and all(c.unit.awaiting for c in b.cards))

# Guns shoot by range band, not a fixed number: the card shows the dice as the army lists print them.
ARTILLERY_DICE = {"foot": "3-2-1", "horse": "3-2-1", "howitzer": "2", "rocket": "1"}


def card(unit: Unit) -> UnitCard:
    pips = []
    if unit.stamina is not None:
        pips = ["hit" if i < unit.casualties else "free" for i in range(unit.stamina)]
        pips += ["over"] * unit.excess_casualties
    rules = [(r, describe_rule(r)) for r in unit.special_rules]
    shooting = ARTILLERY_DICE.get(unit.artillery_kind, "3-2-1") if unit.is_artillery and unit.shooting is None \
        else stat_text(unit.shooting)
    return UnitCard(unit, unit_badges(unit), pips, shooting, stat_text(unit.morale, "+"),
                    stat_text(unit.stamina), FORMATIONS.get(unit.formation, unit.formation), rules)


def _same(kept, now) -> bool:
    """A document is the one something was built from: the very object (the usual case, see
    ``sides``) or, read afresh, an equal one."""
    return kept is now or kept == now


def sides(battle: Battle, kept_cards: dict | None = None, kept_brigades: dict | None = None) -> list[SideView]:
    """The sides, their brigades and unit cards. ``kept_cards`` and ``kept_brigades`` (a game's
    stores, ``kept.kept_for``) hold what was built for the version before: a unit whose document
    and board facts are what they were keeps its card, and a brigade whose document and cards are
    all the very ones kept keeps its view, so a shot on 300 units builds two cards, not 300.
    Documents are compared by identity first: the engines change state copy-on-write, and the
    state column hands back the same document for the same version (table/state_column.py)."""
    facts = BattleFacts(battle)
    kept_cards = {} if kept_cards is None else kept_cards
    kept_brigades = {} if kept_brigades is None else kept_brigades
    raw_units = battle.doc.get("units", {})
    raw_brigades = battle.doc.get("brigades", {})
    out = []
    for side_id in SIDES:
        side = battle.sides.get(side_id)
        if side is None:
            continue
        brigades = []
        for bid, braw in raw_brigades.items():
            if braw.get("side") != side_id:
                continue
            cards = []
            for uid in battle.unit_ids_of_brigade(bid):
                raw, key = raw_units[uid], facts.key(uid, raw_units[uid])
                found = kept_cards.get(uid)
                if found is not None and _same(found[0], raw) and found[1] == key:
                    cards.append(found[2])
                    continue
                unit = battle.units[uid]
                c = card(unit)
                c.facts = facts.unit(unit)
                kept_cards[uid] = (raw, key, c)
                cards.append(c)
            found = kept_brigades.get(bid)
            if (found is not None and _same(found[0], braw) and len(found[1]) == len(cards)
                    and all(a is b for a, b in zip(found[1], cards))):
                brigades.append(found[2])
                continue
            b = battle.brigades[bid]
            bv = BrigadeView(b.id, b.name, b.broken, b.commander, cards)
            bv.facts = facts.brigade(b, [c.unit for c in cards])
            bv.facts["index"] = unit_index(cards)
            kept_brigades[bid] = (braw, tuple(cards), bv)
            brigades.append(bv)
        out.append(SideView(side_id, side.name, side.general, side.army_broken, brigades,
                            battle.active_side == side_id))
    return out


def sequence(battle: Battle) -> list[dict]:
    """The six steps of a turn, the current one marked."""
    steps = []
    for side_id in SIDES:
        name = battle.sides[side_id].name if side_id in battle.sides else side_id.title()
        for phase in PHASES:
            steps.append({"side": side_id, "side_name": name, "phase": phase, "label": PHASE_LABELS[phase],
                          "current": battle.active_side == side_id and battle.phase == phase})
    return steps


def combats(battle: Battle) -> list[dict]:
    """Open combats, each with its two sides named."""
    out = []
    for cid, rec in (battle.doc.get("combats") or {}).items():
        if rec.get("status") != "open":
            continue
        # A unit broken in the last round stays on the record until the winners choose: say so.
        names = {k: [battle.units[u].name + ("" if battle.units[u].in_play else " (removed)")
                     for u in rec.get(k, []) if u in battle.units]
                 for k in ("attackers", "defenders")}
        out.append({"id": cid, "round": rec.get("round", 1), "attackers": names["attackers"],
                    "defenders": names["defenders"], "awaiting_outcome": rec.get("awaiting_outcome", False),
                    "fought_now": rec.get("fought") == [battle.turn, battle.active_side],
                    "label": f"{', '.join(names['attackers'])} against {', '.join(names['defenders'])}"})
    return out


def _unit_choice(battle: Battle, unit: Unit) -> Choice:
    tone = "shaken" if unit.shaken else "disordered" if unit.disordered else unit.side
    side = battle.sides.get(unit.side)
    brigade = battle.brigades.get(unit.brigade)
    return Choice(unit.id, unit.name, unit_state(unit), side.name if side else unit.side, tone,
                  brigade.name if brigade else "")


class _UnitChoices:
    """Each unit as a chip, kept in a game's store (``kept.kept_for``) while its document is the
    same: a form listing three hundred targets builds only the chips of units that changed."""

    def __init__(self, battle: Battle, kept: dict | None):
        self.battle, self.kept = battle, ({} if kept is None else kept)
        self.raw = battle.doc.get("units", {})

    def one(self, uid: str) -> tuple[Choice, bool]:
        """The unit's chip, and whether it is in play."""
        raw = self.raw[uid]
        side = self.battle.sides.get(raw.get("side"))
        side_name = side.name if side else raw.get("side")
        found = self.kept.get(uid)
        if found is not None and _same(found[0], raw) and found[1] == side_name:
            return found[2], found[3]
        unit = self.battle.units[uid]
        made = (_unit_choice(self.battle, unit), unit.in_play)
        self.kept[uid] = (raw, side_name, *made)
        return made

    def listed(self) -> dict[str, list[tuple[str, Choice, bool]]]:
        """Every unit's chip by side, in the battle's order, with whether it is in play: worked out
        once for a units document and the sides' names, then shared by every pick list of every
        form drawn from that version."""
        names = tuple((k, s.name) for k, s in self.battle.sides.items())
        found = self.kept.get(_LISTED)
        if found is not None and found[0] is self.raw and found[1] == names:
            return found[2]
        listed = self._listed_again(found[0], found[2]) if found is not None and found[1] == names else None
        if listed is None:
            listed = {}
            for uid, raw in self.raw.items():
                choice, in_play = self.one(uid)
                listed.setdefault(raw.get("side"), []).append((uid, choice, in_play))
        self.kept[_LISTED] = (self.raw, names, listed)
        return listed

    def _listed_again(self, was_raw: dict, was: dict) -> dict[str, list[tuple[str, Choice, bool]]] | None:
        """The listing of the version before, with the chips made again of the units whose
        documents are not the very ones it was made from (an action changes a few of three
        hundred); None when units came, went or moved (then everything is listed afresh)."""
        if list(was_raw) != list(self.raw):
            return None
        listed: dict[str, list[tuple[str, Choice, bool]]] = {}
        for side, entries in was.items():
            now = listed[side] = []
            for entry in entries:
                uid = entry[0]
                raw = self.raw[uid]
                if raw is not was_raw[uid]:
                    if raw.get("side") != side:
                        return None
                    entry = (uid, *self.one(uid))
                now.append(entry)
        return listed

    def engaged(self) -> set[str]:
        """The units fighting in any combat, worked out once for a units document."""
        found = self.kept.get(_ENGAGED)
        if found is None or found[0] is not self.raw:
            found = self.kept[_ENGAGED] = (self.raw, {uid for uid, raw in self.raw.items() if raw.get("in_combat")})
        return found[1]

    def commander_changes(self) -> set[str]:
        """The units whose brigade commander changes their break tests when near (the engine says
        which), worked out again only when the brigades or the sides are other documents, or a unit
        is in another brigade (an action seldom touches them)."""
        doc = self.battle.doc
        # What the answer rests on: the brigades and their commanders, the sides, each unit's brigade.
        brigades_doc, sides_doc = doc.get("brigades"), doc.get("sides")
        members = {uid: raw.get("brigade") for uid, raw in self.raw.items()}
        found = self.kept.get(_COMMANDER_COUNTS)
        if found is None or found[0] is not brigades_doc or found[1] is not sides_doc or found[2] != members:
            battle = self.battle
            brigades = {bid for bid in battle.brigades
                        if (ids := battle.unit_ids_of_brigade(bid)) and commander_counts(battle, battle.units[ids[0]])}
            found = self.kept[_COMMANDER_COUNTS] = (brigades_doc, sides_doc, members,
                                                    {uid for uid, bid in members.items() if bid in brigades})
        return found[3]

    def of_side(self, side: str, keep) -> list[Choice]:
        """A side's units that ``keep(uid, in_play)`` accepts, in the battle's order."""
        return [choice for uid, choice, in_play in self.listed().get(side, ()) if keep(uid, in_play)]


# Where a game's store of chips keeps the chips listed by side (beside each unit's, by its id),
# the units fighting, and those whose commander counts in their break tests.
_LISTED = ("listed by side",)
_ENGAGED = ("engaged",)
_COMMANDER_COUNTS = ("commander counts",)


def _combat_units(battle: Battle, view: FieldView, chips: _UnitChoices) -> list[Choice] | None:
    """Units for a fact about one combat: those fighting in it ("fighting"), or a side's units
    that could support it ("chargers", "defenders"): in play and fighting in no combat, this one or
    another, which the engine refuses as supports (``supports.cannot_support``). None when no
    combat is picked yet."""
    rec = (battle.doc.get("combats") or {}).get(view.of_value)
    if not rec:
        return None
    chosen = view.chosen()
    fighting = [u for u in rec.get("attackers", []) + rec.get("defenders", []) if u in battle.units]
    if view.side == "fighting":
        return [chips.one(u)[0] for u in fighting]
    key = {"chargers": "attackers", "defenders": "defenders"}.get(view.side)
    first = next((u for u in rec.get(key, []) if u in battle.units), None) if key else None
    if first is None:
        return None
    side = battle.units[first].side
    engaged = chips.engaged()
    return chips.of_side(side, lambda uid, in_play: (in_play and uid not in fighting and uid not in engaged)
                         or uid in chosen)


def _break_test_units(battle: Battle, view: FieldView, chips: _UnitChoices) -> list[Choice]:
    """Units for a break-test fact, only those for which the answer can change a test (the engine
    says which): "commander counts", units whose brigade commander changes their tests when near;
    "von Zieten present", every unit when he is in the battle, none when he is not. What is picked
    already stays listed."""
    chosen = view.chosen()
    if view.side == "von Zieten present":
        listed = None if von_zieten_present(battle) else set()  # None: every unit in play
    else:
        listed = chips.commander_changes()
    out = []
    for side in (battle.active_side, battle.enemy_of(battle.active_side)):
        out += chips.of_side(side, lambda uid, in_play: (in_play and (listed is None or uid in listed))
                             or uid in chosen)
    return out


# The break-test facts whose pick lists hold only the units the answer can change (``_break_test_units``).
BREAK_TEST_LISTS = ("commander counts", "von Zieten present")


def choices_for(battle: Battle, view: FieldView, kept: dict | None = None) -> list[Choice] | None:
    """What a ``ref`` field of a Black Powder action can pick (``kept``: a game's store of unit
    chips, see ``_UnitChoices``)."""
    if view.kind == "choice":  # "Blue wins" is the French, or the Allied Army, by name; "Blue" the French
        return [Choice(c.value, f"{battle.sides[c.value].name} win") if c.value in battle.sides
                and c.label.lower().endswith(" wins") else
                Choice(c.value, battle.sides[c.value].name) if c.value in battle.sides
                and c.label.lower() == c.value else c for c in view.choices]
    chips = _UnitChoices(battle, kept)
    if view.ref == "unit" and view.of == "combat":
        found = _combat_units(battle, view, chips)
        if found is not None:
            return found
    if view.ref == "unit" and view.side in BREAK_TEST_LISTS:
        return _break_test_units(battle, view, chips)
    if view.ref == "unit":
        # Who acts: the seated player's side on their tablet, else the side to play.
        acting = view.seat if view.seat in battle.sides else battle.active_side
        if view.side in ("active", "acting"):  # the units ordered, the chargers, the shooter
            wanted = [acting]
        elif view.side == "enemy":
            wanted = [battle.enemy_of(battle.active_side)]
        elif view.of_value in battle.units:
            # A target: the enemies of the unit it is aimed by come first, its own side after.
            own = battle.units[view.of_value].side
            wanted = [battle.enemy_of(own), own]
        elif view.of:  # a target before anyone is aimed: the enemies of the side acting first
            wanted = [battle.enemy_of(acting), acting]
        else:
            wanted = [battle.active_side, battle.enemy_of(battle.active_side)]
        chosen = view.chosen()
        out = []
        for side in wanted:
            out += chips.of_side(side, lambda uid, in_play: in_play or uid in chosen)
        for side in (s for s in battle.sides if s not in wanted):  # a unit picked already stays listed
            out += chips.of_side(side, lambda uid, in_play: uid in chosen)
        return out
    if view.ref == "brigade":
        return [Choice(b.id, b.name, "broken" if b.broken else "", battle.sides[b.side].name
                       if b.side in battle.sides else b.side, b.side) for b in battle.brigades.values()]
    if view.ref == "combat":
        return [Choice(c["id"], c["label"], f"round {c['round']}") for c in combats(battle)]
    if view.ref == "reserve":  # reserves and reinforcements not yet on the table
        return [Choice(g["id"], g["label"], reserves.describe(battle.doc, g),
                       battle.sides[g["side"]].name if g["side"] in battle.sides else g["side"], g["side"])
                for g in reserves.waiting_groups(battle.doc)]
    return None


def context(battle: Battle, kept: Kept) -> dict:
    """The board's parts: sides, brigades and unit cards (each kept while its document is the same),
    the turn sequence, the combats, the scenario's terms (time, reserves, victory questions)."""
    drawn = sides(battle, kept("cards"), kept("brigades"))
    return {"battle": battle, "sides": drawn, "sequence": sequence(battle), "combats": combats(battle),
            "scenario": battle.doc.get("scenario") or {}, "board": board(battle, drawn),
            "clock": scenario_view.clock_view(battle), "reserves": scenario_view.reserves_view(battle),
            "victory": scenario_view.victory_view(battle)}


def panel(battle: Battle, unit_id: str) -> dict | None:
    """A unit's own panel: its card, the formations it may take, its brigade, and the battle (whose
    turn it is), as a panel is drawn without the board's context (None: no such unit)."""
    unit = battle.units.get(unit_id)
    if unit is None:
        return None
    return {"card": card(unit), "formations": [(f, FORMATIONS[f]) for f in allowed_formations(unit)],
            "brigade": battle.brigades.get(unit.brigade), "battle": battle}


def report(s: dict) -> dict:
    """The after-action report: each side's brigades, units, losses and casualties, and the result."""
    sides = []
    for sid, side in s["sides"].items():
        brigades = []
        for bid, b in s["brigades"].items():
            if b["side"] != sid:
                continue
            units = [u for u in s["units"].values() if u["brigade"] == bid]
            brigades.append({"name": b["name"], "broken": b.get("broken"),
                             "commander": (b.get("commander") or {}).get("name"), "units": units})
        lost = sum(1 for u in s["units"].values() if u["side"] == sid and u.get("destroyed"))
        casualties = sum(u.get("casualties", 0) for u in s["units"].values() if u["side"] == sid)
        sides.append({"id": sid, "name": side["name"], "broken": side.get("army_broken"), "brigades": brigades,
                      "lost": lost, "casualties": casualties})
    winner = s.get("winner")
    return {"sides": sides, "result": (f"{s['sides'][winner]['name']} win" if winner in s["sides"] else
                                       "Draw" if winner == "draw" else "No result recorded")}


BOARD = BoardView(
    read=Battle.from_doc, context=context, card=panel, report=report, story=story, missing="There is no unit “{}” in this battle.",
    choices=lambda battle, view, kept: choices_for(battle, view, kept("choices")),
    parts="blackpowder/board.html", card_template="blackpowder/_unit_row.html",
    group_template="blackpowder/_brigade.html",
    menu_skips=("dice_mode", "change_setting", "next_phase", "adjust_unit", "combat_round", "combat_outcome",
                "scenario_victory", "add_units"),  # the last two have forms of their own on the board
)
