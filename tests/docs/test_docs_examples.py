"""Every example in README.md and docs/*.md is what the current code does.

The console blocks are run as transcripts (see ``tests/docs_examples.py`` for the syntax): each
``$ bench-gate`` command must exit with the code the page says and print the lines shown.
Other blocks may not pass off output as real, and their runnable ``bench-gate`` lines must run.
``--update-docs`` rewrites the shown output from the current code.
"""

from __future__ import annotations

import difflib
import os
import subprocess
import sys
from pathlib import Path

import pytest

import docs_examples as dx

PAGES = list(dx.PAGES)
IDS = [str(p.relative_to(dx.ROOT)) for p in PAGES]
WITH_CONSOLE = [p for p in PAGES if dx.console_blocks(p)]


def test_the_pages_have_console_examples() -> None:
    """The README and the pages that show runs are all checked (a renamed info string would
    silently drop them)."""
    names = {p.name for p in WITH_CONSOLE}
    assert {"README.md", "output-formats.md", "ledger.md", "claims.md", "official-full.md",
            "official-sota.md", "profiles.md"} <= names


@pytest.mark.parametrize("page", PAGES, ids=IDS)
def test_every_fenced_block_says_what_it_is(page: Path) -> None:
    unnamed = [b.where for b in dx.blocks(page) if not b.info]
    assert unnamed == [], "give each block an info string: console (run by the tests), text, sh, yaml, json ..."


@pytest.mark.parametrize("page", PAGES, ids=IDS)
def test_output_is_shown_only_in_console_blocks(page: Path) -> None:
    shown = [(b.where, line) for b in dx.blocks(page) if b.info != "console" for line in dx.output_lines(b)]
    assert shown == [], "show bench-gate output after its '$ bench-gate' command in a console block"


@pytest.mark.parametrize("page", WITH_CONSOLE, ids=[str(p.relative_to(dx.ROOT)) for p in WITH_CONSOLE])
def test_console_examples_are_what_the_tool_prints(page: Path, update_docs: bool) -> None:
    if update_docs and dx.update(page):
        pytest.skip(f"{page.name} rewritten from the current output: review the diff")
    problems = []
    for cmd, cwd in dx.session(page):
        ran = dx.run(cmd.argv, cwd)
        if ran.code != cmd.exit_code:
            problems.append(f"{page.name}:{cmd.line}: exit {ran.code}, the page says {cmd.exit_code}: {cmd.text}")
        if not dx.matches(cmd.shown, ran.output):
            diff = difflib.unified_diff([s.rstrip() for s in cmd.shown], dx.refreshed(cmd.shown, ran.output),
                                        "shown", "printed", lineterm="", n=1)
            problems.append(f"{page.name}:{cmd.line}: {cmd.text}\n" + "\n".join(diff))
    assert problems == [], "\n\n".join(problems) + "\n(pytest tests/docs/test_docs_examples.py --update-docs rewrites them)"


def synopsis_runs() -> list[tuple[str, str]]:
    runs = []
    for page in PAGES:
        for block in dx.blocks(page):
            if block.info != "console":
                runs.extend((block.where, line) for line in dx.synopsis_commands(block)
                            if line.split("#", 1)[0].strip() not in dx.NOT_RUN)
    return runs


@pytest.mark.parametrize(("where", "line"), synopsis_runs())
def test_commands_outside_console_blocks_run(where: str, line: str) -> None:
    """A bench-gate line without a placeholder names real files: it runs from the root."""
    cmd = dx.Command(0, line)
    ran = dx.run(cmd.argv, dx.ROOT)
    assert ran.code == cmd.exit_code, f"{where}: {line}\n" + "\n".join(ran.output[-5:])


def test_commands_not_run_are_in_the_docs() -> None:
    synopses = {line.split("#", 1)[0].strip() for p in PAGES for b in dx.blocks(p) if b.info != "console"
                for line in (ln.strip() for ln in b.lines) if line.startswith("bench-gate ")}
    assert set(dx.NOT_RUN) <= synopses


@pytest.mark.parametrize("page", WITH_CONSOLE, ids=[str(p.relative_to(dx.ROOT)) for p in WITH_CONSOLE])
def test_the_installed_console_script_prints_the_same(page: Path) -> None:
    """One command per page through the real ``bench-gate`` script, in a process of its own,
    against the in-process run the other tests use."""
    runs = list(dx.session(page))
    cmd, cwd = next(((c, d) for c, d in runs if any(a.startswith("--now") for a in c.argv)), runs[0])
    argv = cmd.argv
    if not any(a.startswith("--now") for a in argv):  # the clock of a real process is not frozen
        argv = [*argv, "--now", dx.CLOCK.replace(" ", "T") + "Z"]
    script = Path(sys.executable).with_name("bench-gate")
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "100"}
    for key in ("FORCE_COLOR", "CI", "GITHUB_ACTIONS"):
        env.pop(key, None)
    done = subprocess.run([str(script), *argv[1:]], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    printed = [line.rstrip() for line in (done.stdout + done.stderr).replace(str(dx.ROOT), dx.SHOWN_ROOT).splitlines()]
    ran = dx.run(argv, cwd)
    assert (done.returncode, printed) == (ran.code, ran.output)
    assert done.returncode == cmd.exit_code


# --------------------------------------------------------------------------- the mechanism


SHOWN = ["FAIL   a", "       why", "...", "bench-gate: FAIL  r.json"]


@pytest.mark.parametrize(("printed", "expected"), [
    (["FAIL   a", "       why", "bench-gate: FAIL  r.json"], True),
    (["FAIL   a", "       why", "PASS   b", "       ok", "bench-gate: FAIL  r.json"], True),
    (["FAIL   a", "       why not", "bench-gate: FAIL  r.json"], False),
    (["FAIL   a", "       why", "bench-gate: PASS  r.json"], False),
    (["FAIL   a", "bench-gate: FAIL  r.json"], False),
    (["PASS   b", "FAIL   a", "       why", "bench-gate: FAIL  r.json"], False),
])
def test_shown_lines_match_in_order_with_elisions(printed: list[str], expected: bool) -> None:
    assert dx.matches(SHOWN, printed) is expected


def test_without_elision_every_line_is_compared() -> None:
    assert dx.matches(["a", "b"], ["a", "b"])
    assert not dx.matches(["a", "b"], ["a", "b", ""])
    assert not dx.matches(["a"], ["a", "b"])


def test_refresh_keeps_elisions_and_takes_the_closest_lines() -> None:
    shown = ["head", "...", "FAIL   rule-b  x", "       old message", "...", "tail 1 failed"]
    printed = ["head", "PASS   rule-a", "FAIL   rule-b  x", "       new message", "PASS   rule-c", "tail 2 failed"]
    assert dx.refreshed(shown, printed) == ["head", "...", "FAIL   rule-b  x", "       new message", "...",
                                            "tail 2 failed"]
    assert dx.refreshed(["old"], ["new", "lines"]) == ["new", "lines"]


def test_a_transcript_is_parsed_into_commands(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("Text.\n\n```console\n$ cd examples\n$ bench-gate x.json \\\n    --profile p  # exits 1\n"
                    "FAIL   r\n...\n\n$ bench-gate --version\nbench-gate 0.1.0\n```\n", encoding="utf-8")
    (block,) = dx.blocks(page)
    cd, gate, version = dx.commands(block)
    assert (cd.argv, cd.shown) == (["cd", "examples"], [])
    assert (gate.argv, gate.exit_code, gate.shown) == (["bench-gate", "x.json", "--profile", "p"], 1,
                                                       ["FAIL   r", "..."])  # the blank line separates
    assert (gate.first_output_line, gate.last_output_line) == (6, 8)
    assert (version.exit_code, version.shown) == (0, ["bench-gate 0.1.0"])


def test_placeholders_mark_a_synopsis() -> None:
    block = dx.Block(dx.ROOT / "x.md", "sh", 0, ["bench-gate REPORT --profile ai-memory", "bench-gate profiles",
                                                   "bench-gate report.json --profile p   # REPORT is yours"])
    assert dx.synopsis_commands(block) == ["bench-gate profiles", "bench-gate report.json --profile p   # REPORT is yours"]
