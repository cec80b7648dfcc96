"""The server benchmark's table: each figure, what it is against the bare fragment, and whether
it meets the target the project set for it (issue 11). Targets are reported, not asserted."""
from __future__ import annotations

import bisect
import os
from dataclasses import dataclass

from tablets import Timings

ACTIONS = [("order", "Black Powder: order"), ("charge", "Black Powder: charge"), ("shoot", "Black Powder: shoot"),
           ("combat_round", "Black Powder: combat round"), ("next_phase", "Black Powder: next phase"),
           ("oi:move", "Of Oil and Iron: move"), ("oi:attack", "Of Oil and Iron: attack (ROF 6 Full Auto)")]
HEAVY_ODDS = ["order", "charge", "shoot", "combat 6 v 6", "ROF 6 full auto"]


def pct(values: list[float], q: float) -> float | None:
    """The q-th percentile by nearest rank (None for no values)."""
    if not values:
        return None
    s = sorted(values)
    k = max(0, min(len(s) - 1, int(round(q / 100 * len(s) + 0.5)) - 1))
    return s[k]


def ms(x: float | None) -> str:
    return "—" if x is None else f"{x * 1000:.1f} ms" if x < 1 else f"{x:.2f} s"


def kb(n: float | None) -> str:
    return "—" if n is None else f"{n / 1000:.1f} kB" if n >= 1000 else f"{int(n)} B"


def ratio(a: float | None, b: float | None) -> str:
    return "—" if a is None or not b else f"×{a / b:.1f}"


def verdict(ok: bool | None) -> str:
    return "—" if ok is None else "met" if ok else "**missed**"


@dataclass
class Row:
    figure: str
    measured: str
    against: str
    target: str
    met: bool | None


class Report:
    def __init__(self, timings: Timings, commits, pollers: dict, first: dict, rss: dict, load: tuple,
                 seconds: float, cadence: tuple[float, float]) -> None:
        self.t, self.commits, self.pollers, self.first = timings, commits, pollers, first
        self.rss, self.load, self.seconds, self.cadence = rss, load, seconds, cadence

    def seen_delays(self) -> list[float]:
        """For each change and each watching tablet: how long after the acting tablet had its
        answer the watcher showed that version (or a later one)."""
        return seen_delays(self.pollers, self.commits)

    def rows(self) -> list[Row]:
        t = self.t
        get = t.seconds("bare-get") + t.seconds("bare-poll:200")
        post = t.seconds("bare-post")
        g95, p95 = pct(get, 95), pct(post, 95)
        rows = [Row("Yardstick: bare fragment GET, p50 / p95 / p99",
                    f"{ms(pct(get, 50))} / {ms(g95)} / {ms(pct(get, 99))}", "×1", "", None),
                Row("Yardstick: bare fragment POST, p50 / p95 / p99",
                    f"{ms(pct(post, 50))} / {ms(p95)} / {ms(pct(post, 99))}", "×1", "", None)]
        for key, name in ACTIONS:
            xs = t.seconds(key)
            a95 = pct(xs, 95)
            rows.append(Row(f"{name} POST, p50 / p95 / p99 (n={len(xs)}; {t.count(key, 409)} stale, "
                            f"{t.count(key, 422)} refused)",
                            f"{ms(pct(xs, 50))} / {ms(a95)} / {ms(pct(xs, 99))}", ratio(a95, p95) + " (p95)",
                            "p95 ≤ ×5", None if a95 is None else a95 <= 5 * p95))
        for game, prefix in (("Black Powder", ""), ("Of Oil and Iron", "oi:")):
            board = [x for k in t.answers if k.startswith("board:") and k[6:].startswith(prefix)
                     and (prefix or not k[6:].startswith("oi:")) for x in t.seconds(k)]
            rows.append(Row(f"{game}: the acting tablet's board shows its change (the POST, then its poll), "
                            f"p50 / p95 (n={len(board)})", f"{ms(pct(board, 50))} / {ms(pct(board, 95))}",
                            ratio(pct(board, 95), p95) + " (p95)", "", None))
        forms = [x for k in t.answers if k.startswith("form:") for x in t.seconds(k)]
        rows.append(Row("Opening an action form, p50 / p95", f"{ms(pct(forms, 50))} / {ms(pct(forms, 95))}",
                        ratio(pct(forms, 95), g95) + " (p95)", "", None))
        in_play = [x for k in t.answers if k.startswith("odds:") for x in t.seconds(k)]
        rows.append(Row("The odds line as a form opens, p50 / p95", f"{ms(pct(in_play, 50))} / {ms(pct(in_play, 95))}",
                        ratio(pct(in_play, 95), g95) + " (p95)", "p95 ≤ ×5",
                        None if not in_play else pct(in_play, 95) <= 5 * g95))
        for game, what in (("Black Powder", "poll"), ("Of Oil and Iron", "oi-poll")):
            quiet = t.seconds(f"{what}:204", (204,))
            q95 = pct(quiet, 95)
            rows.append(Row(f"{game}: poll, nothing changed (204), p50 / p95 / p99 (n={len(quiet)})",
                            f"{ms(pct(quiet, 50))} / {ms(q95)} / {ms(pct(quiet, 99))}", ratio(q95, g95) + " (p95)",
                            "p95 ≤ ×2", None if q95 is None else q95 <= 2 * g95))
            changed = t.answers.get(f"{what}:200", [])
            c95 = pct([a.seconds for a in changed], 95)
            sizes = [a.size for a in changed]
            wire = [a.wire for a in changed]
            rows.append(Row(f"{game}: poll after a change, p50 / p95 (n={len(changed)})",
                            f"{ms(pct([a.seconds for a in changed], 50))} / {ms(c95)}", ratio(c95, g95) + " (p95)",
                            "", None))
            rows.append(Row(f"{game}: bytes of a poll after any change in play, p50 / max (gzip on the wire)",
                            f"{kb(pct(sizes, 50))} / {kb(max(sizes, default=None))} "
                            f"({kb(pct(wire, 50))} / {kb(max(wire, default=None))})", "", "", None))
            empty = t.answers.get(f"{what}:204", [])
            rows.append(Row(f"{game}: bytes of a 204 poll answer (headers)",
                            kb(pct([a.header_bytes for a in empty], 50)), "", "", None))
        shots = t.answers.get("poll-after-shot:200", [])
        most = max((a.size for a in shots), default=None)
        rows.append(Row(f"Black Powder: bytes of a poll after one shot (≤ 3 units touched), p50 / max (n={len(shots)})",
                        f"{kb(pct([a.size for a in shots], 50))} / {kb(most)} "
                        f"({kb(pct([a.wire for a in shots], 50))} / {kb(max((a.wire for a in shots), default=None))} gzip)",
                        "", "≤ 10 kB", None if most is None else most <= 10_000))
        attack = t.answers.get("oi-poll-after-attack:200", [])
        most = max((a.size for a in attack), default=None)
        rows.append(Row("Of Oil and Iron: bytes of a poll after one attack (2 Rigs touched)",
                        f"{kb(most)} ({kb(max((a.wire for a in attack), default=None))} gzip)", "", "≤ 10 kB",
                        None if most is None else most <= 10_000))
        seen = self.seen_delays()
        s95 = pct(seen, 95)
        interval, spread = self.cadence
        rows.append(Row(f"A change shown on the other tablets, p50 / p95 (poll every {interval:g} s"
                        + (f" + up to {spread:g} s)" if spread else ")"),
                        f"{ms(pct(seen, 50))} / {ms(s95)}", "", "p95 ≤ 1 s", None if s95 is None else s95 <= 1.0))
        for label in HEAVY_ODDS:
            xs = t.seconds(f"heavy-odds:{label}")
            worst = max(xs, default=None)
            rows.append(Row(f"Odds, heaviest case: {label}, p50 / max (n={len(xs)})", f"{ms(pct(xs, 50))} / {ms(worst)}",
                            ratio(worst, g95) + " (max)", "≤ ×5", None if worst is None else worst <= 5 * g95))
        big, small = t.seconds("shoot-300"), t.seconds("shoot-20")
        b50, s50 = pct(big, 50), pct(small, 50)
        rows.append(Row("Shoot on 300 units against 20 units, p50 (no one watching)", f"{ms(b50)} against {ms(s50)}",
                        ratio(b50, s50), "≤ ×1.5", None if b50 is None or not s50 else b50 <= 1.5 * s50))
        big, small = t.seconds("board:shoot-300"), t.seconds("board:shoot-20")
        b50, s50 = pct(big, 50), pct(small, 50)
        rows.append(Row("The same, until the acting tablet's board shows the shot (the POST, then its poll), p50",
                        f"{ms(b50)} against {ms(s50)}", ratio(b50, s50), "≤ ×1.5",
                        None if b50 is None or not s50 else b50 <= 1.5 * s50))
        deep, shallow = pct(t.seconds("log-page:1000"), 50), pct(t.seconds("log-page:10"), 50)
        rows.append(Row("Log page, 1000 entries (its newest 50) against 10 (all of them), p50",
                        f"{ms(deep)} against {ms(shallow)}", ratio(deep, shallow), "", None))
        down = pct(t.seconds("log-page:1000-deep"), 50)
        rows.append(Row("Log page 500 entries down against the newest page, 1000 entries, p50",
                        f"{ms(down)} against {ms(deep)}", ratio(down, deep), "paginated, flat (≤ ×1.5)",
                        None if down is None or not deep else down <= 1.5 * deep))
        deep, shallow = pct(t.seconds("log-entry:1000"), 50), pct(t.seconds("log-entry:10"), 50)
        rows.append(Row("A past entry's view, 1000 entries against 10, p50", f"{ms(deep)} against {ms(shallow)}",
                        ratio(deep, shallow), "flat (≤ ×1.5)",
                        None if deep is None or not shallow else deep <= 1.5 * shallow))
        for name in ("battle", "engagement"):
            rows.append(Row(f"First load of the {name} board, page + CSS + JS as transferred (gzip)",
                            f"{kb(self.first[name])} (page {kb(self.first[name + '-raw'])} unpacked)", "",
                            "≤ 60 kB", self.first[name] <= 60_000))
        rows.append(Row("Server memory (RSS), peak", f"{self.rss['referee']:.0f} MB",
                        f"bare app {self.rss['bare']:.0f} MB", "≤ 200 MB", self.rss["referee"] <= 200))
        return rows

    def markdown(self) -> str:
        before, after = self.load
        lines = ["| figure | measured | against the bare fragment | target | |", "| --- | --- | --- | --- | --- |"]
        lines += [f"| {r.figure} | {r.measured} | {r.against} | {r.target} | {verdict(r.met)} |" for r in self.rows()]
        lines.append("")
        lines.append(f"Machine: {os.cpu_count()} cores; load average {before[0]:.2f} / {before[1]:.2f} / "
                     f"{before[2]:.2f} before the run, {after[0]:.2f} / {after[1]:.2f} / {after[2]:.2f} after; "
                     f"the run took {self.seconds:.0f} s.")
        return "\n".join(lines)


def seen_delays(pollers_by_game: dict, commits) -> list[float]:
    """For each change and each watching tablet: how long after the acting tablet had its answer
    the watcher showed that version (or a later one). Shared by every bench that watches boards."""
    out = []
    for game_id, pollers in pollers_by_game.items():
        committed = commits.at.get(game_id, {})
        for p in pollers:
            versions = sorted(p.seen)
            times = [p.seen[v] for v in versions]
            for v, at in committed.items():
                if v <= p.first_version:
                    continue
                i = bisect.bisect_left(versions, v)
                if i < len(versions):
                    # The first answer showing v or later; the earliest such time.
                    out.append(max(0.0, min(times[i:]) - at))
    return out
