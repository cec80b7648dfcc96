"""The app's static files (style sheets, scripts, htmx), served so that a tablet fetches each one
once: every address carries a hash of the file's content (``/static/v-<hash>/referee.css``), so an
address names one content for ever and can be cached for a year; a new file gets a new address.
The hash is a folder of the address, not a query, so the file's own name still ends the address. Files are served
from memory, whole, so the compression the app applies to its pages applies to them too.

Templates keep writing ``url_for('static', filename=...)``: the hash is added to every such
address here.
"""
from __future__ import annotations

import hashlib
import mimetypes
import os
import threading
from pathlib import Path

from flask import Flask, Response, abort, request
from werkzeug.security import safe_join

# A hashed address never changes content: cache it for a year and never ask again.
LONG_CACHE = "public, max-age=31536000, immutable"
# An address without the current hash (an old page, a hand-typed link): check again soon.
SHORT_CACHE = "public, max-age=60, must-revalidate"
HASH_CHARS = 12
# The folder an address names its content hash in: /static/v-<hash>/<file>.
PREFIX = "v-"


class StaticFiles:
    """Each static file's bytes and content hash, read once and read again when it changes."""

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self._files: dict[str, tuple[int, int, bytes, str]] = {}
        self._lock = threading.Lock()

    def get(self, filename: str) -> tuple[bytes, str] | None:
        path = safe_join(self.folder, filename)
        if path is None:
            return None
        try:
            st = os.stat(path)
        except OSError:
            return None
        if not os.path.isfile(path):
            return None
        known = self._files.get(filename)
        if known and known[0] == st.st_mtime_ns and known[1] == st.st_size:
            return known[2], known[3]
        data = Path(path).read_bytes()
        digest = hashlib.sha256(data).hexdigest()[:HASH_CHARS]
        with self._lock:
            self._files[filename] = (st.st_mtime_ns, st.st_size, data, digest)
        return data, digest

    def digest(self, filename: str) -> str | None:
        found = self.get(filename)
        return found[1] if found else None


def init_app(app: Flask) -> None:
    files = StaticFiles(app.static_folder)
    app.extensions["referee.static"] = files

    @app.url_defaults
    def _fingerprint(endpoint, values):
        filename = values.get("filename", "")
        if endpoint == "static" and not filename.startswith(PREFIX):
            digest = files.digest(filename)
            if digest:
                values["filename"] = f"{PREFIX}{digest}/{filename}"

    def serve_static(filename: str):
        asked = None
        if filename.startswith(PREFIX) and "/" in filename:
            asked, filename = filename[len(PREFIX):].split("/", 1)
        asked = asked or request.args.get("v")
        found = files.get(filename)
        if found is None:
            abort(404)
        data, digest = found
        mimetype = mimetypes.guess_type(filename)[0] or "application/octet-stream"
        resp = Response(data, mimetype=mimetype)
        resp.set_etag(digest)
        resp.headers["Cache-Control"] = LONG_CACHE if asked == digest else SHORT_CACHE
        return resp.make_conditional(request)

    app.view_functions["static"] = serve_static
