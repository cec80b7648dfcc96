"""What a tablet's browser does with the 300-unit board: the browser part of ``make bench``.

Debian's Chromium through Playwright at 1024x768 with touch, its CPU slowed four times through the
DevTools protocol (``Emulation.setCPUThrottlingRate``, as Lighthouse slows a desktop to a mid-range
tablet), on the real server (``python -m referee``, SQLite in a temporary folder) and the Battle of
Waterloo started from the scenario list (``--board synthetic``: a 300-unit battle typed into the
start form instead). Each figure is the median of several tries:

- first usable board: from the navigation's start until board.js has shown its tools (the board
  folded and filtered as this tablet keeps it) and that frame is painted, with every brigade open
  (a tablet that never folded) and with every brigade folded (sent without its cards where the
  checkout does so, ``web/serving/folds.py``);
- a poll's answer applied: the page is frozen (``Page.setWebLifecycleState``) while another
  session marks 1 or 30 units disordered, then let go: from the poll's answer arriving to the
  frame after the changed cards are painted;
- tap to next paint: open a unit's panel (a request), a keystroke in the search, fold a brigade,
  open a folded brigade (until its cards are painted, fetched where the checkout fetches them),
  Resolve (a correction in the panel: a write and its result), Next phase (a write, until its
  answer is settled in the panel and painted);
- the first load as transferred: the board's page and every style sheet and script it names, gzip
  where the server compresses, headers included (``Tablet.open_page``), for the umpire's tablet;
- the layout shift as the open board loads (Chromium's own ``layout-shift`` entries, summed as
  Lighthouse's cumulative layout shift): how far the board moves under a finger as it appears;
- the DOM's size (elements) with every brigade open, with every brigade folded, and the folded
  board as a page load gives it.

Another checkout can be measured beside this one (``--root /work/main``): the same battle, the same
steps; the ratios of the two runs are what a change bought, as the machine's load is the same.

    python bench/browser.py [--tries N] [--root PATH] [--board waterloo|synthetic]
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_server import Server, free_port  # noqa: E402
from play import BRIGADE_LINES, GAME_ADDRESS, start_battle, start_scenario  # noqa: E402
from tablets import Tablet  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
REFUSAL = re.compile(r'role="alert">([^<]*)')
SLOWDOWN = 4

# Installed in the page before its scripts: when the board's tools appear (board.js has started),
# when a poll's answer arrives and when the frame after it (or after a tap) has been painted.
PROBE = """
(() => {
  const after_paint = (done) => requestAnimationFrame(() => setTimeout(() => done(performance.now()), 0));
  window.__bench = { usable: null, poll: null, tap: null, t0: null, shift: 0 };
  // How far the page moved under the reader while it loaded (Chromium's layout shifts, not those
  // a tap caused): Lighthouse's cumulative layout shift, summed over the whole load.
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (!e.hadRecentInput) window.__bench.shift += e.value;
  }).observe({ type: "layout-shift", buffered: true });
  new MutationObserver((_, obs) => {
    const tools = document.getElementById("board-tools");
    if (tools && !tools.hidden) { obs.disconnect(); after_paint((t) => { window.__bench.usable = t; }); }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["hidden"] });
  document.addEventListener("htmx:beforeOnLoad", (e) => {
    const elt = e.detail.elt;
    const want = window.__bench.watch;
    if (!elt || elt.id !== "poll" || e.detail.xhr.status !== 200 || !want) return;
    // The answer that brings the last of the changes (a poll on its way when the page froze may
    // bring only some of them).
    if (!e.detail.xhr.responseText.includes(`data-version="${want}"`)) return;
    const t0 = performance.now();
    window.__bench.watch = false;
    after_paint((t) => { window.__bench.poll = t - t0; });
  });
  for (const name of ["click", "input"]) {
    document.addEventListener(name, (e) => {
      if (!window.__bench.arm) return;
      window.__bench.t0 = e.timeStamp;
      if (window.__bench.arm === "local") {
        window.__bench.arm = null;
        after_paint((t) => { window.__bench.tap = t - window.__bench.t0; });
      }
    }, true);
  }
  // Opening a folded brigade: until its cards are there (fetched, where they are) and painted.
  document.addEventListener("click", (e) => {
    if (window.__bench.arm !== "cards") return;
    const group = e.target.closest("details");
    const t0 = e.timeStamp;
    window.__bench.arm = null;
    const wait = () => {
      if (group.querySelector("[data-unit]")) after_paint((t) => { window.__bench.tap = t - t0; });
      else requestAnimationFrame(wait);
    };
    requestAnimationFrame(wait);
  }, true);
  document.addEventListener("htmx:afterSettle", (e) => {
    if (window.__bench.arm !== "panel" || !(e.target instanceof Element) || e.target.id !== "panel") return;
    window.__bench.arm = null;
    after_paint((t) => { window.__bench.tap = t - window.__bench.t0; });
  });
})();
"""


def median_ms(values: list[float]) -> str:
    return f"{statistics.median(values):.0f} ms" if values else "—"


class Bench:
    def __init__(self, page, base: str, game_id: int, cookies: dict) -> None:
        self.page, self.base, self.game_id = page, base, game_id
        self.cdp = page.context.new_cdp_session(page)
        self.url = f"{base}/games/{game_id}"
        self.disordered: dict[str, bool] = {}

    def slow(self) -> None:
        self.cdp.send("Emulation.setCPUThrottlingRate", {"rate": SLOWDOWN})

    def first_usable(self) -> float:
        self.slow()
        self.page.goto(self.url, wait_until="load")
        self.page.wait_for_function("window.__bench && window.__bench.usable !== null", timeout=60_000)
        return self.page.evaluate("window.__bench.usable")

    def shifted(self) -> float:
        """The layout shift of the load just timed, once its last frames are reported."""
        self.page.wait_for_timeout(500)
        return self.page.evaluate("window.__bench.shift")

    def dom_size(self) -> int:
        return self.page.evaluate("document.getElementsByTagName('*').length")

    def fold_all(self, how: str) -> None:
        self.page.locator(f"#board-tools [data-fold-all={how}]").click()

    def poll_applied(self, units: list[str]) -> float:
        """Freeze the page, mark ``units`` disordered from the same session, let it go, and time
        its poll's answer to the frame after it."""
        page = self.page
        token = page.locator("input[name=csrf_token]").first.get_attribute("value")
        version = int(page.locator("#poll").get_attribute("data-version"))
        page.evaluate(f"window.__bench.poll = null; window.__bench.watch = {version + len(units)}")
        self.cdp.send("Page.setWebLifecycleState", {"state": "frozen"})
        try:
            for unit in units:
                answer = page.request.post(f"{self.url}/act/adjust_unit", max_redirects=0, form={
                    "csrf_token": token, "version": str(version), "unit": unit, "field": "disordered",
                    "value": "no" if self.disordered.get(unit) else "yes"})
                if answer.status not in (200, 303):
                    said = REFUSAL.findall(answer.text())
                    raise RuntimeError(f"marking {unit} answered {answer.status}: {said}")
                self.disordered[unit] = not self.disordered.get(unit)
                version += 1
        finally:
            self.cdp.send("Page.setWebLifecycleState", {"state": "active"})
        page.wait_for_function("window.__bench.poll !== null", timeout=60_000)
        page.wait_for_function(f"document.getElementById('poll').dataset.version === '{version}'")
        return page.evaluate("window.__bench.poll")

    def tap(self, locator, arm: str) -> float:
        """Tap ``locator``; ``arm`` is "local" (the next paint after the tap's own handlers),
        "panel" (the panel swapped in by its answer, painted) or "cards" (the brigade opened shows
        its cards, painted)."""
        self.page.evaluate(f"window.__bench.tap = null; window.__bench.arm = {arm!r}")
        locator.tap()
        self.page.wait_for_function("window.__bench.tap !== null", timeout=60_000)
        return self.page.evaluate("window.__bench.tap")

    def keystroke(self, key: str) -> float:
        self.page.evaluate("window.__bench.tap = null; window.__bench.arm = 'local'")
        self.page.locator("#board-find").press(key)
        self.page.wait_for_function("window.__bench.tap !== null", timeout=60_000)
        return self.page.evaluate("window.__bench.tap")



def measure(root: Path, tries: int, board: str) -> dict[str, list[float]]:
    from playwright.sync_api import sync_playwright

    folder = Path(tempfile.mkdtemp(prefix="referee-browser-"))
    port = free_port()
    env = {"DATABASE_URL": f"sqlite:///{folder / 'referee.sqlite'}", "SECRET_KEY": "benchmark",
           "HOST": "127.0.0.1", "PORT": str(port), "PYTHONUNBUFFERED": "1"}
    server = Server("referee", [sys.executable, "-m", "referee"], env, folder, cwd=root)
    out: dict[str, list[float]] = {}
    try:
        umpire = Tablet("127.0.0.1", port, "umpire")
        if board == "waterloo":
            game_id = int(GAME_ADDRESS.fullmatch(start_scenario(umpire, "waterloo")).group(1))
        else:
            game_id = start_battle(umpire, "Benchmark: 300 units", 10, BRIGADE_LINES)
        # A tablet that never folded is sent every card: the battle's size, and its first load.
        first, first_bytes = umpire.open_page(f"/games/{game_id}")
        units = first.text.count('data-unit="')
        out["first load, page + CSS + JS as transferred (kB)"] = [first_bytes / 1000]
        out["units"] = [units]
        umpire.close()
        base = f"http://127.0.0.1:{port}"
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM)
            # bypass_csp: the probe's waits are evaluated strings, which the app's policy forbids.
            context = browser.new_context(viewport={"width": 1024, "height": 768}, has_touch=True, bypass_csp=True)
            context.add_cookies([{"name": k, "value": v, "url": base} for k, v in umpire.cookies.items()])
            context.add_init_script(PROBE)
            page = context.new_page()
            b = Bench(page, base, game_id, umpire.cookies)
            b.first_usable()  # warm the server's drawing of this version
            for _ in range(tries):
                out.setdefault("first usable board", []).append(b.first_usable())
                out.setdefault("layout shift as the board loads, brigades open", []).append(b.shifted())
            b.fold_all("fold")
            for _ in range(tries):
                out.setdefault("first usable board, brigades folded", []).append(b.first_usable())
            out["DOM elements, folded board loaded"] = [b.dom_size()]
            # A tablet as it is mostly held: every brigade folded but one.
            page.locator("#units details.brigade > summary").nth(3).tap()
            page.wait_for_selector("#units details.brigade[open] [data-unit] a.card")
            for i in range(tries):
                card = page.locator("#units details.brigade[open] [data-unit] a.card").nth(i % 5)
                out.setdefault("tap → panel painted, board folded but one brigade", []).append(b.tap(card, "panel"))
            page.locator("#units details.brigade > summary").nth(3).tap()
            b.fold_all("open")
            page.wait_for_function(f"document.querySelectorAll('#units [data-unit]').length >= {units}", timeout=60_000)
            out["DOM elements, brigades open"] = [b.dom_size()]
            ids = page.locator("#units [data-unit]").evaluate_all("els => els.map(e => e.dataset.unit)")
            for i in range(tries):
                out.setdefault("poll applied, 1 card", []).append(b.poll_applied(ids[i:i + 1]))
                out.setdefault("poll applied, 30 cards", []).append(b.poll_applied(ids[100 + i:130 + i]))
            for i in range(tries):
                card = page.locator("#units [data-unit] a.card").nth(40 + i)
                out.setdefault("tap → panel painted", []).append(b.tap(card, "panel"))
                button = page.locator("#panel button", has_text="disorder").first
                out.setdefault("Resolve (a correction) → result painted", []).append(b.tap(button, "panel"))
            for i in range(tries):
                button = page.locator("button.next-phase").first
                out.setdefault("Next phase → painted", []).append(b.tap(button, "panel"))
            page.locator("#board-find").fill("")
            for i in range(tries):
                out.setdefault("search keystroke → painted", []).append(b.keystroke("b"))
                b.keystroke("Backspace")
            for i in range(tries):
                summary = page.locator("#units details.brigade > summary").nth(i)
                out.setdefault("fold a brigade → painted", []).append(b.tap(summary, "local"))
                out.setdefault("open a folded brigade → painted", []).append(b.tap(summary, "cards"))
            b.fold_all("fold")
            page.wait_for_function("!document.querySelector('#units details.brigade[open]')")
            out["DOM elements, brigades folded"] = [b.dom_size()]
            browser.close()
    finally:
        server.stop()
    return out


ORDER = ["units", "first load, page + CSS + JS as transferred (kB)", "first usable board",
         "layout shift as the board loads, brigades open", "first usable board, brigades folded", "poll applied, 1 card", "poll applied, 30 cards", "tap → panel painted",
         "tap → panel painted, board folded but one brigade",
         "search keystroke → painted", "fold a brigade → painted", "open a folded brigade → painted",
         "Resolve (a correction) → result painted", "Next phase → painted", "DOM elements, brigades open", "DOM elements, brigades folded",
         "DOM elements, folded board loaded"]
GOALS = {"first usable board": "≤ 1000 ms", "first usable board, brigades folded": "≤ 1000 ms", "poll applied, 30 cards": "≤ 50 ms",
         "tap → panel painted": "≤ 100 ms", "tap → panel painted, board folded but one brigade": "≤ 100 ms",
         "search keystroke → painted": "≤ 100 ms",
         "fold a brigade → painted": "≤ 100 ms", "open a folded brigade → painted": "≤ 100 ms",
         "Resolve (a correction) → result painted": "≤ 200 ms", "Next phase → painted": "≤ 150 ms",
         "first load, page + CSS + JS as transferred (kB)": "≤ 60 kB",
         "layout shift as the board loads, brigades open": "≤ 0.1"}
COUNTS = ("DOM", "units")


def table(runs: dict[str, dict[str, list[float]]], board: str) -> str:
    names = list(runs)
    head = f"| at CPU ×4, 1024×768, {board} | " + " | ".join(names) + (" | ratio |" if len(names) == 2 else " |")
    lines = [head + " goal |", "|" + "---|" * (len(names) + (3 if len(names) == 2 else 2))]
    for key in ORDER:
        cells = []
        for name in names:
            v = runs[name].get(key, [])
            if key.startswith("first load") and v:
                cells.append(f"{v[0]:.1f} kB")
            elif key.startswith("layout shift") and v:
                cells.append(f"{statistics.median(v):.3f}")
            else:
                cells.append(str(int(v[0])) if key.startswith(COUNTS) and v else median_ms(v))
        row = f"| {key} | " + " | ".join(cells)
        if len(names) == 2:
            a, b = (statistics.median(runs[n].get(key) or [0]) for n in names)
            row += f" | ×{a / b:.2f}" if b else " | —"
        lines.append(row + f" | {GOALS.get(key, '')} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tries", type=int, default=5)
    parser.add_argument("--root", type=Path, action="append", default=[],
                        help="another checkout to measure beside this one (repeatable)")
    parser.add_argument("--board", choices=("waterloo", "synthetic"), default="waterloo",
                        help="the Battle of Waterloo from the scenario list, or 300 units typed in")
    args = parser.parse_args()
    load_before = os.getloadavg()
    runs = {}
    for root in [HERE.parent, *args.root]:
        name = "this checkout" if root == HERE.parent else str(root)
        print(f"Measuring {name} ...", file=sys.stderr)
        runs[name] = measure(root, args.tries, args.board)
    load_after = os.getloadavg()
    print(table(runs, "the Battle of Waterloo" if args.board == "waterloo" else "300 units"))
    print(f"\nMedians of {args.tries} tries. Load average (1 min) {load_before[0]:.2f} before, "
          f"{load_after[0]:.2f} after, on {os.cpu_count()} cores.")


if __name__ == "__main__":
    main()
