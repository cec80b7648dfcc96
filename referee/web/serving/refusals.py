"""A refusal drawn as the page the route would have drawn, and answered without a red line in the
tablet's console.

**One handler.** The table layer refuses with a ``TableError`` (the rules say no, the seat may not,
another tablet was first, the input cannot be used): nothing was changed, and the error carries
its message in the players' words and its status. A route does not catch it: it says, before it
writes, how its refusal is drawn (``redraw``: a form drawn again with everything typed, the
page it was on with the message), and the app's one handler for ``TableError`` (``init_app``)
answers with that drawing. A route that says nothing gets the plain message page. A write kept
once per tap (``web/taps.py``) asks for the same drawing itself (``answer``), so it knows the
tap was refused before it answers.

Not every ``TableError`` is a refusal: dice still to type (``NeedDice``), a choice that arose
(``NeedChoice``), what the rules still owe before the phase ends (``StillOwed``) and dice handed
to another side (``HandedOver``) are questions the route asks, each caught where it is asked;
one that escapes a route is a fault in Referee, answered as any other.

**No red line.** A refused tap (the rules say no: 422; the seat may not: 403; another tablet was
first: 409) is an ordinary answer at the table, shown in the panel as a message. Its status code
made the browser itself log "Failed to load resource … 422" as an error, the same red as a real
fault, on every refusal. The tablet's htmx says, with the header ``X-Refusal-Shown``, that it
shows the answer's body whatever its status (``templates/base.html``); to such a request a
refusal is answered 200, its true status in ``X-Refused``, so the console keeps its red for what
went wrong. Every other client (a browser without JavaScript, the test client, a script) gets the
status as it was.
"""
from __future__ import annotations

from typing import Callable

from flask import Flask, Response, g, request
from flask.typing import ResponseReturnValue

from ...table.errors import NeedChoice, NeedDice, StillOwed, TableError
from ...table.handover import HandedOver
from . import error_pages

# The statuses that are answers a person reads, not faults.
EXPECTED = frozenset({403, 409, 422})
ASKED = "X-Refusal-Shown"
TOLD = "X-Refused"
# Table errors that ask something of the players: the route that asks them answers them.
QUESTIONS = (NeedDice, NeedChoice, StillOwed, HandedOver)

Drawing = Callable[[TableError], ResponseReturnValue]


def redraw(draw: Drawing) -> None:
    """From here on in this request, a refusal is answered with ``draw(err)``."""
    g.refusal_drawn_by = draw


def plain(err: TableError) -> ResponseReturnValue:
    """The refusal's message on a page of its own (for htmx, over the screen)."""
    return error_pages.page("message.html", err.status, message=err.message)


def answer(err: TableError) -> ResponseReturnValue:
    """The refusal drawn as the route said (``redraw``), else as a plain message page."""
    return g.get("refusal_drawn_by", plain)(err)


def refused(err: TableError) -> ResponseReturnValue:
    if isinstance(err, QUESTIONS):
        return error_pages.bug(err)
    return answer(err)


def shown_as_message(response: Response) -> Response:
    if response.status_code in EXPECTED and request.headers.get(ASKED) == "1":
        response.headers[TOLD] = str(response.status_code)
        response.status_code = 200
    return response


def init_app(app: Flask) -> None:
    app.register_error_handler(TableError, refused)
    app.after_request(shown_as_message)
