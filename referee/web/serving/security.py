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
  kilobytes) is refused with a 413 page before anything reads it.
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
TOO_LARGE = ("That was too much to send at once (more than 2 MB). An army list file is far smaller: "
             "check that the right file was chosen.")


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
        return render_template("message.html", message=TOO_LARGE if plain else said), 413
