"""``python bench/metered.py``: the real server (``python -m referee``) with each request's own
processor time counted by kind, for the several-games part of ``make bench``; under gunicorn,
``metered:metered_app()`` (with ``bench/`` on the path) is the same app for each worker.

Each request is timed by its thread's processor time (``time.thread_time``) around the app (so a
wait for a core or for the interpreter lock is not counted), once as a whole and once more where
it goes on to Flask (the rest was answered before Flask, ``web/serving/quick_poll.py``). Every
second the counts and totals are written as JSON to the file ``METER_FILE`` names, followed by the
process's id (one file for each worker); what the process
spent outside the app (waitress reading and writing the sockets, the checkpointer) is the
process's processor time from ``/proc`` less these.
"""
from __future__ import annotations

import json
import os
import re
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import referee  # noqa: E402
from referee.web.serving import serve  # noqa: E402

KINDS = (("poll", re.compile(r"/games/\d+/poll\Z")), ("form", re.compile(r"/games/\d+/act/[\w]+\Z")),
         ("odds", re.compile(r"/games/\d+/(?:act/[\w]+/)?odds")), ("cards", re.compile(r"/games/\d+/cards\Z")),
         ("board", re.compile(r"/games/\d+\Z")))


class Meter:
    def __init__(self, path: str) -> None:
        self.prefix, self.lock = path, threading.Lock()
        self.counts: dict[str, list[float]] = {}
        self.pid = 0

    def _begin(self) -> None:
        """In this process (a worker forked after the app was made starts its own count and writer)."""
        self.pid, self.counts = os.getpid(), {}
        self.path = f"{self.prefix}.{self.pid}"
        threading.Thread(target=self._write, daemon=True).start()

    def kind(self, environ: dict, status: str, where: str) -> str:
        path, method = environ.get("PATH_INFO", ""), environ.get("REQUEST_METHOD", "")
        name = next((k for k, pat in KINDS if pat.search(path)), "other")
        if method == "POST" and name != "odds":
            name = "write" if "/act/" in path or path.endswith(("/undo", "/redo")) else "post other"
        return f"{where} {name} {status[:3]}"

    def add(self, kind: str, seconds: float) -> None:
        with self.lock:
            if self.pid != os.getpid():
                self._begin()
            found = self.counts.setdefault(kind, [0, 0.0])
            found[0] += 1
            found[1] += seconds

    def wrap(self, app, where: str):
        def metered(environ, start_response):
            status = ["000"]

            def noting(s, headers, *exc):
                status[0] = s
                return start_response(s, headers, *exc)
            t0 = time.thread_time()
            try:
                body = app(environ, noting)
                if isinstance(body, list):
                    return body
                # Drawn as it is read, and the request ended on close: both here, inside the count.
                items = list(body)
                if hasattr(body, "close"):
                    body.close()
                return items
            finally:
                self.add(self.kind(environ, status[0], where), time.thread_time() - t0)
        return metered

    def _write(self) -> None:
        while True:
            time.sleep(1.0)
            with self.lock:
                text = json.dumps(self.counts)
            Path(self.path + ".tmp").write_text(text)
            os.replace(self.path + ".tmp", self.path)


def metered(app):
    """The app with its requests counted (both meters in front of Flask and of the quick poll)."""
    meter = Meter(os.environ["METER_FILE"])
    quick = app.extensions["referee.quick_poll"]
    quick.app = meter.wrap(quick.app, "flask")
    app.wsgi_app = meter.wrap(app.wsgi_app, "all")
    return app


def metered_app():
    """For gunicorn: ``gunicorn -c python:referee.web.serving.workers 'metered:metered_app()'``."""
    return metered(referee.create_app())


def main() -> None:
    made = referee.create_app
    referee.create_app = lambda *args, **kwargs: metered(made(*args, **kwargs))
    serve.main()


if __name__ == "__main__":
    main()
