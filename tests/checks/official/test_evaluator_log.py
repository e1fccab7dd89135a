"""The official evaluator log: its labels and tallies, and the kinds that check its rows, ids and
labels (``qa_rows``, ``qa_id_sets``, ``qa_labels``)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from bench_gate.checks.official.evaluator_log import (
    IdSetsParams, LabelsParams, RowsParams, parse_label, qa_id_sets, qa_labels, qa_rows, tally,
)
from bench_gate.models import Doc

from qasetup import LABELS, MODEL_IDS, ctx, dataset_doc, findings, first, jsonl_doc, label, log_rows, patched


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


def test_tally_actual_reports_both_accuracies_and_abstention() -> None:
    from bench_gate.checks.official.evaluator_log import tally_actual

    rows = log_rows()
    rows[1]["question_id"] = "q2_abs"
    context = ctx(eval_log=jsonl_doc("eval_log", rows),
                  dataset=dataset_doc({"q1": "A", "q2_abs": "A", "q3": "A", "q4": "B"}))
    assert tally_actual(tally(context, "eval_log", "dataset")) == {
        "correct": 2, "evaluated": 4, "overall_accuracy": 0.5, "task_averaged_accuracy": 2 / 3,
        "per_type": {"A": "1/3", "B": "1/1"}, "abstention": "0/1"}
