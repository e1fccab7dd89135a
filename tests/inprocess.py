"""The report gate called in-process, below the command line, for tests that judge many reports.

:func:`bound_from_cli` runs a command line once, through the real parser, and keeps what the
command handed the gate (the bound plan with the profile's option values, the documents named
on the command line, the evidence root, the instant). :meth:`Bound.judge` then judges another
report with exactly that: the same loader (strict JSON: a duplicate key is refused), the same
evidence gathering, the engine, the failures located in the file, and the verdict rendered as
JSON. What the command line adds on top (parsing, printing) is the business of the CLI tests.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from dataclasses import dataclass
from datetime import datetime
from io import StringIO
from pathlib import Path
from typing import Any


@contextmanager
def chdir(path: Path) -> Iterator[None]:
    old = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(old)


@dataclass(frozen=True)
class Judged:
    """Exit code (1 or 0 for a verdict, 2 for a report that cannot be evaluated), the verdict as
    rendered JSON (None for exit 2) and the one-line reason of exit 2 ("" otherwise)."""

    code: int
    verdict: dict[str, Any] | None
    reason: str


@dataclass(frozen=True)
class Bound:
    plan: Any
    cli_docs: Mapping[str, Any]
    root: Path
    now: datetime
    version: str
    work: Path

    def judge(self, report: str) -> Judged:
        """Judge ``report`` (a path relative to the work folder) as the command would."""
        from bench_gate.gates.report_gate import UsageError, judge
        from bench_gate.report import render

        with chdir(self.work):
            try:
                verdict = judge(self.plan, report, self.cli_docs, self.root, self.now, self.version)
            except UsageError as exc:
                return Judged(2, None, str(exc))
            doc = json.loads(render("json", [verdict]))
        return Judged(0 if verdict.passed else 1, doc, "")


def bound_from_cli(args: Sequence[str], now: str, work: Path) -> Bound:
    """What the gate command binds for ``args`` (run once in ``work``, which must be judged)."""
    from bench_gate.cli.app import main
    from bench_gate.gates import report_gate

    real = report_gate.judge
    seen: list[Bound] = []

    def spy(plan: Any, report_path: str, cli_docs: Mapping[str, Any], root: Path, at: datetime,
            version: str) -> Any:
        seen.append(Bound(plan, cli_docs, root, at, version, work))
        return real(plan, report_path, cli_docs, root, at, version)

    report_gate.judge = spy
    try:
        with chdir(work), redirect_stdout(StringIO()), redirect_stderr(StringIO()) as err:
            code = main([*args, "--now", now, "--format", "json"])
    finally:
        report_gate.judge = real
    assert code in (0, 1) and len(seen) == 1, (code, err.getvalue())
    return seen[0]


def cli(args: Sequence[str], cwd: Path | None = None) -> tuple[int, str, str]:
    """The whole command line in-process (in ``cwd``): (exit code, stdout, stderr)."""
    from bench_gate.cli.app import main

    out, err = StringIO(), StringIO()
    with chdir(cwd or Path.cwd()), redirect_stdout(out), redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()
