"""The examples in README.md and docs/*.md, read as transcripts and run against the current code.

A fenced block whose info string is ``console`` is a terminal session a reader can repeat from
the repository root, and the test suite repeats it (``tests/docs/test_docs_examples.py``):

* ``$ bench-gate ARGS`` runs bench-gate; the lines after it, up to the next ``$`` line, are what
  it prints (standard output, then standard error). A line that is exactly ``...`` stands for
  any number of lines left out; every other line must be printed as shown, in that order.
* A trailing shell comment ``# exit N`` says the command exits N; without it, it exits 0.
* ``$ cd DIR`` changes the directory for the following commands of the same block (each block
  starts at the repository root, so a reader can start with any of them).
* A line ending with ``\\`` continues on the next one.

A command that does not give ``--now`` is run as of :data:`CLOCK`, so the suite does not
depend on the day it runs. The repository's absolute path is shown as :data:`SHOWN_ROOT`.

Every other fenced block must say what it is (``yaml``, ``json``, ``text``, ``sh`` ...), may
not show bench-gate output, and a ``bench-gate`` line in it is either a synopsis (it names an
upper-case placeholder such as ``REPORT`` or ``MANIFEST``) or a command that is run too and must
exit 0 (or the ``# exit N`` it says).

``python -m pytest tests/docs/test_docs_examples.py --update-docs`` rewrites the output shown in the
console blocks from the current code (the ``...`` elisions are kept, the shown lines are the
closest ones of the new output); review the diff like any other change.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
CLOCK = "2026-12-01 00:00:00"
"""The instant a command without ``--now`` is evaluated at."""

SHOWN_ROOT = "/home/you/bench-gate"
"""The repository's absolute path as the pages show it (the only part of an output that varies)."""
ELLIPSIS = "..."
_EXIT = re.compile(r"#.*\bexits? ([0-9])\b")
# An upper-case placeholder word (REPORT, MANIFEST, PROFILE, FMT ...) or an ellipsis makes a
# bench-gate line a synopsis, not a command.
_PLACEHOLDER = re.compile(r"\b[A-Z][A-Z_]{2,}\b|\.\.\.|…|\[|\|")
_OUTPUT_LINE = re.compile(r"^(PASS|FAIL|WARN|SKIP|INFO|WAIVED) {2,}\S|^bench-gate: (PASS|FAIL|error)\b|^::(error|warning|notice) ")
NOT_RUN = {"bench-gate --install-completion": "installs completion into the reader's shell configuration"}
"""Commands in synopsis blocks that the suite does not run, and why."""


@dataclass
class Command:
    """One ``$`` line of a console block and the output shown after it."""

    line: int  # 1-based line of the ``$`` in the page
    text: str  # the command as written, continuation lines joined
    shown: list[str] = field(default_factory=list)
    first_output_line: int = 0  # 0-based index of the first shown line in the page
    last_output_line: int = 0  # exclusive

    @property
    def argv(self) -> list[str]:
        return shlex.split(self.text, comments=True)

    @property
    def exit_code(self) -> int:
        m = _EXIT.search(self.text)
        return int(m.group(1)) if m else 0


@dataclass
class Block:
    """A fenced block: its info string, its first content line (0-based) and its lines."""

    page: Path
    info: str
    start: int  # 0-based index of the first content line
    lines: list[str]

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.start}"


def blocks(page: Path) -> list[Block]:
    """Every fenced block of a page, as markdown-it-py reads it (CommonMark)."""
    from markdown_it import MarkdownIt

    text = page.read_text(encoding="utf-8")
    out = []
    for token in MarkdownIt("commonmark").parse(text):
        if token.type == "fence" and token.map is not None:
            out.append(Block(page, token.info.strip(), token.map[0] + 1, token.content.splitlines()))
    return out


def commands(block: Block) -> list[Command]:
    """The ``$`` commands of a console block with the output lines shown after each."""
    found: list[Command] = []
    continued = False  # the previous command line ended with a backslash
    for offset, line in enumerate(block.lines):
        index = block.start + offset
        if continued:
            found[-1].text = found[-1].text[:-1].rstrip() + " " + line.strip()
        elif line.startswith("$ "):
            found.append(Command(index + 1, line[2:].strip()))
        elif not found:
            raise ValueError(f"{block.where}: a console block starts with a '$ ' command line")
        else:
            found[-1].shown.append(line)
            found[-1].last_output_line = index + 1
            continue
        continued = found[-1].text.endswith("\\")
        found[-1].first_output_line = found[-1].last_output_line = index + 1
    for cmd in found:  # a blank line before the next command separates, it is not output
        while cmd.shown and not cmd.shown[-1].strip():
            cmd.shown.pop()
            cmd.last_output_line -= 1
    return found


def console_blocks(page: Path) -> list[Block]:
    return [b for b in blocks(page) if b.info == "console"]


# --------------------------------------------------------------------------- running


@dataclass
class Ran:
    code: int
    output: list[str]


def run(argv: list[str], cwd: Path) -> Ran:
    """``bench-gate ARGS`` (``argv``) in this process, as the console script runs it, from ``cwd``."""
    from freezegun import freeze_time

    from bench_gate.cli.app import main

    out, err = io.StringIO(), io.StringIO()
    here = Path.cwd()
    saved = {k: os.environ.get(k) for k in ("NO_COLOR", "FORCE_COLOR", "CI", "GITHUB_ACTIONS", "COLUMNS")}
    os.environ.update({"NO_COLOR": "1", "COLUMNS": "100"})
    for key in ("FORCE_COLOR", "CI", "GITHUB_ACTIONS"):
        os.environ.pop(key, None)
    clock = contextlib.nullcontext() if any(a == "--now" or a.startswith("--now=") for a in argv) \
        else freeze_time(CLOCK, tz_offset=0)
    try:
        os.chdir(cwd)
        with clock, contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv[1:])
    finally:
        os.chdir(here)
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    text = (out.getvalue() + err.getvalue()).replace(str(ROOT), SHOWN_ROOT)
    return Ran(code, [line.rstrip() for line in text.splitlines()])


def session(page: Path) -> Iterator[tuple[Command, Path]]:
    """The bench-gate commands of a page with the directory each runs in (``cd`` is followed)."""
    for block in console_blocks(page):
        cwd = ROOT
        for cmd in commands(block):
            argv = cmd.argv
            if argv[:1] == ["cd"] and len(argv) == 2:
                cwd = (cwd / argv[1]).resolve()
                if not cwd.is_dir() or ROOT not in [cwd, *cwd.parents]:
                    raise ValueError(f"{page.name}:{cmd.line}: cd {argv[1]}: no such folder in the repository")
                continue
            if argv[:1] != ["bench-gate"]:
                raise ValueError(f"{page.name}:{cmd.line}: a console block runs only 'bench-gate' and 'cd': {cmd.text}")
            yield cmd, cwd


# --------------------------------------------------------------------------- comparing


def segments(shown: list[str]) -> list[list[str]]:
    """The shown lines split at ``...`` lines (a leading/trailing ``...`` gives an empty segment)."""
    parts: list[list[str]] = [[]]
    for line in shown:
        if line.strip() == ELLIPSIS:
            parts.append([])
        else:
            parts[-1].append(line.rstrip())
    return parts


def matches(shown: list[str], printed: list[str]) -> bool:
    """Whether the printed lines are the shown ones, with any lines where ``...`` stands."""
    parts = segments(shown)
    if len(parts) == 1:
        return parts[0] == printed
    first, *middle, last = parts
    if printed[:len(first)] != first:
        return False
    at = len(first)
    end = len(printed) - len(last)
    if end < at or (last and printed[end:] != last):
        return False
    for part in middle:
        found = _find(printed, part, at, end)
        if found < 0:
            return False
        at = found + len(part)
    return True


def _find(lines: list[str], part: list[str], start: int, end: int) -> int:
    for i in range(start, end - len(part) + 1):
        if lines[i:i + len(part)] == part:
            return i
    return -1


def refreshed(shown: list[str], printed: list[str]) -> list[str]:
    """The shown lines brought up to date: all of ``printed``, or, with ``...``, each shown
    segment replaced by the window of ``printed`` most like it (in order)."""
    parts = segments(shown)
    if len(parts) == 1:
        return printed
    out: list[str] = []
    at = 0  # the first printed line not yet used
    for n, part in enumerate(parts):
        if n:
            out.append(ELLIPSIS)
        if n == 0:
            start = 0
        elif n == len(parts) - 1:
            start = max(at, len(printed) - len(part))
        else:
            scores = [(SequenceMatcher(None, "\n".join(part), "\n".join(printed[i:i + len(part)])).ratio(), -i)
                      for i in range(at, max(at, len(printed) - len(part)) + 1)]
            start = -max(scores)[1]
        out.extend(printed[start:start + len(part)])
        at = start + len(part)
    return out


def update(page: Path) -> bool:
    """Rewrite the shown output of every console command of ``page``; True when it changed."""
    lines = page.read_text(encoding="utf-8").split("\n")
    edits = []
    for cmd, cwd in session(page):
        ran = run(cmd.argv, cwd)
        new = refreshed(cmd.shown, ran.output)
        if new != [s.rstrip() for s in cmd.shown]:
            edits.append((cmd.first_output_line, cmd.last_output_line, new))
    for start, end, new in reversed(edits):
        lines[start:end] = new
    if edits:
        page.write_text("\n".join(lines), encoding="utf-8")
    return bool(edits)


# --------------------------------------------------------------------------- other blocks


def synopsis_commands(block: Block) -> list[str]:
    """bench-gate lines of a non-console block that name no placeholder: real commands."""
    found = []
    for line in block.lines:
        text = line.strip()
        if not text.startswith("bench-gate ") or _PLACEHOLDER.search(text.split("#", 1)[0]):
            continue
        found.append(text)
    return found


def output_lines(block: Block) -> list[str]:
    """Lines of a non-console block that look like bench-gate's output."""
    return [line for line in block.lines if _OUTPUT_LINE.match(line) or line.startswith("$ ")]
