"""The Black Powder battle as the engines see it: units, brigades, commanders, sides, settings.

The game's state is a JSON document (see ``battle_setup.new_battle_doc``); ``Battle.from_doc`` reads it into
these dataclasses. Engines read a ``Battle`` and build the changes their result carries with
:class:`BattleChanges` (the one change builder, ``referee.core.changes``), never mutating the document.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from functools import cached_property, lru_cache
from typing import Any, Callable

from ..core.changes import ChangeBuilder
from ..core.errors import RuleError  # noqa: F401  (engines raise it; importers may take it from here)
from ..core.reading import ReadOnDemand, SettingsRecord, from_fields
from ..core.results import Change, Result

SIDES = ("blue", "red")
PHASES = ("command", "shooting", "hand_to_hand")
PHASE_LABELS = {"command": "Command", "shooting": "Shooting", "hand_to_hand": "Hand-to-Hand"}

UNIT_TYPES = ("infantry", "cavalry", "artillery")
SIZES = ("small", "standard", "large")

# Formations a unit can be in. Artillery is "deployed" or "limbered"; "building" means the unit
# garrisons a building block (its size is ``building_size``).
FORMATIONS = {
    "line": "Line",
    "attack_column": "Attack Column",
    "march_column": "March Column",
    "mixed": "Mixed Formation",
    "square": "Square",
    "skirmish": "Skirmish Order",
    "building": "In Buildings",
    "deployed": "Deployed",
    "limbered": "Limbered",
}
INFANTRY_FORMATIONS = ("line", "attack_column", "march_column", "mixed", "square", "skirmish", "building")
CAVALRY_FORMATIONS = ("line", "march_column", "skirmish")
ARTILLERY_FORMATIONS = ("deployed", "limbered", "building")

# Artillery kinds change dice and ranges; None for infantry and cavalry.
ARTILLERY_KINDS = ("foot", "horse", "howitzer", "rocket")


@dataclass(frozen=True)
class Commander:
    name: str
    staff_rating: int = 8
    rules: tuple[str, ...] = ()
    # Wellington, Napoleon, Ney, Blücher, von Zieten: which famous man he is (for his card).
    personality: str | None = None
    # Extra attacks when attached to a unit in a combat (RULES-GAPS: attached commanders).
    attacks: int = 0
    attacks_defending: int = 0
    # The key commanders' personal rules, as ``armylists/blackpowder/commanders.yaml`` gives
    # them; the data layer copies them into the battle document so the engine never reads files.
    break_test_bonus_within_12: int = 0  # von Zieten: units within 12" of him add this
    supporters_retake_break_tests: bool = False  # Napoleon: supporters who see a unit break test again
    valiant_units: str = ""  # Ney: how many units gain Valiant before the battle ("D3")
    ferocious_charge_units: int = 0  # Blücher: units that gain Ferocious Charge before the battle
    free_move_before_game: bool = False  # Blücher: his army's units may move before the first turn
    chooses_deployment_side: bool = False  # Wellington: picks the table side his army deploys on

    def has(self, rule: str) -> bool:
        return rule.lower() in (r.lower() for r in self.rules)

    @classmethod
    def from_dict(cls, d: dict | None) -> "Commander | None":
        if not d:
            return None
        return from_fields(cls, d, rules=tuple(d.get("rules", ())))


# A rule's value as the lists print it after its name: "4+" (Elite), "D3" or "+1" (Heavy Cavalry).
_RULE_VALUE = re.compile(r"^(?:[+-]?\d+\+?|D\d+)$", re.IGNORECASE)


def rule_matches(written: str, rule: str) -> bool:
    """``written`` (as a profile lists it) is the rule ``rule``: the same whole name, or that name
    followed by a value. A longer name that merely starts with it is another rule."""
    written, rule = written.strip().lower(), rule.strip().lower()
    if written == rule:
        return True
    return written.startswith(rule + " ") and bool(_RULE_VALUE.match(written[len(rule) + 1:].strip()))


def document_has_rule(raw: dict, *rules: str) -> bool:
    """``Unit.has`` read from a unit's document, without reading the unit: any of ``rules``."""
    written = tuple(raw.get("special_rules", ()))
    return any(_has_rule(written, rule) for rule in rules)


def shaken_by(casualties: int, stamina: int | None) -> bool:
    """As many casualties as the unit's Stamina, or more; an Untested unit (Stamina not yet rolled)
    is never shaken."""
    return stamina is not None and casualties >= stamina


@lru_cache(maxsize=8192)
def _has_rule(written: tuple[str, ...], rule: str) -> bool:
    """Kept: the odds of a combat ask each unit for its rules hundreds of times."""
    return any(rule_matches(r, rule) for r in written)


@dataclass(frozen=True)
class Unit:
    id: str
    name: str
    side: str
    brigade: str
    type: str  # infantry | cavalry | artillery
    hand_to_hand: int
    shooting: int | None  # None: the unit cannot shoot ("–"); artillery uses its range bands
    morale: int | None  # save on this or more; None: no save
    stamina: int | None  # None: Untested and not yet rolled
    size: str = "standard"
    profile: str = ""
    nation: str | None = None  # the profile's nation ("prussian", "french"); None: the side's
    special_rules: tuple[str, ...] = ()
    weapon_range: int = 18  # inches, for the umpire's reference
    artillery_kind: str | None = None  # foot | horse | howitzer | rocket
    # --- status ---
    casualties: int = 0
    formation: str = "line"
    disordered: bool = False
    in_combat: bool = False
    off_table: bool = False
    destroyed: bool = False
    # Not yet arrived (a reserve or reinforcement, see reserves.py): not on the table, not lost,
    # not counted towards breaking its brigade or army, offered no orders.
    awaiting: bool = False
    building_size: str | None = None  # small | standard | large when garrisoning a building
    won_last_round: bool = False
    mounted: bool = True  # Mounted Infantry: which profile is in use
    # Mounted Infantry: the profile not in use ({"type", "hand_to_hand", "shooting", "morale", ...});
    # mounting or dismounting swaps it with the unit's current values.
    alternate_profile: dict | None = None
    # Once-per-game and once-per-turn bookkeeping: "first_fire", "valiant", "steady",
    # "bloodthirsty", "freshly_raised_shoot", "freshly_raised_combat", "traversing_shot", ...
    used: tuple[str, ...] = ()
    notes: str = ""
    carried: int = 0  # casualties brought from a campaign's earlier battle; in the document only if any

    # --- derived ---
    @property
    def shaken(self) -> bool:
        return shaken_by(self.casualties, self.stamina)

    @property
    def excess_casualties(self) -> int:
        return 0 if self.stamina is None else max(0, self.casualties - self.stamina)

    @property
    def in_play(self) -> bool:
        return not (self.destroyed or self.off_table or self.awaiting)

    @property
    def is_artillery(self) -> bool:
        return self.type == "artillery"

    @property
    def is_cavalry(self) -> bool:
        return self.type == "cavalry"

    @property
    def is_infantry(self) -> bool:
        return self.type == "infantry"

    def has(self, rule: str) -> bool:
        """True if the unit has the special rule, by its whole name (case-insensitive), or by its
        name with a value after it ("Elite 4+" has Elite); never by a prefix ("Steady Line" is
        not Steady)."""
        return _has_rule(tuple(self.special_rules), rule)

    def rule_value(self, rule: str) -> str | None:
        """The value after a rule's name: "Elite 4+" -> "4+", "Heavy Cavalry D3" -> "D3"."""
        for r in self.special_rules:
            if rule_matches(r, rule) and len(r.strip()) > len(rule.strip()):
                return r.strip()[len(rule.strip()) + 1:].strip()
        return None

    def has_used(self, key: str) -> bool:
        return key in self.used

    @classmethod
    def from_dict(cls, d: dict) -> "Unit":
        return from_fields(cls, d, special_rules=tuple(d.get("special_rules", ())), used=tuple(d.get("used", ())))

    def to_dict(self) -> dict:
        d = asdict(self)
        d["special_rules"] = list(self.special_rules)
        d["used"] = list(self.used)
        return {k: v for k, v in d.items() if k != "carried" or v}


@dataclass(frozen=True)
class Brigade:
    id: str
    name: str
    side: str
    commander: Commander | None = None
    broken: bool = False

    @classmethod
    def from_dict(cls, d: dict) -> "Brigade":
        return cls(id=d["id"], name=d["name"], side=d["side"],
                   commander=Commander.from_dict(d.get("commander")), broken=d.get("broken", False))


@dataclass(frozen=True)
class Side:
    id: str  # blue | red
    name: str
    nation: str | None = None  # the army's nation, for units that do not name their own
    general: Commander | None = None
    army_broken: bool = False
    general_reroll_used: bool = False  # the General's re-roll, once a turn

    @classmethod
    def from_dict(cls, d: dict) -> "Side":
        return cls(id=d["id"], name=d["name"], nation=d.get("nation"),
                   general=Commander.from_dict(d.get("general")),
                   army_broken=d.get("army_broken", False),
                   general_reroll_used=d.get("general_reroll_used", False))


@dataclass(frozen=True)
class Settings(SettingsRecord):
    """Rule readings where the summary is silent (``shared/RULES-GAPS.md``). Each is a named,
    documented setting shown on the game's settings page."""

    double_six_always_blunders: bool = True
    # March column / limbered on a road: +2 in place of the +1 (False) or on top of it (True).
    road_bonus_adds_to_march_column: bool = False
    # Building combat bonus: "building" size (+3/+2/+1 large/standard/small) or "unit" size
    # (+3 large/standard unit, +2 small, +0 artillery).
    building_bonus_by: str = "building"
    # Break tests with no shooting or hand-to-hand context (a supported unit broke) use this column.
    break_test_default_context: str = "shooting"
    # Casualties caused in combat include those beyond the loser's Stamina.
    combat_counts_excess_casualties: bool = True
    horse_artillery_range: int = 36
    foot_artillery_range: int = 48
    # Prussian infantry count as Tough Fighters against French units.
    prussians_tough_vs_french: bool = True
    # Enfilading fire: the summary says who may enfilade but not what it does.
    enfilade_to_hit_bonus: int = 1
    cannon_enfilade_to_half_range: bool = True
    # Countercharging cavalry take the +1 for charging in the first round, as the chargers do.
    countercharge_gets_charge_bonus: bool = True
    # A charger that retires from closing fire does not reach its target (only "breaks" is named).
    retiring_chargers_fail: bool = True
    # A unit takes one order a turn: a second order to it in the same Command phase is refused.
    one_order_a_turn: bool = True

    # Settings that take one of a few words: the settings page offers them as buttons and
    # change_setting refuses anything else.
    CHOICES = {
        "building_bonus_by": ("building", "unit"),
        "break_test_default_context": ("shooting", "hand_to_hand"),
    }
    # The settings page's headings, where the field's own name does not read well.
    TITLES = {
        "building_bonus_by": "Garrison's combat bonus goes by",
        "break_test_default_context": "Break test column for other causes",
        "prussians_tough_vs_french": "Prussians are Tough Fighters against the French",
        "enfilade_to_hit_bonus": "Enfilade bonus to hit",
        "one_order_a_turn": "One order a unit each turn",
    }
    DESCRIPTIONS = {
        "double_six_always_blunders": "A double 6 on a command roll is a blunder whatever the Staff Rating.",
        "road_bonus_adds_to_march_column": "A march column or limbered battery on a road adds the road's +2 on top "
                                           "of the march column's +1 (+3 in all); if off, +2 in all.",
        "building_bonus_by": "Combat result bonus for a garrison: by the building's size (large +3, standard +2, "
                             "small +1) or by the unit's size (large/standard +3, small +2, artillery +0).",
        "break_test_default_context": "Which column of the break test table a test outside shooting and "
                                      "hand-to-hand uses (e.g. a supporting unit that saw its friend break).",
        "combat_counts_excess_casualties": "Hits beyond a unit's Stamina still count towards the combat result.",
        "horse_artillery_range": "Maximum range of horse artillery, in inches.",
        "foot_artillery_range": "Maximum range of foot artillery, in inches.",
        "prussians_tough_vs_french": "Prussian infantry fighting French units count as Tough Fighters.",
        "enfilade_to_hit_bonus": "Added to each shooting die when the shooter enfilades its target (the summary "
                                 "names enfilading fire without giving its effect).",
        "cannon_enfilade_to_half_range": "Cannon may enfilade up to half their maximum range (short and medium "
                                         "bands); if off, only at short range (6\" or less).",
        "countercharge_gets_charge_bonus": "Countercharging cavalry add +1 to their combat dice in the first round, "
                                           "like the chargers.",
        "retiring_chargers_fail": "A charging unit that retires from its closing fire test does not reach its target "
                                  "(the summary only says a charge fails when the chargers break).",
        "one_order_a_turn": "A unit that has had an order this turn (passed, failed or blundered) is not given "
                            "another until its side's next turn (the summary does not say). If off, a second "
                            "order is given, and its result says the unit had one already.",
    }



@dataclass(frozen=True)
class Battle:
    """A read-only view of the battle document."""

    doc: dict
    units: Mapping[str, Unit]
    brigades: Mapping[str, Brigade]
    sides: dict[str, Side]
    settings: Settings
    turn: int
    active_side: str
    phase: str

    @classmethod
    def from_doc(cls, doc: dict, earlier: "Battle | None" = None) -> "Battle":
        """The battle ``doc`` holds; ``earlier``, a view of a document this one was made from by
        the change builder (copy-on-write), lends it every unit and brigade it read that is
        unchanged."""
        return cls(
            doc=doc,
            units=ReadOnDemand(doc.get("units", {}), Unit.from_dict, earlier and earlier.units),
            brigades=ReadOnDemand(doc.get("brigades", {}), Brigade.from_dict, earlier and earlier.brigades),
            sides={k: Side.from_dict(v) for k, v in doc.get("sides", {}).items()},
            settings=Settings.from_dict(doc.get("settings")),
            turn=doc.get("turn", 1),
            active_side=doc.get("active_side", "blue"),
            phase=doc.get("phase", "command"),
        )

    def with_changes(self, changes: list[Change] | tuple[Change, ...]) -> "Battle":
        """The battle after the changes (for tests and views; engines write through BattleChanges)."""
        work = BattleChanges(self)
        work.absorb(changes)
        return work.battle

    # --- look-ups ---
    def unit(self, unit_id: str) -> Unit:
        try:
            return self.units[unit_id]
        except KeyError:
            raise RuleError(f"There is no unit “{unit_id}” in this battle.") from None

    def brigade_of(self, unit: Unit) -> Brigade:
        return self.brigades[unit.brigade]

    def commander_of(self, unit: Unit) -> Commander | None:
        return self.brigades[unit.brigade].commander

    def units_of_brigade(self, brigade_id: str) -> list[Unit]:
        return [self.units[u] for u in self._unit_ids_by_brigade.get(brigade_id, ())]

    def unit_documents_of_brigade(self, brigade_id: str) -> list[dict]:
        """The brigade's units as the document holds them, none of them read into a ``Unit``."""
        raw = self.doc.get("units", {})
        return [raw[u] for u in self._unit_ids_by_brigade.get(brigade_id, ())]

    def unit_ids_of_brigade(self, brigade_id: str) -> list[str]:
        return self._unit_ids_by_brigade.get(brigade_id, [])

    @cached_property
    def _unit_ids_by_brigade(self) -> dict[str, list[str]]:
        """Unit ids by brigade, read once from the document (not from every unit): the board asks
        for each of some sixty brigades' units on a full Waterloo day."""
        out: dict[str, list[str]] = {}
        for uid, raw in self.doc.get("units", {}).items():
            out.setdefault(raw.get("brigade"), []).append(uid)
        return out

    def brigades_of_side(self, side: str) -> list[Brigade]:
        return [b for b in self.brigades.values() if b.side == side]

    def units_of_side(self, side: str, where: Callable[[dict], bool] | None = None) -> list[Unit]:
        """The side's units, the others left unread (a turn's start asks for one side of 300). With
        ``where``, only those whose document it accepts (a turn's end lifts the disorder of the
        disordered units alone: the rest need not be read)."""
        return [self.units[uid] for uid, raw in self.doc.get("units", {}).items()
                if raw.get("side") == side and (where is None or where(raw))]

    def enemy_of(self, side: str) -> str:
        return "red" if side == "blue" else "blue"

    def nation_of(self, unit: Unit) -> str | None:
        """The unit's own nation, else its army's."""
        if unit.nation:
            return unit.nation
        side = self.sides.get(unit.side)
        return side.nation if side else None


# --- building changes --------------------------------------------------------------------

class BattleChanges(ChangeBuilder):
    """The one change builder (``referee.core.changes``) speaking of units, brigades and sides.

    An action starts one from the battle it reads, writes through it, and puts
    ``changes`` in its result. Each write lands in the working copy, so ``battle`` (the battle
    as the changes so far have left it) is what the next step of the same action reads.
    """

    def __init__(self, battle: "Battle | dict"):
        super().__init__(battle.doc if isinstance(battle, Battle) else battle)
        self._view: Battle | None = battle if isinstance(battle, Battle) else None
        self._view_version = 0

    @property
    def battle(self) -> "Battle":
        if self._view is None or self._view_version != self.version:
            # A snapshot: the view reads its units lazily, so it must not see later writes.
            self._view, self._view_version = Battle.from_doc(self.snapshot(), self._view), self.version
        return self._view

    def unit(self, unit: "Unit | str", field_name: str, after: Any, label: str = "") -> bool:
        """Set one field of a unit; the label defaults to "name: field before → after"."""
        unit_id = unit if isinstance(unit, str) else unit.id
        before = self.get(("units", unit_id, field_name))
        after = list(after) if isinstance(after, tuple) else after
        if before == after:
            return False
        if not label:
            name = self.get(("units", unit_id, "name"), unit_id)
            label = f"{name}: {field_name.replace('_', ' ')} {_show(before)} → {_show(after)}"
        return self.set(("units", unit_id, field_name), after, label)

    def used(self, unit: "Unit | str", key: str, label: str = "") -> bool:
        """Record a once-per-game (or once-per-turn) ability as used."""
        unit_id = unit if isinstance(unit, str) else unit.id
        used = list(self.get(("units", unit_id, "used"), []) or [])
        if key in used:
            return False
        name = self.get(("units", unit_id, "name"), unit_id)
        return self.unit(unit_id, "used", used + [key], label or f"{name}: {key.replace('_', ' ')} used")

    def at(self, path: tuple[str, ...], after: Any, label: str = "") -> bool:
        """Set anything else in the document (a brigade broken, the turn, a combat record)."""
        return self.set(path, after, label)

    def follow(self, result: "Result") -> "Result":
        """A follow-on result (a break test after a volley) built elsewhere: its changes are its
        own, but the later steps of this action must read the battle they left."""
        self.absorb(result.all_changes)
        return result


class Steps:
    """An action told as a row of steps (a charge: the response, closing fire, contact), each a
    result of its own with its own changes, each built on the battle the earlier steps left."""

    def __init__(self, battle: "Battle"):
        self._work = BattleChanges(battle)
        self.results: list[Result] = []

    @property
    def battle(self) -> "Battle":
        return self._work.battle

    def changes(self) -> BattleChanges:
        """A fresh builder for the next step, on the battle as the steps so far have left it."""
        return BattleChanges(self._work.battle)

    def add(self, result: "Result") -> "Result":
        self.results.append(self._work.follow(result))
        return result

    def step(self, kind: str, summary: str, changes: BattleChanges | None = None, notes=()) -> "Result":
        return self.add(Result(kind, summary, changes=changes.changes if changes else (), notes=tuple(notes)))


def _show(v: Any) -> str:
    if v is True:
        return "yes"
    if v is False:
        return "no"
    if v is None:
        return "—"
    if isinstance(v, str):
        return FORMATIONS.get(v, v)
    return str(v)
