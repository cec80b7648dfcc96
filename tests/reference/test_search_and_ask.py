"""Search finds a rule by its name, its effect and a player's word for it, ranked and highlighted;
ask answers plain-English questions with the lines that say it. The 52 questions and search
words in questions.yaml (half for each game) must each bring their entry into the top three."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

QUESTIONS = yaml.safe_load((Path(__file__).parent / "questions.yaml").read_text())
CASES = [(game, q.get("ask") or q["search"], "ask" if "ask" in q else "search", q["entry"])
         for game, items in QUESTIONS.items() for q in items]


def test_at_least_forty_questions_half_for_each_game():
    assert len(CASES) >= 40
    per_game = {g: sum(1 for c in CASES if c[0] == g) for g in QUESTIONS}
    assert min(per_game.values()) >= 20


@pytest.mark.parametrize("game, text, how, entry", CASES, ids=[c[1] for c in CASES])
def test_the_right_entry_is_in_the_top_three(ref, game, text, how, entry):
    assert ref.entry(game, entry) is not None, f"no entry {entry}"
    found = ref.ask(text, game) if how == "ask" else ref.search(text, game, limit=3)
    assert entry in [x.entry.id for x in found[:3]], [x.entry.id for x in found[:3]]


def _ids(hits):
    return [h.entry.id for h in hits]


def test_search_finds_a_rule_by_its_name(ref):
    assert _ids(ref.search("Ferocious Charge"))[0] == "ferocious-charge"
    assert _ids(ref.search("Heat Threshold"))[0] == "heat-threshold"


def test_search_finds_a_rule_by_its_effect(ref):
    # Nobody remembers the name of the rule that re-rolls one missed shot.
    assert "sharp-shooters" in _ids(ref.search("re-roll one missed shot", "blackpowder", 3))
    assert "ablative-armour-plating" in _ids(ref.search("ignore damage from one attack", "oilandiron", 3))


def test_morale_finds_saves_and_break_tests(ref):
    top = _ids(ref.search("morale", "blackpowder", 5))
    assert "morale-saves" in top and "break-test" in top


def test_overheat_finds_the_heat_threshold_table(ref):
    hits = ref.search("overheat")
    assert hits[0].entry.id == "heat-threshold"
    assert hits[0].entry.tables[0].rows[1][1] == "System Stall"


def test_the_last_word_is_matched_as_it_is_typed(ref):
    assert "closing-fire" in _ids(ref.search("closing fi", "blackpowder", 3))


def test_matches_are_highlighted_and_the_rest_escaped(ref):
    hit = ref.search("closing fire", "blackpowder")[0]
    assert "<mark>" in str(hit.title) and "<mark>" in str(hit.snippet)
    answer = ref.ask("can shaken cavalry make a sweeping advance?", "blackpowder")[0]
    assert answer.entry.id == "after-combat"
    assert any("<mark>Shaken" in str(line) or "<mark>shaken" in str(line) for line in answer.lines)


def test_a_game_filter_keeps_to_that_game(ref):
    assert {h.entry.game for h in ref.search("charge", "oilandiron")} == {"oilandiron"}
    assert {h.entry.game for h in ref.search("charge", "blackpowder")} == {"blackpowder"}


@pytest.mark.parametrize("text", ['"', "*", "AND OR NOT", "NEAR(", "-", "a" * 5000, "()", "'", "Ü", "   "])
def test_any_text_is_answered_without_a_fault(ref, text):
    ref.search(text)
    ref.ask(text)


def test_nothing_found_is_an_empty_answer(ref):
    assert ref.search("zzzqqq") == [] and ref.ask("zzzqqq?") == []
