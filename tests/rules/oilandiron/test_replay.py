"""A game replays from its document and its log alone: the engagement is started, played through the
engine's resolve path with every action and its dice logged, then the engagement data the loader
returns is changed (more VP for a Rig near an objective, other VP for destroyed Rigs, no such
engagement type at all) and the log is replayed from the first document: the same results, the
same final state. The engine read its rules from the document, never from the file."""
from __future__ import annotations

import pytest
from _oi_helpers import HEAVY, rig_spec

import referee.data.oilandiron as data
from referee.core.dice import ScriptedDice, SeededDice
from referee.core.docstate import apply_changes
from referee.data.oilandiron import setup_engagement, squadron_state
from referee.oilandiron import GAME

ALL_LOCATIONS = ["hull", "arms", "legs", "engine"]


def _start() -> dict:
    rigs = {**squadron_state("p1", [rig_spec("a"), rig_spec("b")]),
            **squadron_state("p2", [rig_spec("t", HEAVY), rig_spec("u")])}
    return setup_engagement("Replay", {"p1": {"name": "Anna"}, "p2": {"name": "Ben"}}, rigs, "point_of_control")


def _next(doc: dict) -> tuple[str, dict]:
    """What the players do next: each Rig moves and fires at the nearest enemy still standing, the
    round is scored with the first player's Rigs near an objective, and so on to round 3."""
    if doc["phase"] == "initiative":
        return "initiative", {}
    if doc["phase"] == "maintenance":
        if doc.get("scored_round", 0) < doc["round"]:
            near = [r for r, x in doc["rigs"].items() if x["player"] == "p1" and not x["destroyed"]]
            return "score_round", {"rigs_near_objectives": near}
        hot = [r for r, x in doc["rigs"].items()
               if not x["destroyed"] and x["heat"] > x["heat_threshold"] and x["heat_rolled"] != doc["round"]]
        if hot:
            return "heat_roll", {"rig": hot[0], "overflow_to": ALL_LOCATIONS}
        return "end_round", {}
    active = doc["active_rig"]
    if active is None:
        rig = next(r for r, x in doc["rigs"].items()
                   if x["player"] == doc["current_player"] and not x["activated"] and not x["destroyed"])
        return "activate", {"rig": rig}
    me = doc["rigs"][active]
    if me["actions_left"] == 5:
        return "move", {"rig": active}
    enemies = [r for r, x in doc["rigs"].items() if x["player"] != me["player"] and not x["destroyed"]]
    gun = me["weapons"].get("gun")
    if me["actions_left"] >= 3 and enemies and gun and not gun["destroyed"] and not gun["disabled"]:
        if not gun["loaded"]:
            return "reload", {"rig": active}
        return "fire_weapon", {"rig": active, "weapon": "gun", "target": enemies[0], "in_front_arc": True,
                               "in_range": True, "overflow_to": ALL_LOCATIONS}
    return "end_activation", {}


def _play(doc: dict, until_round: int = 3) -> tuple[list[dict], list[dict]]:
    """Play from ``doc``; the log (action, facts, dice, summary) and each state after an action."""
    log, states = [], []
    while doc["round"] < until_round and not doc["ended"]:
        action, facts = _next(doc)
        dice = SeededDice(f"replay-{len(log)}")
        result = GAME.resolve(doc, action, GAME.action(action).facts(**facts), dice)
        log.append({"action": action, "facts": facts, "dice": [d.value for d in dice.history],
                    "summary": result.summary})
        doc = apply_changes(doc, result.all_changes)
        states.append(doc)
    return log, states


def _replay(doc: dict, log: list[dict]) -> tuple[list[str], dict]:
    summaries = []
    for entry in log:
        spec = GAME.action(entry["action"])
        result = GAME.resolve(doc, entry["action"], spec.facts(**entry["facts"]), ScriptedDice(entry["dice"]))
        summaries.append(result.summary)
        doc = apply_changes(doc, result.all_changes)
    return summaries, doc


def _changed_engagements(real):
    """The engagements file as someone might edit it later: Rigs near objectives score 5 VP, not 2,
    and destroyed Rigs score 10 VP whatever their class."""
    cards = []
    for e in real.engagements:
        scoring = [r.model_copy(update={"vp": 5}) if r.rule == "rig_near_objective" else r for r in e.scoring]
        cards.append(e.model_copy(update={"scoring": scoring, "destroyed_rig_vp": dict.fromkeys(real.destroyed_rig_vp,
                                                                                              10)}))
    return real.model_copy(update={"engagements": cards, "destroyed_rig_vp": dict.fromkeys(real.destroyed_rig_vp, 10)})


def test_a_game_replays_from_its_document_and_log_whatever_the_data_says_later(monkeypatch):
    first = _start()
    log, states = _play(first)
    final = states[-1]
    actions = [e["action"] for e in log]
    assert {"initiative", "activate", "move", "fire_weapon", "score_round", "end_round"} <= set(actions)
    assert final["round"] == 3 and final["players"]["p1"]["vp"] == 2 * 2 * 2  # two Rigs, two rounds, 2 VP

    changed = _changed_engagements(data.load_engagements())
    monkeypatch.setattr(data, "load_engagements", lambda path=None: changed)
    # The change is real: an engagement started now carries the new numbers.
    assert _start()["engagement_rules"]["scoring"][0]["vp"] == 5

    summaries, replayed = _replay(first, log)
    assert summaries == [e["summary"] for e in log]
    assert replayed == final


def test_the_engine_reads_no_data_file_while_it_plays(monkeypatch):
    first = _start()
    log, states = _play(first)

    def gone(*args, **kwargs):
        raise AssertionError("the engine read a data file while it resolved an action")

    for loader in ("load_engagements", "load_equipment", "load_examples", "load_formations", "load_perks"):
        monkeypatch.setattr(data, loader, gone)
    assert _replay(first, log)[1] == states[-1]
    with pytest.raises(AssertionError, match="read a data file"):
        _start()  # starting a new one does read them: the loaders really are gone
