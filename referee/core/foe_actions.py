"""The Foe's three actions, the same in every game: declare it before the game, let it decide
(and carry out what it decided through the game's own actions), or overrule it. Each is one
entry of the game's log, undone and redone like any other, so a game against the Foe replays
from its first document, its answers and its dice.
"""
from __future__ import annotations

from typing import Callable, Literal

from pydantic import Field, field_validator

from .changes import ChangeBuilder
from .contract import ActionSpec, Facts
from .docstate import apply_changes
from .errors import RuleError
from .foe import DIFFICULTIES, TIE_RULES, Decision, FoeSettings, Planned, Question
from .results import Result

Step = Callable[[dict, dict], "Question | Decision | None"]


class FoeSettingsFacts(Facts):
    side: str = Field("", title="Referee plays", max_length=40,
                      json_schema_extra={"help": "Empty: nobody (two players at the table)."})
    difficulty: Literal[tuple(DIFFICULTIES)] = Field("normal", title="Difficulty",
                                                     json_schema_extra={"labels": DIFFICULTIES})
    ties: Literal[tuple(TIE_RULES)] = Field("player", title="Ties", json_schema_extra={"labels": TIE_RULES})
    seed: int = Field(1, ge=1, le=2**31, title="Seed for the lot")


def encode_answers(answers: dict[str, str]) -> str:
    """The answers as one line of text ("key=value;key=value"), as a form carries them."""
    return ";".join(f"{k}={v}" for k, v in answers.items())


def decode_answers(text: str) -> dict[str, str]:
    out = {}
    for part in text.split(";"):
        key, eq, value = part.partition("=")
        if eq and key.strip():
            out[key.strip()] = value.strip()
    return out


class _Answered(Facts):
    answers: str = Field("", max_length=4000, title="Answers to the Foe's questions",
                         json_schema_extra={"help": "As the Foe's screen records them: question=answer;…"})

    @field_validator("answers", mode="before")
    @classmethod
    def _answers_as_text(cls, value):
        return encode_answers(value) if isinstance(value, dict) else value

    @property
    def told(self) -> dict[str, str]:
        return decode_answers(self.answers)


class FoeDecideFacts(_Answered):
    pass


class FoeOverruleFacts(_Answered):
    reason: str = Field("", title="Why the player overrules it", max_length=200)


def cant_tell_cost(rungs: int) -> str:
    """What "can't tell" cost a decision, said once: the rungs its ladder went down for it."""
    return f"“Can't tell” cost it {'a rung' if rungs == 1 else f'{rungs} rungs'}."


def decided_here(doc: dict, at: list) -> set[str]:
    """The pieces the Foe has decided for (or been overruled on) at this point of the game."""
    return {r["piece"] for r in (doc.get("foe") or {}).get("decided", ()) if r.get("at") == at}


def overruled_here(doc: dict, at: list) -> bool:
    """The player overruled the Foe at this point of the game: the player acts for it here."""
    return any(r.get("overruled") for r in (doc.get("foe") or {}).get("decided", ()) if r.get("at") == at)


def foe_actions(step: Step, position: Callable[[dict], list], sides: Callable[[dict], dict[str, str]],
                catalogue: Callable[[], tuple[ActionSpec, ...]],
                still_allowed: Callable[[dict, Planned], bool]) -> tuple[ActionSpec, ActionSpec, ActionSpec]:
    """The game's ``foe_settings``, ``foe_decide`` and ``foe_overrule``. ``step`` is the game's
    Foe; ``position`` names where the game stands (a decision is recorded there, so the Foe
    decides each piece once there); ``sides`` the sides it may play, by key; ``catalogue`` the
    game's actions, through which the Foe acts; ``still_allowed`` whether a step planned "if
    allowed" (a brigade's second volley) may still be taken once the steps before it resolved."""

    def spec_of(name: str) -> ActionSpec:
        for spec in catalogue():
            if spec.name == name:
                return spec
        raise RuleError(f"The Foe chose “{name}”, which this game does not have.")

    def resolve_settings(doc: dict, facts: FoeSettingsFacts, dice) -> Result:
        names = sides(doc)
        if facts.side and facts.side not in names:
            raise RuleError(f"“{facts.side}” is not a side of this game: {', '.join(names)}.")
        raw = dict(doc.get("foe") or {})
        # Each side keeps what it was declared with: a side declared before the game (Referee
        # playing both) may be taken up again later, any other change waits for a new game.
        kept = dict(raw.get("declared") or {})
        before = kept.get(facts.side) or FoeSettings.of(doc).declared()
        wanted = {"difficulty": facts.difficulty, "ties": facts.ties, "seed": facts.seed}
        if raw.get("decided") and before != wanted:
            raise RuleError("Difficulty and ties are declared before the game: the Foe has already decided, "
                            "so only the side it plays may change now.")
        ch = ChangeBuilder(doc)
        written = []
        if not raw:  # the first declaration writes the whole record, so undoing it leaves none
            raw = {"side": facts.side, **wanted, "decided": []}
            written.append(ch.set(("foe",), raw, "The Foe's settings"))
        # Field by field: the Foe's record of what it decided stays where it is, not copied again.
        written += [ch.set(("foe", key), value, "The Foe's settings") for key, value in
                    (("side", facts.side), *wanted.items())]
        if "decided" not in raw:
            ch.set(("foe", "decided"), [], "The Foe's settings")
        if facts.side and not raw.get("decided"):
            written.append(ch.set(("foe", "declared"), {**kept, facts.side: wanted}, "The Foe's settings"))
        if not any(written):
            raise RuleError("The Foe is already set so.")
        who = f"Referee plays {names[facts.side]}" if facts.side else "Nobody plays for Referee"
        return Result("foe_settings", f"{who} ({DIFFICULTIES[facts.difficulty]}; {TIE_RULES[facts.ties]})",
                      changes=ch.changes)

    def decide(doc: dict, answers: dict) -> Decision:
        if not FoeSettings.of(doc).side:
            raise RuleError("Referee plays no side in this game: choose one in the Foe's settings first.")
        found = step(doc, answers)
        if isinstance(found, Question):
            raise RuleError(f"The Foe still needs an answer: {found.text}")
        if found is None:
            raise RuleError("The Foe has nothing to decide now.")
        return found

    def record(doc: dict, decision: Decision, overruled: str | None) -> ChangeBuilder:
        """The decision in the Foe's own record (what it decided where, so it decides each piece
        once there). The result says it in its notes, so its change is not listed on the screen
        (``quiet_changes``): the undo still takes it back."""
        ch = ChangeBuilder(doc)
        entry = {"at": position(doc), "piece": decision.piece, "rung": decision.rung, **dict(decision.memo)}
        if overruled is not None:
            entry["overruled"] = overruled
        ch.set(("foe", "decided"), list((doc.get("foe") or {}).get("decided", ())) + [entry],
               f"The Foe: {decision.name}")
        return ch

    def notes_of(decision: Decision) -> list[str]:
        notes = [f"Asked: {q} — {a}" for _, q, a in decision.asked]
        if decision.candidates:
            notes.append("Weighed: " + "; ".join(decision.candidates))
        notes.append(f"Rung: {decision.rung}. {decision.rule}")
        if decision.dropped:
            notes.append(cant_tell_cost(decision.dropped))
        return notes

    def resolve_decide(doc: dict, facts: FoeDecideFacts, dice) -> Result:
        decision = decide(doc, facts.told)
        ch = record(doc, decision, None)
        current = apply_changes(doc, ch.changes)
        children: list[Result] = []
        notes = list(decision.orders)
        passed = True
        for planned in decision.plan:
            if planned.when == "passed" and not passed:
                notes.append(f"The order failed: no {planned.action.replace('_', ' ')}.")
                continue
            if planned.when == "if_allowed" and not still_allowed(current, planned):
                notes.append(f"No longer possible, so not taken: {planned.action.replace('_', ' ')}.")
                continue
            spec = spec_of(planned.action)
            result = spec.resolve(current, spec.facts.model_validate(planned.facts), dice)
            current = apply_changes(current, result.all_changes)
            children.append(result)
            passed = bool(result.data.get("passed", True)) and not result.data.get("blunder")
        notes += notes_of(decision)
        return Result("foe_decide", f"The Foe: {decision.name} — {decision.rung}", changes=ch.changes,
                      notes=tuple(notes), children=tuple(children),
                      data={"decision": decision.to_dict(), "quiet_changes": True})

    def resolve_overrule(doc: dict, facts: FoeOverruleFacts, dice) -> Result:
        decision = decide(doc, facts.told)
        reason = facts.reason.strip() or "no reason given"
        ch = record(doc, decision, reason)
        notes = [f"The Foe would have: {line}" for line in decision.orders] + notes_of(decision)
        notes.append(f"Overruled by the player: {reason}. The player acts for the Foe here.")
        return Result("foe_overrule", f"The Foe overruled: {decision.name} — not {decision.rung}",
                      changes=ch.changes, notes=tuple(notes),
                      data={"decision": decision.to_dict(), "overruled": reason, "quiet_changes": True})

    return (
        ActionSpec("foe_settings", "Referee plays a side", FoeSettingsFacts, resolve_settings, rolls_dice=False,
                   acts_for="umpire"),
        ActionSpec("foe_decide", "The Foe decides", FoeDecideFacts, resolve_decide, acts_for="foe"),
        ActionSpec("foe_overrule", "Overrule the Foe", FoeOverruleFacts, resolve_overrule, rolls_dice=False,
                   acts_for="foe"),
    )
