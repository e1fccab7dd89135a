"""Every kind of usage error of every command: exit 2, nothing on stdout, the exact message.

Unknown options, missing arguments and option values, bad choices, a bad ``--now`` and a bad
``--set`` are each one ``bench-gate: error:`` line (click's own errors add the hint ``(see
bench-gate --help)``), never a traceback, for the report gate and for the ``ledger``,
``claims``, ``explain``, ``kinds``, ``schema`` and ``profiles`` commands.

Without --now the gate evaluates as of the current UTC time (the only place a clock is read).
"""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout

import pytest
from freezegun import freeze_time

from bench_gate.cli.app import main

from repo import ROOT

REPORT = "examples/longmemeval_sibyl_hybrid_rc1_20260610.json"
LEDGER = "examples/sibyl-repo/benchmarks/results/ai-memory/manifest.json"
HINT = "\n(see bench-gate --help)"
RFC3339 = "is not an RFC 3339 timestamp with an offset (2026-11-29T12:00:00Z)"

CASES = [
    # unknown options
    ("gate-unknown-option", [REPORT, "-p", "ai-memory", "--bogus"],
     "option --bogus is not an option of bench-gate or of profile ai-memory "
     "(`bench-gate --profile ai-memory --help` lists them)"),
    ("ledger-unknown-option", ["ledger", LEDGER, "--bogus"], "no such option --bogus"),
    ("ledger-has-no-set", ["ledger", LEDGER, "--set", "max_waiver=P1M"], "no such option --set"),
    ("profiles-unknown-option", ["profiles", "--bogus"], "no such option --bogus"),
    # missing arguments and option values
    ("gate-no-profile", [REPORT], "--profile is required (a built-in name such as ai-memory, or a YAML path); "
                                  "`bench-gate profiles` lists them" + HINT),
    ("gate-no-report", ["-p", "ai-memory"], "no REPORT given" + HINT),
    ("ledger-no-manifest", ["ledger"], "missing argument 'MANIFEST'." + HINT),
    ("claims-no-path", ["claims"], "missing argument 'PATH'." + HINT),
    ("claims-ledger-without-value", ["claims", "README.md", "--ledger"],
     "option '--ledger' requires an argument." + HINT),
    ("explain-no-profile", ["explain"], "missing argument 'PROFILE'." + HINT),
    ("gate-option-without-value", [REPORT, "-p", "ai-memory", "--fail-on"],
     "option '--fail-on' requires an argument." + HINT),
    # bad choices
    ("gate-bad-format", [REPORT, "-p", "ai-memory", "--format", "xml"],
     "--format 'xml': choose one of text, json, junit, sarif, github, markdown"),
    ("ledger-bad-format", ["ledger", LEDGER, "--format", "pdf"],
     "--format 'pdf': choose one of text, json, junit, sarif, github, markdown"),
    ("gate-bad-color", [REPORT, "-p", "ai-memory", "--color", "sometimes"],
     "invalid value for '--color': 'sometimes' is not one of 'always', 'auto', 'never'." + HINT),
    ("schema-bad-choice", ["schema", "nosuch"],
     "invalid value for '[WHICH]': 'nosuch' is not one of 'profile', 'policy', 'all'." + HINT),
    ("kinds-unknown-kind", ["kinds", "nosuchkind"], None),  # the known kinds follow: checked below
    ("explain-unknown-rule", ["explain", "ai-memory", "nosuch-rule"],
     "profile ai-memory has no rule 'nosuch-rule' (`bench-gate explain ai-memory` lists them)"),
    ("output-file-without-format", [REPORT, "-p", "ai-memory", "--output-file", "sarif"],
     "--output-file 'sarif': expected FORMAT=PATH, e.g. junit=out/junit.xml"),
    # bad --now
    ("now-not-a-time", [REPORT, "-p", "ai-memory", "--now", "yesterday"], f"--now: 'yesterday' {RFC3339}"),
    ("now-without-offset", [REPORT, "-p", "ai-memory", "--now", "2026-11-29T12:00:00"],
     f"--now: '2026-11-29T12:00:00' {RFC3339}"),
    ("now-impossible-month", [REPORT, "-p", "ai-memory", "--now", "2026-13-01T00:00:00Z"],
     "--now: '2026-13-01T00:00:00Z' is not a valid timestamp (month must be in 1..12)"),
    ("now-empty", [REPORT, "-p", "ai-memory", "--now="], f"--now: '' {RFC3339}"),
    ("ledger-now", ["ledger", LEDGER, "--now", "soon"], f"--now: 'soon' {RFC3339}"),
    ("claims-now-date", ["claims", "README.md", "--ledger", LEDGER, "--now", "2026-11-29"],
     "--now: '2026-11-29' is a date; an RFC 3339 timestamp with an offset is required (2026-11-29T12:00:00Z)"),
    # bad --set
    ("set-without-value", [REPORT, "-p", "ai-memory", "--set", "max_waiver"], "--set 'max_waiver': expected KEY=VALUE"),
    ("set-without-key", [REPORT, "-p", "ai-memory", "--set", "=1"], "--set '=1': expected KEY=VALUE"),
    ("set-not-json", [REPORT, "-p", "ai-memory", "--set", "slice_min_cases=ten"],
     "--set slice_min_cases='ten': not a JSON integer"),
    ("set-nan", [REPORT, "-p", "ai-memory", "--set", "slice_min_cases=NaN"],
     "--set slice_min_cases='NaN': not a JSON integer"),
    ("set-wrong-type", [REPORT, "-p", "ai-memory", "--set", "slice_min_cases=1.5"],
     "--set slice_min_cases: must be of type integer, got 1.5"),
    ("set-bad-duration", [REPORT, "-p", "ai-memory", "--set", "max_waiver=P1Q"], None),  # checked below
]


def run(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(args)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(autouse=True)
def _from_the_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("NO_COLOR", "1")


@pytest.mark.parametrize(("args", "message"), [c[1:] for c in CASES if c[2] is not None],
                         ids=[c[0] for c in CASES if c[2] is not None])
def test_usage_error_is_exit_2_with_its_message(args: list[str], message: str) -> None:
    assert run(args) == (2, "", f"bench-gate: error: {message}\n")


def test_an_unknown_check_kind_lists_the_known_ones() -> None:
    from bench_gate.checks import registry

    code, out, err = run(["kinds", "nosuchkind"])
    assert (code, out) == (2, "")
    assert err == f"bench-gate: error: no check kind 'nosuchkind' (known: {', '.join(sorted(registry()))})\n"


def test_a_bad_duration_in_set_names_the_parameter_and_the_form() -> None:
    code, out, err = run([REPORT, "-p", "ai-memory", "--set", "max_waiver=P1Q"])
    assert (code, out) == (2, "")
    assert err.startswith("bench-gate: error: --set max_waiver: must be an ISO 8601 duration")
    assert err.count("\n") == 1 and "Traceback" not in err


# --- Without --now the gate evaluates as of the current UTC time (the only place a clock is rea ------

EXAMPLE = ROOT / "examples" / "longmemeval_sibyl_hybrid_rc1_20260610.json"


@freeze_time("2026-11-29 08:15:30.250000", tz_offset=0)
def test_default_now_is_the_current_utc_second(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(EXAMPLE), "-p", "ai-memory", "--format", "json"]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["evaluated_at"] == "2026-11-29T08:15:30Z"


@freeze_time("2026-06-10 12:00:00", tz_offset=0)
def test_default_now_decides_freshness(capsys: pytest.CaptureFixture[str]) -> None:
    # the fixture was generated at 12:42:33 that day: as of noon it lies in the future
    assert main([str(EXAMPLE), "-p", "ai-memory", "--format", "json"]) == 1
    verdict = json.loads(capsys.readouterr().out)
    failed = [(r["rule"], r["message"]) for r in verdict["results"] if r["status"] == "fail"]
    assert [rule for rule, _ in failed] == ["header-generated-at"]
    assert "in the future" in failed[0][1]
