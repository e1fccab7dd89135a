"""The official LongMemEval QA kinds: recomputation, labels, hashes, validator, SOTA comparison."""

from __future__ import annotations

import copy
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any

import pytest

from bench_gate.checks.base import Context
from bench_gate.checks.generic.integrity import (
    CliConflictsParams, CrossCheckParams, ObjectsAgreeParams, Sha256Params, cli_conflicts, cross_check,
    objects_agree, sha256_matches,
)
from bench_gate.checks.official.qa import (
    AccuracyParams, AtLeastParams, BeatsParams, CommandParams, IdSetsParams, IndependentParams, LabelsParams,
    RowsParams, SameEvaluatorParams, independent_validator, official_eval_command, only_roles, parse_label,
    qa_accuracy, qa_accuracy_at_least, qa_beats_baseline, qa_id_sets, qa_labels, qa_rows, same_evaluator,
    stated, tally,
)
from bench_gate.loaders import strictjson
from bench_gate.models import Doc, Finding

import kindtest
from kindtest import run as run_kind

NOW = datetime(2026, 11, 29, 12, 0, 0, tzinfo=UTC)
MODEL_IDS = {"gpt-4o": "gpt-4o-2024-08-06", "gpt-4o-mini": "gpt-4o-mini-2024-07-18"}
METRICS = {"official_longmemeval_task_averaged_accuracy": "task_averaged",
           "official_longmemeval_overall_accuracy": "overall"}
H_DATASET, H_HYP, H_LOG = "a" * 64, "b" * 64, "c" * 64

# four questions of two types; labels: a1 true, a2 false (type A: 1/2), b1 true, b2 true (type B: 2/2)
# overall 3/4 = 0.75, task-averaged (1/2 + 1)/2 = 0.75 ... make B 1/1 and A 1/3 instead:
TYPES = {"q1": "A", "q2": "A", "q3": "A", "q4": "B"}
LABELS = {"q1": True, "q2": False, "q3": False, "q4": True}  # overall 2/4 = 0.5; task-avg (1/3 + 1)/2 = 2/3


def label(value: bool, model: str = "gpt-4o-2024-08-06") -> dict[str, Any]:
    return {"model": model, "label": value}


def log_rows(**overrides: Any) -> list[dict[str, Any]]:
    rows = [{"question_id": q, "hypothesis": "h", "autoeval_label": label(v)} for q, v in LABELS.items()]
    for q, value in overrides.items():
        for row in rows:
            if row["question_id"] == q:
                if value is ...:
                    del row["autoeval_label"]
                else:
                    row["autoeval_label"] = value
    return rows


def jsonl_doc(role: str, rows: list[Any], sha: str = "") -> Doc:
    return Doc(role, f"{role}.jsonl", sha, 100, rows=tuple((i + 1, r) for i, r in enumerate(rows)))


def dataset_doc(types: dict[str, str] = TYPES, streamed: bool = True) -> Doc:
    if streamed:
        return Doc("dataset", "data/ds.json", H_DATASET, 1000,
                   extra={"format": "dataset", "entries": len(types), "ids": tuple(types),
                          "types": tuple(types.values()), "problems": (), "problem_count": 0})
    return Doc("dataset", "data/ds.json", H_DATASET, 1000,
               data=[{"question_id": q, "question_type": t} for q, t in types.items()])


REPORT = {
    "official_qa": {"dataset_path": "data/ds.json", "dataset_sha256": H_DATASET, "dataset_question_count": 4,
                    "hypothesis_path": "hyp.jsonl", "hypothesis_count": 4, "eval_log_path": "log.jsonl",
                    "evaluated_count": 4, "correct_count": 2, "accuracy": 0.5, "evaluator_model": "gpt-4o",
                    "official_eval_command": "python3 evaluate_qa.py gpt-4o /abs/hyp.jsonl ../../data/ds.json"},
    "result_provenance": {"validator": {"name": "Independent Validator", "relation": "independent-third-party",
                                        "run_id": "r1", "evidence_url": "https://validation.openmemory.dev/run"},
                          "validated_system": {"name": "Zaxy"}},
    "sota_baseline": {"system": "S", "accuracy": 0.6},
    "artifacts": {"hypotheses": {"path": "hyp.jsonl", "sha256": H_HYP, "bytes": 100},
                  "official_eval_log": {"path": "log.jsonl", "sha256": H_LOG, "bytes": 100}},
}


def ctx(report: dict[str, Any] | None = None, **docs: Doc) -> Context:
    documents = {"report": Doc("report", "r.json", data=report if report is not None else REPORT),
                 "eval_log": jsonl_doc("eval_log", log_rows(), H_LOG),
                 "hypotheses": jsonl_doc("hypotheses", [{"question_id": q, "hypothesis": "h"} for q in LABELS], H_HYP),
                 "dataset": dataset_doc()}
    documents.update(docs)
    return kindtest.context(**documents)


def findings(fn: Any, params: Any, context: Context) -> list[Finding]:
    return kindtest.run(fn, params, context)


def first(fn: Any, params: Any, context: Context) -> tuple[str, str]:
    return kindtest.first(fn, params, context)


def patched(path: str, value: Any) -> dict[str, Any]:
    report = copy.deepcopy(REPORT)
    *parents, last = path.strip("/").split("/")
    cur = report
    for p in parents:
        cur = cur[p]
    if value is ...:
        del cur[last]
    else:
        cur[last] = value
    return report


# --- tally and labels ------------------------------------------------------------------


def test_tally_overall_and_task_averaged() -> None:
    t = tally(ctx(), "eval_log", "dataset")
    assert (t.correct, t.evaluated, t.overall, t.task_averaged) == (2, 4, Fraction(1, 2), Fraction(2, 3))
    assert t.per_type() == {"A": "1/3", "B": "1/1"}
    assert tally(ctx(dataset=dataset_doc(streamed=False)), "eval_log", "dataset").task_averaged == Fraction(2, 3)


@pytest.mark.parametrize(("value", "expected"), [
    (True, (True, None, None)),
    ({"model": "gpt-4o-2024-08-06", "label": False}, (False, "gpt-4o-2024-08-06", None)),
    ("yes", (None, None, 'label is string "yes", expected true/false or {"model", "label"}')),
    (1, (None, None, 'label is integer 1, expected true/false or {"model", "label"}')),
    ({"model": "m", "label": "true"}, (None, None, 'label.label is string "true", expected true or false')),
    ({"label": True}, (None, None, "label.model is missing, expected a model id")),
    ({"model": "m", "label": True, "score": 1}, (None, None, "label object has unexpected keys score")),
    (None, (None, None, 'label is null, expected true/false or {"model", "label"}')),
], ids=["bare-true", "official-object", "string", "integer", "string-label", "no-model", "extra-key", "null"])
def test_parse_label(value: Any, expected: tuple[Any, ...]) -> None:
    assert parse_label(value) == expected


@pytest.mark.parametrize(("rows", "declared", "status", "message"), [
    (log_rows(), "gpt-4o", "pass",
     "all 4 eval_log labels are valid, 2 true and 2 false: 4 from gpt-4o-2024-08-06, the declared evaluator gpt-4o"),
    (log_rows(), "gpt-4o-2024-08-06", "pass",
     "all 4 eval_log labels are valid, 2 true and 2 false: 4 from gpt-4o-2024-08-06, the declared evaluator "
     "gpt-4o-2024-08-06"),
    (log_rows(q1=True, q2=False, q3=False, q4=True), "gpt-4o", "pass",
     "all 4 eval_log labels are valid, 2 true and 2 false: 4 bare booleans, the declared evaluator gpt-4o"),
    (log_rows(q2=label(False, "gpt-4o-mini-2024-07-18")), "gpt-4o", "fail",
     '1 of 4 eval_log rows has an invalid label or another evaluator; first: line 2: label model '
     '"gpt-4o-mini-2024-07-18" is not the declared evaluator gpt-4o (gpt-4o-2024-08-06)'),
    (log_rows(q1="yes", q3=...), "gpt-4o", "fail",
     '2 of 4 eval_log rows have an invalid label or another evaluator; first: line 1: label is string "yes", '
     'expected true/false or {"model", "label"}; line 3: has no autoeval_label'),
    (log_rows(), "gpt-4o-mini", "fail",
     "4 of 4 eval_log rows have an invalid label or another evaluator; first: line 1: label model "
     '"gpt-4o-2024-08-06" is not the declared evaluator gpt-4o-mini (gpt-4o-mini-2024-07-18); line 2: label model '
     '"gpt-4o-2024-08-06" is not the declared evaluator gpt-4o-mini (gpt-4o-mini-2024-07-18); line 3: label model '
     '"gpt-4o-2024-08-06" is not the declared evaluator gpt-4o-mini (gpt-4o-mini-2024-07-18)'),
    ([*log_rows()[:3], ["not", "an", "object"]], "gpt-4o", "fail",
     "1 of 4 eval_log rows has an invalid label or another evaluator; first: line 4: row is array, not an object"),
    ([], "gpt-4o", "fail", "eval_log has no rows"),
    (log_rows(q3=True), "gpt-4o", "fail",
     'eval_log mixes 1 bare true/false label with 3 {"model", "label"} labels: rows of two evaluator runs, the '
     "bare ones from no declared evaluator (first bare: line 3)"),
], ids=["official-labels", "declared-full-id", "bare-booleans", "other-model", "invalid-and-missing",
        "declared-other-evaluator", "row-not-object", "empty-log", "stitched-bare-and-model-labels"])
def test_labels(rows: list[Any], declared: str, status: str, message: str) -> None:
    context = ctx(patched("/official_qa/evaluator_model", declared), eval_log=jsonl_doc("eval_log", rows))
    assert first(qa_labels, LabelsParams(model_ids=MODEL_IDS), context) == (status, message)


def test_labels_lists_every_bad_row_as_a_detail() -> None:
    context = ctx(eval_log=jsonl_doc("eval_log", log_rows(q1="yes", q3=...)))
    found = findings(qa_labels, LabelsParams(model_ids=MODEL_IDS), context)
    assert [f.message for f in found[1:]] == [
        'eval_log line 1: label is string "yes", expected true/false or {"model", "label"}',
        "eval_log line 3: has no autoeval_label"]


def test_labels_bare_bool_can_be_refused() -> None:
    context = ctx(eval_log=jsonl_doc("eval_log", log_rows(q1=True)))
    assert first(qa_labels, LabelsParams(model_ids=MODEL_IDS, allow_bare_bool=False), context) == (
        "fail", '1 of 4 eval_log rows has an invalid label or another evaluator; first: line 1: label is a bare '
                'true; expected {"model", "label"}')


# --- rows and id sets ---------------------------------------------------------------------


@pytest.mark.parametrize(("doc", "expected", "status", "message"), [
    (jsonl_doc("hypotheses", [{"question_id": q} for q in LABELS]), 4, "pass",
     "hypotheses has 4 rows (expected 4), 4 unique question_id values"),
    (jsonl_doc("hypotheses", [{"question_id": q} for q in LABELS]), 500, "fail", "hypotheses has 4 rows, expected 500"),
    (jsonl_doc("hypotheses", [{"question_id": "q1"}, {"question_id": "q1"}, {"question_id": "q2"}]), None, "fail",
     "1 question_id value appears more than once in hypotheses: q1 (line 1, line 2)"),
    (jsonl_doc("hypotheses", [{"question_id": "q1"}, {"question_id": 7}, {"id": "q3"}]), None, "fail",
     "2 of 3 hypotheses rows have no question_id string (first: line 2, line 3)"),
    (dataset_doc(), 4, "pass", "dataset has 4 entries (expected 4), 4 unique question_id values"),
    (dataset_doc(streamed=False), 5, "fail", "dataset has 4 entries, expected 5"),
    (Doc("hypotheses", "h.json", data={"rows": []}), 4, "fail",
     "document 'hypotheses' (h.json) must be JSON Lines or a JSON array, got object"),
    (Doc("hypotheses", "h.jsonl", error="line 3 is not valid JSON: Expecting value at line 1 column 1"), 4, "fail",
     "document 'hypotheses' (h.jsonl) line 3 is not valid JSON: Expecting value at line 1 column 1"),
    (jsonl_doc("hypotheses", [{"question_id": "q1"}, {"question_id": "Q1"}, {"question_id": "q2\u200b"},
                              {"question_id": "q2"}]), None, "fail",
     "2 question_id values in hypotheses only look unique: 'Q1' (line 2) and 'q1' (line 1) differ only by letter "
     "case, 'q2' (line 4) and 'q2\\u200b' (line 3) differ only by invisible characters"),
], ids=["exact", "short", "duplicate", "missing-ids", "streamed-dataset", "array-dataset", "object-document",
        "unreadable", "ids-alike-only-invisibly"])
def test_rows(doc: Doc, expected: int | None, status: str, message: str) -> None:
    role = doc.role
    assert first(qa_rows, RowsParams(document=role, expected_count=expected), ctx(**{role: doc})) == (status, message)


@pytest.mark.parametrize(("left_ids", "right_ids", "relation", "status", "message"), [
    (["q1", "q2"], ["q2", "q1"], "equal", "pass", "the 2 eval_log ids are the same set as the 2 hypotheses ids"),
    (["q1", "q2"], ["q1", "q3"], "equal", "fail", "1 eval_log id is not in hypotheses: q2"),
    (["q1"], ["q1", "q2"], "equal", "fail", "1 hypotheses id is not in eval_log: q2"),
    (["q1"], ["q1", "q2"], "subset", "pass", "all 1 eval_log ids are among the 2 hypotheses ids"),
    (["q1", "x", "y", "z", "w"], ["q1"], "subset", "fail",
     "4 eval_log ids are not in hypotheses: w, x, y and 1 more"),
], ids=["equal", "left-extra", "right-extra", "subset", "subset-listing"])
def test_id_sets(left_ids: list[str], right_ids: list[str], relation: str, status: str, message: str) -> None:
    context = ctx(eval_log=jsonl_doc("eval_log", [{"question_id": q} for q in left_ids]),
                  hypotheses=jsonl_doc("hypotheses", [{"question_id": q} for q in right_ids]))
    params = IdSetsParams(left="eval_log", right="hypotheses", relation=relation)  # type: ignore[arg-type]
    assert first(qa_id_sets, params, context) == (status, message)


def test_id_sets_refuse_rows_without_ids() -> None:
    context = ctx(eval_log=jsonl_doc("eval_log", [{"question_id": "q1"}, {"qid": "q2"}]))
    assert first(qa_id_sets, IdSetsParams(left="eval_log", right="hypotheses"), context) == (
        "fail", "eval_log line 2 has no question_id; the id sets cannot be compared")


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


def baseline(**fields: Any) -> Doc:
    data = {"system": "Best", "accuracy": 0.6, "metric": "official_longmemeval_task_averaged_accuracy"}
    data.update(fields)
    return Doc("baseline", "b.json", data={k: v for k, v in data.items() if v is not ...})


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


@pytest.mark.parametrize(("theirs", "require", "status", "message"), [
    ("gpt-4o", "match", "pass", "baseline evaluator_model gpt-4o (gpt-4o-2024-08-06) is our evaluator gpt-4o "
                                "(gpt-4o-2024-08-06)"),
    ("gpt-4o-2024-08-06", "match", "pass", "baseline evaluator_model gpt-4o-2024-08-06 is our evaluator gpt-4o "
                                           "(gpt-4o-2024-08-06)"),
    ("gpt-4o-mini", "match", "fail", "baseline evaluator_model gpt-4o-mini (gpt-4o-mini-2024-07-18) is not our "
                                     "evaluator gpt-4o (gpt-4o-2024-08-06): the accuracies are not comparable"),
    ("not_disclosed", "match", "skip", 'baseline evaluator_model "not_disclosed" is a placeholder: the baseline\'s '
                                       "evaluator is unknown, so the comparison is not like for like"),
    ("Unknown ", "disclosed", "fail", 'baseline evaluator_model "Unknown " is a placeholder: the baseline\'s '
                                      "evaluator is unknown, so the comparison is not like for like"),
    ("gpt-4o", "disclosed", "pass", 'baseline evaluator_model "gpt-4o" is disclosed'),
    (..., "match", "skip", "baseline evaluator_model is not given; nothing to compare"),
    (4, "match", "fail", "baseline evaluator_model must be a model name, got integer 4"),
], ids=["same-short", "same-full-id", "different", "placeholder-skipped", "placeholder-warns", "disclosed",
        "absent", "not-a-string"])
def test_same_evaluator(theirs: Any, require: str, status: str, message: str) -> None:
    params = SameEvaluatorParams(model_ids=MODEL_IDS, require=require)  # type: ignore[arg-type]
    assert first(same_evaluator, params, ctx(baseline=baseline(evaluator_model=theirs))) == (status, message)


# --- command, hashes, artifacts -----------------------------------------------------------


CMD = "official_qa.official_eval_command"


@pytest.mark.parametrize(("command", "status", "message"), [
    ("python3 evaluate_qa.py gpt-4o /abs/hyp.jsonl ../../data/ds.json", "pass",
     f"{CMD} runs evaluate_qa.py with evaluator gpt-4o on hyp.jsonl against ds.json"),
    ("python3 ./evaluate_qa.py gpt-4o-2024-08-06 'dir with space/hyp.jsonl' ../../data/longmemeval_oracle.json",
     "pass", f"{CMD} runs evaluate_qa.py with evaluator gpt-4o-2024-08-06 on hyp.jsonl against "
             "longmemeval_oracle.json"),
    ("/usr/bin/python3.11 src/evaluation/evaluate_qa.py gpt-4o /abs/hyp.jsonl /data/longmemeval_s_cleaned.json",
     "pass", f"{CMD} runs evaluate_qa.py with evaluator gpt-4o on hyp.jsonl against longmemeval_s_cleaned.json"),
    ("evaluate_qa.py gpt-4o hyp.jsonl ds.json", "pass",
     f"{CMD} runs evaluate_qa.py with evaluator gpt-4o on hyp.jsonl against ds.json"),
    ("cd src/evaluation && python3 evaluate_qa.py gpt-4o hyp.jsonl ds.json", "fail",
     f"{CMD} holds the shell character '&': it is more than the official evaluator command "
     '("cd src/evaluation && python3 evaluate_qa.py gpt-4o hyp.jsonl ds.json")'),
    ("echo evaluate_qa.py gpt-4o hyp.jsonl ds.json", "fail",
     f'{CMD} does not run evaluate_qa.py: "echo evaluate_qa.py gpt-4o hyp.jsonl ds.json"'),
    ("python3 evaluate_qa.py gpt-4o hyp.jsonl ds.json; rm -rf /", "fail",
     f"{CMD} holds the shell character ';': it is more than the official evaluator command "
     '("python3 evaluate_qa.py gpt-4o hyp.jsonl ds.json; rm -rf /")'),
    ("python3 evaluate_qa.py gpt-4o hyp.jsonl $(cat ds.json)", "fail",
     f"{CMD} holds the shell character '$': it is more than the official evaluator command "
     '("python3 evaluate_qa.py gpt-4o hyp.jsonl $(cat ds.json)")'),
    ("python3 evaluate_qa.py gpt-4o hyp.jsonl ds.json extra", "fail",
     f"{CMD} passes 4 arguments to evaluate_qa.py, expected exactly 3 ([python3] evaluate_qa.py <evaluator model> "
     "<hypotheses file> <reference file>)"),
    ("env OPENAI_API_KEY=x python3 evaluate_qa.py gpt-4o hyp.jsonl ds.json", "fail",
     f'{CMD} does not run evaluate_qa.py: "env OPENAI_API_KEY=x python3 evaluate_qa.py gpt-4o hyp.jsonl ds.json"'),
    ("python3 print_qa_metrics.py log.jsonl ref.json", "fail",
     f'{CMD} does not run evaluate_qa.py: "python3 print_qa_metrics.py log.jsonl ref.json"'),
    ("python3 evaluate_qa.py gpt-4o-mini /abs/hyp.jsonl ds.json", "fail",
     f'{CMD} evaluates with "gpt-4o-mini", but the declared evaluator is "gpt-4o"'),
    ("python3 evaluate_qa.py gpt-4o /abs/other.jsonl ds.json", "fail",
     f'{CMD} evaluates "/abs/other.jsonl", not the hypotheses file "hyp.jsonl"'),
    ("python3 evaluate_qa.py gpt-4o hyp.jsonl answers.json", "fail",
     f'{CMD} scores against "answers.json", which is neither the dataset file nor an official LongMemEval file '
     "(ds.json, longmemeval_m.json, longmemeval_m_cleaned.json, longmemeval_oracle.json, longmemeval_s.json, "
     "longmemeval_s_cleaned.json)"),
    ("python3 evaluate_qa.py gpt-4o hyp.jsonl", "fail",
     f"{CMD} passes 2 arguments to evaluate_qa.py, expected exactly 3 ([python3] evaluate_qa.py <evaluator "
     "model> <hypotheses file> <reference file>)"),
    ("python3 evaluate_qa.py 'gpt-4o", "fail", f"{CMD} cannot be split into words (No closing quotation)"),
    ("", "fail", f'{CMD} must be a non-empty string, got string ""'),
], ids=["seed-form", "full-id-quoted", "interpreter-path", "no-interpreter", "cd-and", "echo", "chained-rm",
        "substitution", "extra-argument", "env-prefix", "other-script", "other-model", "other-file",
        "other-reference", "no-reference", "bad-quotes", "empty"])
def test_command(command: str, status: str, message: str) -> None:
    report = patched("/official_qa/official_eval_command", command)
    assert first(official_eval_command, CommandParams(model_ids=MODEL_IDS), ctx(report)) == (status, message)


@pytest.mark.parametrize(("recorded", "status", "message"), [
    (H_HYP, "pass", "artifacts.hypotheses.sha256 bbbbbbbbbbbb… matches the hypotheses file hypotheses.jsonl "
                    "(100 bytes)"),
    (H_LOG, "fail", "artifacts.hypotheses.sha256 cccccccccccc… does not match the hypotheses file hypotheses.jsonl "
                    "(sha256 bbbbbbbbbbbb…)"),
    (H_HYP.upper(), "fail", 'artifacts.hypotheses.sha256 "BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB"'
                            " is not 64 lowercase hex characters"),
    ("sha256:" + H_HYP, "fail", 'artifacts.hypotheses.sha256 "sha256:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb'
                                'bbbbbbbbbbbbbbb" is not 64 lowercase hex characters'),
    (12, "fail", "artifacts.hypotheses.sha256 must be a 64-hex string, got integer 12"),
    (None, "fail", "/artifacts/hypotheses/sha256 is null"),
], ids=["match", "other-hash", "uppercase", "prefixed", "number", "null"])
def test_sha256(recorded: Any, status: str, message: str) -> None:
    report = patched("/artifacts/hypotheses/sha256", recorded)
    params = Sha256Params(document="hypotheses", recorded="/artifacts/hypotheses/sha256")
    assert first(sha256_matches, params, ctx(report)) == (status, message)


# --- validator ----------------------------------------------------------------------------

VALIDATOR = {
    "validated_system": {"name": "Zaxy"},
    "artifacts": {"hypotheses_sha256": H_HYP},
    "official_evaluation": {"evaluator_model": "gpt-4o-2024-08-06", "correct_count": 2, "accuracy": 0.5000004},
    "validator": {"name": "Independent Validator", "run_id": "r1", "relation": "", "evidence_url": None},
}
CROSS = CrossCheckParams(
    fields={"name": ["validator:/validated_system/name", "/result_provenance/validated_system/name"],
            "model": ["validator:/official_evaluation/evaluator_model", "/official_qa/evaluator_model"],
            "correct": ["validator:/official_evaluation/correct_count", "/official_qa/correct_count"],
            "accuracy": ["validator:/official_evaluation/accuracy", "/official_qa/accuracy"]},
    hashes={"hypotheses": ["validator:/artifacts/hypotheses_sha256", "hypotheses"]},
    tolerances={"accuracy": 0.000001}, models=["model"], model_ids=MODEL_IDS)


def validator_doc(section: str = "", **changes: Any) -> Doc:
    data = copy.deepcopy(VALIDATOR)
    if section:
        data[section].update(changes)
    return Doc("validator", "v.json", data=data)


def test_cross_check_agrees() -> None:
    assert first(cross_check, CROSS, ctx(validator=validator_doc())) == (
        "pass", "all 5 validator evidence checks agree with the report and the files (4 fields, 1 file hashes)")


def test_cross_check_lists_every_mismatch() -> None:
    doc = validator_doc("official_evaluation", correct_count=3, accuracy=0.51, evaluator_model="gpt-4o-mini")
    doc.data["artifacts"]["hypotheses_sha256"] = H_LOG
    found = findings(cross_check, CROSS, ctx(validator=doc))
    assert [f.message for f in found] == [
        '4 of 5 validator evidence checks disagree with the report and the files: model "gpt-4o-mini" vs "gpt-4o"; '
        "correct 3 vs 2; accuracy 0.51 vs 0.5; hypotheses cccccccccccc… vs bbbbbbbbbbbb…",
        'model: validator official_evaluation.evaluator_model is "gpt-4o-mini" but official_qa.evaluator_model is '
        '"gpt-4o"',
        "correct: validator official_evaluation.correct_count is 3 but official_qa.correct_count is 2",
        "accuracy: validator official_evaluation.accuracy is 0.51 but official_qa.accuracy is 0.5 (tolerance 1e-06)",
        "hypotheses: validator artifacts.hypotheses_sha256 cccccccccccc… does not match the hypotheses file "
        "hypotheses.jsonl (sha256 bbbbbbbbbbbb…)",
    ]


@pytest.mark.parametrize(("section", "changes", "message"), [
    ("official_evaluation", {"correct_count": None},
     "1 of 5 validator evidence checks disagree with the report and the files: correct null vs 2"),
    ("official_evaluation", {"correct_count": "2"},
     '1 of 5 validator evidence checks disagree with the report and the files: correct "2" vs 2'),
    ("official_evaluation", {"accuracy": 0.500002},
     "1 of 5 validator evidence checks disagree with the report and the files: accuracy 0.500002 vs 0.5"),
    ("validated_system", {"name": " "},
     '1 of 5 validator evidence checks disagree with the report and the files: name blank vs "Zaxy"'),
    ("artifacts", {"hypotheses_sha256": ""},
     "1 of 5 validator evidence checks disagree with the report and the files: hypotheses blank vs bbbbbbbbbbbb…"),
], ids=["null-count", "string-count", "accuracy-beyond-tolerance", "blank-name", "blank-hash"])
def test_cross_check_fail_closed(section: str, changes: dict[str, Any], message: str) -> None:
    assert first(cross_check, CROSS, ctx(validator=validator_doc(section, **changes))) == ("fail", message)


def test_cross_check_without_the_file() -> None:
    assert first(cross_check, CROSS, ctx()) == ("fail", "document 'validator' was not supplied")


@pytest.mark.parametrize(("left", "right", "status", "message"), [
    ({"system": "S", "accuracy": 0.6}, {"system": "S", "accuracy": 0.6}, "pass",
     "sota_baseline and the baseline file agree on all 2 fields"),
    ({"system": "S", "accuracy": 0.6}, {"system": "S", "accuracy": 0.60}, "pass",
     "sota_baseline and the baseline file agree on all 2 fields"),
    ({"system": "S", "accuracy": 0.6}, {"system": "S", "accuracy": 0.5, "notes": "n"}, "fail",
     "sota_baseline and the baseline file differ in 2 fields: accuracy, notes"),
    (None, {"system": "S"}, "skip", "sota_baseline is null; nothing to compare"),
    ("S", {"system": "S"}, "fail", "sota_baseline must be an object, got string"),
], ids=["same", "same-number", "differ", "absent", "not-object"])
def test_objects_agree(left: Any, right: Any, status: str, message: str) -> None:
    report = patched("/sota_baseline", left)
    context = ctx(report, baseline=Doc("baseline", "b.json", data=right))
    assert first(objects_agree, ObjectsAgreeParams(left="/sota_baseline", right="baseline:"), context) == (
        status, message)


AGAINST = {"--validator-name": ["validator:/validator/name", "/result_provenance/validator/name"],
           "--validator-relation": ["validator:/validator/relation", "/result_provenance/validator/relation"],
           "--validator-evidence-url": ["validator:/validator/evidence_url"]}


@pytest.mark.parametrize(("given", "status", "message"), [
    ({}, "pass", "no validator fields were given on the command line; nothing can conflict"),
    ({"--validator-name": "Independent Validator"}, "pass",
     "1 command-line value (--validator-name) agrees with 2 non-blank evidence values"),
    ({"--validator-name": "Someone"}, "fail",
     '--validator-name "Someone" conflicts with validator validator.name "Independent Validator"; a command-line '
     "value never overrides the evidence"),
    ({"--validator-relation": "self"}, "fail",
     '--validator-relation "self" conflicts with result_provenance.validator.relation "independent-third-party"; a '
     "command-line value never overrides the evidence"),
    ({"--validator-evidence-url": "https://a.org/run"}, "pass",
     "1 command-line value (--validator-evidence-url) agrees with 0 non-blank evidence values"),
    ({"--validator-name": "  "}, "pass", "no validator fields were given on the command line; nothing can conflict"),
], ids=["none", "same", "conflict-file", "conflict-report-blank-file", "file-null", "blank-given"])
def test_cli_conflicts(given: dict[str, Any], status: str, message: str) -> None:
    full = {"--validator-name": None, "--validator-relation": None, "--validator-evidence-url": None, **given}
    context = ctx(validator=validator_doc())
    assert first(cli_conflicts, CliConflictsParams(given=full, against=AGAINST), context) == (status, message)


INDEPENDENT = ["independent-third-party", "third-party", "independent"]
REL = "result_provenance.validator.relation"
NAME = "result_provenance.validator.name"


@pytest.mark.parametrize(("relation", "name", "status", "message"), [
    ("independent-third-party", "Independent Validator", "pass",
     'validator "Independent Validator" is "independent-third-party" (independent-third-party) to "Zaxy"'),
    ("Independent Third Party", "V", "pass",
     'validator "V" is "Independent Third Party" (independent-third-party) to "Zaxy"'),
    ("self", "V", "fail", f'{REL} "self" is not an independent relation (accepted: {", ".join(INDEPENDENT)})'),
    ("\u0455elf", "V", "fail",
     f'{REL} "\u0455elf" is not an independent relation (accepted: {", ".join(INDEPENDENT)})'),
    ("employees", "V", "fail", f'{REL} "employees" is not an independent relation (accepted: {", ".join(INDEPENDENT)})'),
    ("independent (we are the owners)", "V", "fail",
     f'{REL} "independent (we are the owners)" is not an independent relation (accepted: {", ".join(INDEPENDENT)})'),
    ("indep\u200bendent", "V", "pass", 'validator "V" is "indep\u200bendent" (independent) to "Zaxy"'),
    ("independent", "ZAXY", "fail", f'{NAME} "ZAXY" reads as the validated system\'s name "Zaxy" (compared as '
                                    "'zaxy' and 'zaxy')"),
    ("independent", "Z\u0430xy", "fail", f'{NAME} "Z\u0430xy" reads as the validated system\'s name "Zaxy" '
                                          "(compared as 'zaxy' and 'zaxy')"),
    ("independent", "ZaxyLabs", "fail", f'{NAME} "ZaxyLabs" reads as the validated system\'s name "Zaxy" '
                                        "(compared as 'zaxylabs' and 'zaxy')"),
    ("independent", "Z.a.x.y Labs", "fail", f'{NAME} "Z.a.x.y Labs" reads as the validated system\'s name "Zaxy" '
                                            "(compared as 'zaxylabs' and 'zaxy')"),
    ("independent", "---", "fail", f'{NAME} "---" has no letters or digits: it names no validator'),
    ("", "V", "fail", f'{REL} must be a non-empty string, got string ""'),
], ids=["independent", "spaced-capitals", "self", "cyrillic-dze-self", "employees", "allow-word-inside",
        "zero-width-inside-allowed", "validator-is-system", "cyrillic-a", "labs-suffix", "dotted-labs",
        "punctuation-name", "blank"])
def test_independent(relation: str, name: str, status: str, message: str) -> None:
    report = patched("/result_provenance/validator/relation", relation)
    report["result_provenance"]["validator"]["name"] = name
    params = IndependentParams(independent=INDEPENDENT)
    assert first(independent_validator, params, ctx(report)) == (status, message)


EXAMPLES = ["Independent Validator", "validator-run-001", "https://validation.openmemory.dev/reviewable-run"]
ROLES = ["independent", "third", "party", "external", "validator", "reviewer", "audit", "team", "lab", "the"]


@pytest.mark.parametrize(("name", "run_id", "url", "messages"), [
    ("Okafor Evaluation Lab", "12019384756", "https://github.com/okafor-eval/reruns/actions/runs/1", []),
    ("Independent Validator", "r1", "https://github.com/v/r", [f'{NAME} "Independent Validator" is the example']),
    ("INDEPENDENT  validator.", "r1", "https://github.com/v/r", [f'{NAME} "INDEPENDENT  validator." is the example']),
    ("Indеpendent Validator", "r1", "https://github.com/v/r", [f'{NAME} "Indеpendent Validator" is the ex']),
    ("V Lab", "validator-run-001", "https://validation.openmemory.dev/reviewable-run/",
     ['result_provenance.validator.run_id "validator-run-001" is the example',
      'result_provenance.validator.evidence_url "https://validation.openmemory.dev/reviewable-run/" is the example']),
    ("Third-party reviewer", "r1", "https://github.com/v/r",
     [f'{NAME} "Third-party reviewer" names a role, not a person or an organisation']),
    ("TheExternalAuditTeam", "r1", "https://github.com/v/r", [f'{NAME} "TheExternalAuditTeam" names a role']),
    ("Thea Okafor", "r1", "https://github.com/v/r", []),
    ("V Lab", "r1", "https://Validation.OpenMemory.dev./reviewable-run?run=7",
     ['result_provenance.validator.evidence_url "https://Validation.OpenMemory.dev./reviewable-run?run=7" is on '
      'validation.openmemory.dev, the host of the validator record\'s documentation example']),
], ids=["named", "example-name", "example-name-spelt-otherwise", "example-name-cyrillic-e", "example-run-id-and-url",
        "role-only", "role-words-run-together", "name-starting-like-a-role", "example-host-other-path"])
def test_validator_is_named_not_a_template(name: str, run_id: str, url: str, messages: list[str]) -> None:
    report = patched("/result_provenance/validator/name", name)
    report["result_provenance"]["validator"].update(run_id=run_id, evidence_url=url, relation="independent")
    found = list(run_kind(independent_validator, IndependentParams(independent=INDEPENDENT, examples=EXAMPLES,
                                                                 role_words=ROLES), ctx(report)))
    if not messages:
        assert [f.status for f in found] == ["pass"]
        return
    assert [f.status for f in found] == ["fail"] * len(messages)
    for finding, start in zip(found, messages):
        assert finding.message.startswith(start)


@pytest.mark.parametrize(("key", "role"), [("", False), ("validator", True), ("thirdpartyvalidator", True),
                                           ("validatorx", False), ("thethe", True), ("okafor", False)])
def test_only_roles(key: str, role: bool) -> None:
    assert only_roles(key, frozenset({"the", "third", "party", "validator"})) is role


# --- parameters are validated when the profile compiles -----------------------------------


def _validate(kind: str, raw: dict[str, Any]) -> Any:
    from bench_gate.checks import registry
    from bench_gate.profile.kindparams import validate_params

    return validate_params(registry()[kind].params, raw)


@pytest.mark.parametrize(("kind", "raw"), [
    ("fresh", {"at": "baseline:/checked_at", "max_age": "P30D"}),
    ("public_url", {"at": "baseline:/evidence_url", "optional": True, "blocked_domains": ["corp.dev"]}),
    ("qa_rows", {"document": "eval_log", "expected_count": 500}),
    ("qa_beats_baseline", {"metrics": METRICS}),
    ("qa_accuracy_at_least", {"min": None}),
    ("qa_accuracy_at_least", {"min": 1}),
    ("cross_check", {"fields": {"a": ["/x", "validator:/x"]}, "tolerances": {"a": 0.000001}}),
    ("cli_conflicts", {"given": {"--validator-name": None}, "against": {"--validator-name": ["/x"]}}),
], ids=["fresh", "public-url", "rows", "beats", "min-null", "min-integer", "cross-check", "cli-conflicts"])
def test_params_accepted(kind: str, raw: dict[str, Any]) -> None:
    import dataclasses

    from bench_gate.checks import registry

    params = _validate(kind, raw)
    assert type(params) is registry()[kind].params
    # every value given is kept exactly, with its type (1 stays the integer 1, null stays null)
    given = {k: getattr(params, k) for k in raw}
    assert given == raw
    assert [type(v) for v in given.values()] == [type(v) for v in raw.values()]
    # and every parameter not given has its declared default
    for f in dataclasses.fields(params):
        if f.name not in raw and f.default is not dataclasses.MISSING:
            assert getattr(params, f.name) == f.default


@pytest.mark.parametrize(("kind", "raw", "message"), [
    ("fresh", {"at": "/x", "max_age": "30"}, "max_age '30' is not an ISO 8601 duration (P30D, P2W, P1M, P1Y, PT12H)"),
    ("fresh", {"at": "/x", "max_age": 30}, "Input should be a valid string, got 30"),
    ("fresh", {"at": "/x", "max_age": True}, "Input should be a valid string, got true"),
    ("fresh", {"at": "/x", "max_age": "-P1D"}, "max_age '-P1D' is not an ISO 8601 duration (P30D, P2W, P1M, P1Y, PT12H)"),
    ("fresh", {"at": "/x", "max_age": "P30D", "max_age_days": 30}, "unknown parameter"),
    ("fresh", {"at": "/x"}, "required parameter is missing"),
    ("public_url", {"at": "/x", "max_length": 0}, "max_length must be 1 or more, got 0"),
    ("qa_rows", {"document": "eval_log", "expected_count": -5}, "expected_count must be 0 or more, got -5"),
    ("qa_beats_baseline", {"metrics": {"m": "average"}}, "Input should be 'overall' or 'task_averaged', got \"average\""),
    ("qa_id_sets", {"left": "a", "right": "b", "relation": "superset"}, "Input should be 'equal' or 'subset', got \"superset\""),
    ("qa_accuracy", {"places": 20}, "places must be between 0 and 12, got 20"),
    ("same_evaluator", {"require": "maybe"}, "Input should be 'match' or 'disclosed', got \"maybe\""),
], ids=["string-days", "float-days", "bool-days", "negative-days", "unknown-key", "missing-key", "zero-length",
        "negative-count", "bad-kind", "bad-relation", "places", "bad-require"])
def test_params_refused(kind: str, raw: dict[str, Any], message: str) -> None:
    from bench_gate.profile.kindparams import ParamError

    with pytest.raises((ParamError, ValueError)) as err:
        _validate(kind, raw)
    text = err.value.message if isinstance(err.value, ParamError) else str(err.value)
    assert text == message


def test_tally_actual_reports_both_accuracies_and_abstention() -> None:
    from bench_gate.checks.official.qa import tally_actual

    rows = log_rows()
    rows[1]["question_id"] = "q2_abs"
    context = ctx(eval_log=jsonl_doc("eval_log", rows),
                  dataset=dataset_doc({"q1": "A", "q2_abs": "A", "q3": "A", "q4": "B"}))
    assert tally_actual(tally(context, "eval_log", "dataset")) == {
        "correct": 2, "evaluated": 4, "overall_accuracy": 0.5, "task_averaged_accuracy": 2 / 3,
        "per_type": {"A": "1/3", "B": "1/1"}, "abstention": "0/1"}
