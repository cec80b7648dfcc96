"""The forms that were last sent by the browser itself (a Hundred Days step, a saved list's
rename, the Foe's "Carry it out" and its settings), now sent through the tablet's htmx: a refusal
is drawn on the form's own page, answered 200 with its true status in ``X-Refused``; a step done
leads the tablet on, and a step that leads back to the page it was taken on draws that page again
(``HX-Refresh``: the browser alone would only scroll to the anchor, showing the page as it was)."""
from __future__ import annotations

import re

from _web_helpers import text
from test_foe_pages import answer_until_decided, new_quatre_bras
from test_page_forms import PAGE_FORM

HERE = "http://localhost"


def _hundred_days(client) -> str:
    made = client.post("/campaigns/new", data={"kind": "hundred_days", "name": "1815", "french": "Marie",
                                               "coalition": "Tom", "recovery": "half"})
    return made.headers["Location"]


def _version(client, url: str) -> str:
    return re.search(r'name="version" value="(\d+)"', client.get(url).get_data(as_text=True)).group(1)


def test_a_hundred_days_step_done_draws_the_campaign_page_again(client):
    url = _hundred_days(client)
    on_page = {**PAGE_FORM, "HX-Current-URL": HERE + url}
    started = client.post(url + "/start", headers=on_page,
                          data={"version": _version(client, url), "battle": "ligny"})
    assert started.status_code == 204 and re.fullmatch(r"/games/\d+", started.headers["HX-Redirect"])
    assert "HX-Refresh" not in started.headers  # another page: the tablet loads it
    undone = client.post(url + "/undo", headers=on_page, data={"version": _version(client, url)})
    assert undone.status_code == 204 and undone.headers["HX-Redirect"] == url + "#now"
    assert undone.headers["HX-Refresh"] == "true"  # the same page: drawn again, not only scrolled
    assert "Start Ligny from the rosters" in text(client.get(url))


def test_a_hundred_days_step_refused_is_the_campaign_page_with_the_reason(client):
    url = _hundred_days(client)
    stale = client.post(url + "/start", headers={**PAGE_FORM, "HX-Current-URL": HERE + url},
                        data={"version": "0", "battle": "ligny"})
    assert stale.status_code == 200 and stale.headers["X-Refused"] == "409"
    assert stale.headers["HX-Push-Url"] == "false"
    page = text(stale)
    assert "Start Ligny from the rosters" in page and "changed" in page.lower()
    # Sent by a browser without JavaScript: the same page with its true status.
    assert client.post(url + "/start", data={"version": "0", "battle": "ligny"}).status_code == 409


def test_a_refused_rename_keeps_the_list_page_and_what_was_typed(client):
    client.post("/lists/owner", data={"owner": "Arthur"})
    copied = client.post("/lists/examples/" + _an_example(client))
    list_url = copied.headers["Location"]
    answer = client.post(list_url + "/rename", headers=PAGE_FORM, data={"name": "   "})
    assert answer.status_code == 200 and answer.headers["X-Refused"] == "422"
    body = answer.get_data(as_text=True)
    assert "A list needs a name." in body and 'name="name" value="   "' in body and "Rename" in body
    done = client.post(list_url + "/rename", headers=PAGE_FORM, data={"name": "Ridge and village"})
    assert done.status_code == 204 and done.headers["HX-Redirect"] == list_url
    assert "Ridge and village" in text(client.get(list_url))


def _an_example(client) -> str:
    page = client.get("/lists/").get_data(as_text=True)
    return re.search(r'action="/lists/examples/([^"/]+)"', page).group(1)


def test_a_foe_decision_refused_is_the_foe_screen_with_the_reason(client):
    where = new_quatre_bras(client)
    game_id = int(where.split("/")[2])
    url, html = answer_until_decided(client, where)
    answers = re.search(r'name="answers" value="([^"]*)"', html).group(1).replace("&#34;", '"')
    stale = client.post(f"/games/{game_id}/act/foe_decide", headers=PAGE_FORM,
                        data={"version": "9999", "answers": answers, "next": where})
    assert stale.status_code == 200 and stale.headers["X-Refused"] == "409"
    page = text(stale)
    assert "Carry it out" in page and "Referee plays French" in page  # the Foe's screen, its decision again
    assert re.search(r'class="message" role="alert">[^<]+', stale.get_data(as_text=True))
    done = client.post(f"/games/{game_id}/act/foe_decide", headers=PAGE_FORM,
                       data={"version": _version(client, url), "answers": answers, "next": where})
    assert done.status_code == 204 and done.headers["HX-Redirect"].endswith(f"/games/{game_id}/foe")


def test_foe_settings_refused_are_the_settings_page(client):
    where = new_quatre_bras(client)
    game_id = int(where.split("/")[2])
    refused = client.post(f"/games/{game_id}/act/foe_settings", headers=PAGE_FORM,
                          data={"version": "9999", "side": "red", "next": where})
    assert refused.status_code == 200 and refused.headers["X-Refused"] == "409"
    assert "Play alone: Referee commands a side" in text(refused)
    assert client.post(f"/games/{game_id}/act/foe_settings",
                       data={"version": "9999", "side": "red", "next": where}).status_code == 409
