"""The catalogue of Black Powder special rules, in the app's own words.

Every rule a unit or commander can carry is listed here with a short description and the place
in the app that applies it, so a unit card can explain each tag. Rules that the army lists name
but the rules summary never defines (``shared/RULES-GAPS.md``) are kept as tags: they are shown,
some restrict formations, and nothing else is computed from them.
"""
from __future__ import annotations

from dataclasses import dataclass

from .model import Commander, rule_matches


@dataclass(frozen=True)
class RuleInfo:
    name: str
    kind: str  # "unit" | "commander" | "tag"
    description: str
    applied_in: str  # where the app uses it, for the curious umpire

    @property
    def defined(self) -> bool:
        return self.kind != "tag"


def _unit(name: str, description: str, applied_in: str) -> RuleInfo:
    return RuleInfo(name, "unit", description, applied_in)


def _commander(name: str, description: str, applied_in: str) -> RuleInfo:
    return RuleInfo(name, "commander", description, applied_in)


def _tag(name: str, description: str, applied_in: str = "Shown on the unit card only") -> RuleInfo:
    return RuleInfo(name, "tag", description, applied_in)


UNIT_RULES: dict[str, RuleInfo] = {r.name: r for r in (
    _unit("Bloodthirsty",
          "Once in the game, in the opening round of a melee, every missed attack may be rolled again.",
          "Hand-to-hand combat (once per game, recorded on the unit)"),
    _unit("Brave",
          "A shaken unit well clear of the enemy (over 12\") may try to pull itself together: "
          "on a 4 or more it sheds a casualty marker.",
          "Command phase: the “Brave rally” action"),
    _unit("Crack",
          "While it has not yet taken a single casualty, the unit may roll one failed save again "
          "each time it is hit.",
          "Morale saves"),
    _unit("Determined Charge",
          "The unit has no say in the matter: if an enemy is within charge reach it must charge.",
          "Orders: a reminder on the unit card and in the order notes"),
    _unit("Elite",
          "Disorder wears off quickly: at the start of its Command phase, a disordered unit out of "
          "combat rolls a die and recovers on the number given (Elite 4+ needs a 4 or more).",
          "Command phase: the “Elite rally” action"),
    _unit("Ferocious Charge",
          "In the first round of a combat it entered by charging or countercharging, every missed "
          "attack may be rolled again.",
          "Hand-to-hand combat"),
    _unit("First Fire",
          "The unit's very first volley of the battle gets one extra die.",
          "Shooting (once per game, recorded on the unit)"),
    _unit("Form Square",
          "When enemy horse charge its front, the unit may (and must) try to form square, even if "
          "disordered, by passing an order test. Double 6: it forms but is disordered; double 1: "
          "it is disordered and fails to form. No closing fire from a square formed this way.",
          "Charge responses (uses the order test)"),
    _unit("Freshly Raised",
          "Green troops: the first time they shoot and the first time they fight, a die decides how "
          "they cope, from freezing up (6s to hit and disordered) to an extra shot or attack.",
          "Shooting and hand-to-hand combat (once each per game)"),
    _unit("Heavy Cavalry",
          "Big men on big horses: when charging or countercharging, add D3 (or the fixed bonus the "
          "list gives, e.g. +1) to the combat result.",
          "Hand-to-hand combat results"),
    _unit("Lancers",
          "On a charge or countercharge their hits are harder to save: cavalry save at −1, infantry "
          "and artillery at −2.",
          "Hand-to-hand combat (saves)"),
    _unit("Marauders",
          "Used to acting on their own: no penalty for the commander's distance when ordered (if "
          "every unit in the order has the rule). Disordered Marauder cavalry may still turn to "
          "face and evade.",
          "Orders; charge responses"),
    _unit("Mounted Infantry",
          "Rides to the fight and fights on foot: it may mount or dismount as part of an ordered "
          "move, and uses a different profile in each state.",
          "Orders: the mount / dismount choice swaps the profile"),
    _unit("Poor Shooters",
          "Each time the unit shoots, one of its hits must be rolled again.",
          "Shooting"),
    _unit("Reliable",
          "Dependable troops: +1 to the Staff Rating when ordered alone or in a group where every "
          "unit is Reliable.",
          "Orders"),
    _unit("Sharp Shooters",
          "Each time the unit shoots, one missed shot may be rolled again.",
          "Shooting"),
    _unit("Steady",
          "The first break test the unit ever takes is passed automatically, as if it scored the "
          "highest possible result.",
          "Break tests (once per game, recorded on the unit)"),
    _unit("Stubborn",
          "Each time the unit takes casualties, one failed save may be rolled again.",
          "Morale saves"),
    _unit("Superbly Drilled",
          "Even when its order fails, the unit still gets a free move (like a march column would).",
          "Orders: stated in the result of a failed order"),
    _unit("Terrifying Charge",
          "Whoever this unit charges must take a break test on contact, before closing fire.",
          "Charges"),
    _unit("Tough Fighters",
          "One missed hand-to-hand attack may be rolled again each turn.",
          "Hand-to-hand combat"),
    _unit("Unreliable",
          "Hard to get moving: a command roll exactly equal to the Staff Rating gives this unit no "
          "move at all.",
          "Orders"),
    _unit("Untested",
          "Nobody knows how long it will last: its Stamina is rolled when it takes its first "
          "casualty (large units +1, small −1 on the die).",
          "Morale saves (the first casualty rolls the Stamina)"),
    _unit("Valiant",
          "Once in the battle, a failed break test may be taken again.",
          "Break tests (once per game, recorded on the unit)"),
    _unit("Wavering",
          "Brittle: any casualty at all, from shooting or combat, forces a break test.",
          "Shooting and hand-to-hand combat"),
)}

COMMANDER_RULES: dict[str, RuleInfo] = {r.name: r for r in (
    _commander("Aggressive",
               "+1 to his Staff Rating when he orders a charge at an enemy within reach.",
               "Orders"),
    _commander("Decisive",
               "A failed order may be rolled again; if that second roll fails too, it is a blunder. "
               "When the General's re-roll is used instead, there is no such risk.",
               "Orders"),
    _commander("Diffident",
               "−1 to his Staff Rating while the General is more than 12\" away; on the other hand his "
               "blunders are only ordinary failures.",
               "Orders"),
    _commander("Headstrong",
               "+1 to his Staff Rating if he is the first commander to give an order this turn. He can "
               "never use the General's re-roll and blunders on 11 as well as 12.",
               "Orders (the app remembers who ordered first each turn)"),
    _commander("Hesitant",
               "A roll giving 3 moves must be taken again, and the second roll stands whatever it is.",
               "Orders"),
    _commander("Inspirational",
               "+1 to break tests of units of his command within 12\" of him.",
               "Break tests"),
    _commander("Loathed",
               "−1 to break tests of units of his command within 12\" of him.",
               "Break tests"),
    _commander("Timid",
               "−1 to his Staff Rating when he orders a charge, +1 when he orders a retreat.",
               "Orders"),
)}

# Named in the army lists, never explained in the summary (RULES-GAPS: kept as tags).
TAGS: dict[str, RuleInfo] = {r.name: r for r in (
    _tag("Column of Companies", "A drill for moving in narrow columns; the summary gives it no effect."),
    _tag("Cannot Form Attack Column", "Drilled to fight in line: the unit is never offered Attack Column.",
         "Formation choices (orders and the umpire's corrections)"),
    _tag("Four-Deep Line", "A deeper line used against cavalry; the summary gives it no effect."),
    _tag("Lie Down", "The battalion may lie down to shelter from fire; the summary gives it no effect."),
    _tag("Steady Line", "A line that holds its nerve; the summary gives it no effect."),
    _tag("Mixed Formation", "The unit may use Mixed Formation (a line or column with a skirmish screen)."),
    _tag("Rifle Mixed Formation", "A mixed formation screened by riflemen; the summary gives it no extra effect."),
    _tag("Skirmishers", "Light troops able to take skirmish order; the summary gives the tag no further effect."),
    _tag("Deep Formation", "Cavalry formed in depth; the summary gives it no effect."),
    _tag("Gallop at Anything", "Cavalry prone to galloping off after anything; the summary gives it no effect."),
    _tag("Pas de Charge", "The French drummed advance; the summary gives it no effect."),
    _tag("Shrapnel", "British guns: at medium range, 3 dice needing 5s to hit instead of 2 dice.",
         "Artillery shooting"),
)}

# Names used in the lists for rules defined under another name.
ALIASES = {
    "must form square": "Form Square",
    "lancer": "Lancers",
    "marauder": "Marauders",
    "heavy cavalry +1": "Heavy Cavalry",
    "heavy cavalry d3": "Heavy Cavalry",
}

CATALOGUE: dict[str, RuleInfo] = {**UNIT_RULES, **COMMANDER_RULES, **TAGS}
_BY_LOWER = {k.lower(): v for k, v in CATALOGUE.items()}


def lookup(rule_name: str) -> RuleInfo | None:
    """The catalogue entry for a rule as a list writes it ("Elite 4+", "Lancer", "Must Form Square")."""
    key = rule_name.strip().lower()
    key = ALIASES.get(key, key).lower()
    if key in _BY_LOWER:
        return _BY_LOWER[key]
    # A value after the name: "Elite 4+", "Heavy Cavalry D3"; never a longer name read by its start.
    for name, info in _BY_LOWER.items():
        if rule_matches(key, name):
            return info
    alias = next((v for k, v in ALIASES.items() if rule_matches(key, k)), None)
    return _BY_LOWER.get(alias.lower()) if alias else None


def describe(rule_name: str) -> str:
    """One or two sentences for the unit card; a rule the catalogue lacks says so."""
    info = lookup(rule_name)
    if info is None:
        return f"“{rule_name}” is not a rule the app knows: the umpire applies it by hand."
    return info.description


def is_defined(rule_name: str) -> bool:
    """True for rules the summary defines (and the app applies); False for tags and unknown names."""
    info = lookup(rule_name)
    return info is not None and info.defined


# --- commanders' rules -------------------------------------------------------------------------

def commander_rules(commander: Commander | None) -> tuple[str, ...]:
    """His rules as the battle document holds them. A key commander's rating, rules and personal
    rules come from ``armylists/blackpowder/commanders.yaml`` when the battle is built."""
    return () if commander is None else tuple(commander.rules)


def has_commander_rule(commander: Commander | None, rule: str) -> bool:
    return rule.lower() in (r.lower() for r in commander_rules(commander))
