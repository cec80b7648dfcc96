"""Several worker processes behind one address, for a club with many tables: gunicorn's settings.

    gunicorn -c python:referee.web.serving.workers 'referee:create_app()'

``python -m referee`` is one waitress process; that serves a club's thirty tablets, but one
process uses one processor core for Python. gunicorn (Linux, macOS) forks several processes on
one port. The app is made once, before the fork (``preload_app``): the schema is brought up to
date and the demo seeded by one process, never by several at once. Each worker then drops the
database connections it inherited and opens its own, since two processes must never share one.

The database must be one every worker reaches: PostgreSQL (``DATABASE_URL``) for a club; a SQLite
file works for a few workers on one machine (WAL mode, writes wait their turn). Every worker must
sign sessions with the same ``SECRET_KEY`` (the one in ``instance/`` is shared when they start in
the same folder). A stale write is refused whichever worker takes it: the version check is in the
database transaction, not in a process's memory.

Environment: ``HOST`` and ``PORT`` as for ``make run``; ``WORKERS`` (default 2 per core) and
``THREADS`` per worker (default 8).
"""
from __future__ import annotations

import os

bind = f"{os.environ.get('HOST', '0.0.0.0')}:{os.environ.get('PORT', '5000')}"
workers = int(os.environ.get("WORKERS") or 2 * (os.cpu_count() or 1))
threads = int(os.environ.get("THREADS") or 8)
worker_class = "gthread"
preload_app = True
# A tablet keeps its connection between polls.
keepalive = 30


def post_fork(server, worker):  # noqa: ARG001 - gunicorn's hook signature
    """A new worker: forget the connections the parent opened, so this process opens its own."""
    worker.app.wsgi().extensions["referee.engine"].dispose(close=False)
    # Quick requests are not kept waiting behind a board being drawn (serve.SWITCH_INTERVAL).
    import sys

    from .serve import SWITCH_INTERVAL, settle_memory
    sys.setswitchinterval(SWITCH_INTERVAL)
    settle_memory()
