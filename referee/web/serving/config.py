"""Where the app keeps its database and secret, read from the environment.

Everything has a default that works on a fresh clone: a SQLite file in ``instance/`` and a
secret key generated once into ``instance/secret_key``, so the tablets' sessions and CSRF tokens
survive a restart of the server.
"""
from __future__ import annotations

import os
from pathlib import Path

# A game evening, with margin: a tablet left open since the start of play must still be able
# to write at midnight.
CSRF_TIME_LIMIT = 14 * 60 * 60


def secret_key(instance: Path) -> str:
    """The ``SECRET_KEY`` from the environment, or one made once and kept in the instance folder
    (an empty or unreadable file is dealt with at start: ``referee.web.serving.security.secret_key``)."""
    from .security import secret_key as kept_secret_key
    return kept_secret_key(instance)


def from_environment(instance: Path) -> dict:
    return {
        "DATABASE_URL": os.environ.get("DATABASE_URL") or f"sqlite:///{instance / 'referee.sqlite'}",
        "SECRET_KEY": secret_key(instance),
        "WTF_CSRF_TIME_LIMIT": CSRF_TIME_LIMIT,
        "SEED_DEMO": os.environ.get("REFEREE_SEED_DEMO", "1") not in ("0", "no", "false"),
    }
