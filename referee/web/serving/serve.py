"""``python -m referee``: serve the app on the local network through waitress, a production WSGI
server, and say which address a tablet opens.

Waitress is one process with a pool of threads: enough threads that thirty tablets polling and
two acting never queue behind each other (``THREADS``, default 32). A club that wants several
processes runs gunicorn with the settings in ``referee.web.serving.workers`` (README, "Several workers").
"""
from __future__ import annotations

import gc
import os
import sys

from .lan import lan_addresses

# A tablet's poll or tap spends most of its time waiting on the database or the network, not on
# the processor, so a thread per tablet is what keeps a poll from waiting behind a write.
DEFAULT_THREADS = 32


def _fewer_malloc_arenas() -> None:
    """glibc gives each thread a memory arena of its own; with thirty-odd threads drawing 300-unit
    boards the process keeps growing with memory it never hands back. Two arenas are plenty for
    a server whose threads take turns at Python anyway. Linux (glibc) only; MALLOC_ARENA_MAX in
    the environment, if set, decides instead."""
    if os.environ.get("MALLOC_ARENA_MAX"):
        return
    try:
        import ctypes
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return  # not glibc: nothing to tune
    m_arena_max = -8  # mallopt's M_ARENA_MAX (malloc.h)
    libc.mallopt(m_arena_max, 2)


# How long a thread may hold Python's interpreter lock before another waiting thread gets it.
# Python's default, 5 ms, suits number crunching; here a 204 poll needs the lock a handful of
# times (read the request, ask the database, answer), and behind one board being drawn each of
# those waits a whole interval. A shorter interval lets the quick requests through.
SWITCH_INTERVAL = 0.0005


def settle_memory() -> None:
    """Once the app is made: everything made at start-up (modules, templates, the rules index,
    the data files, some 130,000 objects) is set aside from Python's cycle collector, so a full
    collection while serving walks only what serving made, in a few milliseconds instead of
    stopping every request for tens of them. What is set aside is still freed when unused."""
    gc.collect()
    gc.freeze()


def compile_templates(app) -> int:
    """Every template compiled now, while the server starts, not by the first tablet to draw it.
    Jinja compiles a template the first time it is drawn, some 15 ms each (the 75 of them take
    about a second), and on a 300-unit battle the first combat rounds of the night paid for the
    result's templates, twice as long as a round drawn since. Compiled before ``settle_memory``,
    they are set aside from the cycle collector with the rest of start-up's work."""
    env = app.jinja_env
    names = env.list_templates()
    for name in names:
        env.get_template(name)
    return len(names)


# Open connections waitress accepts at once; past it a new tablet waits until one closes, and a
# tablet keeps its connection between polls (an idle one is closed after two minutes). 12 games of
# 11 tablets held 144 of them at once in the benchmark: the old limit of 128 kept tablets waiting.
# Waitress watches them with poll() (``asyncore_use_poll``), not select(), which stops at 1,024.
CONNECTIONS = 500


def connection_limit(threads: int) -> int:
    return max(CONNECTIONS, threads * 4)


def _threads() -> int:
    raw = os.environ.get("THREADS", "").strip()
    if not raw:
        return DEFAULT_THREADS
    if not raw.isdigit() or not 1 <= int(raw) <= 256:
        raise SystemExit(f"THREADS must be a whole number from 1 to 256, not {raw!r}.")
    return int(raw)


def main() -> None:
    import waitress

    from ... import create_app
    from ...table.db import Checkpointer
    from .keep_alive import keep_alive_server

    host = os.environ.get("HOST", "0.0.0.0")
    raw_port = os.environ.get("PORT", "5000").strip()
    if not raw_port.isdigit() or not 0 < int(raw_port) < 65536:
        raise SystemExit(f"PORT must be a port number from 1 to 65535, not {raw_port!r}.")
    port = int(raw_port)
    threads = _threads()
    _fewer_malloc_arenas()
    sys.setswitchinterval(SWITCH_INTERVAL)
    app = create_app()
    # SQLite's log folded into the file in a thread of its own, not inside a tablet's write.
    Checkpointer.start_for(app.extensions["referee.engine"])
    compile_templates(app)
    settle_memory()
    print("Referee is ready. Open one of these on a tablet on the same network:", flush=True)
    for address in (lan_addresses() if host == "0.0.0.0" else [host]) or ["127.0.0.1"]:
        print(f"    http://{address}:{port}/", flush=True)
    # A tablet keeps its connection open between polls, a quiet one's 204 too (``keep_alive``):
    # allow a club's worth of them, and never hand a client a traceback.
    waitress.serve(app, host=host, port=port, threads=threads, connection_limit=connection_limit(threads),
                   asyncore_use_poll=True, ident="referee", expose_tracebacks=False, _quiet=True,
                   _server=keep_alive_server)
