"""Lighthouse's four scores for the home page and the boards: ``make lighthouse``.

Starts Referee as ``make run`` does (``python -m referee``: waitress, here with a SQLite file in a
temporary folder, so the demo battle is seeded on first start), starts the Battle of Waterloo
(about 300 units) and an Of Oil and Iron engagement through the app's own start forms, and runs
Lighthouse (an npm development dependency, in node_modules) in Debian's Chromium on each page at
two form factors: Lighthouse's desktop preset and a 1024×768 tablet (bench/lighthouse.config.mjs).

It prints a Markdown table of the scores (performance, accessibility, best practices, SEO) with
every audit that lost points, and exits 1 when performance is under 95 or any other score under 100
on any page (issue 47's goals for the older tablet), or a run did not finish cleanly. The
performance score is Lighthouse's own throttling (the tablet preset: a CPU slowed four times and a
slow 4G network, simulated); on a loaded machine it swings with the load, so a run prints the
machine's load average beside it.

    .venv/bin/python bench/lighthouse.py [--forms desktop,tablet] [--reports DIR] [--lan]

``--lan`` serves on every network and measures at this machine's network address, as a tablet at
the club reaches it over plain HTTP (where "uses HTTPS" cannot pass without a TLS proxy).

``CHROME_PATH`` names the browser (default /usr/bin/chromium).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from bench_server import Server, free_port  # noqa: E402
from play import start_engagement, start_scenario  # noqa: E402
from tablets import Tablet  # noqa: E402

LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
CONFIG = HERE / "lighthouse.config.mjs"
FORMS = ("desktop", "tablet")
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
# The least each category must score (out of 100).
TARGETS = {"performance": 95, "accessibility": 100, "best-practices": 100, "seo": 100}
CHROME_FLAGS = ("--headless --no-sandbox --disable-gpu --disable-background-networking "
                "--disable-component-update --disable-sync --no-first-run")
RUN_TIMEOUT = 240  # seconds for one page at one form factor; a run takes 15 to 35
# Lighthouse's note that this machine is slower than it expects: a note on the performance score
# (which the load average printed beside it explains), not a fault of the page.
PERFORMANCE_ONLY = re.compile(r"slower CPU than\s+Lighthouse expects")
GAME_LINK = re.compile(r'href="/games/(\d+)"')
UNIT = re.compile(r'\bdata-unit="')


def pages(port: int) -> list[tuple[str, str]]:
    """(what, path) of each page measured; the games are started here through their forms."""
    t = Tablet("127.0.0.1", port, "lighthouse")
    home, _ = t.open_page("/")
    seeded = GAME_LINK.search(home.text)
    if not seeded:
        raise SystemExit("the home page lists no game: the demo battle was not seeded (REFEREE_SEED_DEMO=0?)")
    demo = f"/games/{seeded.group(1)}"
    waterloo = start_scenario(t, "waterloo")
    units = len(UNIT.findall(t.request("GET", waterloo).text))
    engagement = f"/games/{start_engagement(t, 6)}"
    t.close()
    return [("home page", "/"), ("board: the demo battle", demo),
            (f"board: Waterloo, {units} units", waterloo),
            ("board: an Of Oil and Iron engagement, 6 Rigs a side", engagement)]


def lighthouse(url: str, form: str, out: Path, html: bool) -> dict:
    outputs = ["--output=json"] + (["--output=html"] if html else [])
    argv = [str(LIGHTHOUSE), url, f"--config-path={CONFIG}", f"--chrome-flags={CHROME_FLAGS}",
            *outputs, f"--output-path={out}", "--quiet"]
    env = {**os.environ, "LIGHTHOUSE_FORM": form, "CHROME_PATH": os.environ.get("CHROME_PATH", "/usr/bin/chromium")}
    try:
        done = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT)
    except subprocess.TimeoutExpired:
        return {"error": f"no result within {RUN_TIMEOUT} s"}
    report = out.with_suffix(".report.json") if html else out
    if done.returncode != 0 or not report.exists():
        return {"error": f"lighthouse exited {done.returncode}: {(done.stderr or done.stdout).strip()[-400:]}"}
    return json.loads(report.read_text())


def lost_points(result: dict) -> list[str]:
    """Each audit that counts towards a category's score and did not pass (for performance, with
    the figure measured: a metric scores on a curve, so most lose a point or two)."""
    lost = []
    for name, category in result["categories"].items():
        for ref in category["auditRefs"]:
            audit = result["audits"][ref["id"]]
            if ref["weight"] > 0 and audit["score"] is not None and audit["score"] < 1:
                shown = f" {audit['displayValue']}" if audit.get("displayValue") else ""
                if name != "performance" or audit["score"] < 0.9:
                    lost.append(f"{name}: {audit['title']}{shown}")
    return lost


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--forms", default=",".join(FORMS), help="form factors, of: " + ", ".join(FORMS))
    parser.add_argument("--reports", type=Path, help="keep each page's JSON and HTML report in this folder")
    parser.add_argument("--lan", action="store_true", help="measure at this machine's network address, not 127.0.0.1")
    args = parser.parse_args()
    forms = [f.strip() for f in args.forms.split(",") if f.strip()]
    if not forms or any(f not in FORMS for f in forms):
        raise SystemExit(f"--forms takes one or more of {', '.join(FORMS)}, not {args.forms!r}")
    if not LIGHTHOUSE.exists():
        raise SystemExit(f"{LIGHTHOUSE} is missing: run `npm ci` (Lighthouse is a development dependency).")
    chrome = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
    if not os.access(chrome, os.X_OK):
        raise SystemExit(f"no browser at {chrome}: run scripts/ensure-chromium.sh or set CHROME_PATH.")

    address = "127.0.0.1"
    if args.lan:
        from referee.web.serving.lan import lan_addresses
        found = lan_addresses()
        if not found:
            raise SystemExit("--lan: this machine has no network address other than loopback.")
        address = found[0]
    started, load_before = time.monotonic(), os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="referee-lighthouse-") as tmp:
        folder = Path(tmp)
        reports = args.reports or folder
        reports.mkdir(parents=True, exist_ok=True)
        env = {"DATABASE_URL": f"sqlite:///{folder / 'referee.sqlite'}", "SECRET_KEY": "lighthouse",
               "HOST": "0.0.0.0" if args.lan else "127.0.0.1", "PORT": str(free_port()), "PYTHONUNBUFFERED": "1"}
        referee = Server("referee", [sys.executable, "-m", "referee"], env, folder)
        rows, clean, version = [], True, "?"
        try:
            for what, path in pages(referee.port):
                for form in forms:
                    name = f"{form}-{path.strip('/').replace('/', '-') or 'home'}"
                    print(f"Lighthouse: {what} ({path}), {form} ...", file=sys.stderr, flush=True)
                    result = lighthouse(f"http://{address}:{referee.port}{path}", form, reports / name,
                                        html=args.reports is not None)
                    if "error" in result:
                        rows.append((what, form, *("–" for _ in CATEGORIES), result["error"]))
                        clean = False
                        continue
                    version = result.get("lighthouseVersion", version)
                    scores = [result["categories"][c]["score"] for c in CATEGORIES]
                    notes = lost_points(result) + [f"warning: {' '.join(w.split())}" for w in result.get("runWarnings", [])
                                                   if not PERFORMANCE_ONLY.search(w)]
                    if result.get("runtimeError"):
                        notes.append(f"error: {result['runtimeError'].get('message')}")
                    clean &= all(s is not None and round(s * 100) >= TARGETS[c] for c, s in zip(CATEGORIES, scores))
                    clean &= not [n for n in notes if not n.startswith("performance:")]
                    rows.append((what, form, *(str(round(s * 100)) if s is not None else "–" for s in scores),
                                 "; ".join(notes) or "none"))
        finally:
            referee.stop()
    load_after = os.getloadavg()
    print(f"Lighthouse {version} in {chrome}, against `make run` at {address} "
          f"({time.monotonic() - started:.0f} s; load average {load_before[0]:.2f} before, "
          f"{load_after[0]:.2f} after, on {os.cpu_count()} cores)\n")
    print("| page | form factor | performance (≥ 95) | accessibility | best practices | SEO | audits that lost points |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    sys.exit(0 if clean else 1)


if __name__ == "__main__":
    main()
