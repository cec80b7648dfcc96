"""The battle's story says the battle's own numbers: each army's units by state at every turn's end
are those of the board replayed to that turn through the engines, and the dice against the odds
count the log's own to-hit dice."""
from __future__ import annotations

import html as htmllib
import re

import pytest
from _web_helpers import HTMX

from referee.blackpowder.model import Battle
from referee.systems.replay import initial_state, replay

STORY = re.compile(r'<svg[^>]*class="picture battle-story"[^>]*aria-label="([^"]*)"', re.S)


def post(client, table, action, **data):
    r = client.post(f"/games/{table.id}/act/{action}", data={"version": str(table.version), **data}, headers=HTMX)
    assert r.status_code == 200, r.get_data(as_text=True)[:400]


def to_next_turn(client, table):
    turn = table.state["turn"]
    while table.state["turn"] == turn:
        post(client, table, "next_phase")


def counted(battle: Battle, side: str) -> tuple[int, int, int, int]:
    """(fit, disordered, shaken, lost) as the engine's units say."""
    units = [u for u in battle.units.values() if u.side == side and not u.awaiting]
    lost = [u for u in units if u.destroyed or u.off_table]
    shaken = [u for u in units if u not in lost and u.shaken]
    disordered = [u for u in units if u not in lost and not u.shaken and u.disordered]
    return len(units) - len(lost) - len(shaken) - len(disordered), len(disordered), len(shaken), len(lost)


def played(client, table):
    post(client, table, "adjust_unit", unit="82nd-ligne", field="casualties", value="3")
    to_next_turn(client, table)
    post(client, table, "adjust_unit", unit="1-7th-musketeers", field="disordered", value="on")
    post(client, table, "adjust_unit", unit="4th-ligne", field="destroyed", value="on")
    while table.state["phase"] != "shooting":
        post(client, table, "next_phase")
    shooter = "11th-leger" if table.state["active_side"] == "blue" else "2-7th-musketeers"
    target = "2-7th-musketeers" if shooter == "11th-leger" else "12th-leger"
    post(client, table, "shoot", shooter=shooter, target=target, range_band="short")
    to_next_turn(client, table)


def table_rows(page: str, name: str) -> dict[int, tuple[int, ...]]:
    """The numbers table of one army: turn -> (fit, disordered, shaken, lost, to arrive)."""
    table = page.split(f"<caption>{name} at each turn's end</caption>", 1)[1].split("</table>", 1)[0]
    return {int(turn): tuple(int(n) for n in cells)
            for turn, *cells in re.findall(r'<th scope="row">(\d+)[^<]*(?:<small>[^<]*</small>)?</th>'
                                           r"<td>(\d+)</td><td>(\d+)</td><td>(\d+)</td><td>(\d+)</td><td>(\d+)</td>",
                                           table)}


def test_the_story_is_the_board_replayed_to_each_turns_end(client, table):
    played(client, table)
    page = client.get(f"/games/{table.id}/story").get_data(as_text=True)
    label = htmllib.unescape(STORY.search(page).group(1))
    entries = [{"action": e.action, "facts": e.facts, "dice": e.dice, "changes": e.changes}
               for e in reversed(table.log()) if not e.undone]
    ends, doc = {}, initial_state(table.state, entries)
    for e in entries:  # the board replayed through the engines, entry by entry
        after = replay("blackpowder", doc, [e])
        if after["turn"] != doc["turn"]:
            ends[doc["turn"]] = doc
        doc = after
    ends[doc["turn"]] = doc
    assert sorted(ends) == [1, 2, 3]
    names = table.state["sides"]
    tops = {}
    for side in ("blue", "red"):
        rows = table_rows(page, names[side]["name"])
        assert sorted(rows) == [1, 2, 3]
        for turn, doc in ends.items():
            assert rows[turn][:4] == counted(Battle.from_doc(doc), side), (side, turn)
        tops[side] = max(sum(r) for r in rows.values())
    # the picture's columns: the French fit units' boxes are as tall as their count of the tallest column
    top = max(tops.values())
    fit = re.search(r'<path data-layer="fit" d="([^"]+)"', page).group(1)
    heights = [float(h) for h in re.findall(r"v([\d.]+)h", fit)]
    french = table_rows(page, names["blue"]["name"])
    assert heights == pytest.approx([64 * french[t][0] / top for t in (1, 2, 3)], abs=0.1)
    # the label: the first turn and the latest; the shaken 82nd from turn 1 on, the lost 4th Ligne from turn 2 on
    assert "French: turn 1: 6 fit, 0 disordered, 1 shaken, 0 lost" in label
    assert "turn 3: 5 fit, 0 disordered, 1 shaken, 1 lost" in label


def test_the_dice_against_the_odds_count_the_logs_to_hit_dice(client, table):
    played(client, table)
    [shot] = [e for e in table.log() if e.action == "shoot"]
    hits = [d for d in shot.result["dice"] if d.get("need") and "to hit" in d["purpose"]]
    assert hits
    side = table.state["units"][shot.facts["shooter"]]["side"]
    name = table.state["sides"][side]["name"]
    expected = sum((7 - d["need"]) / 6 for d in hits)
    got = sum(d["value"] >= d["need"] for d in hits)
    page = htmllib.unescape(client.get(f"/games/{table.id}/story").get_data(as_text=True))
    assert (f"{name} rolled {got} hits from {len(hits)} dice to hit, where {expected:.1f} were expected."
            in page)


def test_the_report_carries_the_story_and_the_bar_links_to_it(client, table):
    played(client, table)
    report = client.get(f"/games/{table.id}/report").get_data(as_text=True)
    assert 'class="picture battle-story"' in report and "The numbers" in report
    board = client.get(f"/games/{table.id}").get_data(as_text=True)
    assert f'href="/games/{table.id}/story"' in board
