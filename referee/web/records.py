"""The record every finished game keeps: its after-action report (forces, result and reason,
losses, the key moments of the log with their dice; prints on one or two sheets), its JSON file
(``docs/game-file.md``) that re-imports for review, and archiving or deleting a finished game
that no campaign holds (with a confirmation)."""
from __future__ import annotations

from flask import Blueprint, Response, redirect, render_template, request, url_for

from ..data import slug
from ..systems.replay import initial_state
from ..table import campaigns as tc
from ..table import records
from . import roles
from .db import game_or_404, session
from .serving import quick_poll, refusals
from .serving.live import drawings
from .taps import once
from .views import board_for

bp = Blueprint("records", __name__)
KEY_WORDS = ("destroyed", "broken", "army_broken", "ended", "winner")
MAX_MOMENTS = 24


@bp.app_context_processor
def _games_list_helpers():
    """For the games list: each game's record (archived, imported) and its campaign, if any."""
    def game_records():
        return records.records(session())

    def game_campaign(game_id: int):
        return tc.campaign_of_game(session(), game_id)
    return {"game_records": game_records, "game_campaign": game_campaign}


def _is_key(entry) -> bool:
    if entry.result.get("dice") or any(c.get("dice") for c in entry.result.get("children", [])):
        return True
    return any(any(str(p) in KEY_WORDS for p in ch["path"]) for ch in entry.changes)


def _all_dice(result: dict) -> list[dict]:
    out = list(result.get("dice", []))
    for child in result.get("children", []):
        out.extend(_all_dice(child))
    return out


def in_force(game) -> list:
    return [e for e in records.game_log(session(), game.id) if not e.undone and not e.discarded]


def story_of(game, entries: list | None = None):
    """The game's story over time (its board view's ``story``), or None for a game without one:
    the first state (the state now with the actions in force taken back) and each action's
    changes, facts and the dice of its result."""
    tell = board_for(game.system).story
    if tell is None:
        return None
    entries = in_force(game) if entries is None else entries
    # Each die as the result kept it, with the score it needed (the log's own list has the values).
    rows = [{"changes": e.changes, "facts": e.facts, "dice": _all_dice(e.result)} for e in entries]
    return tell(initial_state(game.state, rows), rows)


def report_context(game) -> dict:
    s = game.state
    entries = in_force(game)
    key = [e for e in entries if _is_key(e)]
    moments = [{"seq": e.seq, "label": e.label, "summary": e.result.get("summary", ""),
                "dice": _all_dice(e.result), "notes": e.result.get("notes", [])[:2]} for e in key[-MAX_MOMENTS:]]
    ctx = {"game": game, "moments": moments, "more": max(0, len(key) - MAX_MOMENTS), "steps": len(entries),
           "link": tc.campaign_of_game(session(), game.id), "record": records.record_of(session(), game.id)}
    end = next((e for e in reversed(entries) if e.action in ("end_battle", "end_round") and
                (e.result.get("data") or {}).get("ended", True)), None)
    ctx["reason"] = [n for n in (end.result.get("notes", []) if end else []) if n][:3]
    ctx.update(board_for(game.system).report(s))
    ctx["story"] = story_of(game, entries)
    return ctx


@bp.get("/games/<int:game_id>/story")
def story(game_id: int):
    """The battle so far, turn by turn: one tap from the board's bar."""
    game = game_or_404(game_id)
    found = story_of(game)
    if found is None:
        return redirect(url_for("records.report", game_id=game.id), 303)
    return render_template("records/story.html", game=game, story=found)


@bp.get("/games/<int:game_id>/report")
def report(game_id: int):
    game = game_or_404(game_id)
    return render_template("records/report.html", **report_context(game))


@bp.get("/games/<int:game_id>/export")
def export(game_id: int):
    game = game_or_404(game_id)
    text = records.export_game(session(), game.id)
    return Response(text, mimetype="application/json",
                    headers={"Content-Disposition": f'attachment; filename="{slug(game.name)}.game.json"'})


@bp.route("/games/import", methods=["GET", "POST"])
@once()
def import_game():
    """A game file imported, once per tap (sent again, its answer lost, it shows the game the
    first made); whoever imports it is its umpire, in the same transaction as the game."""
    if request.method == "GET":
        return render_template("records/import.html", message="")
    upload = request.files.get("file")
    raw = upload.read() if upload else b""
    if not raw:
        return render_template("records/import.html", message="Choose a game file to import."), 422
    refusals.redraw(lambda e: (render_template("records/import.html", message=f"Nothing was imported: {e.message}"),
                               e.status))
    game = records.import_game(session(), raw, commit=False)
    roles.made_umpire(game)
    return redirect(url_for("records.report", game_id=game.id), 303)


@bp.post("/games/<int:game_id>/archive")
def archive(game_id: int):
    game = game_or_404(game_id)
    records.set_archived(session(), game.id, request.form.get("archived", "yes") == "yes")  # refused: its message
    return redirect(url_for("games.index"), 303)


@bp.route("/games/<int:game_id>/delete", methods=["GET", "POST"])
def delete(game_id: int):
    game = game_or_404(game_id)
    if request.method == "GET":
        return render_template("records/delete.html", game=game, message="")
    refusals.redraw(lambda e: (render_template("records/delete.html", game=game, message=e.message), e.status))
    records.delete_game(session(), game.id, request.form.get("confirm", ""))
    drawings().forget(game.id)  # what was drawn for it is let go (its number is never given again)
    quick_poll.forget(game.id)
    return redirect(url_for("games.index"), 303)


