"""Checks of a force's units against the army they belong to, run when a scenario is read (and
on forces typed in): every unit's army is one its side fields, and a unit's profile is of its
arm (horse guns on a horse profile, hussars on a cavalry one) and of its nation, unless the
scenario line says why it is not (``why:``).

A unit's nation is the one its scenario line states (``nation:``), else its profile's: a
borrowed profile never changes whose the unit is.
"""
from __future__ import annotations

import re

# Words in a unit's name that say its arm, and what the profile must then be.
GUN_KIND_WORDS = (
    (re.compile(r"\bhowitzers?\b", re.IGNORECASE), "howitzer"),
    (re.compile(r"\brockets?\b", re.IGNORECASE), "rocket"),
    (re.compile(r"\bhorse (battery|artillery|troop)\b|\bRHA\b", re.IGNORECASE), "horse"),
    (re.compile(r"\bfoot (battery|artillery)\b", re.IGNORECASE), "foot"),
)
CAVALRY_WORDS = re.compile(r"\b(hussars|lancers|uhlans|dragoons|cuirassiers|carabiniers|chasseurs à cheval)\b",
                           re.IGNORECASE)


def army_title(army: str) -> str:
    """"anglo-allied" → "Anglo-Allied"."""
    return army.title()


def side_armies(force, nations) -> tuple[str, ...]:
    """The armies a side fields: those it names, else its nation's."""
    if force.armies:
        return tuple(force.armies)
    if force.nation and nations[force.nation].army:
        return (nations[force.nation].army,)
    return ()


def arm_problem(name: str, profile) -> str | None:
    """Why a profile does not fit the arm the unit's name gives, or None."""
    for pattern, kind in GUN_KIND_WORDS:
        if pattern.search(name):
            if profile.type != "artillery" or profile.artillery_kind != kind:
                return (f"“{name}” is {kind} artillery by its name, but the profile “{profile.id}” is "
                        f"{profile.artillery_kind or profile.type}")
            return None
    if CAVALRY_WORDS.search(name) and profile.type != "cavalry":
        return f"“{name}” is cavalry by its name, but the profile “{profile.id}” is {profile.type}"
    return None


def check_units(force, side: str, profiles, nations, error, scenario: bool) -> None:
    """Every unit's army is one of its side's; its profile fits its arm and nation unless the line
    says why. ``error(entry, field, message, loc)`` makes the exception. A scenario side fields
    its nation's army unless it names its armies; a force typed in on the spot is held to the
    armies it names, if any (an umpire may mix armies under one nation's rules)."""
    label = f"{side.title()} ({force.name})"
    for army in force.armies:
        if army not in {n.army for n in nations.values() if n.army}:
            known = ", ".join(sorted({n.army for n in nations.values() if n.army}))
            raise error(label, "armies", f"unknown army “{army}” (known: {known})", ("sides", side, "armies"))
    armies = side_armies(force, nations) if scenario else tuple(force.armies)
    if scenario and not armies:
        raise error(label, "armies", "say which army or armies this side fields (its nation, or "
                                     "armies: [anglo-allied, prussian])", ("sides", side))
    for bi, b in enumerate(force.brigades):
        for ui, u in enumerate(b.units):
            where = f"{label}, brigade “{b.name}”, unit “{u.name}”"
            at = ("sides", side, "brigades", bi, "units", ui)
            p = profiles[u.profile]
            if u.nation and u.nation not in nations:
                raise error(where, "nation", f"unknown nation “{u.nation}”", at + ("nation",))
            nation = nations[u.nation or p.nation]
            if u.nation and u.nation != p.nation and not u.why:
                raise error(where, "why", f"the unit is {nation.name} on the {nations[p.nation].name} profile "
                                          f"“{p.id}”: say why (why: ...)", at + ("nation",))
            if armies and nation.army not in armies:
                whose = f"of the {army_title(nation.army)} army" if nation.army else "of no army"
                raise error(where, "nation", f"the unit is {whose} (nation “{nation.id}”), not of this side's "
                                             f"{' and '.join(army_title(a) for a in armies)}; give the unit "
                                             f"its own nation (nation: ...) or a profile of its own",
                            at + ("profile",))
            problem = arm_problem(u.name, p)
            if problem and not u.why:
                raise error(where, "profile", f"{problem}: use a profile of its arm or say why (why: ...)",
                            at + ("profile",))
