"""Every write route × every role at a club server's table → allowed or refused.

The roles: the umpire (Ann, who started the battle), the Blue player and the Red player (tablets
that joined by their side's code, no account needed), a spectator, an anonymous tablet that
joined nothing, and another account (Bob, logged in, no seat). A refusal is a 403 with a
sentence and changes nothing in the database; an allowed action gets past the role check (the
rules may still refuse it, with a 422) and is logged with who acted.
"""
from __future__ import annotations

import re

import pytest
from _security_helpers import db, fingerprint, log_in, make_app, seed
from sqlmodel import select

from referee.table import roles, service
from referee.table.models import Game, LogEntry, Seat

ROLES = ("umpire", "blue", "red", "spectator", "anonymous", "other_account")
BLUE_UNIT, RED_UNIT = "11th-leger", "1-7th-musketeers"


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    folder = tmp_path_factory.mktemp("club")
    app = make_app(f"sqlite:///{folder / 'club.sqlite'}", MODE="club")
    ids = seed(app)
    umpire = log_in(app.test_client(), "Ann")
    r = umpire.post("/games/new", data={"scenario": "demo", "name": "Club battle"})
    assert r.status_code == 303
    game_id = int(re.search(r"/games/(\d+)", r.headers["Location"]).group(1))
    with db(app) as s:
        codes = roles.join_codes(s, service.get_game(s, game_id))
    clients = {"umpire": umpire}
    for role in ("blue", "red", "spectator"):
        c = app.test_client()
        assert c.post("/join", data={"code": codes[role].lower()[:4] + "-" + codes[role][4:]}).status_code == 303
        clients[role] = c
    clients["anonymous"] = app.test_client()
    clients["other_account"] = log_in(app.test_client(), "Bob")
    return {"app": app, "game": game_id, "clients": clients, "codes": codes, "ids": ids}


def _game(app, game_id) -> Game:
    with db(app) as s:
        return service.get_game(s, game_id)


def _act(table, role, action, **facts):
    app, game_id = table["app"], table["game"]
    data = {"version": _game(app, game_id).version, **facts}
    return table["clients"][role].post(f"/games/{game_id}/act/{action}", data=data)


def _restore(table):
    """Put the game back as it was before an allowed action (the table itself, no role)."""
    with db(table["app"]) as s:
        game = service.get_game(s, table["game"])
        service.undo(s, game.id, game.version)


# Each action with the roles allowed to take it (past the role check).
ACTIONS = [
    ("break_test", {"unit": BLUE_UNIT}, {"umpire", "blue"}),
    ("break_test", {"unit": RED_UNIT}, {"umpire", "red"}),
    ("order", {"units": BLUE_UNIT}, {"umpire", "blue"}),
    ("shoot", {"shooter": RED_UNIT, "target": BLUE_UNIT}, {"umpire", "red"}),
    ("take_hits", {"unit": RED_UNIT, "hits": "1"}, {"umpire", "red"}),
    ("adjust_unit", {"unit": BLUE_UNIT, "field": "casualties", "value": "1"}, {"umpire"}),
    ("change_setting", {"name": "enfilade_to_hit_bonus", "value": "2"}, {"umpire"}),
    ("dice_mode", {"mode": "typed"}, {"umpire"}),
    ("next_phase", {}, {"umpire"}),
    ("end_battle", {}, {"umpire"}),
]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("action,facts,allowed", ACTIONS, ids=lambda v: v if isinstance(v, str) else None)
def test_each_action_for_each_role(table, role, action, facts, allowed):
    before = fingerprint(table["app"])
    r = _act(table, role, action, **facts)
    page = r.get_data(as_text=True)
    if role in allowed:
        assert r.status_code != 403, page[:400]
        if r.status_code in (200, 303) and fingerprint(table["app"]) != before:
            with db(table["app"]) as s:
                last = s.exec(select(LogEntry).where(LogEntry.game_id == table["game"])
                              .order_by(LogEntry.seq.desc())).first()
            assert last.actor == role
            _restore(table)
    else:
        assert r.status_code == 403, (r.status_code, page[:400])
        assert fingerprint(table["app"]) == before
        assert re.search(r"umpire|your own side|Spectators watch|not joined|has not joined|only act for", page)


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("step", ["undo", "redo"])
def test_undo_and_redo_of_the_blue_players_action(table, role, step):
    """Blue's own step may be undone and redone by Blue or the umpire; by nobody else."""
    app, game_id = table["app"], table["game"]
    assert _act(table, "blue", "break_test", unit=BLUE_UNIT).status_code in (200, 303)
    if step == "redo":
        with db(app) as s:
            game = service.get_game(s, game_id)
            service.undo(s, game_id, game.version)
    before = fingerprint(app)
    r = table["clients"][role].post(f"/games/{game_id}/{step}", data={"version": _game(app, game_id).version})
    if role in ("umpire", "blue"):
        assert r.status_code in (200, 303), r.get_data(as_text=True)[:400]
        assert fingerprint(app) != before
    else:
        assert r.status_code == 403
        assert fingerprint(app) == before
    # Leave nothing of Blue's step in force for the next case.
    with db(app) as s:
        game = service.get_game(s, game_id)
        active = s.exec(select(LogEntry).where(LogEntry.game_id == game_id, LogEntry.undone == False)  # noqa: E712
                        .order_by(LogEntry.seq.desc())).first()
        if active is not None and not active.discarded:
            service.undo(s, game_id, game.version)


@pytest.mark.parametrize("role", ["red", "umpire"])
def test_undoing_someone_elses_action_is_the_umpires(table, role):
    app, game_id = table["app"], table["game"]
    assert _act(table, "blue", "break_test", unit=BLUE_UNIT).status_code in (200, 303)
    before = fingerprint(app)
    r = table["clients"][role].post(f"/games/{game_id}/undo", data={"version": _game(app, game_id).version})
    if role == "umpire":
        assert r.status_code in (200, 303)
    else:
        assert r.status_code == 403 and "only the umpire can undo it" in r.get_data(as_text=True)
        assert fingerprint(app) == before
        _restore(table)


def _game_write_routes(app):
    """Every route that posts about one game, beyond the action, undo and redo (archive, delete…)
    and typing or cancelling dice handed to a side (each role: tests/security/test_dice_handover.py)."""
    return sorted(r.rule for r in app.url_map.iter_rules()
                  if "POST" in r.methods and "game_id" in r.arguments
                  and r.endpoint not in ("games.perform", "games.undo", "games.redo", "games.odds",
                                         "games.choices", "dice_handover.type_dice", "dice_handover.cancel"))


@pytest.mark.parametrize("role", ROLES)
def test_other_writes_about_a_game_are_the_umpires(table, role):
    app, game_id = table["app"], table["game"]
    rules = _game_write_routes(app)
    assert rules, "the game's other write routes are found from the app's own map"
    for rule in rules:
        path = re.sub(r"<int:game_id>", str(game_id), rule)
        path = re.sub(r"<[^>]+>", "x", path)
        before = fingerprint(app)
        r = table["clients"][role].post(path, data={"archived": "yes", "confirm": "nope"})
        if role == "umpire":
            assert r.status_code != 403 or "umpire" not in r.get_data(as_text=True), rule
        else:
            assert r.status_code == 403, (rule, r.status_code)
            assert fingerprint(app) == before


def test_the_odds_and_a_forms_lists_are_for_every_seated_tablet_and_change_nothing(table):
    """The odds, and a form drawn again with a folded group's lists (posted by a tablet without
    JavaScript), read the game and change nothing: any seated tablet may ask."""
    app, game_id = table["app"], table["game"]
    before = fingerprint(app)
    for role in ("umpire", "blue", "red", "spectator"):
        r = table["clients"][role].post(f"/games/{game_id}/act/break_test/odds", data={"unit": BLUE_UNIT})
        assert r.status_code == 200
        r = table["clients"][role].post(f"/games/{game_id}/act/shoot/choices", data={"_open": "Guns"})
        assert r.status_code == 200 and 'name="stray_rocket_unit"' in r.get_data(as_text=True)
    for role in ("anonymous", "other_account"):
        r = table["clients"][role].post(f"/games/{game_id}/act/shoot/choices", data={"_open": "Guns"})
        assert r.status_code == 403
    assert table["clients"]["anonymous"].get(f"/games/{game_id}").status_code == 403
    assert fingerprint(app) == before


@pytest.mark.parametrize("role", ROLES)
def test_who_sees_the_game_and_its_codes(table, role):
    game_id = table["game"]
    page = table["clients"][role].get(f"/games/{game_id}")
    seats = table["clients"][role].get(f"/games/{game_id}/seats")
    codes = table["codes"]
    if role in ("anonymous", "other_account"):
        assert page.status_code == 403 and "has not joined this game" in page.get_data(as_text=True)
        assert seats.status_code == 403
        assert str(game_id) not in re.findall(r'href="/games/(\d+)"', table["clients"][role].get("/").get_data(as_text=True))
        return
    assert page.status_code == 200
    shown = seats.get_data(as_text=True)
    if role == "umpire":
        for role_, code in codes.items():
            if role_ != "umpire":
                assert f"{code[:4]}-{code[4:]}" in shown
        assert shown.count("<svg") >= 4  # a QR code per side, spectators and the umpire's hand-over
    else:
        assert not any(f"{c[:4]}-{c[4:]}" in shown for c in codes.values())


def test_a_side_player_acts_only_for_their_own_rigs(table):
    """Of Oil and Iron: the pieces are Rigs (the facts' {"ref": "rig"}), sides are players p1/p2."""
    app = table["app"]
    umpire = table["clients"]["umpire"]
    r = umpire.post("/games/new/oilandiron", data={
        "engagement": "iron_clash", "p1-name": "Anna", "p2-name": "Ben",
        "p1-typed": "- {name: A1, chassis: example_light_scout, weapons: []}",
        "p2-typed": "- {name: B1, chassis: example_light_scout, weapons: []}"})
    if r.status_code != 303:  # the start form's keys are the engagement blueprint's; fall back to the service
        with db(app) as s:
            game = service.get_game(s, table["ids"]["engagement"])
            seat = s.exec(select(Seat).where(Seat.game_id == table["game"], Seat.role == "umpire")).first()
            roles.take_seat(s, game, "umpire", seat.tablet, seat.account_id)
            game_id = game.id
    else:
        game_id = int(re.search(r"/games/(\d+)", r.headers["Location"]).group(1))
    with db(app) as s:
        game = service.get_game(s, game_id)
        codes = roles.join_codes(s, game)
        rigs = game.state["rigs"]
    p1 = app.test_client()
    assert p1.post("/join", data={"code": codes["p1"]}).status_code == 303
    mine = next(k for k, v in rigs.items() if v["player"] == "p1")
    theirs = next(k for k, v in rigs.items() if v["player"] == "p2")
    version = _game(app, game_id).version
    refused = p1.post(f"/games/{game_id}/act/activate", data={"version": version, "rig": theirs})
    assert refused.status_code == 403 and "Rigs" in refused.get_data(as_text=True)
    own = p1.post(f"/games/{game_id}/act/activate", data={"version": version, "rig": mine})
    assert own.status_code != 403  # past the role check; the rules decide (roll initiative first)
    table_wide = p1.post(f"/games/{game_id}/act/initiative", data={"version": version})
    assert table_wide.status_code == 403 and "umpire" in table_wide.get_data(as_text=True)


OPEN_TO_ANYONE = {"auth.login", "auth.register", "auth.logout", "auth.setup", "roles.join"}


def test_an_anonymous_tablet_changes_nothing_through_any_write_route(table):
    """Every POST route the app has, from a tablet that neither logged in nor joined: refused (403)
    and nothing changed, except logging in, registering and joining, which are for anyone."""
    app, ids = table["app"], table["ids"]
    values = {"game_id": table["game"], "list_id": ids["ridge"], "campaign_id": 1, "account_id": ids["ann"]}
    anonymous = app.test_client()
    checked = 0
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule):
        if "POST" not in rule.methods or rule.endpoint in OPEN_TO_ANYONE:
            continue
        path = re.sub(r"<(?:int:)?(\w+)>", lambda m: str(values.get(m.group(1), "x")), rule.rule)
        before = fingerprint(app)
        r = anonymous.post(path, data={"version": "1", "name": "Mine", "scenario": "demo", "text": "{}"})
        assert r.status_code == 403, (rule.rule, r.status_code)
        assert fingerprint(app) == before, rule.rule
        checked += 1
    assert checked >= 25


def test_another_account_changes_nothing_that_is_not_theirs(table):
    """Every POST route that names a game, a list or an account, from Bob (logged in, no seat at
    the game, not the list's owner, not the first account): refused, nothing changed."""
    app, ids = table["app"], table["ids"]
    values = {"game_id": table["game"], "list_id": ids["corps"], "account_id": ids["ann"]}
    bob = table["clients"]["other_account"]
    checked = 0
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule):
        names = set(rule.arguments) & set(values)
        if "POST" not in rule.methods or not names or rule.endpoint in ("lists.duplicate",):
            continue
        path = re.sub(r"<(?:int:)?(\w+)>", lambda m: str(values.get(m.group(1), "x")), rule.rule)
        before = fingerprint(app)
        r = bob.post(path, data={"version": _game(app, table["game"]).version, "name": "Mine", "public": "1",
                                 "password": "another password", "op": "save"})
        assert r.status_code == 403, (rule.rule, r.status_code)
        assert fingerprint(app) == before, rule.rule
        checked += 1
    assert checked >= 10
    # Copying a list is reading it: refused too, since Ann's corps is not shared with Bob.
    assert bob.post(f"/lists/{ids['corps']}/duplicate").status_code == 403
