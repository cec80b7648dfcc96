"""A shot's likely targets (``blackpowder.likely``): the enemies fighting the shooter's brigade,
then what its brigade shot at lately, newest first; never a friend, a unit out of play, or twice."""
from __future__ import annotations

from referee.blackpowder.likely import likely, likely_targets


def test_likely_targets_are_the_brigades_fights_then_its_recent_targets(make_doc, infantry):
    doc = make_doc(units=[infantry("a", brigade="b1"), infantry("b", brigade="b1"), infantry("c", brigade="b2"),
                          infantry("x", side="red"), infantry("y", side="red"), infantry("z", side="red"),
                          infantry("gone", side="red", destroyed=True)])
    doc["combats"] = {"c1": {"id": "c1", "status": "open", "attackers": ["z"], "defenders": ["b"]},
                      "c0": {"id": "c0", "status": "over", "attackers": ["a"], "defenders": ["gone"]}}
    recent = [("shoot", {"shooter": "b", "target": "x"}),   # the brigade's, newest first
              ("shoot", {"shooter": "c", "target": "y"}),   # another brigade's
              ("shoot", {"shooter": "a", "target": "gone"}),  # out of play
              ("shoot", {"shooter": "a", "target": "c"}),   # a friend (a mistaken shot)
              ("order", {"units": ["a"]}),
              ("shoot", {"shooter": "a", "target": "x"})]   # again
    assert likely_targets(doc, "a", recent) == ["z", "x"]
    assert likely_targets(doc, "c", recent) == ["y"]
    assert likely_targets(doc, "nobody", recent) == []
    # A shot's target and a charge's are ranked (the first charger speaks for them), nothing else.
    assert likely(doc, "shoot", "target", {"shooter": "a"}, recent) == ["z", "x"]
    assert likely(doc, "shoot", "shooter", {}, recent) is None
    assert likely(doc, "charge", "target", {"chargers": ["a", "b"]}, recent) == ["z", "x"]
    assert likely(doc, "charge", "target", {}, recent) == []  # nobody charging yet: every side folded
    # A brigade's recent charge counts as its recent shots do.
    assert likely_targets(doc, "c", [("charge", {"chargers": ["c"], "target": "x"})]) == ["x"]
    assert likely(doc, "charge", "chargers", {}, recent) is None
