"""Tables built from the engines' own constants and the data files they read.

An entry names one with ``table: <key>``; the reference then prints exactly what the engine
uses, so a change to a table in the engine shows in the reference at once.
"""
from __future__ import annotations

from collections.abc import Callable

from ..blackpowder.artillery import DICE_BY_BAND, MISFIRE_TABLE, MISHAP_TABLE, RANGE_BANDS, VEER_TABLE
from ..blackpowder.attacks import BUILDING_BONUS, FRESHLY_RAISED, UNIT_SIZE_BUILDING_BONUS
from ..blackpowder.blunders import BLUNDER_TABLE
from ..blackpowder.morale import UNTESTED_SIZE, UNTESTED_TABLE
from ..blackpowder.order_tests import STAFF_RATING_WORDS
from ..blackpowder.special_rules import COMMANDER_RULES, UNIT_RULES
from ..data.oilandiron import load_engagements, load_equipment, load_formations, load_perks
from ..oilandiron.attacks import ARC_BONUS, ARCS
from ..oilandiron.damage import DAMAGE_BY_GRADE, GRADE_LABELS, HIT_LOCATIONS
from ..oilandiron.heat import HEAT_TABLE
from ..oilandiron.model import LOCATION_LABELS, RAM_STR
from ..oilandiron.rounds import ENDS_ON
from ..systems import BLACK_POWDER, OIL_AND_IRON
from .entries import Book, Table
from .generated import slug


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else ("0" if n == 0 else f"−{abs(n)}")


# --- Black Powder ---------------------------------------------------------------------------------

def staff_ratings(book: Book) -> list[Table]:
    return [Table(("Rating", "The commander is"),
                  tuple((str(r), w) for r, w in sorted(STAFF_RATING_WORDS.items(), reverse=True)))]


def blunders(book: Book) -> list[Table]:
    rows = []
    for die, (name, moves, what) in sorted(BLUNDER_TABLE.items()):
        how = f"{moves} move{'s' if moves != 1 else ''}" if moves else "a D6 for the moves: 1–2 one, 3–4 two, 5–6 three"
        rows.append((str(die), name, f"The units {what} ({how})."))
    return [Table(("D6", "Blunder", "What happens"), tuple(rows))]


def artillery_dice(book: Book) -> list[Table]:
    return [Table(("Range", "Dice"), tuple((RANGE_BANDS[b], str(n)) for b, n in DICE_BY_BAND.items()))]


def rocket_mishaps(book: Book) -> list[Table]:
    mishap = Table(("D6", "Mishap"), tuple((str(d), r) for d, r in sorted(MISHAP_TABLE.items())), "Rocket mishap")
    misfire = Table(("D6", "Misfire"), tuple((str(d), f"The rocket: {r}") for d, r in sorted(MISFIRE_TABLE.items())),
                    "Misfire (mishap 1, roll again)")
    veer = Table(("D6", "Veers up to"), tuple((str(d), f"{r}\", hitting the first unit that way" if r
                                               else "any range, hitting the first unit that way")
                                              for d, r in sorted(VEER_TABLE.items())), "Veering rocket (mishap 4–6)")
    return [mishap, misfire, veer]


def freshly_raised(book: Book) -> list[Table]:
    return [Table(("D6", "How they cope"), tuple((str(d), r) for d, r in sorted(FRESHLY_RAISED.items())))]


def untested(book: Book) -> list[Table]:
    caption = "Die modifier: " + ", ".join(f"{size} {_signed(n)}" for size, n in UNTESTED_SIZE.items())
    return [Table(("D6", "Stamina"), tuple((str(d), str(s)) for d, s in sorted(UNTESTED_TABLE.items())), caption)]


def building_bonus(book: Book) -> list[Table]:
    rows = tuple((size.capitalize(), _signed(BUILDING_BONUS[size]), _signed(UNIT_SIZE_BUILDING_BONUS[size]))
                 for size in ("large", "standard", "small"))
    return [Table(("Size", "By the building (default)", "By the unit"), rows + (("Artillery", "–", "0"),))]


def special_rules(book: Book) -> list[Table]:
    return [Table(("Rule", "Effect"), tuple((n, r.description) for n, r in {**UNIT_RULES, **COMMANDER_RULES}.items()))]


# --- Of Oil and Iron ------------------------------------------------------------------------------

def heat_threshold(book: Book) -> list[Table]:
    rows, low = [], 1
    for top, _key, label in HEAT_TABLE:
        span = f"{low}+" if top > 100 else (f"{low}" if low == top else f"{low}–{top}")
        entry = book.entries.get(slug(label))
        rows.append((span, label, entry.text if entry else ""))
        low = top + 1
    return [Table(("D12 + heat over threshold", "Result", "Effect"), tuple(rows))]


def hit_location(book: Book) -> list[Table]:
    rows, low = [], 1
    for top, loc in HIT_LOCATIONS:
        rows.append((f"{low}–{top}", LOCATION_LABELS[loc]))
        low = top + 1
    return [Table(("D12", "Location"), tuple(rows))]


def damage_grades(book: Book) -> list[Table]:
    return [Table(("Impact total reaches", "Structure lost"),
                  tuple((GRADE_LABELS[g].split(" (")[0].capitalize() if g != "none" else "Below Direct",
                         str(n)) for g, n in DAMAGE_BY_GRADE.items()))]


def arc_bonus(book: Book) -> list[Table]:
    return [Table(("Attacked through the target's", "STR"), tuple((f"{ARCS[a]} arc", _signed(n))
                                                                   for a, n in ARC_BONUS.items()))]


def ram_str(book: Book) -> list[Table]:
    return [Table(("Weight class", "Ram STR"), tuple((c.capitalize(), str(n)) for c, n in RAM_STR.items()))]


def round_end(book: Book) -> list[Table]:
    return [Table(("After round", "The engagement ends on a D12 of"),
                  tuple((str(r), "always" if n <= 1 else f"{n}+") for r, n in sorted(ENDS_ON.items())))]


def destroyed_rig_vp(book: Book) -> list[Table]:
    vp = load_engagements().destroyed_rig_vp
    return [Table(("Rig destroyed", "VP"), tuple((c.capitalize(), str(n)) for c, n in vp.items()))]


def formations(book: Book) -> list[Table]:
    rows = []
    for tier in load_formations().tiers:
        for f in tier.formations:
            rows.append((tier.name, f.name) + tuple(str(getattr(f, c)) if getattr(f, c) else "–"
                                                    for c in ("light", "medium", "heavy", "colossal")))
    return [Table(("Tier", "Formation", "Light", "Medium", "Heavy", "Colossal"), tuple(rows))]


def equipment(book: Book) -> list[Table]:
    out = []
    cards = list(load_equipment().values())
    for table in sorted({c.table for c in cards}):
        out.append(Table(("#", "Card", "Iron", "Effect"),
                         tuple((str(c.number), c.name, str(c.iron), c.effect) for c in cards if c.table == table),
                         f"Table {table}"))
    return out


def perks(book: Book) -> list[Table]:
    return [Table(("Perk", "Effect"), tuple((p.name + (" X" if p.x else ""), p.description)
                                            for p in load_perks().values()))]


TABLES: dict[tuple[str, str], Callable[[Book], list[Table]]] = {
    (BLACK_POWDER, "staff_ratings"): staff_ratings,
    (BLACK_POWDER, "blunders"): blunders,
    (BLACK_POWDER, "artillery_dice"): artillery_dice,
    (BLACK_POWDER, "rocket_mishaps"): rocket_mishaps,
    (BLACK_POWDER, "freshly_raised"): freshly_raised,
    (BLACK_POWDER, "untested"): untested,
    (BLACK_POWDER, "building_bonus"): building_bonus,
    (BLACK_POWDER, "special_rules"): special_rules,
    (OIL_AND_IRON, "heat_threshold"): heat_threshold,
    (OIL_AND_IRON, "hit_location"): hit_location,
    (OIL_AND_IRON, "damage_grades"): damage_grades,
    (OIL_AND_IRON, "arc_bonus"): arc_bonus,
    (OIL_AND_IRON, "ram_str"): ram_str,
    (OIL_AND_IRON, "round_end"): round_end,
    (OIL_AND_IRON, "destroyed_rig_vp"): destroyed_rig_vp,
    (OIL_AND_IRON, "formations"): formations,
    (OIL_AND_IRON, "equipment"): equipment,
    (OIL_AND_IRON, "perks"): perks,
}
