"""Every page renders as a whole page, and as the fragment htmx asks for."""
from __future__ import annotations

import re

import pytest
from _web_helpers import HTMX, text
from markupsafe import escape

from referee.blackpowder import SYSTEM
from referee.data import list_scenarios
from referee.data.scenario_balance import balances


def test_home_page_lists_the_games(client, game_id):
    r = client.get("/")
    assert r.status_code == 200
    assert "Demo" in text(r)
    assert f'href="/games/{game_id}"' in r.get_data(as_text=True)


def test_a_fresh_database_gets_the_demo_battle(tmp_path):
    from referee import create_app
    app = create_app({"SECRET_KEY": "x", "DATABASE_URL": f"sqlite:///{tmp_path / 'fresh.sqlite'}",
                      "WTF_CSRF_ENABLED": False})
    body = text(app.test_client().get("/"))
    assert "Demo: Saint-Amand skirmish" in body
    # A second start on the same database does not seed it again.
    app2 = create_app({"SECRET_KEY": "x", "DATABASE_URL": f"sqlite:///{tmp_path / 'fresh.sqlite'}"})
    assert text(app2.test_client().get("/")).count("Demo: Saint-Amand skirmish") == 1


def test_the_board_shows_turn_sequence_brigades_and_unit_cards(client, game_id):
    r = client.get(f"/games/{game_id}")
    assert r.status_code == 200
    body = text(r)
    for words in ("Turn 1", "French Command", "Prussians Hand-to-Hand", "7th Division", "Girard",
                  "Staff Rating 8", "11th Léger", "Sharp Shooters", "Mixed Formation", "Next phase",
                  "2/2 brigades intact", "Game log", "Undo"):
        assert words in body, words
    html = r.get_data(as_text=True)
    assert 'aria-current="step"' in html
    assert 'hx-trigger="every 700ms, board-changed from:body" data-spread="100"' in html
    assert "vendor/htmx.min.js" in html
    assert 'hx-headers=\'{"X-CSRFToken"' in html


@pytest.mark.parametrize("path", ["/games/new", "/games/new/forces", "/games/{id}/log", "/games/{id}/settings",
                                  "/games/{id}/units/11th-leger", "/games/{id}/act/order"])
def test_each_page_renders_whole(client, game_id, path):
    r = client.get(path.format(id=game_id))
    assert r.status_code == 200
    assert r.get_data(as_text=True).lstrip().lower().startswith("<!doctype html>")


def test_every_registered_action_has_a_form(client, game_id):
    for name in SYSTEM.actions:
        r = client.get(f"/games/{game_id}/act/{name}")
        assert r.status_code == 200, name
        assert f'action="/games/{game_id}/act/{name}"' in r.get_data(as_text=True)


def test_a_unit_panel_for_htmx_is_a_fragment_with_its_actions(client, game_id):
    r = client.get(f"/games/{game_id}/units/11th-leger", headers=HTMX)
    html = r.get_data(as_text=True)
    assert r.status_code == 200
    assert not html.lstrip().lower().startswith("<!doctype")
    assert 'id="panel"' in html
    assert f"/games/{game_id}/act/shoot?shooter=11th-leger" in html
    assert f"/games/{game_id}/act/charge?chargers=11th-leger" in html
    assert f"/games/{game_id}/act/break_test?unit=11th-leger" in html
    assert "Set casualties" in html and "Set formation" in html


def test_the_order_form_draws_chips_segments_toggles_and_steppers(client, game_id):
    html = client.get(f"/games/{game_id}/act/order?units=11th-leger").get_data(as_text=True)
    # Units of the side to play only, as chips; the pre-picked one is checked.
    assert 'type="checkbox" name="units" value="11th-leger" checked' in html
    assert 'value="1-7th-musketeers"' not in html
    assert 'type="radio" name="order" value="move" checked' in html
    assert 'class="toggle"' in html and 'name="enemy_within_12"' in html
    assert 'data-step="1"' in html and 'name="distance_steps"' in html
    assert "Situation" in html  # group heading
    assert f'hx-get="/games/{game_id}/act/order/odds"' in html


def test_shoot_offers_both_sides_and_marks_the_chips_by_side(client, game_id):
    html = client.get(f"/games/{game_id}/act/shoot").get_data(as_text=True)
    assert 'name="target" value="1-7th-musketeers"' in html
    assert "tone-red" in html and "tone-blue" in html


@pytest.mark.parametrize("path, field", [("shoot?shooter=11th-leger", "target"),
                                         ("charge?chargers=82nd-ligne", "target"),
                                         ("shoot?shooter=1-7th-musketeers", "target")])
def test_a_targets_enemies_come_first(client, game_id, path, field):
    html = client.get(f"/games/{game_id}/act/{path}").get_data(as_text=True)
    targets = html[html.index(f'id="f-{field}"'):]
    french, prussian = targets.index('value="12th-leger"'), targets.index('value="1-29th-musketeers"')
    assert (prussian < french) == ("leger" in path or "ligne" in path)


def test_unknown_game_unit_or_action_is_404(client, game_id):
    assert client.get("/games/999").status_code == 404
    assert client.get(f"/games/{game_id}/units/nobody").status_code == 404
    assert client.get(f"/games/{game_id}/act/teleport").status_code == 404


def test_the_settings_page_lists_every_setting_with_its_description(client, game_id):
    from referee.blackpowder.model import Settings
    body = text(client.get(f"/games/{game_id}/settings"))
    for name, description in Settings.DESCRIPTIONS.items():
        assert Settings.TITLES.get(name, name.replace("_", " ").capitalize()) in body
        assert description.split(".")[0][:40] in body


def test_odds_line_for_a_shot(client, game_id):
    r = client.get(f"/games/{game_id}/act/shoot/odds?shooter=11th-leger&target=1-7th-musketeers&range_band=short",
                   headers=HTMX)
    assert r.status_code == 200
    assert "%" in text(r)


def test_odds_line_says_what_is_missing(client, game_id):
    r = client.get(f"/games/{game_id}/act/shoot/odds?shooter=11th-leger", headers=HTMX)
    assert "Odds: Target: nothing chosen yet" in text(r)


def test_without_javascript_the_odds_come_back_on_the_form(client, game_id):
    form = client.get(f"/games/{game_id}/act/shoot").get_data(as_text=True)
    # The button posts, so the form's CSRF token is never written into a URL; htmx leaves it out.
    assert f'formaction="/games/{game_id}/act/shoot/odds" formmethod="post"' in form
    assert 'hx-params="not csrf_token"' in form
    r = client.post(f"/games/{game_id}/act/shoot/odds",
                    data={"shooter": "11th-leger", "target": "1-7th-musketeers", "range_band": "short"})
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and html.lstrip().lower().startswith("<!doctype html>")
    assert 'class="odds-lines"' in html and "%" in text(r)
    assert 'name="target" value="1-7th-musketeers" checked' in html


def test_a_combat_names_a_unit_already_removed_as_such():
    from referee.blackpowder.board_view import combats
    from referee.blackpowder.combat_records import new_combat_record
    from referee.blackpowder.model import Battle
    from referee.data.scenarios import new_battle_from_scenario
    doc = new_battle_from_scenario("demo")
    doc["combats"] = {"c1": new_combat_record("c1", ["4th-chasseurs-a-cheval"], ["1-29th-musketeers"], turn=1)}
    doc["units"]["1-29th-musketeers"]["destroyed"] = True
    (shown,) = combats(Battle.from_doc(doc))
    assert shown["label"] == "4th Chasseurs à Cheval against 1/29th Musketeers (removed)"


def test_settings_are_headed_in_the_players_words(client, game_id):
    page = text(client.get(f"/games/{game_id}/settings"))
    assert "Prussians are Tough Fighters against the French" in page and "Prussians tough vs french" not in page
    assert "Hand to hand" in page  # a choice's button, capitalised


def test_the_combat_form_lists_that_combats_fighters_and_each_sides_possible_supports(client, db):
    from referee.blackpowder.combat_records import new_combat_record
    from referee.data.scenarios import new_battle_from_scenario
    from referee.table import service
    doc = new_battle_from_scenario("demo")
    doc["combats"] = {"c1": new_combat_record("c1", ["82nd-ligne"], ["2-7th-musketeers"], turn=1)}
    gid = service.create_game(db, "Fight", "blackpowder", doc).id
    html = client.get(f"/games/{gid}/act/combat_round?combat=c1").get_data(as_text=True)

    def listed(field):
        start = html.index(f'id="f-{field}"')
        block = html[start:html.index("</fieldset>", start)]
        return re.findall(r'name="' + field + r'" value="([^"]+)"', block)
    assert set(listed("attackers_strike")) - {""} == {"82nd-ligne", "2-7th-musketeers"}
    behind = listed("attacker_rear_support")
    assert "4th-ligne" in behind and "82nd-ligne" not in behind and "1-7th-musketeers" not in behind
    assert "1-7th-musketeers" in listed("defender_left_support")
    # Picking another combat draws the form again for it.
    assert f'hx-get="/games/{gid}/act/combat_round"' in html


def test_a_combat_that_fought_this_phase_offers_no_fight_round_button(client, db):
    from referee.blackpowder.combat_records import new_combat_record
    from referee.data.scenarios import new_battle_from_scenario
    from referee.table import service
    doc = new_battle_from_scenario("demo")
    doc["phase"] = "hand_to_hand"
    fought = new_combat_record("c1", ["82nd-ligne"], ["2-7th-musketeers"], turn=1)
    fought["fought"] = [doc["turn"], doc["active_side"]]
    doc["combats"] = {"c1": fought, "c2": new_combat_record("c2", ["4th-ligne"], ["1-7th-musketeers"], turn=1)}
    gid = service.create_game(db, "Fight", "blackpowder", doc).id
    html = client.get(f"/games/{gid}").get_data(as_text=True)
    assert "combat_round?combat=c1" not in html and "combat_round?combat=c2" in html
    assert "Fought this phase" in html


def test_a_run_of_dice_for_the_same_thing_is_labelled_once(app):
    from referee.core.results import Die, Result
    dice = (Die(4, 6, "82nd Ligne: attacks"), Die(1, 6, "82nd Ligne: attacks"), Die(6, 6, "save"))
    with app.test_request_context():
        html = app.jinja_env.from_string('{% from "macros.html" import result %}{{ result(r) }}').render(
            r=Result("combat_round", "A round", dice=dice))
    assert html.count('class="face"') == 3
    assert html.count("82nd Ligne: attacks") == 1 and html.count(">save<") == 1


def test_the_scenario_picker_shows_each_sides_strength_by_arm(client):
    # Issue 38: where a scenario is picked, its strength by side and arm, counted from its file.
    page = client.get("/games/new").get_data(as_text=True)
    ligny = page[page.index("Ligny"):]
    ligny = ligny[:ligny.index("</form>")]
    assert 'class="strengths"' in ligny
    assert "<th scope=\"row\">French</th>" in ligny and "<td>16</td><td>1</td><td>4</td>" in ligny


def test_the_scenario_picker_shows_each_scenarios_measured_balance(client):
    # Issue 50: beside the strengths, how often each side won when Referee played both sides
    # equally, read from the file the selfplay command wrote (scenarios/balance/blackpowder.json).
    measured = balances()
    assert {"quatre-bras", "waterloo", "ligny-saint-amand"} <= set(measured)
    page = client.get("/games/new").get_data(as_text=True)
    for info in list_scenarios():
        section = page[page.index(f"<h2>{escape(info.title)}"):]
        section = section[:section.index("</form>")]
        if info.id not in measured:
            assert "Referee v Referee" not in section
            continue
        b = measured[info.id]
        assert "<th scope=\"col\">Wins, Referee v Referee</th>" in section
        cells = [f"<td>{b.share(side)}</td></tr>" for side in ("blue", "red")]
        assert all(c in section for c in cells), (info.id, cells)
        assert str(escape(b.words())) in section


def test_a_unit_that_carried_losses_into_the_battle_says_so_on_its_card(client, game_id):
    """The Hundred Days starts a battle with the losses of the one before (``carried``)."""
    from referee.table import service
    from referee.web.db import session
    with client.application.app_context():
        db = session()
        game = service.get_game(db, game_id)
        state = {**game.state, "units": {**game.state["units"],
                                         "11th-leger": {**game.state["units"]["11th-leger"], "casualties": 2,
                                                        "carried": 2}}}
        game.state = state
        game.version += 1  # as every write does: a game's document is kept by its version
        db.add(game)
        db.commit()
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    card = html[html.index('id="unit-11th-leger"'):]
    card = card[:card.index("</a>")]
    assert "2 lost before this battle" in card
    assert "lost before this battle" not in html.replace(card, "")


def test_the_end_of_battle_form_names_the_sides_not_blue_and_red(client, game_id):
    body = text(client.get(f"/games/{game_id}/act/end_battle"))
    assert "French win" in body and "Prussians win" in body
    assert "Blue wins" not in body and "Red wins" not in body


def test_a_change_without_words_never_shows_a_dictionary_or_a_path_of_ids(client):
    from referee.core.results import Change, Result
    r = Result("x", "Something happened", changes=(
        Change(("rosters", "p2", "rigs", "r3", "history"), {"recovered": 0}, {"recovered": 1}, ""),
        Change(("players", "p1", "heat_level"), 2, 3, "")))
    with client.application.test_request_context():
        html = client.application.jinja_env.from_string(
            '{% from "macros.html" import result %}{{ result(r) }}').render(r=r)
    assert "History changed" in html and "Heat level: 2 → 3" in html
    assert "{" not in html.replace("{{", "") and "p2" not in html and "r3" not in html


def test_the_odds_of_an_order_with_no_unit_picked_say_so_plainly(client, game_id):
    body = text(client.get(f"/games/{game_id}/act/order/odds?order=move"))
    assert "nothing chosen yet" in body and "validation" not in body and "List should" not in body
