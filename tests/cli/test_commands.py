"""The command line: commands, help, did-you-mean, strict options, completion, exit codes."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from bench_gate.cli.app import main
from repo import ROOT

EXAMPLE = str(ROOT / "examples" / "longmemeval_sibyl_hybrid_rc1_20260610.json")
NOW = ["--now", "2026-11-29T12:00:00Z"]


def run(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(args)
    return code, out.getvalue(), err.getvalue()


def test_help_lists_every_command() -> None:
    code, out, err = run(["--help"])
    assert (code, err) == (0, "")
    commands = out.split("Commands:", 1)[1]
    listed = [line.split()[0] for line in commands.strip().splitlines()]
    assert listed == ["gate", "profiles", "explain", "kinds", "schema", "ledger", "claims"]
    assert "--install-completion" in out and "--version" in out


def test_profile_help_lists_the_profile_options() -> None:
    code, out, _ = run(["-p", "ai-memory", "--help"])
    assert code == 0
    common, own = out.split("Options:", 1)[1].split("Options of profile ai-memory:", 1)
    assert "--profile" in common and "--require-qa" not in common
    for option in ("--require-qa", "--baseline PATH", "--max-regression NAME=V", "--citable"):
        assert option in own
    code, out, _ = run(["-p", "official-sota", "--help"])
    own = out.split("Options of profile official-sota:", 1)[1].split("examples:")[0]
    assert "--baseline PATH" in own and "--require-qa" not in own


def test_a_mistyped_command_names_the_command() -> None:
    assert run(["explian", "ai-memory"]) == (2, "", (
        "bench-gate: error: no command 'explian' and no such report file; did you mean 'explain'? "
        "(`bench-gate --help` lists the commands)\n"))


def test_a_report_named_like_a_command_is_still_a_report(tmp_path: Path) -> None:
    (tmp_path / "explian").write_text("[]", encoding="utf-8")
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        code, _, err = run(["explian", "-p", "ai-memory"])
    finally:
        os.chdir(cwd)
    assert (code, err) == (2, "bench-gate: error: report explian: top level is an array, not a JSON object\n")


@pytest.mark.parametrize(("args", "message"), [
    ([EXAMPLE, "-p", "ai-memory", "--profle", "x"], "no such option --profle; did you mean --profile?"),
    ([EXAMPLE, "-p", "ai-memory", "--require-q"], "no such option --require-q; did you mean --require-qa?"),
    ([EXAMPLE, "-p", "ai-memory", "--base", "x.json"], "no such option --base; did you mean --baseline?"),
    ([EXAMPLE, "-p", "ai-memory", "--bogus"],
     "option --bogus is not an option of bench-gate or of profile ai-memory "
     "(`bench-gate --profile ai-memory --help` lists them)"),
    ([EXAMPLE, "--require-qa"], "unknown option --require-qa (profile options need --profile)"),
    ([EXAMPLE, "-p", "official-full", "--require-qa"],
     "option --require-qa is not an option of bench-gate or of profile official-full "
     "(`bench-gate --profile official-full --help` lists them)"),
    (["explain", "ai-memory", "--fromat", "json"], "no such option --fromat; did you mean --format?"),
], ids=["option", "profile-option", "no-abbreviation", "unknown", "needs-profile", "other-profile", "command-option"])
def test_unknown_options_get_the_closest_name(args: list[str], message: str) -> None:
    assert run(args) == (2, "", f"bench-gate: error: {message}\n")


BUILTINS = ("aef-seal, ai-memory, claims, ledger, locomo-qa, longmemeval-qa, longmemeval-retrieval, memory-pair, "
            "official-full, official-sota")


@pytest.mark.parametrize(("args", "message"), [
    ([EXAMPLE, "-p", "ai-memroy"],
     f"profile: ai-memroy: unknown profile 'ai-memroy'; did you mean 'ai-memory'? (built-in profiles: {BUILTINS}; "
     "or give a path to a profile YAML file)"),
    ([EXAMPLE, "-p", "nothing-like-it"],
     f"profile: nothing-like-it: unknown profile 'nothing-like-it' (built-in profiles: {BUILTINS}; "
     "or give a path to a profile YAML file)"),
    (["explain", "oficial-sota"],
     f"profile: oficial-sota: unknown profile 'oficial-sota'; did you mean 'official-sota'? (built-in profiles: "
     f"{BUILTINS}; or give a path to a profile YAML file)"),
    (["explain", "ai-memory", "metrics-consistnt"],
     "profile ai-memory has no rule 'metrics-consistnt'; did you mean 'metrics-consistent'? "
     "(`bench-gate explain ai-memory` lists them)"),
    (["kinds", "metric_threshold"], "no check kind 'metric_threshold'; did you mean 'metric_thresholds'? (known: "),
    ([EXAMPLE, "-p", "ai-memory", "--set", "slice_min_case=3"],
     "--set slice_min_case: profile ai-memory declares no parameter 'slice_min_case'; did you mean "
     "'slice_min_cases'? (declared: "),
], ids=["profile", "profile-far-from-any", "explain-profile", "explain-rule", "kind", "set-parameter"])
def test_unknown_names_get_the_closest_name(args: list[str], message: str) -> None:
    code, out, err = run(args)
    assert (code, out) == (2, "")
    assert err.startswith(f"bench-gate: error: {message}") and err.count("\n") == 1


@pytest.mark.parametrize("args", [
    [EXAMPLE, "-p", "ai-memory", "--root", ".", "--root", "."],
    [EXAMPLE, "-p", "ai-memory", "--format=json", "--format", "text"],
    [EXAMPLE, "-p", "ai-memory", "--baseline", EXAMPLE, "--baseline", EXAMPLE],
    [EXAMPLE, "-p", "ai-memory", "-p", "ai-memory"],
], ids=["root", "format", "profile-option", "profile"])
def test_a_single_valued_option_given_twice_is_an_error(args: list[str]) -> None:
    code, out, err = run(args)
    assert (code, out) == (2, "")
    name = {"--root": "--root", "--format=json": "--format", "--baseline": "--baseline"}.get(args[3], "--profile")
    assert err == f"bench-gate: error: {name} given more than once\n"


def test_the_gate_runs_without_and_with_its_command_name() -> None:
    plain = run([EXAMPLE, "-p", "ai-memory", *NOW])
    named = run(["gate", EXAMPLE, "-p", "ai-memory", *NOW])
    assert plain == named
    assert plain[0] == 0 and "PASS" in plain[1]


@pytest.mark.parametrize(("args", "message"), [
    ([], "--profile is required (a built-in name such as ai-memory, or a YAML path); "
         "`bench-gate profiles` lists them\n(see bench-gate --help)"),
    (["-p", "ai-memory"], "no REPORT given\n(see bench-gate --help)"),
    (["explain"], "missing argument 'PROFILE'.\n(see bench-gate --help)"),
    (["profiles", "--format", "xml"],
     "invalid value for '--format': 'xml' is not one of 'text', 'json'.\n(see bench-gate --help)"),
    ([EXAMPLE, "-p", "ai-memory", "--fail-on", "fatal"],
     "invalid value for '--fail-on': 'fatal' is not one of 'error', 'warning', 'info'.\n(see bench-gate --help)"),
    ([EXAMPLE, "-p", "ai-memory", "--no-color", "--color", "always"], "--no-color contradicts --color always"),
], ids=["nothing", "no-report", "explain-no-profile", "bad-choice", "bad-fail-on", "colour-contradiction"])
def test_usage_errors_are_exit_2_with_one_line(args: list[str], message: str) -> None:
    assert run(args) == (2, "", f"bench-gate: error: {message}\n")


@pytest.mark.parametrize(("raised", "message"), [
    (KeyboardInterrupt(), "interrupted"),
    (EOFError(), "interrupted"),
    (RuntimeError("boom"), "internal error: RuntimeError: boom"),
], ids=["interrupt", "eof", "internal"])
def test_every_other_outcome_is_exit_2_without_a_traceback(monkeypatch: pytest.MonkeyPatch,
                                                           raised: BaseException, message: str) -> None:
    from bench_gate.cli import gate

    def explode(args: object) -> int:
        raise raised

    monkeypatch.setattr(gate, "run_gate", explode)
    code, out, err = run([EXAMPLE, "-p", "ai-memory"])
    assert (code, out) == (2, "")
    assert err.lstrip("\n") == f"bench-gate: error: {message}\n"  # click ends an EOF's line first


def test_click_errors_with_their_own_exit_code_are_exit_2(monkeypatch: pytest.MonkeyPatch) -> None:
    import click

    from bench_gate.cli import gate

    def file_error(args: object) -> int:
        raise click.FileError("x.json", "cannot open")

    def abort(args: object) -> int:
        raise click.Abort()

    def run_typer(args: list[str]) -> tuple[int, str, str]:
        # click's errors arise only where click parses: typer's path (the plain parser's
        # command lines are compared with it in test_plain_cli.py)
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            code = main(args, typer_only=True)
        return code, out.getvalue(), err.getvalue()

    monkeypatch.setattr(gate, "run_gate", file_error)
    code, _, err = run_typer([EXAMPLE, "-p", "ai-memory"])
    assert code == 2 and err.startswith("bench-gate: error: could not open file 'x.json'")
    monkeypatch.setattr(gate, "run_gate", abort)
    assert run_typer([EXAMPLE, "-p", "ai-memory"]) == (2, "", "bench-gate: error: aborted\n")


def test_version() -> None:
    from bench_gate import __version__

    assert run(["--version"]) == (0, f"bench-gate {__version__}\n", "")


def test_colour_is_chosen_by_option_and_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    plain = run([EXAMPLE, "-p", "ai-memory", *NOW])[1]
    assert "\033[" not in plain  # not a terminal
    coloured = run([EXAMPLE, "-p", "ai-memory", *NOW, "--color", "always"])[1]
    assert "\033[32mPASS\033[0m" in coloured
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert run([EXAMPLE, "-p", "ai-memory", *NOW])[1] == coloured
    assert run([EXAMPLE, "-p", "ai-memory", *NOW, "--color", "never"])[1] == plain
    assert run([EXAMPLE, "-p", "ai-memory", *NOW, "--no-color"])[1] == plain


def test_importing_the_command_line_does_not_import_typer() -> None:
    probe = "import sys, bench_gate.cli.app; print(sorted(m for m in sys.modules if m in ('typer', 'click')))"
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert proc.stdout == "[]\n"


def _script() -> str:
    return str(Path(sys.executable).parent / "bench-gate")


@pytest.mark.parametrize(("words", "cword", "expected"), [
    ("bench-gate expl", 1, ["explain"]),
    ("bench-gate report.json --prof", 2, ["--profile"]),
    ("bench-gate report.json --profile official", 3, ["official-full", "official-sota"]),
    ("bench-gate explain ai-", 2, ["ai-memory"]),
], ids=["command", "option", "profile-name", "explain-profile"])
def test_shell_completion(words: str, cword: int, expected: list[str]) -> None:
    env = {**os.environ, "_BENCH_GATE_COMPLETE": "complete_bash", "COMP_WORDS": words,
           "COMP_CWORD": str(cword)}
    proc = subprocess.run([_script()], capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 0
    assert proc.stdout.split() == expected


def test_completion_script_for_a_shell() -> None:
    # The script for a named shell, as the shell's start-up file asks for it (--show-completion
    # asks the process tree which shell runs it, which a test runner does not always show).
    env = {**os.environ, "_BENCH_GATE_COMPLETE": "source_bash"}
    proc = subprocess.run([_script()], capture_output=True, text=True, timeout=60, env=env)
    assert proc.returncode == 0
    assert "_bench_gate_completion()" in proc.stdout and "_BENCH_GATE_COMPLETE" in proc.stdout


def test_output_file_creates_its_folder(tmp_path: Path) -> None:
    target = tmp_path / "out" / "nested" / "junit.xml"
    code, out, err = run([EXAMPLE, "-p", "ai-memory", *NOW, "--output-file", f"junit={target}"])
    assert (code, err) == (0, "")
    assert target.read_text(encoding="utf-8").startswith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites')


@pytest.mark.parametrize(("value", "message"), [
    ("v.txt", "--output-file 'v.txt': expected FORMAT=PATH, e.g. junit=out/junit.xml"),
    ("=v.txt", "--output-file '=v.txt': expected FORMAT=PATH, e.g. junit=out/junit.xml"),
    ("xml=v.txt", "--output-file xml=...: unknown format (choose one of text, json, junit, sarif, github, markdown)"),
], ids=["no-format", "empty-format", "unknown-format"])
def test_output_file_needs_format_and_path(value: str, message: str) -> None:
    assert run([EXAMPLE, "-p", "ai-memory", "--output-file", value]) == (2, "", f"bench-gate: error: {message}\n")


def test_ledger_and_claims_are_typer_commands_with_the_shared_options() -> None:
    code, out, _ = run(["ledger", "--help"])
    assert code == 0 and "MANIFEST" in out and "--output-file FMT=PATH" in out and "--color WHEN" in out
    code, out, _ = run(["claims", "--help"])
    assert code == 0 and "--ledger MANIFEST" in out and "--include-code" in out
    assert run(["claims", "README.md"]) == (2, "", "bench-gate: error: --ledger MANIFEST or --evidence FILE is required (the evidence the numbers are checked against)\n")
    assert run(["ledger", "m.json", "--now", "x", "--now", "y"]) == (
        2, "", "bench-gate: error: --now given more than once\n")
