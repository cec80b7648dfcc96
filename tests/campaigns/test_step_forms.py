"""A campaign step's form is read by the reader a game's action form is (``web/forms.py``), and a
step's facts are checked by the one catalogue type (``contract.Catalogue``) as a game's are."""
from __future__ import annotations

import pytest
from werkzeug.datastructures import MultiDict

from referee.campaigns import kind_for
from referee.core.contract import Catalogue
from referee.systems import system_for
from referee.table import campaigns as tc
from referee.table.errors import BadInput
from referee.web.forms import facts_from_form

RECOVERY = kind_for("oilandiron").action("recovery_roll").facts


@pytest.mark.parametrize("posted, read", [("", None), ("yes", True), ("no", False)])
def test_a_yes_or_no_left_as_recorded_keeps_the_record(posted, read):
    raw = facts_from_form(RECOVERY, MultiDict({"rig": "p2/r1", "exploded": posted}))
    assert RECOVERY.model_validate(raw).exploded is read


def test_a_step_typed_with_spaces_is_read_without_them_and_a_reason_of_spaces_is_none():
    _, facts = tc.parse_facts("oilandiron", "umpire_override", {"field": " players.p1.iron ", "value": "3",
                                                                "reason": " a fix "})
    assert facts.field == "players.p1.iron" and facts.reason == "a fix"
    with pytest.raises(BadInput, match=r"Why \(kept in the log\): String should have at least 1 character"):
        tc.parse_facts("oilandiron", "umpire_override", {"field": "players.p1.iron", "value": "3", "reason": "   "})


def test_games_and_campaigns_share_one_catalogue_type():
    oil, game = kind_for("oilandiron"), system_for("oilandiron")
    assert isinstance(oil, Catalogue) and isinstance(game, Catalogue)
    with pytest.raises(KeyError, match="campaign has no step “fly”"):
        oil.action("fly")
    with pytest.raises(KeyError, match="has no action “fly”"):
        game.action("fly")
