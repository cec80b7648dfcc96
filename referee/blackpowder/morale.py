"""Morale saves: one die per hit against the unit's Morale, with Crack, Stubborn, Untested and
Wavering.

``take_hits`` is called by shooting, artillery, closing fire and hand-to-hand. The modifiers that
follow from the target's own state (attack column, march column, in a building) and from Lancers
are worked out here; the caller passes only what it alone knows (light cover, the artillery's
range band, howitzer or rocket shells). A caller that already passed one of the derived modifiers
(same rule name) is not charged twice.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Literal

import icepool
from pydantic import Field

from ..core.contract import ActionSpec, Facts
from ..core.dice import roll
from ..core.results import Die, Modifier, Result, total
from .break_tests import break_test
from .model import Battle, BattleChanges, RuleError, Unit

SAVE = "save"

# The modifier rules, so callers and tests name them the same way.
ATTACK_COLUMN = "Attack Column"
LIGHT_COVER = "Light cover"
BUILDINGS = "In buildings"
MARCH_COLUMN = "March Column"
ARTILLERY_LONG = "Artillery at long range"
ARTILLERY_CLOSE = "Artillery at close or medium range"
HOWITZER = "Howitzer shell"
ROCKET = "Congreve rocket"
LANCERS = "Lancers"

# Untested stamina: what the (size-adjusted) die gives.
UNTESTED_TABLE = {1: 1, 2: 2, 3: 2, 4: 3, 5: 3, 6: 4}
UNTESTED_SIZE = {"large": 1, "small": -1}


def is_artillery_source(source: str) -> bool:
    return "artillery" in source or source in ("howitzer", "rocket")


def state_save_modifiers(unit: Unit, *, source: str = "shooting", lancers: bool = False) -> list[Modifier]:
    """The save modifiers that follow from the target's own formation and the kind of attacker."""
    mods = []
    if unit.formation == "attack_column" and unit.is_infantry and not is_artillery_source(source):
        mods.append(Modifier(1, ATTACK_COLUMN, SAVE))
    if unit.formation == "march_column":
        mods.append(Modifier(-2, MARCH_COLUMN, SAVE))
    if unit.formation == "building":
        mods.append(Modifier(2, BUILDINGS, SAVE))
    if lancers:
        if unit.is_cavalry:
            mods.append(Modifier(-1, LANCERS + " (against cavalry)", SAVE))
        else:
            mods.append(Modifier(-2, LANCERS + " (against infantry and artillery)", SAVE))
    return mods


def artillery_save_modifier(range_band: str, kind: str | None = None) -> Modifier:
    """What a gun's hits do to the target's save: shells and rockets −2 at any range, round shot
    −1 at long range and −2 closer."""
    if kind == "howitzer":
        return Modifier(-2, HOWITZER, SAVE)
    if kind == "rocket":
        return Modifier(-2, ROCKET, SAVE)
    if range_band == "long":
        return Modifier(-1, ARTILLERY_LONG, SAVE)
    return Modifier(-2, ARTILLERY_CLOSE, SAVE)


def light_cover_modifier() -> Modifier:
    return Modifier(1, LIGHT_COVER, SAVE)


def all_save_modifiers(unit: Unit, modifiers=(), *, source: str = "shooting", lancers: bool = False) -> list[Modifier]:
    given = list(modifiers)
    names = {m.rule for m in given}
    return given + [m for m in state_save_modifiers(unit, source=source, lancers=lancers) if m.rule not in names]


def untested_stamina(die: int, size: str) -> int:
    score = die + UNTESTED_SIZE.get(size, 0)
    return UNTESTED_TABLE[min(6, max(1, score))]


def take_hits(battle: Battle, target_id: str, hits: int, dice, *, modifiers=(), source: str = "shooting",
              lancers: bool = False) -> Result:
    """Roll a save per hit; unsaved hits become casualties (they may pass Stamina until a break
    test trims them).

    ``data``: ``casualties``, ``saved``, ``stamina`` (after any Untested roll), ``shaken``,
    ``excess`` (casualties beyond Stamina), ``wavering_test`` (the unit's Wavering rule demands a
    break test: callers chain it).
    """
    unit = battle.unit(target_id)
    if not unit.in_play:
        raise RuleError(f"{unit.name} is no longer on the field.")
    if hits < 0:
        raise RuleError("Hits cannot be negative.")
    mods = all_save_modifiers(unit, modifiers, source=source, lancers=lancers)
    bonus = total(mods, SAVE)
    all_dice: list[Die] = []
    notes: list[str] = []

    if unit.morale is None:
        failed, saved = hits, 0
        if hits:
            notes.append(f"{unit.name} has no morale save.")
    else:
        need = unit.morale - bonus
        faces = list(roll(dice, hits, 6, "save", max(1, need), side=unit.side))
        all_dice.extend(faces)
        values = [d.value for d in faces]
        rerolled: set[int] = set()

        def reroll_one(rule: str) -> None:
            for i, v in enumerate(values):
                if v < need and i not in rerolled:
                    (again,) = roll(dice, 1, 6, f"save re-roll: {rule}", max(1, need), side=unit.side)
                    all_dice.append(again)
                    values[i] = again.value
                    rerolled.add(i)
                    notes.append(f"{rule}: re-rolled a failed save ({v} → {again.value}).")
                    return

        if unit.has("Crack") and unit.casualties == 0:
            reroll_one("Crack")
        if unit.has("Stubborn"):
            reroll_one("Stubborn")
        saved = sum(1 for v in values if v >= need)
        failed = hits - saved

    ch = BattleChanges(battle)
    stamina = unit.stamina
    if failed and stamina is None:
        (die,) = roll(dice, 1, 6, "Untested: stamina", side=unit.side)
        all_dice.append(die)
        stamina = untested_stamina(die.value, unit.size)
        ch.unit(unit, "stamina", stamina, f"{unit.name}: Untested, Stamina found to be {stamina}")
        notes.append(f"Untested: first casualty, rolled {die.value} — Stamina {stamina}.")
    after = unit.casualties + failed
    ch.unit(unit, "casualties", after)
    shaken = stamina is not None and after >= stamina
    excess = 0 if stamina is None else max(0, after - stamina)
    wavering = bool(failed) and unit.has("Wavering")
    if wavering:
        notes.append(f"Wavering: {unit.name} took casualties and must take a break test.")
    if unit.morale is None:
        summary = f"{unit.name}: {failed} casualt{'y' if failed == 1 else 'ies'} (no save)"
    else:
        summary = (f"{unit.name} saves {saved} of {hits} on {unit.morale}+"
                   f"{f' ({bonus:+d})' if bonus else ''}: {failed} casualt{'y' if failed == 1 else 'ies'}")
    return Result(
        "morale_saves", summary, dice=tuple(all_dice), modifiers=tuple(mods), changes=ch.changes,
        notes=tuple(notes),
        data={"target": unit.id, "hits": hits, "casualties": failed, "saved": saved, "stamina": stamina,
              "shaken": shaken, "became_shaken": shaken and not unit.shaken, "excess": excess,
              "wavering_test": wavering, "source": source},
    )


def save_chance(morale: int | None, bonus: int) -> float:
    """Chance one save succeeds (for odds lines; re-rolls are counted by the callers' icepool)."""
    if morale is None:
        return 0.0
    need = morale - bonus
    return min(6, max(0, 7 - need)) / 6


def casualties_die(unit: Unit, hits: int, save_bonus: int):
    """The exact distribution of casualties from ``hits`` saves, with Crack and Stubborn."""
    if hits == 0:
        return icepool.Die([0])
    if unit.morale is None:
        return icepool.Die([hits])
    return _casualties(hits, unit.morale - save_bonus, unit.has("Crack") and unit.casualties == 0,
                       unit.has("Stubborn"))


def casualty_weights(unit: Unit, hits: int, save_bonus: int) -> tuple[int, tuple[tuple[int, int], ...]]:
    """``casualties_die`` as its denominator and (casualties, ways) pairs, kept: the odds of a shot
    add these up for every number of hits."""
    if hits == 0 or unit.morale is None:
        return 1, ((hits if unit.morale is None else 0, 1),)
    return _casualty_weights(hits, unit.morale - save_bonus, unit.has("Crack") and unit.casualties == 0,
                             unit.has("Stubborn"))


@lru_cache(maxsize=512)
def _casualty_weights(hits: int, need: int, crack: bool, stubborn: bool) -> tuple[int, tuple[tuple[int, int], ...]]:
    die = _casualties(hits, need, crack, stubborn)
    return die.denominator(), tuple(die.items())


@lru_cache(maxsize=512)
def _casualties(hits: int, need: int, crack: bool, stubborn: bool):
    """Kept: the odds of a shot ask this for every number of hits, and a form asks again as its
    answers change."""
    fail = icepool.Die([int(v < need) for v in range(1, 7)])

    def rerolls(failed):
        out = icepool.Die([failed])
        eligible = failed
        if crack and eligible:
            out = out.map(lambda f: f - 1 + fail)
            eligible -= 1
        if stubborn and eligible:
            out = out.map(lambda f: f - 1 + fail)
        return out
    return (hits @ fail).map(rerolls)


# --- the umpire's "hits on a unit" action --------------------------------------------------
# For hits that come from outside a shot the app resolved: a stray rocket, a rule the umpire
# applies by hand. Saves and any break test follow as they would after shooting.

HIT_SOURCES = {"shooting": "Muskets or carbines", "artillery": "Guns", "hand_to_hand": "Hand-to-hand"}
GUN_KINDS = {"cannon": "Round shot", "howitzer": "Howitzer shell", "rocket": "Rocket"}


class TakeHitsFacts(Facts):
    unit: str = Field(title="Unit hit", json_schema_extra={"ref": "unit", "side": "any"})
    hits: int = Field(1, ge=1, le=20, title="Hits")
    source: Literal["shooting", "artillery", "hand_to_hand"] = Field(
        "shooting", title="Hit by", json_schema_extra={"labels": HIT_SOURCES})
    gun: Literal["cannon", "howitzer", "rocket"] = Field(
        "cannon", title="Kind of gun", json_schema_extra={"labels": GUN_KINDS, "group": "Guns"})
    range_band: Literal["short", "medium", "long"] = Field(
        "medium", title="Gun range", json_schema_extra={"group": "Guns",
                                                         "labels": {"short": "Short", "medium": "Medium", "long": "Long"}})
    light_cover: bool = Field(False, title="In woods, hedges or similar cover?")
    lancers: bool = Field(False, title="Lancers on a charge or countercharge?")
    break_test_if_needed: bool = Field(True, title="Take the break test these hits force?")


def _hits_modifiers(facts: TakeHitsFacts) -> list[Modifier]:
    mods = [light_cover_modifier()] if facts.light_cover else []
    if facts.source == "artillery":
        mods.append(artillery_save_modifier(facts.range_band, None if facts.gun == "cannon" else facts.gun))
    return mods


def resolve_take_hits(doc: dict, facts: TakeHitsFacts, dice) -> Result:
    battle = Battle.from_doc(doc)
    saves = take_hits(battle, facts.unit, facts.hits, dice, modifiers=_hits_modifiers(facts), source=facts.source,
                      lancers=facts.lancers)
    children = [saves]
    ch = BattleChanges(battle)
    ch.follow(saves)
    why = []
    if saves.data["excess"] and saves.data["casualties"] and facts.source != "hand_to_hand":
        why.append("casualties beyond its Stamina")
    if saves.data["wavering_test"]:
        why.append("Wavering")
    context = "hand_to_hand" if facts.source == "hand_to_hand" else "shooting"
    if why and facts.break_test_if_needed:
        children.append(break_test(ch.battle, facts.unit, context, dice,
                                   hit_by_artillery=facts.source == "artillery", reason=", ".join(why)))
    elif why:  # put off by the umpire: owed before the phase is left (turns.owed_now)
        owed = dict(ch.battle.doc.get("owed_break_tests") or {})
        owed[facts.unit] = {"reason": ", ".join(why), "context": context}
        ch.at(("owed_break_tests",), owed, f"{battle.unit(facts.unit).name}: a break test owed")
    return Result("hits", f"{facts.hits} hit{'s' if facts.hits != 1 else ''} on {battle.unit(facts.unit).name}",
                  changes=ch.changes, children=tuple(children),
                  data={"casualties": saves.data["casualties"], "saved": saves.data["saved"]})


def odds_take_hits(doc: dict, facts: TakeHitsFacts) -> list[str]:
    unit = Battle.from_doc(doc).unit(facts.unit)
    bonus = total(all_save_modifiers(unit, _hits_modifiers(facts), source=facts.source, lancers=facts.lancers), SAVE)
    lost = casualties_die(unit, facts.hits, bonus)
    return [f"Each save succeeds: {save_chance(unit.morale, bonus):.1%}",
            f"Expected casualties: {float(lost.mean()):.2f}",
            f"No casualties: {float(lost.probability(0)):.1%}"]


TAKE_HITS = ActionSpec("take_hits", "Hits on a unit (saves)", TakeHitsFacts, resolve_take_hits, odds_take_hits)
