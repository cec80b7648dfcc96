"""The live parts of a game board sent as what changed, not as the whole board.

A tablet shows one version of a game. When the game has moved on, the poll's answer (and a write's
answer to the tablet that wrote) carries only what differs between the version the tablet shows
and the current one, as htmx out-of-band swaps: the status bars, each unit card or Rig card that
is drawn differently, a brigade's folded line, the combats, the new log lines. How it knows: each
version of a board is drawn once, whole, and cut into pieces at the elements whose ids name a
card, a line or a box (``PIECE``); two versions are compared piece by piece, and what is left
around the pieces (the skeleton) must be the same too, or the whole units part is sent. So nothing
here knows the rules: whatever the engine changed, the drawing shows it, and the comparison finds it.

Each drawing is kept for the last few versions of each game (``KEEP``), with every form's CSRF
token taken out (only htmx is ever sent these parts, and htmx sends the page's own token with
every request: base.html's ``hx-headers``) and every game version made a placeholder, so thirty
tablets asking after one change cost one drawing and one answer, the same bytes for each of them
(which lets ``web/quick_poll.py`` hand it out before Flask). A version no longer kept, an undo's
jump, or a board whose skeleton changed (a new phase, a combat begun, a Rig activated) gets the
whole live part, as before.
"""
from __future__ import annotations

import re
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Callable

from flask import current_app
from markupsafe import Markup, escape

from ...core.recent import Recent
from ...table import playing
from .compression import MIN_SIZE, pack
from .folds import boxes_and_cards, brigade_of_pieces, brigades_from, fold_boxes

# The elements sent on their own when they change: cards, folded lines, boxes, log lines.
PIECE = re.compile(r'<(div|article|section|summary|li|header|p|ul|h2)\b[^>]*?\sid="('
                   r'(?:unit|rig|brigade-line|squadron-line|side-line|log-entry|status)-[^"]+|combats|ooi-now|ooi-objectives|log-buttons'
                   r')"[^>]*>')
TAG_NAME = re.compile(r"<[\w-]+")
LOG_LINE = re.compile(r"\s*<!--piece log-entry-[^>]*-->")
# A form's one-time token goes too: each tablet's page gives its forms their own (static/referee.js).
TOKEN = re.compile(r'<input type="hidden" name="(?:csrf_token|token)" value="[^"]*">')
# The version a board button posts: a piece that differs only in it is not sent again; the board's
# buttons post the version the poller shows instead (static/referee.js), which is the version of
# every piece on the board, since each piece drawn differently has been swapped in.
VERSION = re.compile(r'(name="version" value=")\d+(")')
NO_VERSION = r"\1__version__\2"
INDENT = re.compile(r"\n[ \t]+")
# The last versions of each game kept drawn, and the fewest games kept: more when more are being
# played in this process (``referee/table/playing.py``).
KEEP = 6
GAMES = 8
# Above this share of the units part, send the units part whole: one swap instead of hundreds.
WHOLE_ABOVE = 0.5
# Where a template says its output may be cut into parts compared on their own (a brigade's box),
# and how many such parts are kept cut: a Waterloo day has some sixty brigades, for each game
# being played (``PARTS`` at least).
CUT = "<!--cut-->"
PARTS = 256
PARTS_PER_GAME = 64
_TAGS: dict[str, re.Pattern] = {}


def _end(html: str, start: int, tag: str) -> int:
    """Where the element opening at ``start`` ends (its tag balanced against nested ones)."""
    pat = _TAGS.get(tag) or _TAGS.setdefault(tag, re.compile(rf"<(/?){tag}[\s>/]"))
    depth = 0
    for m in pat.finditer(html, start):
        depth += -1 if m.group(1) else 1
        if depth == 0:
            return html.index(">", m.end() - 1) + 1
    return len(html)


def cut(html: str) -> tuple[str, dict[str, str]]:
    """The skeleton (each outermost piece replaced by its marker) and the pieces by id."""
    pieces: dict[str, str] = {}
    out: list[str] = []
    pos = 0
    for m in PIECE.finditer(html):
        if m.start() < pos:
            continue  # inside a piece already cut out
        end = _end(html, m.start(), m.group(1))
        piece_id = m.group(2)
        if piece_id in pieces:  # the same id twice: the page's own mistake; compare it whole
            piece_id = f"{piece_id}@{m.start()}"
        pieces[piece_id] = html[m.start():end]
        out.append(html[pos:m.start()])
        out.append(f"<!--piece {piece_id}-->")
        pos = end
    out.append(html[pos:])
    return "".join(out), pieces


def one_byte(html: str) -> str:
    """HTML with each character beyond Latin-1 written as a character reference (an en dash as
    ``&#8211;``): the same page in a browser. Python keeps a text at the width of its widest
    character, so one dash in a scenario's notes or one curly apostrophe in a unit's name made a
    whole Waterloo board's 400 kB twice the bytes to join, copy, cut and compare at every drawing."""
    return html if html.isascii() else html.encode("latin-1", "xmlcharrefreplace").decode("latin-1")


def one_byte_filter(value) -> Markup:
    """``one_byte`` as a template filter: the value escaped (unless it is markup already) first."""
    return Markup(one_byte(str(escape(value))))


def _neutral(html: str) -> str:
    """The drawing with its forms' CSRF tokens taken out, its game versions made a placeholder (put
    back in each answer), and the templates' indentation: a line's leading spaces show as one
    space in HTML either way (no live part holds a ``<pre>``), and a Rig's card sent to thirty
    tablets is a fifth smaller."""
    return INDENT.sub("\n", VERSION.sub(NO_VERSION, TOKEN.sub("", html)))


# Each part of a units block between ``CUT`` marks, neutral and cut, with its brigade boxes and
# their cards (``folds.boxes_and_cards``), kept by its text: a brigade's box drawn as before is not
# scanned again.
_PARTS = Recent(lambda: playing.room_for(PARTS_PER_GAME, PARTS))


def _part(part: str) -> tuple[str, str, dict[str, str], tuple]:
    found = _PARTS.get(part)
    if found is None:
        text = _neutral(part)
        found = (text, *cut(text), boxes_and_cards(text))
        _PARTS.put(part, found)
    return found


def prepared(html: str) -> tuple[str, str, dict[str, str], dict[str, str]]:
    """A units block neutral (``_neutral``), its skeleton, its pieces and the brigade of each
    card's piece (``folds.brigade_of_pieces``), cut part by part at the ``CUT`` marks a template
    leaves between boxes that are drawn on their own; the same as ``cut`` on the whole (which is
    what a block with an id twice across parts gets)."""
    texts, skeletons, pieces, boxes = [], [], {}, []
    for part in html.split(CUT):
        text, skeleton, found, boxed = _part(part)
        if not pieces.keys().isdisjoint(found):
            whole = _neutral(html)
            return (whole, *cut(whole), brigade_of_pieces(whole))
        texts.append(text)
        skeletons.append(skeleton)
        pieces.update(found)
        boxes.append(boxed)
    return CUT.join(texts), CUT.join(skeletons), pieces, brigades_from(boxes)


def out_of_band(piece: str, how: str = "true") -> str:
    """The piece marked to be swapped by its id wherever it is on the tablet's page."""
    if "hx-swap-oob=" in piece[:piece.index(">")]:
        return piece
    name_end = TAG_NAME.match(piece).end()
    return f'{piece[:name_end]} hx-swap-oob="{how}"{piece[name_end:]}'


@dataclass
class Drawing:
    """One version of a game's live parts, drawn once, CSRF tokens taken out."""
    version: int
    status: str
    units: str
    log: str
    poll: str
    units_skeleton: str  # the units part is cut as it is prepared (``prepared``)
    units_pieces: dict[str, str]
    log_skeleton: str = ""
    log_pieces: dict[str, str] = field(default_factory=dict)
    # What changed for a tablet showing each older version (None: one this process no longer
    # keeps, or none), worked out once (``Changes``); the answer for a tablet without the cards of
    # some brigades, by the version and those of them the answer would carry; the same gzipped.
    changed: dict[int | None, "Changes"] = field(default_factory=dict)
    answers: dict[tuple, str] = field(default_factory=dict)
    packed: dict[tuple, bytes] = field(default_factory=dict)
    # Each unit card's piece, and the brigade whose box holds it (``web/serving/folds.py``): as
    # ``prepared`` found it, or read from the units part when not given.
    card_brigades: dict[str, str] | None = None

    def __post_init__(self) -> None:
        self.log_skeleton, self.log_pieces = cut(self.log)
        if self.card_brigades is None:
            self.card_brigades = brigade_of_pieces(self.units)

    @property
    def whole(self) -> str:
        return self.status + self.units + self.log + self.poll


@dataclass
class Changes:
    """What brings a tablet from one drawing to another: the status and log as sent, and the units
    part whole (``units`` None) or as its changed pieces, each with the brigade of the card it is
    or is part of (None for a piece that is no card). A tablet without some brigades' cards is sent
    the same less those cards (``for_tablet``)."""
    status: str
    units: list[tuple[str | None, str]] | None
    log: str
    new: Drawing

    def carried(self, lacking: frozenset[str]) -> frozenset[str]:
        """The brigades of ``lacking`` whose cards this answer would carry."""
        if not lacking:
            return lacking
        if self.units is None:
            return lacking.intersection(self.new.card_brigades.values())
        return lacking.intersection(b for b, _ in self.units if b is not None)

    def for_tablet(self, lacking: frozenset[str]) -> str:
        if self.units is None:
            units = fold_boxes(self.new.units, lacking)
        else:
            units = "".join(out_of_band(p) for b, p in self.units if b is None or b not in lacking)
        return self.status + units + self.log + self.new.poll


class Drawings:
    """The drawings kept for one app: the last ``KEEP`` versions of each game being played (of the
    last ``GAMES`` games at least)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.games: OrderedDict[int, OrderedDict[int, Drawing]] = OrderedDict()
        self.drawing: dict[tuple[int, int], threading.Lock] = {}

    def forget(self, game_id: int) -> None:
        """A deleted game's drawings go (SQLite may give its number to the next game)."""
        with self.lock:
            self.games.pop(game_id, None)

    def get(self, game_id: int, version: int) -> Drawing | None:
        playing.saw(game_id)
        with self.lock:
            return self.games.get(game_id, {}).get(version)

    def known_answer(self, game_id: int, version: int, seen: int, gzipped: bool,
                     lacking: frozenset[str] = frozenset()) -> tuple[bytes, bool] | None:
        """What changed between ``seen`` and ``version`` when both are drawn already, as bytes,
        and whether they are gzipped: worked out once per pair of versions (``answer``), gzipped
        once per answer (at the level of every htmx fragment, ``compression.pack``) when the
        tablet takes gzip and it is worth it. None: a version not drawn (or no longer kept).
        ``lacking``: the brigades whose cards the tablet was not sent (``web/serving/folds.py``)."""
        drawing = self.get(game_id, version)
        old = self.get(game_id, seen) if drawing is not None else None
        if old is None:
            return None
        text, key = answer_for(old, drawing, lacking)
        data = text.encode()
        if not gzipped or len(data) < MIN_SIZE:
            return data, False
        packed = drawing.packed.get(key)
        if packed is None:
            packed = drawing.packed[key] = pack(data)
        return packed, True

    def wait_for(self, game_id: int, version: int, seconds: float) -> bool:
        """Wait (at most ``seconds``) for a drawing of this version that another request has begun;
        False when none is being drawn (nobody has asked for it yet)."""
        with self.lock:
            busy = self.drawing.get((game_id, version))
        if busy is None:
            return False
        if busy.acquire(timeout=seconds):
            busy.release()
        return True

    def draw(self, game_id: int, version: int, blocks: Callable[[], dict[str, str]]) -> Drawing:
        """The drawing of this version, drawn now if no other request is drawing it already
        (``blocks`` may say it drew a later version: the drawing is then that one's)."""
        found = self.get(game_id, version)
        if found is not None:
            return found
        with self.lock:
            busy = self.drawing.setdefault((game_id, version), threading.Lock())
        with busy:
            found = self.get(game_id, version)
            if found is not None:
                return found
            parts = blocks()
            # The game may have moved on since its version was asked: the drawing is of the one read.
            drawn = parts.pop("version", version)
            units, skeleton, pieces, brigades = prepared(parts.pop("units"))
            parts = {k: _neutral(v) for k, v in parts.items()}
            drawing = Drawing(drawn, parts["status"], units, parts["log"], parts["poll"], skeleton, pieces,
                              card_brigades=brigades)
            with self.lock:
                kept = self.games.setdefault(game_id, OrderedDict())
                self.games.move_to_end(game_id)
                kept[drawn] = drawing
                while len(kept) > KEEP:
                    kept.popitem(last=False)
                while len(self.games) > playing.room_for(1, GAMES):
                    self.games.popitem(last=False)
                self.drawing.pop((game_id, version), None)
            return drawing


# Where an app keeps its ``Drawings`` (web/quick_poll.py reads them there too).
DRAWINGS = "referee.drawings"


def drawings() -> Drawings:
    app = current_app._get_current_object()
    found = app.extensions.get(DRAWINGS)
    if found is None:
        found = app.extensions.setdefault(DRAWINGS, Drawings())
    return found


def _inner_change(old: str, new: str) -> list[str] | None:
    """The parts of a changed piece to send instead of the whole of it: when its own tag and all
    that lies around its inner pieces are the same, only the inner pieces drawn differently (and
    theirs, in turn). None: send the piece whole."""
    old_open, new_open = old.index(">") + 1, new.index(">") + 1
    if old[:old_open] != new[:new_open]:
        return None
    old_skeleton, old_pieces = cut(old[old_open:])
    new_skeleton, new_pieces = cut(new[new_open:])
    if not new_pieces or old_skeleton != new_skeleton or old_pieces.keys() != new_pieces.keys():
        return None
    out: list[str] = []
    for k, v in new_pieces.items():
        if old_pieces[k] != v:
            out += _inner_change(old_pieces[k], v) or [v]
    return out


def _units_change(old: Drawing, new: Drawing) -> list[tuple[str | None, str]] | None:
    """The unit pieces to send (a card, or only the parts of it that changed), each with the
    brigade of its card (``Changes``), or None when the units part must go whole."""
    if old.units_skeleton != new.units_skeleton or old.units_pieces.keys() != new.units_pieces.keys():
        return None
    changed = [k for k, v in new.units_pieces.items() if old.units_pieces[k] != v]
    out: list[tuple[str | None, str]] = []
    whole: list[str] = []
    for k in changed:
        parts = _inner_change(old.units_pieces[k], new.units_pieces[k])
        if parts is None:
            whole.append(k)
            parts = [new.units_pieces[k]]
        brigade = new.card_brigades.get(k)
        out += [(brigade, p) for p in parts]
    if sum(len(p) for _, p in out) > WHOLE_ABOVE * len(new.units):
        return None
    # A Rig's card appears twice while it is activated (in the box and in its squadron); a swap by
    # id reaches both, so the box is sent after a card sent whole, to put its big card back.
    box = new.units_pieces.get("ooi-now", "")
    if box and "ooi-now" not in whole and any(f'id="{k}"' in box for k in whole):
        out.append((None, box))
    return out


def _log_change(old: Drawing, new: Drawing) -> str | None:
    """The log's new lines (added on top), its changed lines and buttons, and lines gone from the
    window; None when the log must go whole."""
    if LOG_LINE.sub("", old.log_skeleton) != LOG_LINE.sub("", new.log_skeleton):
        return None
    out = []
    added = [k for k in new.log_pieces if k not in old.log_pieces]
    if added:
        out.append('<ol id="log-entries" hx-swap-oob="afterbegin">' + "".join(new.log_pieces[k] for k in added)
                   + "</ol>")
    out += [out_of_band(v) for k, v in new.log_pieces.items() if k in old.log_pieces and old.log_pieces[k] != v]
    out += [f'<li id="{k}" hx-swap-oob="delete"></li>' for k in old.log_pieces
            if k not in new.log_pieces and k.startswith("log-entry-")]
    return "".join(out)


def changes(old: Drawing | None, new: Drawing) -> str:
    """The answer that brings a tablet holding every card from ``old`` to ``new``."""
    return worked_out(old, new).for_tablet(frozenset())


def worked_out(old: Drawing | None, new: Drawing) -> Changes:
    """What brings a tablet showing ``old`` to ``new``: the status bars always, the changed pieces
    or the whole units part and log, and the poller with the new version."""
    if old is None or old.version >= new.version:
        return Changes(new.status, None, new.log, new)
    units = _units_change(old, new)
    log = _log_change(old, new)
    # The status bars too: only the bars drawn differently, when nothing around them changed.
    status = [] if old.status == new.status else _inner_change(old.status, new.status)
    return Changes(new.status if status is None else "".join(out_of_band(p) for p in status), units,
                   new.log if log is None else log, new)


def live_parts(game_id: int, version: int, seen: int | None, blocks: Callable[[], dict[str, str]],
               poll_out_of_band: bool = False, draw_only: bool = False,
               lacking: frozenset[str] = frozenset()) -> str:
    """The live parts of ``version`` for a tablet showing ``seen`` (None: the whole of them).
    ``blocks`` draws the current version's status, units, log and poll blocks (status, units and
    log marked out of band, the poll not), called only when this version is not drawn yet. The
    poll is the swap's own target when it asked; after a write it is swapped out of band too.
    ``draw_only``: draw this version (a whole page was just sent) and answer nothing. ``lacking``:
    the brigades whose cards the tablet was not sent (``web/serving/folds.py``)."""
    kept = drawings()
    new = kept.draw(game_id, version, blocks)
    if draw_only:
        return ""
    return _parts_since(kept, game_id, new, seen, poll_out_of_band, lacking)


def drawn_parts(game_id: int, version: int, seen: int | None, poll_out_of_band: bool = False,
                lacking: frozenset[str] = frozenset()) -> str | None:
    """``live_parts`` for a version some tablet has had drawn already; None when none has (the
    caller then leaves the drawing to the board's poll rather than wait for it)."""
    kept = drawings()
    new = kept.get(game_id, version)
    return None if new is None else _parts_since(kept, game_id, new, seen, poll_out_of_band, lacking)


def _parts_since(kept: Drawings, game_id: int, new: Drawing, seen: int | None, poll_out_of_band: bool,
                 lacking: frozenset[str]) -> str:
    old = kept.get(game_id, seen) if seen is not None else None
    body = answer_for(old, new, lacking)[0]
    if poll_out_of_band:
        poll = with_version(new.poll, new.version)
        body = body[:len(body) - len(poll)] + out_of_band(poll)
    return body


def answer_for(old: Drawing | None, new: Drawing, lacking: frozenset[str] = frozenset()) -> tuple[str, tuple]:
    """The poll's answer that brings a tablet showing ``old`` (None: a version not kept) to
    ``new``, less the cards of the brigades ``lacking`` (not sent to it), and the key it is kept
    by. Thirty tablets showing the same version get the same answer: worked out once, by whichever
    request asks first (two at once would work out the same text); a tablet lacking cards the
    answer does not carry gets the same as one that lacks none."""
    seen = old.version if old is not None else None
    found = new.changed.get(seen)
    if found is None:
        found = new.changed[seen] = worked_out(old, new)
    key = (seen, found.carried(lacking))
    body = new.answers.get(key)
    if body is None:
        body = new.answers[key] = with_version(found.for_tablet(key[1]), new.version)
    return body, key


def answer(old: Drawing | None, new: Drawing) -> str:
    """``answer_for`` a tablet holding every card."""
    return answer_for(old, new)[0]


def with_version(html: str, version: int) -> str:
    """A drawing's game versions put back (``_neutral``)."""
    return html.replace('value="__version__"', f'value="{version}"')
