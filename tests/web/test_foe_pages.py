"""Playing alone through the app: starting Quatre Bras with "Referee plays the French", the Foe's
questions one tap each, its decision carried out through the one write path (logged, undone),
overruled, and its settings page."""
from __future__ import annotations

import re

from _web_helpers import start_form

from referee.core.foe_actions import decode_answers
from referee.table import game_log, service


def new_quatre_bras(client, foe="blue"):
    r = client.post("/games/new", data={"scenario": "quatre-bras", "foe": foe})
    assert r.status_code == 303
    return r.headers["Location"]


def answer_until_decided(client, url):
    for _ in range(10):
        html = client.get(url).get_data(as_text=True)
        if "Carry it out" in html:
            return url, html
        links = re.findall(r'class="btn foe-answer[^"]*"[^>]*href="([^"]+)"', html)
        assert links, html[:3000]
        url = links[1].replace("&amp;", "&")  # the second option: a nearer band, the next enemy
    raise AssertionError("the Foe never decided")


def test_starting_a_game_with_referee_playing_the_french(client, db):
    where = new_quatre_bras(client)
    assert re.search(r"/games/\d+/foe$", where)
    game_id = int(where.split("/")[2])
    game = service.get_game(db, game_id)
    assert game.state["foe"]["side"] == "blue"
    assert game_log.log(db, game_id)[0].action == "foe_settings"
    html = client.get(where).get_data(as_text=True)
    assert "Referee plays French" in html and "Can&#39;t tell" in html
    # The scenario's posture for this turn, with its reason: Ney all out on turns 1-4.
    posture = re.search(r'id="foe-posture">(.*?)</p>', html, re.S).group(1)
    assert "This turn: All out." in posture and "Wellington&#39;s reinforcements" in posture
    url, html = answer_until_decided(client, where)
    answers = decode_answers(re.search(r'name="answers" value="([^"]*)"', html).group(1).replace("&#34;", '"'))
    assert answers
    db.expire_all()
    version = service.get_game(db, game_id).version
    r = client.post(f"/games/{game_id}/act/foe_decide", data={
        "version": version, "answers": ";".join(f"{k}={v}" for k, v in answers.items()), "next": where})
    assert r.status_code == 303 and r.headers["Location"].endswith("/foe")
    db.expire_all()
    entry = game_log.log(db, game_id)[0]
    assert entry.action == "foe_decide" and entry.result["data"]["decision"]["rung"]
    assert any(n.startswith("Asked:") for n in entry.result["notes"])
    # The log links the decision to the rules reference entry behind its rung.
    ref = entry.result["data"]["decision"]["reference"]
    log = client.get(f"/games/{game_id}/log").get_data(as_text=True)
    assert re.search(rf'class="foe-rule">The rule behind its rung: <a class="rule-link" href="/rules/blackpowder/{ref}"',
                     log)
    # Undone like any other action.
    r = client.post(f"/games/{game_id}/undo", data={"version": service.get_game(db, game_id).version})
    db.expire_all()
    assert game_log.log(db, game_id)[0].undone


def test_overrule_is_logged(client, db):
    where = new_quatre_bras(client)
    game_id = int(where.split("/")[2])
    url, html = answer_until_decided(client, where)
    answers = re.search(r'name="answers" value="([^"]*)"', html).group(1)
    r = client.post(f"/games/{game_id}/act/foe_overrule", data={
        "version": service.get_game(db, game_id).version, "answers": answers, "reason": "the hedge"})
    assert r.status_code == 303
    db.expire_all()
    entry = game_log.log(db, game_id)[0]
    assert entry.action == "foe_overrule" and entry.result["data"]["overruled"] == "the hedge"


def test_the_foe_settings_page_declares_and_the_board_links_to_its_turn(client, db, game_id):
    html = client.get(f"/games/{game_id}/foe/settings").get_data(as_text=True)
    assert "Referee plays" in html and "Ties go against the player" in html
    r = client.post(f"/games/{game_id}/act/foe_settings", data={
        "version": service.get_game(db, game_id).version, "side": "red", "difficulty": "hard", "ties": "draw",
        "seed": "5"})
    assert r.status_code in (200, 303)
    db.expire_all()
    assert service.get_game(db, game_id).state["foe"] == {
        "side": "red", "difficulty": "hard", "ties": "draw", "seed": 5, "decided": [],
        "declared": {"red": {"difficulty": "hard", "ties": "draw", "seed": 5}}}
    board = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Referee&#39;s turn" in board or "Referee's turn" in board, board[board.find("status-top"):][:1500]
    # Nothing for it to do in Blue's turn: it says so.
    assert "Your move" in client.get(f"/games/{game_id}/foe").get_data(as_text=True)


def test_bad_answers_change_nothing(client, db):
    where = new_quatre_bras(client)
    game_id = int(where.split("/")[2])
    assert client.get(where + "?answers=%3D%3D%3B;;x=y").status_code == 200
    before = service.get_game(db, game_id).version
    r = client.post(f"/games/{game_id}/act/foe_decide", data={"version": before, "answers": "nonsense"})
    assert r.status_code == 422
    db.expire_all()
    assert service.get_game(db, game_id).version == before


def test_starting_an_engagement_with_referee_playing_a_squadron(client, db):
    r = client.post("/games/new/oilandiron", data=start_form("point_of_control", foe="p2"))
    assert r.status_code == 303 and r.headers["Location"].endswith("/foe")
    game_id = int(r.headers["Location"].split("/")[2])
    assert service.get_game(db, game_id).state["foe"]["side"] == "p2"
    html = client.get(r.headers["Location"]).get_data(as_text=True)
    assert "Referee plays Ben" in html and "Carry it out" in html  # it rolls initiative first


def test_a_side_without_a_posture_shows_none(client, db):
    where = new_quatre_bras(client, foe="red")
    assert 'id="foe-posture"' not in client.get(where).get_data(as_text=True)


def test_the_charge_form_shows_referees_answer_before_resolve(client, db):
    """The player charges one of Referee's units: the charge form offers overruling Referee, and
    its odds line, drawn before Resolve, says how Referee's unit answers and why."""
    where = new_quatre_bras(client, foe="red")
    game_id = int(where.split("/")[2])
    state = service.get_game(db, game_id).state
    units = [u for u in state["units"].values() if u.get("in_play", True) and not u.get("reserve")]
    charger = next(u for u in units if u["side"] == "blue" and u["type"] == "cavalry")
    target = next(u for u in units if u["side"] == "red" and u["type"] == "infantry")
    form = client.get(f"/games/{game_id}/act/charge?chargers={charger['id']}", headers={"HX-Request": "true"})
    assert "Overrule Referee" in form.get_data(as_text=True)
    q = f"chargers={charger['id']}&target={target['id']}&facing=front&response=stand"
    odds = client.get(f"/games/{game_id}/act/charge/odds?{q}", headers={"HX-Request": "true"}).get_data(as_text=True)
    said = odds.replace("&#39;", "'")
    # Cavalry at the front of an Allied line battalion with Form Square: the rules force the square.
    assert f"Referee answers for Allied Army: {target['name']} — form square. It must try" in said
    assert "Form square order:" in said  # the odds are those of Referee's answer, not the form's "stand"
