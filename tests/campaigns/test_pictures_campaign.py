"""The Hundred Days day by day: the picture's armies at each day's end are the campaign document as
it stood when the day ended (its steps' changes applied from the start), with each battle marked
fought, being fought or still to come."""
from __future__ import annotations

import html

from test_hundred_days import campaign, fight, ligny, quatre_bras

from referee.campaigns import day_by_day
from referee.web.pictures import campaign_timeline


def counted(doc: dict, army: str) -> tuple[int, int, int, int]:
    units = doc["armies"][army]["units"].values()
    lost = sum(1 for u in units if u["destroyed"])
    worn = sum(1 for u in units if u["casualties"] and not u["destroyed"])
    return len(units), lost, worn, sum(d["vp"][army] for d in doc["days"].values())


def test_each_days_armies_are_the_campaign_as_that_day_ended():
    step = campaign()
    first = step.doc
    fight(step, "ligny", ligny())
    fight(step, "quatre-bras", quatre_bras(winner="red", british_broken=0), game_id=2)
    end_of_16 = step.doc
    step("end_day", day="16")
    step("game_started", step="waterloo", game_id=3, name="waterloo")
    entries = [{"changes": [c.to_dict() for c in r.all_changes]} for r in step.results]
    tl = day_by_day(first, entries)
    assert tl.read == ["16", "18"]
    for army in ("french", "coalition"):
        day16, day18 = tl.armies[army]
        assert (day16.units, day16.lost, day16.worn, day16.vp) == counted(end_of_16, army)
        assert (day18.units, day18.lost, day18.worn, day18.vp) == counted(step.doc, army)
    assert counted(end_of_16, "coalition")[1] >= 1  # the Landwehr lost at Ligny: the numbers are not all nil
    label = html.unescape(str(campaign_timeline(tl)).split('aria-label="', 1)[1].split('"', 1)[0])
    units, lost, worn, vp = counted(end_of_16, "french")
    assert f"16 June: The Emperor Strikes: Armée du Nord {units} units, {lost} lost, {worn} worn; {vp} VP" in label
    assert "Ligny done" in label or "Ligny fought" in label
    assert "Waterloo being fought" in label and "Wavre not fought yet" in label


def test_a_day_not_reached_is_still_to_come():
    step = campaign()
    tl = day_by_day(step.doc, [])
    assert tl.read == ["16"]
    svg = html.unescape(str(campaign_timeline(tl)))
    assert svg.count("still to come") == 2  # both armies on 18 June


def test_the_campaign_page_draws_it(client):
    r = client.post("/campaigns/new", data={"kind": "hundred_days", "name": "1815", "french": "Nap", "coalition": "Duke"})
    cid = int(r.headers["Location"].rstrip("/").split("/")[-1])
    page = client.get(f"/campaigns/{cid}").get_data(as_text=True)
    assert 'class="picture campaign-timeline"' in page and 'role="img"' in page
    assert "Ligny not fought yet" in html.unescape(page)
