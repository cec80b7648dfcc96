"""The write-ahead log folded apart (table/db.py): a write no longer folds the log itself at
SQLite's usual threshold, and the checkpointer's thread folds what the writes left."""
from __future__ import annotations

import os
import sqlite3
import threading

from sqlalchemy import text

from referee.table.db import AUTO_CHECKPOINT, FAR_BEHIND, Checkpointer, make_engine

PAGE = 4096


def _threshold(engine) -> int:
    with engine.connect() as c:
        return c.execute(text("PRAGMA wal_autocheckpoint")).scalar()


def _write(engine, pages: int) -> None:
    """Writes of 25 pages each, one transaction apiece (as tablets' taps are)."""
    with engine.begin() as c:
        c.execute(text("CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, doc TEXT)"))
    for n in range(pages // 25):
        with engine.begin() as c:
            c.execute(text("INSERT OR REPLACE INTO t (id, doc) VALUES (1, :doc)"), {"doc": str(n) * (25 * PAGE)})


def test_a_write_folds_the_log_at_sqlites_threshold_unless_a_checkpointer_does(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'a.sqlite'}")
    assert _threshold(engine) == AUTO_CHECKPOINT
    folder = Checkpointer.start_for(engine, every=3600)  # started, but not due within this test
    try:
        assert _threshold(engine) == FAR_BEHIND
        _write(engine, 1500)
        # Past SQLite's threshold, and the writes left every page in the log.
        assert os.path.getsize(tmp_path / "a.sqlite-wal") > AUTO_CHECKPOINT * PAGE
        conn = sqlite3.connect(tmp_path / "a.sqlite")
        busy, log, folded = folder.fold(conn)
        conn.close()
        assert busy == 0 and log > AUTO_CHECKPOINT and folded == log
    finally:
        folder.stop()
    assert not folder.is_alive()
    engine.dispose()


def test_the_checkpointers_thread_folds_the_log_on_its_own(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'b.sqlite'}")
    _write(engine, 100)
    folds: list[tuple[int, int, int]] = []
    done = threading.Event()

    class Watched(Checkpointer):
        def fold(self, conn):
            found = super().fold(conn)
            folds.append(found)
            if found[1] > 0 and found[2] == found[1]:
                done.set()
            return found

    folder = Watched.start_for(engine, every=0.01)
    try:
        _write(engine, 100)
        assert done.wait(10), f"the log was not folded: {folds}"
    finally:
        folder.stop()
    engine.dispose()


def test_nothing_to_fold_for_a_database_in_memory_or_another_server():
    assert Checkpointer.start_for(make_engine("sqlite://")) is None
