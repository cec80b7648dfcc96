"""The game board is one skeleton (games/game.html) that every game fills with its own parts; the
live blocks render alone for htmx."""
from __future__ import annotations

import re

from _web_helpers import HTMX
from jinja2 import nodes

from referee.systems import GAMES
from referee.web.views import BOARD, NO_BOARD

LIVE = ("status", "units", "log", "poll")


def parsed(app, name: str):
    source, _, _ = app.jinja_env.loader.get_source(app.jinja_env, name)
    return app.jinja_env.parse(source)


def parts_templates():
    return sorted({game.board.parts for game in GAMES} | {NO_BOARD.parts})


def test_every_game_has_its_parts_and_no_skeleton_of_its_own(app):
    assert all(game.board is not None for game in GAMES) and len(GAMES) >= 2
    for name in parts_templates():
        tree = parsed(app, name)
        macros = {m.name for m in tree.find_all(nodes.Macro)}
        assert {"status", "units"} <= macros, name
        # A parts template neither extends a page nor declares blocks: the skeleton does.
        assert not list(tree.find_all(nodes.Extends)) and not list(tree.find_all(nodes.Block)), name


def test_the_skeleton_declares_every_live_block_once(app):
    blocks = [b.name for b in parsed(app, BOARD).find_all(nodes.Block)]
    for name in (*LIVE, "panel"):
        assert blocks.count(name) == 1, name


def test_the_whole_board_has_each_part_once(client, game_id):
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    for part in (*LIVE, "panel"):
        assert len(re.findall(rf'\bid="{part}"', html)) == 1, part
    assert 'hx-swap-oob' not in html
    assert '<div class="game">' in html and "Next phase" in html


def test_the_poll_draws_the_live_parts_alone(client, game_id):
    html = client.get(f"/games/{game_id}/poll?v=0", headers=HTMX).get_data(as_text=True)
    assert "<html" not in html and 'id="panel"' not in html
    for part in LIVE:
        assert len(re.findall(rf'\bid="{part}"', html)) == 1, part
    # Every live part but the poller itself, which is the element that asked, goes out of band.
    assert html.count('hx-swap-oob="true"') == 3


def test_an_action_form_for_htmx_is_the_panel_alone(client, game_id):
    html = client.get(f"/games/{game_id}/act/order", headers=HTMX).get_data(as_text=True)
    assert "<html" not in html and 'id="panel"' in html
    assert 'id="units"' not in html and 'id="status"' not in html
