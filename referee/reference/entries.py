"""The rules reference as data: games, sections and entries, read from ``rulebook/<game>/*.yaml``.

A section file lists entries written for this project and names the generators that make
entries from the data the engines read (special rules, perks, equipment...). ``extend`` adds a
player's words, a reading or a setting to a generated entry. Everything is checked as it loads;
a problem raises :class:`referee.core.errors.DataError` naming the file, the entry and the field.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, ValidationError

from ..core.errors import DataError
from ..systems import LABELS

ROOT = Path(__file__).resolve().parents[2]
RULEBOOK = ROOT / "rulebook"
GAMES = LABELS  # each game the reference covers, by name, with its label (a book per game)
ID_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


@dataclass(frozen=True)
class Table:
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    caption: str = ""

    def text(self) -> str:
        return " ".join(" ".join(r) for r in self.rows)


@dataclass(frozen=True)
class Entry:
    game: str
    id: str
    title: str
    section: str
    text: str
    names: tuple[str, ...] = ()
    patterns: tuple[str, ...] = ()
    synonyms: tuple[str, ...] = ()
    tables: tuple[Table, ...] = ()
    table_key: str = ""
    reading: str = ""
    settings: tuple[str, ...] = ()
    source: str = ""  # the data file a generated entry's text comes from

    def blocks(self) -> list[tuple[str, object]]:
        """The text as ("p", line) paragraphs and ("ul", [items]) lists, for the templates."""
        return text_blocks(self.text)

    def sentences(self) -> list[str]:
        """Every line a question can be answered with: sentences, bullets, the reading, table rows."""
        out = []
        for kind, value in self.blocks():
            for line in (value if kind == "ul" else [value]):
                out.extend(split_sentences(line))
        out.extend(split_sentences(self.reading))
        for t in self.tables:
            out.extend(" · ".join(c for c in r if c) for r in t.rows)
        return [s for s in out if s]


@dataclass(frozen=True)
class Section:
    game: str
    id: str
    title: str
    order: int
    intro: str = ""
    entry_ids: tuple[str, ...] = ()


@dataclass
class Book:
    game: str
    title: str
    sections: list[Section] = field(default_factory=list)
    entries: dict[str, Entry] = field(default_factory=dict)

    def section(self, section_id: str) -> Section | None:
        return next((s for s in self.sections if s.id == section_id), None)

    def in_section(self, section: Section) -> list[Entry]:
        return [self.entries[i] for i in section.entry_ids]


def where_of(path: Path) -> Path:
    """A path as a message shows it: from the repository's root when it is inside it."""
    return path.relative_to(ROOT) if path.is_relative_to(ROOT) else path


def text_blocks(text: str) -> list[tuple[str, object]]:
    blocks: list[tuple[str, object]] = []
    para: list[str] = []
    for raw in (text or "").splitlines():
        line = raw.strip()
        if line.startswith("- "):
            if para:
                blocks.append(("p", " ".join(para)))
                para = []
            if blocks and blocks[-1][0] == "ul":
                blocks[-1][1].append(line[2:].strip())
            else:
                blocks.append(("ul", [line[2:].strip()]))
        elif not line:
            if para:
                blocks.append(("p", " ".join(para)))
                para = []
        else:
            para.append(line)
    if para:
        blocks.append(("p", " ".join(para)))
    return blocks


_SENTENCE = re.compile(r"(?<=[.!?;])\s+(?=[A-Z0-9\"“(−+-])")


def split_sentences(text: str) -> list[str]:
    text = " ".join((text or "").split())
    return [s.strip() for s in _SENTENCE.split(text) if s.strip()] if text else []


# --- the file format ----------------------------------------------------------------------------

class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class EntrySpec(_Strict):
    id: str
    title: str
    text: str = ""
    names: list[str] = []
    patterns: list[str] = []
    synonyms: list[str] = []
    table: str = ""
    columns: list[str] = []
    rows: list[list[str | int]] = []
    reading: str = ""
    settings: list[str] = []


class Extension(_Strict):
    text: str = ""
    more: str = ""
    names: list[str] = []
    synonyms: list[str] = []
    table: str = ""
    reading: str = ""
    settings: list[str] = []


class SectionFile(_Strict):
    section: str
    title: str
    order: int
    intro: str = ""
    generate: list[str] = []
    entries: list[EntrySpec] = []
    extend: dict[str, Extension] = {}


def _problem(path: Path, exc: ValidationError) -> DataError:
    errors = exc.errors()
    first = errors[0]
    loc = [str(x) for x in first["loc"]]
    entry = None
    if len(loc) >= 2 and loc[0] in ("entries", "extend"):
        entry = loc[1]
        loc = loc[2:]
    if entry is not None and loc and first["loc"][0] == "entries":
        try:
            entry = exc_input_id(exc, int(entry)) or entry
        except ValueError:
            pass
    return DataError(where_of(path), entry, ".".join(loc) or None, first["msg"])


def exc_input_id(exc: ValidationError, index: int) -> str | None:
    """The id of the entry at ``index`` when the raw file had one, to name it in the message."""
    raw = getattr(exc, "_raw_entries", None)
    if raw and index < len(raw) and isinstance(raw[index], dict):
        return raw[index].get("id")
    return None


def read_section(path: Path) -> SectionFile:
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as e:
        raise DataError(where_of(path), None, None, f"not readable YAML: {e}") from None
    if not isinstance(raw, dict):
        raise DataError(where_of(path), None, None, "a section file is a mapping (section, title, entries)")
    try:
        return SectionFile.model_validate(raw)
    except ValidationError as e:
        e._raw_entries = raw.get("entries") if isinstance(raw.get("entries"), list) else None
        raise _problem(path, e) from None


def entry_from_spec(game: str, section: str, spec: EntrySpec, path: Path, source: str = "") -> Entry:
    where = where_of(path)
    if not ID_RE.match(spec.id):
        raise DataError(where, spec.id, "id", "ids are lower-case words joined by hyphens")
    if bool(spec.columns) != bool(spec.rows):
        raise DataError(where, spec.id, "rows", "a table written in the file needs both columns and rows")
    for i, row in enumerate(spec.rows):
        if len(row) != len(spec.columns):
            raise DataError(where, spec.id, f"rows.{i}", f"has {len(row)} cells for {len(spec.columns)} columns")
    for p in spec.patterns:
        try:
            re.compile(p, re.I)
        except re.error as e:
            raise DataError(where, spec.id, "patterns", f"“{p}” is not a regular expression: {e}") from None
    tables = (Table(tuple(spec.columns), tuple(tuple(str(c) for c in r) for r in spec.rows)),) if spec.columns else ()
    return Entry(game=game, id=spec.id, title=spec.title, section=section, text=spec.text.strip(),
                 names=tuple(spec.names), patterns=tuple(spec.patterns), synonyms=tuple(spec.synonyms),
                 tables=tables, table_key=spec.table, reading=" ".join(spec.reading.split()),
                 settings=tuple(spec.settings), source=source)


def extended(entry: Entry, ext: Extension) -> Entry:
    text = ext.text.strip() or entry.text
    if ext.more.strip():
        text = text + "\n\n" + ext.more.strip()
    return replace(entry, text=text, names=entry.names + tuple(ext.names),
                   synonyms=entry.synonyms + tuple(ext.synonyms), table_key=ext.table or entry.table_key,
                   reading=" ".join(ext.reading.split()) or entry.reading,
                   settings=entry.settings + tuple(ext.settings))


def load_synonyms(path: Path | None = None) -> dict[str, dict[str, tuple[str, ...]]]:
    """{game: {word: (phrase, ...)}}; the "both" list is merged into each game's."""
    path = path or RULEBOOK / "synonyms.yaml"
    raw = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    where = where_of(path)
    if not isinstance(raw, dict) or set(raw) - {"both", *GAMES}:
        raise DataError(where, None, None, f"top-level keys are “both” and the games: {', '.join(GAMES)}")
    out = {}
    for game in GAMES:
        words: dict[str, tuple[str, ...]] = {}
        for group in ("both", game):
            for word, phrases in (raw.get(group) or {}).items():
                if not isinstance(phrases, list) or not all(isinstance(p, str) for p in phrases):
                    raise DataError(where, f"{group}.{word}", None, "a word maps to a list of phrases")
                words[str(word).lower()] = words.get(str(word).lower(), ()) + tuple(phrases)
        out[game] = words
    return out
