"""What a tablet that folded brigades is sent: a folded brigade without its unit cards.

A Waterloo day is some sixty brigades and three hundred cards, about 9,000 elements a tablet
must build, style and lay out before the board is usable, though a tablet mostly shows a few
brigades open. So a folded brigade goes as its box and its folded line only (the line carries a
light index of its units' names and filter facts, for the board's search and filters), and its
cards come when it is opened (``games.cards``: the cards of a few brigades, cut from the drawing
every tablet shares).

Which brigades a tablet lacks the cards of it says itself: the board page's address is asked
with the tablet's folds in a cookie (``board-folds-<game>``, written by ``static/board.js`` from
what it keeps), and every poll names the brigades whose cards its page does not hold (``f``).
The drawings stay the same for every tablet (``live.py``); what a tablet is sent of them is
cut here: a folded brigade's box without the cards between its ``CARDS`` marks, and a poll's
answer without the cards of brigades the tablet does not hold (their folded lines still go).
A browser without JavaScript writes no cookie and asks no poll: it is sent every card.
"""
from __future__ import annotations

import re

from flask import request
from markupsafe import escape

# Where a brigade's cards lie in its box (templates/blackpowder/_brigade.html).
CARDS_START = "<!--cards-->"
CARDS_END = "<!--/cards-->"
# The cards' container, marked as waiting for its cards when they are left out.
CARDS_DIV = " data-cards"
LATER = " data-cards data-later"
BOX = re.compile(r'<details class="brigade[^>]*\sdata-fold-id="([^"]+)"[^>]*>')
OPEN = re.compile(r"\sopen(?=[\s>])")
CARDS_OF = re.compile(r'<div class="cards" id="cards-([^"]+)"')
# A brigade's id as the folds name it (the scenarios' and the forms' ids), and how many at most.
BRIGADE_ID = re.compile(r"[A-Za-z0-9_:-]{1,60}\Z")
MOST = 400
COOKIE = "board-folds-{}"
# The header every htmx request of a board page carries: the brigades whose cards it was not sent.
HEADER = "X-Board-Lacking"


def named(text: str | None) -> frozenset[str]:
    """The brigades a cookie or a poll names (separated by dots); anything else is ignored."""
    if not text:
        return frozenset()
    return frozenset(b for b in text.split(".", MOST)[:MOST] if BRIGADE_ID.match(b))


def cookie_name(game_id: int) -> str:
    return COOKIE.format(game_id)


def folded_here(game_id: int) -> frozenset[str]:
    """The brigades this tablet keeps folded, by its cookie (a board page is asked for)."""
    return named(request.cookies.get(cookie_name(game_id)))


def lacking_here() -> frozenset[str]:
    """The brigades whose cards this tablet's page was not sent, as its request says."""
    return named(request.headers.get(HEADER))


def fold_boxes(html: str, folded: frozenset[str]) -> str:
    """``html`` (a board page or its units part) with each brigade of ``folded`` drawn folded and
    without its cards: its box not ``open``, its cards' container empty and marked to fetch them."""
    if not folded or CARDS_START not in html:
        return html
    out: list[str] = []
    pos = 0
    for m in BOX.finditer(html):
        if m.group(1) not in folded:
            continue
        start = html.find(CARDS_START, m.end())
        end = html.find(CARDS_END, start)
        if start < 0 or end < 0:
            break
        div = html.rfind(CARDS_DIV, m.end(), start)
        out.append(html[pos:m.start()])
        out.append(OPEN.sub("", m.group(0), count=1))
        if div >= 0:
            out.append(html[m.end():div] + LATER + html[div + len(CARDS_DIV):start])
        else:
            out.append(html[m.end():start])
        pos = end + len(CARDS_END)
    out.append(html[pos:])
    return "".join(out)


UNIT_PIECE = re.compile(r'\sid="(unit-[^"]+)"')


def boxes_and_cards(units: str) -> tuple[list[str], list[tuple[str, list[str]]]]:
    """The unit cards' piece ids in a units part before its first brigade box, and each box's
    brigade with the ids after it (up to the next box): ``brigade_of_pieces`` of a part, which
    parts drawn as before keep (``web/serving/live.py``) instead of reading the whole board again."""
    boxes = list(BOX.finditer(units))
    first = boxes[0].start() if boxes else len(units)
    before = [m.group(1) for m in UNIT_PIECE.finditer(units, 0, first)]
    out = []
    for i, m in enumerate(boxes):
        end = boxes[i + 1].start() if i + 1 < len(boxes) else len(units)
        out.append((m.group(1), [p.group(1) for p in UNIT_PIECE.finditer(units, m.end(), end)]))
    return before, out


def brigades_from(parts: list[tuple[list[str], list[tuple[str, list[str]]]]]) -> dict[str, str]:
    """``brigade_of_pieces`` of the units parts read by ``boxes_and_cards``, one after another: a
    card before a part's first box is in the box the part before it ended in."""
    out: dict[str, str] = {}
    box = None
    for before, boxes in parts:
        if box is not None:
            out.update(dict.fromkeys(before, box))
        for box, ids in boxes:
            out.update(dict.fromkeys(ids, box))
    return out


def brigade_of_pieces(units: str) -> dict[str, str]:
    """Each unit card's piece id in a units part, and the brigade whose box holds it."""
    return brigades_from([boxes_and_cards(units)])


def cards_of(units: str, wanted: frozenset[str]) -> str:
    """The cards of the brigades ``wanted``, from a drawing's units part, each to be put into its
    brigade's cards container on the tablet (out of band, its inside only)."""
    out: list[str] = []
    for m in CARDS_OF.finditer(units):
        bid = m.group(1)
        if bid not in wanted:
            continue
        start = units.find(CARDS_START, m.end())
        end = units.find(CARDS_END, start)
        if start < 0 or end < 0:
            continue
        out.append(f'<div id="cards-{escape(bid)}" hx-swap-oob="innerHTML">'
                   f"{units[start:end + len(CARDS_END)]}</div>")
    return "".join(out)
