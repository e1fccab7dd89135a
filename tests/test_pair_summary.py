"""An arm's summary recomputed from itself and its rows: the real AEF example run, then tampered copies."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bench_gate.checks.base import Context, Fail
from bench_gate.checks.pair.summary import SummaryParams, pair_summary
from bench_gate.models import Doc

EXAMPLE = Path(__file__).parent / "data" / "aef" / "example-run"
NOW = datetime(2026, 11, 29, 12, tzinfo=UTC)
RECORD = {"schemaVersion": "1.0", "pairId": "p", "role": "normal", "sourceInputsDigest": "sha256:" + "a" * 64,
          "plannedQuestions": 6, "observedQuestions": 6, "scoredQuestions": 2, "totalLlmCalls": 12, "complete": True,
          "diagnosticOnly": False, "accuracyPercent": 66.5}


def example_files() -> dict[str, bytes]:
    return {str(p.relative_to(EXAMPLE)): p.read_bytes() for p in EXAMPLE.rglob("*") if p.is_file()}


def judge(files: dict[str, bytes], accuracy_metric: str = "triage") -> list[Any]:
    summary = json.loads(files["summary.json"])
    ctx = Context(NOW, {"report": Doc("report", "run", data=summary, extra={"files": files, "problems": ()})})
    return list(pair_summary(ctx, SummaryParams(accuracy_metric=accuracy_metric)))


def with_record(files: dict[str, bytes], **changes: Any) -> dict[str, bytes]:
    summary = json.loads(files["summary.json"])
    summary["ext"] = {"agenteval.memoryPair": {**RECORD, **changes}}
    return {**files, "summary.json": json.dumps(summary).encode()}


def edit_summary(files: dict[str, bytes], lane: int, entry: int, **changes: Any) -> dict[str, bytes]:
    summary = json.loads(files["summary.json"])
    summary["lanes"][lane]["metrics"][entry].update(changes)
    return {**files, "summary.json": json.dumps(summary).encode()}


def edit_rows(files: dict[str, bytes], line: int, **changes: Any) -> dict[str, bytes]:
    rows = files["results.ndjson"].decode().splitlines()
    row = json.loads(rows[line])
    row.update(changes)
    rows[line] = json.dumps(row)
    return {**files, "results.ndjson": ("\n".join(rows) + "\n").encode()}


def test_the_real_example_run_recomputes_exactly() -> None:
    # triage: 6 lines, 2 scored (0.55 + 0.78 = 1.33, mean 0.665); helpfulness 0.1; groundedness not measured
    [finding] = judge(with_record(example_files()))
    assert finding.status == "pass"
    assert finding.message == ("normal arm: 3 summary entries recomputed from results.ndjson; accuracyPercent 66.5 = "
                               "100 × 1.33/2")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda f: edit_summary(f, 0, 0, value=0.95), "normal arm lane 'main' metric 'triage': value 0.95 is not "
                                                       "sum 1.33 / n 2 = 0.665"),
        (lambda f: edit_summary(f, 0, 0, sum=1.9, value=0.95), "normal arm lane 'main' metric 'triage': sum 1.9 is "
                                                                "not the sum of its 2 measured results, 1.33"),
        (lambda f: edit_summary(f, 0, 0, notMeasured=3), "normal arm lane 'main' metric 'triage': notMeasured 3 is "
                                                          "not N 6 - n 2"),
        (lambda f: edit_rows(f, 4, scores=[{"metric": "triage", "value": 0.99}]),
         "normal arm lane 'main' metric 'triage': sum 1.33 is not the sum of its 2 measured results, 1.54"),
        (lambda f: edit_rows(f, 5, state="scored", scores=[{"metric": "triage", "value": 1.0}], reason=None),
         "normal arm lane 'main' metric 'triage': the summary says N 6, n 2, but results.ndjson has 6 lines at path "
         "'triage' of which 3 are measured"),
        (lambda f: edit_rows(f, 8, state="not_applicable"),
         "normal arm lane 'main' metric 'triage': the summary says N 6, n 2, but results.ndjson has 5 lines at path "
         "'triage' of which 2 are measured"),
        (lambda f: edit_summary(f, 0, 2, value=0.5),
         "normal arm lane 'main' metric 'triage/groundedness': value 0.5 but no result is measured (the value is null)"),
        (lambda f: edit_summary(f, 0, 1, metric="triage/kindness", path="triage/helpfulness"),
         "normal arm lane 'main' metric 'triage/kindness' is not declared in metrics.json, so its values cannot be "
         "read"),
    ],
    ids=["value-not-sum-over-n", "sum-inflated-with-value", "not-measured-count", "row-score-changed",
         "row-state-changed", "row-left-out", "null-value-claimed", "undeclared-metric"],
)
def test_tampered_summaries_and_rows_fail(change: Any, message: str) -> None:
    findings = judge(with_record(change(example_files())))
    assert findings[0].status == "fail"
    assert findings[0].message == message


def test_trial_lines_are_not_counted() -> None:
    files = example_files()
    extra = json.dumps({"schemaVersion": "1.0", "resultId": "r_x", "caseId": "case-18", "path": "triage", "trial": 0,
                        "evaluator": {"id": "triage"}, "state": "scored", "scores": [{"metric": "triage", "value": 1}]})
    files["results.ndjson"] = files["results.ndjson"] + extra.encode() + b"\n"
    assert [f.status for f in judge(with_record(files))] == ["pass"]


@pytest.mark.parametrize(("accuracy", "status"), [(66.5, "pass"), (66.50, "pass"), (66.4, "fail"), (90.0, "fail"),
                                                  (67, "pass"), (66, "pass"), (65, "fail")])
def test_accuracy_percent_follows_the_summary(accuracy: Any, status: str) -> None:
    # 66.5 exact; 67 and 66 are 66.5 rounded to the whole percent as written (either way at the half); 65 is not
    findings = judge(with_record(example_files(), accuracyPercent=accuracy))
    assert findings[0].status == status, findings[0].message


def test_scored_questions_is_the_accuracy_denominator() -> None:
    [finding] = judge(with_record(example_files(), scoredQuestions=6))
    assert finding.message == ("normal arm pair record scoredQuestions 6 is not the 2 measured triage results of "
                               "lane 'main'")


def test_accuracy_needs_exactly_one_entry() -> None:
    [finding] = judge(with_record(example_files()), accuracy_metric="accuracy")
    assert finding.message == ("normal arm pair record accuracyPercent 66.5 cannot be tied to the summary: 0 lanes "
                               "report metric 'accuracy' (none); one must (parameter accuracy_metric)")


def test_rate_metrics_count_passes_and_aborted_runs_have_no_rows() -> None:
    files = example_files()
    files["metrics.json"] = files["metrics.json"].replace(b'"id": "triage",\n      "kind": "score"',
                                                          b'"id": "triage",\n      "kind": "rate"')
    # as a rate, the two scored lines are not measured (a score is no verdict): n is 0
    findings = judge(with_record(files))
    assert findings[0].message == ("normal arm lane 'main' metric 'triage': the summary says N 6, n 2, but "
                                   "results.ndjson has 6 lines at path 'triage' of which 0 are measured")
    empty = {**example_files(), "results.ndjson": b""}
    summary = {"schemaVersion": "1.0", "runId": "x", "lanes": [], "ext": {"agenteval.memoryPair": {
        **RECORD, "accuracyPercent": None, "scoredQuestions": None, "complete": False}}}
    empty["summary.json"] = json.dumps(summary).encode()
    assert [f.status for f in judge(empty)] == ["pass"]


def test_unreadable_rows_fail_with_the_line() -> None:
    files = {**example_files(), "results.ndjson": b'{"state": "passed"}\n{"state": NaN}\n'}
    with pytest.raises(Fail) as err:
        judge(with_record(files))
    assert err.value.finding.message.startswith("normal arm results.ndjson line 2")
