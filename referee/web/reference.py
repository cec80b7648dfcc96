"""The rules reference under /rules: each game's sections, an entry page, search, ask, and a
printable quick-reference sheet. Also the template helpers that link every rule name the app
prints (modifiers, special rules, perks, equipment, settings) to its entry.

A link opens its entry in the page's rules dialog (htmx gets the entry into ``#rule-dialog-body``
and the dialog opens beside whatever form was on screen, which keeps what was typed); without
JavaScript the same link is an ordinary page.
"""
from __future__ import annotations

from flask import Blueprint, abort, g, has_request_context, render_template, request, url_for
from markupsafe import Markup, escape

from ..core.settings_actions import setting_title
from ..reference import GAMES, Entry, reference
from ..reference.sheet import panels
from ..systems import LABELS, system_for
from ..table.models import Game
from .db import asked_game_id, session

bp = Blueprint("reference", __name__, url_prefix="/rules")
DIALOG = "rule-dialog-body"
MAX_QUERY = 200


def _in_dialog() -> bool:
    return bool(request.htmx) and request.htmx.target == DIALOG


def _page(partial: str, title: str, **context):
    """The whole page, or only its content when htmx asks for it inside the rules dialog."""
    context.update(games=GAMES, partial=partial, title=title)
    if _in_dialog():
        return render_template("reference/_dialog_content.html", inner=partial, in_dialog=True, **context)
    return render_template("reference/page.html", in_dialog=False, **context)


def _game_or_404(game: str) -> str:
    if game not in GAMES:
        abort(404, "There is no such game in the rules reference.")
    return game


def _query() -> tuple[str, str | None]:
    q = " ".join((request.args.get("q") or "").split())[:MAX_QUERY]
    game = request.args.get("game") or None
    return q, game if game in GAMES else None


@bp.get("")
@bp.get("/")
def index():
    ref = reference()
    return _page("reference/_index.html", "Rules", books=list(ref.books.values()), game=None, q="")


@bp.get("/<game>")
def game_index(game: str):
    book = reference().books[_game_or_404(game)]
    return _page("reference/_index.html", book.title, books=[book], game=game, q="")


@bp.get("/<game>/sheet")
def sheet(game: str):
    book = reference().books[_game_or_404(game)]
    return render_template("reference/sheet.html", book=book, panels=panels(book), game=game)


@bp.get("/<game>/<entry_id>")
def entry(game: str, entry_id: str):
    found = reference().entry(_game_or_404(game), entry_id)
    if found is None:
        abort(404, "There is no such entry in the rules reference.")
    return _page("reference/_entry.html", found.title, entry=found, book=reference().books[game], game=game, q="")


@bp.get("/search")
def search():
    q, game = _query()
    hits = reference().search(q, game) if q else []
    return _page("reference/_search.html", f"Search: {q}" if q else "Search", q=q, game=game, hits=hits)


@bp.get("/ask")
def ask():
    q, game = _query()
    answers = reference().ask(q, game) if q else []
    return _page("reference/_ask.html", "Ask", q=q, game=game, answers=answers)


# --- links from anywhere in the app --------------------------------------------------------------

def current_game() -> str | None:
    """The game of the page being drawn, from the game id in its address (looked up once)."""
    if not has_request_context():
        return None
    if "reference_game" not in g:
        system = None
        game_id = asked_game_id()
        if game_id is not None:
            row = session().get(Game, game_id)
            system = row.system if row is not None else None
        g.reference_game = system
    return g.reference_game


def entry_url(e: Entry) -> str:
    return url_for("reference.entry", game=e.game, entry_id=e.id)


def rule_url(name: str, game: str | None = None, applies_to: str = "") -> str | None:
    """The address of the entry explaining ``name``, or None when the reference has none."""
    e = reference().rule_entry(str(name), game or current_game(), applies_to or "")
    return entry_url(e) if e else None


def link(url: str, label, cls: str = "rule-link", title: str = "") -> Markup:
    attrs = (f' title="{escape(title)}"' if title else "")
    return Markup(f'<a class="{cls}" href="{escape(url)}" hx-get="{escape(url)}" hx-target="#{DIALOG}" '
                  f'hx-swap="innerHTML" hx-push-url="false"{attrs}>{escape(label)}</a>')


def rule_ref(name, game: str | None = None, applies_to: str = "", label=None) -> Markup:
    """``name`` as a link to its entry (opened in the rules dialog), or plain text without one."""
    url = rule_url(name, game, applies_to)
    text = name if label is None else label
    return link(url, text, title=f"Rules: {name}") if url else Markup(escape(text))


def rule_refs(names, game: str | None = None, sep: str = ", ") -> Markup:
    """A list of rule names (or one string of them joined by ``sep``), each linked."""
    items = names.split(sep) if isinstance(names, str) else list(names)
    return Markup(escape(sep)).join(rule_ref(n.strip(), game) for n in items if str(n).strip())


def entry_ref(game: str, entry_id: str, label: str | None = None) -> Markup:
    """A link to the entry ``entry_id`` of ``game``'s reference (its title unless ``label``), or
    nothing when the reference has no such entry."""
    e = reference().entry(game, entry_id) if game in reference().books and entry_id else None
    return link(entry_url(e), label or e.title, title=f"Rules: {e.title}") if e else Markup("")


def setting_ref(game: str, setting: str, label: str = "How Referee reads this") -> Markup:
    """A link to the entry whose reading a game setting changes."""
    e = reference().setting_entry(game, setting)
    return link(entry_url(e), label, "rule-link setting-link") if e else Markup("")


def setting_name(game: str, setting: str) -> str:
    """A setting an entry names, as the game's settings page heads it (never its key)."""
    return setting_title(system_for(game).settings_cls, setting) if game in LABELS else setting.replace("_", " ")


@bp.record_once
def _setup(state) -> None:
    app = state.app
    app.add_template_global(setting_name, "setting_name")
    app.add_template_global(rule_url, "rule_url")
    app.add_template_global(setting_ref, "setting_ref")
    app.add_template_global(entry_ref, "entry_ref")
    app.add_template_global(rule_ref, "rule_ref")
    app.add_template_global(rule_refs, "rule_refs")
    app.add_template_filter(rule_ref, "rule_ref")
    app.add_template_filter(rule_refs, "rule_refs")
    reference()  # load the rulebook and build the search index now, not on the first tap
