"""Search and ask over the whole reference: SQLite FTS5 in memory, built once at start-up.

Two full-text tables: one row per entry (title, names, the players' words, body) for search, and
one row per line (a sentence, a bullet, the reading, a table row) for ask. Both rank with
bm25. A query's words are matched as whole words and, for the last word typed, as a prefix; the
players' words in ``rulebook/synonyms.yaml`` add the rules' own words to the query. The index is
in memory whatever ``DATABASE_URL`` says: it is rebuilt from the rulebook files in a few
milliseconds, needs no server, and works with no network.
"""
from __future__ import annotations

import re
import sqlite3
import threading
from dataclasses import dataclass
from html import escape

from markupsafe import Markup

from .entries import Book, Entry

TOKENIZE = "porter unicode61 remove_diacritics 2"
OPEN, CLOSE = "\x02", "\x03"
MAX_QUERY = 200
# Words a question is made of that say nothing about which rule it asks about.
STOP_WORDS = frozenset("""
a about after all also am an and any are as at be been before being but by can cannot could did do
does doing done during each either for from get gets getting got had has have having he her him his how
i if in into is it its itself just may me might more most must my no nor not now of off on once only or
other our out over own same shall she should so some such than that the their them then there these
they this those through to too under until up upon very was we were what when where which while who
whom why will with would you your yours rule rules happen happens happened mean means work works
much many
""".split())
_WORD = re.compile(r"[\w'+]+", re.UNICODE)


@dataclass(frozen=True)
class Hit:
    """One search result: the entry, its title and a snippet with the matches marked."""

    entry: Entry
    title: Markup
    snippet: Markup
    score: float


@dataclass(frozen=True)
class Answer:
    """One entry answering a question, with the lines that answer it (matches marked)."""

    entry: Entry
    lines: tuple[Markup, ...]
    score: float


def marked(text: str) -> Markup:
    """Text from the index with its match markers turned into <mark>, everything else escaped."""
    return Markup(escape(text).replace(OPEN, "<mark>").replace(CLOSE, "</mark>"))


def words(text: str) -> list[str]:
    return [w.strip("'").lower() for w in _WORD.findall(text or "") if w.strip("'")]


def _phrase(text: str) -> str:
    """A phrase FTS5 reads as plain words whatever they contain (quotes doubled)."""
    inner = " ".join(w.replace('"', '""') for w in words(text))
    return f'"{inner}"' if inner else ""


def _stem(w: str) -> str:
    for end, keep in (("ies", "y"), ("ing", ""), ("ed", ""), ("es", "e"), ("s", "")):
        if w.endswith(end) and len(w) - len(end) >= 3 and not w.endswith("ss"):
            return w[: len(w) - len(end)] + keep
    return w


def _stems(text: str) -> set[str]:
    """Words reduced the cheap way (shooting, shoots: shoot), to see whether a title says a query's word."""
    return {_stem(w) for w in words(text)}


class Index:
    """The FTS5 tables over every game's entries, and the synonyms used to widen a query."""

    def __init__(self, books: dict[str, Book], synonyms: dict[str, dict[str, tuple[str, ...]]]):
        self.books = books
        self.synonyms = synonyms
        self._lock = threading.Lock()
        self.db = sqlite3.connect(":memory:", check_same_thread=False)
        self.db.executescript(f"""
            CREATE VIRTUAL TABLE entry_fts USING fts5(
                game UNINDEXED, entry UNINDEXED, title, names, synonyms, body, tokenize="{TOKENIZE}");
            CREATE VIRTUAL TABLE line_fts USING fts5(
                game UNINDEXED, entry UNINDEXED, n UNINDEXED, line, about, tokenize="{TOKENIZE}");
        """)
        entry_rows, line_rows = [], []
        for game, book in books.items():
            for e in book.entries.values():
                section = book.section(e.section)
                body = "\n".join([e.text, e.reading, " ".join(t.text() for t in e.tables),
                                  " ".join(s.replace("_", " ") for s in e.settings), section.title if section else ""])
                entry_rows.append((game, e.id, e.title, " · ".join(e.names), " · ".join(e.synonyms), body))
                about = " ".join([e.title, *e.names, *e.synonyms])
                for n, line in enumerate(e.sentences()):
                    line_rows.append((game, e.id, n, line, about))
        self.db.executemany("INSERT INTO entry_fts VALUES (?, ?, ?, ?, ?, ?)", entry_rows)
        self.db.executemany("INSERT INTO line_fts VALUES (?, ?, ?, ?, ?)", line_rows)
        self.size = (len(entry_rows), len(line_rows))
        self._heads = {(g, e.id): (_stems(e.title), {frozenset(_stems(n)) for n in (e.title, *e.names, *e.synonyms)})
                       for g, b in books.items() for e in b.entries.values()}

    def _boost(self, key: tuple[str, str], kept: list[str], phrases: list[str]) -> float:
        """Extra score for an entry whose title says the query's words, or whose names and players'
        words include a whole phrase the query asked for (a synonym's expansion included)."""
        title, names = self._heads[key]
        asked = _stems(" ".join(kept))
        boost = 4.0 * len(title & asked) / max(1, len(title))
        boost += 3.0 * sum(1 for p in phrases if frozenset(_stems(p)) in names)
        return boost

    # --- queries ----------------------------------------------------------------------------

    def kept_words(self, query: str, drop_stop_words: bool) -> list[str]:
        ws = words(query[:MAX_QUERY])
        return [w for w in ws if not (drop_stop_words and w in STOP_WORDS)] or ws

    def expansions(self, kept: list[str], game: str | None) -> list[str]:
        """The rules' words for the players' words in the query."""
        out = []
        joined = " ".join(kept)
        for g in ([game] if game else list(self.synonyms)):
            for word, phrases in self.synonyms.get(g, {}).items():
                if (" " in word and word in joined) or word in kept:
                    out.extend(p for p in phrases if p not in out)
        return out

    def terms(self, query: str, game: str | None, drop_stop_words: bool, prefix_last: bool) -> list[str]:
        """The FTS5 terms for a query: each word (the last as a prefix while typing), each
        two-word phrase, and what the players' words stand for."""
        kept = self.kept_words(query, drop_stop_words)
        out: list[str] = []

        def add(term: str) -> None:
            if term and term not in out:
                out.append(term)

        for i, w in enumerate(kept):
            add(_phrase(w) + ("*" if prefix_last and i == len(kept) - 1 and len(w) > 1 else ""))
            if i + 1 < len(kept):
                add(_phrase(f"{w} {kept[i + 1]}"))
        for p in self.expansions(kept, game):
            add(_phrase(p))
        return out

    def search(self, query: str, game: str | None = None, limit: int = 20) -> list[Hit]:
        """Entries matching a few words, best first (bm25: title and names weigh most)."""
        terms = self.terms(query, game, drop_stop_words=False, prefix_last=True)
        if not terms:
            return []
        whole = _phrase(query[:MAX_QUERY])
        match = " OR ".join(terms + ([whole] if whole and whole not in terms else []))
        sql = (f"SELECT game, entry, highlight(entry_fts, 2, '{OPEN}', '{CLOSE}'), "
               f"snippet(entry_fts, 5, '{OPEN}', '{CLOSE}', '…', 18), "
               f"snippet(entry_fts, 4, '{OPEN}', '{CLOSE}', '…', 8), "
               "bm25(entry_fts, 0, 0, 12.0, 8.0, 6.0, 1.0) AS score FROM entry_fts WHERE entry_fts MATCH ? "
               + ("AND game = ? " if game else "") + "ORDER BY score LIMIT ?")
        args = (match, game, max(limit, 40)) if game else (match, max(limit, 40))
        with self._lock:
            rows = self.db.execute(sql, args).fetchall()
        kept = self.kept_words(query, False)
        phrases = [" ".join(kept)] + self.expansions(kept, game)
        out = []
        for g, eid, title, body, syn, score in rows:
            snippet = body if OPEN in body or OPEN not in syn else f"Also called: {syn}"
            total = -score + self._boost((g, eid), kept, phrases)
            out.append(Hit(self.books[g].entries[eid], marked(title), marked(snippet), total))
        out.sort(key=lambda h: (-h.score, h.entry.title))
        return out[:limit]

    def ask(self, question: str, game: str | None = None, limit: int = 3, lines: int = 3) -> list[Answer]:
        """The entries that best answer a plain-English question, each with its answering lines.

        Stop words go, the players' words are widened, and two rankings are added up: the entry
        as a whole (what it is about) and its best line (where the answer is said)."""
        terms = self.terms(question, game, drop_stop_words=True, prefix_last=False)
        if not terms:
            return []
        match = " OR ".join(terms)
        where = "AND game = ? " if game else ""
        args = (match, game) if game else (match,)
        with self._lock:
            entries = self.db.execute(
                "SELECT game, entry, bm25(entry_fts, 0, 0, 10.0, 6.0, 6.0, 1.0) FROM entry_fts "
                f"WHERE entry_fts MATCH ? {where}ORDER BY 3 LIMIT 40", args).fetchall()
            found = self.db.execute(
                f"SELECT game, entry, n, highlight(line_fts, 3, '{OPEN}', '{CLOSE}'), "
                f"bm25(line_fts, 0, 0, 0, 1.0, 0.6) FROM line_fts WHERE line_fts MATCH ? {where}"
                "ORDER BY 5 LIMIT 400", args).fetchall()
        score: dict[tuple[str, str], float] = {(g, e): -s for g, e, s in entries}
        best: dict[tuple[str, str], list[tuple[float, int, str]]] = {}
        for g, e, n, text, s in found:
            best.setdefault((g, e), []).append((-s, n, text))
        kept = self.kept_words(question, True)
        phrases = [" ".join(kept)] + self.expansions(kept, game)
        ranked = []
        for key in set(score) | set(best):
            top_lines = sorted(best.get(key, []), reverse=True)
            line_score = top_lines[0][0] if top_lines else 0.0
            total = score.get(key, 0.0) + 0.7 * line_score + self._boost(key, kept, phrases)
            ranked.append((total, key, top_lines))
        ranked.sort(key=lambda r: (-r[0], r[1]))
        out = []
        for total, (g, eid), top_lines in ranked[:limit]:
            chosen = sorted(top_lines[:lines], key=lambda t: t[1])  # in the entry's own order
            out.append(Answer(self.books[g].entries[eid], tuple(marked(t) for _, _, t in chosen if OPEN in t), total))
        return out
