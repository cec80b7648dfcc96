"""The set-up the README promises is the set-up the files perform: two commands, CI running the
test one verbatim, htmx from npm and never a CDN, and a test run that cannot pass on no tests."""
from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()

# Hosts that serve libraries to pages; any of them in our code means a tablet without internet
# gets a broken page.
CDN_HOSTS = ("unpkg.com", "jsdelivr", "cdnjs", "googleapis.com", "gstatic.com", "bootstrapcdn",
             "code.jquery.com", "cloudflare.com", "fontawesome", "cdn.tailwindcss.com", "esm.sh",
             "skypack.dev")
# In a template, an absolute or protocol-relative address that the browser fetches by itself.
REMOTE_LOAD = re.compile(
    r"""<(?:script|link|img|iframe|source|video|audio)\b[^>]*?\b(?:src|href)\s*=\s*["']?\s*(?:https?:)?//"""
    r"""|url\(\s*["']?\s*(?:https?:)?//|@import\s+(?:url\()?\s*["']?\s*(?:https?:)?//""",
    re.IGNORECASE)


def setup_commands() -> list[str]:
    section = README.split("\n## Set up", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```(?:sh|bash|shell)?\n(.*?)```", section, re.DOTALL)
    assert block, "the Set up section has no code block of commands"
    return [line.strip() for line in block.group(1).splitlines()
            if line.strip() and not line.strip().startswith("#")]


def test_the_readme_sets_up_with_exactly_two_commands_run_then_test():
    commands = setup_commands()
    assert len(commands) == 2, commands
    run, test = commands
    assert "run" in run and "test" in test, commands


def test_ci_runs_the_readmes_test_command_verbatim():
    test_command = setup_commands()[1]
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert test_command in [line.strip() for line in ci], f".ci/run does not call `{test_command}`"


def test_every_make_target_the_readme_names_exists():
    named = set(re.findall(r"`make ([a-z][a-z0-9-]*)", README))
    makefile = (ROOT / "Makefile").read_text()
    defined = set(re.findall(r"^([a-z][a-z0-9-]*):", makefile, re.MULTILINE))
    assert named and named <= defined, f"named in the README but not in the Makefile: {named - defined}"


def test_a_test_run_that_collects_nothing_fails(tmp_path):
    # The real recipe with pytest replaced by something that exits as pytest does on no tests.
    out = subprocess.run(
        ["make", "--no-print-directory", "-o", "install", "-o", "browser", "test",
         "PYTEST=python3 -c 'import sys; sys.exit(5)'"],
        cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode != 0
    assert "no tests" in out.stderr


def test_htmx_comes_from_npm_pinned_to_version_2():
    package = json.loads((ROOT / "package.json").read_text())
    lock = json.loads((ROOT / "package-lock.json").read_text())
    assert package["dependencies"]["htmx.org"].lstrip("~^").startswith("2.")
    assert lock["packages"]["node_modules/htmx.org"]["version"].startswith("2.")
    makefile = (ROOT / "Makefile").read_text()
    assert "node_modules/htmx.org/dist/htmx.min.js" in makefile
    assert "referee/static/vendor/htmx.min.js" in makefile


def _our_files():
    vendor = ROOT / "referee" / "static" / "vendor"
    for folder, patterns in ((ROOT / "templates", ("*.html", "*.jinja", "*.j2", "*.svg")),
                             (ROOT / "referee", ("*.py", "*.html", "*.js", "*.css"))):
        for pattern in patterns:
            for path in folder.rglob(pattern):
                if vendor not in path.parents:
                    yield path


def test_no_template_or_module_loads_anything_from_a_cdn():
    offenders = []
    for path in _our_files():
        text = path.read_text(errors="replace")
        rel = path.relative_to(ROOT)
        for host in CDN_HOSTS:
            if host in text:
                offenders.append(f"{rel}: {host}")
        if path.suffix != ".py":
            offenders += [f"{rel}: {m.group(0)}" for m in REMOTE_LOAD.finditer(text)]
    assert offenders == []


def test_the_cdn_check_recognises_a_remote_script_and_stylesheet():
    assert REMOTE_LOAD.search('<script src="https://unpkg.com/htmx.org@2"></script>')
    assert REMOTE_LOAD.search("<link rel=stylesheet href='//fonts.example.com/x.css'>")
    assert REMOTE_LOAD.search("body { background: url( https://example.com/a.png) }")
    assert not REMOTE_LOAD.search('<script src="{{ url_for(\'static\', filename=\'vendor/htmx.min.js\') }}">')
    assert not REMOTE_LOAD.search('<a href="https://example.com/rules">the rules</a>')


def test_the_benchmark_runs(capsys):
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_engine", ROOT / "bench" / "bench_engine.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert bench.main(["--games", "1"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^order\s+\d+", out, re.MULTILINE) and re.search(r"^shoot\s+\d+", out, re.MULTILINE)
    assert "games/s" in out
