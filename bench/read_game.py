"""What reading a Waterloo day's game costs, on SQLite and on PostgreSQL: the row read as every
request reads it (``service.get_game``: a fresh session, ``Session.get``), again and again while
no one writes, then after each of a run of writes (the read that follows a tap).

    python bench/read_game.py [--postgres postgresql+psycopg://postgres@127.0.0.1:5432] [--times N]

PostgreSQL is measured only when a server is named (a database of its own is made on it and
dropped). Prints medians in ms, and the ratio of PostgreSQL's to SQLite's.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlalchemy import create_engine, text  # noqa: E402

from referee import migrations  # noqa: E402
from referee.data.scenarios import new_battle_from_scenario  # noqa: E402
from referee.table import db, service  # noqa: E402


def measure(url: str, times: int) -> dict[str, float]:
    engine = db.make_engine(url)
    migrations.upgrade(engine)
    with db.session(engine) as s:
        doc = new_battle_from_scenario("waterloo")
        game_id = service.create_game(s, "Waterloo", "blackpowder", doc).id
    quiet, after = [], []
    for _ in range(times):
        with db.session(engine) as s:
            t = time.perf_counter()
            service.get_game(s, game_id)
            quiet.append(time.perf_counter() - t)
    for i in range(times):
        with db.session(engine) as s:
            game = service.get_game(s, game_id)
            unit = next(iter(game.state["units"]))
            service.perform(s, game_id, game.version, "adjust_unit",
                            {"unit": unit, "field": "disordered", "value": "yes" if i % 2 == 0 else "no"})
        with db.session(engine) as s:
            t = time.perf_counter()
            service.get_game(s, game_id)
            after.append(time.perf_counter() - t)
    engine.dispose()
    return {"read, nothing written": statistics.median(quiet) * 1000,
            "read after a write": statistics.median(after) * 1000}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", default=os.environ.get("REFEREE_BENCH_POSTGRES", ""))
    parser.add_argument("--times", type=int, default=50)
    args = parser.parse_args()
    results = {}
    folder = Path(tempfile.mkdtemp(prefix="referee-read-"))
    results["SQLite"] = measure(f"sqlite:///{folder / 'referee.sqlite'}", args.times)
    if args.postgres:
        name = f"referee_bench_{uuid.uuid4().hex[:10]}"
        admin = create_engine(f"{args.postgres.rstrip('/')}/postgres", isolation_level="AUTOCOMMIT")
        with admin.connect() as c:
            c.execute(text(f'CREATE DATABASE "{name}"'))
        try:
            results["PostgreSQL"] = measure(f"{args.postgres.rstrip('/')}/{name}", args.times)
        finally:
            with admin.connect() as c:
                c.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            admin.dispose()
    names = list(results)
    print("| Waterloo's game row | " + " | ".join(names) + (" | PostgreSQL ÷ SQLite |" if len(names) == 2 else " |"))
    print("|---|" + "---|" * (len(names) + (1 if len(names) == 2 else 0)))
    for key in results["SQLite"]:
        row = f"| {key} | " + " | ".join(f"{results[n][key]:.2f} ms" for n in names)
        if len(names) == 2:
            row += f" | ×{results['PostgreSQL'][key] / results['SQLite'][key]:.1f}"
        print(row + " |")
    print(f"\nMedians of {args.times} reads; load average (1 min) {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores.")


if __name__ == "__main__":
    main()
