"""A change reaches the other tablets as what changed: the poll after a correction to one unit
sends that unit's card, its brigade's line, the status bars and the new log line out of band, not
the board; a change the board skeleton shows (a new phase) sends the units part whole; a version
the server no longer keeps gets everything, as before."""
from __future__ import annotations

import json
import re

from _web_helpers import HTMX

from referee.web.serving.live import cut, drawings, out_of_band

TAG = re.compile(r"<\w+\b[^>]*>")


def swapped(body: str) -> dict[str, str]:
    """Each element the answer swaps out of band: id -> how."""
    out = {}
    for tag in TAG.findall(body):
        how, name = re.search(r'\shx-swap-oob="([^"]+)"', tag), re.search(r'\sid="([^"]+)"', tag)
        if how and name:
            out[name.group(1)] = how.group(1)
    return out


def _page(client, game_id) -> int:
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    return int(re.search(r'id="poll"[^>]*data-version="(\d+)"', html).group(1))


def _correct(client, game_id, version, unit, field="casualties", value="1"):
    return client.post(f"/games/{game_id}/act/adjust_unit", headers=HTMX,
                       data={"version": version, "unit": unit, "field": field, "value": value})


def test_a_poll_after_a_change_to_one_unit_sends_its_card_not_the_board(client, table):
    blue = [u for u, d in table.state["units"].items() if d["side"] == "blue"]
    assert _correct(client, table.id, table.version, blue[1]).status_code == 200  # the log has begun
    seen = _page(client, table.id)  # the tablet shows this version
    unit = blue[0]
    brigade = table.state["units"][unit]["brigade"]
    assert _correct(client, table.id, seen, unit, "disordered", "yes").status_code == 200

    r = client.get(f"/games/{table.id}/poll?v={seen}", headers=HTMX)
    body = r.get_data(as_text=True)
    assert r.status_code == 200
    parts = swapped(body)
    assert parts.pop(f"unit-{unit}") == "true"
    assert parts.pop(f"brigade-line-{brigade}") == "true"  # its count of disordered units
    # The status bars go only as the bars drawn differently (none here: a disorder changes no bar).
    assert "status" not in parts
    for bar in [k for k in parts if k.startswith("status-")]:
        assert parts.pop(bar) == "true"
    assert parts.pop("log-entries") == "afterbegin"
    # Undo was open before and is after: the buttons differ only in the version they post, which
    # the board's buttons take from the poller (static/referee.js), so they are not sent again.
    assert "log-buttons" not in parts
    assert parts == {}, f"more than the change was sent: {sorted(parts)}"
    assert set(re.findall(r'name="version" value="(\d+)"', body)) <= {str(table.version)}
    assert 'id="units"' not in body
    assert len(body.encode()) < 10_000
    # The new log line, the card showing the disorder, and the poller carrying the new version.
    assert re.search(r'<li class="entry" id="log-entry-2">', body)
    card = re.search(rf'<div [^>]*id="unit-{unit}".*?</a>\s*</div>', body, re.S).group(0)
    assert 'data-attention="1"' in card and "Disordered" in card
    assert re.search(rf'id="poll"[^>]*data-version="{table.version}"', body)
    # Nothing new since: an empty answer.
    assert client.get(f"/games/{table.id}/poll?v={table.version}", headers=HTMX).status_code == 204


def test_the_tablet_that_wrote_gets_its_result_then_the_same_changes_by_its_poll(client, table):
    seen = _page(client, table.id)
    unit = next(iter(table.state["units"]))
    r = _correct(client, table.id, seen, unit, "disordered", "yes")
    body = r.get_data(as_text=True)
    # The result alone, and the event on which the board's poll asks at once (templates/games/_poll.html).
    assert body.startswith('<section id="panel"') and swapped(body) == {}
    assert json.loads(r.headers["HX-Trigger"]) == {"board-changed": {"version": table.version, "own": True}}
    poll = client.get(f"/games/{table.id}/poll?v={seen}", headers=HTMX).get_data(as_text=True)
    parts = swapped(poll)
    assert f"unit-{unit}" in parts and "units" not in parts
    assert re.search(rf'id="poll"[^>]*data-version="{table.version}"', poll)
    # Another tablet showing the same version is sent the very same bytes.
    other = client.application.test_client()
    assert other.get(f"/games/{table.id}/poll?v={seen}", headers=HTMX).get_data(as_text=True) == poll


def test_a_stale_tablet_is_shown_the_fresh_board_with_the_refusal(client, table):
    seen = _page(client, table.id)
    units = list(table.state["units"])
    assert _correct(client, table.id, seen, units[0], "disordered", "yes").status_code == 200
    # Refused before any tablet has had the new version drawn: the refusal draws nothing and names
    # the event on which the board's poll asks at once.
    r = _correct(client, table.id, seen, units[1], "disordered", "yes")
    assert r.status_code == 409 and swapped(r.get_data(as_text=True)) == {}
    assert json.loads(r.headers["HX-Trigger"]) == {"board-changed": {"version": table.version}}
    with client.application.app_context():
        assert drawings().get(table.id, table.version) is None
    # The winner's board has asked for it since (its own poll): a refusal now carries the change.
    client.get(f"/games/{table.id}/poll?v={seen}", headers=HTMX)
    r = _correct(client, table.id, seen, units[1], "disordered", "yes")
    assert r.status_code == 409 and "HX-Trigger" not in r.headers
    parts = swapped(r.get_data(as_text=True))
    assert parts["poll"] == "true" and f"unit-{units[0]}" in parts


def test_an_undo_is_sent_as_the_cards_it_puts_back(client, table):
    seen = _page(client, table.id)
    unit = next(iter(table.state["units"]))
    assert _correct(client, table.id, seen, unit).status_code == 200
    after = table.version
    client.get(f"/games/{table.id}/poll?v={seen}", headers=HTMX)  # the other tablet follows
    assert client.post(f"/games/{table.id}/undo", headers=HTMX, data={"version": after}).status_code == 200
    body = client.get(f"/games/{table.id}/poll?v={after}", headers=HTMX).get_data(as_text=True)
    parts = swapped(body)
    assert f"unit-{unit}" in parts and "units" not in parts
    assert parts.get("log-entry-1") == "true"  # the line now marked undone
    assert 'class="entry undone" id="log-entry-1"' in body


def test_the_other_side_to_play_sends_the_side_lines_and_turn_bar_not_the_board(client, table):
    side = table.state["active_side"]
    while table.state["phase"] != "hand_to_hand":
        assert client.post(f"/games/{table.id}/act/next_phase", headers=HTMX,
                           data={"version": table.version, "confirm": "on"}).status_code == 200
    seen = _page(client, table.id)
    r = client.post(f"/games/{table.id}/act/next_phase", headers=HTMX, data={"version": table.version, "confirm": "on"})
    assert r.status_code == 200 and table.state["active_side"] != side
    body = client.get(f"/games/{table.id}/poll?v={seen}", headers=HTMX).get_data(as_text=True)
    parts = swapped(body)
    assert "units" not in parts and not any(k.startswith("unit-") for k in parts)  # no card changes
    assert parts.get("side-line-blue") == parts.get("side-line-red") == "true"  # "to play" moves
    assert re.search(rf'id="status-turn" data-active-side="{table.state["active_side"]}"', body)
    assert len(body.encode()) < 10_000


def test_a_new_phase_sends_the_turn_bar_not_the_whole_status(client, table):
    seen = _page(client, table.id)
    r = client.post(f"/games/{table.id}/act/next_phase", headers=HTMX, data={"version": table.version, "confirm": "on"})
    assert r.status_code == 200
    body = client.get(f"/games/{table.id}/poll?v={seen}", headers=HTMX).get_data(as_text=True)
    parts = swapped(body)
    assert parts.get("status-turn") == "true" and "status" not in parts
    assert "status-top" not in parts  # the top bar (games, dice, settings) is as it was
    assert re.search(r'<div hx-swap-oob="true" class="turnbar" id="status-turn"[^>]*>.*?aria-current="step"', body, re.S)


def test_a_changed_piece_is_sent_as_the_parts_of_it_that_changed():
    from referee.web.serving.live import _inner_change

    old = ('<article class="c" id="rig-a"><header id="rig-a-head">A</header>'
           '<div id="rig-a-heat">1</div><ul id="rig-a-weapons"><li id="rig-a-w1">gun</li></ul></article>')
    new = old.replace(">1<", ">2<").replace(">gun<", ">gun, empty<")
    assert _inner_change(old, new) == ['<div id="rig-a-heat">2</div>', '<li id="rig-a-w1">gun, empty</li>']
    # Its own tag changed (a filter's data- attribute), or something outside its parts: sent whole.
    assert _inner_change(old, new.replace('class="c"', 'class="c out"')) is None
    assert _inner_change(old, new.replace("</article>", "<p>gone</p></article>")) is None


def test_a_version_no_longer_kept_gets_the_whole_live_part(client, table):
    unit = next(iter(table.state["units"]))
    for n in range(1, 9):
        assert _correct(client, table.id, table.version, unit, value=str(n)).status_code == 200
    body = client.get(f"/games/{table.id}/poll?v=1", headers=HTMX).get_data(as_text=True)
    parts = swapped(body)
    assert parts.get("units") == "true" and parts.get("log") == "true"


def test_a_change_is_the_same_for_every_tablet_and_its_forms_post_with_the_pages_token(database_url):
    """What changed is sent without any form's CSRF token, so every tablet showing a version gets
    the same bytes; htmx posts a board button with the page's own token (base.html's hx-headers),
    and without one the post is refused and nothing changes."""
    from referee import create_app
    from referee.data.scenarios import new_battle_from_scenario
    from referee.table import service
    from referee.table.db import session as db_session

    app = create_app({"TESTING": True, "SECRET_KEY": "tests", "DATABASE_URL": database_url, "SEED_DEMO": False})
    with db_session(app.extensions["referee.engine"]) as s:
        game = service.create_game(s, "Demo", "blackpowder", new_battle_from_scenario("demo"), seed=7)
    unit = next(iter(game.state["units"]))
    tablets = [app.test_client() for _ in range(3)]
    tokens = [re.search(r'"X-CSRFToken": "([^"]+)"', t.get(f"/games/{game.id}").get_data(as_text=True)).group(1)
              for t in tablets]
    acting = tablets[2]
    r = acting.post(f"/games/{game.id}/act/adjust_unit", headers={**HTMX, "X-CSRFToken": tokens[2]},
                    data={"version": game.version, "unit": unit, "field": "casualties", "value": "1"})
    assert r.status_code == 200
    answers = [t.get(f"/games/{game.id}/poll?v={game.version}", headers=HTMX).get_data(as_text=True)
               for t in tablets[:2]]
    assert answers[0] == answers[1] and "csrf_token" not in answers[0]
    undo = re.search(r'<form[^>]*action="(/games/\d+/undo)"', answers[0]).group(1)
    fields = {"version": game.version + 1}
    refused = tablets[0].post(undo, headers=HTMX, data=fields)
    assert refused.status_code == 400
    assert tablets[0].post(undo, headers={**HTMX, "X-CSRFToken": tokens[0]}, data=fields).status_code == 200


def test_the_board_is_cut_at_its_pieces_with_nested_ones_kept_inside():
    html = ('<section id="x"><div class="unit" id="unit-a"><div>in</div></div>'
            '<details><summary id="brigade-line-b">b</summary>'
            '<section id="combats"><li id="log-entry-9"><ul><li>die</li></ul></li></section></details></section>')
    skeleton, pieces = cut(html)
    assert list(pieces) == ["unit-a", "brigade-line-b", "combats"]
    assert pieces["unit-a"] == '<div class="unit" id="unit-a"><div>in</div></div>'
    assert pieces["combats"].endswith("</li></section>")
    assert skeleton == ('<section id="x"><!--piece unit-a--><details><!--piece brigade-line-b-->'
                        '<!--piece combats--></details></section>')
    assert out_of_band(pieces["unit-a"]).startswith('<div hx-swap-oob="true" class="unit"')


def test_cards_kept_from_earlier_drawings_are_the_cards_a_fresh_server_draws(client, table):
    from referee import create_app

    units = list(table.state["units"])
    client.get(f"/games/{table.id}")  # every card drawn once
    for unit, field, value in ((units[0], "disordered", "yes"), (units[1], "casualties", "2"),
                               (units[0], "disordered", "no"), (units[2], "formation", "square")):
        r = _correct(client, table.id, table.version, unit, field, value)
        assert r.status_code == 200, r.get_data(as_text=True)[:300]
    fresh = create_app({**{k: client.application.config[k] for k in ("SECRET_KEY", "DATABASE_URL")},
                        "TESTING": True, "WTF_CSRF_ENABLED": False, "SEED_DEMO": False}).test_client()
    unsigned = re.compile(r'(csrf_token" value="|"X-CSRFToken": "|name="token" value=")[^"]+')  # one each page

    def page(c) -> str:
        return unsigned.sub(r"\1", c.get(f"/games/{table.id}").get_data(as_text=True))
    assert page(client) == page(fresh)


def test_a_log_line_sends_its_line_and_its_details_come_when_it_is_opened(client, table):
    unit = next(iter(table.state["units"]))
    seen = _page(client, table.id)
    assert _correct(client, table.id, seen, unit, "casualties", "2").status_code == 200
    body = client.get(f"/games/{table.id}/poll?v={seen}", headers=HTMX).get_data(as_text=True)
    line = re.search(r'<li class="entry" id="log-entry-1">.*?</li>', body, re.S).group(0)
    assert 'class="changes"' not in line  # the result itself is not sent to every tablet
    detail = client.get(f"/games/{table.id}/log/1/detail", headers=HTMX)
    assert detail.status_code == 200 and 'class="changes"' in detail.get_data(as_text=True)
    # Without JavaScript the address leads to the entry on the board; an entry not in the log: 404.
    plain = client.get(f"/games/{table.id}/log/1/detail")
    assert plain.status_code == 302 and plain.headers["location"].endswith(f"/games/{table.id}/log/1")
    assert client.get(f"/games/{table.id}/log/99/detail", headers=HTMX).status_code == 404


def test_each_card_is_known_by_its_brigade_as_reading_the_whole_board_finds_it(client, table):
    """A drawing knows each card's brigade from the parts it was cut into, kept part by part
    (``prepared``), as reading its whole units part box by box finds it; after a change too."""
    from referee.web.serving.folds import brigade_of_pieces

    units = list(table.state["units"])
    client.get(f"/games/{table.id}")
    for unit in units[:2]:
        version = _page(client, table.id)
        assert _correct(client, table.id, version, unit).status_code == 200
        client.get(f"/games/{table.id}/poll?v={version}", headers=HTMX)
        shown = _page(client, table.id)
        with client.application.app_context():
            drawing = drawings().get(table.id, shown)
        assert drawing is not None and drawing.card_brigades
        assert drawing.card_brigades == brigade_of_pieces(drawing.units)
        assert set(drawing.card_brigades) == {k for k in drawing.units_pieces if k.startswith("unit-")}
