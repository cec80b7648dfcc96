"""A form that is a page of its own (a list builder, a new game, the settings, signing in), sent by
the tablet's htmx.

Such a form carries ``hx-boost="true"``: htmx sends it and puts the answer's body in place of the
page's. Sent so, a refusal drawn again with everything typed in it is an answer the tablet shows
(200, its true status in ``X-Refused``: ``refusals.py``), where the browser's own post of the form
made the browser log the 422, 403 or 409 in red, as it does a fault. The request is answered as the
browser's own post would be, the whole page, never the board's fragments (``sent_as_page``), with
two differences htmx needs:

- a redirect (the form done, on to the page it made) is said as ``HX-Redirect``: the tablet goes
  there as the browser would, a page load of its own, the address bar following it. An XHR would
  follow the redirect unseen, and htmx would swap the new page's body into the form's page;
- a page drawn again (a refusal, a builder's row added) stays at its address: not pushed into the
  history, so Back leads where it did and a reload opens the form's page.

Without JavaScript the form is posted by the browser and gets its true status and redirect.
"""
from __future__ import annotations

from urllib.parse import urlsplit

from flask import Flask, Response, request

REDIRECTS = frozenset({301, 302, 303, 307, 308})


def sent_as_page() -> bool:
    """A boosted form whose answer replaces the whole page (htmx names no target: the body has no
    id). A boosted form in a part of a page (an Of Oil and Iron campaign's steps) names its part."""
    return request.headers.get("HX-Boosted") == "true" and not request.headers.get("HX-Target")


def answered_as_page(response: Response) -> Response:
    if not sent_as_page():
        return response
    if response.status_code in REDIRECTS and response.location:
        # The same answer, its other headers kept (a login's cookie, a name chosen).
        response.headers["HX-Redirect"] = response.location
        if _same_document(response.location):
            # The tablet is at that page already (a step of the campaign page, on to its #now):
            # the browser would only scroll to the anchor, showing the page as it was; htmx's
            # refresh, after the new address, draws it again as it now stands.
            response.headers["HX-Refresh"] = "true"
        del response.headers["Location"]
        response.status_code = 204
        response.set_data(b"")
        return response
    response.headers["HX-Push-Url"] = "false"
    return response


def _same_document(location: str) -> bool:
    """Whether going to ``location`` from the tablet's page would only move to an anchor."""
    here, there = urlsplit(request.headers.get("HX-Current-URL", "")), urlsplit(location)
    return bool(there.fragment) and (there.path, there.query) == (here.path, here.query)


def init_app(app: Flask) -> None:
    app.after_request(answered_as_page)
