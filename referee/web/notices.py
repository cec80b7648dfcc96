"""The one-line message a page shows after a redirect: only one this app put in the session for
it (Flask's ``flash``), never text taken from the page's address, so a link cannot make the app
say anything."""
from __future__ import annotations

from flask import flash, get_flashed_messages


def say(message: str) -> None:
    """Show ``message`` on the next page this tablet opens."""
    if message:
        flash(message)


def said() -> str:
    """The message put here for this page, if any (and it is shown once)."""
    return " ".join(get_flashed_messages())
