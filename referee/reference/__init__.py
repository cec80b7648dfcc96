"""The rules reference: both games' rules by section, searchable and askable, linked from results.

``reference()`` loads the rulebook (``rulebook/<game>/*.yaml`` plus the entries generated from
the engines' data) and builds the in-memory search index once; ``rule_entry(name)`` finds the
entry that explains any rule name the app prints. Nothing here touches Flask or the database.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from .book import load_book
from .entries import GAMES, Book, Entry, Section, Table, load_synonyms
from .index import Answer, Hit, Index
from .names import Resolver, normal

__all__ = ["GAMES", "Answer", "Book", "Entry", "Hit", "Reference", "Section", "Table", "reference", "rule_entry"]


@dataclass
class Reference:
    books: dict[str, Book]
    resolvers: dict[str, Resolver]
    index: Index
    by_setting: dict[tuple[str, str], Entry]

    def entry(self, game: str, entry_id: str) -> Entry | None:
        book = self.books.get(game)
        return book.entries.get(entry_id) if book else None

    def rule_entry(self, name: str, game: str | None = None, applies_to: str = "") -> Entry | None:
        """The entry that explains ``name`` in ``game`` (or in either game, Black Powder first)."""
        for g in ([game] if game in self.books else list(self.books)):
            eid = self.resolvers[g].resolve(name, applies_to)
            if eid:
                return self.books[g].entries[eid]
        return None

    def setting_entry(self, game: str, setting: str) -> Entry | None:
        """The entry whose reading a game setting changes."""
        return self.by_setting.get((game, setting))

    def search(self, query: str, game: str | None = None, limit: int = 20) -> list[Hit]:
        return self.index.search(query, game if game in self.books else None, limit)

    def ask(self, question: str, game: str | None = None, limit: int = 3) -> list[Answer]:
        return self.index.ask(question, game if game in self.books else None, limit)


def build() -> Reference:
    books = {g: load_book(g) for g in GAMES}
    by_setting: dict[tuple[str, str], Entry] = {}
    for g, book in books.items():
        for e in book.entries.values():
            for s in e.settings:
                by_setting.setdefault((g, s), e)
    return Reference(books, {g: Resolver.build(b) for g, b in books.items()}, Index(books, load_synonyms()),
                     by_setting)


@cache
def reference() -> Reference:
    """The reference, loaded and indexed on first use (the web app asks for it at start-up)."""
    return build()


def rule_entry(name: str, game: str | None = None, applies_to: str = "") -> Entry | None:
    return reference().rule_entry(name, game, applies_to)


def normal_name(name: str) -> str:
    return normal(name)
