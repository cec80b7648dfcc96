"""``python -m referee reset-password NAME``: a new password for an account, typed at the server
machine itself (whoever can run this can read the database anyway). Every tablet signed in to
that account is signed out. It is also how the club's first account gets back in."""
from __future__ import annotations

import getpass
import sys
from pathlib import Path

from .. import migrations
from ..table import accounts, db
from ..table.service import TableError
from .serving import config

ROOT = Path(__file__).resolve().parents[2]


def reset_password(args: list[str], ask=getpass.getpass) -> int:
    if len(args) != 1:
        print('Usage: python -m referee reset-password "NAME"', file=sys.stderr)
        return 2
    password = ask(f"New password for {args[0]}: ")
    if ask("The same again: ") != password:
        print("The two passwords differ: nothing was changed.", file=sys.stderr)
        return 1
    engine = db.make_engine(config.from_environment(ROOT / "instance")["DATABASE_URL"])
    try:
        migrations.upgrade(engine)
        with db.session(engine) as s:
            account = accounts.reset_password(s, args[0], password)
    except TableError as e:
        print(f"{e.message} Nothing was changed.", file=sys.stderr)
        return 1
    finally:
        engine.dispose()
    print(f"“{account.name}” has a new password and is signed out on every tablet.")
    return 0
