"""Several servers started at once on one fresh database: each comes up, the schema is made once
and the demo battle seeded once (table/startup.py). On PostgreSQL too when REFEREE_TEST_POSTGRES
names a server (tests/_databases.py)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from _databases import new_database
from sqlalchemy import create_engine, text

ROOT = Path(__file__).resolve().parents[2]
SERVERS = 4
# Each process waits at a gate (a file appearing) so that all start their start-up together.
START = """
import os, sys, time
gate = sys.argv[1]
while not os.path.exists(gate):
    time.sleep(0.005)
from referee.web.app import create_app
create_app()
print("up")
"""


def test_servers_started_together_make_the_schema_once_and_seed_the_demo_once(tmp_path):
    url, drop = new_database(tmp_path)
    try:
        gate = tmp_path / "go"
        env = {**os.environ, "DATABASE_URL": url, "SECRET_KEY": "x" * 32, "PYTHONPATH": os.pathsep.join(
            p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)}
        env.pop("REFEREE_CHECK_STATE", None)
        procs = [subprocess.Popen([sys.executable, "-c", START, str(gate)], cwd=ROOT, env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for _ in range(SERVERS)]
        gate.touch()
        outs = [p.communicate(timeout=180) for p in procs]
        for p, (out, err) in zip(procs, outs):
            assert p.returncode == 0 and out.strip().endswith("up"), err[-2000:]
        engine = create_engine(url)
        try:
            with engine.connect() as c:
                assert c.execute(text("SELECT count(*) FROM game")).scalar() == 1
                assert c.execute(text("SELECT count(*) FROM alembic_version")).scalar() == 1
        finally:
            engine.dispose()
    finally:
        drop()
