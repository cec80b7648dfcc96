"""One game's rules reference put together: the section files read (``entries``), the entries the
engines and data files generate (``generated``), and each entry's tables built from the engines'
own constants (``tables``).
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ..core.errors import DataError
from . import generated, tables
from .entries import (
    GAMES,
    ID_RE,
    RULEBOOK,
    Book,
    Entry,
    EntrySpec,
    Section,
    entry_from_spec,
    extended,
    read_section,
    where_of,
)


def load_book(game: str, folder: Path | None = None) -> Book:
    """One game's sections and entries, generated ones included, with their tables built."""
    folder = folder or RULEBOOK / game
    book = Book(game, GAMES[game])
    paths = sorted(folder.glob("*.yaml"))
    file_of: dict[str, Path] = {}
    if not paths:
        raise DataError(folder, None, None, "no section files")
    for path in paths:
        spec = read_section(path)
        where = where_of(path)
        if not ID_RE.match(spec.section):
            raise DataError(where, None, "section", "ids are lower-case words joined by hyphens")
        if book.section(spec.section):
            raise DataError(where, None, "section", f"section “{spec.section}” is already defined")
        made: list[Entry] = []
        for name in spec.generate:
            maker = generated.GENERATORS.get((game, name))
            if maker is None:
                raise DataError(where, None, "generate", f"no generator “{name}” for {game}")
            for gen_spec, source in maker():
                made.append(entry_from_spec(game, spec.section, EntrySpec(**gen_spec), path, source))
        made.extend(entry_from_spec(game, spec.section, e, path) for e in spec.entries)
        by_id = {e.id: e for e in made}
        for eid, ext in spec.extend.items():
            if eid not in by_id:
                raise DataError(where, eid, "extend", "extends an entry this section does not have")
            by_id[eid] = extended(by_id[eid], ext)
        ids = []
        for e in made:
            e = by_id[e.id]
            if not e.text:
                raise DataError(where, e.id, "text", "every entry needs its text (extend a generated one with text)")
            if e.id in book.entries or e.id in ids:
                raise DataError(where, e.id, "id", "this id is used twice in the game")
            book.entries[e.id] = e
            file_of[e.id] = where
            ids.append(e.id)
        book.sections.append(Section(game, spec.section, spec.title, spec.order, " ".join(spec.intro.split()),
                                     tuple(ids)))
    book.sections.sort(key=lambda s: (s.order, s.id))
    for eid, e in list(book.entries.items()):
        if e.table_key:
            maker = tables.TABLES.get((game, e.table_key))
            if maker is None:
                raise DataError(file_of[eid], eid, "table", f"no table “{e.table_key}” for {game}")
            book.entries[eid] = replace(e, tables=tuple(maker(book)) + e.tables)
    return book
