"""The example user profile examples/my-sota-gate.yaml does what its comments and docs say.

It extends official-sota, tightens ``max_baseline_age`` to ``P14D`` and disables
``sota-baseline-evaluator-disclosed``. Run through ``bench_gate.cli.app.main`` from the repository
root with the command documented in docs/profiles.md.

The example claims profile is the one the golden cases run, and it compiles.
"""

from __future__ import annotations

import json

import pytest

from bench_gate.cli.app import main
from bench_gate.profile import load_profile
from bench_gate.profile.binding import bind

from repo import ROOT

REPORT = "examples/official/longmembench-report-sota.json"
COMMAND = [REPORT, "--profile", "examples/my-sota-gate.yaml", "--root", "examples/official"]
DISABLED = "sota-baseline-evaluator-disclosed"


def gate(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *extra: str) -> tuple[int, str]:
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("NO_COLOR", "1")
    code = main([*COMMAND, *extra])
    out, err = capsys.readouterr()
    assert err == ""
    return code, out


@pytest.mark.parametrize(
    ("now", "extra", "code", "fresh_status", "fresh_message"),
    [
        ("2026-11-29T12:00:00Z", [], 0, "pass", "baseline checked_at 2026-11-25 is 4 days old (limit 14 days)"),
        ("2026-12-09T12:00:00Z", [], 0, "pass", "baseline checked_at 2026-11-25 is 14 days old (limit 14 days)"),
        ("2026-12-10T12:00:00Z", [], 1, "fail", "baseline checked_at 2026-11-25 is 15 days old (limit 14 days)"),
        ("2026-12-10T12:00:00Z", ["--set", "max_baseline_age=P30D"], 0, "pass",
         "baseline checked_at 2026-11-25 is 15 days old (limit 30 days)"),
    ],
    ids=["4-days-passes", "14-days-passes", "15-days-fails-at-14", "set-overrides-the-profile"],
)
def test_my_sota_gate(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, now: str,
                      extra: list[str], code: int, fresh_status: str, fresh_message: str) -> None:
    exit_code, out = gate(capsys, monkeypatch, "--now", now, "--format", "json", *extra)
    verdict = json.loads(out)
    results = {r["rule"]: r for r in verdict["results"]}
    assert exit_code == code
    assert verdict["profile"]["name"] == "my-sota-gate"
    assert (results[DISABLED]["status"], results[DISABLED]["message"]) == ("skip", "disabled by profile my-sota-gate")
    fresh = results["sota-baseline-fresh"]
    assert (fresh["status"], fresh["message"]) == (fresh_status, fresh_message)
    failed = sorted(rule for rule, r in results.items() if r["status"] == "fail" and r["severity"] == "error")
    assert failed == ([] if code == 0 else ["sota-baseline-fresh"])
    # the bundled dataset is a question-type table standing in for the official file: a warning
    warned = sorted(rule for rule, r in results.items() if r["status"] == "fail" and r["severity"] == "warning")
    assert warned == []  # the stand-in dataset's ids and types are LongMemEval-S's: verified by content


def test_documented_summary_line_is_what_the_tool_prints(capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    exit_code, out = gate(capsys, monkeypatch, "--now", "2026-11-29T12:00:00Z")
    last = out.strip().splitlines()[-1]
    assert exit_code == 0
    assert last.startswith(f"bench-gate: PASS  {REPORT}  profile my-sota-gate: 0 failed, "
                           "51 passed, 9 skipped; LongMemEval-S: 304/500 correct: overall accuracy 0.608")
    doc = (ROOT / "docs" / "profiles.md").read_text(encoding="utf-8")
    assert " ".join([*COMMAND, "--now", "2026-11-29T12:00:00Z"]) in doc
    assert last in doc


# --- The example claims profile is the one the golden cases run, and it compiles ---------------------

EXAMPLE = ROOT / "examples" / "docs-claims.yaml"


def test_golden_copies_are_the_example() -> None:
    copies = sorted(ROOT.glob("golden/claims/*/docs-claims.yaml"))
    assert copies, "no golden case runs the example profile"
    for copy in copies:
        assert copy.read_bytes() == EXAMPLE.read_bytes(), copy


def test_example_extends_claims_with_boundary_phrases() -> None:
    plan = bind(load_profile(str(EXAMPLE)))
    ids = [r.id for r in plan.rules]
    assert ids[-1] == "doc-boundary-phrases"
    assert set(bind(load_profile("claims")).rules[i].id for i in range(len(ids) - 1)) <= set(ids)
