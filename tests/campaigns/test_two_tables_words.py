"""A day on two tables read as two umpires read it: 18 June with a French breakthrough at Wavre,
the Coalition's choice on the Waterloo table, both undos at Wavre, the redo and the choice made
again, then both battles ended; and 16 June with I Corps brought on at Quatre Bras. Every page,
board, log line and log entry of it is read for what a person should never see: the campaign's
keys for battles ("by wavre"), the dice source's key, ids of games and combats, a unit's number
in brackets, "(s)" plurals and a sentence said twice in a row."""
from __future__ import annotations

import re

from test_campaign_routes import text, version
from test_two_tables import break_through, eighteenth, i_corps, to_turn_2
from test_words_on_screen import log_pages, problems, read_all, visible

from referee.campaigns.hundred_days_links import candidates
from referee.table import campaign_day as cd
from referee.table import campaign_games as cg
from referee.table import campaigns as tc
from referee.table import service

INTERNAL = {
    "a battle's key for its name": re.compile(r"\bby (?:waterloo|wavre|ligny|quatre-bras|plancenoit)\b"),
    "the dice source's key": re.compile(r"\bdice: (?:manual|app|scripted)\b"),
    "a game's id": re.compile(r"\bgame id\b|\(game \d+\)|\bgame \d+\b"),
    "a combat's id": re.compile(r"\bcombat c\d+\b|\bc\d+\b"),
    "a number in brackets after a name": re.compile(r"[A-Za-z] \(\d+\)"),
    "a (s) plural": re.compile(r"\w\(s\)"),
}
NEWEST = 12  # the log entries read one by one, newest first: those of the links between the tables
TWICE = re.compile(r"([A-Z][^.!?]{12,}[.!?])\s+\1")


def doubled(text: str) -> list[str]:
    """Sentences said twice in a row."""
    return [f"said twice: {m.group(1)}" for m in TWICE.finditer(text)]


def internals(text: str) -> list[str]:
    out = problems(text) + doubled(text)
    for what, pattern in INTERNAL.items():
        for m in pattern.finditer(text):
            out.append(f"{what}: …{text[max(0, m.start() - 50):m.end() + 50]}…")
    return out


def read_everything(client, starts: list[str], inside: str) -> dict[str, list[str]]:
    found = read_all(client, starts, inside)
    for path in dict.fromkeys(starts):
        r = client.get(path)
        if r.status_code == 200 and "html" in r.content_type:
            said = internals(visible(r.get_data(as_text=True)))
            if said:
                found.setdefault(path, []).extend(said)
    return found


def unique(found: dict[str, list[str]]) -> str:
    """Each problem once, with the first page that showed it."""
    first: dict[str, str] = {}
    for path, items in found.items():
        for said in items:
            first.setdefault(said, path)
    return "\n".join(f"{path}: {said}" for said, path in first.items())


def do(client, game_id: int, what: str) -> None:
    r = client.post(f"/games/{game_id}/{what}", data={"version": version_of(client, game_id)})
    assert r.status_code in (200, 303), text(r)


def version_of(client, game_id: int) -> int:
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    return int(re.search(r'name="version" value="(\d+)"', page).group(1))


def choose(client, app_db, cid: int, waterloo: int, n: int) -> str:
    app_db.expire_all()
    bt = next(b for b in tc.get_campaign(app_db, cid).state["links"]["breakthroughs"] if b["status"] == "pending")
    pick = candidates(service.get_game(app_db, waterloo).state, "II Corps")[n]
    r = client.post(f"/campaigns/{cid}/choose/{bt['id']}", data={"version": version(app_db, cid), "unit": pick["unit"]})
    assert r.status_code == 303, text(r)
    return pick["name"]


def pages_of(client, app_db, cid: int, games: list[int]) -> list[str]:
    starts = [f"/campaigns/{cid}", f"/campaigns/{cid}/log", f"/campaigns/{cid}/tables"]
    battles = tc.get_campaign(app_db, cid).state["battles"]
    starts += [f"/campaigns/{cid}/table/{b}" for b, d in battles.items() if d.get("game_id") in games]
    for game_id in games:
        starts += [f"/games/{game_id}", f"/games/{game_id}/log", *log_pages(client, app_db, game_id)[:NEWEST]]
    return starts


def test_the_eighteenth_on_two_tables_with_a_breakthrough_its_undos_and_redo_shows_no_internals(client, app_db):
    c = cg.new_hundred_days(app_db, "1815", "Nap", "Duke", plan=eighteenth(), seed=5)
    cd.start_day(app_db, c.id, c.version, who="Umpire")
    app_db.expire_all()
    battles = tc.get_campaign(app_db, c.id).state["battles"]
    wavre, waterloo = battles["wavre"]["game_id"], battles["waterloo"]["game_id"]
    to_turn_2(app_db, waterloo)
    to_turn_2(app_db, wavre)
    break_through(app_db, wavre)
    choose(client, app_db, c.id, waterloo, 0)
    do(client, wavre, "undo")  # "Reached Waterloo": the disruption taken back there
    do(client, wavre, "undo")  # the fight round itself
    do(client, wavre, "redo")  # the fight round again: the choice is owed again
    choose(client, app_db, c.id, waterloo, 1)
    found = read_everything(client, pages_of(client, app_db, c.id, [wavre, waterloo]), f"/campaigns/{c.id}")
    assert not found, unique(found)


def test_the_sixteenth_with_i_corps_brought_on_shows_no_internals(client, app_db):
    r = client.post("/campaigns/new", data={"kind": "hundred_days", "name": "1815", "french": "Nap", "coalition": "Duke"})
    cid = int(r.headers["Location"].rstrip("/").split("/")[-1])
    r = client.post(f"/campaigns/{cid}/start-day", data={"version": version(app_db, cid)})
    assert r.status_code == 303, text(r)
    battles = tc.get_campaign(app_db, cid).state["battles"]
    ligny, qb = battles["ligny"]["game_id"], battles["quatre-bras"]["game_id"]
    g = service.get_game(app_db, qb)
    service.perform(app_db, qb, g.version, "arrive", {"reserve": i_corps(app_db, qb)["id"], "early": True})
    found = read_everything(client, pages_of(client, app_db, cid, [ligny, qb]), f"/campaigns/{cid}")
    assert not found, unique(found)
