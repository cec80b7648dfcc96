"""Every refusal of a form that holds typed work draws the form again with everything typed in it
(issue 45, item 1): the forces typed in, a new engagement, a new campaign of each kind, a game's
and a campaign's settings and the umpire's override. Each test fills the form, has it refused,
and compares every field sent with the field drawn again."""
from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from werkzeug.datastructures import MultiDict

from referee.table import campaigns as tc
from referee.table.db import session as db_session

NOT_TYPED = {"csrf_token", "token", "version", "grow", "next"}


class Fields(HTMLParser):
    """Every field a page draws: name -> the values it would send (or offer, for a text box)."""

    def __init__(self):
        super().__init__()
        self.values: dict[str, list[str]] = {}
        self.bad: set[str] = set()
        self._select = self._area = None
        self._first = None
        self._chosen: str | None = None
        self._text = ""

    def _add(self, name, value, attrs):
        self.values.setdefault(name, []).append(value)
        if "bad" in (attrs.get("class") or "").split():
            self.bad.add(name)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        name = a.get("name")
        if tag == "input" and name and a.get("type") not in ("submit", "file", "hidden"):
            if a.get("type") in ("checkbox", "radio") and "checked" not in a:
                return
            self._add(name, a.get("value", "on" if a.get("type") == "checkbox" else ""), a)
        elif tag == "select" and name:
            self._select, self._first, self._chosen, self._attrs = name, None, None, a
        elif tag == "option" and self._select:
            value = a.get("value", "")
            self._first = value if self._first is None else self._first
            if "selected" in a:
                self._chosen = value
        elif tag == "textarea" and name:
            self._area, self._text, self._attrs = name, "", a

    def handle_data(self, data):
        if self._area:
            self._text += data

    def handle_endtag(self, tag):
        if tag == "select" and self._select:
            self._add(self._select, self._chosen if self._chosen is not None else self._first or "", self._attrs)
            self._select = None
        elif tag == "textarea" and self._area:
            self._add(self._area, self._text.removeprefix("\n"), self._attrs)
            self._area = None


def fields(response) -> Fields:
    p = Fields()
    p.feed(response.get_data(as_text=True))
    return p


def kept(sent: MultiDict, response) -> list[str]:
    """What was sent but is not in the form drawn again (empty when everything is kept)."""
    drawn = fields(response).values
    return [f"{k}={v!r}" for k, v in sent.items(multi=True) if k not in NOT_TYPED and v not in drawn.get(k, [])]


def test_the_forces_typed_in_are_kept_when_refused(client):
    sent = MultiDict({"name": "Ligny by hand", "blue-name": "Prussians", "blue-nation": "prussian",
                      "blue-general": "Blücher", "blue-general-rating": "8",
                      "blue-b0-name": "Pirch", "blue-b0-commander": "Pirch", "blue-b0-rating": "7",
                      "blue-b0-u0-profile": "prussian-musketeer-infantry", "blue-b0-u0-name": "2nd Pomeranian",
                      "blue-b0-u0-count": "2",
                      "red-name": "French", "red-nation": "french", "red-general": "Vandamme",
                      "red-general-rating": "nine", "red-b0-name": "Lefol", "red-b0-commander": "Lefol"})
    r = client.post("/games/new/forces", data=sent)
    assert r.status_code == 422
    assert kept(sent, r) == []


def test_a_new_engagement_refused_keeps_every_rig_typed(client):
    page = fields(client.get("/games/new/oilandiron")).values
    sent = MultiDict([(k, v) for k, vs in page.items() for v in vs[:1]])
    sent["name"] = "Clash at the mill"
    rig_name = next(k for k in sent if k.endswith("-name") and "-r" in k)
    sent[rig_name] = "Rusty Bucket"
    chassis = next(k for k in sent if k.endswith("-chassis"))
    sent[chassis] = "no_such_chassis"
    r = client.post("/games/new/oilandiron", data=sent)
    assert r.status_code == 422
    assert kept(MultiDict([(k, v) for k, v in sent.items(multi=True) if k != chassis]), r) == []


@pytest.mark.parametrize("kind", ["oilandiron", "hundred_days"])
def test_a_new_campaign_refused_keeps_what_was_typed_and_chosen(client, kind):
    page = fields(client.get("/campaigns")).values
    if kind == "oilandiron":
        squadrons = page["p1-squadron"]
        sent = MultiDict({"kind": kind, "name": "Iron Summer", "p1-name": "Tom", "p2-name": "",
                          "p1-squadron": squadrons[0], "p2-squadron": squadrons[0], "tables": page["tables"][0]})
    else:
        sent = MultiDict({"kind": kind, "name": "Hundred Days", "french": "Marie", "coalition": "",
                          "recovery": "roll"})
    r = client.post("/campaigns/new", data=sent)
    assert r.status_code == 422
    assert kept(MultiDict([(k, v) for k, v in sent.items(multi=True) if k != "kind"]), r) == []


def test_a_game_setting_refused_keeps_the_value_typed(client, game_id, table):
    r = client.get(f"/games/{game_id}/settings")
    number = next(row for row in _setting_rows(r) if row[1] == "number")[0]
    sent = MultiDict({"version": str(table.version), "name": number, "value": "-7"})
    r = client.post(f"/games/{game_id}/act/change_setting", data=sent)
    assert r.status_code == 422
    drawn = fields(r)
    assert "-7" in drawn.values["value"] and "value" in drawn.bad


def _setting_rows(response):
    page = response.get_data(as_text=True)
    return [(m.group(1), "number" if 'type="number"' in m.group(2) else "other")
            for m in re.finditer(r'name="name" value="([^"]+)">(.*?)</form>', page, re.S)]


def test_a_campaign_setting_and_an_override_refused_keep_what_was_typed(app, client):
    c = client.post("/campaigns/new", data={"kind": "hundred_days", "name": "HD", "french": "Marie",
                                            "coalition": "Tom", "recovery": "half"})
    assert c.status_code == 303
    url = c.headers["Location"]
    campaign_id = int(url.rsplit("/", 1)[1])
    settings = client.get(f"{url}/settings")
    with db_session(app.extensions["referee.engine"]) as s:
        v = tc.get_campaign(s, campaign_id).version
    # Another tablet changed the campaign since this page was drawn: the override is refused.
    sent = MultiDict({"version": str(v + 5), "field": fields(settings).values["field"][0], "value": "not a number at all",
                      "reason": "The dice rolled off the table", "who": "Umpire Ann"})
    r = client.post(f"{url}/act/umpire_override", data=sent)
    assert r.status_code == 409 and "Umpire override" in r.get_data(as_text=True)
    assert kept(sent, r) == []
    # A setting refused (a value it cannot take) comes back on the settings page with the value typed.
    sent = MultiDict({"version": str(v), "name": "major_margin", "value": "lots"})
    r = client.post(f"{url}/act/change_setting", data=sent)
    assert r.status_code == 422 and "Settings and overrides" in r.get_data(as_text=True)
    assert "lots" in fields(r).values["value"] and "value" in fields(r).bad
