"""Lists that travel: the JSON export file (documented in ``docs/list-format.md``), reading it
back, and short share codes.

An export holds the whole list, the players' own cards included, so importing it on another
tablet gives the same list. Reading a file either gives a whole list or raises
:class:`ListFileError` naming what is wrong; it never gives part of one.
"""
from __future__ import annotations

import json
import secrets
from typing import Any

from pydantic import ValidationError

from ..core.parse_limits import TooComplex, load_json
from ..systems import BLACK_POWDER, LABELS, OIL_AND_IRON
from . import blackpowder, oilandiron
from .blackpowder import Army, check_army
from .oilandiron import Squadron, check_squadron
from .problems import ListFileError, Problem

FORMAT = "referee-list"
FORMAT_VERSION = 1
MAX_FILE_BYTES = 512 * 1024
MODELS: dict[str, type[Army] | type[Squadron]] = {BLACK_POWDER: Army, OIL_AND_IRON: Squadron}
# Each game's builder rows, where its problems are drawn (``problems.row_of``).
ROWS: dict[str, tuple[str, ...]] = {BLACK_POWDER: blackpowder.ROWS, OIL_AND_IRON: oilandiron.ROWS}
SYSTEM_NAMES = LABELS

# No 0/O, 1/I/L: a code read aloud across a club table is typed right the first time.
SHARE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
# 16 characters of 31 kinds: about 79 bits, too many to guess one by one (issue 14).
SHARE_LENGTH = 16

ListModel = Army | Squadron


def check(lst: ListModel) -> list[Problem]:
    return check_army(lst) if isinstance(lst, Army) else check_squadron(lst)


def dump(lst: ListModel) -> dict:
    """The list as plain data, exactly as the export file holds it."""
    return lst.model_dump(mode="json", by_alias=True, exclude_none=False)


def parse(system: str, data: Any) -> ListModel:
    """A list of ``system`` from plain data (as stored or exported); ValidationError if malformed."""
    return MODELS[system].model_validate(data)


def export_list(lst: ListModel, owner: str = "", version: int | None = None) -> dict:
    return {"format": FORMAT, "format_version": FORMAT_VERSION, "system": lst.system,
            "name": lst.name, "owner": owner, "version": version, "list": dump(lst)}


def export_text(lst: ListModel, owner: str = "", version: int | None = None) -> str:
    return json.dumps(export_list(lst, owner, version), ensure_ascii=False, indent=2) + "\n"


def _where(loc: tuple) -> str:
    return ".".join(str(p) for p in loc) or "the list"


def import_text(text: str | bytes) -> ListModel:
    """The list in an export file. Raises ListFileError naming the first thing wrong."""
    if isinstance(text, bytes):
        if len(text) > MAX_FILE_BYTES:
            raise ListFileError(f"The file is {len(text) // 1024} KB; a list file is at most {MAX_FILE_BYTES // 1024} KB.")
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ListFileError("The file is not text (UTF-8): is it a Referee list export?") from None
    if not text.strip():
        raise ListFileError("The file is empty.")
    try:
        raw = load_json(text)
    except json.JSONDecodeError as e:
        raise ListFileError(f"The file is not valid JSON (line {e.lineno}, column {e.colno}: {e.msg}).") from None
    except TooComplex as e:
        raise ListFileError(f"The file is not a Referee list: {e}.") from None
    return import_data(raw)


def import_data(raw: Any) -> ListModel:
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise ListFileError(f"This is not a Referee list export: “format” must be “{FORMAT}”.")
    if "format_version" not in raw:
        raise ListFileError(f"The file does not say its “format_version”; this Referee reads version {FORMAT_VERSION}.")
    if raw.get("format_version") != FORMAT_VERSION:
        raise ListFileError(f"The file is format version {raw.get('format_version')!r}; "
                            f"this Referee reads version {FORMAT_VERSION}.")
    system = raw.get("system")
    if system not in MODELS:
        raise ListFileError(f"“system” is {system!r}; it must be one of: {', '.join(MODELS)}.")
    unknown = set(raw) - {"format", "format_version", "system", "name", "owner", "version", "list"}
    if unknown:
        raise ListFileError(f"Unknown field(s) at the top of the file: {', '.join(sorted(unknown))}.")
    body = raw.get("list")
    if not isinstance(body, dict):
        raise ListFileError("The file has no “list” section.")
    if body.get("system", system) != system:
        raise ListFileError(f"The file says “{system}” but its list says “{body.get('system')}”.")
    try:
        return parse(system, body)
    except ValidationError as e:
        err = e.errors()[0]
        more = f" (and {e.error_count() - 1} more problem(s))" if e.error_count() > 1 else ""
        raise ListFileError(f"list.{_where(tuple(err['loc']))}: {err['msg']}{more}") from None


def new_share_code() -> str:
    return "".join(secrets.choice(SHARE_ALPHABET) for _ in range(SHARE_LENGTH))


def normalise_share_code(text: str) -> str:
    """What a player typed ("abcd-efgh-… ") as the stored code ("ABCDEFGH…")."""
    return "".join(ch for ch in text.upper() if ch.isascii() and ch.isalnum())[:64]
