"""The plain gate command line and typer answer every command line alike.

``bench-gate REPORT --profile NAME [options]`` is read without typer
(:mod:`bench_gate.cli.plain`); everything else, and anything that parser is unsure of, goes to
typer. Each command line here runs through both (``main(args)`` and ``main(args,
typer_only=True)``) and must give the same exit code, standard output, standard error and
written files; each also states which parser the default path uses, so that the comparison
covers the plain parser's own answers and its hand-overs.
"""

from __future__ import annotations

import io
import json
import os
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from bench_gate.cli import plain
from bench_gate.cli.app import main
from bench_gate.cli.options import Usage

from repo import ROOT


EXAMPLE = "examples/longmemeval_sibyl_hybrid_rc1_20260610.json"
NOW = "2026-11-29T12:00:00Z"
FAILING = "{tmp}/failing.json"
OUT = "{tmp}/out"

PLAIN = [
    [EXAMPLE, "--profile", "ai-memory"],
    [EXAMPLE, "-p", "ai-memory", "-v", "--now", NOW],
    ["-pai-memory", EXAMPLE, "-v", "-v", "--now", NOW],
    ["--profile=ai-memory", "--now=" + NOW, EXAMPLE, "--format", "json"],
    [EXAMPLE, FAILING, "-p", "ai-memory", "--now", NOW, "--verbose"],
    [FAILING, "-p", "ai-memory", "--now", NOW, "--format", "markdown", "--quiet"],
    [FAILING, "-p", "ai-memory", "--now", NOW, "--fail-on", "warning", "--strict", "-q"],
    [FAILING, "-p", "ai-memory", "--fail-on", "info", "--strict"],
    [EXAMPLE, "-p", "ai-memory", "--color", "always", "--now", NOW, "-v"],
    [EXAMPLE, "-p", "ai-memory", "--no-color", "--color", "always"],
    [EXAMPLE, "-p", "ai-memory", "--no-color", "--color", "never", "--strict"],
    [EXAMPLE, "-p", "no-such-profile"],
    [EXAMPLE, "-p", "ledger"],
    [EXAMPLE, "-p", "examples/deep-recall/deep-recall.yaml"],
    [EXAMPLE, "-p", "{tmp}/missing-profile.yaml"],
    ["{tmp}/missing.json", "-p", "ai-memory"],
    ["{tmp}/missing.json", EXAMPLE, "-p", "ai-memory", "--now", NOW, "--format", "json"],
    ["{tmp}/not-json.json", "-p", "ai-memory"],
    [EXAMPLE, "-p", "ai-memory", "--format", "xml"],
    [EXAMPLE, "-p", "ai-memory", "--now", "yesterday"],
    [EXAMPLE, "-p", "ai-memory", "--root", "{tmp}/no-such-folder"],
    [EXAMPLE, "-p", "ai-memory", "--root", ".", "--now", NOW],
    [EXAMPLE, "-p", "ai-memory", "--set", "citable=true", "--now", NOW],
    [EXAMPLE, "-p", "ai-memory", "--set", "no_such_param=1"],
    [EXAMPLE, "-p", "ai-memory", "--set", "citable"],
    [EXAMPLE, "-p", "ai-memory", "--doc", "baseline=" + EXAMPLE, "--now", NOW, "-v"],
    [EXAMPLE, "-p", "ai-memory", "--doc", "nosuchrole=" + EXAMPLE],
    [EXAMPLE, "-p", "ai-memory", "--doc", "baseline={tmp}/missing.json"],
    [EXAMPLE, "-p", "ai-memory", "--now", NOW, "--output", OUT + "/verdict.txt",
     "--output-file", "json=" + OUT + "/verdict.json", "--output-file", "junit=" + OUT + "/junit.xml"],
    [EXAMPLE, "-p", "ai-memory", "--output-file", "xml=" + OUT + "/x"],
    [EXAMPLE, "-p", "ai-memory", "--output", EXAMPLE],
    [EXAMPLE, "-p", "ai-memory", "--waivers", "{tmp}/missing-waivers.yaml"],
    ["explian", "-p", "ai-memory"],
    ["explian", "-p", "ai-memory", "--help"],
    ["kinds.json", "-p", "ai-memory"],
    [EXAMPLE, "--profile", "ai-memory", "-p", "ai-memory"],
    [EXAMPLE, "-p", "no-such-profile", "--help"],
    [EXAMPLE, "-p", ""],
    # the profile's own options
    [EXAMPLE, "-p", "ai-memory", "--require-qa", "--now", NOW],
    [EXAMPLE, "-p", "ai-memory", "--citable", "--require-accounting", "--now", NOW, "-v"],
    [EXAMPLE, "-p", "ai-memory", "--baseline", EXAMPLE, "--now", NOW, "--format", "json"],
    [EXAMPLE, "-p", "ai-memory", "--baseline=" + FAILING, "--now", NOW],
    [EXAMPLE, "-p", "ai-memory", "--baseline", "{tmp}/missing.json"],
    [EXAMPLE, "-p", "ai-memory", "--baseline", EXAMPLE, "--doc", "baseline=" + EXAMPLE],
    [EXAMPLE, "-p", "ai-memory", "--max-metric", "latency_p95_ms=1000", "--min-metric", "recall@5=0.9",
     "--min-metric", "ndcg@5=0.95", "--now", NOW],
    [EXAMPLE, "-p", "ai-memory", "--min-metric", "recall@5=high"],
    [EXAMPLE, "-p", "ai-memory", "--min-metric", "recall@5=0.9", "--min-metric", "recall@5=0.8"],
    [EXAMPLE, "-p", "ai-memory", "--max-regression", "recall@5=0.97170000000000001"],
    [EXAMPLE, "-p", "ai-memory", "--require-runtime", "runtime_mode=live-api", "--now", NOW],
    [EXAMPLE, "-p", "ai-memory", "--require-runtime", "novalue"],
    [EXAMPLE, "-p", "ai-memory", "--baseline-metric", "recall@5", "--baseline", EXAMPLE, "--now", NOW],
    [EXAMPLE, "-p", "official-sota", "--now", NOW],
]

TYPER = [
    ["--help"],
    ["-h"],
    ["--version"],
    [EXAMPLE, "-p", "ai-memory", "--help"],
    ["gate", EXAMPLE, "-p", "ai-memory"],
    ["kinds"],
    [EXAMPLE],
    ["-p", "ai-memory"],
    [EXAMPLE, "-p"],
    [EXAMPLE, "-p", "ai-memory", "--frmat", "json"],
    [EXAMPLE, "-p", "ai-memory", "--base", EXAMPLE],
    [EXAMPLE, "-p", "ai-memory", "--require-qa", "--require-qa"],
    [EXAMPLE, "-p", "ai-memory", "--require-qa=yes"],
    [EXAMPLE, "-p", "ai-memory", "--no-require-qa"],
    [EXAMPLE, "-p", "ai-memory", "--baseline", EXAMPLE, "--baseline", EXAMPLE],
    [EXAMPLE, "-p", "ai-memory", "--baseline"],
    [EXAMPLE, "-p", "official-sota", "--require-qa"],
    [EXAMPLE, "-p", "ai-memory", "--format", "json", "--format", "text"],
    [EXAMPLE, "-p", "ai-memory", "--quiet", "--quiet"],
    [EXAMPLE, "-p", "ai-memory", "--fail-on", "fatal"],
    [EXAMPLE, "-p", "ai-memory", "--color", "sometimes"],
    [EXAMPLE, "-p", "ai-memory", "--"],
    [EXAMPLE, "-p", "ai-memory", "--", "-x.json"],
    [EXAMPLE, "-p", "ai-memory", "-vv", "--now", NOW],
    [EXAMPLE, "-p", "ai-memory", "-qv", "--now", NOW],
    [EXAMPLE, "-p", "ai-memory", "--quiet=yes"],
    [EXAMPLE, "-p", "ai-memory", "--now", "-1"],
    [EXAMPLE, "-p", "ai-memory", "--format="],
    ["", "-p", "ai-memory"],
    ["-", "-p", "ai-memory"],
    [EXAMPLE, "-p", "ai-memory", "--no-such-option"],
]


def _run(args: list[str], typer_only: bool) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(args, typer_only=typer_only)
    return code, out.getvalue(), err.getvalue()


def _written(folder: Path) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.glob("*"))} if folder.is_dir() else {}


@pytest.fixture
def inputs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    report = json.loads((ROOT / EXAMPLE).read_text(encoding="utf-8"))
    report["overall"]["recall@5"] = 0.99  # claimed, but not what the cases give
    (tmp_path / "failing.json").write_text(json.dumps(report), encoding="utf-8")
    (tmp_path / "not-json.json").write_text("{nope", encoding="utf-8")
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv(plain.COMPLETE_VAR, raising=False)
    for name in ("FORCE_COLOR", "NO_COLOR", "CI"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def _compare(args: list[str], tmp: Path) -> tuple[int, str, str]:
    args = [a.replace("{tmp}", str(tmp)) for a in args]
    out = tmp / "out"
    typer_answer = _run(args, typer_only=True)
    typer_files = _written(out)
    for f in out.glob("*") if out.is_dir() else []:
        f.unlink()
    default_answer = _run(args, typer_only=False)
    assert default_answer == typer_answer, args
    assert _written(out) == typer_files, args
    return default_answer


def _read_plainly(args: list[str], tmp: Path) -> bool:
    """Whether the plain parser answers this command line itself (a usage error it raises
    before parsing, as typer's gate does, is its own answer too)."""
    try:
        return plain.read([a.replace("{tmp}", str(tmp)) for a in args]) is not None
    except Usage:
        return True


@pytest.mark.parametrize("args", PLAIN, ids=[" ".join(a) for a in PLAIN])
def test_the_plain_parser_answers_as_typer_does(args: list[str], inputs: Path) -> None:
    assert _read_plainly(args, inputs)
    _compare(args, inputs)


@pytest.mark.parametrize("args", TYPER, ids=[" ".join(a) or "(empty)" for a in TYPER])
def test_what_the_plain_parser_is_unsure_of_goes_to_typer(args: list[str], inputs: Path) -> None:
    assert not _read_plainly(args, inputs)
    _compare(args, inputs)


def test_the_comparison_sees_passes_failures_and_usage_errors(inputs: Path) -> None:
    """The command lines above reach every exit code through the plain parser."""
    codes = {_compare(args, inputs)[0] for args in PLAIN[:8]}
    assert codes == {0, 1, 2}
    code, out, err = _compare(PLAIN[0], inputs)
    assert (code, err) == (0, "") and out.startswith("bench-gate: PASS")


def test_shell_completion_always_goes_to_typer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(plain.COMPLETE_VAR, "bash_complete")
    assert plain.read([EXAMPLE, "-p", "ai-memory"]) is None


def test_the_command_names_are_typer_s() -> None:
    from bench_gate.cli.commands import command

    assert sorted(plain.COMMANDS) == sorted(command().commands)  # type: ignore[attr-defined]


class _ClosedPipe(io.StringIO):
    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    def flush(self) -> None:
        raise BrokenPipeError(32, "Broken pipe")


@pytest.mark.parametrize("typer_only", [True, False], ids=["typer", "plain"])
def test_a_reader_that_goes_away_is_exit_1_either_way(typer_only: bool, inputs: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdout", _ClosedPipe())
    err = io.StringIO()
    monkeypatch.setattr("sys.stderr", err)
    assert main([EXAMPLE, "-p", "ai-memory"], typer_only=typer_only) == 1
    import sys

    sys.stdout.flush()  # the pipe is still closed; flushing at exit must not fail again
    assert err.getvalue() == ""


def test_the_common_path_never_imports_typer() -> None:
    import subprocess
    import sys

    probe = ("import sys; from bench_gate.cli.app import main; code = main(sys.argv[1:]); "
             "sys.stdout.flush(); print(code, 'typer' in sys.modules, 'click' in sys.modules, file=sys.stderr)")
    proc = subprocess.run([sys.executable, "-c", probe, EXAMPLE, "-p", "ai-memory", "--format", "json"],
                          cwd=ROOT, capture_output=True, text=True, check=False,
                          env={k: v for k, v in os.environ.items() if k != plain.COMPLETE_VAR})
    assert proc.stderr.split() == ["0", "False", "False"]
