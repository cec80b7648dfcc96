"""Nothing internal reaches the screen: every page and every log line of a played battle, a
played engagement (both squadrons from one list), an Of Oil and Iron campaign through its Aftermath
and a Hundred Days campaign through both its days (losses carried into Waterloo) is read as
a person reads it (the text between the tags, not the attributes) for a dictionary or list as
Python prints it, a snake_case key, an internal id (p1, p2/r3, r3) and "Blue"/"Red" where the
sides have names. Each page is reached by following the app's own links from the board."""
from __future__ import annotations

import html
import re
from collections import deque

from _campaign_play import act, sword, wreck_and_finish
from test_campaign_routes import new_oi, text, to_aftermath, version

from referee.lists import example_lists, export_text
from referee.lists.games import engagement_from_squadrons
from referee.reference import reference
from referee.table import campaigns as tc
from referee.table import game_log, service

FOUND = {
    "a dict or list": re.compile(r"\{'|\['"),
    "a snake_case key": re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b"),
    "an internal id": re.compile(r"\b(?:p[12](?:[/-]r\d+)?|r\d+)\b"),
    "Blue or Red for a named side": re.compile(r"\b(?:Blue|Red)\b"),
    "an army's key (English writes French)": re.compile(r"\bfrench\b"),
}
# Names that are the table's own words, not a side's colour: the Guard's Red Lancers are a regiment.
PROPER = re.compile(r"\bRed Lancers\b")
HIDDEN = re.compile(r"<(script|style|template|textarea)\b.*?</\1>", re.S | re.I)
LINK = re.compile(r'(?:href|hx-get)="([^"#]+)"')
# Links that write, send a file, or draw a page for paper (the same words as the screen's).
SKIP = re.compile(r"/(export|delete|poll|print|report|choices|odds)\b|\?v=")
MOST = 150


def visible(page: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", HIDDEN.sub(" ", page))))


def problems(text: str) -> list[str]:
    out, text = [], PROPER.sub("", text)
    for what, pattern in FOUND.items():
        for m in pattern.finditer(text):
            out.append(f"{what}: …{text[max(0, m.start() - 50):m.end() + 50]}…")
    return out


def read_all(client, starts: list[str], inside: str) -> dict[str, list[str]]:
    """Every page reached from ``starts`` by links under ``inside``: what each shows that it should not."""
    seen, todo, found = set(starts), deque(starts), {}
    while todo and len(seen) <= MOST:
        path = todo.popleft()
        r = client.get(path)
        assert r.status_code < 500, path
        if r.status_code != 200 or "html" not in r.content_type:
            continue
        page = r.get_data(as_text=True)
        said = problems(visible(page))
        if said:
            found[path] = said
        for link in LINK.findall(html.unescape(page)):
            if link.startswith(inside) and link not in seen and not SKIP.search(link):
                seen.add(link)
                todo.append(link)
    return found


def report(found: dict[str, list[str]]) -> str:
    return "\n".join(f"{path}: {said}" for path, items in found.items() for said in dict.fromkeys(items))


def log_pages(client, app_db, game_id: int) -> list[str]:
    return [p for e in game_log.log(app_db, game_id)
            for p in (f"/games/{game_id}/log/{e.seq}", f"/games/{game_id}/log/{e.seq}/detail")]


def test_a_played_battle_shows_no_internals(client, app_db):
    r = client.post("/games/new", data={"scenario": "demo"})
    game_id = int(r.headers["Location"].rstrip("/").split("/")[-1])
    game = service.get_game(app_db, game_id)
    for action, facts in (("order", {"units": ["11th-leger"]}),
                          ("next_phase", {}),
                          ("shoot", {"shooter": "11th-leger", "target": "1-7th-musketeers", "range_band": "short"}),
                          ("break_test", {"unit": "1-7th-musketeers"}),
                          ("change_setting", {"name": "road_bonus_adds_to_march_column", "value": "yes"}),
                          ("end_battle", {"reason": "a test"})):
        app_db.expire_all()
        game = service.get_game(app_db, game_id)
        try:
            service.perform(app_db, game_id, game.version, action, facts)
        except service.TableError as e:
            raise AssertionError(f"{action}: {e}") from None
    rules = [f"/rules/blackpowder/{e.id}" for e in reference().books["blackpowder"].entries.values()
             if e.settings or e.id in ("waterloo", "ligny-saint-amand", "demo")]  # and scenarios' entries
    found = read_all(client, [f"/games/{game_id}", f"/games/{game_id}/log", *log_pages(client, app_db, game_id), *rules],
                     f"/games/{game_id}")
    assert not found, report(found)


def test_a_played_engagement_of_one_list_against_itself_shows_no_internals(client, app_db):
    doc = engagement_from_squadrons("Iron night", sword("Iron Wolves"), sword("Iron Wolves"))
    game_id = service.create_game(app_db, doc["name"], "oilandiron", doc).id
    wreck_and_finish(app_db, game_id, hurt={"p1-r1": {"hull": 1}})
    found = read_all(client, [f"/games/{game_id}", f"/games/{game_id}/log", *log_pages(client, app_db, game_id)],
                     f"/games/{game_id}")
    assert not found, report(found)


def test_a_campaign_through_its_aftermath_shows_no_internals(client, app_db):
    cid = new_oi(client)
    game_id = to_aftermath(client, app_db, cid)
    found = read_all(client, [f"/campaigns/{cid}", f"/games/{game_id}", *log_pages(client, app_db, game_id)],
                     f"/campaigns/{cid}")
    assert not found, report(found)


def hurt_and_end(app_db, game_id: int, winner: str, end: bool = True) -> None:
    """A few losses on each side (one unit destroyed), then (``end``) the battle ended for ``winner``."""
    state = service.get_game(app_db, game_id).state
    for side in ("blue", "red"):
        first, second = [uid for uid, u in state["units"].items() if u["side"] == side][:2]
        act(app_db, game_id, "adjust_unit", unit=first, field="casualties", value="1", reason="shot at")
        act(app_db, game_id, "adjust_unit", unit=second, field="destroyed", value="yes", reason="routed")
    if end:
        act(app_db, game_id, "end_battle", decision=winner, reason="the table agreed")


def test_a_hundred_days_campaign_through_its_days_shows_no_internals(client, app_db):
    """16 June fought side by side (its two tables read while they play), 18 June one battle after
    the other; then every page of the decided campaign, each battle's board and log."""
    r = client.post("/campaigns/new", data={"kind": "hundred_days", "name": "1815", "french": "Nap",
                                            "coalition": "Duke", "recovery": "half"})
    cid = int(r.headers["Location"].rstrip("/").split("/")[-1])
    r = client.post(f"/campaigns/{cid}/start-day", data={"version": version(app_db, cid)})
    assert r.status_code == 303, text(r)
    battles = tc.get_campaign(app_db, cid).state["battles"]
    games = [battles[b]["game_id"] for b in ("ligny", "quatre-bras")]
    for game_id, winner in zip(games, ("blue", "red")):
        hurt_and_end(app_db, game_id, winner, end=False)
    found = read_all(client, [f"/campaigns/{cid}", f"/campaigns/{cid}/tables"], f"/campaigns/{cid}/table")
    assert not found, report(found)
    for game_id in games:
        act(app_db, game_id, "end_battle", decision="by_rules", reason="the table agreed")
    for day, fought in (("16", ()), ("18", ("wavre", "waterloo"))):
        for battle in fought:
            r = client.post(f"/campaigns/{cid}/start", data={"version": version(app_db, cid), "battle": battle})
            assert r.status_code == 303, text(r)
            games.append(int(r.headers["Location"].rstrip("/").split("/")[-1]))
            hurt_and_end(app_db, games[-1], "blue" if battle == "wavre" else "red")
        for battle in ("ligny", "quatre-bras") if day == "16" else fought:
            r = client.post(f"/campaigns/{cid}/record/{battle}", data={"version": version(app_db, cid)})
            assert r.status_code == 303, text(r)
        r = client.post(f"/campaigns/{cid}/act/end_day", data={"version": version(app_db, cid), "day": day})
        assert r.status_code == 303, text(r)
    # Played through: the losses were carried into Waterloo and the campaign is decided.
    assert "Casualties carried" in text(client.get(f"/games/{games[-1]}"))
    assert "the campaign is over: won by" in text(client.get(f"/campaigns/{cid}"))
    starts = [f"/campaigns/{cid}", f"/campaigns/{cid}/print"]
    for game_id in games:
        starts += [f"/games/{game_id}", f"/games/{game_id}/log", *log_pages(client, app_db, game_id)]
    found = read_all(client, starts, f"/campaigns/{cid}")
    assert not found, report(found)


def test_a_battle_of_one_army_list_against_itself_names_the_armies_apart(client, app_db):
    client.post("/lists/owner", data={"owner": "Ann"})
    army = export_text(example_lists()["example-french-corps"])
    # One list on both sides (a second import of it is named apart, "… (imported)").
    list_id = client.post("/lists/import", data={"text": army}).headers["Location"].rsplit("/", 1)[1]
    r = client.post("/lists/start", data={"system": "blackpowder", "first": list_id, "second": list_id, "name": "Mirror"})
    assert r.status_code == 303, text(r)
    game_id = int(r.headers["Location"].rstrip("/").split("/")[-1])
    state = service.get_game(app_db, game_id).state
    first, second = (state["sides"][s]["name"] for s in ("blue", "red"))
    assert second == f"{first} (player 2)"
    shooter = next(u for u in state["units"].values() if u["side"] == "blue")
    act(app_db, game_id, "order", units=[shooter["id"]])
    act(app_db, game_id, "end_battle", decision="red", reason="a test")
    board, log = text(client.get(f"/games/{game_id}")), text(client.get(f"/games/{game_id}/log"))
    assert f"{second} Command" in board and f"{second} won" in board
    assert f"The battle goes to {second}" in log
    found = read_all(client, [f"/games/{game_id}", f"/games/{game_id}/log", *log_pages(client, app_db, game_id)],
                     f"/games/{game_id}")
    assert not found, report(found)
