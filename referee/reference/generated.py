"""Entries made from the data the engines read, so the reference and the referee cannot disagree.

Each generator yields ``(entry fields, source)`` pairs in the shape of a section file's entry;
a section names the generators it holds (``generate: [perks]``) and may ``extend`` what they make.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from ..blackpowder.special_rules import ALIASES, COMMANDER_RULES, TAGS, UNIT_RULES
from ..data.blackpowder import load_commanders, load_nations
from ..data.oilandiron import load_engagements, load_equipment, load_perks
from ..data.scenarios import list_scenarios
from ..oilandiron.heat import HEAT_TABLE
from ..systems import BLACK_POWDER, OIL_AND_IRON

Made = Iterator[tuple[dict, str]]


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower().replace("'", "")).strip("-")


# --- Black Powder ---------------------------------------------------------------------------------

def _catalogue_entries(rules: dict, kind: str) -> Made:
    aliases: dict[str, list[str]] = {}
    for alias, target in ALIASES.items():
        aliases.setdefault(target, []).append(alias)
    for name, info in rules.items():
        text = info.description
        if info.applied_in:
            text += f"\n\nWhere Referee applies it: {info.applied_in}."
        names = [name] + aliases.get(name, [])
        if kind == "commander":
            names = [name, f"{name} (commander)"]
        yield ({"id": slug(name), "title": name, "text": text, "names": names},
               "referee/blackpowder/special_rules.py")


def unit_rules() -> Made:
    yield from _catalogue_entries(UNIT_RULES, "unit")


def tags() -> Made:
    yield from _catalogue_entries(TAGS, "tag")


def commander_rules() -> Made:
    yield from _catalogue_entries(COMMANDER_RULES, "commander")


def key_commanders() -> Made:
    nations = load_nations()
    for c in load_commanders().values():
        nation = nations[c.nation].name if c.nation in nations else c.nation
        lines = [f"{nation}. Staff Rating {c.staff_rating}"
                 + (f"; commander rules: {', '.join(c.rules)}." if c.rules else ".")]
        lines += [f"- {a}" for a in c.abilities]
        if c.attacks or c.attacks_defending:
            fight = f"- In a fight he adds {c.attacks} attack{'s' if c.attacks != 1 else ''}"
            if c.attacks_defending != c.attacks:
                fight += f" ({c.attacks_defending} when his unit was charged)"
            lines.append(fight + ".")
        yield ({"id": c.id, "title": c.name, "text": "\n".join(lines), "names": [c.name],
                "synonyms": ["key commander", "personality"]}, "armylists/blackpowder/commanders.yaml")


def nations() -> Made:
    rows, names = [], ["Nation", "Nations"]
    every = load_nations()
    for n in every.values():
        rules = []
        if n.infantry_tough_fighters_against:
            foes = [every[k].name if k in every else k for k in n.infantry_tough_fighters_against]
            rules.append("infantry are Tough Fighters against " + ", ".join(foes) + " units")
        if n.commander_rules:
            rules.append("every commander is " + ", ".join(n.commander_rules))
        if n.sub_commander_points:
            rules.append(f"extra sub-commanders for {n.sub_commander_points} points")
        rows.append([n.name, "; ".join(rules) or "none", n.notes])
        names.append(n.name)
    yield ({"id": "nations", "title": "Nations", "names": names, "synonyms": ["national rules", "army", "prussians"],
            "text": "The armies of the campaign and the standing rules of each. Where the summary has a heading "
                    "for a nation's rules but nothing under it, nothing is applied.",
            "columns": ["Nation", "Rules", "Notes"], "rows": rows,
            "reading": "A unit's nation is its profile's, else its army's; nothing is guessed from names.",
            "settings": ["prussians_tough_vs_french"]}, "armylists/blackpowder/nations.yaml")


def scenarios() -> Made:
    for s in list_scenarios(BLACK_POWDER):
        lines = [s.summary, "", f"{s.blue} (moving first) against {s.red}"
                 + (f", {s.turns} turns." if s.turns else ".")]
        if s.outline:
            lines += ["", "An outline: the forces are a starting point to edit before playing."]
        yield ({"id": slug(s.id), "title": s.title, "text": "\n".join(lines), "names": [s.title, s.id],
                "reading": f"Victory: {s.victory}" if s.victory else ""}, f"scenarios/blackpowder/{s.id}.yaml")


# --- Of Oil and Iron ------------------------------------------------------------------------------

def perks() -> Made:
    for p in load_perks().values():
        title = p.name + (" X" if p.x else "")
        yield ({"id": slug(p.name), "title": title, "text": p.description, "names": [p.name, p.key]},
               "armylists/oilandiron/perks.yaml")


def equipment() -> Made:
    for card in load_equipment().values():
        facts = [f"Table {card.table}, card {card.number}", f"Iron {card.iron}"]
        if card.action:
            facts.append(f"an action, {card.heat} heat")
        for flag, words in (("once_per_game", "once per game"), ("once_per_activation", "once per activation"),
                            ("discard", "discarded once used"), ("campaign_only", "campaign only")):
            if getattr(card, flag):
                facts.append(words)
        yield ({"id": slug(card.name), "title": card.name, "text": card.effect + "\n\n" + " · ".join(facts) + ".",
                "names": [card.name, card.key]}, "armylists/oilandiron/equipment.yaml")


def engagements() -> Made:
    for e in load_engagements().engagements:
        kind = "A special engagement" if e.category == "special" else "A standard engagement"
        roles = f" between {' and '.join(r.replace('_', ' ') for r in e.roles)}" if e.roles else ""
        yield ({"id": slug(e.name), "title": e.name, "text": f"{e.summary}\n\n{kind}{roles}.",
                "names": [e.name, e.key], "reading": e.note or ""}, "scenarios/oilandiron/engagements.yaml")


def heat_rows() -> Made:
    low = 1
    for top, key, label in HEAT_TABLE:
        span = f"{low}+" if top > 100 else (f"{low}" if low == top else f"{low}–{top}")
        yield ({"id": slug(label), "title": label, "names": [label, key],
                "text": "", "synonyms": [f"heat roll {span}"]}, "referee/oilandiron/heat.py")
        low = top + 1


GENERATORS: dict[tuple[str, str], Callable[[], Made]] = {
    (BLACK_POWDER, "unit_rules"): unit_rules,
    (BLACK_POWDER, "tags"): tags,
    (BLACK_POWDER, "commander_rules"): commander_rules,
    (BLACK_POWDER, "key_commanders"): key_commanders,
    (BLACK_POWDER, "nations"): nations,
    (BLACK_POWDER, "scenarios"): scenarios,
    (OIL_AND_IRON, "perks"): perks,
    (OIL_AND_IRON, "equipment"): equipment,
    (OIL_AND_IRON, "engagements"): engagements,
    (OIL_AND_IRON, "heat_rows"): heat_rows,
}
