"""A built-in profile run on a report of another format says so first, in one result, with what the
report looks like and the profile to use; real files of every format bench-gate has a profile for."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench_gate.cli.app import main
from bench_gate.gates import recognise
from bench_gate.loaders import files
from bench_gate.models import Doc
from golden import ROOT

NOW = "2026-11-29T12:00:00Z"
EX = ROOT / "examples"
REPORTS = {
    "ai-memory": EX / "longmemeval_sibyl_hybrid_rc1_20260610.json",
    "importer": EX / "official" / "longmembench-report-sota.json",
    "aef": ROOT / "golden" / "aef-seal" / "example-run-intact" / "run",
    "locomo": EX / "locomo-qa" / "eval_results.json",
    "retrieval-log": EX / "longmemeval-retrieval" / "longmemeval_s_retrievallog_session_sibyl-hybrid.jsonl",
    "qa-log": EX / "longmemeval-qa" / "hypotheses.jsonl.eval-results-gpt-4o",
    "qa-scores": EX / "longmemeval-qa" / "scores.json",
    None: EX / "deep-recall" / "s-50-contrib-prompt" / "summary.json",
}
READ_AS = {"aef": "runfolder", "retrieval-log": "jsonl", "qa-log": "jsonl"}


def doc(key: str | None) -> Doc:
    loaded = files.load("report", str(REPORTS[key]), Path("."), confine=False, fmt=READ_AS.get(str(key), "json"),
                        want_object=True, origin="cli")
    assert loaded.error is None, loaded.error
    return loaded


@pytest.mark.parametrize("key", [k for k in REPORTS if k is not None])
def test_each_real_report_is_recognised_as_its_format(key: str) -> None:
    found = recognise.looks_like(doc(key))
    assert found is recognise.FORMATS[key]


def test_a_format_without_a_profile_is_none() -> None:
    assert recognise.looks_like(doc(None)) is None


@pytest.mark.parametrize("profile", sorted(recognise.JUDGED_BY))
def test_every_built_in_profile_accepts_its_own_format(profile: str) -> None:
    assert recognise.mismatch(profile, doc(recognise.JUDGED_BY[profile])) is None


def test_user_profiles_and_the_ledger_are_not_second_guessed() -> None:
    assert recognise.mismatch("deep-recall", doc("importer")) is None
    assert recognise.mismatch("claims", doc("importer")) is None


def run(args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    monkeypatch.chdir(ROOT)
    code = main([*args, "--now", NOW])
    out, err = capsys.readouterr()
    return code, out, err


def test_ai_memory_on_an_importer_report_says_so_first(monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["examples/official/longmembench-report-sota.json", "--profile", "ai-memory"], monkeypatch,
                       capsys)
    lines = out.splitlines()
    assert code == 1
    assert lines[1:3] == [
        "FAIL   report-format         report",
        "       this report does not look like an ai-memory retrieval artifact, which profile ai-memory judges (it "
        "has no overall or case_results): it looks like a LongMemEval importer report; use --profile "
        "official-full (docs/official-full.md). The failures that follow are of a report in another format"]
    assert "FAIL   metrics-recompute" in out  # the other rules still run, and fail as they do


def test_the_verdict_json_carries_it_as_the_first_result(monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["examples/locomo-qa/eval_results.json", "--profile", "ai-memory", "--format", "json"],
                       monkeypatch, capsys)
    first = json.loads(out)["results"][0]
    assert (code, first["rule"], first["status"], first["actual"], first["expected"]) == (
        1, "report-format", "fail", "a LoCoMo evaluation output", "an ai-memory retrieval artifact")
    assert "use --profile locomo-qa (docs/locomo-qa.md)" in first["message"]


def test_an_unknown_format_points_at_the_walkthrough(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["examples/deep-recall/s-50-contrib-prompt/summary.json", "--profile", "official-full"],
                       monkeypatch, capsys)
    assert code == 1
    assert out.splitlines()[2] == (
        "       this report does not look like a LongMemEval importer report, which profile official-full judges "
        "(it has no official_qa, external_suite or result_provenance): it looks like no format bench-gate has a "
        "profile for; write one (docs/profiles.md, \"Gate a format bench-gate has never seen\"). The failures that "
        "follow are of a report in another format")


def test_the_right_format_adds_nothing(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["examples/longmemeval_sibyl_hybrid_rc1_20260610.json", "--profile", "ai-memory",
                        "--format", "json"], monkeypatch, capsys)
    assert code == 0
    assert "report-format" not in {r["rule"] for r in json.loads(out)["results"]}


@pytest.mark.parametrize(("report", "profile", "ending"), [
    ("examples/official/zaxy-hypotheses-500-temporal-evidence-program-v7.jsonl.eval-results-gpt-4o.jsonl",
     "official-full", "; it looks like a longmemeval-qa evaluator log; use --profile longmemeval-qa "
                      "(docs/longmemeval-qa.md)"),
    ("examples/longmemeval_sibyl_hybrid_rc1_20260610.json", "longmemeval-qa",
     "; it looks like an ai-memory retrieval artifact; use --profile ai-memory (docs/ai-memory.md)"),
    ("examples/longmemeval_sibyl_hybrid_rc1_20260610.json", "memory-pair",
     "; it looks like an ai-memory retrieval artifact; use --profile ai-memory (docs/ai-memory.md)"),
    ("golden/aef-seal/example-run-intact/run/summary.json", "longmemeval-qa",
     "; it looks like an AEF run; use --profile memory-pair (docs/memory-pair.md; aef-seal checks one run's seal)"),
])
def test_a_report_the_profile_cannot_read_names_its_format_too(report: str, profile: str, ending: str,
                                                               monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run([report, "--profile", profile], monkeypatch, capsys)
    assert (code, out, err.count("\n")) == (2, "", 1)
    assert err.startswith(f"bench-gate: error: report {report}: ") and err.endswith(ending + "\n")
