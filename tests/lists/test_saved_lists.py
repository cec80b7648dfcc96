"""Saved lists: owners, versions that never change, copies, share codes and games from two lists."""
from __future__ import annotations

import pytest
from sqlmodel import select

from referee.lists import example_lists
from referee.lists.blackpowder import Brigade, Commander
from referee.table import lists as saved
from referee.table.db import create_tables, make_engine
from referee.table.db import session as open_session
from referee.table.models import Game
from referee.table.service import BadInput

EX = example_lists()


@pytest.fixture
def db():
    engine = make_engine("sqlite://")
    create_tables(engine)
    with open_session(engine) as s:
        yield s


def test_a_new_list_is_version_one_of_its_owner(db):
    s = saved.create_list(db, "Ann", EX["example-british-ridge"])
    assert (s.armylist.owner, s.version.number, s.version.problems) == ("Ann", 1, 0)
    assert [l.id for l in saved.list_lists(db, owner="Ann")] == [s.armylist.id]
    assert saved.list_lists(db, owner="Bob") == []


def test_a_list_needs_an_owner_name(db):
    with pytest.raises(BadInput, match="Choose your name"):
        saved.create_list(db, " ", EX["example-british-ridge"])


def test_only_the_owner_edits_renames_shares_or_deletes(db):
    lid = saved.create_list(db, "Ann", EX["example-british-ridge"]).armylist.id
    for call in (lambda: saved.rename_list(db, lid, "Bob", "Mine"),
                 lambda: saved.save_list(db, lid, "Bob", EX["example-british-ridge"]),
                 lambda: saved.share(db, lid, "Bob"),
                 lambda: saved.delete_list(db, lid, "Bob")):
        with pytest.raises(saved.NotOwner, match="belongs to Ann"):
            call()


def test_an_edit_appends_a_version_and_leaves_the_old_one_alone(db):
    army = EX["example-british-ridge"]
    lid = saved.create_list(db, "Ann", army).armylist.id
    thin = army.model_copy(update={"brigades": army.brigades[:1] + [Brigade(name="Thin", commander=Commander(name="T"))]})
    s = saved.save_list(db, lid, "Ann", thin)
    assert s.version.number == 2 and s.version.problems == 1  # a draft is kept with its problem counted
    assert saved.get_version(db, s.armylist, 1).content["brigades"][1]["name"] == "Union Brigade"
    unchanged = saved.save_list(db, lid, "Ann", thin)
    assert unchanged.version.number == 2  # nothing changed, no new version


def test_rename_is_a_new_version(db):
    lid = saved.create_list(db, "Ann", EX["example-british-ridge"]).armylist.id
    s = saved.rename_list(db, lid, "Ann", "Mont-Saint-Jean")
    assert (s.armylist.name, s.version.number, s.version.note) == ("Mont-Saint-Jean", 2, "renamed")


def test_anyone_may_copy_a_list_into_their_own(db):
    lid = saved.create_list(db, "Ann", EX["example-french-corps"]).armylist.id
    copy = saved.duplicate_list(db, lid, "Bob")
    assert copy.armylist.owner == "Bob" and copy.armylist.name.startswith("Copy of")
    assert copy.armylist.id != lid and "copied from" in copy.version.note


def test_a_share_code_opens_the_list(db):
    lid = saved.create_list(db, "Ann", EX["example-sword-squadron"]).armylist.id
    code = saved.share(db, lid, "Ann")
    assert saved.share(db, lid, "Ann") == code
    assert saved.by_share_code(db, code.lower()).id == lid
    with pytest.raises(saved.NotFound):
        saved.by_share_code(db, "ZZZZZZZZ")


def test_a_game_keeps_the_versions_it_started_from(db):
    a = saved.create_list(db, "Ann", EX["example-british-ridge"]).armylist.id
    b = saved.create_list(db, "Bob", EX["example-french-corps"]).armylist.id
    game = saved.start_game(db, "", a, b, owner="Ann")
    assert game.system == "blackpowder" and game.name.endswith("v Example: d'Erlon's attack")
    saved.rename_list(db, a, "Ann", "Renamed later")
    used = saved.lists_of_game(db, game.id)
    assert [(side, v.number, v.name) for side, _, v in used] == [
        ("blue", 1, "Example: Wellington's ridge"), ("red", 1, "Example: d'Erlon's attack")]
    # The list stays deletable (issue 35): the game keeps its own document, and the other side's note.
    state = game.state
    saved.delete_list(db, a, "Ann")
    assert [side for side, _, _ in saved.lists_of_game(db, game.id)] == ["red"]
    assert db.get(Game, game.id).state == state


def test_a_draft_cannot_start_a_game_and_nothing_is_stored(db):
    army = EX["example-british-ridge"]
    draft = army.model_copy(update={"brigades": [Brigade(name="Thin", commander=Commander(name="T"))]})
    a = saved.create_list(db, "Ann", draft).armylist.id
    b = saved.create_list(db, "Bob", EX["example-french-corps"]).armylist.id
    with pytest.raises(BadInput, match="draft"):
        saved.start_game(db, "x", a, b)
    assert db.exec(select(Game)).all() == []


def test_squadrons_start_an_engagement(db):
    a = saved.create_list(db, "Ann", EX["example-sword-squadron"]).armylist.id
    b = saved.duplicate_list(db, a, "Bob").armylist.id
    game = saved.start_game(db, "Clash", a, b, engagement_type="iron_clash")
    assert game.system == "oilandiron" and len(game.state["rigs"]) == 6
    assert [side for side, _, _ in saved.lists_of_game(db, game.id)] == ["p1", "p2"]


def test_lists_of_two_games_cannot_meet(db):
    a = saved.create_list(db, "Ann", EX["example-sword-squadron"]).armylist.id
    b = saved.create_list(db, "Bob", EX["example-french-corps"]).armylist.id
    with pytest.raises(BadInput, match="same game"):
        saved.start_game(db, "x", a, b)


def test_a_list_shows_the_games_started_from_it(db):
    a = saved.create_list(db, "Ann", EX["example-sword-squadron"]).armylist.id
    b = saved.create_list(db, "Bob", EX["example-sword-squadron"]).armylist.id
    saved.start_game(db, "Dust", a, b)
    saved.rename_list(db, a, "Ann", "Later")
    assert [(g.name, v.number) for g, v in saved.games_of_list(db, a)] == [("Dust", 1)]
