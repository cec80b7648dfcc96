"""Tables built from the engines' own constants and the data files they read.

An entry names one with ``table: <key>``; the reference then prints exactly what the engine
uses, so a change to a table in the engine shows in the reference at once.
"""
from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from functools import cache

from .entries import Book, Table


@cache
def engine_constant(game: str, name: str):
    """A table the engine of ``game`` defines at module level, wherever its module now lives."""
    package = importlib.import_module(f"referee.{game}")
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
        module = importlib.import_module(f"referee.{game}.{info.name}")
        if name in vars(module):
            return vars(module)[name]
    raise LookupError(f"the {game} engine no longer defines {name}")


def bp(name: str):
    return engine_constant("blackpowder", name)


def ooi(name: str):
    return engine_constant("oilandiron", name)


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else ("0" if n == 0 else f"−{abs(n)}")


# --- Black Powder ---------------------------------------------------------------------------------

def staff_ratings(book: Book) -> list[Table]:
    STAFF_RATING_WORDS = bp("STAFF_RATING_WORDS")
    return [Table(("Rating", "The commander is"),
                  tuple((str(r), w) for r, w in sorted(STAFF_RATING_WORDS.items(), reverse=True)))]


def blunders(book: Book) -> list[Table]:
    BLUNDER_TABLE = bp("BLUNDER_TABLE")
    rows = []
    for die, (name, moves, what) in sorted(BLUNDER_TABLE.items()):
        how = f"{moves} move{'s' if moves != 1 else ''}" if moves else "a D6 for the moves: 1–2 one, 3–4 two, 5–6 three"
        rows.append((str(die), name, f"The units {what} ({how})."))
    return [Table(("D6", "Blunder", "What happens"), tuple(rows))]


def artillery_dice(book: Book) -> list[Table]:
    DICE_BY_BAND, RANGE_BANDS = bp("DICE_BY_BAND"), bp("RANGE_BANDS")
    return [Table(("Range", "Dice"), tuple((RANGE_BANDS[b], str(n)) for b, n in DICE_BY_BAND.items()))]


def rocket_mishaps(book: Book) -> list[Table]:
    MISFIRE_TABLE, MISHAP_TABLE, VEER_TABLE = bp("MISFIRE_TABLE"), bp("MISHAP_TABLE"), bp("VEER_TABLE")
    mishap = Table(("D6", "Mishap"), tuple((str(d), r) for d, r in sorted(MISHAP_TABLE.items())), "Rocket mishap")
    misfire = Table(("D6", "Misfire"), tuple((str(d), f"The rocket: {r}") for d, r in sorted(MISFIRE_TABLE.items())),
                    "Misfire (mishap 1, roll again)")
    veer = Table(("D6", "Veers up to"), tuple((str(d), f"{r}\", hitting the first unit that way" if r
                                               else "any range, hitting the first unit that way")
                                              for d, r in sorted(VEER_TABLE.items())), "Veering rocket (mishap 4–6)")
    return [mishap, misfire, veer]


def freshly_raised(book: Book) -> list[Table]:
    FRESHLY_RAISED = bp("FRESHLY_RAISED")
    return [Table(("D6", "How they cope"), tuple((str(d), r) for d, r in sorted(FRESHLY_RAISED.items())))]


def untested(book: Book) -> list[Table]:
    UNTESTED_SIZE, UNTESTED_TABLE = bp("UNTESTED_SIZE"), bp("UNTESTED_TABLE")
    caption = "Die modifier: " + ", ".join(f"{size} {_signed(n)}" for size, n in UNTESTED_SIZE.items())
    return [Table(("D6", "Stamina"), tuple((str(d), str(s)) for d, s in sorted(UNTESTED_TABLE.items())), caption)]


def building_bonus(book: Book) -> list[Table]:
    BUILDING_BONUS, UNIT_SIZE_BUILDING_BONUS = bp("BUILDING_BONUS"), bp("UNIT_SIZE_BUILDING_BONUS")
    rows = tuple((size.capitalize(), _signed(BUILDING_BONUS[size]), _signed(UNIT_SIZE_BUILDING_BONUS[size]))
                 for size in ("large", "standard", "small"))
    return [Table(("Size", "By the building (default)", "By the unit"), rows + (("Artillery", "–", "0"),))]


def special_rules(book: Book) -> list[Table]:
    COMMANDER_RULES, UNIT_RULES = bp("COMMANDER_RULES"), bp("UNIT_RULES")
    return [Table(("Rule", "Effect"), tuple((n, r.description) for n, r in {**UNIT_RULES, **COMMANDER_RULES}.items()))]


# --- Of Oil and Iron ------------------------------------------------------------------------------

def heat_threshold(book: Book) -> list[Table]:
    HEAT_TABLE = ooi("HEAT_TABLE")
    from .generated import slug
    rows, low = [], 1
    for top, _key, label in HEAT_TABLE:
        span = f"{low}+" if top > 100 else (f"{low}" if low == top else f"{low}–{top}")
        entry = book.entries.get(slug(label))
        rows.append((span, label, entry.text if entry else ""))
        low = top + 1
    return [Table(("D12 + heat over threshold", "Result", "Effect"), tuple(rows))]


def hit_location(book: Book) -> list[Table]:
    HIT_LOCATIONS = ooi("HIT_LOCATIONS")
    LOCATION_LABELS = ooi("LOCATION_LABELS")
    rows, low = [], 1
    for top, loc in HIT_LOCATIONS:
        rows.append((f"{low}–{top}", LOCATION_LABELS[loc]))
        low = top + 1
    return [Table(("D12", "Location"), tuple(rows))]


def damage_grades(book: Book) -> list[Table]:
    DAMAGE_BY_GRADE, GRADE_LABELS = ooi("DAMAGE_BY_GRADE"), ooi("GRADE_LABELS")
    return [Table(("Impact total reaches", "Structure lost"),
                  tuple((GRADE_LABELS[g].split(" (")[0].capitalize() if g != "none" else "Below Direct",
                         str(n)) for g, n in DAMAGE_BY_GRADE.items()))]


def arc_bonus(book: Book) -> list[Table]:
    ARC_BONUS, ARCS = ooi("ARC_BONUS"), ooi("ARCS")
    return [Table(("Attacked through the target's", "STR"), tuple((f"{ARCS[a]} arc", _signed(n))
                                                                   for a, n in ARC_BONUS.items()))]


def ram_str(book: Book) -> list[Table]:
    RAM_STR = ooi("RAM_STR")
    return [Table(("Weight class", "Ram STR"), tuple((c.capitalize(), str(n)) for c, n in RAM_STR.items()))]


def round_end(book: Book) -> list[Table]:
    ENDS_ON = ooi("ENDS_ON")
    return [Table(("After round", "The engagement ends on a D12 of"),
                  tuple((str(r), "always" if n <= 1 else f"{n}+") for r, n in sorted(ENDS_ON.items())))]


def destroyed_rig_vp(book: Book) -> list[Table]:
    from ..data.oilandiron import load_engagements
    vp = load_engagements().destroyed_rig_vp
    return [Table(("Rig destroyed", "VP"), tuple((c.capitalize(), str(n)) for c, n in vp.items()))]


def formations(book: Book) -> list[Table]:
    from ..data.oilandiron import load_formations
    rows = []
    for tier in load_formations().tiers:
        for f in tier.formations:
            rows.append((tier.name, f.name) + tuple(str(getattr(f, c)) if getattr(f, c) else "–"
                                                    for c in ("light", "medium", "heavy", "colossal")))
    return [Table(("Tier", "Formation", "Light", "Medium", "Heavy", "Colossal"), tuple(rows))]


def equipment(book: Book) -> list[Table]:
    from ..data.oilandiron import load_equipment
    out = []
    cards = list(load_equipment().values())
    for table in sorted({c.table for c in cards}):
        out.append(Table(("#", "Card", "Iron", "Effect"),
                         tuple((str(c.number), c.name, str(c.iron), c.effect) for c in cards if c.table == table),
                         f"Table {table}"))
    return out


def perks(book: Book) -> list[Table]:
    from ..data.oilandiron import load_perks
    return [Table(("Perk", "Effect"), tuple((p.name + (" X" if p.x else ""), p.description)
                                            for p in load_perks().values()))]


TABLES: dict[tuple[str, str], Callable[[Book], list[Table]]] = {
    ("blackpowder", "staff_ratings"): staff_ratings,
    ("blackpowder", "blunders"): blunders,
    ("blackpowder", "artillery_dice"): artillery_dice,
    ("blackpowder", "rocket_mishaps"): rocket_mishaps,
    ("blackpowder", "freshly_raised"): freshly_raised,
    ("blackpowder", "untested"): untested,
    ("blackpowder", "building_bonus"): building_bonus,
    ("blackpowder", "special_rules"): special_rules,
    ("oilandiron", "heat_threshold"): heat_threshold,
    ("oilandiron", "hit_location"): hit_location,
    ("oilandiron", "damage_grades"): damage_grades,
    ("oilandiron", "arc_bonus"): arc_bonus,
    ("oilandiron", "ram_str"): ram_str,
    ("oilandiron", "round_end"): round_end,
    ("oilandiron", "destroyed_rig_vp"): destroyed_rig_vp,
    ("oilandiron", "formations"): formations,
    ("oilandiron", "equipment"): equipment,
    ("oilandiron", "perks"): perks,
}
