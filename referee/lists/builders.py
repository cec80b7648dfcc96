"""What each game's list builder does its own way, so the web layer asks for a game's builder and
never branches on a game's name: the menus a half-typed list offers, the Iron each Rig uses, a
blank list, the form made ready before it is read, and the options of a game started from two
lists (``BUILDERS``, by the game's name from ``referee.systems``)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

from ..data.blackpowder import load_commanders, load_nations, load_unit_profiles
from ..data.oilandiron import load_engagements
from ..systems import BLACK_POWDER, OIL_AND_IRON
from . import forms
from .blackpowder import blank_army, profiles_for
from .formations import load_tiers
from .oilandiron import blank_squadron, chassis_cards, engine_cards, equipment_for, rig_iron, weapon_cards
from .travel import ROWS, dump, parse


@dataclass(frozen=True)
class Builder:
    # What the builder's menus offer, given the list as it stands.
    menus: Callable[[dict], dict]
    # The list a new builder opens with, as the form holds it.
    blank: Callable[[], dict]
    # (used, carried) Iron per Rig, or nothing (no Iron in this game, or cards still being typed).
    iron: Callable[[dict], list] = lambda data: []
    # The posted form made ready to read (cards typed in, the tier its formation names).
    prepare: Callable[[dict], None] = lambda data: None
    # The engagement types a game started from two lists may be (none: the game has none).
    engagements: Callable[[], list] = lambda: []
    # The start form's options for ``table.lists.start_game``: (form, engagements) -> keywords.
    start_options: Callable[[Mapping[str, str], list], dict] = lambda form, engagements: {}
    # Whether each row's summary follows the live check (the Rigs' Iron lines).
    rows_follow_check: bool = False
    # The rows the builder draws, each with its own problems (patterns, ``problems.row_of``).
    rows: tuple[str, ...] = ()


def _army_menus(data: dict) -> dict:
    try:
        army = blank_army(nation=str(data.get("nation") or "british"))
        army = army.model_copy(update={"allies": [a for a in data.get("allies") or [] if isinstance(a, str)]})
        profiles = profiles_for(army)
    except Exception:  # noqa: BLE001 - a half-typed form still gets menus
        profiles = profiles_for(blank_army())
    nations = load_nations()
    return {"nations": nations, "profiles": profiles, "commanders": load_commanders(),
            "all_profiles": load_unit_profiles(),
            "nation_options": [(n.id, n.name) for n in nations.values() if n.id != "generic"]}


def _blank_army() -> dict:
    model = blank_army(name="").model_copy(update={"brigades": []})
    data = dump(model)
    data["brigades"] = [{"name": "", "commander": forms.new_commander(), "units": []}]
    return data


def _squadron_menus(data: dict) -> dict:
    try:
        sq = parse(OIL_AND_IRON, {**blank_squadron().model_dump(by_alias=True),
                                  "cards": data.get("cards") or {}, "campaign": bool(data.get("campaign"))})
    except Exception:  # noqa: BLE001 - cards still being typed: offer the shipped ones
        sq = blank_squadron().model_copy(update={"campaign": bool(data.get("campaign"))})
    weapons = weapon_cards(sq)
    return {"tiers": load_tiers(), "chassis": chassis_cards(sq), "engines": engine_cards(sq),
            "weapons": weapons, "equipment": equipment_for(sq),
            "chassis_options": [(c.key, f"{c.name} · {c.weight_class.title()} · Iron {c.iron}")
                                for c in chassis_cards(sq).values()],
            "engine_options": [(e.key, f"{e.name} · Iron {e.iron}") for e in engine_cards(sq).values()],
            "weapon_options": [(w.key, f"{w.name} · Iron {w.iron}") for w in weapons.values()],
            "equipment_options": [(c.key, f"{c.table}{c.number} {c.name} · Iron {c.iron}"
                                   + (" · campaign only" if c.campaign_only else "")) for c in equipment_for(sq)],
            "mount_options": [("left", "Left arm"), ("right", "Right arm"), ("hull", "Hull (Colossal)")],
            "weight_options": [(w, w.title()) for w in ("light", "medium", "heavy", "colossal")]}


def _squadron_iron(data: dict) -> list:
    try:
        sq = parse(OIL_AND_IRON, data)
    except ValueError:  # cards still being typed: no totals until they read
        return []
    return [rig_iron(sq, r) for r in sq.rigs]


def _blank_squadron() -> dict:
    data = dump(blank_squadron())
    # One empty row per Rig the default formation fields: no "+ Add a Rig" taps to begin.
    tier = load_tiers()[data["tier"]]
    fm = next(f for f in tier.formations if f.key == data["formation"])
    data["rigs"] = [forms.new_rig() for _ in range(fm.light + fm.medium + fm.heavy + fm.colossal)]
    return data


def _prepare_squadron(data: dict) -> None:
    forms.prepare_cards(data)
    # The formation names its tier (formation names are unique across tiers).
    for tier in load_tiers().values():
        if any(fm.key == data.get("formation") for fm in tier.formations):
            data["tier"] = tier.key


def _engagement_options(form: Mapping[str, str], engagements: list) -> dict[str, Any]:
    etype = form.get("engagement") or None
    options: dict[str, Any] = {"engagement_type": etype}
    chosen = next((e for e in engagements if e.key == etype), None)
    if chosen and chosen.roles:
        first_role = form.get("first_role") or chosen.roles[0]
        other = next((r for r in chosen.roles if r != first_role), chosen.roles[1])
        options["roles"] = (first_role, other)
    return options


BUILDERS: dict[str, Builder] = {
    BLACK_POWDER: Builder(menus=_army_menus, blank=_blank_army, rows=ROWS[BLACK_POWDER]),
    OIL_AND_IRON: Builder(menus=_squadron_menus, blank=_blank_squadron, iron=_squadron_iron,
                          prepare=_prepare_squadron, engagements=lambda: load_engagements().engagements,
                          start_options=_engagement_options, rows_follow_check=True,
                          rows=ROWS[OIL_AND_IRON]),
}


def builder_for(system: str) -> Builder:
    return BUILDERS[system]
