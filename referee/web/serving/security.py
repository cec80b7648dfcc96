"""What every response and every request goes through so a club's network can trust the server.

- Headers on every response: a Content-Security-Policy that allows scripts only from our own
  static files (no inline script, no ``on…=`` attributes, no ``eval``), frames from nobody
  (``frame-ancestors 'none'``), ``X-Content-Type-Options: nosniff`` and a same-origin
  ``Referrer-Policy``; a same-origin ``Cross-Origin-Opener-Policy`` only where a browser honours it
  (HTTPS, or the machine itself): from plain HTTP on a club's network Chromium ignores it and
  logs an error in the console of every page.
- Cookies: the session (and Flask-Login's remember cookie) are HttpOnly and SameSite=Lax; with
  ``REFEREE_HTTPS=1`` (behind a TLS proxy) they are Secure too.
- A request body over ``MAX_CONTENT_LENGTH`` (2 MB: the largest army list export is a few tens of
  kilobytes) is refused with a 413 page before anything reads it, which says how large it was and
  what may be sent. A game file imported (``IMPORTS``) may be up to ``MAX_IMPORT`` (64 MB): a long
  game's export is several megabytes (a 1,254-entry game played by hand was 2.44 MB), and every
  export imports back.
- An app with no secret key does not start (``config.SecretKeyError``); the key itself, and its
  file in ``instance/``, are ``config.py``'s.
"""
from __future__ import annotations

import ipaddress
import os
from datetime import date
from urllib.parse import urlsplit

from flask import Flask, render_template, request, session
from werkzeug.exceptions import RequestEntityTooLarge

from .config import SecretKeyError

CSP = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    # htmx adds its indicator style element; one template uses a style attribute.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
}
OPENER_POLICY = ("Cross-Origin-Opener-Policy", "same-origin")
MAX_BODY = 2 * 1024 * 1024
MAX_IMPORT = 64 * 1024 * 1024
# The addresses a game file is imported at: they take bodies up to ``MAX_IMPORT``.
IMPORTS = frozenset({"/games/import"})


class BodyLimit:
    """Mixed into the app's request class (``limit_bodies``): a body may be as large as its
    address takes, a game file imported up to ``MAX_IMPORT``, anything else up to the app's
    ``MAX_CONTENT_LENGTH``. Decided by the address before anything reads the body (the CSRF
    check included)."""

    @property
    def max_content_length(self) -> int | None:
        if self.path in IMPORTS:
            return MAX_IMPORT
        return super().max_content_length


def limit_bodies(app: Flask) -> None:
    """The app's request class (htmx's, by then) with ``BodyLimit`` in front of it."""
    app.request_class = type("BodyLimitedRequest", (BodyLimit, app.request_class), {})


def _megabytes(size: int) -> str:
    return f"{size / (1024 * 1024):.1f} MB"


def too_large(path: str, size: int | None) -> str:
    """The 413's sentence: what was sent, how large, and what may be."""
    sent = f" ({_megabytes(size)})" if size else ""
    if path in IMPORTS:
        return (f"That game file is too large to import{sent}: a game file may be up to {_megabytes(MAX_IMPORT)}. "
                "Check that the right file was chosen.")
    return (f"That was too much to send at once{sent}: a form or an army list file may be up to "
            f"{_megabytes(MAX_BODY)}, and an army list file is far smaller. Check that the right file was chosen.")


def _loopback(host: str) -> bool:
    """Whether a request's Host names this machine (``localhost``, 127.x.x.x, ``[::1]``): an
    origin browsers trust over plain HTTP."""
    try:
        name = urlsplit(f"//{host}").hostname or ""
        return name == "localhost" or name.endswith(".localhost") or ipaddress.ip_address(name).is_loopback
    except ValueError:  # a name other than localhost, or a Host header no browser would send
        return False


def behind_https() -> bool:
    """``REFEREE_HTTPS=1``: the server sits behind a TLS proxy, so its tablets use HTTPS."""
    return os.environ.get("REFEREE_HTTPS", "") in ("1", "yes", "true")


def _opener_policy(host: str, secure: bool) -> bool:
    return secure or _loopback(host)


def response_headers(host: str, secure: bool) -> list[tuple[str, str]]:
    """The headers of an empty answer made outside Flask (the quick poll, ``web/quick_poll.py``):
    the same as every answer of the app's carries."""
    out = [("Vary", "Accept-Encoding, Cookie"), *HEADERS.items()]
    if _opener_policy(host, secure):
        out.append(OPENER_POLICY)
    return out


# The session's key for the day it was last renewed (``_fresh_day``).
DAY = "day"


def init_app(app: Flask) -> None:
    if not str(app.config.get("SECRET_KEY") or "").strip():
        raise SecretKeyError("Referee has no secret key: set SECRET_KEY, or let it make one in "
                             "instance/secret_key by leaving SECRET_KEY unset.")
    https = behind_https()
    for name, value in {
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "SESSION_COOKIE_SECURE": https,
        "REMEMBER_COOKIE_HTTPONLY": True,
        "REMEMBER_COOKIE_SAMESITE": "Lax",
        "REMEMBER_COOKIE_SECURE": https,
        "MAX_CONTENT_LENGTH": MAX_BODY,
        # A form's fields (not files) and how many there may be: the largest builder form has a
        # few hundred fields.
        "MAX_FORM_MEMORY_SIZE": 512 * 1024,
        "MAX_FORM_PARTS": 5000,
        # A session cookie is signed and sent again only when it changes (``_fresh_day`` renews a
        # kept one once a day of use), not with every answer: some 280 bytes and a signature saved
        # on every poll and tap.
        "SESSION_REFRESH_EACH_REQUEST": False,
    }.items():
        app.config[name] = value

    @app.before_request
    def _fresh_day():
        """A tablet's kept session (its seat, its login) lasts a month from its last day of use:
        the first request of each day marks it changed, so its cookie goes out again with a new
        month ahead of it."""
        if session.permanent:
            today = date.today().toordinal()
            if session.get(DAY) != today:
                session[DAY] = today

    @app.after_request
    def _headers(response):
        for name, value in HEADERS.items():
            response.headers.setdefault(name, value)
        if _opener_policy(request.host, https or request.is_secure):
            response.headers.setdefault(*OPENER_POLICY)
        return response

    @app.errorhandler(413)
    def _too_large(err):
        # The app's own sentence when it gave one (too many fields), else the body's size.
        said = getattr(err, "description", "")
        plain = said == RequestEntityTooLarge.description or not isinstance(said, str)
        message = too_large(request.path, request.content_length) if plain else said
        return render_template("message.html", message=message), 413
