"""The app as the tests run it: a database of its own, no CSRF token asked, no demo battle."""
from __future__ import annotations

from referee import create_app


def make_app(database_url: str, **config):
    """An app on ``database_url``, with ``config`` over the tests' settings (``MODE="club"``, ...)."""
    return create_app({"TESTING": True, "SECRET_KEY": "tests", "DATABASE_URL": database_url,
                       "WTF_CSRF_ENABLED": False, "SEED_DEMO": False, **config})
