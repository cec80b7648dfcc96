"""Simulated tablets for the server benchmark: each one a keep-alive HTTP connection with its own
session cookie, asking what the board page's htmx asks, with the same headers.

- ``Tablet.open_page`` loads a page as a browser does (whole page, then its style sheets and
  scripts), counting the bytes as transferred.
- ``Poller`` polls as the board's ``#poll`` element says (its ``hx-get`` address and its
  ``every Ns`` trigger), and notes when it first sees each game version.
- ``Tablet.act`` taps an action through its real form: GET the form, fetch its odds line as the
  form does on load, POST it back with the form's CSRF token and version.
"""
from __future__ import annotations

import gzip
import html
import http.client
import json
import random
import re
import threading
import time
import zlib
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from urllib.parse import urlencode, urlsplit

ACCEPT_ENCODING = "gzip"
POLL_TAG = re.compile(r'<div\b[^>]*\bid="poll"[^>]*>', re.S)
ATTR = re.compile(r'([\w:-]+)="([^"]*)"')
ASSET = re.compile(r'<(?:link|script)\b[^>]*?\b(?:href|src)="(/static/[^"]+)"')
# The event a write's answer sends; the board's poll element asks at once on it.
BOARD_CHANGED = "board-changed"
CSRF_HEADER = re.compile(r'"X-CSRFToken":\s*"([^"]+)"')


@dataclass
class Answer:
    status: int
    seconds: float
    wire: int  # body bytes as transferred (compressed when the server compressed)
    header_bytes: int
    text: str
    headers: dict
    size: int = 0  # body bytes once decompressed

    @property
    def version(self) -> int | None:
        """The game version this answer shows: its poll element's, or after a write the one the
        event ``board-changed`` names (the board's poll then asks for it)."""
        tag = poll_tag(self.text)
        v = tag.get("data-version") if tag else None
        if v and v.isdigit():
            return int(v)
        return changed_to(self)


def changed_to(answer: Answer) -> int | None:
    """The new version a write's answer names in its ``HX-Trigger`` header (None: no such event)."""
    try:
        event = json.loads(answer.headers.get("hx-trigger", "") or "{}")
    except ValueError:
        return None
    v = event.get(BOARD_CHANGED, {}).get("version") if isinstance(event, dict) else None
    return v if isinstance(v, int) else None


def poll_tag(html: str) -> dict | None:
    m = POLL_TAG.search(html)
    if not m:
        return None
    return {k: v.replace("&amp;", "&") for k, v in ATTR.findall(m.group(0))}


def poll_spread(tag: dict) -> float:
    """Seconds after each tick within which the board's script sends the poll (``data-spread``,
    in ms; static/referee.js)."""
    raw = tag.get("data-spread", "0")
    return int(raw) / 1000 if raw.isdigit() else 0.0


def poll_interval(tag: dict) -> float:
    m = re.search(r"every\s+(\d+(?:\.\d+)?)(ms|s)", tag.get("hx-trigger", ""))
    if not m:
        raise RuntimeError(f"the poll element has no 'every' trigger: {tag}")
    return float(m.group(1)) / (1000 if m.group(2) == "ms" else 1)


class Tablet:
    def __init__(self, host: str, port: int, name: str = "tablet") -> None:
        self.host, self.port, self.name = host, port, name
        self.conn: http.client.HTTPConnection | None = None
        self.cookies: dict[str, str] = {}
        self.csrf = ""
        self.page_url = "/"

    def _connect(self) -> http.client.HTTPConnection:
        if self.conn is None:
            self.conn = http.client.HTTPConnection(self.host, self.port, timeout=120)
        return self.conn

    def request(self, method: str, path: str, form: list[tuple[str, str]] | None = None,
                htmx: str | None = None, trigger: str | None = None) -> Answer:
        """One request; ``htmx`` names the target element id as htmx sends it (HX-Target)."""
        headers = {"Accept-Encoding": ACCEPT_ENCODING, "Accept": "text/html, */*"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if htmx is not None:
            headers.update({"HX-Request": "true", "HX-Current-URL": f"http://{self.host}:{self.port}{self.page_url}",
                            "HX-Target": htmx})
            if trigger:
                headers["HX-Trigger"] = trigger
            if self.csrf:
                headers["X-CSRFToken"] = self.csrf
        body = None
        if form is not None:
            body = urlencode(form).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        status, seconds, raw, pairs = self._send(method, path, body, headers)
        resp_headers = {k.lower(): v for k, v in pairs}
        header_bytes = sum(len(k) + len(v) + 4 for k, v in pairs) + 17
        for value in (v for k, v in pairs if k.lower() == "set-cookie"):
            c = SimpleCookie()
            c.load(value)
            for k, morsel in c.items():
                self.cookies[k] = morsel.value
        encoding = resp_headers.get("content-encoding", "")
        data = gzip.decompress(raw) if encoding == "gzip" else zlib.decompress(raw) if encoding == "deflate" else raw
        if encoding not in ("", "gzip", "deflate", "identity"):
            raise RuntimeError(f"unexpected Content-Encoding {encoding!r} for {path}")
        return Answer(status, seconds, len(raw), header_bytes, data.decode("utf-8", "replace"), resp_headers,
                      len(data))

    def _send(self, method: str, path: str, body: bytes | None,
              headers: dict) -> tuple[int, float, bytes, list[tuple[str, str]]]:
        """The request over this tablet's connection: status, seconds until the whole answer was
        read, its body as sent, and its headers."""
        try:
            return self._send_once(method, path, body, headers)
        except (http.client.HTTPException, ConnectionError, OSError):
            # The server closed an idle keep-alive connection: open a new one, as a browser does.
            self.close()
            return self._send_once(method, path, body, headers)

    def _send_once(self, method: str, path: str, body: bytes | None,
                   headers: dict) -> tuple[int, float, bytes, list[tuple[str, str]]]:
        conn = self._connect()
        start = time.perf_counter()
        conn.request(method, path, body=body, headers=headers)
        resp = conn.getresponse()
        raw = resp.read()
        return resp.status, time.perf_counter() - start, raw, resp.getheaders()

    def open_page(self, path: str) -> tuple[Answer, int]:
        """The page as a browser first loads it: the page and every style sheet and script it
        names. Returns the page's answer and the bytes transferred in all (bodies and headers)."""
        page = self.request("GET", path)
        if page.status >= 400:
            raise RuntimeError(f"GET {path} answered {page.status}: {page.text[:300]}")
        self.page_url = urlsplit(path).path
        m = CSRF_HEADER.search(page.text)
        self.csrf = m.group(1) if m else self.csrf
        total = page.wire + page.header_bytes
        for asset in dict.fromkeys(ASSET.findall(page.text)):
            a = self.request("GET", asset.replace("&amp;", "&"))
            if a.status != 200:
                # A missing script (htmx not installed: ``make install`` copies it) would count as
                # a smaller first load, and the board would not work on a real tablet.
                raise RuntimeError(f"{path} names {asset}, which answered {a.status}")
            total += a.wire + a.header_bytes
        return page, total

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    # --- acting through the real forms -------------------------------------------------------

    def act(self, game_id: int, action: str, prefill: dict, overrides: dict, timings: "Timings",
            label: str | None = None, base: str = "", refused: Answer | None = None) -> Answer:
        """Open the action's form (as a tapped button does), fetch its odds as the form does on
        load, and post it with ``overrides`` in place of the form's own values. ``refused``: the
        answer to this write refused as stale, which shows the form again drawn on the fresh game:
        the umpire taps it again there (its odds line loads with it), not opening it anew."""
        label = label or action
        if refused is None:
            query = ("?" + urlencode(prefill, doseq=True)) if prefill else ""
            form_page = self.request("GET", f"{base}/games/{game_id}/act/{action}{query}", htmx="panel")
            timings.add(f"form:{label}", form_page)
            if form_page.status != 200:
                raise RuntimeError(f"the {action} form answered {form_page.status}: {form_page.text[:300]}")
        form = read_form((form_page if refused is None else refused).text)
        fields = [(k, v) for k, v in form.fields if k not in overrides]
        for k, v in overrides.items():
            fields += [(k, str(x)) for x in (v if isinstance(v, (list, tuple)) else [v])]
        if form.odds_url:
            asked = [(k, v) for k, v in fields if k != "csrf_token"]
            odds = self.request("GET", f"{form.odds_url}?{urlencode(asked)}", htmx="odds", trigger="odds")
            timings.add(f"odds:{label}", odds)
        answer = self.request("POST", form.action, form=fields, htmx="panel")
        timings.add(label, answer)
        self.follow(game_id, dict(fields).get("version", ""), answer, timings, label, base)
        return answer

    def follow(self, game_id: int, seen: str, answer: Answer, timings: "Timings", label: str,
               base: str = "") -> None:
        """What htmx does after an answer names ``board-changed``: the board's poll asks at once,
        with the version the tablet showed. After a write, timed as ``board:<label>``, from the
        tap to the board showing the change (the write's answer and that poll together); a write
        refused as stale names it too when no tablet has had the new version drawn yet."""
        if changed_to(answer) is None:
            return
        poll = self.request("GET", f"{base}/games/{game_id}/poll?v={seen}", htmx="poll", trigger="poll")
        if answer.status != 200:
            return
        timings.add(f"board:{label}", Answer(poll.status, answer.seconds + poll.seconds, poll.wire,
                                             poll.header_bytes, "", {}, poll.size))


@dataclass
class Form:
    action: str = ""
    odds_url: str = ""
    fields: list[tuple[str, str]] = field(default_factory=list)


# The tags a form reader looks at (comments skipped whole; quoted values may hold ">"), and one
# attribute (a bare name, or a name with a quoted or plain value).
TAG = re.compile(r"<!--.*?-->|<(/?)(form|input|div)\b((?:[^>\"']|\"[^\"]*\"|'[^']*')*)>", re.S | re.I)
TAG_ATTR = re.compile(r"""([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?""")
UNCHECKED = re.compile(r"""\btype\s*=\s*["']?(?:radio|checkbox)\b""", re.I)


def _attrs(text: str) -> dict[str, str | None]:
    """A tag's attributes as a browser reads them: names lower-cased, values unescaped, a bare
    name None, the first of a repeated name kept."""
    out: dict[str, str | None] = {}
    for m in TAG_ATTR.finditer(text):
        name = m.group(1).lower()
        if name in out:
            continue
        value = m.group(2) if m.group(2) is not None else m.group(3) if m.group(3) is not None else m.group(4)
        out[name] = None if value is None else html.unescape(value)
    return out


def read_form(page: str) -> Form:
    """The first action form's fields as a browser would submit them untouched, and its odds
    line's address. A tag scanner, not a full HTML parser: a simulated tablet shares the machine
    with the server it measures, and Python's HTML parser spent some 70 ms of processor on a
    shot's form (a real tablet reads it on its own processor), as long as ten of the server's taps."""
    form: Form | None = None
    depth = 0
    for m in TAG.finditer(page):
        if m.group(2) is None:
            continue  # a comment
        closing, tag, text = m.group(1), m.group(2).lower(), m.group(3)
        if form is None:
            a = _attrs(text) if tag == "form" and not closing else {}
            if "action-form" in (a.get("class") or "").split():
                form, depth = Form(action=a.get("action") or ""), 1
            continue
        if tag == "form":
            depth += -1 if closing else 1
            if depth == 0:
                break
            continue
        if closing:
            continue
        if tag == "input" and "checked" not in text and UNCHECKED.search(text):
            continue  # an unticked box or an unpicked chip sends nothing
        a = _attrs(text)
        if tag == "div" and a.get("id") == "odds":
            form.odds_url = a.get("hx-get") or ""
        if tag == "input" and a.get("name"):
            kind = (a.get("type") or "text").lower()
            if kind in ("checkbox", "radio") and "checked" not in a:
                continue
            if kind in ("submit", "button"):
                continue
            form.fields.append((a["name"], a.get("value") or ("on" if kind == "checkbox" else "")))
    if form is None:
        raise RuntimeError(f"no action form in the answer: {page[:300]}")
    return form


# --- what was measured -------------------------------------------------------------------------

class Timings:
    """Every answer by what it was for: seconds, status, bytes."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.answers: dict[str, list[Answer]] = {}
        self.reasons: dict[str, dict[str, int]] = {}

    def refused(self, what: str, why: str) -> None:
        with self.lock:
            counts = self.reasons.setdefault(what, {})
            counts[why] = counts.get(why, 0) + 1

    def add(self, what: str, answer: Answer) -> None:
        slim = Answer(answer.status, answer.seconds, answer.wire, answer.header_bytes, "", {}, answer.size)
        with self.lock:
            self.answers.setdefault(what, []).append(slim)

    def seconds(self, what: str, statuses=(200,)) -> list[float]:
        return [a.seconds for a in self.answers.get(what, []) if a.status in statuses]

    def count(self, what: str, status: int) -> int:
        return sum(1 for a in self.answers.get(what, []) if a.status == status)


class Poller(threading.Thread):
    """A tablet that only watches: it polls as the board's poll element says until stopped."""

    def __init__(self, tablet: Tablet, page: Answer, timings: Timings, stop: threading.Event,
                 offset: float, what: str = "poll") -> None:
        super().__init__(daemon=True)
        self.tablet, self.timings, self.stop_event, self.what = tablet, timings, stop, what
        tag = poll_tag(page.text)
        if tag is None:
            raise RuntimeError("the board page has no poll element")
        self.url = tag["hx-get"]
        self.interval = poll_interval(tag)
        self.spread = poll_spread(tag)
        self.offset = offset
        self.seen: dict[int, float] = {}  # version -> when this tablet first showed it
        self.version = self.first_version = page.version or 0
        self.errors = 0

    def run(self) -> None:
        """As htmx and the board's script poll: a tick every interval, the request at a moment of
        its own up to the spread after it; a changed answer swaps the poll element in afresh,
        whose first tick comes an interval after it is shown."""
        tick = time.monotonic() + self.offset
        while not self.stop_event.is_set():
            wait = tick + random.uniform(0, self.spread) - time.monotonic()
            if wait > 0 and self.stop_event.wait(wait):
                break
            try:
                a = self.tablet.request("GET", self.url, htmx="poll", trigger="poll")
            except Exception:  # noqa: BLE001 - a failed poll is counted, as a browser would retry
                self.errors += 1
                tick += self.interval
                continue
            self.timings.add(f"{self.what}:{a.status}", a)
            tick += self.interval
            if a.status == 200:
                shown = time.monotonic()
                tag = poll_tag(a.text)
                if tag is not None:
                    self.url = tag.get("hx-get", self.url)
                    v = tag.get("data-version", "")
                    if v.isdigit() and int(v) > self.version:
                        self.version = int(v)
                        self.seen.setdefault(self.version, shown)
                # htmx swapped the poll element: the new one's timer starts now.
                tick = shown + self.interval
