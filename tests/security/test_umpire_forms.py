"""A seated player's tablet is refused the umpire's forms when it asks for them (Next phase, ending
the battle, a correction, the settings), not after filling them in; its own side's forms open."""
from __future__ import annotations

import re

import pytest
from _security_helpers import db, log_in

from referee.table import roles, service

HTMX = {"HX-Request": "true"}


def _seated(app, side="blue"):
    umpire = log_in(app.test_client(), "Ann")
    r = umpire.post("/games/new", data={"scenario": "demo"})
    game_id = int(re.search(r"/games/(\d+)", r.headers["Location"]).group(1))
    with db(app) as s:
        codes = roles.join_codes(s, service.get_game(s, game_id))
    player = app.test_client()
    assert player.post("/join", data={"code": codes[side]}).status_code == 303
    return umpire, player, game_id


@pytest.mark.parametrize("action", ["next_phase", "end_battle", "adjust_brigade", "adjust_unit", "change_setting"])
def test_the_umpires_forms_are_refused_when_asked_for(club_app, action):
    umpire, player, game_id = _seated(club_app)
    for headers in ({}, HTMX):
        answer = player.get(f"/games/{game_id}/act/{action}", headers=headers)
        body = answer.get_data(as_text=True)
        assert answer.status_code == 403, action
        assert "Only the umpire" in body
        assert 'class="action-form' not in body  # no form to fill in
    assert umpire.get(f"/games/{game_id}/act/{action}").status_code == 200


def test_the_settings_page_is_the_umpires(club_app):
    umpire, player, game_id = _seated(club_app)
    answer = player.get(f"/games/{game_id}/settings")
    assert answer.status_code == 403 and "Only the umpire" in answer.get_data(as_text=True)
    assert umpire.get(f"/games/{game_id}/settings").status_code == 200


def test_a_players_own_forms_still_open(club_app):
    _umpire, player, game_id = _seated(club_app)
    assert player.get(f"/games/{game_id}/act/shoot?shooter=11th-leger").status_code == 200
    assert player.get(f"/games/{game_id}/act/order").status_code == 200


def test_a_spectator_is_refused_every_form(club_app):
    _umpire, watcher, game_id = _seated(club_app, "spectator")
    answer = watcher.get(f"/games/{game_id}/act/shoot?shooter=11th-leger")
    assert answer.status_code == 403 and "Spectators watch" in answer.get_data(as_text=True)


def test_a_players_pick_lists_offer_their_own_side_to_act_and_the_enemy_first(club_app):
    _umpire, player, game_id = _seated(club_app, "red")  # the Prussians, while the French are to play
    body = player.get(f"/games/{game_id}/act/charge").get_data(as_text=True)
    start = body.index('id="f-chargers"')
    chargers = re.findall(r'name="chargers" value="([^"]+)"', body[start:body.find("</fieldset>", start)])
    start = body.index('id="f-target"')
    targets = re.findall(r'name="target" value="([^"]+)"', body[start:body.find("</fieldset>", start)])
    assert "1-7th-musketeers" in chargers and "11th-leger" not in chargers
    assert targets[0] == "11th-leger"  # the French, this seat's enemy, first
