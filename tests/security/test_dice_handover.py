"""In "We roll" mode a side's player types only that side's dice: Blue shoots and types the dice to
hit; the saves are Red's, so nothing lands until Red's tablet types them (Blue is refused, and so
is everyone but Red and the umpire). The action then lands once, as Blue's, with every die. Blue
or the umpire may cancel; a game that moved on cancels the roll. Laptop tables are unchanged."""
from __future__ import annotations

import re

import pytest
from _security_helpers import db, fingerprint, log_in, make_app, seed
from sqlmodel import select

from referee.table import handover, roles, service, typed_dice
from referee.table.models import Game, LogEntry

BLUE_SHOOTER, RED_TARGET = "11th-leger", "1-7th-musketeers"
HX = {"HX-Request": "true"}


@pytest.fixture
def table(tmp_path):
    app = make_app(f"sqlite:///{tmp_path / 'club.sqlite'}", MODE="club")
    seed(app)
    umpire = log_in(app.test_client(), "Ann")
    r = umpire.post("/games/new", data={"scenario": "demo", "name": "Typed dice"})
    game_id = int(re.search(r"/games/(\d+)", r.headers["Location"]).group(1))
    with db(app) as s:
        codes = roles.join_codes(s, service.get_game(s, game_id))
    clients = {"umpire": umpire, "anonymous": app.test_client(), "other_account": log_in(app.test_client(), "Bob")}
    for role in ("blue", "red", "spectator"):
        c = app.test_client()
        assert c.post("/join", data={"code": codes[role]}).status_code == 303
        clients[role] = c
    t = {"app": app, "game": game_id, "clients": clients}
    assert _post(t, "umpire", "act/dice_mode", mode="typed").status_code in (200, 303)
    return t


def _game(t) -> Game:
    with db(t["app"]) as s:
        return service.get_game(s, t["game"])


def _pending(t):
    with db(t["app"]) as s:
        return s.exec(select(handover.PendingRoll).where(handover.PendingRoll.game_id == t["game"])).first()


def _entries(t) -> list[LogEntry]:
    with db(t["app"]) as s:
        return list(s.exec(select(LogEntry).where(LogEntry.game_id == t["game"]).order_by(LogEntry.seq)).all())


def _post(t, role, path, **data):
    return t["clients"][role].post(f"/games/{t['game']}/{path}", data={"version": _game(t).version, **data}, headers=HX)


def _to_hit(t) -> int:
    """Blue opens the shot in typed mode: how many dice to hit the form asks for."""
    r = _post(t, "blue", "act/shoot", shooter=BLUE_SHOOTER, target=RED_TARGET)
    found = re.search(r"Roll (\d+) D6 — to hit", r.get_data(as_text=True))
    assert r.status_code == 200 and found, r.get_data(as_text=True)[:400]
    return int(found.group(1))


def _blue_shoots(t) -> str:
    """Blue shoots and types the dice to hit (all 6s): the saves are Red's. Returns the page."""
    sixes = " ".join(["6"] * _to_hit(t))
    r = _post(t, "blue", "act/shoot", shooter=BLUE_SHOOTER, target=RED_TARGET, typed="", more_dice=sixes)
    return r.get_data(as_text=True)


def _red_types_ones(t) -> tuple[list[int], object]:
    """Red types 1s for every roll asked of it (the saves, then whatever else Red rolls: a break
    test): the dice typed, and the answer to the last of them."""
    typed, answer = [], None
    for _ in range(4):
        pending = _pending(t)
        if pending is None:
            break
        assert pending.side == "red"
        dice = [1] * pending.count
        answer = _post(t, "red", "dice", step=pending.step, more_dice=" ".join(map(str, dice)))
        assert answer.status_code == 200, answer.get_data(as_text=True)[:400]
        typed += dice
    return typed, answer


def test_blue_waits_for_red_to_roll_the_saves_and_nothing_lands_meanwhile(table):
    version = _game(table).version
    page = _blue_shoots(table)
    pending = _pending(table)
    n = pending.count
    assert f"Waiting for Prussians to roll {n} D6 — save" in page
    assert "Cancel the action" in page and 'name="more_dice"' not in page
    assert (pending.actor, pending.side, pending.purpose) == ("blue", "red", "save")
    assert pending.typed == [[6, "blue"]] * n
    assert _game(table).version == version and all(e.action == "dice_mode" for e in _entries(table))


def test_red_types_the_saves_and_the_shot_lands_once_as_blues_with_every_die(table):
    _blue_shoots(table)
    before = len(_entries(table))
    # Red's tablet sees the prompt on its next poll; Blue's, showing "Waiting", is not disturbed.
    game = _game(table)
    n = _pending(table).count
    r = table["clients"]["red"].get(f"/games/{game.id}/poll?v={game.version}", headers=HX)
    assert r.status_code == 200 and f"Prussians: roll {n} D6 — save" in r.get_data(as_text=True)
    step = _pending(table).step
    r = table["clients"]["blue"].get(f"/games/{game.id}/poll?v={game.version}&p={step}", headers=HX)
    assert r.status_code == 204
    assert table["clients"]["spectator"].get(f"/games/{game.id}/poll?v={game.version}", headers=HX).status_code == 204
    typed = [6] * n + _red_types_ones(table)[0]
    assert _pending(table) is None
    entries = _entries(table)
    assert len(entries) == before + 1
    shot = entries[-1]
    assert (shot.action, shot.actor, shot.dice_source) == ("shoot", "blue", "typed")
    assert [d["value"] for d in shot.dice] == typed
    assert [d["purpose"] for d in shot.dice][:2 * n] == ["to hit"] * n + ["save"] * n
    # Blue's poll, still showing "Waiting", now gets the result.
    game = _game(table)
    r = table["clients"]["blue"].get(f"/games/{game.id}/poll?v={game.version - 1}&p=old", headers=HX)
    assert r.status_code == 200 and "Waiting for" not in r.get_data(as_text=True)


def test_the_log_says_whose_tablet_typed_each_die(table):
    """Each die is kept with the side whose player typed it; the entry and the log line's dice say
    so, numbered in the order they were rolled. Dice the app rolled say nothing of the kind."""
    _blue_shoots(table)
    n = _pending(table).count
    last = _red_types_ones(table)[1]
    assert _pending(table) is None
    shot = _entries(table)[-1]
    assert [d["typist"] for d in shot.dice] == ["blue"] * n + ["red"] * (len(shot.dice) - n)
    state = _game(table).state
    blue, red = state["sides"]["blue"]["name"], state["sides"]["red"]["name"]
    said = f"Dice typed in: {'1' if n == 1 else f'1–{n}'} by {blue}, "
    rest = len(shot.dice) - n
    said += f"{n + 1}{'' if rest == 1 else f'–{len(shot.dice)}'} by {red}."
    assert said in last.get_data(as_text=True)  # the answer to the last dice typed: the result
    detail = table["clients"]["umpire"].get(f"/games/{table['game']}/log/{shot.seq}/detail", headers=HX)
    assert detail.status_code == 200 and said in detail.get_data(as_text=True)
    # The app's own roll: no die has a typist, and nothing is said.
    assert _post(table, "umpire", "act/dice_mode", mode="app").status_code in (200, 303)
    r = _post(table, "umpire", "act/shoot", shooter=BLUE_SHOOTER, target=RED_TARGET)
    assert r.status_code == 200 and "Dice typed in" not in r.get_data(as_text=True)
    assert not any("typist" in d for d in _entries(table)[-1].dice)


@pytest.mark.parametrize("role", ["blue", "spectator", "anonymous", "other_account"])
def test_only_red_or_the_umpire_may_type_reds_dice(table, role):
    _blue_shoots(table)
    before = fingerprint(table["app"])
    pending = _pending(table)
    r = _post(table, role, "dice", step=pending.step, more_dice=" ".join(["1"] * pending.count))
    assert r.status_code == 403, r.get_data(as_text=True)[:400]
    assert fingerprint(table["app"]) == before
    if role == "blue":
        assert f"cannot type these dice: Prussians rolls {pending.count} D6 — save" in r.get_data(as_text=True)


def test_the_umpire_may_type_any_sides_dice(table):
    _blue_shoots(table)
    for _ in range(4):
        pending = _pending(table)
        if pending is None:
            break
        assert _post(table, "umpire", "dice", step=pending.step,
                     more_dice=" ".join(["1"] * pending.count)).status_code == 200
    assert _pending(table) is None and _entries(table)[-1].actor == "blue"


def test_blue_cannot_type_reds_saves_in_its_own_form_either(table):
    n = _to_hit(table)
    before = fingerprint(table["app"])
    dice = " ".join(["6"] * n + ["1"] * n)
    r = _post(table, "blue", "act/shoot", shooter=BLUE_SHOOTER, target=RED_TARGET, typed="", more_dice=dice)
    assert r.status_code == 403 and "for Prussians to roll, not French" in r.get_data(as_text=True)
    assert fingerprint(table["app"]) == before


@pytest.mark.parametrize("role", ["blue", "umpire"])
def test_the_acting_side_or_the_umpire_may_cancel(table, role):
    _blue_shoots(table)
    entries = len(_entries(table))
    r = _post(table, "red", "dice/cancel")
    assert r.status_code == 403 and _pending(table) is not None
    r = _post(table, role, "dice/cancel")
    assert r.status_code == 200 and "Cancelled" in r.get_data(as_text=True)
    assert _pending(table) is None and len(_entries(table)) == entries
    assert _post(table, "red", "dice", step="", more_dice="1").status_code == 404


def test_a_game_that_moved_on_cancels_the_roll(table):
    _blue_shoots(table)
    pending = _pending(table)
    assert _post(table, "umpire", "act/adjust_unit", unit=RED_TARGET, field="casualties", value="1").status_code in (200, 303)
    entries = len(_entries(table))
    r = _post(table, "red", "dice", step=pending.step, more_dice=" ".join(["1"] * pending.count))
    assert r.status_code == 409 and "moved on" in r.get_data(as_text=True)
    assert _pending(table) is None and len(_entries(table)) == entries


def test_wrong_dice_from_red_are_refused_and_the_roll_keeps_waiting(table):
    _blue_shoots(table)
    pending = _pending(table)
    n = pending.count
    for bad, status in ((" ".join(["7"] * n), 422), (" ".join(["1"] * (n + 1)), 422), ("x", 422), ("", 422)):
        before = fingerprint(table["app"])
        r = _post(table, "red", "dice", step=pending.step, more_dice=bad)
        assert r.status_code == status, (bad, r.status_code)
        assert fingerprint(table["app"]) == before


def test_a_laptop_table_types_every_die_on_one_tablet_as_before(tmp_path):
    app = make_app(f"sqlite:///{tmp_path / 'laptop.sqlite'}", MODE="laptop")
    ids = seed(app)
    c = app.test_client()
    t = {"app": app, "game": ids["battle"], "clients": {"laptop": c}}
    assert _post(t, "laptop", "act/dice_mode", mode="typed").status_code in (200, 303)
    r = _post(t, "laptop", "act/shoot", shooter=BLUE_SHOOTER, target=RED_TARGET)
    n = int(re.search(r"Roll (\d+) D6 — to hit", r.get_data(as_text=True)).group(1))
    r = _post(t, "laptop", "act/shoot", shooter=BLUE_SHOOTER, target=RED_TARGET, typed="", more_dice=" ".join(["6"] * n))
    assert r.status_code == 200 and f"Roll {n} D6 — save" in r.get_data(as_text=True)
    assert _pending(t) is None


def test_the_service_hands_over_and_resolves_with_every_die(table):
    """The same at the table service: Actor("blue") acts, Actor("red") types."""
    app, game_id = table["app"], table["game"]
    facts = {"shooter": BLUE_SHOOTER, "target": RED_TARGET}
    with db(app) as s:
        game = service.get_game(s, game_id)
        with pytest.raises(service.NeedDice) as asked:
            service.perform(s, game_id, game.version, "shoot", facts, typed_dice=[], actor=roles.Actor("blue"))
        n = asked.value.needed.count
        with pytest.raises(handover.HandedOver) as e:
            service.perform(s, game_id, game.version, "shoot", facts, typed_dice=[6] * n, actor=roles.Actor("blue"))
        step = e.value.pending.step
        with pytest.raises(handover.NotYourDice):
            typed_dice.type_dice(s, game_id, step, [1] * n, actor=roles.Actor("blue"))
        done = None
        values = [1] * n
        while done is None:
            try:
                done = typed_dice.type_dice(s, game_id, step, values, actor=roles.Actor("red"))
            except handover.HandedOver as more:
                step, values = more.pending.step, [1] * more.pending.count
        assert done.entry.actor == "blue"
        assert [d["value"] for d in done.entry.dice[:2 * n]] == [6] * n + [1] * n


@pytest.mark.parametrize("role", ["red", "spectator", "anonymous", "other_account"])
def test_nobody_else_may_cancel(table, role):
    _blue_shoots(table)
    before = fingerprint(table["app"])
    r = _post(table, role, "dice/cancel")
    assert r.status_code == 403, r.get_data(as_text=True)[:300]
    assert fingerprint(table["app"]) == before and _pending(table) is not None


def test_the_red_tablet_opening_the_game_sees_the_prompt(table):
    _blue_shoots(table)
    page = table["clients"]["red"].get(f"/games/{table['game']}").get_data(as_text=True)
    assert 'name="more_dice"' in page and "Prussians: roll" in page
    page = table["clients"]["blue"].get(f"/games/{table['game']}").get_data(as_text=True)
    assert "Waiting for Prussians" in page and 'name="more_dice"' not in page
    page = table["clients"]["spectator"].get(f"/games/{table['game']}").get_data(as_text=True)
    assert "Waiting for Prussians" not in page


def test_the_typed_by_sentence_groups_runs_of_dice_and_names_the_umpire():
    from types import SimpleNamespace

    from referee.web.dice_handover import typed_by
    game = SimpleNamespace(state={"sides": {"blue": {"name": "France"}, "red": {"name": "Prussia"}}})
    dice = [{"value": 6, "typist": "blue"}, {"value": 5, "typist": "blue"}, {"value": 2},
            {"value": 1, "typist": "red"}, {"value": 4, "typist": "blue"}]
    assert typed_by(game, SimpleNamespace(dice=dice)) == \
        "Dice typed in: 1–2 by France, 3 by the umpire, 4 by Prussia, 5 by France."
    assert typed_by(game, SimpleNamespace(dice=[{"value": 3}, {"value": 4}])) == ""
    assert typed_by(game, SimpleNamespace(dice=[])) == "" and typed_by(game, SimpleNamespace()) == ""
