"""The rulebook files are checked as they load (a mistake names the file, the entry and the
field), and the tables the reference prints are the engines' own."""
from __future__ import annotations

from pathlib import Path

import pytest

from referee.blackpowder.blunders import BLUNDER_TABLE
from referee.core.errors import DataError
from referee.oilandiron.heat import HEAT_TABLE
from referee.oilandiron.model import RAM_STR
from referee.reference.book import load_book
from referee.reference.entries import load_synonyms
from referee.reference.tables import TABLES

GOOD = """section: test
title: Test
order: 1
entries:
  - id: one
    title: One
    text: Some text.
"""


def _book(tmp_path: Path, text: str):
    folder = tmp_path / "oilandiron"
    folder.mkdir(exist_ok=True)
    (folder / "01.yaml").write_text(text)
    return load_book("oilandiron", folder)


def test_a_good_file_loads(tmp_path):
    book = _book(tmp_path, GOOD)
    assert book.entries["one"].text == "Some text."


@pytest.mark.parametrize("change, words", [
    (GOOD + "    colour: red\n", "colour"),
    (GOOD.replace("id: one", "id: One Two"), "hyphens"),
    (GOOD + "  - {id: one, title: Again, text: x}\n", "used twice"),
    (GOOD + "    table: no_such_table\n", "no table"),
    (GOOD.replace("    text: Some text.\n", ""), "needs its text"),
    (GOOD + "    patterns: ['(unclosed']\n", "regular expression"),
    (GOOD + "extend:\n  nobody: {synonyms: [x]}\n", "does not have"),
    (GOOD + "generate: [nothing]\n", "no generator"),
    (GOOD + "    columns: [A, B]\n    rows: [[1]]\n", "1 cells for 2 columns"),
    ("[not, a, mapping]", "mapping"),
    ("section: [unclosed", "YAML"),
])
def test_a_mistake_is_named_where_it_is(tmp_path, change, words):
    with pytest.raises(DataError) as e:
        _book(tmp_path, change)
    assert words in str(e.value)
    assert "01.yaml" in str(e.value)


def test_two_entries_cannot_claim_one_name(tmp_path):
    from referee.reference.names import Resolver
    book = _book(tmp_path, GOOD.replace("    text: Some text.\n", "    text: x\n    names: [Ram]\n")
                 + "  - {id: two, title: Two, text: y, names: [ram]}\n")
    with pytest.raises(DataError, match="already names"):
        Resolver.build(book)


def test_the_shipped_rulebook_names_only_tables_that_exist():
    for game in ("blackpowder", "oilandiron"):
        book = load_book(game)
        assert len(book.sections) >= 10
        for e in book.entries.values():
            assert e.table_key == "" or (game, e.table_key) in TABLES
            assert e.section in {s.id for s in book.sections}


def test_every_synonym_list_is_for_a_game(tmp_path):
    assert "overheat" in load_synonyms()["oilandiron"]
    assert "morale" in load_synonyms()["blackpowder"]  # from the list both games share
    bad = tmp_path / "synonyms.yaml"
    bad.write_text("chess: {pawn: [piece]}\n")
    with pytest.raises(DataError):
        load_synonyms(bad)


def test_the_heat_table_printed_is_the_engines(ref):
    table = ref.entry("oilandiron", "heat-threshold").tables[0]
    assert [r[1] for r in table.rows] == [label for _, _, label in HEAT_TABLE]
    assert table.rows[0][0] == "1–5" and table.rows[-1][0] == "20+"


def test_the_blunder_table_printed_is_the_engines(ref):
    table = ref.entry("blackpowder", "blunders").tables[0]
    assert [r[1] for r in table.rows] == [name for name, _, _ in BLUNDER_TABLE.values()]


def test_the_ram_and_hit_location_tables_are_the_engines(ref):
    ram = ref.entry("oilandiron", "ram").tables[0]
    assert {r[0].lower(): int(r[1]) for r in ram.rows} == RAM_STR
    loc = ref.entry("oilandiron", "hit-location").tables[0]
    assert loc.rows[-1] == ("11–12", "Engine")


def test_the_reference_is_built_when_the_app_starts(app):
    from referee.reference import reference
    assert reference.cache_info().currsize == 1



def test_a_name_is_looked_up_once_and_answered_the_same_after(monkeypatch):
    """A result names the same modifiers at every tap: each name is resolved once, the answer kept
    (a name found only through the patterns was tried against every one of them each time)."""
    from referee.reference.names import Resolver
    resolver = Resolver.build(load_book("blackpowder"))
    fresh = Resolver.build(load_book("blackpowder"))
    names = ["British Line Infantry 1: Charging (first round)", "Excess casualties", "no such rule at all", ""]
    unkept = [fresh._resolve(n, "") for n in names]
    tried = []
    resolve = Resolver._resolve
    monkeypatch.setattr(Resolver, "_resolve", lambda self, *key: tried.append(key) or resolve(self, *key))
    first = [resolver.resolve(n) for n in names]
    assert [resolver.resolve(n) for n in names] == first == unkept
    assert first[0] is not None and first[2] is None
    assert tried == [(n, "") for n in names]  # each once, over both rounds
