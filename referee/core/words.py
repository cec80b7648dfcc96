"""Counting in the players' words: "1 turn", "3 turns", never "turn(s)"."""
from __future__ import annotations

IRREGULAR = {"die": "dice", "was": "were"}


def counted(n: int, word: str, many: str | None = None) -> str:
    """``n`` and the word for that many: counted(1, "turn") is "1 turn", counted(2, "turn") "2 turns"."""
    if n == 1:
        return f"{n} {word}"
    return f"{n} {many or IRREGULAR.get(word) or (word + 'es' if word.endswith(('s', 'sh', 'ch', 'x')) else word + 's')}"
