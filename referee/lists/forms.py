"""The builders' plain HTML forms: flat field names ("brigades.1.units.0.profile") to a list and
back, and the builder's buttons (add a brigade, take a unit out ...) as edits of that list.

Every button of the builder is a submit button named ``op``, so the builder works without
JavaScript: the server applies the edit and draws the form again. Nothing the player typed is
lost on the way: a value that does not fit (a letter in a number box) comes back as a problem
beside its field, with the form as it was typed.
"""
from __future__ import annotations

import copy
import re
from typing import Any, Iterable

from pydantic import ValidationError

from ..data.blackpowder import load_commanders
from ..systems import BLACK_POWDER
from .problems import Problem, placed
from .travel import MODELS, ROWS, ListModel

# Number boxes: left empty, they mean "not given" (the model's default), not zero.
NUMBERS = {"staff_rating", "points", "points_limit", "speed", "pivot", "aim", "iron", "exhaust",
           "heat_threshold", "heat_track", "rof", "str", "acc", "range", "base_mm", "speed_bonus",
           "first_numbered_heat_space", "hull", "arms", "legs", "engine_sp", "direct", "severe", "critical",
           "x", "weapon_slots"}
# Choices where an empty choice means "none".
OPTIONAL = {"engine", "mount", "weapon"}
LISTS_OF_TEXT = {"rules", "allies"}
FLAGS = {"campaign"}
# The deepest field a builder sends ("cards.weapons.0.profiles.0.range") has six parts: a name of
# more is not one of the form's, and is left out rather than nested without end.
MAX_PARTS = 10


def unflatten(form: Iterable[tuple[str, str]]) -> dict:
    """{"brigades.0.name": "A"} -> {"brigades": [{"name": "A"}]}. Lists grow to their highest index;
    a gap (a row the browser did not send) stays an empty row rather than vanishing."""
    root: dict = {}
    for key, value in form:
        if key in ("op", "csrf_token", "token") or key.startswith("_"):
            continue
        parts = key.split(".", MAX_PARTS)
        if len(parts) > MAX_PARTS or not all(parts):
            continue
        node: Any = root
        for i, part in enumerate(parts):
            last = i == len(parts) - 1
            nxt: Any = value if last else ([] if parts[i + 1].isdigit() else {})
            if isinstance(node, list):
                idx = int(part) if part.isdigit() else None
                if idx is None or idx > 200:
                    break
                while len(node) <= idx:
                    node.append({} if not last else None)
                if last:
                    node[idx] = value
                elif not isinstance(node[idx], (dict, list)):
                    node[idx] = nxt
                node = node[idx]
            else:
                if last:
                    if part in LISTS_OF_TEXT and part in node:
                        node[part] = f"{node[part]},{value}"
                    else:
                        node[part] = value
                else:
                    if not isinstance(node.get(part), (dict, list)):
                        node[part] = nxt
                    node = node[part]
    return _clean(root)


def _clean(node: Any, name: str = "") -> Any:
    if isinstance(node, dict):
        out = {}
        for k, v in node.items():
            v = _clean(v, k)
            if v is _DROP:
                continue
            out[k] = v
        return out
    if isinstance(node, list):
        return [{} if v is None else _clean(v) for v in node]
    if isinstance(node, str):
        text = node.strip()
        if name in LISTS_OF_TEXT:
            return [t.strip() for t in text.split(",") if t.strip()]
        if name in FLAGS:
            return text not in ("", "0", "off", "false", "no")
        if name in NUMBERS and text == "":
            return _DROP
        if name in OPTIONAL and text == "":
            return None
        if name in NUMBERS and re.fullmatch(r"[+-]?\d+", text):
            return int(text)
        return text
    return node


_DROP = object()


def card_key(name: str, taken: Iterable[str] = ()) -> str:
    """A card's key from its name ("Bulwark Mk II" -> "bulwark_mk_ii"), unique among ``taken``."""
    base = re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_") or "card"
    taken = set(taken)
    key, n = base, 2
    while key in taken:
        key, n = f"{base}_{n}", n + 1
    return key


def perks_from_text(text: str) -> list[dict]:
    """ "Melee, Explosive 3, limited ammo 2" -> [{"name": "melee"}, {"name": "explosive", "x": 3}, ...]"""
    out = []
    for part in (text or "").split(","):
        part = part.strip()
        if not part:
            continue
        m = re.fullmatch(r"(.*?)\s*(\d+)?", part)
        name = re.sub(r"[^a-z0-9]+", "_", m.group(1).lower()).strip("_")
        perk: dict = {"name": name}
        if m.group(2):
            perk["x"] = int(m.group(2))
        out.append(perk)
    return out


def perks_to_text(perks: list[dict]) -> str:
    """The perks as their box shows them; a perk the form sent in pieces without its name (not one
    the builder makes) is left out of the box, and the list's check names what is missing."""
    if not isinstance(perks, list):
        return perks if isinstance(perks, str) else ""
    return ", ".join(str(p["name"]).replace("_", " ") + (f" {p['x']}" if p.get("x") else "")
                     for p in perks if isinstance(p, dict) and p.get("name"))


def prepare_cards(data: dict) -> None:
    """Fill in what the card forms leave to the server: keys from names, perks from text."""
    cards = data.get("cards")
    if not isinstance(cards, dict):
        return
    for group in ("chassis", "engines", "weapons"):
        taken: list[str] = []
        for card in cards.get(group) or []:
            if not isinstance(card, dict):
                continue
            if not card.get("key"):
                card["key"] = card_key("my " + str(card.get("name") or group), taken)
            taken.append(card["key"])
            if group == "chassis" and isinstance(card.get("structure"), dict) and "engine_sp" in card["structure"]:
                card["structure"]["engine"] = card["structure"].pop("engine_sp")
            if group == "weapons":
                if isinstance(card.get("perks"), str):
                    card["perks"] = perks_from_text(card["perks"])
                card["profiles"] = [p for p in card.get("profiles") or [] if isinstance(p, dict) and p.get("range") is not None]


def _problems_from(exc: ValidationError) -> list[Problem]:
    out = []
    for err in exc.errors():
        path = ".".join(str(p) for p in err["loc"])
        msg = err["msg"].removeprefix("Value error, ")
        if err["type"] == "missing":
            msg = "is needed"
        elif err["type"] == "int_parsing":
            msg = "must be a whole number"
        out.append(Problem(path, spoken(err["loc"]), msg))
    return out


def spoken(loc: tuple) -> str:
    """'rigs.0.weapons.1.card' as a player reads it: 'Rig 1 › weapon 2 › card'."""
    words: list[str] = []
    for part in loc:
        if isinstance(part, int) and words:
            words[-1] = f"{words[-1].removesuffix('s')} {part + 1}"
        else:
            words.append(str(part).replace("_", " "))
    if words:
        words[0] = words[0][:1].upper() + words[0][1:]
    return " › ".join(words) or "The list"


def validate(system: str, data: dict) -> tuple[dict, ListModel | None, list[Problem]]:
    try:
        return data, MODELS[system].model_validate(data), []
    except ValidationError as e:
        return data, None, placed(_problems_from(e), ROWS[system])


# --- the builder's buttons ------------------------------------------------------------------------

def _ints(parts: list[str]) -> list[int]:
    return [int(p) for p in parts if p.isdigit()]


def _at(data: dict, path: str, default: Any = None) -> Any:
    node: Any = data
    for part in path.split("."):
        if isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        elif isinstance(node, dict) and part in node:
            node = node[part]
        else:
            return default
    return node


def _rows(data: dict, path: str) -> list:
    parent_path, _, name = path.rpartition(".")
    parent = _at(data, parent_path) if parent_path else data
    if not isinstance(parent, dict):
        raise ValueError(f"nothing at {parent_path}")
    rows = parent.get(name)
    if not isinstance(rows, list):
        rows = parent[name] = []
    return rows


def new_commander() -> dict:
    return {"name": "", "staff_rating": 8, "rules": []}


def apply_op(system: str, data: dict, op: str, form: dict | None = None) -> dict:
    """The data after one builder button; an unknown or stale button changes nothing."""
    data = copy.deepcopy(data)
    form = form or {}
    verb, *rest = op.split(":")
    idx = _ints(rest)
    try:
        if system == BLACK_POWDER:
            _bp_op(data, verb, idx, rest, form)
        else:
            _oi_op(data, verb, idx, rest, form)
    except (IndexError, ValueError, KeyError, TypeError):
        pass  # a button from an older page: the rows it named are gone
    return data


def _bp_op(data: dict, verb: str, idx: list[int], rest: list[str], form: dict) -> None:
    if verb == "add-brigade":
        _rows(data, "brigades").append({"name": "", "commander": new_commander(), "units": []})
    elif verb == "remove-brigade":
        brigade = _rows(data, "brigades").pop(idx[0])
        c = brigade.get("commander") or {}
        if c.get("name"):  # his brigade is gone, he is not: he waits for another
            _rows(data, "unassigned_commanders").append(c)
    elif verb == "add-unit":
        units = _rows(data, f"brigades.{idx[0]}.units")
        last = units[-1] if units else {}
        units.append({"profile": last.get("profile", ""), "name": ""})
    elif verb == "copy-unit":
        units = _rows(data, f"brigades.{idx[0]}.units")
        units.insert(idx[1] + 1, {**units[idx[1]], "name": ""})
    elif verb == "remove-unit":
        _rows(data, f"brigades.{idx[0]}.units").pop(idx[1])
    elif verb == "add-commander":
        _rows(data, "unassigned_commanders").append(new_commander())
    elif verb == "remove-commander":
        _rows(data, "unassigned_commanders").pop(idx[0])
    elif verb == "assign-commander":
        spare = _rows(data, "unassigned_commanders")
        target = int(form.get(f"_assign.{idx[0]}", "x"))
        brigade = _rows(data, "brigades")[target]
        commander = spare.pop(idx[0])
        old = brigade.get("commander") or {}
        brigade["commander"] = commander
        if old.get("name"):
            spare.append(old)
    elif verb == "use-key":
        path = rest[0]
        key = form.get(f"_key.{path}", "")
        if key in load_commanders():
            c = load_commanders()[key]
            holder_path, _, name = path.rpartition(".")
            holder = _at(data, holder_path) if holder_path else data
            old = holder.get(name) or {}
            holder[name] = {"key": c.id, "name": c.name, "staff_rating": c.staff_rating, "rules": list(c.rules),
                            **({"points": old["points"]} if old.get("points") is not None else {})}


def new_rig() -> dict:
    """An empty Rig row for the squadron builder."""
    return {"name": "", "chassis": "", "engine": None, "weapons": [], "equipment": []}


def _untouched(rig) -> bool:
    return isinstance(rig, dict) and not any(rig.get(k) for k in ("name", "chassis", "engine", "weapons", "equipment"))


def _oi_op(data: dict, verb: str, idx: list[int], rest: list[str], form: dict) -> None:
    if verb == "add-rig":
        _rows(data, "rigs").append(new_rig())
    elif verb == "copy-rig":
        rigs = _rows(data, "rigs")
        twin = {**copy.deepcopy(rigs[idx[0]]), "name": ""}
        # The copy fills a Rig row still untouched (a new squadron opens with one per Rig its
        # formation fields), the first after the one copied, else it is a row of its own.
        blank = [i for i, r in enumerate(rigs) if i != idx[0] and _untouched(r)]
        after = [i for i in blank if i > idx[0]]
        if blank:
            rigs[(after or blank)[0]] = twin
        else:
            rigs.insert(idx[0] + 1, twin)
    elif verb == "remove-rig":
        _rows(data, "rigs").pop(idx[0])
    elif verb == "add-weapon":
        _rows(data, f"rigs.{idx[0]}.weapons").append({"card": "", "mount": None})
    elif verb == "remove-weapon":
        _rows(data, f"rigs.{idx[0]}.weapons").pop(idx[1])
    elif verb == "add-equipment":
        _rows(data, f"rigs.{idx[0]}.equipment").append({"key": "", "weapon": None})
    elif verb == "remove-equipment":
        _rows(data, f"rigs.{idx[0]}.equipment").pop(idx[1])
    elif verb == "add-card":
        group = rest[0]
        if group not in ("chassis", "engines", "weapons"):
            return
        cards = data.setdefault("cards", {})
        if not isinstance(cards, dict):
            cards = data["cards"] = {}
        rows = cards.setdefault(group, [])
        rows.append(BLANK_CARDS[group]())
    elif verb == "remove-card":
        _rows(data, f"cards.{rest[0]}").pop(idx[0])


BLANK_CARDS = {
    "chassis": lambda: {"key": "", "name": "", "weight_class": "light", "speed": None, "pivot": None, "aim": None,
                        "iron": None, "structure": {}, "armour": {}, "exhaust": None, "heat_threshold": None,
                        "heat_track": None},
    "engines": lambda: {"key": "", "name": "", "iron": 0},
    "weapons": lambda: {"key": "", "name": "", "rof": None, "str": None, "acc": 0, "iron": None,
                        "profiles": [{"range": None}], "perks": []},
}
