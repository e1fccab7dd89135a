"""Official QA accuracy recomputed from the evaluator log: against the report's claims
(``qa_accuracy``), a baseline (``qa_beats_baseline``) and a minimum (``qa_accuracy_at_least``)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from bench_gate.checks.official.accuracy import (
    AccuracyParams, AtLeastParams, BeatsParams, qa_accuracy, qa_accuracy_at_least, qa_beats_baseline, stated,
)
from bench_gate.loaders import strictjson

from qasetup import METRICS, REPORT, baseline, ctx, dataset_doc, findings, first, jsonl_doc, label, log_rows, patched


# --- accuracy ---------------------------------------------------------------------------


@pytest.mark.parametrize(("path", "value", "status", "message"), [
    (None, None, "pass", "2/4 correct: overall accuracy 0.5 (report 0.5); task-averaged accuracy 0.666667 over "
                         "2 question types"),
    ("/official_qa/correct_count", 3, "fail", "official_qa.correct_count 3 differs from the 2 true labels in eval_log"),
    ("/official_qa/correct_count", 2.0, "pass", "2/4 correct: overall accuracy 0.5 (report 0.5); task-averaged "
                                                "accuracy 0.666667 over 2 question types"),
    ("/official_qa/correct_count", "2", "fail", 'official_qa.correct_count must be an integer, got string "2"'),
    ("/official_qa/correct_count", True, "fail", "official_qa.correct_count must be an integer, got boolean true"),
    ("/official_qa/correct_count", None, "fail", "/official_qa/correct_count is null"),
    ("/official_qa/evaluated_count", 5, "fail", "official_qa.evaluated_count 5 differs from the 4 eval_log rows"),
    ("/official_qa/hypothesis_count", 3, "fail", "official_qa.hypothesis_count 3 differs from the 4 evaluated rows"),
    ("/official_qa/accuracy", 0.51, "fail",
     "official_qa.accuracy: claimed 0.51 (2 places); the exact value 2/4 rounds to 0.500000 at the 6 places the "
     "profile declares"),
    ("/official_qa/accuracy", 50, "fail", "official_qa.accuracy: claimed 50; the exact value 2/4 rounds to 0.500000 at "
                                          "the 6 places the profile declares"),
    ("/official_qa/accuracy", ..., "fail", "/official_qa/accuracy is missing"),
], ids=["honest", "correct-wrong", "count-as-float", "count-as-string", "count-as-bool", "count-null",
        "evaluated-wrong", "hypothesis-count-wrong", "accuracy-wrong", "accuracy-percent", "accuracy-missing"])
def test_accuracy(path: str | None, value: Any, status: str, message: str) -> None:
    report = patched(path, value) if path else REPORT
    assert first(qa_accuracy, AccuracyParams(), ctx(report)) == (status, message)


def test_accuracy_lists_correct_over_evaluated() -> None:
    report = patched("/official_qa/correct_count", 5)
    messages = [f.message for f in findings(qa_accuracy, AccuracyParams(), ctx(report))]
    assert messages == ["official_qa.correct_count 5 differs from the 2 true labels in eval_log",
                        "official_qa.correct_count 5 is greater than official_qa.evaluated_count 4"]


def test_accuracy_rounded_to_six_places() -> None:
    rows = log_rows(q2=label(True))[:3]  # 2/3 correct
    report = patched("/official_qa/accuracy", 0.666667)
    for key, value in (("evaluated_count", 3), ("correct_count", 2), ("hypothesis_count", 3)):
        report["official_qa"][key] = value
    context = ctx(report, eval_log=jsonl_doc("eval_log", [{**r} for r in rows]))
    rows[1]["autoeval_label"] = label(False)
    assert first(qa_accuracy, AccuracyParams(dataset=None), context) == (
        "pass", "2/3 correct: overall accuracy 0.666667 (report 0.666667, rounded to 6 places)")
    report["official_qa"]["accuracy"] = 0.6667  # 4 places: a producer's rounding
    assert first(qa_accuracy, AccuracyParams(dataset=None), ctx(report, eval_log=context.documents["eval_log"])) == (
        "pass", "2/3 correct: overall accuracy 0.666667 (report 0.6667, rounded to 4 places)")
    report["official_qa"]["accuracy"] = 0.6666  # truncated, not rounded
    assert first(qa_accuracy, AccuracyParams(dataset=None), ctx(report, eval_log=context.documents["eval_log"])) == (
        "fail", "official_qa.accuracy: claimed 0.6666 (4 places); the exact value 2/3 rounds to 0.6667 at 4 places")


@pytest.mark.parametrize(("claimed", "exact", "ok"), [
    ("0.666667", Fraction(2, 3), True), ("0.666666", Fraction(2, 3), False),
    ("0.6667", Fraction(2, 3), True), ("0.608", Fraction(76, 125), True),
    ("0.5000005", Fraction(1, 2), False), ("0.000001", Fraction(1, 2000000), True),
    ("0.6", Fraction(600001, 1000000), False), ("0.6", Fraction(6000001, 10000000), True),
    ("0.67", Fraction(2, 3), False), ("1.000000", Fraction(9999999, 10000000), False),
], ids=["rounded-up", "truncated", "four-places", "exact", "seven-places", "half-up-at-boundary",
        "one-place-is-not-six", "trailing-zeros-dropped-at-six-places", "two-places-too-few", "boundary"])
def test_accuracy_stated_at_declared_places(claimed: str, exact: Fraction, ok: bool) -> None:
    raw = strictjson.loads(claimed.encode())
    judgement = stated(raw, exact, 6)
    assert judgement is not None and judgement.ok is ok


def test_accuracy_needs_types_for_every_scored_id() -> None:
    context = ctx(dataset=dataset_doc({"q1": "A", "q2": "A", "q3": "A"}))
    assert first(qa_accuracy, AccuracyParams(), context) == (
        "fail", 'cannot compute task-averaged accuracy: 1 eval_log id has no question type in dataset (first: '
                'line 4 ("q4"))')


def test_accuracy_refuses_invalid_labels() -> None:
    context = ctx(eval_log=jsonl_doc("eval_log", log_rows(q2="no")))
    assert first(qa_accuracy, AccuracyParams(), context) == (
        "fail", 'cannot recompute accuracy: 1 of 4 eval_log rows has no valid label (first: line 2: label is string '
                '"no", expected true/false or {"model", "label"})')


# --- SOTA comparison ----------------------------------------------------------------------


@pytest.mark.parametrize(("fields", "status", "message"), [
    ({}, "pass", "task-averaged accuracy 0.666667 (recomputed) is greater than baseline Best 0.6 "
                 "(official_longmemeval_task_averaged_accuracy)"),
    ({"accuracy": 0.7}, "fail", "task-averaged accuracy 0.666667 (recomputed) is not greater than baseline Best 0.7 "
                                "(official_longmemeval_task_averaged_accuracy)"),
    ({"metric": "official_longmemeval_overall_accuracy", "accuracy": 0.5}, "fail",
     "overall accuracy 0.5 (recomputed) equals baseline Best 0.5 (official_longmemeval_overall_accuracy): a tie is "
     "not better; task-averaged accuracy 0.666667 would be greater, but the baseline is overall accuracy and only "
     "the same kind is compared"),
    ({"metric": "official_longmemeval_overall_accuracy", "accuracy": 0.4999}, "pass",
     "overall accuracy 0.5 (recomputed) is greater than baseline Best 0.4999 (official_longmemeval_overall_accuracy)"),
    ({"accuracy": 0.6666666666666666}, "pass",
     "task-averaged accuracy 0.666667 (recomputed) is greater than baseline Best 0.6666666666666666 "
     "(official_longmemeval_task_averaged_accuracy)"),
    ({"metric": "recall@5"}, "fail",
     'baseline metric "recall@5" is a retrieval metric, not an official QA accuracy; expected one of '
     "official_longmemeval_overall_accuracy, official_longmemeval_task_averaged_accuracy"),
    ({"metric": "accuracy"}, "fail",
     'baseline metric "accuracy" is not an accepted official QA accuracy metric; expected one of '
     "official_longmemeval_overall_accuracy, official_longmemeval_task_averaged_accuracy"),
    ({"accuracy": 95.4}, "fail",
     "baseline accuracy 95.4 is not a fraction in [0, 1] (it looks like a percent; write a fraction)"),
    ({"accuracy": "0.6"}, "fail", 'baseline accuracy must be a number, got string "0.6"'),
    ({"accuracy": True}, "fail", "baseline accuracy must be a number, got boolean true"),
    ({"accuracy": ...}, "fail", "/accuracy is missing"),
    ({"system": ...}, "pass", "task-averaged accuracy 0.666667 (recomputed) is greater than baseline 0.6 "
                              "(official_longmemeval_task_averaged_accuracy)"),
], ids=["beats", "below", "tie-overall", "overall-just-above", "float-just-below-two-thirds", "retrieval-metric",
        "unknown-metric", "percent", "string", "bool", "missing", "no-system"])
def test_beats(fields: dict[str, Any], status: str, message: str) -> None:
    assert first(qa_beats_baseline, BeatsParams(metrics=METRICS), ctx(baseline=baseline(**fields))) == (status, message)


@pytest.mark.parametrize(("minimum", "metric", "status", "message"), [
    (None, "overall", "skip", "no minimum accuracy is set"),
    (0.5, "overall", "pass", "overall accuracy 0.5 (recomputed) is at least the minimum 0.5"),
    (0.51, "overall", "fail", "overall accuracy 0.5 (recomputed) is below the minimum 0.51"),
    (0.6, "task_averaged", "pass", "task-averaged accuracy 0.666667 (recomputed) is at least the minimum 0.6"),
    (65, "overall", "fail", "the minimum accuracy 65 is not a fraction in [0, 1]"),
], ids=["unset", "equal", "below", "task-averaged", "percent"])
def test_at_least(minimum: Any, metric: str, status: str, message: str) -> None:
    params = AtLeastParams(min=minimum, metric=metric)  # type: ignore[arg-type]
    assert first(qa_accuracy_at_least, params, ctx()) == (status, message)
