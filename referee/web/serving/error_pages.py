"""What a person sees when a request goes wrong, as a plain page (or, for htmx, the same page
swapped into the screen).

A refused request (a page that is not there, a method a route does not take, a bad or stale
form) gets a short page saying so. Anything else that escapes a route is a bug in Referee: it is
logged with its traceback and answered with a plain 500 page that shows no traceback. A rules
refusal (the table's ``TableError``) is drawn by ``refusals.py`` as the page the route would have
drawn, with the refusal's own message.
"""
from __future__ import annotations

from flask import Flask, current_app, render_template, request
from flask_wtf.csrf import CSRFError
from htmx_flask import make_response
from jinja2_fragments.flask import render_block
from werkzeug.exceptions import HTTPException

from .page_forms import sent_as_page

# Our own words for the refusals a browser can provoke, when the route gave no message of its own.
PLAIN = {
    400: "The request could not be read. Reload the page and try again.",
    404: "There is no such page here.",
    405: "That page cannot be used that way (for example a form posted to a page that only shows).",
}
STALE_FORM = ("This page is too old to change the game (its security token ran out or is missing). "
              "Reload the page and tap again.")


def register(app: Flask) -> None:
    app.errorhandler(CSRFError)(csrf_error)
    app.errorhandler(HTTPException)(http_error)
    app.errorhandler(Exception)(bug)


def page(template: str, status: int, **context):
    """The whole page, or for htmx its body swapped over the screen (the element that asked may
    be a small part of the page, such as the odds line or the poll). A history restore asks for
    the whole page, as a browser does."""
    if request.htmx and not request.htmx.history_restore_request:
        body = render_block(template, "body", **context)
        return make_response(body, status, retarget="body", reswap="innerHTML")
    return make_response(render_template(template, **context), status)


def csrf_error(_err: CSRFError):
    if request.htmx and not sent_as_page():
        # The panel that asked is replaced by the message and a reload button.
        return render_template("_message_panel.html", message=STALE_FORM), 400
    if request.htmx:  # a page's own form (serving/page_forms.py): the page says it
        return page("message.html", 400, message=STALE_FORM)
    return render_template("message.html", message=STALE_FORM), 400


def http_error(err: HTTPException):
    code = err.code or 500
    if code >= 500:
        return bug(err)
    own = err.description if err.description != type(err).description else ""
    message = own or PLAIN.get(code) or f"{err.name}."
    response = page("message.html", code, message=message)
    for name, value in err.get_headers():
        if name.lower() == "allow":  # a 405 names the methods the page takes
            response.headers[name] = value
    return response


def bug(err: Exception):
    """A fault in Referee itself: logged with its traceback, answered with a plain 500 page."""
    current_app.logger.exception("Unexpected error answering %s %s", request.method, request.path,
                                 exc_info=err)
    return page("errors/500.html", 500)
