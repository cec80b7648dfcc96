"""The stores kept per game follow the number of games being played (referee/table/playing.py)."""
from __future__ import annotations

from referee.core.recent import Recent
from referee.table import playing, state_slots


def _fresh(monkeypatch, now: list[float]) -> playing.Playing:
    p = playing.Playing(window=60)
    monkeypatch.setattr(playing, "PLAYING", p)
    monkeypatch.setattr(playing.time, "monotonic", lambda: now[0])
    return p


def _twelve_games_seen(monkeypatch) -> list[float]:
    """Twelve games asked about two seconds ago; the clock, to move on."""
    now = [1000.0]
    _fresh(monkeypatch, now)
    for game in range(12):
        playing.saw(game)
    now[0] += 2
    return now


def test_games_asked_about_lately_count_and_quiet_ones_stop_counting(monkeypatch):
    now = _twelve_games_seen(monkeypatch)
    assert playing.games() == 12
    assert playing.room_for(1, 8) == 13  # one game more, for the one being started
    assert playing.room_for(3, 16) == 39
    now[0] += 59
    playing.saw(3)
    now[0] += 2
    assert playing.games() == 1
    assert playing.room_for(3, 16) == 16  # never fewer than the old fixed size


def test_a_store_sized_by_the_games_keeps_twelve_games_where_a_fixed_eight_lost_four(monkeypatch):
    now = [1000.0]
    _fresh(monkeypatch, now)
    kept = Recent(lambda: playing.room_for(1, 8))
    for game in range(12):
        playing.saw(game)
    now[0] += 2
    for game in range(12):
        kept.put(game, f"drawing of game {game}")
    assert all(kept.get(game) is not None for game in range(12))
    fixed = Recent(8)
    for game in range(12):
        fixed.put(game, f"drawing of game {game}")
    assert [g for g in range(12) if fixed.get(g) is None] == [0, 1, 2, 3]


def test_unit_slots_hold_every_unit_of_twelve_waterloo_days(monkeypatch):
    _twelve_games_seen(monkeypatch)
    slots = state_slots._Slots(state_slots.SLOTS_PER_GAME, state_slots.KEEP)
    units = [{"id": f"u{i}"} for i in range(12 * 300)]
    for u in units:
        slots.put(u["id"], u, b"x")
    assert not slots.older  # no generation let go: all 3,600 units are still kept
    assert all(slots.get(u["id"], u) == b"x" for u in units)
