"""A lone player against the Of Oil and Iron Foe, without a table: the Foe's questions answered by
a script, seeded dice; the other squadron is the player's, played by a simple script of its own
(activate, fire or move, end), and the player answers the round's scoring. The Foe's tests play
with it, and the benchmark counts the questions the Foe asks a round (``bench/bench_foe.py``)."""
from __future__ import annotations

from ..core.dice import SeededDice
from ..core.docstate import apply_changes
from ..core.errors import RuleError
from ..core.foe import CANT_TELL, Decision, Question
from ..lists import example_lists
from ..lists.games import game_from_lists
from ..oilandiron import GAME
from ..oilandiron.engagements import needs_round_score
from ..oilandiron.foe import foe_step
from ..oilandiron.model import Engagement
from ..oilandiron.offers import heat_waiting

ALL = ["hull", "arms", "legs", "engine"]


def act(doc, action, facts, dice):
    spec = GAME.action(action)
    result = spec.resolve(doc, spec.facts.model_validate(facts), dice)
    return apply_changes(doc, result.all_changes), result


def engagement(kind="point_of_control", side="p2", **settings):
    ex = example_lists()["example-sword-squadron"]
    doc = game_from_lists("Against the Foe", ex, ex, engagement_type=kind)
    doc, _ = act(doc, "foe_settings", {"side": side, **settings}, SeededDice(1))
    return doc


def scripted_answer(q: Question, n: int) -> str:
    values = [v for v, _ in q.options if v != CANT_TELL]
    if n % 9 == 8:
        return CANT_TELL
    return values[(n // 2) % len(values)] if ":arc:" in q.key else values[n % max(1, len(values) - 1)]


def player_step(doc, seed, i):
    """The lone player's own squadron: activate the next Rig, fire its first ready weapon at the
    first enemy Rig (close, front arc), end; heat rolls; the round's score (every Rig of theirs
    near an objective in even rounds)."""
    eng = Engagement.from_doc(doc)
    dice = SeededDice(f"{seed}:p:{i}")
    me = eng.current_player
    if eng.phase == "activation":
        if eng.active_rig is None:
            rig = next(r for r in eng.rigs_of(me) if r.in_play and not r.activated)
            return act(doc, "activate", {"rig": rig.id, "overflow_to": ALL}, dice)[0]
        rig = eng.rig(eng.active_rig)
        enemy = next((r for r in eng.rigs.values() if r.player != me and r.in_play), None)
        loaded = [w for w in rig.weapons.values() if w.loaded and not w.destroyed and not w.disabled
                  and not w.has("melee") and w.ammo_left != 0]
        if rig.actions_left > 0 and enemy and loaded:
            try:
                return act(doc, "fire_weapon", {"rig": rig.id, "weapon": loaded[0].id, "target": enemy.id,
                                                "in_front_arc": True, "in_range": True, "distance": "close",
                                                "overflow_to": ALL},
                           dice)[0]
            except RuleError:  # a refused shot: the player ends instead
                pass
        return act(doc, "end_activation", {}, dice)[0]
    if eng.phase == "maintenance":
        waiting = heat_waiting(eng)
        if waiting:
            return act(doc, "heat_roll", {"rig": waiting[0].id, "overflow_to": ALL}, dice)[0]
        if needs_round_score(eng):
            near = [r.id for r in eng.rigs.values() if r.in_play and eng.round % 2 == 0][:2]
            return act(doc, "score_round", {"rigs_near_objectives": near}, dice)[0]
        return act(doc, "end_round", {}, dice)[0]
    return act(doc, "initiative", {}, dice)[0]


def play_engagement(doc, seed="poc", answer=scripted_answer, on_decision=None, limit=600):
    """Until the engagement ends: the Foe decides when it has something to decide, else the player."""
    n = 0
    for i in range(limit):
        if doc.get("ended"):
            return doc, n
        answers = {}
        while isinstance(found := foe_step(doc, answers), Question):
            answers[found.key] = answer(found, n)
            n += 1
        if isinstance(found, Decision):
            if on_decision:
                on_decision(doc, found, answers)
            doc, _ = act(doc, "foe_decide", {"answers": answers}, SeededDice(f"{seed}:{i}"))
        else:
            doc = player_step(doc, seed, i)
    raise AssertionError("the engagement never ended")
