"""Where the app keeps its database and secret, read from the environment.

Everything has a default that works on a fresh clone: a SQLite file in ``instance/`` and a
secret key generated once into ``instance/secret_key``, so the tablets' sessions and CSRF tokens
survive a restart of the server. An empty or unreadable key file is dealt with when the server
starts (a new key replaces an empty file; an unreadable one stops the start with a sentence saying
what to do), never a 500 on every page.
"""
from __future__ import annotations

import os
import secrets
import sys
from pathlib import Path

# A game evening, with margin: a tablet left open since the start of play must still be able
# to write at midnight.
CSRF_TIME_LIMIT = 14 * 60 * 60


class SecretKeyError(SystemExit):
    """The server cannot start because its secret key cannot be read; the message says why and
    what to do (``python -m referee`` prints it and stops, with no traceback)."""


def secret_key(instance: Path) -> str:
    """The ``SECRET_KEY`` from the environment, or the one kept in ``instance/secret_key`` (made
    the first time; an empty file gets a new key, with a note, since the old one is gone anyway)."""
    if os.environ.get("SECRET_KEY", "").strip():
        return os.environ["SECRET_KEY"]
    path = instance / "secret_key"
    try:
        key = path.read_text().strip()
    except FileNotFoundError:
        key = None
    except (OSError, UnicodeDecodeError) as e:
        raise SecretKeyError(
            f"Referee cannot read its secret key file {path} ({getattr(e, 'strerror', None) or e}). "
            "Make it readable by the user running Referee, or delete it so a new one is made (every "
            "tablet then logs in again), or set the SECRET_KEY environment variable.") from None
    if key:
        return key
    new = secrets.token_hex(32)
    try:
        instance.mkdir(parents=True, exist_ok=True)
        if key is None:
            # Made with owner-only permissions: the key signs every session and CSRF token.
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        else:
            fd = os.open(path, os.O_WRONLY | os.O_TRUNC)
        with os.fdopen(fd, "w") as f:
            f.write(new)
    except OSError as e:
        raise SecretKeyError(
            f"Referee cannot write its secret key file {path} ({e.strerror or e}). Make the folder "
            f"{instance} writable by the user running Referee, or set the SECRET_KEY environment variable.") from None
    if key == "":
        print(f"Referee: the secret key file {path} was empty, so a new key was written to it. "
              "Tablets that were logged in log in again.", file=sys.stderr, flush=True)
    return new


def from_environment(instance: Path) -> dict:
    return {
        "DATABASE_URL": os.environ.get("DATABASE_URL") or f"sqlite:///{instance / 'referee.sqlite'}",
        "SECRET_KEY": secret_key(instance),
        "WTF_CSRF_TIME_LIMIT": CSRF_TIME_LIMIT,
        "SEED_DEMO": os.environ.get("REFEREE_SEED_DEMO", "1") not in ("0", "no", "false"),
    }
