"""Where the app keeps its database and secret, read from the environment.

Everything has a default that works on a fresh clone: a SQLite file in ``instance/`` and a
secret key generated once into ``instance/secret_key``, so the tablets' sessions and CSRF tokens
survive a restart of the server.
"""
from __future__ import annotations

import os
import secrets
from pathlib import Path

# A game evening, with margin: a tablet left open since the start of play must still be able
# to write at midnight.
CSRF_TIME_LIMIT = 14 * 60 * 60


def secret_key(instance: Path) -> str:
    """The ``SECRET_KEY`` from the environment, or one made once and kept in the instance folder."""
    if os.environ.get("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    path = instance / "secret_key"
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    instance.mkdir(parents=True, exist_ok=True)
    key = secrets.token_hex(32)
    # Made with owner-only permissions: the key signs every session and CSRF token.
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(key)
    return key


def from_environment(instance: Path) -> dict:
    return {
        "DATABASE_URL": os.environ.get("DATABASE_URL") or f"sqlite:///{instance / 'referee.sqlite'}",
        "SECRET_KEY": secret_key(instance),
        "WTF_CSRF_TIME_LIMIT": CSRF_TIME_LIMIT,
        "SEED_DEMO": os.environ.get("REFEREE_SEED_DEMO", "1") not in ("0", "no", "false"),
    }
