"""An Of Oil and Iron campaign's page through the Flask client when both players field the same
squadron (a Jackal each): the new-campaign form offers every shipped example squadron once by
name, the Aftermath names each Rig's owner and never a roster key, each Rig offers only its own
repairs, and a refused repair comes back with its form as it was posted."""
from __future__ import annotations

import re

from test_campaign_routes import new_oi, text, to_aftermath, version

from referee.lists import example_lists
from referee.systems import OIL_AND_IRON
from referee.table import campaigns as tc


def rig_form(page: str, ref: str) -> str:
    """The repair form of one Rig, as drawn."""
    found = re.search(r'<form[^>]*data-repairs="' + re.escape(ref) + r'".*?</form>', page, re.S)
    assert found, f"no repair form for {ref}"
    return found.group(0)


def test_the_new_campaign_form_offers_every_shipped_example_squadron_once_by_name(client):
    page = client.get("/campaigns").get_data(as_text=True)
    examples = {k: v for k, v in example_lists().items() if v.system == OIL_AND_IRON and v.tier == "skirmish"}
    assert len(examples) >= 3
    for key, lst in examples.items():
        assert f'value="example:{key}"' in page
        assert page.count(f">{lst.name}<") == 2  # once in each player's list
    assert "Example: Example" not in page
    # the two players start on different squadrons, so their Rigs differ by name
    chosen = re.findall(r'<option value="(example:[^"]+)" selected>', page)
    assert len(chosen) == 1 and chosen[0] != "example:" + next(iter(examples))


def test_every_shipped_example_squadron_starts_a_campaign(client, app_db):
    for key, lst in example_lists().items():
        if lst.system != OIL_AND_IRON or lst.tier != "skirmish":
            continue
        r = client.post("/campaigns/new", data={"kind": "oilandiron", "name": f"With {key}", "p1-name": "Anna",
                                                "p1-squadron": f"example:{key}", "p2-name": "Ben",
                                                "p2-squadron": "example:example-sword-squadron"})
        assert r.status_code == 303, text(r)
        cid = int(r.headers["Location"].rstrip("/").split("/")[-1])
        names = [x["name"] for x in tc.get_campaign(app_db, cid).state["rosters"]["p1"]["rigs"].values()]
        assert names == [x.name for x in lst.rigs]


def test_the_aftermath_names_each_rigs_owner_and_no_roster_key(client, app_db):
    cid = new_oi(client)  # both players field the Sword scouts: Jackal, Hyena, Warthog
    to_aftermath(client, app_db, cid)
    raw = client.get(f"/campaigns/{cid}").get_data(as_text=True)
    page = text(client.get(f"/campaigns/{cid}"))
    assert "Recovery roll for Jackal (Ben)" in page and "Recovery roll for Jackal " + "(" in page
    assert "Recovery roll for Jackal<" not in raw
    for ref in ("p2/r1", "p2/r2", "p2/r3"):
        client.post(f"/campaigns/{cid}/act/recovery_roll", data={"version": version(app_db, cid), "rig": ref,
                                                                 "typed": "11"})
    page = text(client.get(f"/campaigns/{cid}"))
    assert "Jackal (Ben) rolled 11 (recovered)" in page
    assert not re.search(r"\bp[12]/r\d", page)
    log = text(client.get(f"/campaigns/{cid}/log"))
    assert "Jackal (Ben) is recovered" in log and not re.search(r"\bp[12]/r\d", log)


def test_each_rig_offers_only_its_own_repairs(client, app_db):
    cid = new_oi(client)
    to_aftermath(client, app_db, cid)  # Anna's Jackal took 1 Hull damage
    raw = client.get(f"/campaigns/{cid}").get_data(as_text=True)
    jackal = rig_form(raw, "p1/r1")
    assert re.findall(r'<option value="([^"]+)"', jackal) == ["hull"]
    assert "Repair Jackal" in jackal and "Jackal (Anna)" in jackal
    assert 'data-repairs="p1/r2"' not in raw  # Anna's Hyena needs nothing
    # a trait offered under one Rig only
    client.post(f"/campaigns/{cid}/act/recovery_roll", data={"version": version(app_db, cid), "rig": "p2/r2",
                                                             "typed": "6 5"})  # back with Twisted Frame
    raw = client.get(f"/campaigns/{cid}").get_data(as_text=True)
    assert raw.count('value="trait:Twisted Frame"') == 1
    assert 'value="trait:Twisted Frame"' in rig_form(raw, "p2/r2")


def test_a_refused_repair_keeps_its_form_and_says_no_internal_value(client, app_db):
    cid = new_oi(client)
    to_aftermath(client, app_db, cid)
    client.post(f"/campaigns/{cid}/act/recovery_roll", data={"version": version(app_db, cid), "rig": "p2/r2",
                                                             "typed": "6 5"})
    iron = tc.get_campaign(app_db, cid).state["players"]["p1"]["iron"]
    r = client.post(f"/campaigns/{cid}/act/repair", data={"version": version(app_db, cid), "rig": "p1/r1",
                                                         "what": "hull", "sp": "9"})
    assert r.status_code == 422 and re.search(r"Jackal \(Anna\)'s Hull has lost \d SP; 9 cannot be restored", text(r))
    kept = rig_form(r.get_data(as_text=True), "p1/r1")
    assert 'name="sp" value="9"' in kept and '<option value="hull" selected>' in kept
    # the other player's trait, sent for Anna's Jackal (an old page or a crafted post)
    r = client.post(f"/campaigns/{cid}/act/repair", data={"version": version(app_db, cid), "rig": "p1/r1",
                                                         "what": "trait:Twisted Frame", "sp": "1"})
    assert r.status_code == 422 and "Jackal (Anna) has no such repair to make" in text(r)
    assert "trait:" not in text(r).split("Repairs, refits")[0]
    app_db.expire_all()
    assert tc.get_campaign(app_db, cid).state["players"]["p1"]["iron"] == iron
