"""Wrong guesses limited, and how long to wait said in words: passwords and join codes.

Each server process keeps the times of recent wrong guesses in memory, by key. A key is full
when it holds ``limit`` guesses within ``window`` seconds; it empties as they age out, so the
wait is the time until the oldest of them is ``window`` old.

Passwords are counted per address and per address and name, never per name alone: a stranger's
wrong guesses for a name cannot lock its owner out of their own tablet. A tablet that an account
signed in on before carries a signed cookie saying so (``KNOWN``); a guess for that account's
name from it is counted for that tablet alone, so even a guesser at the same address (a club's
router, a proxy) cannot lock the owner out there. Join codes are counted per address however
they are tried: typed (``POST /join``) or in the address (``GET /join/<code>``).
"""
from __future__ import annotations

import math
import time
from collections import defaultdict, deque

from flask import current_app


def _store(kind: str) -> dict[str, deque]:
    return current_app.extensions.setdefault(f"referee.wrong_{kind}", defaultdict(deque))


def wait(kind: str, limits: dict[str, int], window: float) -> float:
    """Seconds until another guess may be tried under every key (0: at once)."""
    store, now, longest = _store(kind), time.monotonic(), 0.0
    for key, limit in limits.items():
        tries = store[key]
        while tries and now - tries[0] > window:
            tries.popleft()
        if len(tries) >= limit:
            longest = max(longest, tries[-limit] + window - now)
    return longest


# Past this many keys, those whose guesses have all aged out are dropped (names made up by the
# thousand must not grow a process's memory without end).
KEYS_KEPT = 5000


def failed(kind: str, keys, window: float) -> None:
    now = time.monotonic()
    store = _store(kind)
    if len(store) > KEYS_KEPT:
        for key in [k for k, tries in store.items() if not tries or now - tries[-1] > window]:
            del store[key]
    for key in keys:
        store[key].append(now)


def in_words(seconds: float) -> str:
    minutes = max(1, math.ceil(seconds / 60))
    return "a minute" if minutes == 1 else f"{minutes} minutes"
