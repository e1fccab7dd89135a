"""An arm's summary recomputed from itself and its rows: the real AEF example run, then tampered copies."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest

from bench_gate.checks.pair.summary import SummaryParams, pair_summary
from bench_gate.loaders import strictjson

from kindtest import context, doc, run as run_kind
from repo import DATA

EXAMPLE = DATA / "aef" / "example-run"
NOW = datetime(2026, 11, 29, 12, tzinfo=UTC)
RECORD = {"schemaVersion": "1.0", "pairId": "p", "role": "normal", "sourceInputsDigest": "sha256:" + "a" * 64,
          "plannedQuestions": 6, "observedQuestions": 6, "scoredQuestions": 2, "totalLlmCalls": 12, "complete": True,
          "diagnosticOnly": False, "accuracyPercent": 66.5}


def example_files() -> dict[str, bytes]:
    return {str(p.relative_to(EXAMPLE)): p.read_bytes() for p in EXAMPLE.rglob("*") if p.is_file()}


def judge(files: dict[str, bytes], accuracy_metric: str = "triage") -> list[Any]:
    summary = json.loads(files["summary.json"])
    ctx = context(doc("report", summary, path="run", extra={"files": files, "problems": ()}))
    return list(run_kind(pair_summary, SummaryParams(accuracy_metric=accuracy_metric), ctx))


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
                               "100 × 1.33/2 of 'triage'")


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


@pytest.mark.parametrize(("accuracy", "status"), [("66.5", "pass"), ("66.50", "pass"), ("66.500", "pass"),
                                                  ("66.4", "fail"), ("90.0", "fail"), ("67", "fail"), ("66", "fail"),
                                                  ("65", "fail")])
def test_accuracy_percent_follows_the_summary(accuracy: str, status: str) -> None:
    # 66.5 exact however many zeros follow; 67 and 66 round 66.5 to a whole percent, fewer than the one place a
    # rounded percentage needs
    findings = judge(with_record(example_files(), accuracyPercent=strictjson.loads(accuracy.encode())))
    assert findings[0].status == status, findings[0].message


def test_a_whole_percent_is_too_coarse_and_says_so() -> None:
    [finding] = judge(with_record(example_files(), accuracyPercent=67))
    assert finding.message == ("normal arm pair record accuracyPercent 67 is not 100 × the summary's 'triage' in lane "
                               "'main': claimed 67; 100 × 1.33/2 is 66.5: a rounded claim needs at least 1 place "
                               "(min_places), or the places its producer rounds to (places)")


def test_a_producers_double_percentage_is_the_value() -> None:
    # AEF writes correct / scored * 100 in doubles: 66/70 * 100 is 94.28571428571428, one unit in the last place below
    # the double nearest to 660/7 (94.28571428571429); both state it, and so does 94.2857 (4 places); 94.2858 does not
    files = example_files()
    rows = [{"schemaVersion": "1.0", "resultId": f"r_{i}", "caseId": f"q{i}", "path": "triage",
             "evaluator": {"id": "triage"}, "state": "scored", "scores": [{"metric": "triage", "value": int(i < 66)}]}
            for i in range(70)]
    files["results.ndjson"] = "".join(json.dumps(r) + "\n" for r in rows).encode()
    files = edit_summary(files, 0, 0, N=70, n=70, notMeasured=0, sum=66, sumSq=66, value=66 / 70)
    summary = json.loads(files["summary.json"])
    summary["lanes"][0]["metrics"] = summary["lanes"][0]["metrics"][:1]
    files["summary.json"] = json.dumps(summary).encode()
    for written, status in (("94.28571428571428", "pass"), ("94.28571428571429", "pass"), ("94.2857", "pass"),
                            ("94.2858", "fail"), ("94.3", "pass"), ("94", "fail")):
        record = {"accuracyPercent": strictjson.loads(written.encode()), "scoredQuestions": 70}
        findings = judge(with_record(files, **record))
        assert findings[0].status == status, (written, findings[0].message)


def test_scored_questions_is_the_accuracy_denominator() -> None:
    [finding] = judge(with_record(example_files(), scoredQuestions=6))
    assert finding.message == ("normal arm pair record scoredQuestions 6 is not the 2 measured 'triage' results of "
                               "lane 'main'")


def test_accuracy_needs_exactly_one_entry() -> None:
    [finding] = judge(with_record(example_files()), accuracy_metric="accuracy")
    assert finding.message == ("normal arm pair record accuracyPercent 66.5 cannot be tied to the summary: no summary "
                               "entry is named 'accuracy' or ends in '/accuracy' (the summary reports 'triage', "
                               "'triage/groundedness', 'triage/helpfulness'); exactly one must (parameter "
                               "accuracy_metric)")


def test_a_path_named_metric_is_found_by_its_last_segment() -> None:
    # the real run's metric names are paths: 'helpfulness' is 'triage/helpfulness' (0.1 over 1 result)
    [finding] = judge(with_record(example_files(), accuracyPercent=10.0, scoredQuestions=1),
                      accuracy_metric="helpfulness")
    assert (finding.status, finding.message) == (
        "pass", "normal arm: 3 summary entries recomputed from results.ndjson; accuracyPercent 10.0 = 100 × 0.1/1 of "
                "'triage/helpfulness' (matched by its last path segment)")
    [wrong] = judge(with_record(example_files(), accuracyPercent=66.5, scoredQuestions=1),
                    accuracy_metric="helpfulness")
    assert wrong.message == ("normal arm pair record accuracyPercent 66.5 is not 100 × the summary's "
                             "'triage/helpfulness' (matched by its last path segment) in lane 'main': claimed 66.5 "
                             "(1 place); 100 × 0.1/1 rounds to 10.0 at 1 place")


def test_an_exact_name_wins_over_a_last_segment() -> None:
    # 'triage' is a metric's own name: 'x/triage' would be a second candidate only if no entry were named so
    files = edit_summary(example_files(), 0, 1, metric="x/triage")
    files["metrics.json"] = files["metrics.json"].replace(b'"triage/helpfulness"', b'"x/triage"')
    files = {**files, "results.ndjson": files["results.ndjson"].replace(b'"metric":"triage/helpfulness"',
                                                                        b'"metric":"x/triage"')}
    [finding] = judge(with_record(files))
    assert finding.status == "pass", finding.message


def test_several_path_named_candidates_fail_naming_them() -> None:
    files = edit_summary(example_files(), 0, 0, metric="a/accuracy")
    files = edit_summary(files, 0, 1, metric="b/accuracy")
    files["metrics.json"] = files["metrics.json"].replace(b'"id": "triage",', b'"id": "a/accuracy",').replace(
        b'"triage/helpfulness"', b'"b/accuracy"')
    findings = judge(with_record(files), accuracy_metric="accuracy")
    assert findings[-1].message == (
        "normal arm pair record accuracyPercent 66.5 cannot be tied to the summary: 2 summary entries match by last "
        "path segment: 'a/accuracy' in lane 'main', 'b/accuracy' in lane 'main'; exactly one must (parameter "
        "accuracy_metric)")


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
    (found,) = judge(with_record(files))
    assert found.status == "fail" and found.message.startswith("normal arm results.ndjson line 2"), found.message
