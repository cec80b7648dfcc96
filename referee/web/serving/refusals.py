"""Refusals a tablet expects, answered without a red line in its console.

A refused tap (the rules say no: 422; the seat may not: 403; another tablet was first: 409) is an
ordinary answer at the table, shown in the panel as a message. Its status code made the browser
itself log "Failed to load resource … 422" as an error, the same red as a real fault, on every
refusal. The tablet's htmx says, with the header ``X-Refusal-Shown``, that it shows the answer's
body whatever its status (``templates/base.html``); to such a request a refusal is answered 200,
its true status in ``X-Refused``, so the console keeps its red for what went wrong. Every other
client (a browser without JavaScript, the test client, a script) gets the status as it was.
"""
from __future__ import annotations

from flask import Flask, Response, request

# The statuses that are answers a person reads, not faults.
EXPECTED = frozenset({403, 409, 422})
ASKED = "X-Refusal-Shown"
TOLD = "X-Refused"


def shown_as_message(response: Response) -> Response:
    if response.status_code in EXPECTED and request.headers.get(ASKED) == "1":
        response.headers[TOLD] = str(response.status_code)
        response.status_code = 200
    return response


def init_app(app: Flask) -> None:
    app.after_request(shown_as_message)
