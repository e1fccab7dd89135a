"""Every output ends with exactly one newline: no empty line at the end, in any format.

A CI log, a file written with ``--output`` and a job summary appended to by several steps all
show a trailing empty line as a gap; a missing newline glues the next line of the log to ours.
Checked for every format with one passing report, one failing report and several reports, for
the text verbosities, for the file written by ``--output`` and ``--output-file``, and for the
other commands.
"""

from __future__ import annotations

import io
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from bench_gate.cli.app import main
from bench_gate.report import RENDERERS
from repo import ROOT

PASSING = "examples/longmemeval_sibyl_hybrid_rc1_20260610.json"
NOW = ["--now", "2026-12-01T00:00:00Z"]
FAILING = [PASSING, "--min-metric", "recall@5=0.95"]  # 0.9406 is below 0.95
LEDGER = "examples/sibyl-repo/benchmarks/results/ai-memory/manifest.json"


def run(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(args)
    return code, out.getvalue(), err.getvalue()


def ends_cleanly(text: str) -> bool:
    return text.endswith("\n") and not text.endswith("\n\n") and text.strip() != ""


@pytest.fixture(autouse=True)
def _from_the_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("NO_COLOR", "1")


@pytest.mark.parametrize("fmt", list(RENDERERS))
@pytest.mark.parametrize(("reports", "code"), [([PASSING], 0), (FAILING, 1), ([PASSING, *FAILING], 1)],
                         ids=["pass", "fail", "batch"])
def test_every_format_ends_with_one_newline(fmt: str, reports: list[str], code: int) -> None:
    got, out, err = run([*reports, "-p", "ai-memory", "--format", fmt, *NOW])
    assert (got, err) == (code, "")
    assert ends_cleanly(out), repr(out[-80:])


@pytest.mark.parametrize("verbosity", [[], ["-v"], ["-vv"]], ids=["default", "v", "vv"])
def test_text_at_every_verbosity_ends_with_one_newline(verbosity: list[str]) -> None:
    for reports in ([PASSING], FAILING, [PASSING, *FAILING]):
        _, out, _ = run([*reports, "-p", "ai-memory", *verbosity, *NOW])
        assert ends_cleanly(out), repr(out[-80:])


@pytest.mark.parametrize("fmt", list(RENDERERS))
def test_files_written_end_with_one_newline(tmp_path: Path, fmt: str) -> None:
    main_file, extra = tmp_path / "main.out", tmp_path / "extra" / f"verdict.{fmt}"
    code, out, err = run([*FAILING, "-p", "ai-memory", *NOW, "--format", fmt, "--output", str(main_file),
                          "--output-file", f"{fmt}={extra}"])
    assert (code, out, err) == (1, "", "")
    assert ends_cleanly(main_file.read_text(encoding="utf-8"))
    assert extra.read_text(encoding="utf-8") == main_file.read_text(encoding="utf-8")


@pytest.mark.parametrize("args", [
    ["profiles"], ["profiles", "--format", "json"], ["explain", "ai-memory"], ["explain", "ai-memory", "metrics-recompute"],
    ["kinds"], ["kinds", "aggregate"], ["schema", "profile"], ["--version"], ["--help"], ["gate", "--help"],
    ["ledger", LEDGER, "--external-profile", "product", *NOW],
    ["ledger", LEDGER, "--external-profile", "product", "--format", "markdown", *NOW],
    ["claims", "examples/sibyl-repo/docs/", "--ledger", LEDGER, "--external-profile", "product", *NOW],
], ids=lambda a: " ".join(a[:3]))
def test_other_commands_end_with_one_newline(args: list[str]) -> None:
    code, out, err = run(args)
    assert code in (0, 1) and err == ""
    assert ends_cleanly(out), repr(out[-80:])


def test_an_error_is_one_line_ending_with_a_newline() -> None:
    code, out, err = run([PASSING, "-p", "ai-memory", "--now", "soon"])
    assert (code, out) == (2, "")
    assert ends_cleanly(err) and err.count("\n") == 1


@pytest.mark.parametrize("fmt", list(RENDERERS))
def test_a_batch_with_an_unreadable_report_writes_a_batch_that_did_not_pass(tmp_path: Path, fmt: str) -> None:
    """Exit 2, and every file written shows the report it could not evaluate: the other report's
    passing verdict alone would read as a PASS."""
    import json

    empty = tmp_path / "empty.json"
    empty.write_text("", encoding="utf-8")
    written = tmp_path / f"verdict.{fmt}"
    code, out, err = run([PASSING, str(empty), "-p", "ai-memory", *NOW, "--format", fmt,
                          "--output-file", f"json={tmp_path / 'extra.json'}", "--output", str(written)])
    assert (code, out) == (2, "")
    assert err == f"bench-gate: error: report {empty}: is empty\n"
    assert ends_cleanly(written.read_text(encoding="utf-8"))
    assert "could not be evaluated" in written.read_text(encoding="utf-8")
    batch = json.loads((tmp_path / "extra.json").read_text(encoding="utf-8"))
    assert (batch["passed"], [v["passed"] for v in batch["verdicts"]]) == (False, [True, False])
