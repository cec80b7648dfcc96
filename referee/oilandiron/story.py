"""An engagement's score by round: each player's victory points as each round ended, read from the
document and the log alone (the first state, and each action's changes applied in order; the
standing worked out at every round's end as the score line works it out now)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from ..core.docstate import apply_changes
from ..core.results import Change
from .engagements import standing
from .model import Engagement


@dataclass
class ScoreStory:
    rounds: list[int] = field(default_factory=list)  # the rounds read, in order
    vp: dict[str, list[int]] = field(default_factory=dict)  # per player, one per round read
    names: dict[str, str] = field(default_factory=dict)


def story(initial: dict, entries: Sequence[dict]) -> ScoreStory:
    out = ScoreStory()
    doc = initial
    eng = Engagement.from_doc(doc)
    out.names = {pid: p.name for pid, p in eng.players.items()}
    out.vp = {pid: [] for pid in eng.players}

    def read(doc: dict) -> None:
        vp = standing(Engagement.from_doc(doc), final=bool(doc.get("ended")))["vp"]
        out.rounds.append(doc.get("round", 1))
        for pid in out.vp:
            out.vp[pid].append(vp.get(pid, 0))

    for e in entries:
        after = apply_changes(doc, [Change.from_dict(c) for c in e["changes"]], check=False)
        if after.get("round", 1) != doc.get("round", 1):
            read(doc)
        doc = after
    read(doc)
    return out
