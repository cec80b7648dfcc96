"""Whether Undo and Redo are open is read off the log's newest lines the board has already loaded
(game_log.can_undo / can_redo with ``newest``), and always agrees with asking the database, for
any sequence of actions, undos and redos (the entries undone and not discarded are always the
newest of the log)."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.data.scenarios import new_battle_from_scenario
from referee.table import game_log, service
from referee.table.db import create_tables, make_engine, session


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    eng = make_engine(f"sqlite:///{tmp_path_factory.mktemp('buttons')}/buttons.sqlite")
    create_tables(eng)
    return eng


def _step(s, game_id: int, what: str) -> None:
    game = service.get_game(s, game_id)
    version = game.version
    try:
        if what == "undo":
            service.undo(s, game_id, version)
        elif what == "redo":
            service.redo(s, game_id, version)
        else:
            service.perform(s, game_id, version, "adjust_unit",
                            {"unit": "11th-leger", "field": "casualties",
                             "value": str(1 + game.state["units"]["11th-leger"]["casualties"] % 2)})
    except service.BadInput:  # nothing to undo or redo: a refusal changes nothing
        s.rollback()


def _redone_by_the_server(s, game_id: int) -> int | None:
    """The entry the server's Redo puts back, found by doing it and rolling it back."""
    try:
        entry = service.redo(s, game_id, service.get_game(s, game_id).version)
    except service.BadInput:
        s.rollback()
        return None
    seq = entry.seq
    service.undo(s, game_id, service.get_game(s, game_id).version)
    return seq


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(st.sampled_from(["act", "undo", "redo"]), max_size=14),
       window=st.integers(1, 5))
def test_the_buttons_read_off_the_newest_lines_agree_with_the_database(engine, steps, window):
    with session(engine) as s:
        game_id = service.create_game(s, "Buttons", "blackpowder", new_battle_from_scenario("demo"), seed=1).id
        for what in steps:
            _step(s, game_id, what)
            newest = game_log.log_lines(s, game_id, window)
            whole = len(newest) < window
            assert game_log.can_undo(s, game_id, newest, whole=whole) == game_log.can_undo(s, game_id)
            assert game_log.can_redo(s, game_id, newest) == game_log.can_redo(s, game_id)
            said = game_log.next_redo(s, game_id, newest)
            assert (said.seq if said else None) == _redone_by_the_server(s, game_id)
        if steps and steps[0] == "act":
            assert game_log.log(s, game_id), "the actions were taken"
